"""Rules tests for Fist of Dragonstones: components and bank (F1), setup (F3), turns (F4),
auctions (F5) and hidden information (F8), as rulings in shared/rules/fist.md.

Positions are staged with hand-written record entries ("chance: card thief",
"p0: bid f2 c1", ...). Every entry applied through :func:`act` also checks the F1
conservation law (bank + players + spent bids = the box totals).
"""

from __future__ import annotations

import copy
import json

import pytest

from dragonlair.core.errors import IllegalActionError, MalformedActionError
from dragonlair.core.game import CHANCE
from dragonlair.games.fist.state import FistState, Phase
from tests.fist_helpers import events, new_table, play, private, pub

# F1: the box. Black Magic coins are not conserved (the bank never runs short of them).
F1_TOTALS = {"fairy": 60, "silver": 40, "common": 15, "amulet": 2,
             "red": 12, "blue": 12, "yellow": 12, "cards": 25}
STONES4 = ["rrby", "bbyy", "rryy", "rbyb"]
STONES6 = [*STONES4, "rbyr", "yrbb"]
COLOUR = {"r": "red", "b": "blue", "y": "yellow"}


# ---------------------------------------------------------------------------- helpers
def act(state: FistState, *entries: str) -> FistState:
    """Apply record entries one by one, checking F1 conservation after each."""
    for entry in entries:
        play(state, entry)
        assert state.totals() == F1_TOTALS, f"conservation broken after {entry!r}"
    return state


def deal(state: FistState, stones: list[str], specials: tuple[str, ...]) -> FistState:
    """F3.1 starting stones per seat, then the turn's specials (F4.1), as chance entries."""
    for hand in stones:
        for ch in hand:
            act(state, f"chance: stone {COLOUR[ch]}")
    for card in specials:
        act(state, f"chance: card {card}")
    return state


def table(specials: tuple[str, ...] = ("alchemist", "fairy"), players: int = 4,
          stones: list[str] | None = None, **options: object) -> FistState:
    """A table at the Witch auction of turn 1."""
    state = new_table(players, **options)
    if stones is None:
        stones = STONES6[:players]
    return deal(state, stones, specials)


def all_pass(state: FistState) -> FistState:
    """Every seat still to bid submits the empty fist."""
    return act(state, *[f"p{s}: bid f0 c0" for s in state.current_seats()])


def quiet_turn(state: FistState) -> FistState:
    """Finish the current turn with nobody bidding anything; chance reveals the first
    possible card each time. Stops at the next turn's special draw (or the game's end)."""
    turn = state.turn
    while state.turn == turn and not state.is_terminal():
        if state.is_chance():
            if state.phase == Phase.SPECIAL and not state.auctioned:
                break
            outcome = state.chance_outcomes()[0][0]
            act(state, f"chance: {outcome}")
        else:
            assert state.phase == Phase.BID
            all_pass(state)
    return state


def probs(state: FistState) -> dict[str, float]:
    return {str(a): p for a, p in state.chance_outcomes()}


def coins(state: FistState, seat: int) -> dict[str, int]:
    return state.full_state()["players_full"][seat]


def bank(state: FistState) -> dict[str, object]:
    return pub(state)["bank"]


# ---------------------------------------------------------------------------- F1
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f1_starting_totals_and_bank(players: int) -> None:
    """F1/F3.1: the box holds 60 Fairy, 40 Silver, 15 Common, 2 Amulets, 12 stones a colour;
    after setup the bank holds what no player holds."""
    state = new_table(players)
    assert state.totals() == F1_TOTALS
    assert bank(state)["stones"] == {"red": 12, "blue": 12, "yellow": 12}
    b = bank(state)
    assert (b["fairy"], b["common"], b["silver"], b["amulet"]) == (
        60 - 8 * players, 15 - 2 * players, 40 - 5 * players, 2)
    deal(state, STONES6[:players], ("alchemist", "fairy"))
    assert sum(bank(state)["stones"].values()) == 36 - 4 * players
    assert state.totals() == F1_TOTALS


def test_f1_conservation_through_a_busy_turn() -> None:
    """F1: bank + players + bids = the totals after every action of a turn with a Witch,
    a curse, a tie-break with an Amulet, a Thief, the Alchemist and the end of turn."""
    state = table(("goldsmith", "alchemist"))
    act(state,
        "p0: bid f2 c1", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0",  # Witch -> p0
        "chance: card goldsmith",
        "p0: bid f0 c0", "p1: bid f3 c0", "p2: bid f0 c1", "p3: bid f0 c0",  # -> p1 amulet
        "chance: card magician",
        "p0: bid f2 c0", "p1: bid f2 c0", "p2: bid f0 c0", "p3: bid f1 c0",  # tie p0/p1
        "p0: silver 2", "p1: silver 1 amulet",  # 2 vs 2: tie again, nobody wins
        "chance: card thief",
        "p0: bid f0 c0 black", "p1: bid f2 c1", "p2: bid f1 c0", "p3: bid f0 c0",  # cursed
        "chance: card alchemist",
        "p0: bid f4 c0", "p1: bid f0 c0", "p2: bid f2 c1", "p3: bid f2 c0",  # -> p0
        "chance: card wizard",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f1 c2",  # -> p3
        "p3: take")
    assert coins(state, 0)["common"] == 2 - 1 + 3
    quiet_turn(state)
    assert state.turn == 2 and state.phase == Phase.SPECIAL
    assert state.totals() == F1_TOTALS


def test_f1_bank_short_of_common_gold_gives_what_there_is() -> None:
    """F1: with 6 players the bank keeps 3 Common Gold; after the Gnome takes 2, the
    Alchemist gives the last 1 (not 3) and the Sorcerer's Common Gold gives nothing."""
    state = table(("gnome", "alchemist"), players=6)
    assert bank(state)["common"] == 3
    all_pass(state)  # the Witch is passed
    act(state, "chance: card gnome",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p4: bid f0 c0",
        "p5: bid f0 c0")
    assert coins(state, 0)["common"] == 4 and bank(state)["common"] == 1
    act(state, "chance: card alchemist",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p4: bid f0 c0",
        "p5: bid f0 c0")
    assert coins(state, 1)["common"] == 3
    assert bank(state)["common"] == 0
    # p2 holds rryy: no 4 stones of one colour, so the Sorcerer gives Common Gold - none left
    act(state, "chance: card sorcerer",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0", "p4: bid f0 c0",
        "p5: bid f0 c0")
    assert coins(state, 2)["common"] == 2
    assert bank(state)["common"] == 0
    assert state.phase == Phase.REVEAL


