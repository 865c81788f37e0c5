"""Terminal play of Dragon Farkle (`dragonlair play farkle`, `dragonlair rules farkle`):
scripted humans, bots, hot-seat with hidden items (D9), the risk figures, records, bad
input and bad options.

The scripted humans type moves worked out in advance: the table is played once here with
the same seeds as the terminal uses (chance from ``seed_for(seed, 0)``, each bot from
``seed_for(seed, 0, seat + 1)``), a bot standing in for each human; the human's choices
are then typed, as menu numbers or as action text.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.bots import Bot, bot_names, make_bot
from dragonlair.cli.main import app
from dragonlair.cli.session import InputProblem, shown_action
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.actions import FarkleAction, Kind
from dragonlair.games.farkle.cards import COMPANIONS, ITEMS
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.scoring import counts_of
from dragonlair.games.farkle.state import FarkleState
from dragonlair.games.farkle.terminal.play import choice_from_text, default_bot, resolve_seats
from dragonlair.games.farkle.terminal.screen import FarkleNarrator, farkle_risks, percent
from tests.sizes import size

runner = CliRunner()
VS_CAUTIOUS = ["--seat", "human", "--seat", "cautious"]


def run(*args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(app, ["play", "farkle", *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def typed(action: FarkleAction, legal: Sequence[FarkleAction], i: int) -> str:
    """A choice as a player may type it: its number in the menu, or its action as the menu
    shows it (a seat numbered from 1: ``skirmish 2`` for the engine's ``skirmish p1``)."""
    if i % 3 == 0:
        return str(legal.index(action) + 1)
    if i % 3 == 1:
        return shown_action(action.text)
    return shown_action(action.text).upper()


def script(seed: int, kinds: Sequence[str], *, stand_in: str = "cautious",
           options: dict[str, object] | None = None) -> tuple[str, FarkleState]:
    """The input that plays the table to its end (a ``stand_in`` bot choosing for each
    human), and the game it plays."""
    game = FarkleGame({**(options or {}), "players": len(kinds)})
    state = game.new_initial_state()
    rng = random.Random(seed_for(seed, 0))
    humans = [s for s, k in enumerate(kinds) if k == "human"]
    players: dict[int, Bot] = {
        s: make_bot("farkle", k, random.Random(seed_for(seed, 0, s + 1))) if k != "human"
        else make_bot("farkle", stand_in, random.Random(1000 + s)) for s, k in enumerate(kinds)}
    lines: list[str] = []
    looker: int | None = None
    while state.current_seats():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        legal = list(state.legal_actions(seat))
        action = players[seat].choose(state.view(seat), legal)
        assert isinstance(action, FarkleAction)
        if seat in humans:
            if len(humans) > 1 and looker != seat:
                lines.append("")  # Enter: only this player is looking
                looker = seat
            lines.append(typed(action, legal, len(lines)))
        state.apply(seat, action)
    return "\n".join(lines) + "\n", state


def entries(state: FarkleState) -> list[str]:
    return [f"{'chance' if s == CHANCE else f'p{s}'}: {a}" for s, a in state.history]


# ---------------------------------------------------------------- whole games
#: a whole game at the terminal takes a second or more (rich draws every screen): the tests
#: that read the same game share it
@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> tuple[FarkleState, str, Path]:
    """The scripted human of seed 3 against the cautious bot, saved: the game worked out
    here, the terminal's output and the record."""
    text, state = script(3, ["human", "cautious"])
    save = tmp_path_factory.mktemp("scripted") / "game.json"
    code, out = run("--seed", "3", *VS_CAUTIOUS, "--save", str(save),
                    input=text + "log\n")  # at the end, the whole game log
    assert code == 0, out[-3000:]
    return state, out, save


def test_scripted_human_plays_to_the_end_and_the_record_replays(
        scripted: tuple[FarkleState, str, Path]) -> None:
    state, out, save = scripted
    assert "Traceback" not in out and "Try again" not in out
    assert "Game over" in out and re.search(r"Winner: (Player|cautious)\n", out)
    assert re.search(r"Why: (Player|cautious) slew the dragon", out)
    assert "Your magic items — Player (you may keep" in out and "Your choice>" in out
    assert "Press Enter when only" not in out  # one human: no hot-seat pause
    assert "[bold" not in out  # no markup leaks
    # the terminal plays exactly the game worked out for the same seeds
    record = json.loads(save.read_text())
    assert record["game"] == "farkle"
    assert record["actions"] == entries(state)
    assert record["seats"] == [{"name": "Player", "player": "human"},
                               {"name": "cautious", "player": "bot:cautious"}]
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "all legal" in replayed.output


@pytest.fixture(scope="module")
def option_one(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """A human named Anna who always chooses option 1 (a short game: seed 4), saved."""
    save = tmp_path_factory.mktemp("option-one") / "game.json"
    code, out = run("--seed", "4", *VS_CAUTIOUS, "--name", "  Anna ", "--save", str(save),
                    input="1\n" * 3000)
    return code, out, save


def test_the_human_plays_under_the_name_given(option_one: tuple[int, str, Path]) -> None:
    """``--name``: the game's lines are in the third person, so the one human has a name
    (default "Player"), never "You" ("You gets ..."); it is the record's name for the seat."""
    code, out, save = option_one
    assert code == 0, out[-3000:]
    assert "Players: Anna, cautious\n" in out
    assert re.search(r"\bAnna (gets a magic item: \S|rolls)", out)  # the log in brief
    assert "Your magic items — Anna (you may keep" in out
    assert not re.search(r"\bYou (gets|wins|rolls|recruits|banks|uses|sets)\b", out)
    assert json.loads(save.read_text())["seats"][0] == {"name": "Anna", "player": "human"}


def test_human_always_choosing_option_one_reaches_the_end(
        option_one: tuple[int, str, Path]) -> None:
    code, out, _ = option_one
    assert code == 0, out[-3000:]
    assert "Traceback" not in out and "Try again" not in out
    assert "Game over" in out


def test_screen_shows_dice_options_risk_and_the_table(
        scripted: tuple[FarkleState, str, Path]) -> None:
    _, out, _ = scripted
    assert re.search(r"Roll: (⚀1|⚁2|⚂3|⚃4|⚄5|⚅6)( |$)", out, re.M)  # dice drawn as dice
    assert re.search(r"event die: (DRAGON|ALLIANCE|blank)", out)
    assert re.search(r"^\s+1\. keep \d+ = \d+ soldiers", out, re.M)
    assert re.search(r"^\s+\d\. recruit — ", out, re.M)
    assert re.search(r"^\s+\d\. bank — \d+ soldiers join your army", out, re.M)
    assert "Pending soldiers:" in out and "dice in hand:" in out
    assert "farkle risk of the next roll (6 dice): 2.31%" in out
    assert "Companions (public):" in out and "Recent events" in out
    assert re.search(r"\bPlayer gets a magic item: \S", out)  # one's own item, by name
    assert "cautious gets a magic item (hidden)" in out
    # the seat column numbers the seats from 1 (the viewer's own marked)
    assert re.search(r"^ *▶? *1 +│ Player +│", out, re.M)
    assert re.search(r"^ *▶? *2 +│ cautious +│", out, re.M)


def test_keep_options_are_the_engines_selections_with_their_values(
        scripted: tuple[FarkleState, str, Path]) -> None:
    """The menu lists exactly ``game.scorer.selections(roll)`` with their soldiers."""
    state, out, _ = scripted
    game = state.game
    first = next(i for i, (s, a) in enumerate(state.history) if s == 0 and a.kind == Kind.KEEP)
    roll = next(a for s, a in reversed(state.history[:first]) if a.kind == Kind.DICE)
    dice = roll.text.split()[1]
    menu = [f"keep {''.join(str(f + 1) * n for f, n in enumerate(sel))} = {value:,} soldiers"
            for sel, value in game.scorer.selections(counts_of(dice))]
    lines = "\n".join(f"  {i}. {m}" for i, m in enumerate(menu, 1))
    shown = re.findall(r"^  \d+\. keep \d+ = [\d,]+ soldiers", out, re.M)
    assert "\n".join(shown[:len(menu)]) == lines


def test_all_bot_table_prints_the_log_and_the_result() -> None:
    code, out = run("--seed", "1", "--seat", "random", "--seat", "cautious", "--seat", "random")
    assert code == 0, out[-3000:]
    assert "Game log" in out and "Final table" in out and "Game over" in out
    assert re.search(r"Winner: (random #1|cautious|random #3)\n", out)
    assert "Players: random #1, cautious, random #3" in out  # a shared name: its seat from 1
    assert " rolls " in out and "(drawn by lot)" in out
    assert "Your magic items" not in out  # nobody's items on a public screen
    assert "Your choice>" not in out


def test_dragon_option_sets_the_strength_and_is_recorded(tmp_path: Path) -> None:
    save = tmp_path / "d5.json"
    code, out = run("--seed", "4", "--seat", "cautious", "--seat", "cautious", "--dragon", "5",
                    "--save", str(save))
    assert code == 0, out[-2000:]
    assert "strength 5" in out
    assert json.loads(save.read_text())["options"]["dragon"] == 5
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0


@cache
def bot_game(seed: int) -> FarkleState:
    """A whole game of random, cautious and random bots (the same in every language)."""
    game = FarkleGame({"players": 3})
    bots = [make_bot("farkle", k, random.Random(seed * 7 + i))
            for i, k in enumerate(["random", "cautious", "random"])]
    return play_out(game.new_initial_state(), bots, random.Random(seed))


@pytest.mark.parametrize("games", [
    pytest.param(range(4), id="4"),  # 41 kinds of event
    # CI six more games, the release run (scripts/test.sh --long) 21 more
    pytest.param(range(4, 4 + size(ci=6, long=21)), id="many", marks=pytest.mark.slow)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_engine_event_is_told_in_words(lang: str, games: range) -> None:
    """The log is the engine's events rendered from the catalogues in the UI language, with
    the seats' names; no event is shown as its code, and a viewer reads the item identities
    of its own seat only (D9)."""
    told: set[str] = set()
    for seed in games:
        state = bot_game(seed)
        game = state.game
        names = ["Ann", "Bob", "Cy"]
        narrator = FarkleNarrator(game, lang, names)
        for seq, event in state.events_for(1):
            words = narrator.event_words(event)
            assert event.code not in words and "farkle.roll" not in words, words
            for key in ("seat", "target", "loser", "attacker", "defender"):
                if key in event.params:
                    seat = event.params[key]
                    assert names[seat] in words, (event, words)
            assert not re.search(r"\bp\d\b", words), words
            assert event.to in (None, 1), seq
            told.add(event.code)
    assert len(told) >= 25


# ---------------------------------------------------------------- the risk figures
def enumerated_risk(game: FarkleGame, k: int) -> float:
    """The chance that k dice score nothing, by the engine's scorer over all 6^k rolls."""
    bad = sum(1 for faces in product("123456", repeat=k)
              if not game.scorer.selections(counts_of("".join(faces))))
    return float(bad / 6**k)


def test_risk_figures_agree_with_the_engine_enumerating_rolls() -> None:
    game = FarkleGame()
    risks = farkle_risks(game.scorer)
    for k in range(1, 7):
        assert percent(risks[k]) == percent(enumerated_risk(game, k))
    # the rulebook facts: one die scores on a 1 or a 5; six dice farkle 2.31% of the time
    assert percent(risks[1]) == "66.67%" and percent(risks[6]) == "2.31%"


def test_help_shows_rules_scoring_risks_and_cards() -> None:
    code, out = run("--seed", "3", *VS_CAUTIOUS, input="help\n")
    assert code == 1  # the input ran out
    assert "How to play" in out and "Scoring table" in out
    game = FarkleGame()
    for k in range(1, 7):
        assert re.search(rf"│\s+{k} │\s+{re.escape(percent(enumerated_risk(game, k)))} │", out)
    assert "66.67%" in out and "2.31%" in out
    for card in (*COMPANIONS, *ITEMS):
        assert card.name("en") in out


# ---------------------------------------------------------------- hot-seat (D9)
def _hot_seat_game(seed: int = 20) -> tuple[int, str, FarkleState]:
    """A hot-seat table of two humans (random stand-ins) with a skirmish between them (a
    short game: a hot-seat game's screens take rich a while to draw)."""
    text, state = script(seed, ["human", "human"], stand_in="random")
    assert any(a.kind == Kind.SKIRMISH for _, a in state.history) and len(state.history) < 400
    return seed, text, state


def _hidden_item_names(state: FarkleState, seat: int) -> set[str]:
    """Items ``seat`` drew that never became public (never used, never acting by
    themselves) and that the other human never held: their names must never be shown to
    the other player."""
    game = state.game
    replay = game.new_initial_state()
    drawn: dict[int, set[str]] = {0: set(), 1: set()}
    for s, action in state.history:
        before = [len(replay.items[x]) + len(replay.gained[x]) for x in (0, 1)]
        replay.apply(s, action)
        if s == CHANCE and action.kind == Kind.DRAW_ITEM:
            after = [len(replay.items[x]) + len(replay.gained[x]) for x in (0, 1)]
            owner = 0 if after[0] > before[0] else 1
            drawn[owner].add(game.items[action.card].id)
    used = {game.items[a.card].id for _, a in state.history if a.kind == Kind.USE}
    auto = {c.id for c in game.items if c.window == "auto"}
    names = {c.id: c.name("en") for c in game.items}
    return {names[i] for i in drawn[seat] - drawn[1 - seat] - used - auto}


@pytest.fixture(scope="module")
def hot_seat() -> tuple[FarkleState, int, str]:
    """The hot-seat game, and what the terminal shows of it."""
    seed, text, state = _hot_seat_game()
    code, out = run("--seed", str(seed), "--seat", "human", "--seat", "human",
                    input=text + "log\n")  # at the end, the whole game log
    return state, code, out


@pytest.mark.slow  # a whole hot-seat game at the terminal: CI
def test_hot_seat_never_shows_another_humans_items(
        hot_seat: tuple[FarkleState, int, str]) -> None:
    state, code, out = hot_seat
    assert code == 0, out[-3000:]
    parts = re.split(r"Press Enter when only Player (\d) is looking", out)
    assert len(parts) > 3
    assert "Your magic items" not in parts[0]
    secret = {s: _hidden_item_names(state, s) for s in (0, 1)}
    assert secret[0] or secret[1], "the table should hold some item that stays hidden"
    for number, segment in zip(parts[1::2], parts[2::2], strict=True):
        seat = int(number) - 1  # hot-seat players are numbered by their seats, from 1
        assert f"Your magic items — Player {seat + 1}" in segment
        assert f"Your magic items — Player {2 - seat}" not in segment
        for name in secret[1 - seat]:
            assert name not in segment, (seat, name)
    assert re.search(r"Player \d gets a magic item \(hidden\)", out)
    end = parts[-1].index("Game over")
    final = parts[-1][parts[-1].rindex("Dragon Farkle ·", 0, end):end]  # the final screen
    assert "Your magic items" not in final


@pytest.mark.slow  # a whole hot-seat game at the terminal: CI
def test_hot_seat_pause_names_the_defender(hot_seat: tuple[FarkleState, int, str]) -> None:
    state, _, out = hot_seat
    attacks = [a for _, a in state.history if a.kind == Kind.SKIRMISH]
    flat = " ".join(out.split())  # the terminal may wrap the note
    m = re.search(r"Player (\d) is attacked by Player (\d) \(attack value [\d,]+\) and "
                  r"rolls the defence now\. Press Enter when only Player (\d) is looking", flat)
    assert m, "the pause before a defence names the defender"
    assert m[1] == m[3] and m[1] != m[2]
    assert int(m[1]) == attacks[0].seat + 1  # the engine's seat, counted from 1


# ---------------------------------------------------------------- input
def test_bad_input_gets_a_reason_and_a_new_prompt() -> None:
    code, out = run("--seed", "3", *VS_CAUTIOUS,
                    input="banana\n99\n0\n\nkeep 2\nskirmish 1\nskirmish 5\nskirmish p1\n"
                          "log\n")
    assert "Traceback" not in out
    assert "'banana' is not one of the choices" in out
    assert "There is no option 99" in out and "There is no option 0" in out
    assert "Please type something" in out
    assert "'keep 2' is not one of the choices" in out
    # the engine's refusal, rendered (D5.1): the terminal does not re-check the rule
    assert "Player cannot attack themselves" in " ".join(out.split())
    # a number of no seat, and the engine's own p1 (a player would mean seat 1 by it)
    flat = " ".join(out.split())
    assert "'5' names no player here: name a player by their number, 1 to 2" in flat
    assert "'p1' names no player here" in flat and "(Player, cautious)" in flat
    assert len(re.findall(r"Try\s+again\.", out)) == 8
    assert "Game log" in out
    assert code == 1 and "Game abandoned; no result." in out


def test_quit_saves_an_unfinished_record(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    code, out = run("--seed", "4", *VS_CAUTIOUS, "--save", str(save), input="quit\n")
    assert code == 0 and "Game abandoned" in out  # quit is not a failure
    record = json.loads(save.read_text())
    assert record["game"] == "farkle" and record["result"] is None
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0


def _position() -> tuple[FarkleGame, FarkleState]:
    """Seat 0 to choose an action, holding a Gold Purse, with Skree (public: can scare)."""
    game = FarkleGame()
    state = game.new_initial_state()
    for text in ("companion skree", "companion tabby", "item gold-purse", "item second-wind",
                 "start p0"):
        state.apply(CHANCE, game.parse_action(text))
    return game, state


def test_choices_typed_in_many_forms() -> None:
    game, state = _position()
    legal = list(state.legal_actions(0))
    texts = [a.text for a in legal]
    assert texts == ["recruit", "skirmish p1", "scare p1", "use gold-purse"]

    def refuse(action: FarkleAction) -> str | None:  # as the session asks the engine
        err = state.refusal(0, action)
        return None if err is None else err.message("en", ["Ann", "Bo"])

    def pick(text: str, lang: str = "en", names: Sequence[str] = ("Ann", "Bo")) -> str:
        return choice_from_text(game, text, legal, lang, refuse, names).text

    assert pick("1") == "recruit"
    assert pick("RECRUIT") == "recruit" and pick("rekrutieren") == "recruit"
    # a seat as the player sees it: its number from 1, or the player's name
    assert pick("skirmish 2") == "skirmish p1" and pick("skirmish bo") == "skirmish p1"
    assert pick("angreifen 2") == "skirmish p1" and pick("s Bo") == "skirmish p1"
    assert pick("scare 2") == "scare p1" and pick("scare BO") == "scare p1"
    assert pick("skirmish 2 — attack Bo (army 0)") == "skirmish p1"
    assert pick("skirmish greedy #2", names=("greedy #1", "greedy #2")) == "skirmish p1"
    with pytest.raises(InputProblem, match="themselves"):
        pick("skirmish 1")  # seat 0 itself: the engine says why not (D5.1)
    for bad in ("skirmish p1", "skirmish 3", "skirmish 0"):  # p1: seat 2 or seat 1?
        with pytest.raises(InputProblem, match="names no player here"):
            pick(bad)
    assert pick("use Gold Purse") == "use gold-purse" and pick("use gold") == "use gold-purse"
    assert pick("benutze goldbeutel", "de") == "use gold-purse"
    state.apply(0, game.parse_action("recruit"))
    state.apply(CHANCE, game.parse_action("dice 115566 blank"))
    legal = list(state.legal_actions(0))
    assert pick("keep 515") == "keep 155"
    assert pick("keep 155 = 200 soldiers") == "keep 155"
    assert pick("behalte 665511") == "keep 115566"
    for bad in ("keep 6", "bank", "4000", "", "use gold-purse"):
        with pytest.raises(InputProblem):
            choice_from_text(game, bad, legal, "en")


def test_enter_takes_the_only_choice() -> None:
    game, state = _position()
    state.apply(0, game.parse_action("recruit"))
    state.apply(CHANCE, game.parse_action("dice 223346 blank"))
    legal = list(state.legal_actions(0))
    assert [a.text for a in legal] == ["farkle"]
    assert choice_from_text(game, "", legal, "en").text == "farkle"


# ---------------------------------------------------------------- language
@pytest.mark.slow  # German at the terminal: test_lang_de.py in a plain run
def test_german_interface_shows_german_names() -> None:
    text, state = script(3, ["human", "cautious"])
    code, out = run("--seed", "3", *VS_CAUTIOUS, "--lang", "de", input=text)
    assert code == 0, out[-3000:]
    assert "Deine Wahl>" in out and "Startwert 3" in out and "Spielende" in out
    assert "Gefährten (offen)" in out and "Rekrutierung" in out
    game = state.game
    companions = [game.companions[a.card] for s, a in state.history
                  if a.kind == Kind.DRAW_COMPANION]
    for card in companions:
        assert card.name("de") in out
        if card.name("en") != card.name("de"):
            assert card.name("en") not in out
    for english in ("Your choice", "Game over", "Recent events", "Pending soldiers"):
        assert english not in out
    assert re.search(r"Grund: (Spieler|cautious) hat den Drachen erlegt", out)


def test_german_bad_input() -> None:
    code, out = run("--seed", "3", *VS_CAUTIOUS, "--lang", "de", input="banane\n")
    assert code == 1
    assert "'banane' ist keine der Möglichkeiten" in out
    assert "Partie abgebrochen" in out


# ---------------------------------------------------------------- table setup and options
def test_default_seats_are_you_and_the_strongest_bot() -> None:
    expected = next(b for b in ("optimal", "cautious", "random") if b in bot_names("farkle"))
    assert default_bot() == expected
    assert resolve_seats(None, [], "en") == ["human", expected]
    assert resolve_seats(4, [], "en") == ["human"] + [expected] * 3
    assert resolve_seats(None, ["Human", "random", "cautious"], "en") == [
        "human", "random", "cautious"]
    for players, seats in ((1, []), (6, []), (3, ["human", "random"]), (None, ["human"])):
        with pytest.raises(OptionError):
            resolve_seats(players, seats, "en")


@pytest.mark.parametrize(("game", "args", "message"), [
    ("farkle", ["--players", "6"], "Dragon Farkle is for 2 to 5 players, not 6"),
    ("farkle", ["--players", "1"], "Dragon Farkle is for 2 to 5 players, not 1"),
    ("farkle", ["--seat", "human"], "Dragon Farkle is for 2 to 5 players, not 1"),
    ("farkle", ["--dragon", "7"], "--dragon must be 3, 4 or 5"),
    ("farkle", ["--dragon", "2"], "--dragon must be 3, 4 or 5"),
    ("farkle", ["--seat", "human", "--seat", "wizardbot"], "unknown bot 'wizardbot'"),
    ("farkle", ["--players", "3", "--seat", "human", "--seat", "random"],
     "--players 3 does not match the 2 --seat option(s)"),
    ("farkle", ["--match"], "--match is an option of master only, not of farkle"),
    ("farkle", ["--custom", "x.toml"], "--custom is an option of fist only, not of farkle"),
    ("farkle", ["--specials", "custom"], "--specials is an option of fist only, not of farkle"),
    ("fist", ["--specials", "custom"], "add at least one custom character"),
    ("fist", ["--specials", "some"], "'some'"),
    ("fist", ["--dragon", "4"], "--dragon is an option of farkle only, not of fist"),
    ("master", ["--dragon", "4"], "--dragon is an option of farkle only, not of master"),
    ("farkle", ["--lang", "fr"], "--lang must be one of en, de"),
])
def test_bad_options_exit_non_zero_with_one_line(game: str, args: list[str],
                                                 message: str) -> None:
    result = runner.invoke(app, ["play", game, *args], input="")
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize("lang", ["en", "de"])
def test_rules_farkle_lists_every_card_and_the_scoring_table(lang: str) -> None:
    result = runner.invoke(app, ["rules", "farkle", "--lang", lang])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Dragon Farkle" in out
    for card in (*COMPANIONS, *ITEMS):
        name = card.name(lang) + (" *" if card.house else "")
        assert re.search(rf"{re.escape(name)}\s+│\s+{card.count} │", out), name
    house = "house card" if lang == "en" else "Hauskarte"
    assert f"* {house}" in out
    title = "Scoring table" if lang == "en" else "Wertungstabelle"
    assert title in out
    for value in ("1,000" if lang == "en" else "1.000", "3,000" if lang == "en" else "3.000",
                  "2,000" if lang == "en" else "2.000", "1,500" if lang == "en" else "1.500"):
        assert value in out
    assert percent(2 / 3, lang) in out and percent(farkle_risks(FarkleGame().scorer)[6], lang) \
        in out
    assert ("66.67%", "2,31 %")[lang == "de"] in out
