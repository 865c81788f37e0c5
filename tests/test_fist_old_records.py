"""Records written before the engine spoke in codes still replay unchanged.

The fixtures ``tests/fixtures/records/fist-*.json`` were written by the engine as it was
before issue 12 (English end reasons, no events): seeded bot games of every bot, 3 to 6
players, turn limits (F5.10) and custom characters (F9), and the example of docs/records.md.
Each must replay with the current engine, and its stored result must equal the replay's on
winners, placings and scores (never on wording). Re-running a seeded game with the same bots
must also give the very same actions: seeded games play exactly as before.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.records import Record, replay
from dragonlair.games import make_game
from tests.sizes import quick_first

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "records").glob("fist-*.json"))


def test_there_are_old_fist_records() -> None:
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
    # the reason is a code now; the old one was English prose
    assert got["reason"].startswith("fist.end.")


@pytest.mark.parametrize("path", quick_first(2, [  # a plain run: two; CI: every one
    pytest.param(p, id=p.stem) for p in FIXTURES if "docs" not in p.stem]))
def test_seeded_game_plays_the_same_actions(path: Path) -> None:
    record = Record.load(path)
    seed, index = record.meta["seed"], record.meta["game_index"]
    game = make_game("fist", record.options)
    bots = [make_bot("fist", s["player"].removeprefix("bot:"),
                     random.Random(seed_for(seed, index, i + 1)))
            for i, s in enumerate(record.seats)]
    state = play_out(game.new_initial_state(), bots, random.Random(seed_for(seed, index)))
    assert [f"{'chance' if s < 0 else f'p{s}'}: {a}" for s, a in state.history] == \
        record.actions
