"""Dragon Farkle snapshots: a finished game restores, and ``restore`` refuses malformed
snapshots with a :class:`RecordError` that has a code.

That snapshot -> JSON -> restore gives the same game, which goes on exactly as the original
and equals the replay of its history, is checked for every game alike (varied tables and
deck files included) in tests/test_contract.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dragonlair.core.errors import RecordError
from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.state import FarkleState


def step(state: FarkleState, rng: random.Random) -> None:
    seat = state.current_seats()[0]
    if seat == CHANCE:
        state.apply(seat, state.sample_chance(rng))
    else:
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def test_snapshot_of_a_finished_game() -> None:
    rng = random.Random(5)
    game = FarkleGame({"players": 3})
    state = game.new_initial_state()
    while not state.is_terminal():
        step(state, rng)
    restored = game.restore(json.loads(json.dumps(state.snapshot())))
    assert restored.outcome() == state.outcome() and restored.is_terminal()


def _snap() -> tuple[FarkleGame, dict[str, Any]]:
    rng = random.Random(9)
    game = FarkleGame({"players": 2})
    state = game.new_initial_state()
    for _ in range(40):
        step(state, rng)
    return game, state.snapshot()


@pytest.mark.parametrize("spoil", [
    lambda d: d.update(format="x"),
    lambda d: d.update(game="fist"),
    lambda d: d.update(options={"players": 3}),
    lambda d: d["state"].update(armies=[10**12, 0]),
    lambda d: d["state"].update(armies=[100, "x"]),
    lambda d: d["state"].update(supply=d["state"]["supply"] - 50),  # soldiers (D1)
    lambda d: d["state"]["items"][0].append(0),  # an item copy too many
    lambda d: d["state"].update(legal=["fly"]),
    lambda d: d["state"].update(phase=99),
    lambda d: d["state"].pop("turn"),
    lambda d: d.update(history=["p7: recruit"]),
    lambda d: d.update(history=[3]),
    lambda d: d.update(events=[{"code": "farkle.nope", "params": {}, "to": None}]),
    lambda d: d.update(events=[{"code": "farkle.item.drawn_own",
                                "params": {"seat": 0, "card": "x"}, "to": 9}]),
    lambda d: d.update(events="all"),
])
def test_malformed_snapshots_are_refused_with_a_code(spoil: Any) -> None:
    game, data = _snap()
    spoil(data)
    with pytest.raises(RecordError) as info:
        game.restore(data)
    assert info.value.code == "farkle.snapshot.invalid"
    assert "farkle.snapshot.invalid" not in str(info.value)


def test_restore_refuses_what_is_no_object() -> None:
    game = FarkleGame()
    data: Any
    for data in (None, [], "snapshot", 3):
        with pytest.raises(RecordError):
            game.restore(data)
