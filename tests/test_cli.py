"""The replay, simulate and bench commands, as a user runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from dragonlair.cli.main import app
from dragonlair.core.records import Record, replay

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def docs_example() -> dict[str, object]:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", text, re.S)
    assert block, "docs/records.md has a ```json example"
    data: dict[str, object] = json.loads(block.group(1))
    return data


def test_every_docs_example_record_replays_to_its_result() -> None:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    pattern = r"## A complete (?:Dragon Master |Dragon Farkle )?example.*?```json\n(.*?)```"
    blocks = re.findall(pattern, text, re.S)
    assert len(blocks) == 3
    for block in blocks:
        record = Record.from_json(json.loads(block))
        _, state = replay(record)
        assert state.outcome() is not None and record.result is not None


def test_docs_example_record_replays_to_its_result(tmp_path: Path) -> None:
    data = docs_example()
    path = tmp_path / "example.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "all legal" in result.output
    # seat 1 wins: named as the record names it, the two "greedy" seats by their numbers
    assert "Winner: greedy #2." in result.output
    assert not re.search(r"\bp\d\b", result.output)
    out = runner.invoke(app, ["replay", str(path), "--json"])
    got = json.loads(out.stdout)
    assert got["ok"]
    assert {k: got["result"][k] for k in ("winners", "placings", "scores")} == {
        k: data["result"][k] for k in ("winners", "placings", "scores")}
    state = got["state"]
    bank = state["bank"]
    players = state["players_full"]
    assert bank["fairy"] + sum(p["fairy"] + p["fairy_spent"] for p in players) == 60
    assert sum(p["score"] for p in players) == 1


def test_replay_names_the_first_bad_action(tmp_path: Path) -> None:
    data = docs_example()
    actions = list(data["actions"])  # type: ignore[call-overload]
    i = actions.index("p0: bid f1 c0")
    actions[i] = "p0: bid f9 c0"  # only 8 Fairy Gold (F5.1)
    data["actions"] = actions
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"action {i}" in result.output and "only 8 unspent" in result.output
    assert "Traceback" not in result.output
    out = runner.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 1 and json.loads(out.stdout)["index"] == i


def test_replay_rejects_malformed_records_clearly(tmp_path: Path) -> None:
    cases = {
        "not json": "{",
        "wrong format": json.dumps({"format": "chess"}),
        "bad entry": json.dumps({**docs_example(), "actions": ["p0 bid"]}),
        "unknown action": json.dumps({**docs_example(), "actions": ["chance: stone green"]}),
        "bad option": json.dumps({**docs_example(), "options": {"players": 9}}),
        "wrong result": json.dumps({**docs_example(), "result": {"winners": [0]}}),
    }
    for name, text in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 1, name
        assert "bad record" in result.output and "Traceback" not in result.output, name
    missing = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert missing.exit_code == 1 and "cannot read" in missing.output


def test_simulate_is_reproducible_and_saves_records(tmp_path: Path) -> None:
    args = ["simulate", "fist", "--games", "5", "--players", "4", "--bots",
            "greedy,random", "--seed", "5", "--json"]
    first = json.loads(runner.invoke(app, args).stdout)
    second = json.loads(runner.invoke(app, [*args, "--save-dir", str(tmp_path)]).stdout)
    for key in ("games", "wins", "mean_turns", "bots"):
        assert first[key] == second[key]
    assert first["games"] == 5 and sum(first["wins"]) >= 5
    assert first["bots"] == ["greedy", "random", "greedy", "random"]
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 5
    _, state = replay(Record.load(files[3]))
    assert state.is_terminal()
    other = json.loads(runner.invoke(app, [*args[:-2], "6", "--json"]).stdout)
    assert other["wins"] != first["wins"] or other["mean_turns"] != first["mean_turns"]


def test_simulate_table_output() -> None:
    result = runner.invoke(app, ["simulate", "fist", "--games", "3", "--players", "3"])
    assert result.exit_code == 0
    assert "win rate" in result.output and "games/s" in result.output


def test_bad_options_get_a_clear_error() -> None:
    for args, words in [
        (["simulate", "fist", "--games", "2", "--players", "9"], "3 to 6 players"),
        (["simulate", "fist", "--games", "2", "--bots", "wizard"], "unknown bot"),
        (["simulate", "chess", "--games", "2"], "unknown game"),
        (["simulate", "fist", "--games", "0"], "at least 1"),
        (["bench", "chess"], "unknown game"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert words in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_bench_reports_rates() -> None:
    result = runner.invoke(app, ["bench", "fist", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0
    (row,) = json.loads(result.stdout)
    assert row["game"] == "fist" and row["options"] == {"players": 4}
    assert row["games"] >= 1 and row["actions"] > row["games"]
    assert row["actions_per_s"] > 0


def test_rules_in_english_and_german_list_every_card() -> None:
    from dragonlair.games.fist.cards import BUILTIN

    for lang, word in (("en", "Goal"), ("de", "Ziel")):
        result = runner.invoke(app, ["rules", "fist", "--lang", lang], terminal_width=200)
        assert result.exit_code == 0
        assert word in result.output
        for card in BUILTIN:
            assert card.name(lang) in result.output, (lang, card.id)
    bad = runner.invoke(app, ["rules", "fist", "--lang", "fr"])
    assert bad.exit_code == 2 and "one of en, de" in bad.output


def test_d8_5_a_deck_file_replaces_the_farkle_decks(tmp_path: Path) -> None:
    deck = ROOT / "dragonlair" / "games" / "farkle" / "examples" / "decks.toml"
    args = ["simulate", "farkle", "--games", "3", "--bots", "cautious,random", "--seed", "2",
            "--decks", str(deck), "--save-dir", str(tmp_path), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    record = Record.load(sorted(tmp_path.glob("*.json"))[0])
    ids = {c["id"] for c in record.options["decks"]["items"]}
    assert ids == {"lucky-dragon-tooth", "war-chest"}
    drawn = {a.split()[-1] for a in record.actions if a.startswith("chance: item ")}
    assert drawn and drawn <= ids
    _, state = replay(record)
    assert state.is_terminal()
    wrong = runner.invoke(app, ["simulate", "fist", "--games", "1", "--decks", str(deck)])
    assert wrong.exit_code == 2 and "farkle only" in wrong.output
    bad = tmp_path / "bad.toml"
    bad.write_text('[[items]]\nid = "x"\neffect = "fly"\n')
    broken = runner.invoke(app, ["simulate", "farkle", "--games", "1", "--decks", str(bad)])
    assert broken.exit_code == 2 and "effect must be one of" in broken.output
