"""Records written before the engines spoke data still replay unchanged (M2-M5).

The fixtures ``tests/fixtures/records/master-*.json`` were written by the code before this
change (single rounds and matches, both four-of-a-kind options, random, greedy and expert
bots, a drawn round, and the example of docs/records.md); their ``reason`` is English prose.
Each replays with the current code to the same winners, placings and scores, and the bots,
seeded as ``dragonlair simulate`` seeds them, still play the very same actions.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.records import Record, replay
from dragonlair.games import make_game

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "records").glob("master-*.json"))


def test_there_are_old_records() -> None:
    assert len(FIXTURES) >= 20
    reasons = {str(Record.load(p).result["reason"]) for p in FIXTURES  # type: ignore[index]
               if Record.load(p).result}
    assert {"lowest lines compared", "drawn round"} <= reasons  # written as prose
    assert any(r.endswith("took a second dragon") for r in reasons)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_an_old_record_replays_to_the_same_result(path: Path) -> None:
    record = Record.load(path)
    _, state = replay(record)  # checks winners, placings and scores, not the wording
    outcome = state.outcome()
    assert outcome is not None and record.result is not None
    assert list(outcome.winners) == record.result["winners"]
    assert list(outcome.placings) == record.result["placings"]
    assert list(outcome.scores) == record.result["scores"]
    assert outcome.reason.startswith("master.end.")


def _seeded(path: Path) -> Any:
    """A seeded game: an expert bot's (a second or more of search) in CI, the rest in every
    run."""
    return pytest.param(path, marks=pytest.mark.slow) if "expert" in path.stem else path


@pytest.mark.parametrize("path", [_seeded(p) for p in FIXTURES if "docs" not in p.stem],
                         ids=lambda p: p.stem)
def test_seeded_bots_play_the_same_game_as_before(path: Path) -> None:
    """Seeded games are unchanged: the same bots from the same seeds choose the same
    actions, and chance deals the same cards."""
    record = Record.load(path)
    game = make_game("master", record.options)
    seed, index = record.meta["seed"], record.meta["game_index"]
    bots = [make_bot("master", s["player"].removeprefix("bot:"),
                     random.Random(seed_for(seed, index, k + 1)))
            for k, s in enumerate(record.seats)]
    state = play_out(game.new_initial_state(), bots, random.Random(seed_for(seed, index)))
    assert [f"{'chance' if s < 0 else f'p{s}'}: {a}" for s, a in state.history] == \
        record.actions
