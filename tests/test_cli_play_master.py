"""Terminal play of Dragon Master (`dragonlair play master`, `dragonlair rules master`):
scripted humans, bots, hot-seat, matches (M5), records, bad input and bad options.

The scripted humans type moves worked out in advance: the table is played once with
:func:`play_out` from the same seeds as the terminal uses (chance from ``seed_for(seed, 0)``,
each bot from ``seed_for(seed, 0, seat + 1)``), a seeded policy standing in for each human;
the human's moves are then typed, in the different forms a player may use.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.bots import bot_names, make_bot
from dragonlair.cli.main import app, option_owners
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import OptionError
from dragonlair.core.game import CHANCE, JSON, Action
from dragonlair.core.i18n import term
from dragonlair.games.master.cards import CARDS
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import MasterAction, MasterState, Phase, cell_name
from dragonlair.games.master.terminal.play import (
    InputProblem,
    action_from_text,
    default_bot,
    placement_from_text,
    resolve_seats,
)
from dragonlair.games.master.terminal.screen import grid_text, short_form

runner = CliRunner()
HUMAN_VS_RANDOM = ["--seat", "human", "--seat", "random"]


def flat(text: str) -> str:
    """``text`` with its line breaks (the console wraps at 80 columns) as single spaces."""
    return " ".join(text.split())


def run(*args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(app, ["play", "master", *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


class Policy:
    """Stands in for a human when the moves are worked out: a seeded random choice."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


FORMS = ("{id} {cell}", "{value} {cell}", "{short} {cell}", "{cell} {id}", "place {id} {cell}",
         "{Name} {cell}")


def typed(action: MasterAction, i: int, lang: str = "en") -> str:
    """A placement in one of the forms a player may type (the i-th form, cycling)."""
    card = CARDS[action.value]
    cell = cell_name(action.cell)
    return FORMS[i % len(FORMS)].format(id=card.id, value=card.value, cell=cell,
                                        short=short_form(card.id, lang),
                                        Name=term(f"master.card.{card.id}", lang).upper())


def script(seed: int, kinds: Sequence[str], *, match: bool = False,
           lang: str = "en") -> tuple[str, MasterState]:
    """The input that plays the table to its end, and the game it plays."""
    game = MasterGame({"match": match})
    humans = [s for s, k in enumerate(kinds) if k == "human"]
    players = [Policy(1000 + s) if k == "human" else
               make_bot("master", k, random.Random(seed_for(seed, 0, s + 1)))
               for s, k in enumerate(kinds)]
    state = play_out(game.new_initial_state(), players, random.Random(seed_for(seed, 0)))
    lines: list[str] = []
    looker: int | None = None
    placed = 0
    total = sum(1 for s, _ in state.history if s != CHANCE)
    for seat, action in state.history:
        if seat == CHANCE:
            continue
        assert isinstance(action, MasterAction)
        if seat in humans:
            if len(humans) > 1 and looker != seat:
                lines.append("")  # Enter: only this player is looking
                looker = seat
            lines.append(typed(action, len(lines), lang))
        placed += 1
        if placed % 16 == 0 and placed < total and humans:
            lines.append("")  # Enter for the next round (M5)
            looker = None
    assert isinstance(state, MasterState)
    return "\n".join(lines) + "\n", state


# ---------------------------------------------------------------- whole games
def test_scripted_human_plays_a_round_to_the_end(tmp_path: Path) -> None:
    text, state = script(3, ["human", "random"])
    save = tmp_path / "round.json"
    code, out = run("--seed", "3", *HUMAN_VS_RANDOM, "--save", str(save), input=text)
    assert code == 0, out[-3000:]
    assert "Traceback" not in out and "Try again" not in out
    assert "Round 1 is over" in out
    assert re.search(r"Winner: (Player|random)\n", out) or "Drawn round: nobody wins" in out
    assert "Game over" in out
    assert "Your hand — Player ─" in out and "Your move>" in out
    assert "Press Enter when only" not in out  # one human: no hot-seat pause
    # the terminal plays exactly the driver's game for the same seeds
    record = json.loads(save.read_text())
    assert record["actions"] == [f"{'chance' if s == CHANCE else f'p{s}'}: {a}"
                                 for s, a in state.history]


