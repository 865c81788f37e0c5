"""Terminal play (`dragonlair play fist`): scripted humans, bots, hot-seat, records, errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.markup import escape
from typer.testing import CliRunner

from dragonlair.bots import make_bot
from dragonlair.cli.main import app
from dragonlair.core.driver import play_out
from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.forms import form_texts
from dragonlair.core.i18n import all_codes, has_message, languages, render
from dragonlair.games.fist.actions import MAX_COMMON, MAX_FAIRY, silver_form
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState
from dragonlair.games.fist.terminal import screen as fist_screen
from dragonlair.games.fist.terminal.play import (
    InputProblem,
    bid_from_text,
    bid_text,
    choice_from_text,
    parse_bid_words,
    resolve_seats,
)
from dragonlair.games.fist.terminal.screen import (
    EventLog,
    card_text,
    choice_words,
    event_line,
    forced_words,
    plain_card_name,
)
from tests.fist_helpers import bids, new_table, play, quiet_witch, setup
from tests.sizes import quick_first, size
from tests.test_fist_auctions import act, all_pass, table

runner = CliRunner()
THREE = ["--seat", "human", "--seat", "greedy", "--seat", "greedy"]


def unrendered(out: str) -> list[str]:
    """Engine codes printed as they are (a code with no message in the catalogue)."""
    return re.findall(r"\bfist\.[a-z_]+\.[a-z_.]+", out)


def flat(out: str) -> str:
    """The output as one line of words: the panels' borders gone, so that a line wrapped in
    a panel reads as it was written."""
    return " ".join(out.replace("│", " ").split())


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
#: a table whose scripted game is short (18 bids of the human's): a whole game's screens take
#: rich seconds to draw
SHORT = "7"


def test_scripted_human_plays_to_the_end() -> None:
    code, out = run("--seed", SHORT, *THREE, input=alternating())
    assert code == 0, out[-2000:]
    assert "Traceback" not in out
    assert re.search(r"Winner: (Player|greedy #2|greedy #3)\n", out) or "Shared win:" in out
    assert "Game over" in out
    assert "Behind your screen — Player ─" in out
    assert "Your bid>" in out
    assert "Press Enter when only" not in out  # one human: no hot-seat pause


def test_all_bot_table_plays_without_input_and_prints_log_and_result() -> None:
    code, out = run("--seed", "1", "--seat", "random", "--seat", "random", "--seat", "random")
    assert code == 0, out[-2000:]
    assert "Game log" in out
    assert unrendered(out) == []  # every event and the reason rendered from the catalogue
    text = flat(out)
    won = render("fist.auction.won", {"seat": 0, "card": "witch"}, "en", ["random #1"])
    assert won.partition("random #1")[2].partition("Witch")[0] in text  # e.g. " won the "
    assert re.search(r"Winner: random #[123]\n|Shared win:", out)
    assert "Players: random #1, random #2, random #3" in out  # one bot thrice: numbered
    assert not re.search(r"\bp\d\b", out)  # seats by name, never the engine's p0
    assert "Behind your screen" not in out  # nobody's coins on a public screen


def test_all_bot_greedy_table_with_turn_limit() -> None:
    code, out = run("--seed", "4", "--seat", "greedy", "--seat", "greedy", "--seat", "greedy",
                    "--max-turns", "2")
    assert code == 0
    assert "Game over" in out
    assert "Turns played:" in out


def test_all_bot_table_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    seats = ["--seat", "random", "--seat", "greedy", "--seat", "random", "--seat", "greedy",
             "--max-turns", "2"]  # two turns are as reproducible as a whole game
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
    assert "Players: Player, ismcts #2, ismcts #3, ismcts #4" in out
    code, out = run("--seed", "2", "--players", "5", input="")
    assert "ismcts #5" in out


# ---------------------------------------------------------------- input
def _refusal(text: str, lang: str = "en", names: list[str] | None = None) -> str:
    """The engine's refusal of seat 0's bid ``text`` on the Witch of a fresh 3-player table
    (8 Fairy, 2 Common, no Black coin: F3.1), rendered from its code in ``lang`` with the
    seats' names of the table ``THREE`` (as in the log)."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    try:
        state.apply(0, state.game.parse_action(text))
    except DragonlairError as err:
        return err.message(lang, names or ["Player" if lang == "en" else "Spieler",
                                           "greedy #2", "greedy #3"])
    raise AssertionError(f"{text} was accepted")


