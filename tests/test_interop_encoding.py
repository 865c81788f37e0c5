"""Observation vectors and strings: fixed shapes, documented layouts, declared ranges, built
from views only; and the core package never imports the research extras."""

from __future__ import annotations

import ast
import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from dragonlair.core.game import CHANCE  # noqa: E402
from dragonlair.games import make_game  # noqa: E402
from dragonlair.interop import common  # noqa: E402
from dragonlair.interop.encoding import (  # noqa: E402
    encoder_for,
    information_state_string,
    observation_string,
)
from tests import sources  # noqa: E402
from tests.sizes import quick_first, size  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("master", {}), ("master", {"match": True}),
    ("farkle", {"players": 2}), ("farkle", {"players": 5}),
    ("fist", {"players": 3}), ("fist", {"players": 6}),
]


def _views(game_id: str, options: dict[str, Any], games: int, seed: int = 0,
           every: int = 1) -> Any:
    """Every seat's view and the spectator's at every ``every``-th step of random games (and
    at the end)."""
    game = make_game(game_id, {**options, **({"max_turns": 6} if game_id != "master" else {})})
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_initial_state()
        step = 0
        while True:
            if step % every == 0 or state.is_terminal():
                for seat in [*range(game.num_players), None]:
                    yield game, state.view(seat)
            step += 1
            if state.is_terminal():
                break
            seats = state.current_seats()
            if seats == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                for s in seats:
                    state.apply(s, rng.choice(list(state.legal_actions(s))))


@pytest.mark.parametrize(("game_id", "options"), quick_first(5, CONFIGS),  # Fist 6: CI
                         ids=[f"{g}-{o.get('players', 'match' if o else 2)}" for g, o in CONFIGS])
def test_vectors_have_one_shape_and_stay_in_their_declared_range(
        game_id: str, options: dict[str, Any]) -> None:
    """Quick: three games of the small tables, one of the big ones, Fist's views every third
    step (a Fist game is hundreds of steps; the slow twin: every step of other games)."""
    fist = game_id == "fist"
    check_vectors(game_id, options, games=1 if fist or options.get("players", 2) >= 5 else 3,
                  every=3 if fist else 1)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "options"), CONFIGS,
                         ids=[f"{g}-{o.get('players', 'match' if o else 2)}" for g, o in CONFIGS])
def test_vectors_have_one_shape_and_stay_in_their_declared_range_many(
        game_id: str, options: dict[str, Any]) -> None:
    """Every step of other games (6 turns at most): CI one each, ``scripts/test.sh --long``
    six (tests/sizes.py)."""
    check_vectors(game_id, options, games=size(ci=1, long=6), seed=10)


def check_vectors(game_id: str, options: dict[str, Any], games: int, every: int = 1,
                  seed: int = 0) -> None:
    enc = None
    for game, view in _views(game_id, options, games=games, seed=seed, every=every):
        enc = enc or encoder_for(game)
        obs = enc.observation(view)
        info = enc.information_state(view)
        assert obs.dtype == np.float32 and obs.shape == (enc.observation_size,)
        assert info.shape == (enc.information_state_size,)
        assert np.array_equal(info[:enc.observation_size], obs)
        # the unclipped values already lie in [0, high]: clipping is only a guard
        raw = np.zeros(enc.information_state_size, np.float32)
        enc._observe(view, raw[:enc.observation_size])
        enc._recall(view, raw[enc.observation_size:])
        assert (raw >= 0).all() and (raw <= enc.information_state_high).all()
        if view["seat"] is not None:
            assert obs[enc.obs.at["seat"]].sum() == 1
        assert observation_string(view) != information_state_string(view)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS[::2])
def test_layouts_cover_the_vector_in_order(game_id: str, options: dict[str, Any]) -> None:
    enc = encoder_for(make_game(game_id, options))
    for info in (False, True):
        at = 0
        for _, sl, doc in enc.layout(info):
            assert sl.start == at and sl.stop > sl.start and doc
            at = sl.stop
        assert at == (enc.information_state_size if info else enc.observation_size)


