"""Fist snapshots written before the pending decision was one value still restore.

tests/fixtures/snapshots/fist-*.json were written by the engine of commit 502b863, whose
state held a power's decision and draw in five fields (``decision``, ``decision_legal``,
``decision_card``, ``decision_step``, ``power_chance``). Each restores to the state its
history replays to (the same legal actions, views, events and future), and is written
back in today's layout, with one ``pending`` value (F6, F7: what the winner is asked, or
what a power draws).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dragonlair.core.errors import RecordError
from dragonlair.core.game import CHANCE
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.pending import Decision, Draw
from dragonlair.games.fist.snapshot import OLD_PENDING, upgrade
from dragonlair.games.fist.state import FistState

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "snapshots").glob("fist-*.json"))


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


def load(path: Path) -> tuple[FistGame, dict[str, Any]]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return FistGame(data["options"]), data


def test_there_are_old_snapshots_of_every_kind_of_wait() -> None:
    phases = {json.loads(p.read_text(encoding="utf-8"))["state"]["phase"] for p in FIXTURES}
    assert {"bid", "tiebid", "decide", "power_chance"} <= phases


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_an_old_snapshot_restores_as_its_history_replays(path: Path) -> None:
    game, data = load(path)
    assert all(k in data["state"] for k in OLD_PENDING) and "pending" not in data["state"]
    restored = game.restore(json.loads(json.dumps(data)))
    replayed = game.new_initial_state()
    for seat, action in restored.history:
        replayed.apply(seat, action)
    same(restored, replayed)
    # written back in today's layout: one pending value, and it restores again
    again = restored.snapshot()
    assert again == upgrade(data) and not any(k in again["state"] for k in OLD_PENDING)
    assert game.restore(json.loads(json.dumps(again))).snapshot() == again
    # what the power waits for, by phase
    phase = data["state"]["phase"]
    if phase == "decide":
        assert isinstance(restored.pending, Decision)
        assert restored.pending.kind.name.lower() == data["state"]["decision"]
        assert list(restored.pending.legal) == list(replayed.legal_actions(replayed.winner or 0))
    elif phase == "power_chance":
        assert isinstance(restored.pending, Draw)
        assert restored.pending.kind.name.lower() == data["state"]["power_chance"]
    else:
        assert restored.pending is None
    # the same future
    r1, r2 = random.Random(7), random.Random(7)
    while not replayed.is_terminal():
        step(replayed, r1)
        step(restored, r2)
    same(restored, replayed)


def test_a_pending_value_that_disagrees_with_the_phase_is_refused() -> None:
    game, data = load(next(p for p in FIXTURES if "decide" in p.stem))
    snap = game.restore(data).snapshot()
    snap["state"]["pending"] = None  # a decision phase with nothing asked
    with pytest.raises(RecordError) as err:
        game.restore(snap)
    assert err.value.code == "fist.snapshot.invalid"
    snap = game.restore(data).snapshot()
    snap["state"]["pending"] = {"draw": "goblin"}  # no card
    with pytest.raises(RecordError):
        game.restore(snap)