def test_invalid_bids_get_a_reason_and_a_new_prompt() -> None:
    """The terminal reads what is typed; the engine says why a bid is refused (F5.1, F6)."""
    code, out = run("--seed", "3", *THREE, input="99\nbanana\nf3 c9\nblack\n\n0\nlog\n")
    assert "Traceback" not in out
    text = flat(out)
    # more than a bid can hold: the engine's reason, quoting what was typed (the terminal
    # writes no bid the engine's forms do not hold)
    too_large = render("fist.action.bid_too_large", {"text": "'99'", "max_fairy": MAX_FAIRY,
                                                     "max_common": MAX_COMMON}, "en")
    assert too_large == "'99': a bid holds at most 60 Fairy Gold (f) and 15 Common Gold (c)"
    assert too_large in text
    assert "I do not understand 'banana'" in out
    assert " ".join(_refusal("bid f3 c9").split()) in text  # only 2 Common Gold (F5.1)
    assert " ".join(_refusal("bid f0 c0 black").split()) in text  # no Black coin (F6)
    assert "Please type something" in out
    assert text.count("Try again.") == 5
    assert out.count("Your bid>") >= 7  # six answers on the Witch, then the next card
    empty = render("fist.bid.revealed", {"seat": 0, "fairy": 0, "common": 0, "black": 0,
                                         "amulet": 0, "value": 0}, "en", ["Player"])
    assert " ".join(empty.split()) in text  # the empty fist, revealed (F5.4), in the log
    assert unrendered(out) == []
    assert code == 1 and "Game abandoned" in out  # the input ran out


def test_help_prints_rules_and_every_card() -> None:
    game = FistGame({"players": 3})
    _, out = run("--seed", "3", *THREE, input="?\n")
    assert "How to play" in out and "empty fist" in out
    for card in game.cards:
        assert card.name("en") in out


def test_eof_ends_cleanly_with_code_1_and_quit_with_0(tmp_path: Path) -> None:
    """The input's end mid-game is a failure (1); ``quit`` is the player's choice (0)."""
    code, out = run("--seed", "3", *THREE, input="")
    assert code == 1 and "Game abandoned; no result." in out
    save = tmp_path / "quit.json"
    code, out = run("--seed", "3", *THREE, "--save", str(save), input="2\nquit\n")
    assert code == 0 and "Game abandoned" in out
    record = json.loads(save.read_text())
    assert record["result"] is None
    assert "p0: bid f2 c0" in record["actions"]
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "not over" in replayed.output


