"""Fist views: one envelope, a published JSON Schema, incremental events, and secrecy (F8).

Every view (every seat and the spectator, at every position) of random games validates
against the typed models (pydantic) and a sample against the published JSON Schema file
(jsonschema). ``view(seat, since=N)`` carries exactly the events with ``seq >= N``. The legal
part describes exactly the legal actions. And no view or event a seat may see carries
another seat's secret (F8): sealed bids before the reveal, what passed by Brigand or Thief.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from dragonlair.core.game import CHANCE
from dragonlair.games.fist import views
from dragonlair.games.fist.actions import Kind
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.events import PRIVATE
from dragonlair.games.fist.game import FistGame

CUSTOM = load_file("moneylender") + load_file("stormcaller")
ADAPTER: TypeAdapter[Any] = TypeAdapter(views.FistView)


@cache
def published() -> dict[str, Any]:
    paths = views.schema_paths()
    schema: dict[str, Any] = json.loads(paths[0].read_text(encoding="utf-8"))
    return schema


def options(seed: int) -> dict[str, Any]:
    opts: dict[str, Any] = {"players": 3 + seed % 4}
    if seed % 4 == 1:
        opts["custom"] = CUSTOM
    if seed % 5 == 2:
        opts["max_turns"] = 3
    return opts


def games(count: int, offset: int = 0, short: bool = False) -> Any:
    """Random games, yielding the state after every action (the same object); ``short``:
    all but one game in ten end at a turn limit of 1 to 3 (F5.10), to keep long runs
    within CI's time."""
    for seed in range(offset, offset + count):
        rng = random.Random(seed)
        opts = options(seed)
        if short and seed % 10:
            opts["max_turns"] = 1 + seed % 3
        state = FistGame(opts).new_initial_state()
        yield state
        while not state.is_terminal():
            seats = state.current_seats()
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                yield state
            else:
                for seat in seats:
                    legal = state.legal_actions(seat)
                    state.apply(seat, legal[rng.randrange(len(legal))])
                    yield state


def validate_all(count: int, short: bool = False) -> int:
    """Validate every view of ``count`` games: the envelope models for all, incrementally
    (each viewer asks for the events since its last view, as a client does), and the whole
    view against the published JSON file for a sample."""
    checked = 0
    rng = random.Random(0)
    validator = jsonschema.Draft202012Validator(published())
    last: dict[int | None, int] = {}
    for state in games(count, short=short):
        if not state.history:
            last = {}
        for seat in (None, *range(state.num_players)):
            view = state.view(seat, last.get(seat, 0))
            ADAPTER.validate_python(view)
            last[seat] = view["events_total"]
            checked += 1
            if rng.random() < 0.0005:
                validator.validate(json.loads(json.dumps(state.view(seat))))
    return checked


def test_the_published_schema_files_are_the_models() -> None:
    text = views.schema_text()
    for path in views.schema_paths():
        assert path.is_file(), f"{path} is missing: python -m dragonlair.games.fist.views"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} differs from the models: regenerate it with "
            "`python -m dragonlair.games.fist.views`")
    jsonschema.Draft202012Validator.check_schema(published())


def test_every_view_of_random_games_validates() -> None:
    assert validate_all(6) > 10_000


@pytest.mark.slow
def test_every_view_of_2000_random_games_validates() -> None:
    assert validate_all(2000, short=True) > 1_000_000


def test_incremental_views_carry_the_events_since_n() -> None:
    for state in games(8, offset=500):
        if len(state.history) % 23:
            continue
        for seat in (None, *range(state.num_players)):
            full = state.view(seat)
            seqs = [e["seq"] for e in full["events"]]
            assert seqs == sorted(set(seqs))
            assert full["events_total"] == state.event_count
            for since in (0, 1, state.event_count // 2, state.event_count - 1,
                          state.event_count, state.event_count + 5):
                part = state.view(seat, since)
                assert part["events_since"] == max(since, 0)
                assert part["events"] == [e for e in full["events"] if e["seq"] >= since]
                assert {k: v for k, v in part.items() if k not in ("events", "events_since")} \
                    == {k: v for k, v in full.items() if k not in ("events", "events_since")}
            assert [(q, e.code) for q, e in state.events_for(seat)] == [
                (e["seq"], e["code"]) for e in full["events"]]


def test_views_are_independent_data() -> None:
    """A reader scribbling on a view changes nothing: not the state, not a later view
    (the shared events of a view refuse changes; copies are plain data)."""
    state = next(s for s in games(1, offset=7) if s.event_count > 50)
    view = state.view(1)
    before = json.dumps(state.view(1))
    with pytest.raises(TypeError):
        view["events"][0]["params"]["seat"] = 5
    with pytest.raises(TypeError):
        view["events"][0]["code"] = "x"
    view["events"].clear()
    view["public"]["seats"].clear()
    assert json.dumps(state.view(1)) == before
    mine = copy.deepcopy(state.view(1))
    mine["events"][0]["params"]["seat"] = 5  # a deep copy is plain, changeable data
    assert json.dumps(state.view(1)) == before