def test_shapes_depend_on_options_only() -> None:
    sizes = {p: encoder_for(make_game("fist", {"players": p})).observation_size
             for p in range(3, 7)}
    assert len(set(sizes.values())) == 4
    toml = ROOT / "dragonlair" / "games" / "fist" / "examples" / "moneylender.toml"
    custom = tomllib.loads(toml.read_text(encoding="utf-8"))["character"]
    with_custom = make_game("fist", {"players": 3, "custom": custom})
    assert encoder_for(with_custom).observation_size == sizes[3] + 5  # 5 card-sized blocks


def test_strings_are_canonical_json_of_the_view() -> None:
    for game, view in _views("farkle", {"players": 3}, games=1):
        info = information_state_string(view)
        assert json.loads(info) == view
        obs = json.loads(observation_string(view))
        assert "history" not in obs and "events" not in obs
        assert obs == {k: v for k, v in view.items()
                       if k not in ("history", "events", "events_since")}
        assert game.info.id == "farkle"
    for _, view in _views("fist", {"players": 3}, games=1):
        obs = json.loads(observation_string(view))
        if view.get("me"):
            assert "notes" not in obs["me"] and "notes" in view["me"]


@pytest.mark.parametrize("game_id", ["fist", "master", "farkle"])
def test_an_observation_from_the_position_view_is_the_one_from_the_full_view(
        game_id: str) -> None:
    """The adapters observe :func:`common.position_view` (no event log, issue 24): the vector
    and the string are those of the full view, at every step, for every seat and a
    spectator."""
    options = {"players": 3} if game_id != "master" else {}
    game = make_game(game_id, {**options, **({"max_turns": 5} if game_id != "master" else {})})
    enc = encoder_for(game)
    rng = random.Random(7)
    state = game.new_initial_state()
    steps = 0
    while True:
        for seat in [*range(game.num_players), None]:
            full, position = state.view(seat), common.position_view(state, seat)
            assert position["events"] == [] or state.event_count == 0
            assert observation_string(position) == observation_string(full)
            assert np.array_equal(enc.observation(position), enc.observation(full))
        if state.is_terminal():
            break
        seats = state.current_seats()
        if seats == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            for seat in seats:
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
    assert steps > 20


def test_fist_recall_block_rebuilds_every_seats_coins() -> None:
    """F8: the record explains every coin, so the recall block matches the true coins (except
    for the sealed bids' effects, which only show at the reveal, when all coins move)."""
    game = make_game("fist", {"players": 4, "max_turns": 4})
    enc = encoder_for(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        seats = state.current_seats()
        if seats == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        view = state.view(seats[0])
        coins = enc.information_state(view)[enc.observation_size:].reshape(4, 6)
        for s, p in enumerate(state.players):  # type: ignore[attr-defined]
            c = p.coins_json()
            assert coins[s][0] == pytest.approx(c["fairy"] / 60)
            assert coins[s][3] == pytest.approx(c["silver"] / 40)
            n += 1
        for s in seats:
            state.apply(s, rng.choice(list(state.legal_actions(s))))
    assert n > 100


def test_length_bounds_and_chance_blocks() -> None:
    assert common.decision_bound(make_game("master")) == 16
    with pytest.raises(ValueError, match="match"):
        common.decision_bound(make_game("master", {"match": True}))
    with pytest.raises(ValueError, match="max_turns"):
        common.decision_bound(make_game("fist"))
    assert common.decision_bound(make_game("fist", {"players": 3, "max_turns": 2})) == 2 * 10 * 206
    assert common.decision_bound(make_game("farkle", {"max_turns": 7})) == 700
    for gid in ("fist", "master", "farkle"):
        game = make_game(gid)
        off = common.chance_offset(game)
        assert 0 < off < game.num_distinct_actions
    assert common.returns(None, 3) == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------------- isolation
EXTRAS = {"numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium"}


def test_the_core_never_imports_the_research_extras() -> None:
    """Only dragonlair/interop may import numpy, OpenSpiel, PettingZoo or Gymnasium."""
    offenders = []
    for path in sources.python_files():
        if "interop" in path.relative_to(ROOT / "dragonlair").parts:
            continue
        if not any(name in sources.text(path) for name in EXTRAS):
            continue  # no import of theirs without their name
        for node in ast.walk(sources.tree(path)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n.split(".")[0] in EXTRAS for n in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders
