"""Fuzzing the public surface of all three games with Hypothesis.

Whatever a caller passes (action text, seats, actions at any position, record files), the
only exceptions are the library's own (:class:`DragonlairError` subclasses), and a refused
``apply`` changes nothing. Each test runs 60 examples by default (derandomized: the same
examples every run); its ``slow``-marked twin runs many more (CI 150, ``scripts/test.sh
--long`` 2000; a plain ``pytest`` skips them).
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dragonlair.core.errors import (
    DragonlairError,
    MalformedActionError,
    OptionError,
    RecordError,
    SeatError,
)
from dragonlair.core.game import CHANCE, Action, Game, State
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.games import make_game
from tests.sizes import size

#: (game id, options): the tables fuzzed, smallest and largest of each game
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("fist", {"players": 3}),
    ("fist", {"players": 6, "max_turns": 6}),
    ("master", {}),
    ("master", {"match": True, "four_of_a_kind": "100+face"}),
    ("farkle", {"players": 2}),
    ("farkle", {"players": 5, "dragon": 5, "max_turns": 40}),
]

#: (test id, examples): the default run and its slow twin (CI 150 examples, the release run
#: ``scripts/test.sh --long`` 2000: tests/sizes.py)
RUNS = [pytest.param(60, id="fast"),
        pytest.param(size(ci=150, long=2000), id="slow", marks=pytest.mark.slow)]


def fuzz(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.cache
def game_of(k: int) -> Game:
    """Table ``k``'s game (the tests of the notation need no positions)."""
    game_id, options = TABLES[k]
    return make_game(game_id, options)


@functools.cache
def table(k: int) -> tuple[Game, list[State], Record]:
    """Table ``k``: its game, positions from two seeded random playouts (chance nodes,
    sealed moves and the end included) and the record of the first playout."""
    game = game_of(k)
    positions: list[State] = []
    record = None
    for seed in (1, 2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                positions.append(state.clone())
            step += 1
            if state.is_chance():
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for seat in state.current_seats():
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
        positions.append(state.clone())
        if record is None:
            seats = [{"name": f"seat {s}", "player": "bot:random"} for s in range(game.num_players)]
            record = finish_record(new_record(game, seats, {"seed": seed}), state)
    assert record is not None
    return game, positions, record


def frozen(state: State) -> str:
    return json.dumps(state.full_state(), sort_keys=True)


# ------------------------------------------------------------------ strategies
#: numbers as people and programs mistype them: ASCII, Unicode digits, huge, signed
NUMBERS = st.one_of(
    st.integers(0, 99).map(str),
    st.integers(-(10**9), 10**9).map(str),
    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=4),
    st.integers(4290, 5000).map(lambda n: "9" * n),
)
#: words of the three notations (and near misses)
WORDS = st.sampled_from([
    "bid", "f", "c", "black", "amulet", "silver", "pay", "rrby", "take", "colour", "red",
    "steal", "target", "pick", "buy", "common", "fairy", "done", "accept", "decline", "draw",
    "stop", "double", "single", "card", "stone", "thief", "witch", "place", "ruby", "egg",
    "d4", "deal", "start", "recruit", "skirmish", "battle", "scare", "use", "keep", "roll",
    "bank", "farkle", "discard", "keep-item", "dice", "die", "item", "companion", "blank",
    "dragon", "alliance", "ignore", "pass", "reroll", "p", "p0", "p1", "chance", ":", "",
])
NUMBERED = st.builds(lambda w, n: w + n, st.sampled_from(["f", "c", "p", "d", "a", "s"]),
                     NUMBERS)
TOKENS = st.one_of(WORDS, NUMBERS, NUMBERED, st.text(max_size=8))
ACTION_TEXT = st.one_of(
    st.text(),
    st.lists(TOKENS, min_size=1, max_size=5).map(" ".join),
    # near misses of the numbered forms: 'skirmish p99999...', 'keep 5444', 'silver ²'
    st.builds(lambda w, a, b: f"{w} {a} {b}".strip(), WORDS, NUMBERED | NUMBERS | WORDS,
              NUMBERED | WORDS),
    # bids in any order, the only form whose numbers are read one by one: 'bid f² c0'
    st.lists(st.builds(lambda w, n: w + n, st.sampled_from(["f", "c"]), NUMBERS)
             | st.sampled_from(["black", "amulet", "f", "c1"]), min_size=1, max_size=4).map(
        lambda words: " ".join(["bid", *words])),
)
#: anything passed as a seat: mostly ints near the table, some far off, some no int at all
SEATS = st.one_of(
    st.integers(-3, 7),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.sampled_from(["0", "p0", b"\x00", (0,), [1]]),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)


