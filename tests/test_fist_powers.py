"""Fist of Dragonstones: character powers (F6, F7), custom characters (F9) and record
round-trips, staged with hand-written record entries (see tests/fist_helpers.py).

Every staged step is followed by the conservation check of F1.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dragonlair.core.errors import IllegalActionError, OptionError
from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.games.fist.actions import stones_text
from dragonlair.games.fist.custom import load_file
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState
from tests.fist_helpers import new_table, play, private, setup

COIN_TOTALS = {"fairy": 60, "silver": 40, "common": 15, "amulet": 2,
               "red": 12, "blue": 12, "yellow": 12}
SIX_NO_RED = ("rrrr", "rrrr", "rrrr", "bbbb", "bbbb", "bbby")  # bank: 0 red, 1 blue, 11 yellow


# ---------------------------------------------------------------------------- helpers
def check(state: FistState) -> None:
    """F1: bank + players + bids = the box, cards included."""
    totals = state.totals()
    for key, n in COIN_TOTALS.items():
        assert totals[key] == n, (key, totals[key])
    assert totals["cards"] == sum(c.count for c in state.cards if not c.standard)


def act(state: FistState, *entries: str) -> FistState:
    for entry in entries:
        play(state, entry)
        check(state)
    return state


def deal(stones: tuple[str, ...] = ("rrby", "rbby", "rbyy", "rrbb"),
         specials: tuple[str, str] = ("alchemist", "gnome"), **options: Any) -> FistState:
    """Setup done and the turn's specials drawn: the Witch is up for auction."""
    state = setup(new_table(len(stones), **options), list(stones), specials)
    check(state)
    return state


def bid_round(state: FistState, **by_seat: str) -> FistState:
    """Every seat to move bids; ``p0="f2 c1"``, the others bid nothing."""
    for seat in state.current_seats():
        act(state, f"p{seat}: bid {by_seat.get(f'p{seat}', 'f0 c0')}")
    return state


def start(stones: tuple[str, ...] = ("rrby", "rbby", "rbyy", "rrbb"),
          specials: tuple[str, str] = ("alchemist", "gnome"), **options: Any) -> FistState:
    """Setup done, the Witch passed: the next card is about to be revealed."""
    return bid_round(deal(stones, specials, **options))


def auction(state: FistState, card: str, **by_seat: str) -> FistState:
    act(state, f"chance: card {card}")
    return bid_round(state, **by_seat)


def finish_turn(state: FistState) -> FistState:
    """Reveal the rest of the turn's pile; nobody bids."""
    turn = state.turn
    while state.turn == turn and not state.is_terminal():
        assert phase(state) == "reveal", phase(state)
        act(state, f"chance: {state.chance_outcomes()[0][0]}")
        if state.turn == turn and phase(state) == "bid":
            bid_round(state)
    return state


def full(state: FistState) -> dict[str, Any]:
    return state.full_state()


def phase(state: FistState) -> str:
    return str(full(state)["phase"])


def me(state: FistState, seat: int) -> dict[str, Any]:
    return dict(full(state)["players_full"][seat])


def stones(state: FistState, seat: int) -> str:
    return stones_text(state.players[seat].stones) or "-"


def bank(state: FistState) -> dict[str, Any]:
    return dict(full(state)["bank"])


def bank_stones(state: FistState) -> tuple[int, int, int]:
    s = bank(state)["stones"]
    return s["red"], s["blue"], s["yellow"]


def options(state: FistState) -> list[str]:
    seats = state.current_seats()
    assert len(seats) == 1, seats
    return [str(a) for a in state.legal_actions(seats[0])]


def offered(state: FistState) -> set[str]:
    """The options of the seat to decide (their order is not a rule)."""
    return set(options(state))


def odds(state: FistState) -> dict[str, float]:
    return {str(a): p for a, p in state.chance_outcomes()}


def deciding(state: FistState, seat: int, decision: str) -> None:
    f = full(state)
    assert f["phase"] == "decide"
    assert f["to_move"] == [seat]
    assert f["decision"] == decision


# ---------------------------------------------------------------------------- F6: Witch
def test_f6_witch_gives_black_coin_that_curses_a_later_auction() -> None:
    state = deal()
    bid_round(state, p0="f1 c0")
    assert me(state, 0)["black"] == 1
    act(state, "chance: card magician")
    assert "bid f0 c0 black" in [str(a) for a in state.legal_actions(0)]
    assert not any("black" in str(a) for a in state.legal_actions(1))
    bid_round(state, p0="f0 c0 black", p1="f3 c0")
    f = full(state)
    assert f["phase"] == "reveal" and f["winner"] is None  # F5.4: cursed, nobody wins
    assert me(state, 0)["black"] == 0
    assert me(state, 1)["silver"] == 5  # the Magician's power was not used
    assert me(state, 1)["fairy_spent"] == 3  # the bid is still spent (F5.3)


def test_f6_witch_unused_black_coin_returns_at_end_of_turn() -> None:
    state = deal()
    bid_round(state, p2="f2 c0")
    assert me(state, 2)["black"] == 1
    finish_turn(state)
    assert state.turn == 2
    assert me(state, 2)["black"] == 0
    assert me(state, 2)["fairy"] == 8


# ---------------------------------------------------------------------------- F6: Magician
def test_f6_magician_pays_any_four_stones_of_the_winners_choice_for_a_point() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"))
    auction(state, "red-dragon", p0="f1 c0")
    assert stones(state, 0) == "rrrby"
    before = bank_stones(state)
    auction(state, "magician", p0="f1 c0")
    deciding(state, 0, "choice")
    assert offered(state) == {"pay rrby", "pay rrrb", "pay rrry", "take"}
    act(state, "p0: pay rrby")
    assert me(state, 0)["score"] == 1
    assert stones(state, 0) == "r"
    assert bank_stones(state) == (before[0] + 2, before[1] + 1, before[2] + 1)
    assert phase(state) == "reveal"


def test_f6_magician_can_take_three_silver_instead() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"))
    auction(state, "magician", p0="f1 c0")
    assert offered(state) == {"pay rrby", "take"}
    act(state, "p0: take")
    assert me(state, 0)["silver"] == 8
    assert me(state, 0)["score"] == 0
    assert stones(state, 0) == "rrby"


# ---------------------------------------------------------------------------- F6: Sorcerer
def test_f6_sorcerer_pays_four_stones_of_one_colour_for_two_points() -> None:
    state = start(stones=("rrrr", "bbbb", "yyyy", "rrbb"))
    auction(state, "sorcerer", p0="f1 c0")
    deciding(state, 0, "choice")
    assert offered(state) == {"pay rrrr", "take"}
    act(state, "p0: pay rrrr")
    assert me(state, 0)["score"] == 2
    assert stones(state, 0) == "-"


def test_f6_sorcerer_gives_common_gold_at_once_without_four_alike() -> None:
    # only one option (take): the engine applies it without asking
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"))
    auction(state, "sorcerer", p0="f1 c0")
    assert phase(state) == "reveal"
    assert me(state, 0)["common"] == 3
    assert str(state.history[-1][1]) == "bid f0 c0"  # no decision entry was recorded


# ---------------------------------------------------------------------------- F6: Wizard
def test_f6_wizard_pays_one_stone_of_each_colour_for_a_point() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"))
    auction(state, "wizard", p0="f1 c0")
    assert offered(state) == {"pay rby", "take"}
    act(state, "p0: pay rby")
    assert me(state, 0)["score"] == 1
    assert stones(state, 0) == "r"
    # later the Magician has no four stones to pay with: the Silver is taken at once (F6)
    auction(state, "magician", p0="f1 c0")
    assert phase(state) == "reveal"
    assert me(state, 0)["silver"] == 8