# ---------------------------------------------------------------- hot-seat
def test_hot_seat_pauses_and_never_shows_another_players_screen() -> None:
    # Player 1: Enter, bids 7 Fairy + 2 Common on the Witch; Player 2: Enter, bids nothing;
    # then Enter/empty fists until the input runs out
    script = "\n7 2\n\n0\n" + "\nlog\n0\n" + "\n0\n" * 60  # Player 1 reads the log
    code, out = run("--seed", "5", "--seat", "human", "--seat", "human", "--seat", "greedy",
                    input=script)
    assert code in (0, 1)  # the greedy bot may win before the input runs out
    parts = re.split(r"Press Enter when only Player (\d) is looking", out)
    assert len(parts) >= 5, out[:3000]
    assert "Behind your screen" not in parts[0]
    seen = set()
    for number, segment in zip(parts[1::2], parts[2::2], strict=True):
        seat = int(number) - 1  # hot-seat players are numbered by their seats, from 1
        seen.add(seat)
        other = 1 - seat
        assert f"Behind your screen — Player {seat + 1}" in segment
        assert f"Behind your screen — Player {other + 1}" not in segment
    assert seen == {0, 1}
    # Player 1's sealed bid is not on Player 2's first screen; after the reveal it is public
    assert parts[1] == "1" and parts[3] == "2"
    own = {"seat": 0, "fairy": 7, "common": 2, "black": 0, "amulet": 0}
    names = ["Player 1", "Player 2", "greedy"]
    mine = " ".join(render("fist.bid.own", own, "en", names).split())
    revealed = " ".join(render("fist.bid.revealed", {**own, "value": 9}, "en", names).split())
    assert mine not in flat(parts[4])  # Player 1's secret, not on Player 2's screen (F8)
    assert revealed not in flat(parts[4])
    assert revealed in flat(out)  # public once revealed (F5.4)
    assert unrendered(out) == []


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
    code, out = run("--seed", SHORT, *THREE, "--save", str(save), input=alternating())
    assert code == 0, out[-2000:]
    assert f"Game record saved to {save}" in out.replace("\n", "")
    record = json.loads(save.read_text())
    assert record["game"] == "fist"
    assert record["seats"] == [{"name": "Player", "player": "human"},
                               {"name": "greedy", "player": "bot:greedy"},
                               {"name": "greedy", "player": "bot:greedy"}]
    assert record["result"] is not None
    assert record["meta"]["seed"] == int(SHORT)
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "all legal" in replayed.output
    # the replay names the seats as the table did: the record's names, a shared one numbered
    assert re.search(r"Winner: (Player|greedy #2|greedy #3)\.", replayed.output)
    assert not re.search(r"\bp\d\b", replayed.output)


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
    (["--lang", "fr"], "--lang must be one of en, de, not 'fr'"),
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
    """Friendly forms are notation for the canonical bid (docs/records.md)."""
    parts = parse_bid_words(text, "en", tiebreak=False) if not text.lower().startswith(
        "bid") else None
    state = _witch_of_rich_p0()
    if parts is not None:
        assert bid_text(parts, "en", tiebreak=False) == canon
        # written in the view's form of the seat's bids (the engine's texts)
        form = state.view(0)["legal"]["form"]
        assert bid_text(parts, "en", tiebreak=False, form=form) == canon
        assert canon in form_texts(form)
    assert str(bid_from_text(state.game, state, 0, text, "en", tiebreak=False)) == canon


def _witch_of_rich_p0() -> FistState:
    """p0 holds a Black Magic coin and a Red Amulet (won on the Witch and the Goldsmith) and
    bids on the Red Dragon."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("goldsmith", "ghost"))
    bids(state, "f1 c0", "f0 c0", "f0 c0")  # p0 wins the Witch: a Black coin (F6)
    play(state, "chance: card goldsmith")
    bids(state, "f1 c0", "f0 c0", "f0 c0")  # p0 wins the Goldsmith: an Amulet
    play(state, "chance: card red-dragon")
    assert state.current_seats() == (0, 1, 2)
    assert state.players[0].black == 1 and state.players[0].amulet == 1
    return state


@pytest.mark.parametrize(("text", "canon"), [
    ("2", "silver 2"), ("2 amulet", "silver 2 amulet"), ("s3", "silver 3"),
    ("silver 1", "silver 1"), ("pass", "silver 0"),
])
def test_friendly_tie_break_bids(text: str, canon: str) -> None:
    if not text.startswith("silver"):
        assert bid_text(parse_bid_words(text, "en", tiebreak=True), "en",
                        tiebreak=True) == canon


@pytest.mark.parametrize("text", ["99", "banana", "1 2 3", "s2", "f9", "c3", "black", "amulet",
                                  "bid f70 c0", "silver 1", "", "f2 s1"])
def test_unaffordable_or_unreadable_bids_are_refused(text: str) -> None:
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    with pytest.raises(InputProblem):
        bid_from_text(state.game, state, 0, text, "en", tiebreak=False)
    assert len(state.history) == 14  # 12 stones, 2 specials: nothing applied


def test_a_refused_bid_shows_the_engines_reason_in_german() -> None:
    """No re-check in the terminal: the refusal is the engine's code, rendered (F5.1)."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    with pytest.raises(InputProblem) as problem:
        bid_from_text(state.game, state, 0, "f3 c9", "de", ["Spieler", "greedy #2", "greedy #3"],
                      tiebreak=False)
    assert str(problem.value) == _refusal("bid f3 c9", "de")
    assert str(problem.value) != _refusal("bid f3 c9", "en")


