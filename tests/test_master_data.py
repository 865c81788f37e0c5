"""Dragon Master speaks data: refusals as codes, events with their visibility (M6), the
envelope's fields and its published schema, malformed snapshots refused, and the catalogues.

Random games are played through the public API with seeded choices. That every view
validates (2,000 games in the slow run), snapshot -> restore -> continue (1,000 games in the
slow run), incremental views and secrecy against another deal hold is checked for every game
alike in tests/test_contract.py.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonlair.core.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
)
from dragonlair.core.game import CHANCE, JSON
from dragonlair.core.i18n import has_message, languages, render
from dragonlair.games.master import state as master_state
from dragonlair.games.master.cards import CARDS, HAND
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import DEAL, MasterAction, MasterState, Phase
from dragonlair.games.master.views import (
    schema_paths,
    schema_text,
    view_schema,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dragonlair" / "games" / "master"
TABLES: list[dict[str, Any]] = [{}, {"match": True}, {"four_of_a_kind": "100+face"},
                                {"match": True, "four_of_a_kind": "100+face"}]


def view_of(state: MasterState, seat: int | None, since: int = 0) -> JSON:
    return state.view(seat, since)


def step(state: MasterState, rng: random.Random) -> tuple[int, MasterAction]:
    """One seeded move: chance by its odds, a seat uniformly among its legal actions."""
    seats = state.current_seats()
    if seats == (CHANCE,):
        return CHANCE, state.sample_chance(rng)
    legal = state.legal_actions(seats[0])
    return seats[0], legal[rng.randrange(len(legal))]


def positions(seed: int, options: dict[str, Any]) -> Iterator[MasterState]:
    """Every position of one seeded random game, the initial and the final one included."""
    rng = random.Random(seed)
    state = MasterGame(options).new_initial_state()
    yield state
    while not state.is_terminal():
        state.apply(*step(state, rng))
        yield state


def play(seed: int, options: dict[str, Any]) -> MasterState:
    *_, last = positions(seed, options)
    return last


# ---------------------------------------------------------------- errors as codes (M2, M3)
def test_every_refusal_has_a_code_params_and_rule() -> None:
    """M3: a refused placement names why as a code with JSON params; M2: so does chance."""
    game = MasterGame()
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError) as info:
        state.apply(CHANCE, game.parse_action("start p0"))
    assert info.value.code == "master.chance.deal_expected" and info.value.rule == "M2"
    for card in ["ruby"] * 5 + ["emerald"] * 3 + ["egg"] * 5 + ["sapphire"] * 3:
        state.apply(CHANCE, game.parse_action(f"deal {card}"))
    state.apply(CHANCE, game.parse_action("start p0"))
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, game.parse_action("place egg d4"))
    assert info.value.code == "master.place.card_not_in_hand"
    assert info.value.params == {"seat": 0, "card": "egg"} and info.value.rule == "M3"
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, game.parse_action("place ruby a1"))
    assert info.value.code == "master.place.first_on_origin"
    assert json.loads(json.dumps(info.value.to_json())) == info.value.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(CHANCE, game.parse_action("deal egg"))
    assert info.value.code != "core.text"  # not chance's move (the core's code)
    with pytest.raises(MalformedActionError) as bad:
        game.parse_action("place diamond d4")
    assert bad.value.code == "master.action.malformed"
    for options, code in (({"players": 3}, "master.option.players"),
                          ({"match": "yes"}, "master.option.match"),
                          ({"four_of_a_kind": "200"}, "master.option.four_of_a_kind")):
        with pytest.raises(OptionError) as opt:
            MasterGame(options)
        assert opt.value.code == code
        assert opt.value.message("de") != opt.value.message("en")
    with pytest.raises(OptionError) as idx:
        game.action_from_index(10**6)
    assert idx.value.code == "master.action.no_index"


def test_refusals_render_in_german_from_the_catalogue() -> None:
    """M3: the same refusal, in the reader's language (no English left in German)."""
    state = MasterGame().new_initial_state()
    for card in ["ruby"] * 5 + ["emerald"] * 3 + ["egg"] * 5 + ["sapphire"] * 3:
        state.apply(CHANCE, DEAL[next(c.value for c in CARDS if c.id == card)])
    state.apply(CHANCE, master_state.START[1])
    state.apply(1, master_state.PLACE[0][master_state.ORIGIN])
    action = master_state.PLACE[3][0]  # ruby on a1: not adjacent
    err = state.refusal(0, action)
    assert err is not None and err.code == "master.place.not_adjacent"
    assert err.message("de").startswith("a1 ist kein erlaubtes Feld")
    assert "(Regel M3)" in err.message("de")
    assert str(err).startswith("a1 is not a legal cell")