def test_legal_describes_exactly_the_legal_actions() -> None:
    """The compact legal part (limits for a bid, choices for a decision) names the same
    actions as legal_actions(), and only the seats to move have one (F5.1, F5.7)."""
    game_cache: dict[int, FistGame] = {}
    for state in games(15, offset=900):
        for seat in range(state.num_players):
            legal = state.legal_actions(seat)
            part = state.view(seat)["legal"]
            if not legal:
                assert part is None
                continue
            assert part is not None
            game = game_cache.setdefault(id(state.game), state.game)
            if part["kind"] == "bid":
                b = part["bid"]
                described = {game.space.bid[f][c][k][m].index
                             for f in range(b["fairy"] + 1) for c in range(b["common"] + 1)
                             for k in range(2 if b["black"] else 1)
                             for m in range(2 if b["amulet"] else 1)}
            elif part["kind"] == "silver":
                s = part["silver"]
                described = {game.space.silver[x][m].index for x in range(s["silver"] + 1)
                             for m in range(2 if s["amulet"] else 1)}
            else:
                described = {c["index"] for c in part["choices"]}
                assert [c["action"] for c in part["choices"]] == [str(a) for a in legal]
            assert described == {a.index for a in legal}


def _bid_params(bid: Any) -> dict[str, int]:
    if bid.kind == Kind.BID:
        return {"fairy": bid.a, "common": bid.b, "black": bid.c, "amulet": bid.d}
    return {"silver": bid.a, "amulet": bid.b}


def test_f8_no_event_or_view_shows_another_seats_secret() -> None:
    """F8: over random games, scan every event and view each seat (and the spectator) may
    see: a private event is only ever its own seat's; no sealed bid of another seat appears
    before the reveal (neither its text in the view nor its params in an event); what passed
    by Brigand or Thief reaches only the two players."""
    for state in games(30, offset=2000):
        sealed = state.phase.name in ("BID", "TIEBID")
        n = state.num_players
        for viewer in (None, *range(n)):
            for _, event in state.events_for(viewer, max(0, state.event_count - 12)):
                assert event.to is None or event.to == viewer
                if event.code in PRIVATE:
                    assert event.to == viewer
                    if event.code in ("fist.brigand.handed", "fist.thief.coin_taken"):
                        assert viewer in (event.params["seat"], event.params["victim"])
                    else:
                        assert event.params["seat"] == viewer
            if not sealed:
                continue
            history = state.view(viewer)["public"]["history"]
            assert all(e.endswith(": sealed") for e in history[state.sealed_from:])
            for seat, bid in state._history[state.sealed_from:]:
                if seat == viewer:
                    continue
                for _, event in state.events_for(viewer, state._nev):  # this auction
                    assert not (event.code.endswith(".own") and event.params["seat"] == seat)
                    assert not (event.code.endswith(".revealed")
                                and event.params["seat"] == seat
                                and event.params == {"seat": seat, **_bid_params(bid),
                                                     "value": event.params["value"]})


def test_f8_a_planted_secret_bid_never_reaches_another_seat() -> None:
    """F8: a distinctive sealed bid (17 Fairy Gold, 3 Common Gold and the Amulet is a bid
    nobody else can make) is in no other seat's or the spectator's view or events until
    the reveal; then it is in everyone's."""
    game = FistGame({"players": 5})
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.phase.name != "BID":
        state.apply(CHANCE, state.sample_chance(rng))
    p = state.players[2]
    p.fairy, p.common, p.amulet = 17, 3, 1  # planted behind p2's screen
    state.bank.fairy -= 9
    state.bank.common -= 1
    state.bank.amulet -= 1
    state.apply(2, game.parse_action("bid f17 c3 amulet"))
    for viewer in (None, 0, 1, 3, 4):
        text = json.dumps(state.view(viewer))
        assert "17" not in text.replace('"seq": 17', "")
        assert "f17" not in text
    assert '"fairy": 17' in json.dumps(state.view(2)["events"])
    for seat in (0, 1, 3, 4):
        state.apply(seat, game.parse_action("bid f0 c0"))
    for viewer in (None, 0, 1, 3, 4):
        revealed = [e["params"] for e in state.view(viewer)["events"]
                    if e["code"] == "fist.bid.revealed" and e["params"]["seat"] == 2]
        assert revealed == [{"seat": 2, "fairy": 17, "common": 3, "black": 0, "amulet": 1,
                             "value": 40}]