def test_round_end_shows_both_players_lines_lowest_first_and_the_winner() -> None:
    """M4: each player's four lines sorted from the lowest; the first difference decides."""
    _, state = script(3, ["human", "random"])
    _, out = run("--seed", "3", *HUMAN_VS_RANDOM, input=script(3, ["human", "random"])[0])
    result = state.rounds[-1]
    cols = " · ".join(str(v) for v in sorted(result.columns))
    rows = " · ".join(str(v) for v in sorted(result.rows))
    assert f"Player (columns), lowest first: {cols}" in out
    assert f"random (rows), lowest first: {rows}" in out
    if result.winner is not None:
        name = "Player" if result.winner == 0 else "random"
        assert f"— {name} wins the round." in flat(out)


def test_seat_one_human_sees_the_grid_turned() -> None:
    text, _ = script(6, ["random", "human"])
    code, out = run("--seed", "6", "--seat", "random", "--seat", "human", input=text)
    assert code == 0, out[-3000:]
    assert "Seen from Player's side (turned a quarter turn)" in out
    assert "Seen from random's side" not in out
    assert "Your hand — Player ─" in out


def test_all_bot_table_prints_every_placement_and_the_result() -> None:
    code, out = run("--seed", "1", "--seat", "random", "--seat", "greedy")
    assert code == 0
    assert len(re.findall(r"^(random|greedy): .+ on [a-g][1-7]$", out, re.M)) == 16
    assert "starts (drawn by lot)" in out
    assert "Round 1 is over" in out and "Game over" in out
    assert "Your hand" not in out  # nobody's hand on a public screen


def test_match_plays_rounds_until_a_second_dragon(tmp_path: Path) -> None:
    save = tmp_path / "match.json"
    code, out = run("--seed", "2", "--seat", "random", "--seat", "random", "--match",
                    "--save", str(save))
    assert code == 0, out[-3000:]
    rounds = len(re.findall(r"Round \d+ is over", out))
    assert rounds >= 2
    assert "Players: random #1, random #2" in out  # two seats of one bot: numbered from 1
    assert re.search(r"Why: random #[12] took a second dragon", out)
    assert "Dragons (first to 2 wins the match)" in out
    # M5, told by the engine's events: who starts the next round, and why
    assert re.search(r"random #[12] starts this round \((lost the last one|did not start)", out)
    assert f"Rounds played: {rounds}" in out
    record = json.loads(save.read_text())
    assert record["options"]["match"] is True
    assert max(record["result"]["scores"]) == 2
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0


def test_human_match_waits_between_rounds() -> None:
    for seed in range(30):
        text, state = script(seed, ["human", "greedy"], match=True)
        if len(state.rounds) >= 3:
            break
    code, out = run("--seed", str(seed), "--seat", "human", "--seat", "greedy", "--match",
                    input=text)
    assert code == 0, out[-3000:]
    assert out.count("Press Enter for the next round") == len(state.rounds) - 1
    assert "Dragons (first to 2 wins the match)" in out
    assert "Round 3 is over" in out


def test_default_seats_are_you_and_the_strongest_bot() -> None:
    expected = next(b for b in ("expert", "greedy", "random") if b in bot_names("master"))
    assert default_bot() == expected
    code, out = run("--seed", "2", input="")
    assert code == 1 and "Game abandoned" in out
    assert f"Players: Player, {expected}\n" in out


# ---------------------------------------------------------------- hot-seat
def test_hot_seat_never_shows_the_other_hand() -> None:
    text, _ = script(5, ["human", "human"])
    code, out = run("--seed", "5", "--seat", "human", "--seat", "human", input=text)
    assert code == 0, out[-3000:]
    parts = re.split(r"Press Enter when only Player (\d) is looking", out)
    assert len(parts) == 1 + 2 * 16  # a pause before each of the 16 placements
    assert "Your hand" not in parts[0]
    for number, segment in zip(parts[1::2], parts[2::2], strict=True):
        other = 3 - int(number)  # hot-seat players are numbered by their seats, from 1
        assert segment.count(f"Your hand — Player {number}") == 1
        assert f"Your hand — Player {other}" not in segment
        assert "Cards you have not seen" in segment
    assert "Round 1 is over" in parts[-1]