def test_no_raise_in_the_package_is_english_prose() -> None:
    """Every error the package raises is built from a code literal (``master.<area>.<name>``)."""
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        errors = r"(?:IllegalAction|MalformedAction|Option|Record|Seat|Resample|Dragonlair)Error"
        for match in re.finditer(errors + r"\(\s*(f?)\"([^\"]*)\"", text):
            assert match.group(2).startswith("master."), f"{path.name}: {match.group(0)}"
        for part in re.findall(r"_bad\(\"(\w+)\"", text):  # master.snapshot.invalid's part
            for lang in languages():
                assert has_message(f"master.snapshot_part.{part}", lang), (part, lang)


def codes_in_package() -> set[str]:
    codes: set[str] = set()
    for path in [*PACKAGE.glob("*.py"), *(PACKAGE / "terminal").glob("*.py")]:
        codes.update(re.findall(r"\"(master\.[a-z_]+\.[a-z0-9_]+)\"", path.read_text("utf-8")))
    return codes


def test_every_code_has_a_message_in_every_language() -> None:
    """The catalogues cover every code the engine and the terminal use, in every language."""
    codes = codes_in_package()
    codes |= {f"master.card.{c.id}" for c in CARDS}
    codes |= {f"master.which.{n}" for n in range(4)}
    for seed in range(20):
        state = play(seed, TABLES[seed % 4])
        codes |= {e.code for e in state.all_events()}
    assert len(codes) > 30
    for lang in languages():
        missing = sorted(c for c in codes if not has_message(c, lang))
        assert not missing, f"{lang} lacks {missing}"
    assert {"en", "de"} <= set(languages())


# ---------------------------------------------------------------- events (M6)
def test_events_tell_the_game_and_each_hand_only_to_its_seat() -> None:
    """M6: each seat is told its own hand; everyone that the deal is done, every card placed,
    the round's result and its set-aside cards, and the end."""
    state = play(3, {"match": True})
    events = state.all_events()
    hands = [e for e in events if e.code == "master.deal.hand"]
    assert hands and all(e.to == e.params["seat"] for e in hands)
    assert all(e.to is None for e in events if e.code != "master.deal.hand")
    placed = [e for e in events if e.code == "master.move.placed"]
    assert len(placed) == sum(1 for s, _ in state.history if s != CHANCE)
    for (seat, action), e in zip([h for h in state.history if h[0] != CHANCE], placed,
                                 strict=True):
        assert e.params == {"seat": seat, "card": CARDS[action.value].id,
                            "cell": master_state.cell_name(action.cell)}
    outcome = state.outcome()
    assert outcome is not None
    assert events[-1].code == outcome.reason and dict(events[-1].params) == outcome.reason_params
    assert sum(e.code == "master.round.set_aside" for e in events) == len(state.rounds)
    for e in events:
        json.dumps(e.params)  # JSON-ready
        for lang in ("en", "de"):
            assert not render(e.code, e.params, lang).startswith("master.")


def test_each_seat_sees_its_own_hand_event_only() -> None:
    state = play(5, {})
    for seat in (0, 1):
        mine = [e for _, e in state.events_for(seat) if e.code == "master.deal.hand"]
        assert len(mine) == 1 and mine[0].params["seat"] == seat
        dealt = [a.value for _, a in state.history[seat * HAND:(seat + 1) * HAND]]
        assert mine[0].params["cards"] == [CARDS[v].id for v in sorted(dealt)]
    assert not [e for _, e in state.events_for(None) if e.to is not None]


def test_events_are_the_same_however_often_they_are_read() -> None:
    """Events follow from the actions: read after every action, or once at the end, or on
    a clone, they are the same."""
    rng = random.Random(11)
    state = MasterGame({"match": True}).new_initial_state()
    lazy = state.clone()
    while not state.is_terminal():
        seat, action = step(state, rng)
        state.apply(seat, action)
        lazy.apply(seat, action)
        _ = state.event_count
        if rng.random() < 0.1:
            fork = state.clone()
            assert fork.all_events() == state.all_events()
    assert state.all_events() == lazy.all_events()


# ---------------------------------------------------------------- views and their schema
def test_published_schema_files_are_the_generated_schema() -> None:
    for path in schema_paths(ROOT):
        assert path.exists(), f"{path} missing: run python -m dragonlair.games.master.views"
        assert path.read_text(encoding="utf-8") == schema_text(), (
            f"{path} differs from the models: run python -m dragonlair.games.master.views")
    assert view_schema()["$id"].endswith("view-master.v1.json")


