"""Dragon Farkle snapshots: snapshot -> JSON -> restore gives the same game (issue 12).

At random positions of random games the state is written to JSON text and restored; then
the original and the restored state are continued with the same seeded choices, and must
agree at every step on the legal actions, every seat's and the spectator's view, the events
and the final outcome. A restored snapshot also equals the replay of its history, and
``restore`` refuses malformed snapshots with a :class:`RecordError` that has a code.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dragonlair.core.errors import RecordError
from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.cards import load_deck_file
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.state import FarkleState

DECKS = "dragonlair/games/farkle/examples/decks.toml"


def tables(k: int) -> dict[str, Any]:
    """A varied table for game ``k``: 2 to 5 players, dragon 3-5, a turn limit, a deck file."""
    opts: dict[str, Any] = {"players": 2 + k % 4, "dragon": 3 + k % 3}
    if k % 5 == 1:
        opts["max_turns"] = 12
    if k % 7 == 2:
        opts.update(players=2 + k % 3, decks=load_deck_file(DECKS))
    return opts


def step(state: FarkleState, rng: random.Random) -> None:
    seat = state.current_seats()[0]
    if seat == CHANCE:
        state.apply(seat, state.sample_chance(rng))
    else:
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def same(a: FarkleState, b: FarkleState, views: bool = True) -> None:
    assert a.current_seats() == b.current_seats()
    for seat in range(a.num_players):
        assert a.legal_actions(seat) == b.legal_actions(seat)
        if views:
            assert a.view(seat) == b.view(seat)
    if views:
        assert a.view(None) == b.view(None)
        assert a.all_events() == b.all_events()
    assert a.event_count == b.event_count
    assert a.outcome() == b.outcome()


def check_game(k: int, views_every: int = 1) -> None:
    rng = random.Random(k)
    game = FarkleGame(tables(k))
    state = game.new_initial_state()
    cuts = sorted(rng.sample(range(400), 3))
    i = 0
    while not state.is_terminal():
        if i in cuts:
            data = json.loads(json.dumps(state.snapshot()))
            restored = game.restore(data)
            same(state, restored)
            replayed = game.new_initial_state()
            for seat, action in state.history:
                replayed.apply(seat, action)
            assert restored.snapshot() == replayed.snapshot() == data
            a, b = state.clone(), restored
            ra, rb = random.Random(k * 31 + i), random.Random(k * 31 + i)
            for j in range(40):  # the same future, step by step
                if a.is_terminal():
                    break
                step(a, ra)
                step(b, rb)
                same(a, b, views=j % views_every == 0)
            same(a, b)
        step(state, rng)
        i += 1


def test_snapshot_restore_continue_equals_the_original() -> None:
    for k in range(30):  # the slow run below covers 1,000 games
        check_game(k, views_every=2)


@pytest.mark.slow
def test_snapshot_restore_continue_over_1000_games() -> None:
    for k in range(1000):
        check_game(k, views_every=10)


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