def test_in_a_tie_break_gold_is_the_engines_to_refuse() -> None:
    """Typed gold in a tie-break is notation for a gold bid, which the engine refuses
    (F5.7); gold and Silver in one bid is no action at all."""
    assert bid_text(parse_bid_words("f2", "en", tiebreak=True), "en",
                    tiebreak=True) == "bid f2 c0"
    # the view's form is of tie-break bids: a gold bid is written in the engine's bid form
    assert bid_text(parse_bid_words("f2", "en", tiebreak=True), "en", tiebreak=True,
                    form=silver_form(3, False)) == "bid f2 c0"
    assert bid_text(parse_bid_words("2 amulet", "en", tiebreak=True), "en", tiebreak=True,
                    form=silver_form(3, False)) == "silver 2 amulet"  # the engine refuses it
    with pytest.raises(InputProblem, match="'s99' is not a Fist of Dragonstones action"):
        bid_text(parse_bid_words("s99", "en", tiebreak=True), "en", tiebreak=True)
    with pytest.raises(InputProblem, match="either gold"):
        bid_text(parse_bid_words("f2 s1", "en", tiebreak=True), "en", tiebreak=True)


def _magician_win() -> FistState:
    """Seat 0 wins the Magician with 4 stones: pay stones for points or take the other
    reward."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    bids(state, "f0 c0", "f0 c0", "f0 c0")  # the Witch passes
    play(state, "chance: card magician")
    bids(state, "f2 c0", "f1 c0", "f0 c0")
    return state


def test_decisions_are_described_from_the_views_choice_codes() -> None:
    """The menu is the view's ``legal`` part (docs/views.md): each choice told from its
    ``fist.choice.*`` code in the player's language, in the order of the legal actions."""
    state = _magician_win()
    game = state.game
    legal = state.view(0)["legal"]
    assert legal["kind"] == "decision" and legal["card"] == "magician"
    assert [c["action"] for c in legal["choices"]] == [str(a) for a in state.legal_actions(0)]
    assert legal["choices"][-1]["code"] == "fist.choice.take"
    for lang in ("en", "de"):
        texts = [choice_words(game, c, lang) for c in legal["choices"]]
        assert texts[-1] == render("fist.choice.take", {"card": "magician"}, lang)
        pay = legal["choices"][0]
        assert pay["code"] == "fist.choice.pay"
        assert texts[0] == render("fist.choice.pay", pay["params"], lang)
    assert "Magier" in choice_words(game, legal["choices"][-1], "de")


def test_a_forced_move_is_told_in_words() -> None:
    """A seat with one legal action is told what was done for it: the empty fist (F5.1)."""
    state = setup(new_table(3), ["rrby", "rbyy", "bbyy"], ("fairy", "ghost"))
    quiet_witch(state)
    play(state, "chance: card blue-dragon")
    bids(state, "f8 c2", "f0 c0", "f0 c0")  # seat 0 spends all its gold on the Blue Dragon
    play(state, "chance: card red-dragon")
    assert [str(a) for a in state.legal_actions(0)] == ["bid f0 c0"]
    view = state.view(0)
    assert forced_words(state.game, view, state.legal_actions(0)[0], "en") == \
        "nothing (the empty fist)"
    assert forced_words(state.game, view, state.legal_actions(0)[0], "de") == \
        render("fist.ui.bid_empty", {}, "de")


