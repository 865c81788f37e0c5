"""Hostile input gets the library's own errors, never a traceback or another seat's secrets.

Seats out of range (or no seat number at all), numbers the notation cannot hold (Unicode
digits, thousands of digits), a coin named twice in a bid, and record or option files that
are not UTF-8, nest too deeply, hold huge numbers or have values of the wrong kind.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.cli.main import app
from dragonlair.core.errors import (
    DragonlairError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
    SeatError,
)
from dragonlair.core.game import CHANCE, Game, State, ascii_number, check_seat_range
from dragonlair.core.records import Record, finish_record, new_record, parse_entry, replay
from dragonlair.games import GAME_FACTORIES, make_game
from dragonlair.games.farkle.cards import load_deck_file

GAMES = sorted(GAME_FACTORIES)
HUGE = "9" * 5000  # past int()'s 4,300 digits
runner = CliRunner()


def position(game_id: str, *, decision: bool, seed: int = 3) -> tuple[Game, State]:
    """A position of a seeded random playout: the first decision, or the first chance node
    after some decisions (Dragon Master deals only before its decisions: the first one)."""
    game = make_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0 if game_id == "master" else -3
    while not state.is_terminal():
        if state.is_chance():
            if not decision and decisions >= 0:
                return game, state
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        if decision:
            return game, state
        for seat in state.current_seats():
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            decisions += 1
    raise AssertionError("the playout ended before the position wanted")


def frozen(state: State) -> str:
    return json.dumps(state.full_state(), sort_keys=True)


# ------------------------------------------------------------------ 1. seats
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seat", [-1, -2, -(10**30), 99, pytest.param(10**4000, id="10**4000"),
                                  True, False, 1.0, "0", [0]])
def test_a_seat_not_at_the_table_has_no_view(game_id: str, seat: Any) -> None:
    """view(-1) used to hand out the last seat's private view (negative indexing) and
    view(99) raised IndexError."""
    _, state = position(game_id, decision=True)
    with pytest.raises(SeatError):
        state.view(seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_view_none_is_the_spectator_and_every_seat_has_its_own(game_id: str) -> None:
    game, state = position(game_id, decision=True)
    assert state.view(None)["seat"] is None
    for seat in range(game.num_players):
        assert state.view(seat)["seat"] == seat


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("decision", [True, False])
def test_legal_actions_of_a_seat_not_at_the_table_raise(game_id: str, decision: bool) -> None:
    """Out-of-range seats used to get () (or IndexError); bools passed for seat 0 or 1."""
    game, state = position(game_id, decision=decision)
    for seat in (-2, -7, game.num_players, 99, 10**40, 1.0, None, "p0"):
        with pytest.raises(SeatError, match="seat"):
            state.legal_actions(seat)  # type: ignore[arg-type]
    for seat in state.current_seats():
        if seat != CHANCE:
            with pytest.raises(SeatError):
                state.legal_actions(bool(seat))
    # seats at the table that may not act, and chance, still get ()
    assert state.legal_actions(CHANCE) == ()
    for seat in range(game.num_players):
        if seat not in state.current_seats():
            assert state.legal_actions(seat) == ()


@pytest.mark.parametrize("game_id", GAMES)
def test_apply_for_a_seat_not_at_the_table_raises_and_changes_nothing(game_id: str) -> None:
    game, state = position(game_id, decision=True)
    mover = state.current_seats()[0]
    legal = state.legal_actions(mover)[0]
    before = frozen(state)
    for seat in (-2, game.num_players, 99, 10**40, 1.0, None):
        with pytest.raises(SeatError):
            state.apply(seat, legal)  # type: ignore[arg-type]
    if mover in (0, 1):  # True == 1 and False == 0: a bool is still no seat
        with pytest.raises(SeatError, match="bool"):
            state.apply(bool(mover), legal)
    assert frozen(state) == before
    state.apply(mover, legal)  # the real seat may
    assert state.history[-1] == (mover, legal) and type(state.history[-1][0]) is int


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_still_applies_at_chance_nodes(game_id: str) -> None:
    _, state = position(game_id, decision=False)
    n = len(state.history)
    state.apply(CHANCE, state.sample_chance(random.Random(0)))
    assert len(state.history) == n + 1


def test_a_seat_error_is_an_illegal_action_and_says_which_seat() -> None:
    assert issubclass(SeatError, IllegalActionError)
    with pytest.raises(SeatError, match="there is no seat p99 at a 4-player table"):
        check_seat_range(99, 4)
    with pytest.raises(SeatError, match="chance"):
        check_seat_range(CHANCE, 4)
    check_seat_range(CHANCE, 4, chance=True)
    with pytest.raises(SeatError, match="bool"):
        check_seat_range(True, 4, chance=True)
    with pytest.raises(SeatError, match="no seat"):
        check_seat_range(-(10**5000), 4)  # formats without str() of a 5,000-digit number


# ------------------------------------------------------------------ 2. action text
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("text", [
    "bid f² c0", "bid f0 c²", "bid f٣ c0", f"bid f{HUGE} c0", f"bid f0 c{HUGE}", "bid f1 f2",
    "bid c1 c1", "bid f1 black black", "bid f0 c0 amulet amulet", "bid f61 c0", "silver ²",
    f"silver {HUGE}", "keep ²²", f"keep {HUGE}", f"dice {HUGE} blank", "skirmish p²",
    f"steal p{HUGE} red", "place ruby d²", f"place ruby d{HUGE}", "x" * 100_000,
])
def test_action_text_that_no_game_reads_is_malformed(game_id: str, text: str) -> None:
    """'bid f² c0' and 5,000-digit numbers used to raise a bare ValueError from int();
    'bid f1 f2' was read as a bid of 2 fairy gold."""
    game = make_game(game_id)
    with pytest.raises(MalformedActionError) as caught:
        game.parse_action(text)
    assert len(str(caught.value)) < 600  # the message quotes the text, cut short


def test_fist_bids_name_each_coin_once() -> None:
    game = make_game("fist")
    with pytest.raises(MalformedActionError, match=r"Fairy Gold twice") as err:
        game.parse_action("bid f1 f2")
    assert err.value.code == "fist.action.bid_word_twice"
    with pytest.raises(MalformedActionError, match="digits 0-9"):
        game.parse_action("bid f² c0")
    with pytest.raises(MalformedActionError, match="at most 60 Fairy Gold") as err:
        game.parse_action(f"bid f{HUGE} c0")
    assert err.value.code == "fist.action.bid_too_large"
    # the forgiving forms still read as before
    assert str(game.parse_action("bid c1 f3 amulet black")) == "bid f3 c1 black amulet"
    assert str(game.parse_action("BID  f03 c1")) == "bid f3 c1"
    assert str(game.parse_action("bid black")) == "bid f0 c0 black"


def test_farkle_still_forgives_unsorted_dice() -> None:
    game = make_game("farkle")
    assert str(game.parse_action("keep 5444")) == "keep 4445"
    assert str(game.parse_action("dice 654321 blank")) == "dice 123456 blank"


def test_numbers_in_the_notation_are_ascii_and_short() -> None:
    assert ascii_number("042") == 42
    for text in ("", "²", "٣", "1²", "-1", "+1", " 1", "1" * 7, HUGE):
        assert ascii_number(text) is None
    for entry in ("p²: roll", f"p{HUGE}: roll", "p-1: roll"):
        with pytest.raises(ValueError, match="seat"):
            parse_entry(entry, 2)


# ------------------------------------------------------------------ 3. records and options
def a_record(game_id: str = "master", seed: int = 1) -> dict[str, Any]:
    game = make_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(20):
        if state.is_chance():
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            for seat in state.current_seats():
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
    return finish_record(new_record(game, [{"name": "a"}, {"name": "b"}]), state).to_json()


@pytest.mark.parametrize(("content", "why"), [
    (b"\xff\xfe\x00{", "not UTF-8"),
    (json.dumps(a_record()).encode("utf-16"), "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "too deeply"),
    (b'{"format": "dragonlair-record", "n": ' + HUGE.encode() + b"}", "too many digits"),
    (b"{", "not valid JSON"),
    (b"", "not valid JSON"),
])
def test_unreadable_record_files_are_record_errors(tmp_path: Path, content: bytes,
                                                   why: str) -> None:
    """Each of these used to end `dragonlair replay` in a traceback (UnicodeDecodeError,
    RecursionError, ValueError)."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=why):
        Record.load(path)
    with pytest.raises(RecordError, match=why):
        Record.loads(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert why in result.output.replace("\n", " ")
    out = runner.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 1
    assert json.loads(out.stdout)["ok"] is False


def test_a_record_that_is_a_directory_or_missing_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")


def test_a_record_loads_from_text_or_bytes() -> None:
    data = a_record()
    text = json.dumps(data, ensure_ascii=False)
    assert Record.loads(text).to_json() == Record.loads(text.encode()).to_json() == data
    _, state = replay(Record.loads(text))
    assert len(state.history) == len(data["actions"])
    # unpaired surrogates load (printing them is the terminal's business)
    rec = Record.loads(text.replace('"name": "a"', '"name": "\\ud800"'))
    assert rec.seats[0]["name"] == "\ud800"


@pytest.mark.parametrize("version", [True, "1", 1.0, None])
def test_record_versions_are_whole_numbers(version: Any) -> None:
    for key in ("format_version", "game_version"):
        data = {**a_record(), key: version}
        with pytest.raises(RecordError):
            replay(Record.from_json(data))


@pytest.mark.parametrize(("game_id", "options", "why"), [
    ("farkle", {"decks": {"companions": 5}}, "'companions' must be a list"),
    ("farkle", {"decks": {"items": None}}, "'items' must be a list"),
    ("farkle", {"decks": {"items": {"id": "x"}}}, "'items' must be a list"),
    ("farkle", {"decks": {"companions": [[[1]]]}}, "needs an 'id'"),
    ("farkle", {"table": {"four": float("inf")}}, "whole number"),
    ("fist", {"custom": [{"id": "x", "name": {"en": "X"}, "text": {"en": "t"},
                          "power": [{"take_all_from": [["common"]]}]}]}, "custom"),
])
def test_options_of_the_wrong_kind_are_option_errors(game_id: str, options: dict[str, Any],
                                                     why: str) -> None:
    """A Farkle deck list that was no list raised TypeError; an infinite scoring entry
    OverflowError; a list inside a Fist custom power TypeError."""
    with pytest.raises(OptionError, match=why):
        make_game(game_id, options)
    data = {**a_record(), "game": game_id, "options": options, "actions": [], "result": None}
    with pytest.raises(RecordError, match="record options"):
        replay(Record.loads(json.dumps(data)))


@pytest.mark.parametrize(("content", "why"), [
    (b"\xff\xfe[[companions]]", "not UTF-8"),
    (b'{"items": ' + HUGE.encode() + b"}", "too many digits"),
    (b'{"items": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "too deeply"),
    (b'{"items": 3}', "must be a list"),
])
def test_unreadable_deck_files_are_option_errors(tmp_path: Path, content: bytes,
                                                 why: str) -> None:
    path = tmp_path / "decks.json"
    path.write_bytes(content)
    with pytest.raises(OptionError, match=why):
        load_deck_file(str(path))


def test_every_error_here_is_the_librarys_own() -> None:
    for cls in (SeatError, MalformedActionError, RecordError, OptionError):
        assert issubclass(cls, DragonlairError)