def only_ours(call: Callable[[], Any]) -> Any:
    """``call()``, or ``None`` if it raised a :class:`DragonlairError` (anything else fails
    the test)."""
    try:
        return call()
    except DragonlairError:
        return None


# ------------------------------------------------------------------ parse_action
@pytest.mark.parametrize("examples", RUNS)
def test_parse_action_reads_an_action_or_says_why_not(examples: int) -> None:
    @fuzz(examples)
    @given(k=st.integers(0, len(TABLES) - 1), text=ACTION_TEXT)
    def run(k: int, text: str) -> None:
        game = game_of(k)
        try:
            action = game.parse_action(text)
        except MalformedActionError:
            return
        assert game.parse_action(str(action)) is action  # the canonical text reads back

    run()


@pytest.mark.parametrize("examples", RUNS)
def test_action_from_index_gives_an_action_or_an_option_error(examples: int) -> None:
    @fuzz(examples)
    @given(k=st.integers(0, len(TABLES) - 1), index=st.integers(-(10**30), 10**30)
           | st.integers(-5, 5000))
    def run(k: int, index: int) -> None:
        game = game_of(k)
        try:
            action = game.action_from_index(index)
        except OptionError:
            assert not 0 <= index < game.num_distinct_actions
            return
        assert action.index == index

    run()


# ------------------------------------------------------------------ view, legal_actions
@pytest.mark.parametrize("examples", RUNS)
def test_view_and_legal_actions_take_any_seat(examples: int) -> None:
    @fuzz(examples)
    @given(k=st.integers(0, len(TABLES) - 1), where=st.integers(0, 10**6), seat=SEATS)
    def run(k: int, where: int, seat: Any) -> None:
        game, positions, _ = table(k)
        state = positions[where % len(positions)]
        at_table = type(seat) is int and 0 <= seat < game.num_players
        chance = type(seat) is int and seat == CHANCE
        try:
            view = state.view(seat)
        except SeatError:
            assert not at_table
        else:
            assert (at_table or seat is None) and view["seat"] == seat
            json.dumps(view)
        try:
            legal = state.legal_actions(seat)
        except SeatError:
            assert not at_table and not chance
        else:
            assert at_table or chance
            if seat not in state.current_seats() or chance:
                assert tuple(legal) == ()

    run()


# ------------------------------------------------------------------ apply
def any_action(game: Game, state: State, data: st.DataObject) -> Action | None:
    """An action to try: a legal one of a seat to move, a chance outcome, any index, or
    whatever some text parses to (``None`` if it parses to nothing)."""
    how = data.draw(st.sampled_from(["legal", "index", "text"]))
    seats = state.current_seats()
    if how == "legal" and seats:
        if seats[0] == CHANCE:
            return data.draw(st.sampled_from([a for a, _ in state.chance_outcomes()]))
        legal = state.legal_actions(data.draw(st.sampled_from(seats)))
        return data.draw(st.sampled_from(list(legal)))
    if how == "text":
        return only_ours(lambda: game.parse_action(data.draw(ACTION_TEXT)))
    return game.action_from_index(data.draw(st.integers(0, game.num_distinct_actions - 1)))


@pytest.mark.parametrize("examples", RUNS)
def test_apply_takes_legal_actions_and_refuses_the_rest_changing_nothing(
        examples: int) -> None:
    @fuzz(examples)
    @given(k=st.integers(0, len(TABLES) - 1), where=st.integers(0, 10**6), data=st.data())
    def run(k: int, where: int, data: st.DataObject) -> None:
        game, positions, _ = table(k)
        state = positions[where % len(positions)].clone()
        action = any_action(game, state, data)
        if action is None:
            return
        seats = state.current_seats()
        seat = data.draw(st.sampled_from(seats) if seats and data.draw(st.booleans())
                         else SEATS)
        if seat in seats and type(seat) is int:
            allowed = ([a for a, _ in state.chance_outcomes()] if seat == CHANCE
                       else list(state.legal_actions(seat)))
        else:
            allowed = []
        before, n = frozen(state), len(state.history)
        try:
            state.apply(seat, action)
        except DragonlairError as exc:
            event(f"apply refused: {type(exc).__name__}")
            assert frozen(state) == before, "a refused action changed the state"
            assert action not in allowed, f"{action} is legal for {seat} but was refused"
        else:
            event("apply accepted")
            assert action in allowed, f"{action} was applied for {seat!r} but is not legal"
            assert len(state.history) == n + 1 and state.history[-1] == (seat, action)

    run()