def test_f6_wizard_can_take_three_silver() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"))
    auction(state, "wizard", p0="f1 c0")
    act(state, "p0: take")
    assert me(state, 0)["silver"] == 8
    assert stones(state, 0) == "rrby" and me(state, 0)["score"] == 0


def test_f6_wizard_without_one_of_each_colour_gives_silver_at_once() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"))
    auction(state, "wizard", p1="f1 c0")
    assert phase(state) == "reveal"
    assert me(state, 1)["silver"] == 8


# ---------------------------------------------------------------------------- F6: Dragons
@pytest.mark.parametrize(("card", "colour"), [("red-dragon", 0), ("blue-dragon", 1),
                                              ("yellow-dragon", 2)])
def test_f6_dragon_gives_one_stone_of_its_colour(card: str, colour: int) -> None:
    state = start()
    before_me, before_bank = me(state, 3)["stones"], bank_stones(state)
    auction(state, card, p3="f1 c0")
    name = ("red", "blue", "yellow")[colour]
    assert me(state, 3)["stones"][name] == before_me[name] + 1
    assert bank_stones(state)[colour] == before_bank[colour] - 1


def test_f6_f1_red_dragon_gives_nothing_when_the_bank_has_no_red() -> None:
    state = start(stones=SIX_NO_RED)
    assert bank_stones(state) == (0, 1, 11)
    auction(state, "red-dragon", p3="f1 c0")
    assert stones(state, 3) == "bbbb"
    assert phase(state) == "reveal"


# ---------------------------------------------------------------------------- F6: Thief
def test_f6_thief_second_highest_after_tie_break_is_best_silver_among_the_tied() -> None:
    state = start(stones=("rrby", "bbyy", "rryy", "rbby"))
    auction(state, "thief", p0="f2 c0", p1="f2 c0", p2="f1 c1", p3="f1 c0")
    assert full(state)["tie_break"] == [0, 1, 2]
    act(state, "p0: silver 3", "p1: silver 1", "p2: silver 2")
    deciding(state, 0, "steal")
    assert full(state)["second_highest"] == [2]
    # p3 bid 1 (second-highest of the sealed bids) but was not in the tie-break
    assert offered(state) == {"steal p2 red", "steal p2 yellow"}
    act(state, "p0: steal p2 yellow")
    assert stones(state, 0) == "rrbyy"
    assert stones(state, 2) == "rry"


def test_f6_thief_tie_break_with_two_second_best_silver_bids() -> None:
    state = start(stones=("rrby", "bbyy", "rryy", "rbby"))
    auction(state, "thief", p0="f2 c0", p1="f2 c0", p2="f2 c0")
    act(state, "p0: silver 3", "p1: silver 2", "p2: silver 2")
    assert full(state)["second_highest"] == [1, 2]
    assert offered(state) == {"steal p1 blue", "steal p1 yellow", "steal p2 red",
                              "steal p2 yellow"}
    act(state, "p0: steal p1 blue")
    assert stones(state, 1) == "byy"


def test_f6_thief_with_only_one_bidder_every_other_player_is_second() -> None:
    state = start(stones=("rrby", "bbyy", "rryy", "rbby"))
    auction(state, "thief", p2="f1 c0")
    assert full(state)["second_highest"] == [0, 1, 3]
    assert {o.split()[1] for o in options(state)} == {"p0", "p1", "p3"}
    act(state, "p2: steal p3 red")
    assert stones(state, 2) == "rrryy"
    assert stones(state, 3) == "bby"


def test_f6_thief_must_pick_a_victim_with_a_stone_when_any_has() -> None:
    state = start(stones=("rrry", "bbbb", "yyyy", "rrbb"), specials=("troll", "gnome"))
    auction(state, "troll", p3="f1 c0")
    act(state, "p3: colour blue")  # p1 has no stone now
    assert stones(state, 1) == "-"
    auction(state, "thief", p0="f3 c0")
    assert full(state)["second_highest"] == [1, 2, 3]
    assert offered(state) == {"steal p2 yellow", "steal p3 red"}  # never p1
    act(state, "p0: steal p3 red")
    assert stones(state, 0) == "rrrry"
    # second-highest p1 (no stone) and p2 (a stone): the only option is applied at once
    state2 = start(stones=("rrry", "bbbb", "yyyy", "rrbb"), specials=("troll", "gnome"))
    auction(state2, "troll", p3="f1 c0")
    act(state2, "p3: colour blue")
    auction(state2, "thief", p0="f3 c0", p1="f1 c0", p2="f1 c0")
    assert phase(state2) == "reveal"
    assert stones(state2, 0) == "rrryy"
    assert stones(state2, 2) == "yyy"
    assert str(state2.history[-1][1]) == "bid f0 c0"  # p3's bid: no decision recorded


def test_f6_thief_falls_back_to_common_gold_privately() -> None:
    state = start(stones=("rrry", "bbbb", "yyyy", "rrbb"), specials=("troll", "gnome"))
    auction(state, "troll", p3="f1 c0")
    act(state, "p3: colour blue")
    auction(state, "thief", p0="f3 c0", p1="f1 c0")
    # one stoneless second-highest bidder: the coin is taken at once
    assert phase(state) == "reveal"
    assert me(state, 1)["common"] == 1
    assert me(state, 0)["common"] == 3
    assert stones(state, 0) == "rrry"
    # F8: which coin left the screen is told to the two players only
    assert private(state, 0, "fist.thief.coin_taken")[-1]["coin"] == "common"
    assert private(state, 1, "fist.thief.coin_taken")[-1]["coin"] == "common"
    assert private(state, 2, "fist.thief.coin_taken") == []
    assert all(e.code != "fist.thief.coin_taken" for _, e in state.events_for(None))
    assert ("fist.thief.coin", {"seat": 0, "victim": 1}) in [
        (e.code, e.params) for _, e in state.events_for(2)]


def test_f6_thief_falls_back_to_unspent_fairy_gold_when_no_common() -> None:
    state = start(stones=("rrry", "bbbb", "yyyy", "rrbb"), specials=("troll", "gnome"))
    auction(state, "troll", p3="f1 c0")
    act(state, "p3: colour blue")
    auction(state, "thief", p0="f4 c0", p1="f1 c2")
    assert me(state, 1)["common"] == 0
    assert me(state, 1)["fairy"] == 6  # 8 - 1 bid - 1 stolen
    assert me(state, 0)["fairy"] == 5  # 8 - 4 bid + 1 stolen
    finish_turn(state)
    assert me(state, 0)["fairy"] == 9
    assert me(state, 1)["fairy"] == 7


def test_f6_thief_falls_back_to_spent_fairy_gold_which_returns_to_the_thief() -> None:
    state = start(stones=("rrry", "bbbb", "bbbb", "bbbb"), specials=("troll", "gnome"))
    auction(state, "troll", p1="f8 c2")
    act(state, "p1: colour blue")
    assert [stones(state, s) for s in range(4)] == ["rrry", "-", "-", "-"]
    assert (me(state, 1)["fairy"], me(state, 1)["common"]) == (0, 0)
    auction(state, "thief", p0="f1 c0")
    deciding(state, 0, "steal")
    assert offered(state) == {"steal p1 coin", "steal p2 coin", "steal p3 coin"}
    act(state, "p0: steal p1 coin")
    assert me(state, 1)["fairy_spent"] == 7
    assert me(state, 0)["fairy_spent"] == 2
    assert me(state, 1)["silver"] == 5  # Silver is never stolen
    assert private(state, 0, "fist.thief.coin_taken")[-1]["coin"] == "fairy_spent"
    finish_turn(state)
    assert me(state, 0)["fairy"] == 9
    assert me(state, 1)["fairy"] == 7


