"""Fist snapshots: ``state.snapshot()`` -> JSON -> ``game.restore()`` gives the same state.

At random positions of random games (custom characters and turn limits included), a state
is written to JSON text and restored; then the original and the restored state go on with
the same seeded choices and must agree at every step: legal actions of every seat, every
seat's and the spectator's view, the events, and the outcome. A restored state also equals
the replay of its history. Malformed snapshots raise RecordError with a code.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from dragonlair.core.errors import RecordError
from dragonlair.core.game import CHANCE
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState

CUSTOM = load_file("moneylender") + load_file("stormcaller")


def options(seed: int) -> dict[str, Any]:
    opts: dict[str, Any] = {"players": 3 + seed % 4}
    if seed % 3 == 0:
        opts["custom"] = CUSTOM
    if seed % 5 == 0:
        opts["max_turns"] = 2
    return opts


def step(state: FistState, rng: random.Random) -> None:
    seats = state.current_seats()
    if seats[0] == CHANCE:
        state.apply(CHANCE, state.sample_chance(rng))
    else:
        for seat in seats:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])


def same(a: FistState, b: FistState) -> None:
    assert a.current_seats() == b.current_seats()
    for seat in range(a.num_players):
        assert list(a.legal_actions(seat)) == list(b.legal_actions(seat))
    for seat in (None, *range(a.num_players)):
        assert a.view(seat) == b.view(seat)
    assert a.all_events() == b.all_events() and a.event_count == b.event_count
    assert a.full_state() == b.full_state()
    assert a.outcome() == b.outcome()


def replayed(game: FistGame, state: FistState) -> FistState:
    out = game.new_initial_state()
    for seat, action in state.history:
        out.apply(seat, action)
    return out


def check_games(games: int) -> None:
    for seed in range(games):
        game = FistGame(options(seed))
        rng = random.Random(seed)
        state = game.new_initial_state()
        cut = rng.randrange(40, 900)
        while not state.is_terminal() and len(state.history) < cut:
            step(state, rng)
        text = json.dumps(state.snapshot())
        restored = game.restore(json.loads(text))
        same(state, restored)
        same(replayed(game, state), restored)
        assert restored.snapshot() == json.loads(text)
        # go on with the same choices: the same future
        r1, r2 = random.Random(seed * 7 + 1), random.Random(seed * 7 + 1)
        while not state.is_terminal():
            step(state, r1)
            step(restored, r2)
            assert state.event_count == restored.event_count
        same(state, restored)


def test_snapshot_restore_continue_equals_the_original() -> None:
    check_games(100)


@pytest.mark.slow
def test_snapshot_restore_continue_equals_the_original_many() -> None:
    check_games(1000)


def test_snapshot_of_a_sealed_bid_keeps_it_sealed_and_restores_it() -> None:
    """F8: a snapshot holds the whole state (a server's, never a seat's): the sealed bid is
    in it, and the restored state still shows it only to its owner."""
    game = FistGame({"players": 3})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.phase.name != "BID":
        step(state, rng)
    state.apply(1, game.parse_action("bid f5 c1"))
    restored = game.restore(json.loads(json.dumps(state.snapshot())))
    assert str(restored.bids[1]) == "bid f5 c1"
    assert restored.current_seats() == (0, 2)
    for seat in (None, 0, 2):
        assert "f5" not in json.dumps(restored.view(seat))
        assert restored.view(seat) == state.view(seat)


def base_snapshot() -> dict[str, Any]:
    game = FistGame({"players": 4})
    state = game.new_initial_state()
    rng = random.Random(11)
    while len(state.history) < 120:
        step(state, rng)
    snap: dict[str, Any] = json.loads(json.dumps(state.snapshot()))
    return snap


@pytest.mark.parametrize("spoil", [
    lambda s: s.update(format="nope"),
    lambda s: s.update(game_version=99),
    lambda s: s.update(options={"players": 5, "max_turns": None, "custom": []}),
    lambda s: s["state"]["players"][0].update(fairy=61),
    lambda s: s["state"]["players"][0].update(fairy=s["state"]["players"][0]["fairy"] + 1),
    lambda s: s["state"]["players"][1].update(stones=[1, 2]),
    lambda s: s["state"]["players"].pop(),
    lambda s: s["state"].update(phase="dance"),
    lambda s: s["state"].update(to_move=[7]),
    lambda s: s["state"].update(pile={"dragon-king": 1}),
    lambda s: s["state"].update(history=["p0: fly"]),
    lambda s: s["state"].update(history=["p9: bid f0 c0"]),
    lambda s: s["state"].update(stack=[["thief", {"teleport": 1}]]),
    lambda s: s["state"]["bank"].update(common=True),
    lambda s: s.update(events=[{"code": "fist.nope", "params": {}}]),
    lambda s: s.update(events=[{"code": "fist.turn.start", "params": {"turn": 1}, "to": 9}]),
    lambda s: s.update(state=[]),
    lambda s: s.update(events=None),
    lambda s: s["state"].update(turn=s["state"]["turn"] + 1, history=s["state"]["history"]),
])
def test_malformed_snapshots_raise_record_error(spoil: Any) -> None:
    snap = base_snapshot()
    game = FistGame({"players": 4})
    game.restore(copy.deepcopy(snap))  # the unspoilt one restores
    spoil(snap)
    with pytest.raises(RecordError) as err:
        game.restore(snap)
    assert err.value.code.startswith("fist.snapshot.")
    assert err.value.message("de") != err.value.code


def test_restore_refuses_what_is_no_snapshot() -> None:
    game = FistGame({"players": 3})
    for data in (None, [], "snapshot", 3, {"format": "dragonlair-record"}):
        with pytest.raises(RecordError):
            game.restore(data)  # type: ignore[arg-type]
