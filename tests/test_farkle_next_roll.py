"""Issue 25: the Farkle view says how many dice the next roll has and its farkle risk, so no
interface works it out (a defender's hot dice are 5 dice, D5.2: 7.7 %, not 6 dice' 2.3 %);
and each secret item event follows its public twin at the seq before, so that a reader shows
the owner one line for it (the browser: web/src/lib/events.ts), while every other viewer
still gets the twin only (D9)."""

from __future__ import annotations

import json

import pytest

from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.actions import DICE_COUNT, DICE_SETS, Kind
from dragonlair.games.farkle.events import PRIVATE, TWINS
from dragonlair.games.farkle.scoring import ScoringTable, scorer_for
from dragonlair.games.farkle.state import FarkleState, roll_outcomes
from dragonlair.games.farkle.viewing import farkle_risks
from tests.test_farkle_rules import act, deal, skirmish_table
from tests.test_farkle_views import games


def _brute_risk(table: ScoringTable, k: int) -> float:
    scorer = scorer_for(table)
    return sum(p for code, _, p in roll_outcomes(k) if not scorer.selections(DICE_SETS[code]))


def test_risks_are_the_scorers_per_dice() -> None:
    risks = farkle_risks(scorer_for(ScoringTable()))
    assert risks[0] == 0.0
    # the classic figures: 1 die 4/6, 3 dice 27.8 %, 5 dice 7.7 %, 6 dice 2.3 %
    assert risks[1] == round(4 / 6, 4) and risks[3] == round(60 / 216, 4)
    assert risks[5] == 0.0772 and risks[6] == 0.0231
    for k in range(1, 7):
        assert risks[k] == round(_brute_risk(ScoringTable(), k), 4)


def test_a_defender_facing_hot_dice_rolls_five_dice() -> None:
    """D5.2: the defender's hot dice are 5 dice again, and the view says so (7.7 %)."""
    state = skirmish_table()
    act(state, "p0: skirmish p1")
    assert state.view(None)["public"]["next_roll"] == {"dice": 6, "risk": 0.0231}
    act(state, "chance: dice 122346 blank")
    assert state.view(0)["public"]["next_roll"] is None  # the roll lies on the table
    act(state, "p0: keep 1", "p0: stop")
    assert state.view(1)["public"]["next_roll"] == {"dice": 5, "risk": 0.0772}
    act(state, "chance: dice 11155 blank")
    keep = next(k for k in state.view(1)["legal"]["keeps"] if k["dice"] == "11155")
    assert keep["dice_left"] == 0 and keep["next_dice"] == 5 and keep["risk"] == 0.0772
    act(state, "p1: keep 11155")
    for seat in (None, 0, 1):  # public: every viewer reads the same
        pub = state.view(seat)["public"]
        assert pub["dice_in_hand"] == 0
        assert pub["next_roll"] == {"dice": 5, "risk": 0.0772}


def test_an_attackers_hot_dice_are_six() -> None:
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 111555 blank")
    keeps = {k["dice"]: k for k in state.view(0)["legal"]["keeps"]}
    assert keeps["111555"]["next_dice"] == 6 and keeps["111555"]["risk"] == 0.0231
    assert keeps["11155"]["next_dice"] == 1 and keeps["11155"]["risk"] == 0.6667
    act(state, "p0: keep 111555")
    assert state.view(1)["public"]["next_roll"] == {"dice": 6, "risk": 0.0231}


def test_next_roll_is_the_engines_next_roll() -> None:
    """In random games: whenever the view names a next roll, the roll the engine makes next
    (after ``roll`` at a roll-on decision) has that many dice, and each keep's ``next_dice``
    is the dice of the roll after that keep; the risks are the scorer's."""
    checked = kept = 0
    for state in games(12, offset=500):
        if state.is_terminal():
            continue
        pub = state.view(None)["public"]
        nxt = pub["next_roll"]
        if nxt is not None:
            assert nxt["risk"] == round(_brute_risk(state.game.table, nxt["dice"]), 4)
            assert _dice_of_next_roll(state) == nxt["dice"], pub
            checked += 1
        seat = state.current_seats()[0]
        if seat != CHANCE:
            legal = state.view(seat)["legal"]
            for k in legal["keeps"] if legal else []:
                assert k["next_dice"] == (k["dice_left"] or state.full_dice)
                assert k["risk"] == farkle_risks(state.scorer)[k["next_dice"]]
                kept += 1
    assert checked > 100 and kept > 100


def _dice_of_next_roll(state: FarkleState) -> int | None:
    """The soldier dice of the next roll the engine makes from here, rolling on where the
    roller decides (a clone; the items drawn and the alliance's choices as they come)."""
    s = state.clone()
    for _ in range(6):
        if s.is_terminal():
            return None
        seat = s.current_seats()[0]
        if seat == CHANCE:
            if s.phase.name == "ROLL":
                action = s.chance_outcomes()[0][0]
                return int(DICE_COUNT[action.dice])
            s.apply(CHANCE, s.chance_outcomes()[0][0])
            continue
        legal = s.legal_actions(seat)
        pick = [a for a in legal if a.kind in (Kind.ROLL, Kind.DOUBLE)] or list(legal)
        s.apply(seat, pick[0])
    return None


# ---------------------------------------------------------------- secret items (D9)
def test_every_private_event_has_its_twin_just_before() -> None:
    assert {c.removesuffix("_own") for c in PRIVATE} == TWINS
    for state in games(6, offset=700, max_turns=None):
        if not state.is_terminal():
            continue
        events = state.all_events()
        for i, e in enumerate(events):
            if e.to is not None:
                twin = events[i - 1]
                assert twin.to is None and twin.code + "_own" == e.code
                assert twin.params == {"seat": e.params["seat"]}


@pytest.mark.parametrize("seat", [0, 1])
def test_the_owner_can_tell_the_twin_of_its_secret(seat: int) -> None:
    """What the browser's one line per secret reads (web/src/lib/events.ts): in the owner's
    events each secret follows its public twin at the seq before it, with the twin's code
    and seat; every other viewer has the twin alone (D9)."""
    state = deal(items=("lucky-dragon-tooth", "plunder-sack"))
    act(state, "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item second-wind", "p0: bank", "p0: discard lucky-dragon-tooth")
    mine = state.view(seat)["events"]
    by_seq = {e["seq"]: e for e in mine}
    own = [e for e in mine if "to" in e]
    assert own and all(e["to"] == seat for e in own)
    for e in own:
        twin = by_seq[e["seq"] - 1]
        assert "to" not in twin and twin["code"] + "_own" == e["code"]
        assert twin["params"] == {"seat": seat}
    cards = {e["params"]["card"] for e in own}
    for viewer in (None, 1 - seat):
        theirs = state.view(viewer)["events"]
        assert all(e.get("to") in (None, viewer) for e in theirs)
        twins = [e for e in theirs if e["code"] in TWINS and e["params"]["seat"] == seat]
        assert [e["seq"] for e in twins] == [e["seq"] - 1 for e in own]
        assert all("card" not in e["params"] for e in twins)
        text = json.dumps(theirs)
        assert not any(f'"{c}"' in text for c in cards if c != "gold-purse")