def test_f6_thief_takes_nothing_from_a_second_bidder_without_stone_or_gold() -> None:
    state = start(specials=("quack-wizard", "necromancer"))
    auction(state, "quack-wizard", p1="f0 c1")  # p1 gives up all its stones
    auction(state, "necromancer", p1="f8 c0")
    act(state, "p1: accept")  # all of p1's Fairy Gold goes to the bank for good
    auction(state, "thief", p0="f0 c1", p1="f0 c1")
    act(state, "p0: silver 1", "p1: silver 0")
    # the only second-highest bidder has no stone, no Common, no Fairy: nothing is taken
    assert phase(state) == "reveal"
    p1 = me(state, 1)
    assert (p1["fairy"], p1["fairy_spent"], p1["common"], stones(state, 1)) == (0, 0, 0, "-")
    p0 = me(state, 0)
    assert (p0["fairy"], p0["fairy_spent"], p0["common"]) == (8, 0, 1)
    assert private(state, 0, "fist.thief.coin_taken") == [
        {"seat": 0, "victim": 1, "coin": "none"}]


# ---------------------------------------------------------------------------- F7: simple gains
@pytest.mark.parametrize(("card", "gains"), [
    ("alchemist", {"common": 3}),
    ("gnome", {"common": 2, "silver": 2}),
    ("dwarf-4", {"silver": 4}),
    ("dwarf-5", {"silver": 5}),
    ("fairy", {"fairy": 1}),
])
def test_f7_gain_cards(card: str, gains: dict[str, int]) -> None:
    other = "goldsmith"
    state = start(specials=(card, other))
    before, before_bank = me(state, 1), bank(state)
    auction(state, card, p1="f1 c0")
    after, after_bank = me(state, 1), bank(state)
    for coin in ("fairy", "common", "silver"):
        extra = gains.get(coin, 0)
        spent = 1 if coin == "fairy" else 0
        assert after[coin] == before[coin] + extra - spent, coin
        assert after_bank[coin] == before_bank[coin] - extra, coin


def test_f7_fairy_gold_is_the_winners_own_after_the_turn() -> None:
    state = start(specials=("fairy", "fairy"))
    auction(state, "fairy", p0="f1 c0")
    auction(state, "fairy", p0="f2 c0")
    finish_turn(state)
    assert me(state, 0)["fairy"] == 10
    assert bank(state)["fairy"] == 28 - 2


def test_f7_alchemist_takes_three_common_gold_after_bids_reach_the_bank() -> None:
    state = start(specials=("alchemist", "gnome"))
    auction(state, "gnome", p0="f1 c0")  # bank common 7 -> 5
    auction(state, "sorcerer", p1="f1 c0", p2="f0 c2")  # p1 +1 (bank 4 + 2 = 6)
    assert bank(state)["common"] == 6
    auction(state, "alchemist", p3="f0 c2")  # bid Common goes to the bank first (F5.3)
    assert me(state, 3)["common"] == 3
    assert bank(state)["common"] == 5


# ---------------------------------------------------------------------------- F7: Ancient Dragon
def test_f7_ancient_dragon_takes_a_stone_of_a_chosen_colour() -> None:
    state = start(specials=("ancient-dragon", "ancient-dragon"))
    auction(state, "ancient-dragon", p0="f1 c0")
    deciding(state, 0, "colour_gain")
    assert offered(state) == {"colour red", "colour blue", "colour yellow"}
    act(state, "p0: colour yellow")
    assert stones(state, 0) == "rrbyy"


def test_f7_ancient_dragon_only_offers_colours_the_bank_has() -> None:
    state = start(stones=SIX_NO_RED, specials=("ancient-dragon", "ancient-dragon"))
    auction(state, "ancient-dragon", p0="f1 c0")
    assert offered(state) == {"colour blue", "colour yellow"}
    act(state, "p0: colour blue")
    assert bank_stones(state) == (0, 0, 11)
    # one colour left: it is given without a question
    auction(state, "ancient-dragon", p1="f1 c0")
    assert phase(state) == "reveal"
    assert stones(state, 1) == "rrrry"


# ---------------------------------------------------------------------------- F7: Brigand
def test_f7_brigand_takes_all_unspent_common_and_silver_privately() -> None:
    state = start(specials=("brigand", "gnome"))
    auction(state, "brigand", p0="f3 c0", p2="f1 c1")
    deciding(state, 0, "target")
    assert offered(state) == {"target p1", "target p2", "target p3"}
    act(state, "p0: target p2")
    assert (me(state, 2)["common"], me(state, 2)["silver"]) == (0, 0)
    assert me(state, 2)["fairy"] == 7  # Fairy Gold is not taken
    assert (me(state, 0)["common"], me(state, 0)["silver"]) == (3, 10)
    handed = {"seat": 0, "victim": 2, "common": 1, "silver": 5}
    assert private(state, 0, "fist.brigand.handed") == [handed]
    assert private(state, 2, "fist.brigand.handed") == [handed]
    assert private(state, 1, "fist.brigand.handed") == []


# ---------------------------------------------------------------------------- F7: Doppelganger
def test_f7_doppelganger_kept_then_doubles_the_witch_and_goes_to_the_discard_pile() -> None:
    state = start(specials=("doppelganger", "alchemist"))
    auction(state, "doppelganger", p0="f1 c0")
    f = full(state)
    assert f["doppelganger_holder"] == 0 and f["seats"][0]["doppelganger"]
    finish_turn(state)
    f = full(state)
    assert f["special_discard"] == ["alchemist"]  # the kept card is not discarded (F4.4)
    assert f["doppelganger_holder"] == 0
    act(state, "chance: card gnome", "chance: card fairy")
    bid_round(state, p0="f1 c0")  # the Witch of turn 2
    deciding(state, 0, "double")
    assert offered(state) == {"double", "single"}
    act(state, "p0: double")
    assert me(state, 0)["black"] == 2
    f = full(state)
    assert f["doppelganger_holder"] is None
    assert "doppelganger" in f["special_discard"]
    # two Black coins, but only one per bid (F6)
    act(state, "chance: card magician")
    assert "bid f0 c0 black" in [str(a) for a in state.legal_actions(0)]
    bid_round(state, p0="f0 c0 black", p1="f2 c0")
    assert me(state, 0)["black"] == 1
    assert full(state)["winner"] is None


