"""Cross-game conformance: every game honours the contract in dragonlair/core/game.py."""

from __future__ import annotations

import ast
import json
import math
import random
from pathlib import Path

import pytest

from dragonlair.core.errors import IllegalActionError, MalformedActionError
from dragonlair.core.game import CHANCE
from dragonlair.games import GAME_FACTORIES, make_game

PACKAGE = Path(__file__).resolve().parent.parent / "dragonlair"


def test_nothing_uses_the_global_random() -> None:
    """Chance comes from a seeded random.Random handed in, never the module-level one."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random" and node.attr != "Random"):
                offenders.append(f"{path.name}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                offenders.append(f"{path.name}:{node.lineno} from random import ...")
    assert not offenders, offenders


@pytest.mark.parametrize("game_id", sorted(GAME_FACTORIES))
def test_walk_honours_the_contract(game_id: str) -> None:
    game = make_game(game_id)
    info = game.info
    assert info.id == game_id and info.version >= 1
    assert info.min_players <= game.num_players <= info.max_players
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            seats = state.current_seats()
            if seats == (CHANCE,):
                outcomes = state.chance_outcomes()
                assert outcomes and math.isclose(sum(p for _, p in outcomes), 1.0)
                assert all(p > 0 for _, p in outcomes)
                assert state.legal_actions(0) == ()
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for seat in seats:
                legal = list(state.legal_actions(seat))
                assert legal == sorted(legal, key=lambda a: a.index), "stable order"
                assert len({a.index for a in legal}) == len(legal)
            if seed % 10 == 0:
                _illegal_changes_nothing(game, state, seats, rng)
            for seat in seats:
                state.apply(seat, rng.choice(list(state.legal_actions(seat))))
        outcome = state.outcome()
        assert outcome is not None and outcome.reason
        assert len(outcome.placings) == game.num_players
        assert all(outcome.placings[w] == 1 for w in outcome.winners)
        if not outcome.winners:  # a draw: everybody shares first place
            assert set(outcome.placings) == {1}
        assert state.current_seats() == () and state.legal_actions(0) == ()


def _illegal_changes_nothing(game, state, seats, rng) -> None:  # type: ignore[no-untyped-def]
    before = json.dumps(state.full_state(), sort_keys=True)
    seat = seats[0]
    legal = set(state.legal_actions(seat))
    others = [game.action_from_index(i) for i in rng.sample(range(game.num_distinct_actions),
                                                            40)]
    for action in others:
        if action not in legal:
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)
    outsider = next((s for s in range(game.num_players) if s not in seats), None)
    if outsider is not None:
        with pytest.raises(IllegalActionError):
            state.apply(outsider, next(iter(legal)))
    assert json.dumps(state.full_state(), sort_keys=True) == before


@pytest.mark.parametrize("game_id", sorted(GAME_FACTORIES))
def test_malformed_actions_are_not_illegal_ones(game_id: str) -> None:
    game = make_game(game_id)
    for text in ("", "banana", "bid", "bid fx c1", "pay rrq", "place dragon d4", "place ruby z9"):
        with pytest.raises(MalformedActionError):
            game.parse_action(text)
