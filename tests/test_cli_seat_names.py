"""Issue 22 at the terminal: a person is shown by their name wherever they appear (seats,
log, prompts, end screen, replay), never by the engines' seat words (``p0``); where a
number is needed (the seat column of a table, a seat typed in a move) seats are counted
from 1. Seats that share a name (two bots of one kind) are numbered so that a name alone
says who is meant. What a player types is matched at the terminal's edge against
the actions the view offers, each with the seat it names: ``skirmish 3`` (or ``skirmish
random``) is the view's ``skirmish p2``; the terminal writes no seat word of an engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dragonlair.cli.main import app
from dragonlair.cli.session import (
    InputProblem,
    SeatMove,
    seat_action,
    seat_move,
    shown_action,
    typed_seat,
    unique_names,
)
from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, replay
from dragonlair.games.farkle.actions import Kind
from dragonlair.games.farkle.state import FarkleState
from dragonlair.games.farkle.terminal.play import choice_from_text as farkle_choice
from tests.test_cli_play import alternating
from tests.test_cli_play_farkle import script as farkle_script
from tests.test_cli_play_master import script as master_script

runner = CliRunner()
#: an engine's seat word, or a seat label made from one (``p0``, ``p3``)
ENGINE_SEAT = re.compile(r"\bp\d+\b")


def play(game: str, args: Sequence[str], text: str = "", *,
         save: Path | None = None) -> tuple[int, str]:
    extra = ["--save", str(save)] if save is not None else []
    result = runner.invoke(app, ["play", game, *args, *extra], input=text)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def no_engine_seats(out: str) -> None:
    found = [out[max(0, m.start() - 80):m.end() + 40] for m in ENGINE_SEAT.finditer(out)]
    assert not found, found[:5]


def seats(*kinds: str) -> list[str]:
    return [arg for kind in kinds for arg in ("--seat", kind)]


# ---------------------------------------------------------------- whole games, every game
#: (game, id, arguments, the humans' input: worked out when the test runs, not when it is
#: collected) of whole games: all bots (a bot kind in two seats), one human with a name, and
#: a hot-seat table; seeds of short games (a whole game takes rich a second or more to draw)
TABLES: list[tuple[str, str, list[str], Callable[[], str]]] = [
    ("master", "bots", ["--seed", "1", *seats("greedy", "greedy")], lambda: ""),
    ("master", "human", ["--seed", "3", "--name", "Anna", *seats("human", "random")],
     lambda: master_script(3, ["human", "random"])[0]),
    ("master", "hot-seat", ["--seed", "5", *seats("human", "human")],
     lambda: master_script(5, ["human", "human"])[0]),
    ("farkle", "bots", ["--seed", "1", *seats("cautious", "cautious", "random")], lambda: ""),
    ("farkle", "human", ["--seed", "7", "--name", "Anna", *seats("human", "cautious", "random")],
     lambda: farkle_script(7, ["human", "cautious", "random"])[0]),
    ("farkle", "hot-seat", ["--seed", "1", *seats("human", "human", "cautious")],
     lambda: farkle_script(1, ["human", "human", "cautious"], stand_in="random")[0]),
    ("fist", "bots", ["--seed", "1", *seats("greedy", "greedy", "random")], lambda: ""),
    ("fist", "human", ["--seed", "7", "--name", "Anna", *seats("human", "greedy", "greedy")],
     alternating),
    ("fist", "hot-seat", ["--seed", "5", "--max-turns", "3", *seats("human", "human", "greedy")],
     alternating),
]


@pytest.mark.parametrize(("game", "table", "args", "text"),
                         # a plain pytest: one human per game; CI: every table
                         [pytest.param(*t, id=f"{t[0]}-{t[1]}",
                                       marks=() if t[1] == "human" else pytest.mark.slow)
                          for t in TABLES])
def test_a_whole_game_names_every_seat_and_never_shows_p0(
        game: str, table: str, args: list[str], text: Callable[[], str],
        tmp_path: Path) -> None:
    """A whole game at the terminal, and its replay: the players by name (a shared bot name
    numbered by its seat from 1), the seat column from 1, no ``p0`` anywhere."""
    save = tmp_path / "game.json"
    code, out = play(game, args, text() + "\n" * 5, save=save)
    assert code == 0, out[-3000:]
    assert "Traceback" not in out and "Game over" in out
    no_engine_seats(out)
    names = {"bots": {"master": "greedy #1, greedy #2",
                      "farkle": "cautious #1, cautious #2, random",
                      "fist": "greedy #1, greedy #2, random"},
             "human": {"master": "Anna, random", "farkle": "Anna, cautious, random",
                       "fist": "Anna, greedy #2, greedy #3"},
             "hot-seat": {"master": "Player 1, Player 2",
                          "farkle": "Player 1, Player 2, cautious",
                          "fist": "Player 1, Player 2, greedy"}}[table][game]
    assert f"Players: {names}\n" in out
    if table == "hot-seat":  # the pause names the player, by their seat from 1
        assert "Press Enter when only Player 1 is looking" in out
        assert "Press Enter when only Player 2 is looking" in out
    if game != "master":  # the seat column of the players' table: 1, 2, 3
        for number, name in enumerate(names.split(", "), 1):
            assert re.search(rf"^\W*{number} +(│ )?{re.escape(name)} +(│|\d)", out,
                             re.M), name  # framed, or compact where the screen is short
    # the record keeps the engine's words (p0: ...): records depend on them
    record = json.loads(save.read_text())
    assert any(re.match(r"p\d+: ", a) for a in record["actions"])
    _, state = replay(Record.from_json(record))
    assert state.is_terminal()
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    no_engine_seats(replayed.output)


def test_a_german_game_names_its_seats_in_german() -> None:
    code, out = play("farkle", ["--seed", "1", "--lang", "de",
                                *seats("cautious", "cautious", "random")])
    assert code == 0, out[-3000:]
    assert "Am Tisch: cautious #1, cautious #2, random" in out
    no_engine_seats(out)


# ---------------------------------------------------------------- a seat typed, from 1
def _first_human_decision(kinds: Sequence[str], seed: int) -> FarkleState:
    """The game as the terminal plays it up to seat 0's first decision (a bot standing in
    for nobody: the human's first prompt comes before any move of theirs)."""
    _, state = farkle_script(seed, kinds)
    game = state.game
    replayed = game.new_initial_state()
    for seat, action in state.history:
        if seat == 0:
            break
        replayed.apply(seat, action)
    assert isinstance(replayed, FarkleState)
    return replayed


