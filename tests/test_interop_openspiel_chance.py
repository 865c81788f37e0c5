"""The OpenSpiel adapter's chance outcomes: cached per chance situation (a Farkle roll: per
number of dice in hand; a Master deal: per table the engine shares), and yet exactly the list
the engine gives, sorted by id, at every position of random games of each game."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import dragonlair.interop.openspiel  # noqa: E402, F401 (registers the games)
from dragonlair.core.game import ChanceTable  # noqa: E402
from dragonlair.games.farkle.enums import Phase  # noqa: E402

CASES = [
    ("dragonlair_farkle", {"players": 2}, 12),
    ("dragonlair_farkle", {"players": 4, "dragon": 3, "max_turns": 12}, 4),
    ("dragonlair_master", {}, 12),
    ("dragonlair_master", {"four_of_a_kind_face": True}, 4),
    ("dragonlair_fist", {"players": 3, "max_turns": 4}, 3),
    ("dragonlair_fist_turn_based", {"players": 5, "max_turns": 3}, 3),
]


def _uncached(state: Any) -> list[tuple[int, float]]:
    """The adapter's answer before the cache: the engine's list, as ids, sorted."""
    off = state._core.ctx.offset
    return sorted((a.index - off, p) for a, p in state.engine_state.chance_outcomes())


def _random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p))
                             for p in range(state.num_players())])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "params", "games"), CASES,
                         ids=[f"{c[0].removeprefix('dragonlair_')}-{i}"
                              for i, c in enumerate(CASES)])
def test_chance_outcomes_are_the_uncached_list(name: str, params: dict[str, Any],
                                               games: int) -> None:
    """Same ids, same order, same probabilities (exactly equal floats) as the listing, at
    every position (decision nodes: none), the cache shared by all the games of one loaded
    game. A cached answer is a read-only ChanceTable (its running sums those of its
    probabilities); a listed one a new list, whose change by the caller does not change the
    next answer."""
    game = pyspiel.load_game(name, params)
    chance_nodes = tables = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            expected = _uncached(state)
            got = state.chance_outcomes()
            assert list(got) == expected
            assert [type(i) for i, _ in got] == [int] * len(got)
            if type(got) is ChanceTable:  # shared: the same object next time, unchangeable
                assert state.chance_outcomes() is got
                assert list(got.sums) == list(itertools.accumulate(p for _, p in got))
                tables += 1
            else:
                assert type(got) is list
                got.clear()  # the caller's list
                assert state.chance_outcomes() == expected
            if state.is_terminal():
                break
            assert bool(expected) == state.is_chance_node()
            chance_nodes += state.is_chance_node()
            _random_step(state, rng)
    assert chance_nodes > games
    cache = game.ctx.chance_cache
    if name == "dragonlair_farkle":  # a roll of 1 to 6 dice, a rerolled die: a key each
        assert cache and len(cache) <= 7
        assert {k[0] for k in cache} <= {Phase.ROLL, Phase.DIE}
        assert any(k == (Phase.ROLL, 6) and len(v) == 1386 for k, v in cache.items())
        assert tables > 0
    else:
        assert cache == {}
    if name == "dragonlair_master":  # every deal and the start: tables the engine shares
        assert tables == chance_nodes and game.ctx.table_cache


def test_the_cache_belongs_to_one_loaded_game() -> None:
    """Two Farkle games loaded with different options keep apart caches (action ids are the
    loaded game's)."""
    a = pyspiel.load_game("dragonlair_farkle", {"players": 2})
    b = pyspiel.load_game("dragonlair_farkle", {"players": 5})
    assert a.ctx.chance_cache is not b.ctx.chance_cache
    for game in (a, b):
        state = game.new_initial_state()
        rng = random.Random(1)
        while not state.is_chance_node() or state.engine_state.phase is not Phase.ROLL:
            _random_step(state, rng)
        assert list(state.chance_outcomes()) == _uncached(state)
        assert (Phase.ROLL, 6) in game.ctx.chance_cache