def test_choice_by_number_or_text() -> None:
    state = _magician_win()
    game = state.game
    legal = state.legal_actions(0)
    assert choice_from_text(game, "1", legal, "en") == legal[0]
    assert str(choice_from_text(game, "take", legal, "en")) == "take"
    assert str(choice_from_text(game, "pay yrbr", legal, "en")) == "pay rrby"
    for bad in ("0", str(len(legal) + 1), "steal 2 red", "banana", ""):
        with pytest.raises(InputProblem):
            choice_from_text(game, bad, legal, "en")
    # the engine's p1 is not read from a player: beside seats from 1 it would mean another
    for bad in ("steal p1 red", "target p2", "p1", "target 4", "target 0"):
        with pytest.raises(InputProblem, match="names no player here"):
            choice_from_text(game, bad, legal, "en", names=["Ann", "Bo", "Cy"])
    # an action that is no choice now: the engine's reason, in the player's language, the
    # seat typed from 1 (steal 2 red: the engine's steal p1 red) or by name
    names = ["Ann", "Bo", "Cy"]
    for typed in ("steal 2 red", "steal bo red", "STEAL Bo red"):
        with pytest.raises(InputProblem) as problem:
            choice_from_text(game, typed, legal, "de", state, 0, names)
        try:
            state.clone().apply(0, game.parse_action("steal p1 red"))
        except DragonlairError as err:
            # the engine's action text in the reason as the terminal shows it: seats from 1
            assert "'steal p1 red'" in err.message("de", names)
            assert str(problem.value) == err.message("de", names).replace(
                "'steal p1 red'", "'steal 2 red'")
            assert not re.search(r"\bp\d\b", str(problem.value))


def test_a_seat_typed_at_a_decision_is_matched_against_the_views_choices() -> None:
    """A Thief's or a Brigand's victim typed from 1 or by name (or the name alone for a
    target) is the view's choice that names that seat (its ``victim``): the engine's text of
    it is taken, never written by the terminal (F5)."""
    names = ["Ann", "Bo", "Cy", "Di"]
    thief = table()
    all_pass(thief)
    act(thief, "chance: card thief",
        "p0: bid f3 c0", "p1: bid f2 c0", "p2: bid f1 c1", "p3: bid f1 c0")
    brigand = table(("brigand", "gnome"))
    all_pass(brigand)
    act(brigand, "chance: card brigand",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    for state, typed, engine in ((thief, "steal 3 red", "steal p2 red"),
                                 (thief, "STEAL cy red", "steal p2 red"),
                                 (thief, "steal Bo yellow", "steal p1 yellow"),
                                 (brigand, "target 3", "target p2"),
                                 (brigand, "target Cy", "target p2"),
                                 (brigand, "cy", "target p2"),
                                 (brigand, "Di", "target p3")):
        choices = state.view(0)["legal"]["choices"]
        legal = [state.game.parse_action(c["action"]) for c in choices]
        chosen = choice_from_text(state.game, typed, legal, "en", state, 0, names, choices)
        assert str(chosen) == engine
        assert engine in [c["action"] for c in choices]
    choices = thief.view(0)["legal"]["choices"]
    legal = [thief.game.parse_action(c["action"]) for c in choices]
    with pytest.raises(InputProblem):  # no such choice: Cy's blue stone is not second
        choice_from_text(thief.game, "steal 3 blue", legal, "en", thief, 0, names, choices)
    with pytest.raises(InputProblem, match="names no player here"):
        choice_from_text(thief.game, "steal 5 red", legal, "en", thief, 0, names, choices)


@pytest.mark.parametrize("games", [
    pytest.param(range(2), id="2"),  # 3 and 4 players
    # CI 5 and 6 players, the release run (scripts/test.sh --long) ten games of 3 to 6
    pytest.param(range(2, 2 + size(ci=2, long=10)), id="many", marks=pytest.mark.slow)])
@pytest.mark.parametrize("lang", quick_first(1, ["en", "de"]))  # CI: German too
def test_event_log_tells_whole_bot_games(lang: str, games: range) -> None:
    """Every event of random games is rendered from the catalogue (no raw code), the log
    ends with the game's end, and a seat's secrets are in its own log only (F8). (Game
    ``i`` has 3 + i % 4 players; rendering thousands of events for every seat takes
    seconds.)"""
    for i in games:
        game = FistGame({"players": 3 + i % 4})
        bots = [make_bot("fist", "random", random.Random(100 * i + s))
                for s in range(game.num_players)]
        state = play_out(game.new_initial_state(), bots, random.Random(i))
        assert isinstance(state, FistState)
        public = EventLog(game, lang, None)
        lines = public.feed_state(state)
        assert public.next_seq == state.event_count
        outcome = state.outcome()
        assert outcome is not None
        reason = render(outcome.reason, outcome.reason_params, lang)
        over = render("fist.ui.game_over", {"reason": reason}, lang)
        assert lines[-1] == f"[bold]{escape(over)}[/]"
        assert unrendered("\n".join(lines)) == []
        assert public.private == []
        for seat in range(game.num_players):
            mine = EventLog(game, lang, seat)
            mine.feed_state(state)
            assert unrendered("\n".join(mine.lines)) == []
            assert all(line in mine.lines for line in public.lines)
            secret = [e for _, e in state.events_for(seat)
                      if e.to == seat and not e.code.endswith(".own")]
            assert len(mine.private) == len(secret)  # its own bids are on its screen


#: English words of the engine's errors, events and end reasons and of the Fist screens
ENGLISH_WORDS = ("won", "bid", "bids", "passes", "cursed", "stone", "stones", "points",
                 "point", "Turn", "Fairy", "Common", "Silver", "Amulet", "Black", "reached",
                 "cannot", "only", "Winner", "Why", "nobody", "Nobody", "takes", "took",
                 "paid", "draws", "chose", "Witch", "Dragon", "the", "and", "your", "You")


#: a code printed as it is, not rendered (``fist.bid.exceeds_unspent``, ``cli.you``...)
RAW_CODE = re.compile(r"\b(fist|core|cli)\.[a-z_]+\.[a-z_]+")
HOT_SEAT = ["--seat", "human", "--seat", "human", "--seat", "greedy"]


@pytest.mark.parametrize(("seats", "first"), quick_first(1, [
    (THREE, "f3 c9\n"),  # one human and two bots
    (HOT_SEAT, "\nf3 c9\n"),  # hot-seat: Enter when only Player 1 is looking, then the bid
]))
def test_german_game_has_no_english_engine_text(seats: list[str], first: str) -> None:
    """`dragonlair play fist --lang de`: every message, event, refusal and the result in
    German, from the catalogues (a refused bid too: F5.1); no code printed raw."""
    code, out = run("--seed", SHORT, *seats, "--lang", "de", input=first + alternating(6000))
    assert code == 0, out[-2000:]
    assert RAW_CODE.search(out) is None, RAW_CODE.search(out)
    text = flat(out)
    names = ["Spieler 1", "Spieler 2", "greedy"] if seats == HOT_SEAT else None
    assert " ".join(_refusal("bid f3 c9", "de", names).split()) in text
    assert "Gewinner" in out or "Geteilter Sieg" in out
    assert render("fist.ui.game_over", {}, "de").split(":")[0] in text  # "Spielende"
    # the seats' names are bot names (greedy) and the record notation is English by design
    text = re.sub(r"\((?:bid|silver|pay|take|colour|steal|target|pick|buy|done|accept|decline|"
                  r"draw|stop|double|single)[^)]*\)", "", text)
    found = sorted({w for w in ENGLISH_WORDS if re.search(rf"\b{w}\b", text)})
    assert not found, [text[max(0, m.start() - 60):m.end() + 60]
                       for w in found for m in [re.search(rf"\b{w}\b", text)] if m][:5]


# ---------------------------------------------------------------- the log from events
def test_event_log_shows_a_viewer_only_what_it_may_see() -> None:
    """The log is the engine's events this viewer may see (F8): seat 0's sealed bid is in its
    own log only, the others see that it has bid; a custom character (F9) is named by its own
    name; lines render from the catalogue in the player's language; feeding again adds only
    what is new."""
    game = FistGame({"players": 3, "custom": load_file("moneylender")})
    state = setup(game.new_initial_state(), ["rrby", "rbyy", "bbyy"], ("moneylender", "ghost"))
    public = EventLog(game, "de", None)
    mine = EventLog(game, "de", 0)
    other = EventLog(game, "en", 1)
    special = render("fist.turn.special", {"card": "Geldverleiher"}, "de")
    assert special in public.feed_state(state)
    assert special in mine.feed_state(state)
    assert render("fist.turn.special", {"card": "Moneylender"}, "en") in other.feed_state(state)
    # the starting stones (F3.1), one event per stone, in one line
    assert public.lines[0].startswith(render("fist.ui.ev_setup", {"stones": ""}, "de"))
    assert all(f"Spieler {s + 1}: " in public.lines[0] for s in range(3))  # no names: from 1
    named = EventLog(game, "en", None, ["Ann", "Bo", "Cy"])
    named.feed_state(state)
    assert all(f"{name}: " in named.lines[0] for name in ("Ann", "Bo", "Cy"))
    play(state, "p0: bid f2 c1")
    sealed = render("fist.bid.sealed", {"seat": 0}, "de")
    own = render("fist.bid.own", {"seat": 0, "fairy": 2, "common": 1, "black": 0, "amulet": 0},
                 "de")
    assert public.feed_state(state) == [sealed]
    new = mine.feed_state(state)
    assert new[0] == sealed and new[1].startswith(f"[cyan]{own}[/]")
    assert mine.private == []  # its own sealed bid is on its screen, not among the notes
    assert other.feed_state(state) == [render("fist.bid.sealed", {"seat": 0}, "en")]
    assert public.feed_state(state) == []  # nothing new
    assert event_line(game, state.events_for(None)[-1][1], "en") == "Player 1 has bid"
    assert event_line(game, state.events_for(None)[-1][1], "en", ["Ann"]) == "Ann has bid"


def test_card_names_and_texts_come_from_the_catalogue() -> None:
    """Every built-in character has a name and a text in every language (keyed by id)."""
    game = FistGame({"players": 3, "custom": load_file("moneylender")})
    for lang in languages():
        for card in game.cards:
            name = plain_card_name(game, card.id, lang)
            text = card_text(game, card.id, lang)
            if card.custom:
                assert (name, text) == (card.name(lang), card.text(lang))
            else:
                assert has_message(f"fist.card.{card.id}.name", lang), (lang, card.id)
                assert has_message(f"fist.card.{card.id}.text", lang), (lang, card.id)
                assert name == render(f"fist.card.{card.id}.name", {}, lang)
        for key in ("red", "blue", "yellow"):
            assert has_message(f"fist.colour.{key}", lang)
        for key in ("fairy", "common", "silver", "black", "amulet"):
            assert has_message(f"fist.coin.{key}", lang)
    assert plain_card_name(game, "two-headed-dragon", "de") == "Zweiköpfiger Drache"


def test_every_terminal_word_has_a_message_in_every_language() -> None:
    codes = {c for c in all_codes() if c.startswith(("fist.ui.", "fist.card.", "fist.colour.",
                                                       "fist.coin."))}
    assert len(codes) > 120
    # every word the Fist terminal asks for (``ui(lang, "key")``) is in the catalogues
    source = "".join((Path(fist_screen.__file__).parent / name).read_text(encoding="utf-8")
                     for name in ("screen.py", "play.py"))
    used = {f"fist.ui.{key}" for key in re.findall(r"\bui\((?:self\.)?lang, [\"']([a-z_.]+)",
                                                    source)}
    assert len(used) > 60 and used <= codes, sorted(used - codes)
    for lang in languages():
        assert [c for c in sorted(codes) if not has_message(c, lang)] == []


def test_specials_custom_puts_only_the_custom_characters_in_the_special_deck() -> None:
    """``--specials custom`` (F9 playtest): every turn's specials are the custom ones."""
    code, out = run("--custom", "stormcaller", "--specials", "custom",
                    "--seat", "greedy", "--seat", "greedy", "--seat", "greedy",
                    "--max-turns", "2", "--seed", "5")
    assert code == 0, out
    specials = re.findall(r"Special card of this turn: (.+)", out)
    assert specials and set(specials) <= {"Stormcaller", "Highwayman"}
    builtin = {c.name("en") for c in FistGame().cards if not c.standard}
    assert not builtin & set(re.findall(r"Up for auction: (.+)", out))
