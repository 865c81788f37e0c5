"""Farkle views: the published JSON Schema, the envelope's fields, a compact legal part,
and secrecy (D9: everything is public but the identity of a magic item).

That every view validates against the models and the published schema (2,000 games in the
slow run), ``view(seat, since=N)``, and that views never depend on another seat's items are
checked for every game alike in tests/test_contract.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema
import pytest

from dragonlair.core.errors import IllegalActionError, SeatError
from dragonlair.core.game import CHANCE
from dragonlair.games.farkle import views
from dragonlair.games.farkle.actions import DICE_SETS
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.scoring import dice_text
from dragonlair.games.farkle.state import FarkleState
from tests.sizes import size

#: a deck file's own cards (D8.5) and a scoring table of its own (D2)
DECKS = {"items": [
    {"id": "ember-charm", "effect": "gain", "amount": 250, "count": 4,
     "name": {"en": "Ember Charm"}, "text": {"en": "Gain 250 soldiers."}},
    {"id": "iron-flask", "effect": "battle_shield", "count": 3,
     "name": {"en": "Iron Flask"}, "text": {"en": "No loss on one battle roll."}},
    {"id": "deep-pocket", "effect": "keep_extra", "amount": 1, "count": 2,
     "name": {"en": "Deep Pocket"}, "text": {"en": "Keep one more item."}},
]}
TABLE = {"single_one": 150, "straight": 2500}


@cache
def published() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(views.schema_paths()[0].read_text(encoding="utf-8"))
    return schema


def options(seed: int) -> dict[str, Any]:
    opts: dict[str, Any] = {"players": 2 + seed % 4, "dragon": (3, 4, 5)[seed % 3]}
    opts["max_turns"] = (None, 8, 16, 30)[seed // 4 % 4]  # a quarter play to the end
    if seed % 7 == 2:
        opts["decks"] = DECKS
    if seed % 11 == 3:
        opts["table"] = TABLE
    return opts


@cache
def game_for(key: str) -> FarkleGame:
    return FarkleGame(json.loads(key))


def games(count: int, offset: int = 0, max_turns: int | None = 12) -> Iterator[FarkleState]:
    """Random games (each at most ``max_turns`` turns unless its options say fewer),
    yielding the state after every action (the same object)."""
    for seed in range(offset, offset + count):
        opts = options(seed)
        if max_turns is not None:
            opts["max_turns"] = min(opts.get("max_turns") or max_turns, max_turns)
        rng = random.Random(seed)
        state = game_for(json.dumps(opts, sort_keys=True)).new_initial_state()
        yield state
        while not state.is_terminal():
            seat = state.current_seats()[0]
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
            yield state


# ---------------------------------------------------------------- the schema
def test_the_published_schema_files_are_the_models() -> None:
    text = views.schema_text()
    for path in views.schema_paths():
        assert path.is_file(), f"{path} is missing: python -m dragonlair.games.farkle.views"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} differs from the models: regenerate it with "
            "`python -m dragonlair.games.farkle.views`")
    jsonschema.Draft202012Validator.check_schema(published())
    assert views.view_schema()["$id"].endswith("view-farkle.v1.json")


# ---------------------------------------------------------------- the envelope's fields
def test_view_envelope_fields() -> None:
    """D9: the public part is everyone's; the private part is the seat's items; the
    spectator has neither a private nor a legal part; chance nodes move nobody."""
    state = FarkleGame({"players": 3}).new_initial_state()
    first = state.view(None)
    assert first["game"] == "farkle" and first["chance"] is True and first["to_move"] == []
    assert first["phase"] == "setup" and first["public"]["decision"] is None
    for state in games(1, offset=4):
        if state.phase.name == "DECIDE" and state.dec is not None \
                and state.dec.name == "KEEP":
            break
    seat = state.current_seats()[0]
    view = state.view(seat)
    assert view["seat"] == seat and view["to_move"] == [seat] and view["chance"] is False
    assert view["phase"] == "decide" and view["public"]["decision"] == "keep"
    assert view["legal"]["decision"] == "keep"
    assert view["private"]["items"] == sorted(state.game.items[i].id
                                              for i in state.items[seat])
    assert view["public"]["roll"] == dice_text(state.roll)
    others = [s for s in range(state.num_players) if s != seat]
    assert all(state.view(s)["legal"] is None for s in others)
    spectator = state.view(None)
    assert spectator["private"] is None and spectator["legal"] is None
    public = {k: v for k, v in view["public"].items() if k != "history"}
    assert {k: v for k, v in spectator["public"].items() if k != "history"} == public
    differ = [(mine, theirs) for mine, theirs in zip(view["public"]["history"],
                                                     spectator["public"]["history"], strict=True)
              if mine != theirs]
    assert all(theirs == f"chance: item for p{seat}" for _, theirs in differ)  # D9


def test_bad_viewers_and_since_are_refused() -> None:
    state = FarkleGame().new_initial_state()
    with pytest.raises(SeatError):
        state.view(2)
    with pytest.raises(SeatError):
        state.view(CHANCE)
    with pytest.raises(IllegalActionError) as bad:
        state.view(0, -1)
    assert bad.value.code == "farkle.view.bad_since"


def test_derived_facts_follow_the_record() -> None:
    """The view's derived facts agree with the record: ``last_keep`` is the last ``keep``
    with the soldiers it gave (D2), ``items_used`` counts the ``use`` actions, and
    ``powers_used`` the once-per-turn powers of this turn (D8.4)."""
    for state in games(size(ci=3, long=6), offset=40):
        pub = state.view(None)["public"]
        keeps = [(s, a) for s, a in state.history if s != CHANCE and a.text.startswith("keep ")]
        if keeps:
            seat, action = keeps[-1]
            assert pub["last_keep"]["seat"] == seat
            assert pub["last_keep"]["dice"] == dice_text(DICE_SETS[action.dice])
            assert pub["last_keep"]["soldiers"] == state.last_value
        else:
            assert pub["last_keep"] is None
        uses: dict[str, int] = {}
        for s, a in state.history:
            if s != CHANCE and a.text.startswith("use "):
                uses[a.text[4:]] = uses.get(a.text[4:], 0) + 1
        assert pub["items_used"] == uses
        assert pub["powers_used"] == sorted(state.used)


# ---------------------------------------------------------------- the legal part
def described(legal: dict[str, Any]) -> set[str]:
    """The action texts the compact legal part describes."""
    out: set[str] = set()
    out |= {"recruit"} if legal["recruit"] else set()
    out |= {f"skirmish p{s}" for s in legal["skirmish"]}
    out |= {"battle"} if legal["battle"] else set()
    out |= {f"scare p{s}" for s in legal["scare"]}
    out |= {f"use {i}" for i in legal["use"]}
    out |= {k["action"] for k in legal["keeps"]}
    assert all(k["action"] == f"keep {k['dice']}" for k in legal["keeps"])
    out |= set(legal["alliance"])
    out |= {"roll"} if legal["roll"] else set()
    out |= {legal["end"]} if legal["end"] else set()
    out |= {"farkle"} if legal["farkle"] else set()
    out |= {"ignore dragon"} if legal["tabby"] else set()
    out |= {f"reroll {f}" for f in legal["reroll"]}
    out |= {"pass"} if legal["pass"] else set()
    verb = "discard" if legal["decision"] == "discard" else "keep-item"
    out |= {f"{verb} {i}" for i in legal["items"]}
    return out


@pytest.mark.parametrize("seeds", [
    pytest.param(range(900, 900 + size(ci=3, long=6)), id="quick"),
    # CI six more games, the release run (scripts/test.sh --long) 30
    pytest.param(range(906, 906 + size(ci=6, long=30)), id="many", marks=pytest.mark.slow)])
def test_legal_describes_exactly_the_legal_actions(seeds: range) -> None:
    """The compact legal part names the same actions as legal_actions(), in its order,
    only for the seat to move; a keep shows the soldiers it gives (D2) and the dice left.
    (Views of every seat after every action: a game takes a fraction of a second.)"""
    kinds: set[str] = set()
    for state in games(len(seeds), offset=seeds.start):
        for seat in range(state.num_players):
            legal = state.legal_actions(seat)
            part = state.view(seat)["legal"]
            if not legal:
                assert part is None
                continue
            assert part is not None
            assert part["actions"] == [str(a) for a in legal]
            assert described(part) == {str(a) for a in legal}
            kinds.add(part["decision"])
            values = dict(state.scorer.selections(state.roll))
            for keep in part["keeps"]:
                counts = DICE_SETS[state.game.parse_action(keep["action"]).dice]
                assert keep["soldiers"] == values[counts]
                assert keep["dice_left"] == state.hand_dice - sum(counts)
    assert {"action", "keep", "continue", "alliance", "farkle"} <= kinds


# ---------------------------------------------------------------- secrecy (D9)
PLANTED = "plunder-sack"  # one copy in the deck, and never used: only its holders know it


def _planted_game(seed: int) -> Iterator[FarkleState]:
    """A random game in which p1 is dealt the Plunder Sack in the setup (D8.1)."""
    rng = random.Random(seed)
    game = FarkleGame({"players": 2 + seed % 4, "max_turns": 16})
    state = game.new_initial_state()
    n = state.num_players
    while state.setup_step < 2 * n:
        if state.setup_step == n + 1:  # p1's item
            action = game.parse_action(f"item {PLANTED}")
        else:
            outcomes = [a for a, _ in state.chance_outcomes() if a.text != f"item {PLANTED}"]
            action = outcomes[rng.randrange(len(outcomes))]
        state.apply(CHANCE, action)
    while True:
        yield state
        if state.is_terminal():
            return
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])


def test_d9_a_planted_item_never_reaches_another_seat() -> None:
    """D9: p1 holds the Plunder Sack; no view, event or legal part of any seat that never
    held it, nor the spectator's, names it, over whole random games (2 to 5 players: the
    release run, scripts/test.sh --long, three times over)."""
    game_ids = {c.id: k for k, c in enumerate(FarkleGame().items)}
    planted = game_ids[PLANTED]
    scanned = 0
    for seed in range(size(ci=4, long=12)):
        held: set[int] = set()
        for state in _planted_game(seed):
            for s in range(state.num_players):
                if planted in state.items[s] or planted in state.gained[s]:
                    held.add(s)
            assert 1 in held
            for viewer in (None, *range(state.num_players)):
                if viewer in held:
                    continue
                since = max(0, state.event_count - 6)
                text = json.dumps(state.view(viewer, since))
                assert PLANTED not in text, (seed, viewer)
                scanned += 1
    assert scanned > 1000


def test_d9_no_event_a_seat_may_see_is_another_seats_secret() -> None:
    """D9: every private event is its own seat's; each item draw, discard and kept item
    has a public twin that names the seat only."""
    for state in games(size(ci=4, long=8), offset=300, max_turns=None):
        if not state.is_terminal():
            continue
        events = state.all_events()
        for viewer in (None, *range(state.num_players)):
            for _, event in state.events_for(viewer):
                assert event.to is None or event.to == viewer
                if event.to is not None:
                    assert event.params["seat"] == viewer
                    assert event.code.endswith("_own")
        own = [e for e in events if e.to is not None]
        twins = [e for e in events if e.code + "_own" in {o.code for o in own}]
        assert len(own) == len(twins)
        assert all("card" not in e.params for e in twins)
