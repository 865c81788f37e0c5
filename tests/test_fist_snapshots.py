"""Fist snapshots: what only Fist's snapshots hold (a sealed bid), and malformed snapshots
raise RecordError with a code.

That ``state.snapshot()`` -> JSON -> ``game.restore()`` gives the same state, which goes on
exactly as the original and equals the replay of its history, is checked for every game
alike (custom characters and turn limits included) in tests/test_contract.py.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest

from dragonlair.core.errors import RecordError
from dragonlair.core.game import CHANCE
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState


def step(state: FistState, rng: random.Random) -> None:
    seats = state.current_seats()
    if seats[0] == CHANCE:
        state.apply(CHANCE, state.sample_chance(rng))
    else:
        for seat in seats:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])


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
        view = restored.view(seat)
        assert "bid f5 c1" not in json.dumps(view)
        # nor its parts anywhere but the seat's own legal bids (whose form offers " f5" of
        # the seat's own Fairy Gold)
        assert "f5" not in json.dumps({k: v for k, v in view.items() if k != "legal"})
        assert view == state.view(seat)


@cache
def _base_snapshot_text() -> str:
    game = FistGame({"players": 4})
    state = game.new_initial_state()
    rng = random.Random(11)
    while len(state.history) < 120:
        step(state, rng)
    return json.dumps(state.snapshot())


def base_snapshot() -> dict[str, Any]:
    """A snapshot 120 steps into a 4-seat game (computed once; a fresh copy each call)."""
    snap: dict[str, Any] = json.loads(_base_snapshot_text())
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