# ------------------------------------------------------------------ records
def load_and_replay(data: str | bytes) -> None:
    """Load and replay ``data``: the only errors are RecordErrors; a replayed game's views
    and record are sound."""
    try:
        record = Record.loads(data)
        game, state = replay(record)
    except RecordError as exc:
        event("record refused" + (" at an action" if exc.index is not None else ""))
        return
    event("record replayed")
    for seat in (None, *range(game.num_players)):
        json.dumps(state.view(seat))
    json.dumps(finish_record(record, state).to_json())


@pytest.mark.parametrize("examples", RUNS)
def test_any_bytes_load_as_a_record_or_give_a_record_error(examples: int) -> None:
    @fuzz(examples)
    @given(data=st.binary() | st.text().map(str.encode)
           | JSON_VALUES.map(lambda v: json.dumps(v).encode()))
    def run(data: bytes) -> None:
        load_and_replay(data)

    run()


RECORD_KEYS = ["format", "format_version", "game", "game_version", "options", "seats",
               "actions", "result", "meta"]
OPTION_NAMES = ["players", "max_turns", "custom", "four_of_a_kind", "match", "dragon", "table",
                "decks", "colour"]


@pytest.mark.parametrize("examples", RUNS)
def test_record_shaped_json_replays_or_gives_a_record_error(examples: int) -> None:
    @fuzz(examples)
    @given(k=st.integers(0, len(TABLES) - 1), data=st.data())
    def run(k: int, data: st.DataObject) -> None:
        record = table(k)[2].to_json()
        record["options"] = data.draw(st.dictionaries(
            st.sampled_from(OPTION_NAMES), JSON_VALUES | st.integers(-3, 8), max_size=3).map(
                lambda extra: {**record["options"], **extra}))
        record["actions"] = record["actions"][:data.draw(st.integers(0, 40))]
        record["result"] = None  # the game is cut short
        for key in data.draw(st.lists(st.sampled_from(RECORD_KEYS), max_size=2)):
            record[key] = data.draw(JSON_VALUES)
        load_and_replay(json.dumps(record))
        with contextlib.suppress(RecordError):
            Record.from_json(data.draw(JSON_VALUES))

    run()


def mutate_actions(actions: list[Any], data: st.DataObject) -> list[Any]:
    actions = list(actions)
    for _ in range(data.draw(st.integers(1, 3))):
        how = data.draw(st.sampled_from(["replace", "delete", "swap", "insert", "cut"]))
        i = data.draw(st.integers(0, max(len(actions) - 1, 0)))
        j = data.draw(st.integers(0, max(len(actions) - 1, 0)))
        if how == "cut":
            actions = actions[:i]
        elif not actions or how == "insert":
            entry = data.draw(st.sampled_from(actions) if actions and data.draw(st.booleans())
                              else st.text() | JSON_VALUES)
            actions.insert(i, entry)
        elif how == "replace":
            who = data.draw(st.sampled_from(["chance", "p0", "p1", "p5", "p-1", "p²", "P0 ", ""])
                            | NUMBERS.map(lambda n: "p" + n))
            actions[i] = f"{who}: {data.draw(ACTION_TEXT)}"
        elif how == "delete":
            del actions[i]
        else:
            actions[i], actions[j] = actions[j], actions[i]
    return actions


@pytest.mark.parametrize("examples", RUNS)
def test_mutated_records_replay_or_give_a_record_error(examples: int) -> None:
    @fuzz(examples)
    @given(k=st.integers(0, len(TABLES) - 1), data=st.data())
    def run(k: int, data: st.DataObject) -> None:
        record = table(k)[2].to_json()
        if data.draw(st.booleans()):
            record["actions"] = mutate_actions(record["actions"], data)
            text = json.dumps(record, ensure_ascii=data.draw(st.booleans()))
            load_and_replay(text)
            load_and_replay(text.encode("utf-8", "surrogatepass"))
            return
        raw = bytearray(json.dumps(record, indent=1, ensure_ascii=False).encode())
        for _ in range(data.draw(st.integers(1, 4))):
            i = data.draw(st.integers(0, len(raw)))
            how = data.draw(st.sampled_from(["flip", "insert", "delete", "cut"]))
            if how == "cut":
                del raw[i:]
            elif how == "insert":
                raw[i:i] = data.draw(st.binary(min_size=1, max_size=6)
                                     | st.sampled_from([b"[" * 3000, b"9" * 5000, b"\\ud800"]))
            elif i < len(raw) and how == "flip":
                raw[i] = data.draw(st.integers(0, 255))
            elif i < len(raw):
                del raw[i]
        load_and_replay(bytes(raw))

    run()
