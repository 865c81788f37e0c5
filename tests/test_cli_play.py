"""Terminal play (`dragonlair play fist`): scripted humans, bots, hot-seat, records, errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.bots import make_bot
from dragonlair.cli.fist_play import (
    InputProblem,
    bid_from_text,
    choice_from_text,
    parse_bid_words,
    resolve_seats,
)
from dragonlair.cli.fist_screen import Narrator, describe_action
from dragonlair.cli.i18n import engine_note
from dragonlair.cli.main import app
from dragonlair.core.driver import play_out
from dragonlair.core.errors import OptionError
from dragonlair.games.fist.game import FistGame
from tests.fist_helpers import bids, new_table, play, setup

runner = CliRunner()
THREE = ["--seat", "human", "--seat", "greedy", "--seat", "greedy"]


def run(*args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(app, ["play", "fist", *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def alternating(n: int = 4000) -> str:
    """'1' and '0' in turn: a bid of 1 Fairy (or, when that is impossible, the empty fist
    on the next line); in a decision menu, '0' is refused and '1' picks option 1."""
    return "".join("1\n" if i % 2 == 0 else "0\n" for i in range(n))


# ---------------------------------------------------------------- whole games
def test_scripted_human_plays_to_the_end() -> None:
    code, out = run("--seed", "3", *THREE, input=alternating())
    assert code == 0, out[-2000:]
    assert "Traceback" not in out
    assert re.search(r"Winner: p\d \(", out) or "Shared win:" in out
    assert "Game over" in out
    assert "Behind your screen — p0 You" in out
    assert "Your bid>" in out
    assert "Press Enter when only" not in out  # one human: no hot-seat pause


def test_all_bot_table_plays_without_input_and_prints_log_and_result() -> None:
    code, out = run("--seed", "1", "--seat", "random", "--seat", "random", "--seat", "random")
    assert code == 0, out[-2000:]
    assert "Game log" in out
    assert " won the " in out and " bid " in out
    assert re.search(r"Winner: p\d \(random\)|Shared win:", out)
    assert "Behind your screen" not in out  # nobody's coins on a public screen


def test_all_bot_greedy_table_with_turn_limit() -> None:
    code, out = run("--seed", "4", "--seat", "greedy", "--seat", "greedy", "--seat", "greedy",
                    "--max-turns", "2")
    assert code == 0
    assert "Game over" in out
    assert "Turns played:" in out


def test_all_bot_table_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    seats = ["--seat", "random", "--seat", "greedy", "--seat", "random", "--seat", "greedy"]
    run("--seed", "11", *seats, "--save", str(a))
    run("--seed", "11", *seats, "--save", str(b))
    assert json.loads(a.read_text())["actions"] == json.loads(b.read_text())["actions"]


def test_no_seed_picks_and_prints_one() -> None:
    code, out = run(*THREE, input="")
    assert code == 1
    assert re.search(r"Seed \d+ \(play this table again with --seed \d+\)", out)


def test_defaults_four_players_seat_zero_human() -> None:
    code, out = run("--seed", "2", input="")
    assert code == 1
    assert "Players: p0 You, p1 ismcts, p2 ismcts, p3 ismcts" in out
    code, out = run("--seed", "2", "--players", "5", input="")
    assert "p4 ismcts" in out


# ---------------------------------------------------------------- input
def test_invalid_bids_get_a_reason_and_a_new_prompt() -> None:
    code, out = run("--seed", "3", *THREE, input="99\nbanana\nf3 c9\nblack\n\n0\n")
    assert "Traceback" not in out
    assert "You have only 8 unspent Fairy Gold" in out
    assert "I do not understand 'banana'" in out
    assert "You have only 2 Common Gold" in out
    assert "You have no Black Magic coin" in out
    assert "Please type something" in out
    assert out.count("Try again.") == 5
    assert out.count("Your bid>") >= 7  # six answers on the Witch, then the next card
    assert "p0 bid nothing (the empty fist)" in out
    assert code == 1 and "Game abandoned" in out  # the input ran out


def test_help_prints_rules_and_every_card() -> None:
    game = FistGame({"players": 3})
    _, out = run("--seed", "3", *THREE, input="?\n")
    assert "How to play" in out and "empty fist" in out
    for card in game.cards:
        assert card.name("en") in out


def test_eof_and_quit_end_cleanly_with_code_1(tmp_path: Path) -> None:
    code, out = run("--seed", "3", *THREE, input="")
    assert code == 1 and "Game abandoned; no result." in out
    save = tmp_path / "quit.json"
    code, out = run("--seed", "3", *THREE, "--save", str(save), input="2\nquit\n")
    assert code == 1 and "Game abandoned" in out
    record = json.loads(save.read_text())
    assert record["result"] is None
    assert "p0: bid f2 c0" in record["actions"]
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "not over" in replayed.output


# ---------------------------------------------------------------- hot-seat
def test_hot_seat_pauses_and_never_shows_another_players_screen() -> None:
    # p0: Enter, bids 7 Fairy + 2 Common on the Witch; p1: Enter, bids nothing; then
    # Enter/empty fists until the input runs out
    script = "\n7 2\n\n0\n" + "\n0\n" * 60
    code, out = run("--seed", "5", "--seat", "human", "--seat", "human", "--seat", "greedy",
                    input=script)
    assert code in (0, 1)  # the greedy bot may win before the input runs out
    parts = re.split(r"Press Enter when only p(\d) \(Player \d\) is looking", out)
    assert len(parts) >= 5, out[:3000]
    assert "Behind your screen" not in parts[0]
    seen = set()
    for seat_text, segment in zip(parts[1::2], parts[2::2], strict=True):
        seat = int(seat_text)
        seen.add(seat)
        other = 1 - seat
        assert f"Behind your screen — p{seat} Player {seat + 1}" in segment
        assert f"Behind your screen — p{other}" not in segment
        assert f"screen — p{other}" not in segment
    assert seen == {0, 1}
    # p0's sealed bid is not on p1's first screen; after the reveal it is public
    assert parts[1] == "0" and parts[3] == "1"
    assert "7 Fairy" not in parts[4]
    assert "p0 bid 7 Fairy + 2 Common" in out


# ---------------------------------------------------------------- language
def test_german_interface_shows_german_names() -> None:
    code, out = run("--seed", "3", *THREE, "--lang", "de", input="banana\n")
    assert code == 1
    assert "Hexe" in out
    assert "Dein Gebot>" in out
    assert "Startwert 3" in out
    assert "Hinter deinem Sichtschirm" in out
    assert "verstehe ich in einem Gebot nicht" in out
    assert "Partie abgebrochen" in out
    assert "Your bid" not in out and "Witch" not in out


def test_german_help_has_german_card_texts() -> None:
    _, out = run("--seed", "3", *THREE, "--lang", "de", input="hilfe\n")
    assert "So wird gespielt" in out
    assert "Zweiköpfiger Drache" in out and "Wegelagerer" in out


# ---------------------------------------------------------------- records
def test_save_writes_a_record_that_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = run("--seed", "3", *THREE, "--save", str(save), input=alternating())
    assert code == 0, out[-2000:]
    assert f"Game record saved to {save}" in out.replace("\n", "")
    record = json.loads(save.read_text())
    assert record["game"] == "fist"
    assert record["seats"] == [{"name": "You", "player": "human"},
                               {"name": "greedy", "player": "bot:greedy"},
                               {"name": "greedy", "player": "bot:greedy"}]
    assert record["result"] is not None
    assert record["meta"]["seed"] == 3
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "all legal" in replayed.output


def test_save_of_an_all_bot_game(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    code, _ = run("--seed", "8", "--seat", "random", "--seat", "greedy", "--seat", "random",
                  "--save", str(save))
    assert code == 0
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0
    seats = json.loads(save.read_text())["seats"]
    assert [s["player"] for s in seats] == ["bot:random", "bot:greedy", "bot:random"]


# ---------------------------------------------------------------- bad options
@pytest.mark.parametrize(("args", "message"), [
    (["--players", "9"], "3 to 6 players, not 9"),
    (["--players", "2"], "3 to 6 players, not 2"),
    (["--seat", "human", "--seat", "wizardbot", "--seat", "greedy"], "unknown bot 'wizardbot'"),
    (["--players", "4", *THREE], "does not match the 3 --seat"),
    (["--seat", "human", "--seat", "greedy"], "3 to 6 players, not 2"),
    (["--lang", "fr"], "--lang must be en or de"),
])
def test_bad_options_exit_non_zero_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "fist", *args], input="")
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_resolve_seats() -> None:
    assert resolve_seats(None, [], "en") == ["human", "ismcts", "ismcts", "ismcts"]
    assert resolve_seats(3, [], "en") == ["human", "ismcts", "ismcts"]
    assert resolve_seats(None, ["Human", "random", "greedy"], "en") == [
        "human", "random", "greedy"]
    with pytest.raises(OptionError):
        resolve_seats(7, [], "en")


# ---------------------------------------------------------------- parsing units
@pytest.mark.parametrize(("text", "canon"), [
    ("3", "bid f3 c0"),
    ("3 1", "bid f3 c1"),
    ("f3 c1 black amulet", "bid f3 c1 black amulet"),
    ("c1 f3", "bid f3 c1"),
    ("3f 1c", "bid f3 c1"),
    ("3 fairy 1 common", "bid f3 c1"),
    ("3 + 1", "bid f3 c1"),
    ("0", "bid f0 c0"),
    ("pass", "bid f0 c0"),
    ("passe", "bid f0 c0"),
    ("bid f2 c1", "bid f2 c1"),
    ("BID c1 f2", "bid f2 c1"),
    ("2 schwarz amulett", "bid f2 c0 black amulet"),
])
def test_friendly_bids(text: str, canon: str) -> None:
    game = FistGame({"players": 3})
    me = {"fairy": 8, "common": 2, "silver": 5, "black": 1, "amulet": 1}
    legal = game.space.bids(8, 2, 1, 1)
    assert str(bid_from_text(game, text, me, legal, "en", tiebreak=False)) == canon


@pytest.mark.parametrize(("text", "canon"), [
    ("2", "silver 2"), ("2 amulet", "silver 2 amulet"), ("s3", "silver 3"),
    ("silver 1", "silver 1"), ("pass", "silver 0"),
])
def test_friendly_tie_break_bids(text: str, canon: str) -> None:
    game = FistGame({"players": 3})
    me = {"fairy": 8, "common": 2, "silver": 5, "black": 0, "amulet": 1}
    legal = game.space.silvers(5, 1)
    assert str(bid_from_text(game, text, me, legal, "en", tiebreak=True)) == canon


@pytest.mark.parametrize("text", ["99", "banana", "1 2 3", "s2", "f9", "c3", "black", "amulet",
                                  "bid f70 c0", "silver 1", ""])
def test_unaffordable_or_unreadable_bids_are_refused(text: str) -> None:
    game = FistGame({"players": 3})
    me = {"fairy": 8, "common": 2, "silver": 5, "black": 0, "amulet": 0}
    with pytest.raises(InputProblem):
        bid_from_text(game, text, me, game.space.bids(8, 2, 0, 0), "en", tiebreak=False)


def test_parse_bid_words_tie_break_refuses_gold() -> None:
    with pytest.raises(InputProblem):
        parse_bid_words("f2", "en", tiebreak=True)


def _magician_win() -> tuple[FistGame, list[str]]:
    """p0 wins the Magician with 4 stones: pay or take."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    bids(state, "f0 c0", "f0 c0", "f0 c0")  # the Witch passes
    play(state, "chance: card magician")
    bids(state, "f2 c0", "f1 c0", "f0 c0")
    legal = state.legal_actions(0)
    game = state.game
    assert [str(a) for a in legal][-1] == "take"
    view = state.view(0)
    narrator = Narrator(game, "en", ["You", "a", "b"], viewer=0)
    lines = narrator.feed(view["history"])
    assert any("won the Magician" in line for line in lines)
    assert narrator.power_card == "magician"
    texts = [describe_action(game, "en", a, decision=view["decision"],
                             power_card=narrator.power_card, view=view) for a in legal]
    return game, texts