def _seed_where_seat_0_may_attack_seat_2(kinds: Sequence[str]) -> int:
    for seed in range(40):
        state = _first_human_decision(kinds, seed)
        legal = [a.text for a in state.legal_actions(0)] if 0 in state.current_seats() else []
        if "skirmish p2" in legal and "skirmish p1" in legal:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize(("kinds", "typed", "engine", "victim"), [
    (["human", "cautious", "random"], "skirmish 3", "skirmish p2", "random"),
    (["human", "cautious", "random"], "skirmish 2", "skirmish p1", "cautious"),
    (["human", "cautious", "random"], "angreifen 3", "skirmish p2", "random"),
    (["human", "cautious", "random"], "skirmish RANDOM", "skirmish p2", "random"),
    (["human", "cautious", "cautious"], "skirmish cautious #3", "skirmish p2", "cautious #3"),
    (["human", "cautious", "cautious"], "skirmish 2", "skirmish p1", "cautious #2"),
])
def test_a_seat_typed_from_one_at_the_skirmish_prompt_reaches_that_seat(
        kinds: list[str], typed: str, engine: str, victim: str, tmp_path: Path) -> None:
    """Farkle's menu shows ``skirmish 3 — attack random``: typed as shown (or with the
    player's name), the engine is given ``skirmish p2`` and seat 2 is attacked."""
    seed = _seed_where_seat_0_may_attack_seat_2(kinds)
    save = tmp_path / "skirmish.json"
    code, out = play("farkle", ["--seed", str(seed), *seats(*kinds)], f"{typed}\nlog\nquit\n",
                     save=save)
    assert code == 0 and "Game abandoned" in out  # log, then quit: no failure
    assert "Try again" not in out  # taken at once
    assert re.search(rf"^ *\d+\. {re.escape(shown_action(engine))} — attack "
                     rf"{re.escape(victim)} \(army", out, re.M)  # the menu line, as typed
    record = json.loads(save.read_text())
    mine = [a for a in record["actions"] if a.startswith("p0: ")]
    assert mine[0] == f"p0: {engine}"  # the engine's seat: counted from 0
    _, state = replay(Record.from_json(record))
    attacks = [a for s, a in state.history if s == 0 and a.kind == Kind.SKIRMISH]
    assert attacks[0].seat == int(engine[-1])
    assert re.search(rf"\bPlayer attacks {re.escape(victim)} in a skirmish\.",
                     " ".join(out.replace("│", " ").split()))
    no_engine_seats(out)