def test_f1_bank_short_of_silver_six_players() -> None:
    """F1: 6 players leave 10 Silver in the bank; Magician 3, Dwarf 5, then the 4-Silver
    Dwarf gets only the last 2 and the Wizard's 3 Silver give nothing."""
    state = table(("dwarf-5", "dwarf-4"), players=6)
    assert bank(state)["silver"] == 10
    all_pass(state)
    rest = ["p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p4: bid f0 c0", "p5: bid f0 c0"]
    act(state, "chance: card magician", "p0: bid f1 c0", *rest, "p0: take")
    assert coins(state, 0)["silver"] == 8 and bank(state)["silver"] == 7
    act(state, "chance: card dwarf-5",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p4: bid f0 c0",
        "p5: bid f0 c0")
    assert coins(state, 1)["silver"] == 10 and bank(state)["silver"] == 2
    act(state, "chance: card dwarf-4",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0", "p4: bid f0 c0",
        "p5: bid f0 c0")
    assert coins(state, 2)["silver"] == 7 and bank(state)["silver"] == 0
    act(state, "chance: card wizard",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f1 c0", "p4: bid f0 c0",
        "p5: bid f0 c0", "p3: take")
    assert coins(state, 3)["silver"] == 5 and bank(state)["silver"] == 0


def test_f1_bank_without_a_colour_gives_no_stone() -> None:
    """F1: the players hold all 12 red stones: the Red Dragon gives nothing."""
    state = table(stones=["rrrr", "rrrr", "rrrr", "bbyy"])
    assert bank(state)["stones"]["red"] == 0
    all_pass(state)
    act(state, "chance: card red-dragon",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f1 c0")
    assert coins(state, 3)["stones"] == {"red": 0, "blue": 2, "yellow": 2}
    assert state.phase == Phase.REVEAL


def test_f1_black_magic_coins_never_short_three_in_play() -> None:
    """F1/F6/F7: the Witch gives p0 a Black coin; p1, holding the Doppelganger, wins the
    Ghost, plays the Doppelganger and copies the Witch twice: three Black coins at once.
    They can all be bid; unused ones go back at the end of the turn (F4.4)."""
    state = table(("doppelganger", "ghost"))
    act(state, "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card doppelganger",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    assert state.doppel_holder == 1
    act(state, "chance: card ghost",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "p1: double", "p1: pick witch", "p1: pick witch")
    assert [coins(state, s)["black"] for s in range(4)] == [1, 2, 0, 0]
    assert state.doppel_holder is None
    act(state, "chance: card red-dragon",
        "p0: bid f0 c0 black", "p1: bid f0 c0 black", "p2: bid f2 c0", "p3: bid f0 c0")
    assert [coins(state, s)["black"] for s in range(4)] == [0, 1, 0, 0]
    assert state.phase == Phase.REVEAL  # cursed: nobody took the red stone
    assert coins(state, 2)["stones"]["red"] == 2
    act(state, "chance: card blue-dragon",
        "p0: bid f0 c0", "p1: bid f0 c0 black", "p2: bid f0 c0", "p3: bid f0 c0")
    assert coins(state, 1)["black"] == 0


def test_f1_unused_black_coin_returns_at_end_of_turn() -> None:
    """F1/F4.4: an unused Black coin goes back to the bank when the turn ends."""
    state = table()
    act(state, "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0")
    assert coins(state, 2)["black"] == 1
    assert bank(state)["black"] == 1
    quiet_turn(state)
    assert state.turn == 2
    assert coins(state, 2)["black"] == 0
    assert bank(state)["black"] == 2


# ---------------------------------------------------------------------------- F3
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f3_1_each_player_starts_with_coins_and_four_stones(players: int) -> None:
    """F3.1: 8 Fairy, 2 Common, 5 Silver, 4 stones, score 0, nothing else."""
    state = table(players=players)
    for s in range(players):
        p = coins(state, s)
        assert (p["fairy"], p["common"], p["silver"]) == (8, 2, 5)
        assert (p["fairy_spent"], p["black"], p["amulet"], p["score"]) == (0, 0, 0, 0)
        assert sum(p["stones"].values()) == 4
    assert [coins(state, 0)["stones"][c] for c in ("red", "blue", "yellow")] == [2, 1, 1]


def test_f3_1_stone_draw_probabilities_follow_the_bag() -> None:
    """F3.1: each starting stone is a chance event weighted by the bag's contents."""
    state = new_table(4)
    assert state.is_chance()
    assert probs(state) == pytest.approx(
        {"stone red": 1 / 3, "stone blue": 1 / 3, "stone yellow": 1 / 3})
    act(state, "chance: stone red")
    assert probs(state) == pytest.approx(
        {"stone red": 11 / 35, "stone blue": 12 / 35, "stone yellow": 12 / 35})
    act(state, *["chance: stone red"] * 11)
    assert probs(state) == pytest.approx({"stone blue": 0.5, "stone yellow": 0.5})
    before = state.full_state()
    with pytest.raises(IllegalActionError):
        act(state, "chance: stone red")
    assert state.full_state() == before
    # seats 0, 1 and 2 got four red stones each, in deal order
    assert [coins(state, s)["stones"]["red"] for s in range(4)] == [4, 4, 4, 0]


def test_f3_2_specials_come_from_the_special_deck() -> None:
    """F3.2/F4.1: the turn's specials are drawn from the 25 special cards, weighted by
    copies; the Witch and standard characters are never drawn there."""
    state = new_table(4)
    for hand in STONES4:
        for ch in hand:
            act(state, f"chance: stone {COLOUR[ch]}")
    assert state.phase == Phase.SPECIAL
    p = probs(state)
    assert sum(p.values()) == pytest.approx(1)
    assert len(p) == 20  # 20 different special characters, 25 cards
    assert p["card ancient-dragon"] == pytest.approx(2 / 25)
    assert p["card alchemist"] == pytest.approx(1 / 25)
    for standard in ("witch", "magician", "thief", "red-dragon"):
        assert f"card {standard}" not in p
    with pytest.raises(IllegalActionError):
        act(state, "chance: card witch")
    act(state, "chance: card ancient-dragon")
    p = probs(state)
    assert p["card ancient-dragon"] == pytest.approx(1 / 24)
    assert p["card alchemist"] == pytest.approx(1 / 24)
    act(state, "chance: card ancient-dragon")
    assert state.phase == Phase.BID
    assert pub(state)["turn_specials"] == ["ancient-dragon", "ancient-dragon"]
    assert pub(state)["special_deck_size"] == 23


# ---------------------------------------------------------------------------- F4
def test_f4_3_witch_is_auctioned_first_every_turn() -> None:
    """F4.3: the Witch is up for auction before any card is revealed, every turn."""
    state = table()
    v = pub(state)
    assert v["card"] == "witch" and state.view(None)["phase"] == "bid"
    assert v["auctioned"] == ["witch"]
    assert "witch" not in v["pile"]
    quiet_turn(state)
    act(state, "chance: card gnome", "chance: card troll")
    v = pub(state)
    assert (state.turn, v["card"], state.view(None)["phase"], v["auctioned"]) == (
        2, "witch", "bid", ["witch"])


def test_f4_2_pile_is_the_other_standards_plus_specials_revealed_uniformly() -> None:
    """F4.2: the pile holds the 7 standard cards other than the Witch and the 2 specials;
    each reveal is uniform over the cards not yet auctioned this turn."""
    state = table(("brigand", "gnome"))
    assert sorted(pub(state)["pile"]) == sorted(
        ["magician", "sorcerer", "thief", "wizard", "red-dragon", "blue-dragon",
         "yellow-dragon", "brigand", "gnome"])
    all_pass(state)
    p = probs(state)
    assert len(p) == 9 and all(x == pytest.approx(1 / 9) for x in p.values())
    assert "card witch" not in p
    act(state, "chance: card gnome")
    all_pass(state)
    p = probs(state)
    assert len(p) == 8 and all(x == pytest.approx(1 / 8) for x in p.values())
    assert "card gnome" not in p
    for card in ("gnome", "witch", "alchemist"):
        before = state.full_state()
        with pytest.raises(IllegalActionError) as err:
            act(state, f"chance: card {card}")
        assert err.value.rule == "F4.2"
        assert state.full_state() == before


def test_f4_2_two_copies_of_a_special_weigh_double() -> None:
    """F4.2: with both Fairies drawn, a Fairy is revealed with probability 2/9."""
    state = table(("fairy", "fairy"))
    all_pass(state)
    p = probs(state)
    assert p["card fairy"] == pytest.approx(2 / 9)
    assert p["card thief"] == pytest.approx(1 / 9)
    act(state, "chance: card fairy")
    all_pass(state)
    assert probs(state)["card fairy"] == pytest.approx(1 / 8)


def test_f4_turn_is_ten_auctions() -> None:
    """F4: Witch + 7 standard + 2 specials = ten auctions, then the next turn."""
    state = table(("gnome", "alchemist"))
    quiet_turn(state)
    bids = [a for s, a in state.history if s == 0]
    assert len(bids) == 10
    reveals = [str(a) for s, a in state.history[16:] if s == CHANCE]
    assert reveals[:2] == ["card gnome", "card alchemist"]
    assert len(reveals) == 2 + 9
    assert state.turn == 2 and state.phase == Phase.SPECIAL


def test_f4_4_end_of_turn_returns_fairy_and_discards_specials() -> None:
    """F4.4: bid Fairy Gold comes back, Common Gold bid stays in the bank, unused Black
    coins go back, and the turn's specials go to the special discard pile."""
    state = table(("alchemist", "fairy"))
    act(state, "p0: bid f2 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card alchemist",
        "p0: bid f0 c0", "p1: bid f3 c1", "p2: bid f1 c0", "p3: bid f0 c0",
        "chance: card fairy",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f5 c0", "p3: bid f0 c0")
    assert coins(state, 1)["fairy"] == 5 and coins(state, 1)["fairy_spent"] == 3
    assert coins(state, 2)["fairy"] == 8 - 1 - 5 + 1
    quiet_turn(state)
    assert state.turn == 2 and state.phase == Phase.SPECIAL
    p0, p1, p2 = coins(state, 0), coins(state, 1), coins(state, 2)
    assert (p0["fairy"], p0["fairy_spent"], p0["black"]) == (8, 0, 0)
    assert (p1["fairy"], p1["fairy_spent"], p1["common"]) == (8, 0, 2 - 1 + 3)
    assert p2["fairy"] == 9  # the Fairy's coin is p2's own from now on
    v = pub(state)
    assert v["special_discard"] == ["alchemist", "fairy"]
    assert v["turn_specials"] == [] and v["special_deck_size"] == 23
    assert "alchemist" not in state.full_state()["special_deck"]


def test_f4_4_kept_doppelganger_is_not_discarded() -> None:
    """F4.4: a Doppelganger kept by a player stays in front of them across the turn end."""
    state = table(("doppelganger", "gnome"))
    all_pass(state)
    act(state, "chance: card doppelganger",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f1 c0")
    quiet_turn(state)
    v = pub(state)
    assert v["special_discard"] == ["gnome"]
    assert v["doppelganger_holder"] == 3
    assert v["seats"][3]["doppelganger"] is True
    assert "doppelganger" not in state.full_state()["special_deck"]
    assert v["special_deck_size"] == 23


def test_f4_1_special_deck_reshuffles_discard_pile_when_empty() -> None:
    """F4.1: after 12 turns the deck holds one card; turn 13 draws it, then the discard pile
    (the 24 cards of turns 1-12, not the one just drawn) becomes the new deck."""
    state = table(players=3, stones=["rrby", "bbyy", "rryy"], specials=())
    for _ in range(12):
        if state.phase == Phase.SPECIAL:
            for _ in range(2):
                act(state, f"chance: {state.chance_outcomes()[0][0]}")
        quiet_turn(state)
    assert state.turn == 13 and state.phase == Phase.SPECIAL
    v = pub(state)
    assert v["special_deck_size"] == 1 and len(v["special_discard"]) == 24
    (last, p), = state.chance_outcomes()
    assert p == 1
    act(state, f"chance: {last}")
    v = pub(state)
    assert v["special_deck_size"] == 24 and v["special_discard"] == []
    p = probs(state)
    assert sum(p.values()) == pytest.approx(1)
    last_id = str(last).removeprefix("card ")
    assert p[str(last)] == pytest.approx(1 / 24)  # only the copy discarded earlier
    assert p["card ancient-dragon"] == pytest.approx(2 / 24)
    act(state, "chance: card ancient-dragon")
    v = pub(state)
    assert v["turn_specials"] == [last_id, "ancient-dragon"]
    assert v["special_deck_size"] == 23 and v["card"] == "witch"
    assert state.view(None)["phase"] == "bid"


def test_f4_1_fewer_than_two_specials_the_turn_uses_what_there_is() -> None:
    """F4.1: staged deck (not reachable with the 25 box cards): a single special card in
    the whole deck gives turns of nine auctions; the discard is reshuffled each turn."""
    state = new_table(4)
    alchemist = state.game.card_ids.index("alchemist")
    state.special_deck = [1 if k == alchemist else 0 for k in range(len(state.cards))]
    for hand in STONES4:
        for ch in hand:
            play(state, f"chance: stone {COLOUR[ch]}")
    assert probs(state) == {"card alchemist": 1.0}
    play(state, "chance: card alchemist")
    v = pub(state)
    assert v["card"] == "witch" and len(v["pile"]) == 8 and "alchemist" in v["pile"]
    turn = state.turn
    n = len(state.history)
    while state.turn == turn:
        if state.is_chance():
            play(state, f"chance: {state.chance_outcomes()[0][0]}")
        else:
            play(state, *[f"p{s}: bid f0 c0" for s in state.current_seats()])
    assert sum(1 for s, _ in state.history[n:] if s == 0) == 9
    assert state.phase == Phase.SPECIAL and probs(state) == {"card alchemist": 1.0}
    play(state, "chance: card alchemist")
    assert pub(state)["card"] == "witch"


def test_f4_1_no_special_at_all_the_turn_has_the_standard_cards_only() -> None:
    """F4.1: staged empty special deck and discard: the turn is the Witch and 7 standards."""
    state = new_table(3)
    state.special_deck = [0] * len(state.cards)
    for hand in ["rrby", "bbyy", "rryy"]:
        for ch in hand:
            play(state, f"chance: stone {COLOUR[ch]}")
    v = pub(state)
    assert v["card"] == "witch" and state.view(None)["phase"] == "bid" and len(v["pile"]) == 7


# ---------------------------------------------------------------------------- F5
def test_f5_1_empty_bid_is_legal() -> None:
    """F5.1: the empty fist (bid f0 c0) is always a legal bid."""
    state = table()
    legal = [str(a) for a in state.legal_actions(0)]
    assert "bid f0 c0" in legal
    assert "bid f8 c2" in legal and "bid f9 c0" not in legal and "bid f0 c3" not in legal
    assert not any("black" in a or "amulet" in a for a in legal)
    act(state, "p0: bid f0 c0")
    assert state.current_seats() == (1, 2, 3)


def test_f5_2_amulet_doubles_the_bid() -> None:
    """F5.2: Fairy + Common doubled by the Amulet: f2 c1 amulet (6) beats f5 (5)."""
    state = table(("goldsmith", "gnome"))
    all_pass(state)
    act(state, "chance: card goldsmith",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    assert coins(state, 0)["amulet"] == 1 and bank(state)["amulet"] == 1
    assert state.phase == Phase.REVEAL and state.legal_actions(0) == ()
    act(state, "chance: card red-dragon")
    assert "bid f2 c1 amulet" in [str(a) for a in state.legal_actions(0)]
    assert not any("amulet" in str(a) for a in state.legal_actions(1))
    act(state, "p0: bid f2 c1 amulet", "p1: bid f5 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    assert coins(state, 0)["stones"]["red"] == 3  # p0 won the Red Dragon
    assert coins(state, 1)["stones"]["red"] == 0
    assert coins(state, 0)["amulet"] == 0 and bank(state)["amulet"] == 2  # F5.3


def test_f5_2_amulet_does_not_beat_a_higher_plain_bid() -> None:
    """F5.2: f1 c1 amulet (4) loses to f5 (5)."""
    state = table(("goldsmith", "gnome"))
    all_pass(state)
    act(state, "chance: card goldsmith",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card blue-dragon",
        "p0: bid f1 c1 amulet", "p1: bid f0 c0", "p2: bid f5 c0", "p3: bid f0 c0")
    assert coins(state, 2)["stones"]["blue"] == 1
    assert coins(state, 0)["stones"]["blue"] == 1
    assert coins(state, 0)["amulet"] == 0 and coins(state, 0)["common"] == 1


def test_f5_3_common_black_and_amulet_go_to_the_bank_whoever_wins() -> None:
    """F5.3: at the reveal, every bid's Common Gold, Black coin and Amulet go to the bank,
    the winner's and the losers' alike; bid Fairy Gold is spent, not paid."""
    state = table(("goldsmith", "gnome"))
    act(state, "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card goldsmith",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    before = bank(state)
    act(state, "chance: card yellow-dragon",
        "p0: bid f1 c1 amulet", "p1: bid f0 c2", "p2: bid f4 c1", "p3: bid f0 c1")
    # p2 wins with 5 over p0's 4; the curse is not used (p1 bid no Black coin)
    assert coins(state, 2)["stones"]["yellow"] == 3
    after = bank(state)
    assert after["common"] == before["common"] + 1 + 2 + 1 + 1
    assert after["amulet"] == before["amulet"] + 1
    assert after["fairy"] == before["fairy"]  # Fairy Gold is spent, not paid
    assert coins(state, 2)["fairy_spent"] == 4 and coins(state, 2)["fairy"] == 4
    assert [coins(state, s)["common"] for s in range(4)] == [1, 0, 1, 1]
    # a cursing Black coin goes too, and so do the curser's coins
    act(state, "chance: card red-dragon",
        "p0: bid f0 c0", "p1: bid f0 c0 black", "p2: bid f0 c1", "p3: bid f0 c0")
    assert coins(state, 1)["black"] == 0
    assert bank(state)["common"] == after["common"] + 1


def test_f5_3_spent_fairy_cannot_be_bid_again_this_turn() -> None:
    """F5.3/F4.4: Fairy Gold bid is spent for the rest of the turn (the legal bids shrink)
    whether or not its bidder won, and comes back the next turn."""
    state = table()
    act(state, "p0: bid f5 c0", "p1: bid f6 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card thief")
    legal0 = [str(a) for a in state.legal_actions(0)]
    assert "bid f3 c2" in legal0 and "bid f4 c0" not in legal0
    legal1 = [str(a) for a in state.legal_actions(1)]
    assert "bid f2 c0 black" in legal1 and "bid f3 c0" not in legal1
    before = state.full_state()
    with pytest.raises(IllegalActionError) as err:
        act(state, "p0: bid f4 c0")
    assert err.value.rule == "F5.1" and "3 unspent" in str(err.value)
    assert (err.value.code, err.value.params) == (
        "fist.bid.exceeds_unspent", {"seat": 0, "coin": "fairy", "bid": 4, "have": 3})
    assert state.full_state() == before
    quiet_turn(state)
    act(state, "chance: card gnome", "chance: card troll")
    assert "bid f8 c2" in [str(a) for a in state.legal_actions(0)]


def test_f5_4_curse_ends_auction_and_still_spends_gold() -> None:
    """F5.4: a Black coin in any bid curses the card: nobody wins even against gold bids,
    the coins bid are spent or paid as usual (F5.3), and the card counts as auctioned."""
    state = table()
    act(state, "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card red-dragon",
        "p0: bid f0 c0 black", "p1: bid f3 c1", "p2: bid f2 c0", "p3: bid f0 c0")
    assert state.phase == Phase.REVEAL and pub(state)["winner"] is None
    assert [coins(state, s)["stones"]["red"] for s in range(4)] == [2, 0, 2, 1]
    assert coins(state, 1)["fairy_spent"] == 3 and coins(state, 1)["common"] == 1
    assert coins(state, 0)["black"] == 0
    assert "red-dragon" in pub(state)["auctioned"]
    assert "red-dragon" not in pub(state)["pile"]


def test_f5_4_curse_with_gold_the_curser_wins_nothing() -> None:
    """F5.4: the highest bid carries the Black coin itself: still no winner."""
    state = table()
    act(state, "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card blue-dragon",
        "p0: bid f4 c2 black", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0")
    assert state.phase == Phase.REVEAL
    assert coins(state, 0)["stones"]["blue"] == 1 and coins(state, 2)["stones"]["blue"] == 0
    assert coins(state, 0)["fairy_spent"] == 5 and coins(state, 0)["common"] == 0


def test_f5_4_curse_means_no_tie_break() -> None:
    """F5.4: a cursed auction with tied high bids holds no tie-break."""
    state = table()
    act(state, "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f1 c0",
        "chance: card magician",
        "p0: bid f3 c0", "p1: bid f2 c1", "p2: bid f0 c0", "p3: bid f0 c0 black")
    assert state.phase == Phase.REVEAL and pub(state)["tie_break"] == []
    assert coins(state, 0)["silver"] == 5 and coins(state, 1)["silver"] == 5


def test_f5_5_highest_zero_passes_the_card() -> None:
    """F5.5: all empty fists (an Amulet alone doubles nothing): the card is passed."""
    state = table(("goldsmith", "gnome"))
    all_pass(state)
    assert state.phase == Phase.REVEAL
    assert all(coins(state, s)["black"] == 0 for s in range(4))
    act(state, "chance: card goldsmith",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card gnome",
        "p0: bid f0 c0", "p1: bid f0 c0 amulet", "p2: bid f0 c0", "p3: bid f0 c0")
    assert state.phase == Phase.REVEAL
    assert coins(state, 1)["amulet"] == 0 and bank(state)["amulet"] == 2
    assert all(coins(state, s)["silver"] == 5 for s in range(4))  # nobody took the Gnome


def test_f5_6_unique_highest_wins() -> None:
    """F5.6: exactly one highest bid wins the card and uses its power at once."""
    state = table(("gnome", "alchemist"))
    act(state, "p0: bid f1 c0", "p1: bid f2 c0", "p2: bid f0 c1", "p3: bid f0 c1")
    assert coins(state, 1)["black"] == 1
    assert all(coins(state, s)["black"] == 0 for s in (0, 2, 3))
    act(state, "chance: card gnome",
        "p0: bid f1 c1", "p1: bid f0 c0", "p2: bid f3 c0", "p3: bid f2 c0")
    assert (coins(state, 2)["common"], coins(state, 2)["silver"]) == (3, 7)


def test_f5_7_tie_break_with_silver_only_among_the_tied() -> None:
    """F5.7: only the tied players bid again, Silver only; Silver bid goes to the bank."""
    state = table()
    all_pass(state)
    act(state, "chance: card red-dragon",
        "p0: bid f2 c0", "p1: bid f1 c1", "p2: bid f1 c0", "p3: bid f0 c0")
    v = pub(state)
    assert state.view(None)["phase"] == "tiebid" and v["tie_break"] == [0, 1]
    assert state.current_seats() == (0, 1)
    assert state.legal_actions(2) == ()
    assert [str(a) for a in state.legal_actions(0)] == [f"silver {n}" for n in range(6)]
    silver_bank = bank(state)["silver"]
    act(state, "p1: silver 3", "p0: silver 2")
    assert coins(state, 1)["stones"]["red"] == 1  # p1 won the Red Dragon
    assert coins(state, 0)["stones"]["red"] == 2
    assert (coins(state, 0)["silver"], coins(state, 1)["silver"]) == (3, 2)
    assert bank(state)["silver"] == silver_bank + 5
    assert state.phase == Phase.REVEAL


def test_f5_7_tie_break_amulet_doubles_silver() -> None:
    """F5.7: silver 2 amulet (4) beats silver 3; the Amulet goes to the bank."""
    state = table(("goldsmith", "gnome"))
    all_pass(state)
    act(state, "chance: card goldsmith",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0",
        "chance: card yellow-dragon",
        "p0: bid f0 c0", "p1: bid f2 c0", "p2: bid f2 c0", "p3: bid f1 c0")
    assert state.current_seats() == (1, 2)
    assert "silver 5 amulet" in [str(a) for a in state.legal_actions(2)]
    assert not any("amulet" in str(a) for a in state.legal_actions(1))
    act(state, "p1: silver 3", "p2: silver 2 amulet")
    assert coins(state, 2)["stones"]["yellow"] == 3
    assert coins(state, 1)["stones"]["yellow"] == 2
    assert coins(state, 2)["amulet"] == 0 and bank(state)["amulet"] == 2


def test_f5_7_tie_again_nobody_wins_and_silver_is_lost() -> None:
    """F5.7: a tie in the tie-break (even 2 against silver 1 amulet) means nobody wins; all
    Silver and Amulets bid still go to the bank."""
    state = table(("goldsmith", "gnome"))
    all_pass(state)
    act(state, "chance: card goldsmith",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card blue-dragon",
        "p0: bid f3 c0", "p1: bid f2 c1", "p2: bid f3 c0", "p3: bid f0 c0")
    assert state.current_seats() == (0, 1, 2)
    silver_bank = bank(state)["silver"]
    act(state, "p0: silver 1 amulet", "p1: silver 2", "p2: silver 1")
    assert state.phase == Phase.REVEAL and pub(state)["winner"] is None
    assert [coins(state, s)["stones"]["blue"] for s in range(4)] == [1, 2, 0, 2]
    assert bank(state)["silver"] == silver_bank + 4
    assert bank(state)["amulet"] == 2


def test_f5_7_tie_break_all_zero_nobody_wins() -> None:
    """F5.7: tied players who all bid no Silver: nobody wins."""
    state = table()
    all_pass(state)
    act(state, "chance: card wizard",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f4 c0", "p3: bid f4 c0",
        "p2: silver 0", "p3: silver 0")
    assert state.phase == Phase.REVEAL
    assert coins(state, 2)["silver"] == 5 and coins(state, 3)["silver"] == 5


def test_f5_second_highest_after_a_unique_winner() -> None:
    """F5 (second-highest): the non-winners with the highest value - here p1 and p2 at 2,
    not p3 at 1 - are the Thief's victims."""
    state = table()
    all_pass(state)
    act(state, "chance: card thief",
        "p0: bid f3 c0", "p1: bid f2 c0", "p2: bid f1 c1", "p3: bid f1 c0")
    v = pub(state)
    assert v["decision"] == "steal" and v["second_highest"] == [1, 2]
    assert [str(a) for a in state.legal_actions(0)] == [
        "steal p1 blue", "steal p1 yellow", "steal p2 red", "steal p2 yellow"]
    act(state, "p0: steal p2 red")
    assert coins(state, 0)["stones"]["red"] == 3 and coins(state, 2)["stones"]["red"] == 1


def test_f5_second_highest_when_only_the_winner_bid() -> None:
    """F5 (second-highest): when only the winner bid anything, every other player is
    second."""
    state = table()
    all_pass(state)
    act(state, "chance: card thief",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0")
    assert pub(state)["second_highest"] == [0, 1, 3]
    victims = {str(a).split()[1] for a in state.legal_actions(2)}
    assert victims == {"p0", "p1", "p3"}
    act(state, "p2: steal p3 yellow")
    assert coins(state, 2)["stones"]["yellow"] == 3


def test_f5_second_highest_after_a_tie_break() -> None:
    """F5 (second-highest): after a tie-break they are the other tie-break players with the
    highest Silver value (p1 at 2 Silver; not p2 at 0 nor p3, who was not in it)."""
    state = table()
    all_pass(state)
    act(state, "chance: card thief",
        "p0: bid f2 c0", "p1: bid f2 c0", "p2: bid f1 c1", "p3: bid f1 c0",
        "p0: silver 3", "p1: silver 2", "p2: silver 0")
    assert pub(state)["second_highest"] == [1]
    assert [str(a) for a in state.legal_actions(0)] == ["steal p1 blue", "steal p1 yellow"]


def test_f5_second_highest_after_a_tie_break_can_be_several() -> None:
    """F5 (second-highest): equal Silver among the tie-break's losers: all of them are
    second, and a player outside the tie-break never is (p3 bid nothing)."""
    state = table()
    all_pass(state)
    act(state, "chance: card thief",
        "p0: bid f2 c0", "p1: bid f1 c1", "p2: bid f2 c0", "p3: bid f0 c0",
        "p0: silver 3", "p1: silver 1", "p2: silver 1")
    assert pub(state)["winner"] == 0
    assert pub(state)["second_highest"] == [1, 2]
    victims = {str(a).split()[1] for a in state.legal_actions(0)}
    assert victims == {"p1", "p2"}


def test_f5_9_victory_at_three_ends_the_game_at_once() -> None:
    """F5.9: p0 scores 1 (Wizard) and 1 (Quack Wizard), buys four red stones (Merchant) and
    takes the Sorcerer's 2 points: the score stops at 3 and the game ends at once, with
    cards left in the pile."""
    state = table(("quack-wizard", "merchant"), stones=["rbyy", "bbyy", "rryy", "rbyb"])
    all_pass(state)
    rest = ["p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0"]
    act(state, "chance: card wizard", "p0: bid f1 c0", *rest, "p0: pay rby")
    assert coins(state, 0)["score"] == 1
    act(state, "chance: card quack-wizard", "p0: bid f1 c0", *rest)
    assert coins(state, 0)["score"] == 2 and sum(coins(state, 0)["stones"].values()) == 0
    act(state, "chance: card merchant", "p0: bid f1 c0", *rest,
        "p0: buy red common", "p0: buy red common", "p0: buy red fairy", "p0: buy red fairy",
        "p0: done")
    assert coins(state, 0)["stones"]["red"] == 4
    act(state, "chance: card sorcerer", "p0: bid f1 c0", *rest)
    assert [str(a) for a in state.legal_actions(0)] == ["pay rrrr", "take"]
    act(state, "p0: pay rrrr")
    assert coins(state, 0)["score"] == 3
    assert state.is_terminal() and state.phase == Phase.OVER
    out = state.outcome()
    assert out is not None
    assert out.winners == (0,) and out.scores == (3.0, 0.0, 0.0, 0.0)
    assert out.placings[0] == 1
    assert len(pub(state)["pile"]) == 5  # the rest of the turn never happens
    for entry in ("p1: bid f0 c0", "chance: card thief"):
        with pytest.raises(IllegalActionError):
            play(state, entry)
    assert state.legal_actions(0) == () and state.chance_outcomes() == []


def test_f5_10_max_turns_all_equal_share_the_win() -> None:
    """F5.10: at the turn limit the highest score wins; equal highest scores share it."""
    state = table(players=3, stones=["rrby", "bbyy", "rryy"], max_turns=1)
    quiet_turn(state)
    assert state.is_terminal()
    out = state.outcome()
    assert out is not None and out.winners == (0, 1, 2) and out.placings == (1, 1, 1)


def test_f5_10_max_turns_highest_score_wins() -> None:
    """F5.10: p0 has 1 point (Wizard) when the limit is reached: p0 wins alone."""
    state = table(max_turns=1)
    all_pass(state)
    act(state, "chance: card wizard",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p0: pay rby")
    quiet_turn(state)
    out = state.outcome()
    assert out is not None and out.winners == (0,) and out.placings == (1, 2, 2, 2)
    assert out.reason == "fist.end.turn_limit" and out.reason_params == {"turns": 1, "seats": [0]}
    assert "turn limit of 1" in out.message() and "Rundenlimit von 1" in out.message("de")


def test_f5_10_max_turns_tied_leaders_share_the_win() -> None:
    """F5.10: p0 (Wizard) and p1 (Magician) have 1 point each: both win."""
    state = table(max_turns=1)
    all_pass(state)
    act(state, "chance: card wizard",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p0: pay rby",
        "chance: card magician",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0", "p1: pay bbyy")
    quiet_turn(state)
    out = state.outcome()
    assert out is not None and out.winners == (0, 1) and out.placings == (1, 1, 3, 3)


def test_f5_10_no_limit_by_default_and_limit_is_not_early() -> None:
    """F5.10: without max_turns the game goes on; with max_turns=2 turn 1 does not end it."""
    for state in (table(players=3, stones=["rrby", "bbyy", "rryy"]),
                  table(players=3, stones=["rrby", "bbyy", "rryy"], max_turns=2)):
        quiet_turn(state)
        assert not state.is_terminal() and state.turn == 2


@pytest.mark.parametrize(("entry", "rule", "code"), [
    ("p0: bid f9 c0", "F5.1", "fist.bid.exceeds_unspent"),
    ("p0: bid f0 c3", "F5.1", "fist.bid.exceeds_unspent"),
    ("p0: bid f8 c3", "F5.1", "fist.bid.exceeds_unspent"),
    ("p0: bid f0 c0 amulet", "F5.1", "fist.bid.no_amulet"),
    ("p0: bid f1 c0 black", "F6", "fist.bid.no_black"),
    ("p0: silver 1", "F5.1", "fist.bid.not_a_bid"),
    ("p0: take", "F5.1", "fist.bid.not_a_bid"),
    ("p0: pay rrby", "F5.1", "fist.bid.not_a_bid"),
    ("p1: bid f0 c0", "F5.1", "fist.bid.already_bid"),
])
def test_f5_1_illegal_bids_raise_and_change_nothing(entry: str, rule: str, code: str) -> None:
    """F5.1: a bid beyond one's unspent coins, or with a Black coin or Amulet one does not
    hold, or something that is not a bid, is refused naming the rule; nothing changes."""
    state = table()
    act(state, "p1: bid f2 c0")
    before = state.full_state()
    views = [state.view(s) for s in (None, 0, 1, 2, 3)]
    with pytest.raises(IllegalActionError) as err:
        play(state, entry)
    assert err.value.rule == rule and err.value.code == code
    assert f"rule {rule}" in str(err.value) and f"Regel {rule}" in err.value.message("de")
    assert state.full_state() == before
    assert [state.view(s) for s in (None, 0, 1, 2, 3)] == views
    assert state.totals() == F1_TOTALS


@pytest.mark.parametrize("entry", [
    "p1: bid f0 c0",  # p1 has already bid
    "chance: card thief",  # the players are bidding
    "chance: stone red",
])
def test_f5_1_acting_out_of_turn_is_illegal(entry: str) -> None:
    """F5.1: a seat that has already bid, or chance during a sealed bid, may not act."""
    state = table()
    act(state, "p1: bid f2 c0")
    before = state.full_state()
    with pytest.raises(IllegalActionError):
        play(state, entry)
    assert state.full_state() == before


def test_f5_acting_out_of_turn_at_chance_and_decision_nodes() -> None:
    """F4/F5.8: no seat may act at a chance node; only the winner decides a power."""
    state = table()
    all_pass(state)
    before = state.full_state()
    with pytest.raises(IllegalActionError):
        play(state, "p0: bid f0 c0")
    assert state.full_state() == before
    act(state, "chance: card magician",
        "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f1 c0", "p3: bid f0 c0")
    assert state.current_seats() == (2,)
    before = state.full_state()
    for entry in ("p1: take", "chance: card thief", "p2: bid f0 c0", "p2: pay rrrr"):
        with pytest.raises(IllegalActionError):
            play(state, entry)
        assert state.full_state() == before
    act(state, "p2: take")
    assert coins(state, 2)["silver"] == 8


@pytest.mark.parametrize(("entry", "rule"), [
    ("p0: silver 6", "F5.7"),
    ("p0: silver 1 amulet", "F5.7"),
    ("p0: bid f1 c0", "F5.7"),
])
def test_f5_7_illegal_tie_break_bids(entry: str, rule: str) -> None:
    """F5.7: the tie-break is Silver only, up to one's Silver, Amulet only if held."""
    state = table()
    all_pass(state)
    act(state, "chance: card sorcerer",
        "p0: bid f2 c0", "p1: bid f2 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    assert state.phase == Phase.TIEBID
    before = state.full_state()
    with pytest.raises(IllegalActionError) as err:
        play(state, entry)
    assert err.value.rule == rule
    assert state.full_state() == before
    with pytest.raises(IllegalActionError):
        play(state, "p2: silver 0")  # p2 is not in the tie-break
    assert state.full_state() == before


@pytest.mark.parametrize("text", [
    "bid f2 banana", "bid fx c1", "bid f61 c0", "bid f0 c16", "silver x", "hello", "",
    "bid -1", "steal", "pay rrq",
])
def test_malformed_action_text_raises(text: str) -> None:
    """Records: text that is no Fist action raises MalformedActionError, not Illegal."""
    state = table()
    before = state.full_state()
    with pytest.raises(MalformedActionError):
        state.game.parse_action(text)
    if text:
        with pytest.raises(MalformedActionError):
            play(state, f"p0: {text}")
    assert state.full_state() == before


def test_f5_action_text_is_forgiving_about_spacing_and_order() -> None:
    """Records: 'BID  c1 f2' is the bid 'bid f2 c1'."""
    game = table().game
    assert str(game.parse_action("BID  c1 f2")) == "bid f2 c1"
    assert str(game.parse_action("bid amulet f1 black c0")) == "bid f1 c0 black amulet"


# ---------------------------------------------------------------------------- F8
def hist(state: FistState, seat: int | None) -> list[str]:
    """The public record in ``seat``'s view."""
    history: list[str] = state.view(seat)["public"]["history"]
    return history


def test_f8_sealed_bids_are_hidden_until_the_reveal() -> None:
    """F8: during the sealed bid every bid shows as 'sealed' in the public record (and the
    events); one's own is in one's private part and a private event only. After the reveal
    everybody sees every bid."""
    state = table()
    all_pass(state)
    act(state, "chance: card thief", "p0: bid f3 c1")
    assert hist(state, 0)[-1] == "p0: sealed"
    assert state.view(0)["private"]["bid"] == "bid f3 c1"
    assert private(state, 0, "fist.bid.own")[-1] == {
        "seat": 0, "fairy": 3, "common": 1, "black": 0, "amulet": 0}
    for seat in (1, 2, 3, None):
        v = state.view(seat)
        assert v["public"]["history"][-1] == "p0: sealed"
        assert "f3 c1" not in json.dumps(v)
        assert all(e["params"] != {"seat": 0, "fairy": 3, "common": 1, "black": 0,
                                   "amulet": 0} for e in v["events"])
        assert v["events"][-1] == {"seq": state.event_count - 2, "code": "fist.bid.sealed",
                                   "params": {"seat": 0}}
    assert state.view(1)["private"]["bid"] is None
    # earlier, revealed auctions stay visible
    assert hist(state, 1)[-6:-2] == [f"p{s}: bid f0 c0" for s in range(4)]
    act(state, "p1: bid f1 c0", "p2: bid f0 c0")
    assert hist(state, 3)[-3:] == ["p0: sealed", "p1: sealed", "p2: sealed"]
    assert hist(state, 1)[-3:] == ["p0: sealed", "p1: sealed", "p2: sealed"]
    act(state, "p3: bid f0 c0")
    for seat in (0, 1, 2, 3, None):
        assert hist(state, seat)[-4:] == [
            "p0: bid f3 c1", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0"]
        assert events(state, seat, "fist.bid.revealed")[-4] == {
            "seat": 0, "fairy": 3, "common": 1, "black": 0, "amulet": 0, "value": 4}


def test_f8_a_sealed_bid_moves_no_public_count_before_the_reveal() -> None:
    """F8/F5.3: submitting a sealed bid with Common Gold, a Black coin and an Amulet changes
    nothing another seat sees but 'has_bid', a 'sealed' history line and a 'sealed' event:
    the bank's counts move only at the reveal."""
    state = table(("goldsmith", "gnome"))
    act(state, "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card goldsmith",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card wizard")
    before = {seat: state.view(seat) for seat in (1, 2, None)}
    act(state, "p0: bid f3 c2 black amulet")
    for seat, old in before.items():
        new = copy.deepcopy(state.view(seat))
        old = copy.deepcopy(old)
        assert new["public"]["history"] == [*old["public"]["history"], "p0: sealed"]
        assert [e.pop("has_bid") for e in new["public"]["seats"]] == [True, False, False,
                                                                      False]
        assert [e.pop("has_bid") for e in old["public"]["seats"]] == [False] * 4
        assert new["to_move"] == [1, 2, 3]
        assert [e["code"] for e in new["events"][len(old["events"]):]] == ["fist.bid.sealed"]
        for key in ("to_move", "events", "events_total"):
            del new[key], old[key]
        del new["public"]["history"], old["public"]["history"]
        if seat is not None:
            assert new["legal"] == old["legal"]
        assert new == old
    act(state, "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    b = bank(state)
    assert (b["common"], b["amulet"], b["black"]) == (7 + 2, 2, 2)


def test_f8_tie_break_bids_are_sealed_too() -> None:
    """F8: the Silver tie-break bids are sealed until both are in."""
    state = table()
    all_pass(state)
    act(state, "chance: card red-dragon",
        "p0: bid f2 c0", "p1: bid f2 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    act(state, "p0: silver 4")
    assert hist(state, 0)[-1] == "p0: sealed"
    assert state.view(0)["private"]["bid"] == "silver 4"
    assert private(state, 0, "fist.tiebreak.own") == [{"seat": 0, "silver": 4, "amulet": 0}]
    for seat in (1, 2, None):
        v = state.view(seat)
        assert v["public"]["history"][-1] == "p0: sealed"
        assert "silver 4" not in json.dumps(v)
        assert events(state, seat, "fist.tiebreak.own") == []
        assert v["public"]["history"][-5:-1] == [
            "p0: bid f2 c0", "p1: bid f2 c0", "p2: bid f0 c0", "p3: bid f0 c0"]
    act(state, "p1: silver 1")
    assert hist(state, 2)[-2:] == ["p0: silver 4", "p1: silver 1"]
    assert [e["value"] for e in events(state, 2, "fist.tiebreak.revealed")] == [4, 1]


def test_f8_view_holds_no_other_seats_coins() -> None:
    """F8: a seat's view lists its own screen in its private part; the other seats show
    only public things (score, stones, the Doppelganger, whether they have bid)."""
    state = table()
    act(state, "p0: bid f1 c1")
    for seat in range(4):
        v = state.view(seat)
        assert v["seat"] == seat
        me = v["private"]
        assert set(me) >= {"fairy", "fairy_spent", "common", "silver", "black", "amulet"}
        assert (me["fairy"], me["common"], me["silver"]) == (8, 2, 5)
        for entry in v["public"]["seats"]:
            assert set(entry) <= {"seat", "score", "stones", "doppelganger", "has_bid"}
    assert "players_full" not in state.view(0)


def test_f8_spectator_view_has_no_private_part() -> None:
    """F8: the spectator view has no private part and no legal actions."""
    state = table()
    act(state, "p0: bid f1 c1")
    v = state.view(None)
    assert v["private"] is None and v["legal"] is None and v["seat"] is None
    assert v["public"]["history"][-1] == "p0: sealed"
    for entry in v["public"]["seats"]:
        assert set(entry) <= {"seat", "score", "stones", "doppelganger", "has_bid"}


def test_f8_has_bid_flags() -> None:
    """F8: who has submitted a sealed bid is public (has_bid), what they bid is not."""
    state = table()
    assert [e["has_bid"] for e in pub(state)["seats"]] == [False] * 4
    act(state, "p2: bid f3 c0")
    for seat in (0, 2, None):
        assert [e["has_bid"] for e in pub(state, seat)["seats"]] == [False, False, True, False]
    act(state, "p0: bid f0 c0", "p1: bid f0 c0", "p3: bid f0 c0")
    assert state.phase == Phase.REVEAL
    assert all(e["has_bid"] is None for e in pub(state)["seats"])
    act(state, "chance: card alchemist")
    assert [e["has_bid"] for e in pub(state)["seats"]] == [False] * 4
    act(state, "p3: bid f1 c0")
    assert [e["has_bid"] for e in pub(state, 1)["seats"]] == [False, False, False, True]


def _perturb_positions() -> list[FistState]:
    """A few positions: sealed bid, tie-break, a power decision, a chance reveal."""
    out = []
    s = table(("goldsmith", "gnome"))
    act(s, "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0",
        "chance: card goldsmith", "p0: bid f0 c0", "p1: bid f0 c0", "p2: bid f2 c0",
        "p3: bid f0 c0", "chance: card thief", "p0: bid f2 c1", "p2: bid f0 c0 amulet")
    out.append(s.clone())  # sealed bid, p0 and p2 in
    act(s, "p1: bid f4 c0", "p3: bid f1 c0")
    out.append(s.clone())  # p1 wins the Thief: a decision
    act(s, "p1: steal p0 red", "chance: card magician",
        "p0: bid f2 c0", "p1: bid f2 c0", "p2: bid f1 c0", "p3: bid f0 c0", "p1: silver 2")
    out.append(s.clone())  # tie-break, p1 in
    act(s, "p0: silver 1")
    out.append(s.clone())  # p1 won the Magician
    act(s, "p1: take")
    out.append(s.clone())  # a reveal
    return out


@pytest.mark.parametrize("index", range(5))
def test_f8_changing_hidden_coins_of_others_leaves_a_view_unchanged(index: int) -> None:
    """F8: a seat's view never depends on another seat's screen: change p_k's unspent coins
    and Amulet (and p_k's sealed bid) in a clone, and every other seat's view - and the
    spectator's - is unchanged."""
    state = _perturb_positions()[index]
    for k in range(4):
        other = state.clone()
        p = other.players[k]
        p.fairy += 3
        p.common += 2
        p.silver += 7
        p.amulet = 1 - p.amulet
        if other.phase in (Phase.BID, Phase.TIEBID) and other.bids[k] is not None:
            other.bids[k] = other.game.parse_action(
                "bid f0 c0" if other.phase == Phase.BID else "silver 0")
        for seat in [s for s in range(4) if s != k] + [None]:
            assert other.view(seat) == state.view(seat), (k, seat)
        assert other.view(k) != state.view(k)


def test_f8_brigand_amount_is_private_to_the_two_players() -> None:
    """F8/F7: whom the Brigand robbed is public; the amount is told only to the robber and the
    victim (a private event to each)."""
    state = table(("brigand", "gnome"))
    all_pass(state)
    act(state, "chance: card brigand",
        "p0: bid f1 c0", "p1: bid f0 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    assert [str(a) for a in state.legal_actions(0)] == ["target p1", "target p2", "target p3"]
    act(state, "p0: target p2")
    assert (coins(state, 0)["common"], coins(state, 0)["silver"]) == (4, 10)
    assert (coins(state, 2)["common"], coins(state, 2)["silver"]) == (0, 0)
    handed = {"seat": 0, "victim": 2, "common": 2, "silver": 5}
    assert private(state, 0, "fist.brigand.handed") == [handed]
    assert private(state, 2, "fist.brigand.handed") == [handed]
    for seat in (1, 3, None):
        assert events(state, seat, "fist.brigand.handed") == []
        # the choice itself is public
        assert events(state, seat, "fist.brigand.chose") == [{"seat": 0, "victim": 2}]
        assert "fist.brigand.handed" not in json.dumps(state.view(seat))


def test_f8_thief_coin_is_private_to_the_two_players() -> None:
    """F8/F6: the Thief's victim has no stone (Quack Wizard took them): the coin taken
    from behind the screen is told only to the two players."""
    state = table(("quack-wizard", "gnome"))
    all_pass(state)
    act(state, "chance: card quack-wizard",
        "p0: bid f0 c0", "p1: bid f1 c0", "p2: bid f0 c0", "p3: bid f0 c0")
    assert sum(coins(state, 1)["stones"].values()) == 0
    act(state, "chance: card thief",
        "p0: bid f3 c0", "p1: bid f2 c0", "p2: bid f0 c0", "p3: bid f1 c0")
    assert (coins(state, 0)["common"], coins(state, 1)["common"]) == (3, 1)
    taken = {"seat": 0, "victim": 1, "coin": "common"}
    assert private(state, 0, "fist.thief.coin_taken") == [taken]
    assert private(state, 1, "fist.thief.coin_taken") == [taken]
    for seat in (2, 3, None):
        assert events(state, seat, "fist.thief.coin_taken") == []
        assert events(state, seat, "fist.thief.coin") == [{"seat": 0, "victim": 1}]
        assert "coin_taken" not in json.dumps(state.view(seat))