def test_decisions_are_described_in_words() -> None:
    _, texts = _magician_win()
    assert texts[0].startswith("Pay ") and texts[0].endswith("for 1 point")
    assert texts[-1] == "Take 3 Silver instead"


def test_choice_by_number_or_text() -> None:
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    bids(state, "f0 c0", "f0 c0", "f0 c0")
    play(state, "chance: card magician")
    bids(state, "f2 c0", "f1 c0", "f0 c0")
    game = state.game
    legal = state.legal_actions(0)
    assert choice_from_text(game, "1", legal, "en") == legal[0]
    assert str(choice_from_text(game, "take", legal, "en")) == "take"
    assert str(choice_from_text(game, "pay yrbr", legal, "en")) == "pay rrby"
    for bad in ("0", str(len(legal) + 1), "steal p1 red", "banana", ""):
        with pytest.raises(InputProblem):
            choice_from_text(game, bad, legal, "en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_narrator_tells_whole_bot_games(lang: str) -> None:
    """Every history of random games is narrated without error, and the log names
    every auction's outcome."""
    for i in range(12):
        game = FistGame({"players": 3 + i % 4})
        bots = [make_bot("fist", "random", random.Random(100 * i + s))
                for s in range(game.num_players)]
        state = play_out(game.new_initial_state(), bots, random.Random(i))
        narrator = Narrator(game, lang, [f"bot{s}" for s in range(game.num_players)])
        lines = narrator.feed(state.view(None)["history"])
        assert narrator.done == len(state.history)
        assert lines[-1].startswith("Game over" if lang == "en" else "Spielende")
        if lang == "de":  # the engine's private notes are told in German too
            for seat in range(game.num_players):
                for note in state.view(seat)["me"]["notes"]:
                    assert engine_note("de", note) != note