def test_view_envelope_fields() -> None:
    """M6: public grid, turn and hand sizes; the seat's own hand; its legal placements
    compactly (M3: any card of the hand on any legal cell)."""
    for state in positions(4, {}):
        if state.phase == Phase.PLACE and state.placed == 3:
            break
    seat = state.current_seats()[0]
    view = view_of(state, seat)
    assert view["game"] == "master" and view["seat"] == seat and view["to_move"] == [seat]
    assert view["phase"] == "place" and view["chance"] is False
    assert view["public"]["hand_sizes"] == [sum(h) for h in state.hands]
    legal = view["legal"]
    assert {f"place {c} {cell}" for c in legal["cards"] for cell in legal["cells"]} == \
        {str(a) for a in state.legal_actions(seat)}
    other = view_of(state, 1 - seat)
    assert other["legal"] is None
    assert other["private"]["hand"] == {c.id: state.hands[1 - seat][c.value] for c in CARDS}
    spectator = view_of(state, None)
    assert spectator["private"] is None and spectator["legal"] is None
    chance = view_of(MasterGame().new_initial_state(), None)
    assert chance["chance"] is True and chance["to_move"] == []


# ---------------------------------------------------------------- secrecy (M6)
def test_a_planted_hand_never_reaches_another_seat() -> None:
    """M6: p1 holds all five Rubies; nothing p0 or a spectator sees during the round says so
    (only the cards p1 has placed)."""
    game = MasterGame()
    state = game.new_initial_state()
    for card in ["egg"] * 5 + ["emerald"] * 3 + ["ruby"] * 5 + ["sapphire"] * 3:
        state.apply(CHANCE, game.parse_action(f"deal {card}"))
    state.apply(CHANCE, game.parse_action("start p0"))
    rng = random.Random(1)
    while state.phase == Phase.PLACE and state.placed < 15:
        for viewer in (0, None):
            view = view_of(state, viewer)
            # p0 holds no Ruby: "ruby" shows in the grid, the placements and their events
            # only, and p1's
            # deal event is not there (p0's own private part is p0's to see)
            text = json.dumps([view["public"], view["events"]])
            rubies_down = list(state.grid).count(3)
            assert text.count('"ruby"') == 3 * rubies_down
            assert all(e["params"].get("seat") != 1 for e in view["events"]
                       if e["code"] == "master.deal.hand")
        state.apply(*step(state, rng))


# ---------------------------------------------------------------- snapshots
def _mutations(data: JSON) -> Iterator[Any]:
    yield None
    yield []
    yield {**data, "format": "other"}
    yield {**data, "game": "fist"}
    yield {**data, "options": {**data["options"], "match": not data["options"]["match"]}}
    body = data["state"]
    yield {**data, "state": None}
    for key, value in (("history", ["p0: place ruby d4", *body["history"]]),
                       ("history", body["history"][:-1]),
                       ("history", [*body["history"][:-1], "chance: deal diamond"]),
                       ("hands", [{**body["hands"][0], "ruby": 9}, body["hands"][1]]),
                       ("grid", {**body["grid"], "a1": "ruby"}),
                       ("phase", "over"), ("player", 5), ("dragons", [2, 2]),
                       ("rounds", [{**r, "winner": 1 - (r["winner"] or 0)}
                                   for r in body["rounds"]]),
                       ("deck", {"egg": 5, "emerald": 5, "sapphire": 5, "ruby": 5})):
        if body[key] != value:
            yield {**data, "state": {**body, key: value}}
    if data["events"]:
        yield {**data, "events": data["events"][:-1]}
        first = data["events"][0]
        yield {**data, "events": [{**first, "to": 1}, *data["events"][1:]]}


def test_restore_refuses_malformed_snapshots() -> None:
    """A snapshot is checked, never trusted: anything that does not follow from its history
    and the rules is a RecordError with a code."""
    for seed in range(30):
        options = TABLES[seed % 4]
        game = MasterGame(options)
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(rng.randrange(20, 70)):
            if state.is_terminal():
                break
            state.apply(*step(state, rng))
        data = state.snapshot()
        for bad in _mutations(data):
            with pytest.raises(RecordError) as info:
                game.restore(bad)
            assert info.value.code == "master.snapshot.invalid"
            assert info.value.message("de").startswith("kein Spielstand von Dragon Master")
            assert "master.snapshot_part" not in info.value.message("de")