# ---------------------------------------------------------------- the translation itself
def test_seats_typed_from_one_or_by_name_are_matched_against_the_offered_actions() -> None:
    """The terminal writes no seat word of an engine: a move typed with a seat (from 1, or
    by name) is matched against the actions offered, each with the seat it names (a view's
    ``legal.moves`` or ``choices``), and the engine's own text of the one typed is taken."""
    names = ["Anna", "greedy #2", "Bo Lee"]
    verbs = {"skirmish", "steal"}
    offered: list[tuple[str, int | None]] = [
        ("recruit", None), ("skirmish p0", 0), ("skirmish p2", 2), ("steal p1 red", 1),
        ("steal p2 coin", 2)]

    def engine(text: str) -> str | None:
        move = seat_move(text, verbs, names, "en")
        return None if move is None else seat_action(move, offered)

    assert engine("skirmish 1") == "skirmish p0" and engine("skirmish 3") == "skirmish p2"
    assert engine("steal 2 red") == "steal p1 red" and engine("steal greedy #2 red") == \
        "steal p1 red"
    assert engine("STEAL bo lee COIN") == "steal p2 coin"  # a name of two words, any case
    assert engine("skirmish 2") is None and engine("steal 2 blue") is None  # not offered
    assert seat_move("recruit", verbs, names, "en") is None  # no seat
    assert seat_move("keep 155", verbs, names, "en") is None
    assert seat_move("skirmish nobody", verbs, names, "en") is None  # no seat named
    assert seat_move("skirmish greedy #2", verbs, names, "en") == SeatMove("skirmish", 1, ())
    for bad in ("skirmish 0", "skirmish 4", "skirmish p1", "steal p0 red"):
        with pytest.raises(InputProblem, match=r"names no player here: .* 1 to 3 .*"
                                               r"\(Anna, greedy #2, Bo Lee\)"):
            engine(bad)
    # the seat an action names is the view's (its structure), not read off the text
    assert seat_action(SeatMove("skirmish", 1, ()), [("skirmish p1", 2)]) is None
    assert typed_seat(["bo", "lee", "coin"], names, "en") == (2, ["coin"])
    assert typed_seat(["3"], names, "en") == (2, []) and typed_seat(["red"], names, "en") is None
    # shown: the engine's text with its seats from 1; anything else as it is
    assert shown_action("skirmish p1") == "skirmish 2"
    assert shown_action("steal p0 red") == "steal 1 red"
    assert shown_action("pay rrby") == "pay rrby" and shown_action("keep 155") == "keep 155"


def test_a_farkle_seat_is_taken_from_the_views_moves() -> None:
    """At the terminal's Farkle prompt a seat's move is the view's ``legal.moves`` entry
    that names that seat: its ``action`` is what the engine is given."""
    kinds = ["human", "cautious", "random"]
    state = _first_human_decision(kinds, _seed_where_seat_0_may_attack_seat_2(kinds))
    game = state.game
    view = state.view(0)
    moves = view["legal"]["moves"]
    legal = list(state.legal_actions(0))
    names = ["Player", "cautious", "random"]
    for typed, seat in (("skirmish 3", 2), ("angreifen random", 2), ("skirmish 2", 1)):
        chosen = farkle_choice(game, typed, legal, "en", names=names, moves=moves)
        entry = next(m for m in moves if m["kind"] == "skirmish" and m.get("seat") == seat)
        assert chosen.text == entry["action"] and chosen.kind == Kind.SKIRMISH
        assert chosen.seat == seat
    # a move the view offers no more is not taken, whatever the engine would make of it
    fewer = [m for m in moves if m.get("seat") != 2]
    with pytest.raises(InputProblem):
        farkle_choice(game, "skirmish 3", [a for a in legal if a.seat != 2], "en",
                      names=names, moves=fewer)


def test_names_shared_by_seats_are_numbered_by_seat_from_one() -> None:
    assert unique_names(["Anna", "greedy", "greedy"]) == ["Anna", "greedy #2", "greedy #3"]
    assert unique_names(["random", "cautious", "Random"]) == ["random #1", "cautious",
                                                              "Random #3"]
    assert unique_names(["a", "b"]) == ["a", "b"]
    # a player already named like a numbered seat: the numbered one stays distinct
    names = unique_names(["greedy", "greedy #1", "greedy"])
    assert len({n.casefold() for n in names}) == 3 and names[1] == "greedy #1"


def test_the_engine_texts_in_a_record_are_unchanged_by_the_terminal() -> None:
    """The terminal shows ``skirmish 2`` but the engine (and every record) keeps ``skirmish
    p1``: the records of the scripted games above parse back to the same actions."""
    _, state = farkle_script(3, ["human", "cautious", "random"])
    texts = [a.text for s, a in state.history if s != CHANCE]
    assert all(state.game.parse_action(t).text == t for t in texts)
    assert all(not ENGINE_SEAT.search(shown_action(t)) for t in texts)
