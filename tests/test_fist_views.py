"""Fist views: the published JSON Schema, the compact legal part, and secrecy (F8).

The legal part describes exactly the legal actions; a view is independent data; no view or
event a seat may see carries another seat's secret (F8): sealed bids before the reveal, what
passed by Brigand or Thief. That every view validates against the models and the published
schema (2,000 games in the slow run), ``view(seat, since=N)``, and that views never depend on
another seat's hidden coins are checked for every game alike in tests/test_contract.py.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import jsonschema
import pytest

from dragonlair.core.game import CHANCE
from dragonlair.games.fist import views
from dragonlair.games.fist.actions import Kind
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.events import PRIVATE
from dragonlair.games.fist.game import FistGame
from tests.sizes import size

CUSTOM = load_file("moneylender") + load_file("stormcaller")


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


def game_states(seed: int) -> Any:
    """The random game of ``seed`` (its table from :func:`options`), yielding the state after
    every action (the same object)."""
    rng = random.Random(seed)
    state = FistGame(options(seed)).new_initial_state()
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


def seeded(seeds: Any) -> Any:
    """The random games of these seeds, one after the other, as :func:`game_states`."""
    for seed in seeds:
        yield from game_states(seed)


#: quick games: 3 to 6 players, custom characters (902, 917), each ended at 3 turns (F5.10)
QUICK_LEGAL = (902, 907, 912, 917)


def test_the_published_schema_files_are_the_models() -> None:
    text = views.schema_text()
    for path in views.schema_paths():
        assert path.is_file(), f"{path} is missing: python -m dragonlair.games.fist.views"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} differs from the models: regenerate it with "
            "`python -m dragonlair.games.fist.views`")
    jsonschema.Draft202012Validator.check_schema(published())


def test_views_are_independent_data() -> None:
    """A reader scribbling on a view changes nothing: not the state, not a later view
    (the shared events of a view refuse changes; copies are plain data)."""
    state = next(s for s in game_states(7) if s.event_count > 50)
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


@pytest.mark.parametrize("seeds", [
    pytest.param(QUICK_LEGAL, id="quick"),
    # whole games: CI three, the release run (scripts/test.sh --long) fifteen
    pytest.param(range(900, 900 + size(ci=3, long=15)), id="many", marks=pytest.mark.slow)])
def test_legal_describes_exactly_the_legal_actions(seeds: Any) -> None:
    """The compact legal part (limits for a bid, choices for a decision) names the same
    actions as legal_actions(), and only the seats to move have one (F5.1, F5.7)."""
    game_cache: dict[int, FistGame] = {}
    for state in seeded(seeds):
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
        return {"fairy": bid.fairy, "common": bid.common, "black": int(bid.black),
                "amulet": int(bid.amulet)}
    return {"silver": bid.silver, "amulet": int(bid.amulet)}


def test_f8_no_event_or_view_shows_another_seats_secret() -> None:
    """F8: over random games, scan every event and view each seat (and the spectator) may
    see: a private event is only ever its own seat's; no sealed bid of another seat appears
    before the reveal (neither its text in the view nor its params in an event); what passed
    by Brigand or Thief reaches only the two players. (Four games of 3 to 6 players ended
    at 3 turns (F5.10), custom characters and a Brigand's hand-over among them; the slow
    twin scans whole games.)"""
    check_f8_events((2002, 2012, 2017, 2027))


@pytest.mark.slow
def test_f8_no_event_or_view_shows_another_seats_secret_many() -> None:
    """Whole games: one with a Thief's theft (2049), then CI 2 more, ``scripts/test.sh
    --long`` 29 (tests/sizes.py)."""
    check_f8_events((2049, *range(2004, 2004 + size(ci=2, long=29))))


def check_f8_events(seeds: Any) -> None:
    for state in seeded(seeds):
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
