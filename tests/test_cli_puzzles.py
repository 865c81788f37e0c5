"""``dragonlair puzzles mine`` and ``play`` (issue 27; docs/puzzles.md): mine writes one file
per puzzle and counts them; play, with scripted input, solves one and fails one (and then
shows what every option was worth); bad input is one clear line and exit 2."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from dragonlair.cli.main import app
from dragonlair.cli.puzzles_cmd import answer_of, data_dir, number
from dragonlair.puzzles.model import Puzzle
from tests.test_puzzles_mine import farkle_record

runner = CliRunner()


def _mined(tmp_path: Path) -> Path:
    records = tmp_path / "records"
    records.mkdir()
    farkle_record(3).save(records / "a.json")
    out = tmp_path / "puzzles"
    result = runner.invoke(app, ["puzzles", "mine", str(records), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    counts = json.loads(result.output)
    files = sorted(out.glob("*.json"))
    assert counts["unique"] == len(files) > 0 and counts["kept"] >= counts["unique"]
    assert counts["decisions"] > counts["kept"] and counts["bad"] == []
    return out


def _drawn(folder: Path, seed: int) -> Puzzle:
    """The puzzle ``play --seed`` draws: by file name, random.Random(seed).choice."""
    puzzles = [Puzzle.from_json(json.loads(p.read_text())) for p in sorted(folder.glob("*.json"))]
    return random.Random(seed).choice(puzzles)


def test_mine_then_solve_one_and_fail_one(tmp_path: Path) -> None:
    out = _mined(tmp_path)
    puzzle = _drawn(out, 4)
    right = puzzle.legal.index(puzzle.solution[0]) + 1
    result = runner.invoke(app, ["puzzles", "play", "farkle", "--dir", str(out), "--seed", "4"],
                           input=f"nonsense\n{right}\n")
    assert result.exit_code == 0, result.output
    assert "is not one of the options" in result.output
    assert f"Right: {puzzle.solution[0]}." in result.output

    wrong = next(o for o in puzzle.options if not o.best)
    result = runner.invoke(app, ["puzzles", "play", "farkle", "--dir", str(out), "--seed", "4",
                                 "--lang", "de"], input=f"{wrong.action}\n")
    assert result.exit_code == 1, result.output
    assert f"Nicht ganz: {puzzle.solution[0]} war die Lösung." in result.output
    assert "Was jede Möglichkeit wert war" in result.output
    for o in puzzle.options[:9]:  # every option with its value, German decimals
        assert number(o.value, puzzle.unit, "de") in result.output
    assert "deine Antwort" in result.output


def test_mine_counts_in_words_and_a_bad_record(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "bad.json").write_text("{nope", encoding="utf-8")
    result = runner.invoke(app, ["puzzles", "mine", str(records / "bad.json"),
                                 "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "skipped" in result.output and "not valid JSON" in result.output
    assert "Traceback" not in result.output


def test_play_refuses_bad_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["puzzles", "play", "chess"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    (tmp_path / "x.json").write_text('{"format": "other"}', encoding="utf-8")
    result = runner.invoke(app, ["puzzles", "play", "master", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "x.json is not a puzzle" in result.output
    result = runner.invoke(app, ["puzzles", "play", "fist", "--dir", str(tmp_path / "none")])
    assert result.exit_code == 2 and "no fist puzzles" in result.output


def test_answers_by_number_or_notation_and_the_shipped_sets() -> None:
    legal = ("place egg b1", "place ruby c2")
    assert answer_of("2", legal) == "place ruby c2"
    assert answer_of("  Ruby   C2 ", legal) == "place ruby c2"
    assert answer_of("3", legal) is None and answer_of("bank", legal) is None
    assert number(0.6571, "win_chance", "de") == "65,7 %"
    assert number(1250.4, "soldiers", "de") == "1.250"
    for game in ("master", "farkle"):
        files = sorted(data_dir(game).glob("*.json"))
        assert 20 <= len(files) <= 150, game
        for f in files[:5]:
            assert Puzzle.from_json(json.loads(f.read_text())).game == game