def test_hot_seat_match_pauses_again_after_a_round() -> None:
    for seed in range(30):
        text, state = script(seed, ["human", "human"], match=True)
        if len(state.rounds) >= 2:
            break
    code, out = run("--seed", str(seed), "--seat", "human", "--seat", "human", "--match",
                    input=text)
    assert code == 0, out[-3000:]
    pauses = len(re.findall(r"Press Enter when only Player \d is looking", out))
    assert pauses == 16 * len(state.rounds)
    first_hand_of_round_2 = out.index("Press Enter for the next round")
    rest = out[first_hand_of_round_2:]
    assert rest.index("Press Enter when only") < rest.index("Your hand")


# ---------------------------------------------------------------- input
def _seed_missing_a_card() -> tuple[int, str, str]:
    """A seed where seat 0's hand lacks a kind of card: the seed, that card's id, and the id
    of a card seat 0 holds."""
    for seed in range(100):
        state = MasterGame().new_initial_state()
        rng = random.Random(seed_for(seed, 0))
        while state.phase in (Phase.DEAL, Phase.START):
            state.apply(CHANCE, state.sample_chance(rng))
        hand = state.hands[0]
        if 0 in hand:
            return seed, CARDS[hand.index(0)].id, CARDS[hand.index(max(hand))].id
    raise AssertionError("no seed found")


def test_bad_input_gets_a_reason_and_a_new_prompt() -> None:
    seed, missing, have = _seed_missing_a_card()
    script_text = (f"banana\n{have} z9\n9 d4\ne d4\nd6 {have}\n\nruby sapphire d4\n"
                   f"{have} d4 d3\n{missing} d4\nhelp\nlog\n")
    code, out = run("--seed", str(seed), *HUMAN_VS_RANDOM, input=script_text)
    assert "Traceback" not in out
    assert "I do not understand 'banana'" in out
    assert "z9 is not on the board" in out
    assert "No card has the value 9" in out
    assert "'e' could be Dragon Egg or Emerald Dragon" in out
    assert "d6 is not a legal cell" in out
    assert "Please type something" in out
    assert "Name one card, not two." in out
    assert "Name one cell, not two." in out
    assert f"Player has no {term('master.card.' + missing)} in hand (rule M3) Your hand: " in out
    assert "[bold" not in out
    assert len(re.findall(r"Try\s+again\.", out)) == 9
    assert "How to play" in out and "What a line of 4 scores" in out  # help
    assert "What happened" in out and "\nPlayer starts (drawn by lot)." in out  # log
    assert code == 1 and "Game abandoned; no result." in out  # the input ran out


