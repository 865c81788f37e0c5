"""Dragon Farkle records written before the engine spoke in codes still replay unchanged.

The fixtures ``tests/fixtures/records/farkle-*.json`` were written by the engine as it was
before issue 12 (English end reasons, no events): seeded bot games of every bot (random,
cautious, optimal), 2 to 5 players, turn limits, the dragon variants 4 and 5 (D6.4), a
replacement scoring table (D2), a deck file (D8.5), and the example of docs/records.md. Each
must replay with the current engine, and its stored result must equal the replay's on
winners, placings and scores (never on wording). Seeded bot games must play the very same
actions as before.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.records import Record, replay
from dragonlair.games import make_game
from dragonlair.games.farkle.events import END_REASONS
from tests.sizes import quick_first

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "records").glob("farkle-*.json"))


#: seeded games in which the optimal bot now banks after drawing an item, where it rolled
#: before (the fix of its roll-or-bank choice with an item drawn this turn, docs/analysis.md)
ITEM_FIX = {"farkle-all-bots3-2", "farkle-optimal-cautious2-0"}


def test_there_are_old_farkle_records() -> None:
    assert len(FIXTURES) >= 20


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_old_record_replays_with_the_same_result(path: Path) -> None:
    record = Record.load(path)
    assert record.result is not None
    _, state = replay(record)
    outcome = state.outcome()
    assert outcome is not None
    got = outcome.to_json()
    for key in ("winners", "placings", "scores"):
        assert got[key] == record.result[key], key
    assert got["reason"] in END_REASONS  # a code now; the old reason was English prose
    assert state.all_events()[-1].code == got["reason"]


@pytest.mark.parametrize("path", quick_first(2, [  # a plain run: two; CI: every one
    pytest.param(p, id=p.stem) for p in FIXTURES if "seed" in Record.load(p).meta]))
def test_seeded_game_plays_the_same_actions(path: Path) -> None:
    record = Record.load(path)
    seed, index = record.meta["seed"], record.meta["game_index"]
    game = make_game("farkle", record.options)
    bots = [make_bot("farkle", s["player"].removeprefix("bot:"),
                     random.Random(seed_for(seed, index, i + 1)))
            for i, s in enumerate(record.seats)]
    state = play_out(game.new_initial_state(), bots, random.Random(seed_for(seed, index)))
    played = [f"{'chance' if s < 0 else f'p{s}'}: {a}" for s, a in state.history]
    if path.stem not in ITEM_FIX:
        assert played == record.actions
        return
    # the optimal bot's fix (policy.RecruitDP.should_roll after an item drawn this turn):
    # the same game up to that decision, where the bot now banks what its table says is worth
    # more than rolling on; before it rolled
    i = next(i for i, (new, old) in enumerate(zip(played, record.actions, strict=False))
             if new != old)
    seat = played[i].split(": ")[0]
    assert (record.actions[i], played[i]) == (f"{seat}: roll", f"{seat}: bank")
    assert record.seats[int(seat[1:])]["player"] == "bot:optimal"
    turn = played[:i]
    start = max(k for k, e in enumerate(turn) if e.endswith(("recruit", "skirmish p0",
                                                             "skirmish p1", "skirmish p2")))
    assert f"{seat}: item" in turn[start:], "an item was drawn in that turn"