def test_f7_doppelganger_single_keeps_the_card() -> None:
    state = start(specials=("doppelganger", "alchemist"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "alchemist", p0="f1 c0")
    act(state, "p0: single")
    assert me(state, 0)["common"] == 5
    assert full(state)["doppelganger_holder"] == 0


def test_f7_doppelganger_on_goblin_draws_two_cards() -> None:
    state = start(specials=("doppelganger", "goblin"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "goblin", p0="f1 c0")
    act(state, "p0: double")
    assert phase(state) == "power_chance"
    assert len(odds(state)) == 7
    act(state, "chance: card red-dragon")
    assert phase(state) == "power_chance"
    assert "card red-dragon" not in odds(state)
    act(state, "chance: card blue-dragon")
    assert stones(state, 0) == "rrrbby"
    f = full(state)
    assert f["auctioned"][-3:] == ["goblin", "red-dragon", "blue-dragon"]
    assert "red-dragon" not in f["pile"] and "blue-dragon" not in f["pile"]
    assert phase(state) == "reveal"


def test_f7_doppelganger_is_held_until_the_doubled_power_is_done() -> None:
    """F7: the power is used twice, *then* the card is discarded: a doubled Ghost copying
    the Doppelganger finds it still held and gets nothing (docs/rulings.md)."""
    state = start(specials=("doppelganger", "ghost"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "ghost", p0="f1 c0")
    act(state, "p0: double")
    deciding(state, 0, "pick_ghost")
    assert full(state)["doppelganger_holder"] == 0
    act(state, "p0: pick doppelganger")  # held by p0 itself: nothing
    deciding(state, 0, "pick_ghost")
    assert full(state)["doppelganger_holder"] == 0
    act(state, "p0: pick witch")
    f = full(state)
    assert f["doppelganger_holder"] is None
    assert f["special_discard"].count("doppelganger") == 1
    assert me(state, 0)["black"] == 1


def test_f7_doppelganger_on_ghost_chooses_twice() -> None:
    state = start(specials=("doppelganger", "ghost"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "red-dragon")  # passed
    auction(state, "ghost", p0="f1 c0")
    act(state, "p0: double")
    deciding(state, 0, "pick_ghost")
    assert "pick red-dragon" in options(state)
    act(state, "p0: pick red-dragon")
    deciding(state, 0, "pick_ghost")
    act(state, "p0: pick red-dragon")
    assert stones(state, 0) == "rrrrby"
    assert phase(state) == "reveal"


def test_f7_doppelganger_on_thief_steals_twice() -> None:
    state = start(stones=("rrrr", "rbyy", "bbbb", "yyyy"), specials=("doppelganger", "gnome"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "thief", p0="f2 c0", p1="f1 c0")
    act(state, "p0: double")
    assert offered(state) == {"steal p1 red", "steal p1 blue", "steal p1 yellow"}
    act(state, "p0: steal p1 red")
    assert offered(state) == {"steal p1 blue", "steal p1 yellow"}
    act(state, "p0: steal p1 yellow")
    assert stones(state, 1) == "by"
    assert stones(state, 0) == "rrrrry"


def test_f7_doppelganger_is_never_offered_on_the_necromancer() -> None:
    state = start(specials=("doppelganger", "necromancer"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "necromancer", p0="f2 c0")
    deciding(state, 0, "necro")
    assert offered(state) == {"accept", "decline"}
    with pytest.raises(IllegalActionError):
        act(state, "p0: double")
    act(state, "p0: decline")
    assert full(state)["doppelganger_holder"] == 0


def test_f7_doppelganger_not_offered_on_a_cursed_auction() -> None:
    state = deal(specials=("doppelganger", "alchemist"))
    bid_round(state, p1="f1 c0")
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "alchemist", p0="f3 c0", p1="f0 c0 black")
    assert phase(state) == "reveal"
    assert me(state, 0)["common"] == 2
    assert full(state)["doppelganger_holder"] == 0


# ---------------------------------------------------------------------------- F7: Enchantress
def test_f7_enchantress_pays_any_five_stones_for_two_points() -> None:
    state = start(stones=("rrrr", "bbbb", "yyyy", "rrbb"), specials=("enchantress", "gnome"))
    auction(state, "yellow-dragon", p0="f1 c0")
    auction(state, "enchantress", p0="f1 c0")
    assert offered(state) == {"pay rrrry", "take"}
    act(state, "p0: pay rrrry")
    assert me(state, 0)["score"] == 2
    assert stones(state, 0) == "-"


def test_f7_enchantress_without_five_stones_gives_fairy_gold_at_once() -> None:
    state = start(specials=("enchantress", "gnome"))
    auction(state, "enchantress", p0="f1 c0")
    assert phase(state) == "reveal"
    assert me(state, 0)["fairy"] == 8


# ---------------------------------------------------------------------------- F7: Ghost
def test_f7_ghost_choices_include_cursed_passed_and_goblin_played_but_not_itself() -> None:
    state = deal(stones=("rrby", "bbbb", "yyyy", "rrbb"), specials=("ghost", "goblin"))
    bid_round(state, p1="f1 c0")  # Witch
    auction(state, "magician", p1="f0 c0 black", p2="f2 c0")  # cursed
    auction(state, "sorcerer")  # passed
    auction(state, "goblin", p2="f1 c0")
    act(state, "chance: card red-dragon")  # played by the Goblin, never auctioned
    assert stones(state, 2) == "ryyyy"
    auction(state, "ghost", p0="f1 c0")
    deciding(state, 0, "pick_ghost")
    assert offered(state) == {"pick witch", "pick magician", "pick sorcerer",
                                   "pick goblin", "pick red-dragon"}
    act(state, "p0: pick magician")
    assert offered(state) == {"pay rrby", "take"}
    act(state, "p0: take")
    assert me(state, 0)["silver"] == 8


def test_f7_ghost_right_after_the_witch_copies_it_at_once() -> None:
    state = start(specials=("ghost", "gnome"))
    auction(state, "ghost", p3="f1 c0")
    assert phase(state) == "reveal"  # the only choice (the Witch) is applied
    assert me(state, 3)["black"] == 1


def test_f7_ghost_copying_the_necromancer_pays_the_ghost_auctions_bid() -> None:
    state = start(specials=("ghost", "necromancer"))
    auction(state, "necromancer", p1="f2 c0")
    act(state, "p1: decline")
    auction(state, "ghost", p0="f3 c1", p2="f1 c0")
    act(state, "p0: pick necromancer")
    deciding(state, 0, "necro")
    act(state, "p0: accept")
    assert me(state, 0)["score"] == 1
    assert me(state, 0)["fairy_spent"] == 0
    assert me(state, 1)["fairy_spent"] == 2
    finish_turn(state)
    assert me(state, 0)["fairy"] == 5
    assert me(state, 1)["fairy"] == 8


def test_f7_ghost_copying_the_thief_uses_the_ghost_auctions_second_bidders() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"), specials=("ghost", "gnome"))
    auction(state, "thief", p1="f3 c0", p2="f1 c0")  # p2 has only yellow: taken at once
    assert stones(state, 1) == "bbbby"
    auction(state, "ghost", p0="f2 c0", p3="f1 c0")
    act(state, "p0: pick thief")
    assert offered(state) == {"steal p3 red", "steal p3 blue"}
    act(state, "p0: steal p3 blue")
    assert stones(state, 3) == "rrb"


def test_f7_ghost_copying_the_doppelganger_gives_it_when_nobody_holds_it() -> None:
    state = start(specials=("ghost", "doppelganger"))
    auction(state, "doppelganger")  # passed
    auction(state, "ghost", p2="f1 c0")
    act(state, "p2: pick doppelganger")
    assert full(state)["doppelganger_holder"] == 2
    finish_turn(state)
    assert full(state)["special_discard"] == ["ghost"]
    assert full(state)["doppelganger_holder"] == 2


def test_f7_ghost_copying_a_held_doppelganger_gives_nothing() -> None:
    state = start(specials=("ghost", "doppelganger"))
    auction(state, "doppelganger", p1="f1 c0")
    auction(state, "ghost", p2="f1 c0")
    act(state, "p2: pick doppelganger")
    assert full(state)["doppelganger_holder"] == 1
    assert phase(state) == "reveal"


# ---------------------------------------------------------------------------- F7: Goblin, Imp
def test_f7_goblin_draws_uniformly_and_the_card_is_not_auctioned_later() -> None:
    state = start(specials=("goblin", "alchemist"))
    auction(state, "goblin", p0="f1 c0")
    assert phase(state) == "power_chance"
    got = odds(state)
    assert len(got) == 8 and "card alchemist" in got
    assert all(p == pytest.approx(1 / 8) for p in got.values())
    act(state, "chance: card alchemist")
    assert me(state, 0)["common"] == 5
    assert phase(state) == "reveal"
    got = odds(state)
    assert "card alchemist" not in got and "card goblin" not in got
    assert all(p == pytest.approx(1 / 7) for p in got.values())
    with pytest.raises(IllegalActionError):
        act(state, "chance: card alchemist")
    finish_turn(state)
    assert full(state)["special_discard"] == ["alchemist", "goblin"]


def test_f7_goblin_drawing_the_ghost_may_copy_the_goblin_but_not_the_ghost() -> None:
    state = start(specials=("goblin", "ghost"))
    auction(state, "red-dragon")  # passed
    auction(state, "goblin", p1="f1 c0")
    act(state, "chance: card ghost")
    deciding(state, 1, "pick_ghost")
    assert offered(state) == {"pick witch", "pick red-dragon", "pick goblin"}
    act(state, "p1: pick goblin")  # the Goblin again: another random card
    assert phase(state) == "power_chance"
    assert "card ghost" not in odds(state)
    assert all(p == pytest.approx(1 / 6) for p in odds(state).values())
    act(state, "chance: card yellow-dragon")
    assert stones(state, 1) == "rbbyy"
    assert sorted(full(state)["pile"]) == ["blue-dragon", "magician", "sorcerer", "thief",
                                           "wizard"]


@pytest.mark.parametrize("card", ["goblin", "imp"])
def test_f7_goblin_or_imp_as_last_card_is_not_auctioned_and_the_turn_ends(card: str) -> None:
    state = start(specials=(card, "alchemist"))
    for other in ("magician", "sorcerer", "thief", "wizard", "red-dragon", "blue-dragon",
                  "yellow-dragon", "alchemist"):
        auction(state, other)
    act(state, f"chance: card {card}")
    f = full(state)
    assert f["turn"] == 2
    assert f["phase"] == "special"
    assert f["special_discard"] == sorted(["alchemist", card])
    assert state.history[-1][0] == CHANCE  # nobody bid on it


def test_f7_imp_chooses_among_the_cards_not_yet_auctioned() -> None:
    state = start(specials=("imp", "alchemist"))
    auction(state, "imp", p1="f1 c0")
    deciding(state, 1, "pick_imp")
    assert offered(state) == {"pick magician", "pick sorcerer", "pick thief",
                                   "pick wizard", "pick red-dragon", "pick blue-dragon",
                                   "pick yellow-dragon", "pick alchemist"}
    act(state, "p1: pick alchemist")
    assert me(state, 1)["common"] == 5
    assert "alchemist" not in full(state)["pile"]
    assert "card alchemist" not in odds(state)


def test_f7_imp_with_one_card_left_plays_it_and_the_turn_ends() -> None:
    state = start(specials=("imp", "alchemist"))
    for other in ("magician", "sorcerer", "thief", "wizard", "red-dragon", "blue-dragon",
                  "yellow-dragon"):
        auction(state, other)
    auction(state, "imp", p1="f1 c0")
    assert me(state, 1)["common"] == 5
    assert full(state)["turn"] == 2


# ---------------------------------------------------------------------------- F7: Goldsmith
def test_f7_goldsmith_amulet_is_kept_across_turns_until_bid() -> None:
    state = start(specials=("goldsmith", "alchemist"))
    auction(state, "goldsmith", p0="f1 c0")
    assert me(state, 0)["amulet"] == 1
    assert bank(state)["amulet"] == 1
    finish_turn(state)
    assert me(state, 0)["amulet"] == 1
    act(state, "chance: card gnome", "chance: card fairy")
    bid_round(state, p0="f1 c0 amulet", p1="f1 c0")  # the Witch: 2 x 1 beats 1
    assert me(state, 0)["black"] == 1
    assert me(state, 0)["amulet"] == 0
    assert bank(state)["amulet"] == 2  # once bid it returns to the bank


def test_f7_goldsmith_amulet_doubles_the_bid() -> None:
    state = start(specials=("goldsmith", "alchemist"))
    auction(state, "goldsmith", p0="f1 c0")
    auction(state, "alchemist", p0="f2 c0 amulet", p1="f3 c0")
    assert me(state, 0)["common"] == 5
    assert me(state, 0)["amulet"] == 0


# ---------------------------------------------------------------------------- F7: Merchant
def test_f7_merchant_buys_with_common_fairy_and_silver() -> None:
    state = start(specials=("merchant", "gnome"))
    bank_fairy = bank(state)["fairy"]
    auction(state, "merchant", p0="f1 c0")
    deciding(state, 0, "buy")
    assert "done" in options(state) and "buy red silver" in options(state)
    act(state, "p0: buy red common", "p0: buy blue fairy", "p0: buy yellow silver")
    p = me(state, 0)
    assert (p["common"], p["fairy"], p["silver"]) == (1, 6, 2)
    assert stones(state, 0) == "rrrbbyy"
    # 2 Silver left: no more Silver purchases
    assert not any(o.endswith("silver") for o in options(state))
    assert "buy yellow common" in options(state)
    act(state, "p0: done")
    assert phase(state) == "reveal"
    finish_turn(state)
    assert me(state, 0)["fairy"] == 7  # the Fairy paid went to the bank for good
    assert bank(state)["fairy"] == bank_fairy + 1


def test_f7_merchant_always_asks_even_when_only_done_is_left() -> None:
    state = start(stones=SIX_NO_RED, specials=("merchant", "gnome"))
    auction(state, "merchant", p0="f8 c2")
    # no Common, no unspent Fairy, 5 Silver; the bank has no red
    assert offered(state) == {"buy blue silver", "buy yellow silver", "done"}
    act(state, "p0: buy blue silver")
    deciding(state, 0, "buy")
    assert offered(state) == {"done"}
    act(state, "p0: done")
    assert stones(state, 0) == "rrrrb"


# ---------------------------------------------------------------------------- F7: Necromancer
def test_f7_necromancer_declined_keeps_the_fairy_gold_spent_as_usual() -> None:
    state = start(specials=("necromancer", "gnome"))
    auction(state, "necromancer", p0="f3 c1")
    deciding(state, 0, "necro")
    act(state, "p0: decline")
    assert me(state, 0)["score"] == 0
    finish_turn(state)
    assert me(state, 0)["fairy"] == 8
    assert me(state, 0)["common"] == 1  # bid Common goes to the bank anyway (F5.3)


def test_f7_necromancer_taken_pays_the_bid_fairy_gold_for_good_for_a_point() -> None:
    state = start(specials=("necromancer", "gnome"))
    bank_fairy = bank(state)["fairy"]
    auction(state, "necromancer", p0="f3 c1", p1="f2 c0")
    act(state, "p0: accept")
    assert me(state, 0)["score"] == 1
    assert bank(state)["fairy"] == bank_fairy + 3
    finish_turn(state)
    assert me(state, 0)["fairy"] == 5
    assert me(state, 1)["fairy"] == 8


# ---------------------------------------------------------------------------- F7: Quack Wizard
def test_f7_quack_wizard_pays_all_stones_then_is_free_with_none() -> None:
    state = start(specials=("quack-wizard", "quack-wizard"))
    before = bank_stones(state)
    auction(state, "quack-wizard", p0="f1 c0")
    assert phase(state) == "reveal"  # mandatory, no question
    assert me(state, 0)["score"] == 1
    assert stones(state, 0) == "-"
    assert bank_stones(state) == (before[0] + 2, before[1] + 1, before[2] + 1)
    auction(state, "quack-wizard", p0="f1 c0")
    assert me(state, 0)["score"] == 2


# ---------------------------------------------------------------------------- F7: Rainbow Dragon
def test_f7_rainbow_dragon_stop_keeps_the_drawn_stones() -> None:
    state = start(specials=("rainbow-dragon", "gnome"))
    auction(state, "rainbow-dragon", p0="f1 c0")
    deciding(state, 0, "colour_rainbow")
    assert offered(state) == {"colour red", "colour blue", "colour yellow"}
    r, b, y = bank_stones(state)
    act(state, "p0: colour red")
    got = odds(state)
    total = r + b + y
    assert got == pytest.approx({"stone red": r / total, "stone blue": b / total,
                                 "stone yellow": y / total})
    act(state, "chance: stone blue")
    deciding(state, 0, "rainbow_more")
    assert offered(state) == {"draw", "stop"}
    assert odds(state) == {}
    act(state, "p0: draw")
    assert odds(state) == pytest.approx({"stone red": r / (total - 1),
                                         "stone blue": (b - 1) / (total - 1),
                                         "stone yellow": y / (total - 1)})
    act(state, "chance: stone yellow", "p0: stop")
    assert stones(state, 0) == "rrbbyy"
    assert bank_stones(state) == (r, b - 1, y - 1)
    assert phase(state) == "reveal"


def test_f7_rainbow_dragon_bust_on_the_named_colour_returns_everything() -> None:
    state = start(specials=("rainbow-dragon", "gnome"))
    auction(state, "rainbow-dragon", p0="f1 c0")
    before = bank_stones(state)
    act(state, "p0: colour yellow", "chance: stone red", "p0: draw", "chance: stone blue",
        "p0: draw", "chance: stone yellow")
    assert stones(state, 0) == "rrby"
    assert bank_stones(state) == before
    assert phase(state) == "reveal"


def test_f7_rainbow_dragon_only_names_colours_the_bank_has() -> None:
    state = start(stones=SIX_NO_RED, specials=("rainbow-dragon", "gnome"))
    auction(state, "rainbow-dragon", p0="f1 c0")
    assert offered(state) == {"colour blue", "colour yellow"}
    with pytest.raises(IllegalActionError):
        act(state, "p0: colour red")
    act(state, "p0: colour yellow")
    assert odds(state) == pytest.approx({"stone blue": 1 / 12, "stone yellow": 11 / 12})
    act(state, "chance: stone blue")
    # the bag only holds yellow now: drawing again can only bust
    act(state, "p0: draw")
    assert odds(state) == {"stone yellow": 1.0}
    act(state, "chance: stone yellow")
    assert stones(state, 0) == "rrrr"
    assert bank_stones(state) == (0, 1, 11)


# ---------------------------------------------------------------------------- F7: Apprentice
def test_f7_sorcerers_apprentice_pays_two_of_a_colour_of_the_winners_choice() -> None:
    state = start(stones=("rrbb", "rbby", "rbyy", "rrby"),
                  specials=("sorcerers-apprentice", "sorcerers-apprentice"))
    auction(state, "sorcerers-apprentice", p0="f1 c0")
    deciding(state, 0, "pay")
    assert offered(state) == {"pay rr", "pay bb"}
    act(state, "p0: pay bb")
    assert me(state, 0)["score"] == 1
    # one pair left: paid at once (mandatory)
    auction(state, "sorcerers-apprentice", p0="f1 c0")
    assert phase(state) == "reveal"
    assert me(state, 0)["score"] == 2
    assert stones(state, 0) == "-"


def test_f7_sorcerers_apprentice_without_a_pair_does_nothing() -> None:
    state = start(stones=("rrby", "rbby", "rbyy", "rrbb"),
                  specials=("sorcerers-apprentice", "sorcerers-apprentice"))
    auction(state, "sorcerers-apprentice", p0="f1 c0")
    assert stones(state, 0) == "by" and me(state, 0)["score"] == 1
    auction(state, "sorcerers-apprentice", p0="f1 c0")
    assert stones(state, 0) == "by" and me(state, 0)["score"] == 1
    assert phase(state) == "reveal"


# ---------------------------------------------------------------------------- F7: Troll
def test_f7_troll_hits_every_player_including_the_winner() -> None:
    state = start(stones=("rrby", "rbby", "rbyy", "bbbb"), specials=("troll", "gnome"))
    auction(state, "troll", p0="f1 c0")
    deciding(state, 0, "colour_troll")
    assert offered(state) == {"colour red", "colour blue", "colour yellow"}
    act(state, "p0: colour blue")
    assert [stones(state, s) for s in range(4)] == ["rry", "ry", "ryy", "-"]
    assert bank_stones(state)[1] == 12


# ---------------------------------------------------------------------------- F7: Two-headed
def test_f7_two_headed_dragon_draws_two_from_a_bag_of_two_per_colour() -> None:
    state = start(specials=("two-headed-dragon", "gnome"))
    before = bank_stones(state)
    auction(state, "two-headed-dragon", p1="f1 c0")
    assert phase(state) == "power_chance"
    assert odds(state) == pytest.approx({"stone red": 1 / 3, "stone blue": 1 / 3,
                                         "stone yellow": 1 / 3})
    act(state, "chance: stone red")
    assert odds(state) == pytest.approx({"stone red": 1 / 5, "stone blue": 2 / 5,
                                         "stone yellow": 2 / 5})
    act(state, "chance: stone red")
    assert stones(state, 1) == "rrrbby"
    assert bank_stones(state) == (before[0] - 2, before[1], before[2])
    assert phase(state) == "reveal"


def test_f7_f1_two_headed_dragon_bag_limited_by_the_bank() -> None:
    state = start(stones=SIX_NO_RED, specials=("two-headed-dragon", "gnome"))
    auction(state, "two-headed-dragon", p0="f1 c0")
    assert odds(state) == pytest.approx({"stone blue": 1 / 3, "stone yellow": 2 / 3})
    act(state, "chance: stone blue")
    assert odds(state) == {"stone yellow": 1.0}
    with pytest.raises(IllegalActionError):
        act(state, "chance: stone red")
    act(state, "chance: stone yellow")
    assert stones(state, 0) == "rrrrby"
    assert bank_stones(state) == (0, 0, 10)


_ALL = {"fairy": 12, "common": 12, "silver": 12, "amulet": 2, "red": 12, "blue": 12,
        "yellow": 12}
HOARDER = {"id": "hoarder", "name": {"en": "Hoarder"}, "text": {"en": "Empty the bank."},
           "count": 1, "power": [{"gain": _ALL}, {"gain": _ALL}, {"gain": _ALL}]}


@pytest.mark.parametrize("card", ["two-headed-dragon", "ancient-dragon", "rainbow-dragon",
                                  "alchemist", "gnome", "dwarf-5", "fairy", "goldsmith",
                                  "enchantress", "merchant"])
def test_f1_f7_powers_give_only_what_the_bank_has_possibly_nothing(card: str) -> None:
    state = start(specials=("hoarder", card), custom=[HOARDER])
    auction(state, "hoarder", p3="f1 c0")
    b = bank(state)
    assert (b["fairy"], b["common"], b["silver"], b["amulet"]) == (0, 0, 0, 0)
    assert bank_stones(state) == (0, 0, 0)
    before = me(state, 0)
    auction(state, card, p0="f1 c0")
    if card == "merchant":
        assert offered(state) == {"done"}  # nothing to buy, but still asked
        act(state, "p0: done")
    assert phase(state) == "reveal"
    after = me(state, 0)
    assert after["fairy"] == before["fairy"] - 1
    for key in ("common", "silver", "amulet", "stones", "score"):
        assert after[key] == before[key], key


def test_f1_f6_sorcerer_and_magician_alternatives_limited_by_the_bank() -> None:
    state = start(specials=("hoarder", "gnome"), custom=[HOARDER])
    auction(state, "hoarder", p3="f1 c0")
    auction(state, "sorcerer", p0="f1 c0")  # no Common Gold in the bank: nothing
    assert me(state, 0)["common"] == 2
    auction(state, "magician", p0="f0 c2")  # the bid Common reaches the bank first (F5.3)
    act(state, "p0: take")
    assert me(state, 0)["silver"] == 5  # no Silver in the bank
    assert bank(state)["common"] == 2
    auction(state, "wizard", p1="f1 c0")
    act(state, "p1: take")  # the alternative, though the bank has no Silver to give
    assert me(state, 1)["silver"] == 5
    assert phase(state) == "reveal"


def test_f1_f6_black_coins_never_run_short() -> None:
    state = deal(specials=("doppelganger", "ghost"))
    bid_round(state, p0="f1 c0")  # the Witch
    auction(state, "doppelganger", p1="f1 c0")
    auction(state, "ghost", p1="f1 c0")
    act(state, "p1: double")
    assert offered(state) == {"pick witch", "pick doppelganger"}
    act(state, "p1: pick witch", "p1: pick witch")
    assert (me(state, 0)["black"], me(state, 1)["black"]) == (1, 2)  # a third is improvised
    assert bank(state)["black"] == 0
    finish_turn(state)
    assert bank(state)["black"] == 2
    assert [me(state, s)["black"] for s in range(4)] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------- F5.9 in a power
def test_f5_9_victory_in_the_middle_of_a_doubled_power_ends_the_game_at_once() -> None:
    state = start(stones=("rrrr", "bbbb", "yyyy", "rbby"),
                  specials=("necromancer", "doppelganger"))
    auction(state, "necromancer", p0="f1 c0")
    act(state, "p0: accept")
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "sorcerer", p0="f1 c0")
    act(state, "p0: double", "p0: pay rrrr")
    assert state.is_terminal()
    assert phase(state) == "over"
    assert state.current_seats() == ()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert me(state, 0)["score"] == 3
    # the second Sorcerer (which would give 1 Common Gold) never ran
    assert me(state, 0)["common"] == 2


# ---------------------------------------------------------------------------- F9: custom
def test_f9_shipped_examples_load_and_enter_the_special_deck() -> None:
    money = load_file("moneylender")
    storm = load_file("stormcaller")
    assert [c["id"] for c in money] == ["moneylender"]
    assert [c["id"] for c in storm] == ["stormcaller", "highwayman"]
    game = FistGame({"players": 4, "custom": money + storm})
    state = game.new_initial_state()
    for _ in range(16):
        act(state, "chance: stone red" if bank_stones(state)[0] else "chance: stone blue")
    got = odds(state)
    assert got["card moneylender"] == pytest.approx(1 / 29)
    assert got["card stormcaller"] == pytest.approx(1 / 29)
    assert got["card highwayman"] == pytest.approx(2 / 29)
    assert got["card fairy"] == pytest.approx(2 / 29)
    assert game.card("highwayman").custom


def test_f9_custom_card_power_works_in_play() -> None:
    custom = load_file("moneylender") + load_file("stormcaller")
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"), specials=("moneylender", "stormcaller"),
                  custom=custom)
    auction(state, "moneylender", p0="f1 c0")
    assert offered(state) == {"pay by", "pay rb", "pay rr", "pay ry", "take"}
    act(state, "p0: pay ry")
    assert me(state, 0)["score"] == 1 and stones(state, 0) == "rb"
    auction(state, "stormcaller", p1="f1 c0")
    act(state, "p1: colour blue")
    assert [stones(state, s) for s in range(4)] == ["r", "-", "yyyy", "rr"]
    assert offered(state) == {"colour red", "colour blue", "colour yellow"}
    act(state, "p1: colour red")
    assert stones(state, 1) == "r"


def test_f9_custom_steal_primitive_then_gain() -> None:
    state = start(stones=("rrby", "bbbb", "yyyy", "rrbb"), specials=("highwayman", "gnome"),
                  custom=load_file("stormcaller"))
    auction(state, "highwayman", p0="f2 c0", p2="f1 c0")
    # p2 has only yellow: the steal is applied at once, then 1 Silver
    assert stones(state, 0) == "rrbyy"
    assert me(state, 0)["silver"] == 6
    assert phase(state) == "reveal"


def test_f9_custom_card_that_plays_unauctioned_is_skipped_when_last() -> None:
    sprite = _char(id="sprite", power=[{"play_unauctioned": "choose"}, {"gain": {"silver": 1}}])
    state = start(specials=("sprite", "alchemist"), custom=[sprite])
    auction(state, "sprite", p2="f1 c0")
    act(state, "p2: pick red-dragon")
    assert me(state, 2)["silver"] == 6 and stones(state, 2) == "rrbyy"
    for other in ("magician", "sorcerer", "thief", "wizard", "blue-dragon", "yellow-dragon"):
        auction(state, other)
    auction(state, "alchemist")
    assert full(state)["turn"] == 2
    # the same card drawn last is skipped like the Goblin and Imp
    state = start(specials=("sprite", "alchemist"), custom=[sprite])
    for other in ("magician", "sorcerer", "thief", "wizard", "red-dragon", "blue-dragon",
                  "yellow-dragon", "alchemist"):
        auction(state, other)
    act(state, "chance: card sprite")
    assert full(state)["turn"] == 2


def test_f9_json_file_works(tmp_path: Any) -> None:
    path = tmp_path / "chars.json"
    path.write_text(json.dumps({"character": [{
        "id": "banker", "count": 2, "name": {"en": "Banker", "de": "Bankier"},
        "text": {"en": "Take 2 Silver and a Common Gold."},
        "power": [{"gain": {"silver": 2, "common": 1}}],
    }]}), encoding="utf-8")
    data = load_file(str(path))
    assert data[0]["id"] == "banker"
    state = start(specials=("banker", "banker"), custom=data)
    auction(state, "banker", p2="f1 c0")
    assert (me(state, 2)["silver"], me(state, 2)["common"]) == (7, 3)
    assert state.game.card("banker").name("de") == "Bankier"


@pytest.mark.parametrize(("step", "card"), [
    ({"gain": {"black": 1}}, "witch"),
    ({"gain": {"red": 1}}, "red-dragon"),
    ({"gain": {"common": 2, "silver": 2}}, "gnome"),
    ({"gain": {"amulet": 1}}, "goldsmith"),
    ({"gain_stone_choice": 1}, "ancient-dragon"),
    ({"pay_stones": {"count": 2, "pattern": "same", "points": 1}}, "sorcerers-apprentice"),
    ({"either": {"pay_stones": {"count": 3, "pattern": "each", "points": 1}},
      "or": {"gain": {"silver": 3}}}, "wizard"),
    ({"either": {"pay_stones": {"count": 5, "pattern": "any", "points": 2}},
      "or": {"gain": {"fairy": 1}}}, "enchantress"),
    ({"steal_from_second": True}, "thief"),
    ({"take_all_from": ["common", "silver"]}, "brigand"),
    ({"copy_auctioned": True}, "ghost"),
    ({"play_unauctioned": "random"}, "goblin"),
    ({"play_unauctioned": "choose"}, "imp"),
    ({"buy_stones": {"common": 1, "fairy": 1, "silver": 3}}, "merchant"),
    ({"necromancer": 1}, "necromancer"),
    ({"pay_all_stones": 1}, "quack-wizard"),
    ({"push_your_luck": True}, "rainbow-dragon"),
    ({"lose_colour": True}, "troll"),
    ({"bag_draw": {"per_colour": 2, "draws": 2}}, "two-headed-dragon"),
])
def test_f9_custom_primitives_are_the_built_in_cards_steps(step: dict[str, Any],
                                                            card: str) -> None:
    game = FistGame({"players": 4, "custom": [_char(power=[step])]})
    assert game.card("scribe").power == game.card(card).power
    assert game.card("scribe").custom and not game.card(card).custom


def _char(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "scribe", "count": 1, "name": {"en": "Scribe"},
                            "text": {"en": "Take 1 Silver."}, "power": [{"gain": {"silver": 1}}]}
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


@pytest.mark.parametrize(("data", "code", "params", "message"), [
    ([_char(power=[{"teleport": True}])], "fist.custom.unknown_primitive",
     {"id": "scribe", "step": 1, "primitive": "'teleport'"}, "unknown primitive 'teleport'"),
    ([_char(id="Bad Id")], "fist.custom.bad_id", {}, "id must be lower-case"),
    ([_char(id=7)], "fist.custom.bad_id", {"value": "7"}, "id must be lower-case"),
    ([_char(name=None)], "fist.custom.no_name", {}, "name needs at least an English name"),
    ([_char(name="Scribe")], "fist.custom.no_name", {}, "name needs at least an English name"),
    # F9: a text may be left out (the power is described), but is a table when given
    ([_char(text="Take 1 Silver.")], "fist.custom.no_text", {}, "text is a table of texts"),
    ([_char(count="two")], "fist.custom.number", {"key": "count"}, "count must be a whole"),
    ([_char(count=0)], "fist.custom.number", {"key": "count", "value": "0"}, "count must be"),
    ([_char(power={"gain": {"silver": 1}})], "fist.custom.no_power", {}, "power must be a list"),
    ([_char(power=[])], "fist.custom.no_power", {}, "power must be a list"),
    ([_char(power=[{"gain": {"silver": "lots"}}])], "fist.custom.number",
     {"key": "silver", "step": 1}, "silver must be a whole number"),
    ([_char(power=[{"gain": {"diamonds": 1}}])], "fist.custom.gain_keys", {},
     "gain takes some of"),
    ([_char(power=[{"gain": {"silver": 1}, "lose_colour": True}])],
     "fist.custom.one_primitive", {}, "one primitive per step"),
    ([_char(), _char()], "fist.option.custom_duplicate_id", {"id": "scribe"},
     "two share the id"),
    ([_char(id="thief")], "fist.custom.builtin_id", {"id": "thief"}, "belongs to a built-in"),
    ([_char(id="fairy")], "fist.custom.builtin_id", {}, "belongs to a built-in card"),
    (["scribe"], "fist.custom.not_a_table", {}, "each entry must be a table"),
    (_char(), "fist.option.custom_not_list", {}, "custom must be a list"),
])
def test_f9_bad_custom_data_raises_option_error(data: Any, code: str, params: dict[str, Any],
                                                message: str) -> None:
    """F9: a bad custom character is refused with a code, its params and the rule; the
    message is rendered from the catalogue in either language."""
    with pytest.raises(OptionError) as err:
        FistGame({"players": 4, "custom": data})
    assert err.value.code == code
    assert params.items() <= err.value.params.items()
    assert message in str(err.value)
    assert err.value.message("de") != str(err.value)  # rendered from the German catalogue
    assert err.value.rule == "F9" or code.startswith("fist.option.custom_not")


def test_f9_bad_custom_files_raise_option_error(tmp_path: Any) -> None:
    with pytest.raises(OptionError) as err:
        load_file(str(tmp_path / "missing.toml"))
    assert err.value.code == "fist.custom.no_file" and "no file" in str(err.value)
    assert err.value.params["examples"] == ["moneylender", "stormcaller"]
    broken = tmp_path / "broken.toml"
    broken.write_text("[[character]\nid = ", encoding="utf-8")
    with pytest.raises(OptionError, match="does not parse") as err:
        load_file(str(broken))
    assert err.value.code == "fist.custom.does_not_parse"
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    with pytest.raises(OptionError, match="no \\[\\[character\\]\\] entries") as err:
        load_file(str(empty))
    assert err.value.code == "fist.custom.no_characters"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([_char(power=[{"fly": 1}])]), encoding="utf-8")
    with pytest.raises(OptionError, match="unknown primitive 'fly'") as err:
        load_file(str(bad))
    assert err.value.rule == "F9"
    assert "unbekannter Baustein 'fly'" in err.value.message("de")


# ---------------------------------------------------------------------------- records
def _round_trip(state: FistState) -> FistState:
    record = finish_record(new_record(state.game, [{"name": f"P{s}"} for s in range(4)]), state)
    again = Record.from_json(json.loads(record.dumps()))
    _, replayed = replay(again)
    assert isinstance(replayed, FistState)
    assert replayed.full_state() == state.full_state()
    for seat in range(state.num_players):
        assert replayed.view(seat) == state.view(seat)
    return replayed


def test_records_round_trip_through_powers_and_turns() -> None:
    state = start(stones=("rrby", "bbyy", "rryy", "rbby"), specials=("doppelganger", "goblin"))
    auction(state, "doppelganger", p0="f1 c0")
    auction(state, "thief", p0="f2 c0", p1="f2 c0", p3="f0 c1")
    act(state, "p0: silver 2", "p1: silver 1", "p0: single", "p0: steal p1 blue")
    auction(state, "goblin", p2="f1 c0")
    act(state, "chance: card magician", "p2: take")
    finish_turn(state)
    act(state, "chance: card merchant", "chance: card necromancer")
    bid_round(state, p0="f1 c0")
    act(state, "p0: double")
    auction(state, "merchant", p3="f1 c1")
    act(state, "p3: buy red fairy", "p3: buy red silver", "p3: done")
    replayed = _round_trip(state)
    # the replayed state plays on exactly like the original
    for s in (state, replayed):
        auction(s, "necromancer", p0="f0 c0 black", p1="f3 c0")
    assert replayed.full_state() == state.full_state()


def test_records_round_trip_with_custom_cards_and_a_result() -> None:
    custom = load_file("moneylender")
    state = start(stones=("rrrr", "bbbb", "yyyy", "rbby"), specials=("moneylender", "alchemist"),
                  custom=custom)
    auction(state, "sorcerer", p0="f1 c0")
    act(state, "p0: pay rrrr")
    auction(state, "red-dragon", p0="f1 c0")
    auction(state, "blue-dragon", p0="f1 c0")
    auction(state, "moneylender", p0="f1 c0")
    act(state, "p0: pay rb")
    assert state.is_terminal()
    replayed = _round_trip(state)
    assert replayed.outcome() == state.outcome()


@pytest.mark.parametrize("seed", range(6))
def test_records_round_trip_random_games_with_custom_cards(seed: int) -> None:
    rng = random.Random(seed)
    custom = load_file("moneylender") + load_file("stormcaller")
    state = FistGame({"players": 3 + seed % 4, "custom": custom, "max_turns": 3}) \
        .new_initial_state()
    while not state.is_terminal():
        seats = state.current_seats()
        if seats[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            for seat in seats:
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
        check(state)
    record = finish_record(new_record(state.game, [{} for _ in range(state.num_players)]),
                           state)
    _, replayed = replay(Record.from_json(json.loads(record.dumps())))
    assert replayed.full_state() == state.full_state()


def test_f2_the_character_cards_and_their_german_names() -> None:
    """F2: 8 standard characters and 25 special cards, with the German names of F2."""
    from dragonlair.games.fist.cards import SPECIAL, STANDARD

    assert [c.name_en for c in STANDARD] == [
        "Witch", "Magician", "Sorcerer", "Thief", "Wizard", "Red Dragon", "Blue Dragon",
        "Yellow Dragon"]
    assert sum(c.count for c in STANDARD) == 8
    assert sum(c.count for c in SPECIAL) == 25
    german = {c.id: c.name_de for c in (*STANDARD, *SPECIAL)}
    assert german["witch"] == "Hexe" and german["sorcerer"] == "Zauberer"
    assert german["wizard"] == "Hexenmeister" and german["goblin"] == "Kobold"
    assert german["imp"] == "Wichtel" and german["quack-wizard"] == "Scharlatan"
    assert german["ghost"] == "Geist" and german["brigand"] == "Wegelagerer"
    assert german["two-headed-dragon"] == "Zweiköpfiger Drache"
    counts = {c.id: c.count for c in SPECIAL}
    for twice in ("ancient-dragon", "fairy", "quack-wizard", "sorcerers-apprentice",
                  "two-headed-dragon"):
        assert counts[twice] == 2
    assert counts["dwarf-4"] == counts["dwarf-5"] == 1