def test_quit_saves_an_unfinished_record(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    code, out = run("--seed", "4", *HUMAN_VS_RANDOM, "--save", str(save), input="quit\n")
    assert code == 0 and "Game abandoned" in out  # quit is not a failure
    record = json.loads(save.read_text())
    assert record["game"] == "master" and record["result"] is None
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0 and "not over" in replayed.output


@pytest.mark.parametrize(("text", "canon"), [
    ("ruby d3", "place ruby d3"),
    ("3 d3", "place ruby d3"),
    ("r d3", "place ruby d3"),
    ("R D3", "place ruby d3"),
    ("d3 ruby", "place ruby d3"),
    ("place ruby d3", "place ruby d3"),
    ("ruby dragon on d3", "place ruby d3"),
    ("s e4", "place sapphire e4"),
    ("em c4", "place emerald c4"),
    ("egg d5", "place egg d5"),
    ("0 d5", "place egg d5"),
    ("rubin d3", "place ruby d3"),  # German words work in the English interface too
])
def test_friendly_placements(text: str, canon: str) -> None:
    view = _view_after(["place ruby d4"])
    assert placement_from_text(text, view, "en") == canon


@pytest.mark.parametrize(("text", "canon"), [
    ("rubin d3", "place ruby d3"), ("sa e4", "place sapphire e4"),
    ("sm c4", "place emerald c4"), ("ei d5", "place egg d5"), ("e d5", "place egg d5"),
    ("Drachenei d5", "place egg d5"), ("ruby d3", "place ruby d3"),
])
def test_friendly_placements_in_german(text: str, canon: str) -> None:
    view = _view_after(["place ruby d4"])
    assert placement_from_text(text, view, "de") == canon


def test_card_alone_with_one_legal_cell_and_cell_alone_with_one_kind() -> None:
    view = _view_after([])
    assert view["public"]["legal_cells"] == ["d4"]
    assert placement_from_text("ruby", view, "en") == "place ruby d4"
    with pytest.raises(InputProblem, match="Which card"):
        placement_from_text("d4", view, "en")
    one_kind = {**view, "private": {**view["private"],
                                    "hand": {"egg": 0, "emerald": 0, "sapphire": 0, "ruby": 3}}}
    assert placement_from_text("d4", one_kind, "en") == "place ruby d4"


def test_a_placement_is_written_by_the_engines_form() -> None:
    """The terminal writes no ``place``: a legal placement is the view's ``legal.form``
    entry (its options in the order of ``legal.cards`` and ``legal.cells``), any other is
    written in the engine's form of every placement, for the engine to refuse (M3)."""
    view = _view_after([])
    legal = view["legal"]
    assert legal["cells"] == ["d4"] and "ruby" in legal["cards"]
    assert placement_from_text("ruby d4", view, "en") == "place ruby d4"
    # the text is the form's, whatever it says
    marked = {**view, "legal": {**legal, "form": {"parts": [
        {"slot": None, "texts": ["PLACE"]},
        {"slot": "card", "texts": [f"<{c}>" for c in legal["cards"]]},
        {"slot": "cell", "texts": [f"<{c}>" for c in legal["cells"]]}]}}}
    assert placement_from_text("ruby d4", marked, "en") == "PLACE<ruby><d4>"
    # not legal now (d3 is no legal cell): the engine's form of every placement writes it
    assert placement_from_text("ruby d3", marked, "en") == "place ruby d3"
    state = _state_after([])
    with pytest.raises(InputProblem):
        action_from_text(state, 0, "ruby d3", view, state.legal_actions(0), "en")


@pytest.mark.parametrize(("text", "reason"), [
    ("ruby h1", "h1 is not on the board"),
    ("ruby", "Which cell? Legal now: d3, c4, e4, d5."),
    ("7 d3", "No card has the value 7"),
    ("e d3", "could be Dragon Egg or Emerald Dragon"),
    ("dragon", "Which card?"),
    ("fish d3", "I do not understand 'fish'"),
])
def test_bad_placements_are_explained(text: str, reason: str) -> None:
    view = _view_after(["place ruby d4"])
    with pytest.raises(InputProblem) as problem:
        placement_from_text(text, view, "en")
    assert reason in str(problem.value)


@pytest.mark.parametrize(("text", "lang", "reason"), [
    ("ruby d4", "en", "d4 is not a legal cell: a Ruby Dragon is already there"),
    ("ruby d6", "en", "d6 is not a legal cell: it does not share a side"),
    ("ruby c5", "en", "c5 is not a legal cell: it does not share a side"),  # a corner only
    ("ruby d6", "de", "d6 ist kein erlaubtes Feld: es grenzt mit keiner Seite"),
])
def test_illegal_cells_are_explained_by_the_engine(text: str, lang: str, reason: str) -> None:
    """M3: the terminal words the engine's refusal (its code), in the reader's language."""
    state = _state_after(["place ruby d4", "place egg e4"])
    with pytest.raises(InputProblem) as problem:
        action_from_text(state, 0, text, state.view(0), state.legal_actions(0), lang)
    assert reason in str(problem.value) and "M3" in str(problem.value)


def test_a_cell_outside_the_box_is_explained() -> None:
    # a4..d4 is a line of four: e4 touches it, but a fifth column is outside the box (M3)
    state = _state_after(["place ruby d4", "place egg c4", "place ruby b4", "place egg a4"])
    with pytest.raises(InputProblem, match="e4 is not a legal cell: the cards would no longer "
                                           "fit in a 4 × 4 box"):
        action_from_text(state, 0, "egg e4", state.view(0), state.legal_actions(0), "en")


def test_missing_card_is_named_with_the_hand() -> None:
    state = _state_after(["place emerald d4", "place egg e4"])  # seat 0's only Emerald is down
    with pytest.raises(InputProblem, match=r"^You has no Emerald Dragon in hand \(rule M3\) "
                                           r"Your hand: 4× Ruby"):
        action_from_text(state, 0, "1 d3", state.view(0), state.legal_actions(0), "en",
                         ["You", "random"])


def _view_after(placements: list[str]) -> JSON:
    return _state_after(placements).view(0)


def _state_after(placements: list[str]) -> MasterState:
    """A fixed deal, after ``placements`` (seats 0 and 1 in turn, seat 0 first)."""
    state = MasterGame().new_initial_state()
    game = state.game
    for card in ["ruby"] * 4 + ["sapphire"] * 2 + ["emerald", "egg"] + \
            ["ruby", "egg", "egg", "egg", "sapphire", "sapphire", "emerald", "emerald"]:
        state.apply(CHANCE, game.parse_action(f"deal {card}"))
    state.apply(CHANCE, game.parse_action("start p0"))
    for i, text in enumerate(placements):
        state.apply(i % 2, game.parse_action(text))
    return state


# ---------------------------------------------------------------- the grid from both sides
def test_grid_is_drawn_from_each_players_side() -> None:
    grid = {"d4": "ruby", "e4": "egg", "d5": "emerald"}
    scores = {"columns": [4, 0, 0, 0], "rows": [3, 1, 0, 0]}
    names = ["Ann", "Bo"]
    seat0 = grid_text(grid, ["c4"], scores, 0, names=names).plain.splitlines()
    seat1 = grid_text(grid, ["c4"], scores, 1, names=names).plain.splitlines()
    # seat 0: columns a-g across (the box can still reach a..g), row 7 on top, row 1 below;
    # the other player's lines (rows) named at the top, one's own (columns) at the bottom
    assert seat0[0].split() == ["b", "c", "d", "e", "f", "g", "Bo"]
    assert [line.split()[0] for line in seat0[1:-1]] == ["7", "6", "5", "4", "3", "2"]
    row4 = next(line for line in seat0 if line.split()[0] == "4")
    assert row4.split() == ["4", "·", "c4", "[3]", "[0]", "·", "·", "3"]  # Bo's row 4 scores 3
    assert seat0[-1].split() == ["Ann", "4", "0"]  # Ann: column d Ruby + Emerald, e an Egg
    # seat 1: turned a quarter turn; the rows 1-7 run across, column a is farthest (on top)
    assert seat1[0].split() == ["2", "3", "4", "5", "6", "7", "Ann"]
    assert [line.split()[0] for line in seat1[1:-1]] == ["b", "c", "d", "e", "f", "g"]
    row_d = next(line for line in seat1 if line.split()[0] == "d")
    assert row_d.split() == ["d", "·", "·", "[3]", "[1]", "·", "·", "4"]  # Ann's column d
    row_e = next(line for line in seat1 if line.split()[0] == "e")
    assert row_e.split()[:4] == ["e", "·", "·", "[0]"]
    assert seat1[-1].split() == ["Bo", "3", "1"]  # Bo's rows 4 and 5


def test_grid_labels_a_long_name_cut_and_without_names_the_seat_from_one() -> None:
    grid = {"d4": "ruby"}
    scores = {"columns": [3, 0, 0, 0], "rows": [3, 0, 0, 0]}
    lines = grid_text(grid, [], scores, 0, names=["Maximiliane Mustermann", "Bo"]).plain
    rows = lines.splitlines()
    assert rows[-1].split() == ["Maximiliane…", "3"]  # cut to 12 characters, the … included
    # the grid moves right to make room: the row labels line up with the name
    row4 = next(line for line in rows if line.split()[0] == "4")
    assert row4.index("4") == rows[-1].index("…")
    plain = grid_text(grid, [], scores, 1).plain.splitlines()
    assert plain[0].split()[-2:] == ["Player", "1"] and plain[-1].split()[:2] == ["Player", "2"]
    assert "p0" not in "".join(plain) and "p1" not in "".join(plain)


def test_a_full_box_shows_only_the_box() -> None:
    cells = [f"{c}{r}" for c in "cdef" for r in (2, 3, 4, 5)]
    grid = dict.fromkeys(cells, "sapphire")
    text = grid_text(grid, [], {"columns": [100] * 4, "rows": [100] * 4}, 0).plain
    assert text.splitlines()[0].split() == ["c", "d", "e", "f", "Player", "2"]
    assert len(text.splitlines()) == 6


# ---------------------------------------------------------------- language
def test_german_interface_shows_german_card_names() -> None:
    text, _ = script(3, ["human", "random"], lang="de")
    code, out = run("--seed", "3", *HUMAN_VS_RANDOM, "--lang", "de", input=text)
    assert code == 0, out[-3000:]
    assert "Deine Hand — Spieler ─" in out and "Dein Zug>" in out
    assert "Startwert 3" in out
    assert re.search(r"Rubin-Drache|Saphir-Drache|Smaragd-Drache|Drachenei", out)
    assert "Runde 1 ist vorbei" in out and "niedrigste zuerst" in out
    assert "Spielende" in out
    for english in ("Ruby Dragon", "Sapphire Dragon", "Emerald Dragon", "Dragon Egg",
                    "Your hand", "Game over"):
        assert english not in out


def test_german_bad_input() -> None:
    code, out = run("--seed", "3", *HUMAN_VS_RANDOM, "--lang", "de", input="banane\nrubin z9\n")
    assert code == 1
    assert "'banane' verstehe ich nicht" in out
    assert "z9 liegt nicht auf dem Brett" in out
    assert "Partie abgebrochen" in out


# ---------------------------------------------------------------- records and options
def test_save_writes_a_record_that_replays(tmp_path: Path) -> None:
    text, _ = script(7, ["human", "greedy"])
    save = tmp_path / "game.json"
    code, out = run("--seed", "7", "--seat", "human", "--seat", "greedy",
                    "--four-of-a-kind", "100+face", "--save", str(save), input=text)
    assert code == 0, out[-3000:]
    assert f"Game record saved to {save}" in out.replace("\n", "")
    record = json.loads(save.read_text())
    assert record["game"] == "master"
    assert record["options"]["four_of_a_kind"] == "100+face"
    assert record["seats"] == [{"name": "Player", "player": "human"},
                               {"name": "greedy", "player": "bot:greedy"}]
    assert record["result"] is not None and record["meta"]["seed"] == 7
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "all legal" in replayed.output


def test_resolve_seats() -> None:
    assert resolve_seats(None, [], "en") == ["human", default_bot()]
    assert resolve_seats(2, ["Human", "random"], "en") == ["human", "random"]
    for players, seats in ((3, []), (None, ["human"]), (None, ["human"] * 3)):
        with pytest.raises(OptionError):
            resolve_seats(players, seats, "en")


@pytest.mark.parametrize(("game", "args", "message"), [
    ("master", ["--players", "3"], "Dragon Master is for 2 players, not 3"),
    ("master", ["--seat", "human"], "needs exactly 2 --seat options"),
    ("master", ["--seat", "human", "--seat", "wizardbot"], "unknown bot 'wizardbot'"),
    ("master", ["--custom", "x.toml"], "--custom is an option of fist only, not of master"),
    # the owners as the registry has them (farkle, fist, and any installed game with a limit)
    ("master", ["--max-turns", "3"],
     f"--max-turns is an option of {option_owners('--max-turns')} only, not of master"),
    ("master", ["--four-of-a-kind", "200"], "--four-of-a-kind must be 100 or 100+face"),
    ("master", ["--lang", "fr"], "--lang must be one of en, de"),
    ("fist", ["--match"], "--match is an option of master only, not of fist"),
    ("fist", ["--four-of-a-kind", "100"], "--four-of-a-kind is an option of master only"),
])
def test_bad_options_exit_non_zero_with_one_line(game: str, args: list[str],
                                                 message: str) -> None:
    result = runner.invoke(app, ["play", game, *args], input="")
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_players_two_is_accepted_for_master() -> None:
    code, out = run("--players", "2", "--seed", "1", "--seat", "random", "--seat", "random")
    assert code == 0 and "Game over" in out


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Dragon Master", "Dragon Egg", "Emerald Dragon", "Sapphire Dragon", "Ruby Dragon",
            "4 × 4", "lowest", "drawn", "two wooden dragons", "What a line of 4 scores",
            "a pair", "100 / 103"]),
    ("de", ["Dragon Master", "Drachenei", "Smaragd-Drache", "Saphir-Drache", "Rubin-Drache",
            "4 × 4", "niedrigsten", "unentschieden", "zwei Holzdrachen",
            "Was eine Reihe aus 4 Karten zählt", "ein Paar", "100 / 103"]),
])
def test_rules_master(lang: str, words: list[str]) -> None:
    result = runner.invoke(app, ["rules", "master", "--lang", lang])
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output, word
    pairs = re.search(r"(a pair|ein Paar)\s*│\s*0\s*│\s*10\s*│\s*20\s*│\s*30", result.output)
    assert pairs, "the pair row scores 0, 10, 20, 30"


def test_rules_fist_still_works() -> None:
    result = runner.invoke(app, ["rules", "fist"])
    assert result.exit_code == 0 and "Witch" in result.output
