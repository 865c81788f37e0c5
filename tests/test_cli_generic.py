"""The generic terminal session (dragonlair/cli/generic_play.py): a game whose plugin names no
terminal screen is played from its views alone (docs/new-game.md).

Dragon Farkle stands in for such a game here, its plugin's terminal entries taken away: its
views have no ``summary``, so the session shows the legal actions' texts, and every word it
prints comes from the catalogues (the events, the refusals, the end). CI also plays the
example game (examples/hoard) through it, with its own words (examples/hoard/tests)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair import games as registry
from dragonlair.cli.main import app
from dragonlair.core.records import Record

runner = CliRunner()
#: a catalogue code left unrendered (``farkle.turn.banked``)
RAW_CODE = re.compile(r"\b(?:farkle|cli|core)\.[a-z_]+(?:\.[a-z_]+)*\b")


@pytest.fixture
def screenless(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Dragon Farkle as a game without terminal screens of its own."""
    real = registry.plugin

    def plugin(game_id: str) -> registry.GamePlugin:
        p = real(game_id)
        return replace(p, terminal=None, terminal_online=None, terminal_rules=None,
                       terminal_result=None) if game_id == "farkle" else p

    monkeypatch.setattr(registry, "plugin", plugin)
    yield


def test_an_all_bot_table_plays_to_the_end_and_tells_the_game(screenless: None,
                                                              tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "farkle", "--seat", "optimal", "--seat", "random",
                                 "--seed", "4", "--max-turns", "6", "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert not RAW_CODE.search(result.output), RAW_CODE.search(result.output)
    record = Record.load(save)
    assert record.result is not None and record.game == "farkle"


def test_a_human_chooses_by_number_or_text_and_bad_input_is_explained(screenless: None) -> None:
    # 9999: no such choice; "fly": not a Farkle action; "bank": not legal at the start;
    # then always the first choice, to the end (a turn limit keeps it short)
    moves = ["9999", "fly", "bank"] + ["1"] * 400
    result = runner.invoke(app, ["play", "farkle", "--seed", "2", "--max-turns", "3",
                                 "--name", "Ann"], input="\n".join(moves) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "There is no choice 9999" in out
    assert "Ann, your move:" in out and "Game over" in out
    refusals = [line for line in out.splitlines() if "Try again." in line]
    assert len(refusals) == 3, refusals
    assert not RAW_CODE.search(out), RAW_CODE.search(out)
    assert "Ann" in out.splitlines()[1]  # the seats by name


def test_in_german_every_line_is_german(screenless: None) -> None:
    result = runner.invoke(app, ["play", "farkle", "--seed", "3", "--max-turns", "2",
                                 "--lang", "de"], input="1\n" * 300)
    assert result.exit_code == 0, result.output
    assert "du bist am Zug" in result.output and "Game over" not in result.output


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_any_declared_option_is_set_with_option_name_value(command: str, tmp_path: Path) -> None:
    """``--option NAME=VALUE`` sets any option the game's plugin declares (its specs), the
    value read as JSON: a Dragon Master match (M5) is recorded in every saved record."""
    extra = ["--bots", "greedy,random"] if command == "tournament" else []
    result = runner.invoke(app, [command, "master", *extra, "--games", "2", "--option",
                                 "match=true", "--option", "four-of-a-kind=100+face",
                                 "--save-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    records = [Record.load(p) for p in sorted(tmp_path.glob("*.json"))]
    assert len(records) == 2
    assert all(r.options["match"] is True and r.options["four_of_a_kind"] == "100+face"
               for r in records)


@pytest.mark.parametrize(("args", "words"), [
    (["--option", "colour=3"], "master has no table option 'colour'; its options: "
                               "four_of_a_kind, match, players"),
    (["--option", "match"], "--option wants NAME=VALUE, not 'match'"),
    (["--option", "match=7"], "match must be true or false, not 7"),
])
def test_a_bad_option_flag_is_one_clear_line(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["simulate", "master", "--games", "1", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
