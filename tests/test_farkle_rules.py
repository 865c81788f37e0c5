"""Rules tests for Dragon Farkle: scoring (D2), the turn (D3), Recruit (D4), Skirmish (D5),
the Final Battle (D6), the Dragon's Lair (D7), companions and magic items (D8) and what each
player may know (D9), as rulings in shared/rules/farkle.md, with the German rulebook's three
worked examples (REKRUTIERUNGS-BEISPIEL, BEISPIEL FÜR EIN SCHARMÜTZEL, BEISPIEL FÜR DEN
ENDKAMPF) staged with their exact numbers.

Positions are staged with hand-written record entries: "chance: companion scout" and
"chance: item gold-purse" (one per seat, p0 first), "chance: start p0", then "p0: recruit",
"chance: dice 234445 blank" (the soldier dice in hand, ascending, and the event die),
"p0: keep 4445", "p0: roll", "p0: bank", ... Every staged step is followed by the
conservation checks: armies + supply constant (soldiers, D1), every item card in the deck,
the discards, a hand or set aside (D8), every companion on a seat, in the deck or discarded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dragonlair.core.errors import IllegalActionError, MalformedActionError, OptionError
from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, parse_entry, replay
from dragonlair.games import make_game
from dragonlair.games.farkle.actions import Kind
from dragonlair.games.farkle.cards import (
    COMPANION_EFFECTS,
    COMPANIONS,
    ITEM_EFFECTS,
    ITEMS,
    decks_from_data,
    load_deck_file,
)
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.scoring import Scorer, ScoringTable, counts_of, dice_text
from dragonlair.games.farkle.state import SUPPLY, FarkleState

SEATS2 = [{"name": "a", "player": "human"}, {"name": "b", "player": "human"}]
FARKLE6 = "223466"  # six dice that score nothing: no 1, no 5, no three alike, two pairs
SEED_CARDS = {"tabby", "hiccup", "skree", "lucky-dragon-tooth", "plunder-sack"}


def _card(id: str, effect: str, amount: int = 0, count: int = 1) -> dict[str, Any]:
    return {"id": id, "effect": effect, "amount": amount, "count": count,
            "name": {"en": id.title(), "de": id.title()}, "text": {"en": f"{id} text"}}


#: decks whose cards never act: a bank bonus of 0 and a Plunder Sack for 0 others
NEUTRAL = {"companions": [_card("bystander", "bank_bonus", 0, 5)],
           "items": [_card("pebble", "keep_extra", 0, 10), _card("twig", "keep_extra", 0, 10)]}


# ---------------------------------------------------------------------------- helpers
def said(state: FarkleState) -> list[tuple[str, dict[str, Any]]]:
    """Every event so far (secrets included) as ``(code, params)``."""
    return [(e.code, dict(e.params)) for e in state.all_events()]


def check(state: FarkleState) -> None:
    """D1: soldiers are conserved (the supply counts); D8: no card appears or vanishes."""
    assert state.soldiers() == SUPPLY
    assert all(a >= 0 for a in state.armies)
    items = (sum(state.item_deck) + sum(state.item_discard)
             + sum(len(h) for h in state.items) + sum(len(g) for g in state.gained))
    assert items == sum(c.count for c in state.game.items)
    companions = (sum(state.companion_deck) + sum(state.companion_discard)
                  + sum(1 for c in state.companions if c >= 0))
    assert companions == sum(c.count for c in state.game.companions)


def act(state: FarkleState, *entries: str) -> FarkleState:
    """Apply record entries such as ``"p0: keep 4445"`` or ``"chance: dice 14 dragon"``."""
    for entry in entries:
        seat, text = parse_entry(entry, state.num_players)
        state.apply(seat, state.game.parse_action(text))
        check(state)
    return state


def deal(companions: tuple[str, ...] = ("scout", "shieldmaiden"),
         items: tuple[str, ...] | None = None, start: int = 0,
         **options: Any) -> FarkleState:
    """Setup done: each seat's companion and item dealt, the start player drawn."""
    players = len(companions)
    state = FarkleGame({"players": players, **options}).new_initial_state()
    check(state)
    for c in companions:
        act(state, f"chance: companion {c}")
    for i in items or ("gold-purse",) * players:
        act(state, f"chance: item {i}")
    return act(state, f"chance: start p{start}")


def options(state: FarkleState) -> list[str]:
    seats = state.current_seats()
    assert len(seats) == 1 and seats[0] != CHANCE, seats
    return [str(a) for a in state.legal_actions(seats[0])]


def full(state: FarkleState) -> dict[str, Any]:
    return state.full_state()


def pending(state: FarkleState) -> int:
    return int(full(state)["pending"])


def in_hand(state: FarkleState) -> int:
    return int(full(state)["dice_in_hand"])


def damage(state: FarkleState) -> int:
    return int(full(state)["dragon"]["damage"])


def held(state: FarkleState, seat: int) -> list[str]:
    return list(full(state)["items"][seat])


def lair(state: FarkleState) -> list[bool]:
    return [s["in_lair"] for s in full(state)["seats"]]


def companion(state: FarkleState, seat: int) -> str | None:
    return full(state)["seats"][seat]["companion"]  # type: ignore[no-any-return]


def all_scoring(state: FarkleState, dice: str) -> str:
    """The keep text of every scoring die of a roll (the largest selection)."""
    sel, _ = state.scorer.scoring_dice(counts_of(dice))
    return dice_text(sel)


def recruit(state: FarkleState, seat: int, *rolls: str) -> FarkleState:
    """A whole Recruit: each roll blank, every scoring die kept, then bank."""
    act(state, f"p{seat}: recruit")
    for n, roll in enumerate(rolls):
        if n:
            act(state, f"p{seat}: roll")
        act(state, f"chance: dice {roll} blank", f"p{seat}: keep {all_scoring(state, roll)}")
    return act(state, f"p{seat}: bank")


def pass_turn(state: FarkleState, seat: int) -> FarkleState:
    """A Recruit that farkles at once: nothing changes but the player."""
    return act(state, f"p{seat}: recruit", f"chance: dice {FARKLE6} blank", f"p{seat}: farkle")


def battle_farkle(state: FarkleState, seat: int) -> FarkleState:
    """A Final Battle that farkles at once: the player stays in (or enters) the Lair."""
    return act(state, f"p{seat}: battle", f"chance: dice {FARKLE6} blank", f"p{seat}: farkle")


def in_lair_with_2600(companions: tuple[str, ...] = ("scout", "shieldmaiden"),
                      items: tuple[str, ...] | None = None) -> FarkleState:
    """p0 banks 6,000, fights the Final Battle of the rulebook (loses 3,000 + 400), farkles
    and stays in the Lair; p1 passes: p0 to choose, 2,600 soldiers, in the Lair."""
    state = deal(companions, items)
    recruit(state, 0, "111111", "111111")
    pass_turn(state, 1)
    act(state, "p0: battle", "chance: dice 222222 blank", "chance: dice 133346 alliance",
        "chance: dice 36 blank", "p0: farkle")
    pass_turn(state, 1)
    assert state.armies[0] == 2600 and lair(state)[0]
    return state


def assert_replays(state: FarkleState) -> Record:
    """The staged entries, as a record through JSON text, replay to the same position."""
    players = state.num_players
    record = finish_record(new_record(state.game, [{"name": f"p{s}", "player": "human"}
                                                   for s in range(players)]), state)
    again = Record.from_json(json.loads(record.dumps()))
    _, replayed = replay(again)
    assert replayed.full_state() == state.full_state()
    return again


def illegal(state: FarkleState, entry: str, rule: str | None) -> IllegalActionError:
    """The entry is refused naming ``rule``, and nothing changes."""
    before = json.dumps(full(state), sort_keys=True)
    seat, text = parse_entry(entry, state.num_players)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, state.game.parse_action(text))
    assert info.value.rule == rule, (info.value.rule, str(info.value))
    assert json.dumps(full(state), sort_keys=True) == before
    return info.value


SCORER = Scorer()


def value(dice: str) -> int | None:
    best = SCORER.best(counts_of(dice))
    return None if best is None else best[0]


def selections(dice: str, scorer: Scorer = SCORER) -> dict[str, int]:
    return {dice_text(c): v for c, v in scorer.selections(counts_of(dice))}


# ---------------------------------------------------------------------------- D2 scoring
@pytest.mark.parametrize(("dice", "soldiers"), [
    ("1", 100), ("5", 50), ("11", 200), ("55", 100), ("15", 150),
    ("111", 1000), ("222", 200), ("333", 300), ("444", 400), ("555", 500), ("666", 600),
    *[(str(f) * 4, 1500) for f in range(1, 7)],
    *[(str(f) * 5, 2000) for f in range(1, 7)],
    *[(str(f) * 6, 3000) for f in range(1, 7)],
    ("223344", 2000), ("115566", 2000), ("222233", 2000), ("111155", 2000), ("444466", 2000),
    ("123456", 3000),
    ("222444", 600), ("333666", 900), ("111555", 1500),
    ("11115", 1550), ("2221", 300),
])
def test_d2_every_combination_of_the_table(dice: str, soldiers: int) -> None:
    """D2: single 1/5, three 1s = 1000, three n = 100n, four/five/six alike 1500/2000/3000,
    three pairs (a four of a kind plus a pair counts) 2000, the straight 3000, two triplets
    as two three-of-a-kinds."""
    assert value(dice) == soldiers


@pytest.mark.parametrize("dice", ["2", "3", "4", "6", "22", "23", "2345", "66", "1234", "12345"])
def test_d2_leftovers_that_are_not_1s_or_5s_cannot_be_set_aside(dice: str) -> None:
    """D2: every die of a selection belongs to a combination; 2 and 3 do not make a 5."""
    assert value(dice) is None


def test_d2_three_pairs_or_the_1s_and_5s() -> None:
    """D2: 1,1,5,5,2,2 offers the three pairs (2000) or 1,1,5,5 (300) among its selections;
    the 2s alone never."""
    got = selections("112255")
    assert got["112255"] == 2000
    assert got["1155"] == 300
    assert got["11"] == 200 and got["5"] == 50
    assert not any(k in got for k in ("22", "122", "1122", "11225"))


def test_d2_rulebook_roll_234445_offers_exactly_50_400_450() -> None:
    """D2 / REKRUTIERUNGS-BEISPIEL: (a) the 5, (b) the three 4s, (c) both; never 2+3 as 5."""
    assert selections("234445") == {"5": 50, "444": 400, "4445": 450}


def test_d2_six_of_a_kind_and_straight_selections() -> None:
    assert selections("333333")["333333"] == 3000  # not two triplets (600) nor 3 pairs
    assert selections("333333")["333"] == 300
    assert selections("123456") == {"1": 100, "5": 50, "15": 150, "123456": 3000}


def test_d2_scoring_in_play_three_pairs_and_hot_dice() -> None:
    """D2 in play: the keep options of 1,1,2,2,5,5 include the three pairs and 1155; keeping
    all six is worth 2000 and every die comes back (D4.1 hot dice)."""
    state = deal()
    act(state, "p0: recruit", "chance: dice 112255 blank")
    assert {"keep 112255", "keep 1155", "keep 11", "keep 5"} <= set(options(state))
    assert "keep 22" not in options(state)
    act(state, "p0: keep 112255")
    assert pending(state) == 2000 and in_hand(state) == 0
    act(state, "p0: roll")
    illegal(state, "chance: dice 12346 blank", "D3")
    act(state, "chance: dice 123456 blank", "p0: keep 123456")
    assert pending(state) == 5000
    act(state, "p0: roll", "chance: dice 333333 blank", "p0: keep 333333", "p0: bank")
    assert state.armies == [8000, 0]


def test_d2_leftover_dice_refused_in_play() -> None:
    state = deal()
    act(state, "p0: recruit", "chance: dice 234445 blank")
    err = illegal(state, "p0: keep 2345", "D2")
    assert "must score" in str(err)
    illegal(state, "p0: keep 23", "D2")
    illegal(state, "p0: keep 44445", "D2")  # not in the roll


def test_d2_table_option_replaces_the_table_and_is_recorded() -> None:
    """D2: the table is data; a table option replaces it and the record stores it."""
    table = {"single_five": 100, "triple": [300, 200, 300, 400, 500, 600], "three_pairs": 1500}
    game = FarkleGame({"players": 2, "table": table})
    scorer = game.scorer
    assert selections("234445", scorer) == {"5": 100, "444": 400, "4445": 500}
    assert scorer.best(counts_of("111"))[0] == 300  # type: ignore[index]
    assert scorer.best(counts_of("112255"))[0] == 1500  # type: ignore[index]
    record = new_record(game, SEATS2)
    stored = record.options["table"]
    assert stored == {**ScoringTable().to_json(), **table}  # the whole table, not a diff
    state = game.new_initial_state()
    act(state, "chance: companion scout", "chance: companion shieldmaiden",
        "chance: item gold-purse", "chance: item gold-purse", "chance: start p0",
        "p0: recruit", "chance: dice 234445 blank", "p0: keep 5", "p0: bank")
    assert state.armies == [100, 0]
    finish_record(record, state)
    again, replayed = replay(Record.from_json(json.loads(record.dumps())))
    assert isinstance(again, FarkleGame) and again.table == game.table
    assert replayed.full_state() == state.full_state()
    # the default table is recorded as null: D2 itself
    assert new_record(FarkleGame({"players": 2}), SEATS2).options["table"] is None


@pytest.mark.parametrize("table", [{"triple": [1, 2]}, {"bogus": 1}, {"single_one": -5},
                                   {"four": "many"}, 5, [1, 2]])
def test_d2_bad_table_option(table: Any) -> None:
    with pytest.raises(OptionError, match="table"):
        FarkleGame({"players": 2, "table": table})


# ---------------------------------------------------------------------------- worked examples
def test_d4_recruit_worked_example() -> None:
    """REKRUTIERUNGS-BEISPIEL: 2,3,4,4,4,5 blank: keeps 4445 = 450; 1,4 with the dragon: the
    1 is eaten, nothing earned (the 4 cannot join the 4s already scored); 3 blank: farkle,
    the 450 are lost and the army is unchanged."""
    state = deal()
    act(state, "p0: recruit", "chance: dice 234445 blank")
    assert options(state) == ["keep 5", "keep 444", "keep 4445"]
    act(state, "p0: keep 4445")
    assert pending(state) == 450 and in_hand(state) == 2
    assert options(state) == ["roll", "bank"]
    act(state, "p0: roll", "chance: dice 14 dragon")
    assert pending(state) == 450 and in_hand(state) == 1
    assert said(state)[-1] == ("farkle.roll.eaten", {"seat": 0, "dice": "1", "n": 100})
    assert options(state) == ["roll", "bank"]
    act(state, "p0: roll", "chance: dice 3 blank")
    assert options(state) == ["farkle"]
    act(state, "p0: farkle")
    assert state.armies == [0, 0]
    assert pending(state) == 0 and full(state)["player"] == 1
    assert ("farkle.recruit.farkle", {"seat": 0, "n": 450, "kept": 0}) in said(state)
    record = assert_replays(state)
    assert record.actions[5:] == [
        "p0: recruit", "chance: dice 234445 blank", "p0: keep 4445", "p0: roll",
        "chance: dice 14 dragon", "p0: roll", "chance: dice 3 blank", "p0: farkle"]


def test_d5_skirmish_worked_example() -> None:
    """BEISPIEL FÜR EIN SCHARMÜTZEL: Josef (p1) first banks exactly 300. Jana (p0) attacks:
    1,2,2,4,4,5 keeps 1 and 5 = 150; 1,1,3,4 alliance keeps 11 doubled = 400 (550);
    5,5 keeps 55 = 650 and stops (all six scored: she could roll six again). Josef rolls five
    dice: 1,3,4,4,6 keeps the 1 = 100 and stops. Jana wins 650 to 100: Josef has only 300,
    so she takes 300, plus 500 from the supply."""
    state = deal(("field-medic", "battle-mage"), start=1)
    recruit(state, 1, "233346")
    assert state.armies == [0, 300]
    act(state, "p0: skirmish p1", "chance: dice 122445 blank")
    assert options(state) == ["keep 1", "keep 5", "keep 15"]
    act(state, "p0: keep 15")
    assert pending(state) == 150 and options(state) == ["roll", "stop"]
    act(state, "p0: roll", "chance: dice 1134 alliance")
    assert options(state) == ["keep 1", "keep 11"]
    act(state, "p0: keep 11")
    assert options(state) == ["double", "item"]
    act(state, "p0: double")
    assert pending(state) == 550
    act(state, "p0: roll", "chance: dice 55 blank")
    assert options(state) == ["keep 5", "keep 55"]
    act(state, "p0: keep 55")
    assert pending(state) == 650 and in_hand(state) == 0
    assert options(state) == ["roll", "stop"]
    act(state, "p0: stop")
    sk = full(state)["skirmish"]
    assert sk == {"attacker": 0, "defender": 1, "attack_value": 650}
    assert full(state)["roller"] == 1 and in_hand(state) == 5  # D5.2: five dice
    act(state, "chance: dice 13446 blank")
    assert options(state) == ["keep 1"]
    act(state, "p1: keep 1")
    assert pending(state) == 100
    act(state, "p1: stop")
    assert state.armies == [300 + 500, 0]
    assert ("farkle.skirmish.values", {"attacker": 0, "attack": 650, "defender": 1,
                                       "defence": 100}) in said(state)
    assert full(state)["player"] == 1 and full(state)["mode"] == "none"
    assert_replays(state)


def test_d6_final_battle_worked_example() -> None:
    """BEISPIEL FÜR DEN ENDKAMPF: with 6,000 soldiers, 2,2,2,2,2,2 blank loses 3,000 and does
    no damage; all six scored, so 1,3,3,3,4,6 alliance with six dice: 2 damage, loses 400
    (three 3s and a 1); 3,6 blank: farkle, the turn ends, the dragon heals, the player stays
    in the Lair."""
    state = deal()
    recruit(state, 0, "111111", "111111")
    assert state.armies == [6000, 0]
    pass_turn(state, 1)
    assert "battle" in options(state)
    act(state, "p0: battle", "chance: dice 222222 blank")
    assert state.armies[0] == 3000 and damage(state) == 0
    assert lair(state)[0] and in_hand(state) == 6
    assert state.is_chance()  # D6.1: no stopping, the next roll comes by itself
    act(state, "chance: dice 133346 alliance")
    assert damage(state) == 2 and state.armies[0] == 2600 and in_hand(state) == 2
    act(state, "chance: dice 36 blank")
    assert options(state) == ["farkle"]
    assert damage(state) == 2
    act(state, "p0: farkle")
    assert damage(state) == 0  # D6.4: healed
    assert state.armies == [2600, 0] and lair(state) == [True, False]
    assert full(state)["player"] == 1 and not state.is_terminal()
    assert_replays(state)


# ---------------------------------------------------------------------------- D3 the turn
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_d3_start_player_is_random(players: int) -> None:
    """D3: after the companions and items, the start player is a chance draw, 1/n each."""
    state = FarkleGame({"players": players}).new_initial_state()
    for _ in range(2 * players):
        act(state, f"chance: {state.chance_outcomes()[0][0]}")
    outcomes = [(str(a), p) for a, p in state.chance_outcomes()]
    assert [a for a, _ in outcomes] == [f"start p{s}" for s in range(players)]
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)
    act(state, f"chance: start p{players - 1}")
    assert state.current_seats() == (players - 1,)


def test_d3_play_goes_clockwise() -> None:
    state = deal(("scout", "shieldmaiden", "field-medic"), start=2)
    order = []
    for _ in range(5):
        seat = state.current_seats()[0]
        order.append(seat)
        pass_turn(state, seat)
    assert order == [2, 0, 1, 2, 0]
    assert full(state)["turn"] == 6


def test_d3_three_actions_and_battle_needs_5000() -> None:
    """D3: Recruit, Skirmish (any other seat) or, with 5,000 at the start of the turn, the
    Final Battle."""
    state = deal(("scout", "shieldmaiden", "field-medic"))
    assert options(state) == ["recruit", "skirmish p1", "skirmish p2", "use gold-purse"]
    illegal(state, "p0: battle", "D3")
    recruit(state, 0, "111111", "223344")  # 3000 + 2000: exactly 5,000
    pass_turn(state, 1)
    pass_turn(state, 2)
    assert state.armies[0] == 5000
    assert options(state) == ["recruit", "skirmish p1", "skirmish p2", "battle",
                              "use gold-purse"]


def test_d3_battle_counts_the_army_at_the_start_of_the_turn() -> None:
    """D3 (engine): 4,700 at the start of the turn plus a Gold Purse used in the turn
    makes 5,000, but the battle needs them at the start: only the next turn."""
    state = deal()
    recruit(state, 0, "111111", "111126", "11")  # 3000 + 1500 + 200
    pass_turn(state, 1)
    assert state.armies[0] == 4700
    act(state, "p0: use gold-purse")
    assert state.armies[0] == 5000 and "battle" not in options(state)
    illegal(state, "p0: battle", "D3")
    pass_turn(state, 0)
    pass_turn(state, 1)
    assert "battle" in options(state)


# ---------------------------------------------------------------------------- D4 Recruit
def test_d4_must_set_aside_at_least_one_die() -> None:
    state = deal()
    act(state, "p0: recruit", "chance: dice 122346 blank")
    assert options(state) == ["keep 1"]
    illegal(state, "p0: roll", "D4.1")
    illegal(state, "p0: bank", "D4.1")
    act(state, "p0: keep 1")
    assert options(state) == ["roll", "bank"]
    illegal(state, "p0: stop", "D4.1")  # stop ends a Skirmish side, not a Recruit
    illegal(state, "p0: keep 1", "D4.1")


def test_d4_hot_dice_roll_all_six_again() -> None:
    state = deal()
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1", "p0: roll",
        "chance: dice 11555 blank", "p0: keep 11555")
    assert pending(state) == 100 + 700 and in_hand(state) == 0
    act(state, "p0: roll")
    illegal(state, "chance: dice 1 blank", "D3")
    act(state, "chance: dice 123346 blank", "p0: keep 1", "p0: bank")
    assert state.armies == [900, 0]


def test_d4_bank_ends_the_turn() -> None:
    state = deal()
    act(state, "p0: recruit", "chance: dice 111234 blank", "p0: keep 111", "p0: bank")
    assert state.armies == [1000, 0] and pending(state) == 0
    assert state.current_seats() == (1,) and full(state)["turn"] == 2


def test_d4_farkle_loses_pending_and_items_gained_this_turn() -> None:
    """D4.2: the pending soldiers and the items gained in the turn are lost; the item held
    from before stays. An item drawn is set aside: it cannot save this turn."""
    state = deal(items=("gold-purse", "gold-purse"))
    act(state, "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item lucky-clover")
    assert full(state)["gained"][0] == ["lucky-clover"] and pending(state) == 100
    act(state, "p0: roll", "chance: dice 22346 blank")
    assert options(state) == ["farkle"]  # the clover is set aside until the turn ends
    act(state, "p0: farkle")
    assert state.armies == [0, 0]
    assert held(state, 0) == ["gold-purse"] and full(state)["gained"][0] == []
    assert full(state)["item_discard"] == {"lucky-clover": 1}


def test_d4_dragon_eats_every_scoring_die() -> None:
    """D4.3: ALL scoring dice are set aside and earn nothing; go on or bank."""
    state = deal()
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1", "p0: roll",
        "chance: dice 11523 dragon")
    assert pending(state) == 100 and in_hand(state) == 2
    assert options(state) == ["roll", "bank"]
    act(state, "p0: roll", "chance: dice 15 dragon")  # every die eaten: hot dice
    assert in_hand(state) == 0 and pending(state) == 100
    act(state, "p0: roll", "chance: dice 122346 blank", "p0: keep 1", "p0: bank")
    assert state.armies == [200, 0]


def test_d4_dragon_without_scoring_dice_ignores_the_farkle() -> None:
    """D4.3: the player escaped: roll the same dice again, or bank."""
    state = deal()
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1", "p0: roll",
        "chance: dice 22346 dragon")
    assert options(state) == ["roll", "bank"]
    assert in_hand(state) == 5 and pending(state) == 100
    assert ("farkle.roll.escape", {"seat": 0}) in said(state)
    act(state, "p0: roll", "chance: dice 22346 dragon", "p0: roll", "chance: dice 12346 blank",
        "p0: keep 1", "p0: bank")
    assert state.armies == [200, 0]


def test_d4_alliance_double_or_item() -> None:
    """D4.4: after the selection, double that roll's soldiers or draw a hidden item."""
    state = deal()
    act(state, "p0: recruit", "chance: dice 111234 alliance", "p0: keep 111")
    assert options(state) == ["double", "item"]
    illegal(state, "p0: roll", "D4.4")
    act(state, "p0: double")
    assert pending(state) == 2000
    act(state, "p0: roll", "chance: dice 155 alliance", "p0: keep 5", "p0: item")
    assert pending(state) == 2050 and state.is_chance()
    draws = {str(a) for a, _ in state.chance_outcomes()}
    assert draws == {f"item {c.id}" for c in ITEMS}  # 18 left, every kind still there
    act(state, "chance: item second-wind", "p0: bank")
    assert state.armies == [2050, 0]
    assert state.current_seats() == (0,)  # two items now: D4.5 asks which to keep
    assert options(state) == ["discard gold-purse", "discard second-wind"]
    act(state, "p0: discard gold-purse")
    assert held(state, 0) == ["second-wind"] and state.current_seats() == (1,)


def test_d4_alliance_without_scoring_dice_is_a_farkle() -> None:
    state = deal()
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1", "p0: roll",
        "chance: dice 22346 alliance")
    assert options(state) == ["farkle"]
    act(state, "p0: farkle")
    assert state.armies == [0, 0] and state.current_seats() == (1,)


# ---------------------------------------------------------------------------- D5 Skirmish
def skirmish_table(p1_army: str | None = None) -> FarkleState:
    """Companions without Skirmish powers; p1 may first bank soldiers (rolls for p1)."""
    state = deal(("field-medic", "battle-mage"), start=1 if p1_army else 0)
    if p1_army:
        recruit(state, 1, p1_army)
    return state


def test_d5_target_is_another_player() -> None:
    state = skirmish_table()
    assert options(state) == ["recruit", "skirmish p1", "use gold-purse"]
    err = illegal(state, "p0: skirmish p0", "D5.1")
    assert "another player" in str(err)


def test_d5_higher_value_wins_the_difference_plus_500() -> None:
    state = skirmish_table("223344")  # p1 banks 2,000
    act(state, "p0: skirmish p1", "chance: dice 111234 blank", "p0: keep 111", "p0: stop",
        "chance: dice 12346 blank", "p1: keep 1", "p1: stop")
    assert state.armies == [900 + 500, 2000 - 900]


def test_d5_defender_wins_and_takes_from_the_attacker() -> None:
    state = skirmish_table("111234")  # p1 banks 1,000
    recruit(state, 0, "122346")  # p0 banks 100
    act(state, "p1: skirmish p0", "chance: dice 122346 blank", "p1: keep 1", "p1: stop",
        "chance: dice 11123 blank", "p0: keep 111", "p0: stop")
    assert state.armies == [100 + 900 + 500, 1000 - 900]


def test_d5_defender_rolls_five_dice_hot_dice_five() -> None:
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 122346 blank", "p0: keep 1", "p0: stop")
    assert full(state)["roller"] == 1 and in_hand(state) == 5
    illegal(state, "chance: dice 122346 blank", "D3")
    act(state, "chance: dice 11155 blank", "p1: keep 11155")
    assert pending(state) == 1100 and in_hand(state) == 0
    act(state, "p1: roll")
    illegal(state, "chance: dice 123466 blank", "D3")  # hot dice: five again, not six
    act(state, "chance: dice 12346 blank", "p1: keep 1", "p1: stop")
    assert state.armies == [0, 0 + 500]  # p0 had nothing to take; the bonus still comes


def test_d5_a_farkle_makes_the_value_0() -> None:
    state = skirmish_table()
    act(state, "p0: skirmish p1", f"chance: dice {FARKLE6} blank", "p0: farkle")
    assert full(state)["skirmish"]["attack_value"] == 0 and full(state)["roller"] == 1
    act(state, "chance: dice 23456 blank", "p1: keep 5", "p1: stop")
    assert state.armies == [0, 0 + 500]  # p0 has nothing to take


def test_d5_equal_values_nothing_moves_gained_items_discarded() -> None:
    state = skirmish_table("111234")
    act(state, "p0: skirmish p1", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item lucky-clover", "p0: stop",
        "chance: dice 12346 alliance", "p1: keep 1", "p1: item", "chance: item second-wind",
        "p1: stop")
    assert state.armies == [0, 1000]
    assert held(state, 0) == ["gold-purse"] and held(state, 1) == ["gold-purse"]
    assert full(state)["item_discard"] == {"lucky-clover": 1, "second-wind": 1}
    assert state.current_seats() == (1,)


def test_d5_winner_keeps_one_gained_item_the_loser_none() -> None:
    """D5.3: the winner keeps one item gained in the Skirmish (then the D8.3 limit applies);
    every other gained item is discarded, the loser's too."""
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item lucky-clover", "p0: roll", "chance: dice 12346 alliance", "p0: keep 1",
        "p0: item", "chance: item second-wind", "p0: stop")
    assert full(state)["skirmish"]["attack_value"] == 200
    act(state, "chance: dice 12346 alliance", "p1: keep 1", "p1: item",
        "chance: item recruiting-horn", "p1: stop")
    assert state.armies == [0 + 500, 0]
    assert state.current_seats() == (0,)
    assert set(options(state)) == {"keep-item lucky-clover", "keep-item second-wind"}
    act(state, "p0: keep-item lucky-clover")
    assert options(state) == ["discard gold-purse", "discard lucky-clover"]  # D8.3
    act(state, "p0: discard gold-purse")
    assert held(state, 0) == ["lucky-clover"] and held(state, 1) == ["gold-purse"]
    assert full(state)["item_discard"] == {"second-wind": 1, "recruiting-horn": 1,
                                           "gold-purse": 1}
    assert state.current_seats() == (1,)


def test_d5_winner_asked_even_for_two_alike() -> None:
    """D5.3 with D9 (engine fix): two gained items of the same card still ask which to keep,
    so the decision shows nobody whether they were alike."""
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item lucky-clover", "p0: roll", "chance: dice 12346 alliance", "p0: keep 1",
        "p0: item", "chance: item lucky-clover", "p0: stop", f"chance: dice {FARKLE6[1:]} blank",
        "p1: farkle")
    assert options(state) == ["keep-item lucky-clover"]
    act(state, "p0: keep-item lucky-clover", "p0: discard gold-purse")
    assert held(state, 0) == ["lucky-clover"]
    assert full(state)["item_discard"] == {"lucky-clover": 1, "gold-purse": 1}


def test_d5_winner_with_one_gained_item_keeps_it() -> None:
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item second-wind", "p0: stop", f"chance: dice {FARKLE6[1:]} blank",
        "p1: farkle")
    assert options(state) == ["discard gold-purse", "discard second-wind"]


# ---------------------------------------------------------------------------- D6 Final Battle
def battle_table(companions: tuple[str, ...] = ("scout", "shieldmaiden"),
                 items: tuple[str, ...] | None = None, **options: Any) -> FarkleState:
    """p0 has 6,000 and chooses the Final Battle."""
    state = deal(companions, items, **options)
    recruit(state, 0, "111111", "111111")
    pass_turn(state, 1)
    return act(state, "p0: battle")


def test_d6_forced_rolling_and_damage() -> None:
    """D6.1-2: no stopping; dragon 1 damage, alliance 2; the scoring dice cost soldiers;
    a damaging roll without scoring dice is no farkle; the remaining dice roll next."""
    state = battle_table()
    assert state.is_chance() and state.legal_actions(0) == ()
    act(state, "chance: dice 122346 dragon")
    assert damage(state) == 1 and state.armies[0] == 5900 and in_hand(state) == 5
    assert state.is_chance()
    illegal(state, "p0: stop", None)  # it is nobody's decision: chance rolls on
    act(state, f"chance: dice {FARKLE6[1:]} dragon")  # no scoring die: not a farkle
    assert damage(state) == 2 and state.armies[0] == 5900 and in_hand(state) == 5
    assert state.is_chance()
    act(state, "chance: dice 11555 blank")  # blank with scoring dice: 700 lost, hot dice
    assert damage(state) == 2 and state.armies[0] == 5200 and in_hand(state) == 6
    assert state.is_chance()


def test_d6_victory_at_once() -> None:
    state = battle_table()
    act(state, f"chance: dice {FARKLE6} dragon")
    assert damage(state) == 1 and state.armies[0] == 6000 and in_hand(state) == 6
    act(state, f"chance: dice {FARKLE6} alliance")
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.placings == (1, 2)
    assert outcome.reason == "farkle.end.dragon_slain"
    assert outcome.reason_params == {"seat": 0}
    assert outcome.message("de") == "Spieler 1 hat den Drachen erlegt"  # no names: from 1
    assert outcome.scores == (6000.0, 0.0)


def test_d6_damage_counts_before_the_loss() -> None:
    """D6 (engine): the roll that deals the last damage wins even if its scoring dice would
    take the whole army."""
    state = battle_table()
    act(state, "chance: dice 111111 alliance")
    assert damage(state) == 2 and state.armies[0] == 3000
    act(state, "chance: dice 111111 dragon")
    assert state.is_terminal() and state.outcome().winners == (0,)  # type: ignore[union-attr]
    assert state.armies[0] == 3000


def test_d6_blank_without_scoring_dice_is_a_farkle_and_the_dragon_heals() -> None:
    state = battle_table()
    act(state, "chance: dice 122346 alliance", f"chance: dice {FARKLE6[1:]} blank")
    assert options(state) == ["farkle"] and damage(state) == 2
    act(state, "p0: farkle")
    assert damage(state) == 0 and state.armies[0] == 5900 and lair(state)[0]
    assert state.view(None)["public"]["dragon"] == {"strength": 3, "damage": 0}


@pytest.mark.parametrize("strength", [4, 5])
def test_d6_dragon_strength_variant(strength: int) -> None:
    state = battle_table(dragon=strength)
    assert full(state)["dragon"] == {"strength": strength, "damage": 0}
    for _ in range(strength - 1):
        act(state, f"chance: dice {FARKLE6} dragon")
    assert damage(state) == strength - 1 and not state.is_terminal()
    act(state, f"chance: dice {FARKLE6} dragon")
    assert state.is_terminal() and state.outcome().winners == (0,)  # type: ignore[union-attr]
    assert new_record(state.game, SEATS2).options["dragon"] == strength


@pytest.mark.parametrize("strength", [2, 6, "3"])
def test_d6_bad_dragon_strength(strength: Any) -> None:
    with pytest.raises(OptionError, match="3, 4 or 5"):
        FarkleGame({"players": 2, "dragon": strength})


# ---------------------------------------------------------------------------- D7 the Lair
def test_d7_stays_in_the_lair_and_may_fight_again() -> None:
    state = in_lair_with_2600()
    assert options(state) == ["recruit", "skirmish p1", "battle", "use gold-purse"]
    act(state, "p0: battle", "chance: dice 122346 blank")
    assert state.armies[0] == 2500 and lair(state)[0]


@pytest.mark.parametrize("leave", ["p0: recruit", "p0: skirmish p1"])
def test_d7_recruit_or_skirmish_leaves_the_lair(leave: str) -> None:
    state = in_lair_with_2600()
    act(state, leave)
    assert lair(state) == [False, False]
    act(state, f"chance: dice {FARKLE6} blank", "p0: farkle")
    if leave.endswith("p1"):
        act(state, f"chance: dice {FARKLE6[1:]} blank", "p1: farkle")
    pass_turn(state, 1)
    assert "battle" not in options(state)  # 2,600 and out of the Lair


def test_d7_cannot_be_attacked_in_the_lair() -> None:
    state = in_lair_with_2600()
    battle_farkle(state, 0)
    assert options(state) == ["recruit", "use gold-purse"]
    err = illegal(state, "p1: skirmish p0", "D5.1")
    assert "Lair" in str(err)


def test_d7_army_wiped_out_in_the_lair() -> None:
    """D7: army 0 in the Lair (never below 0, D6.2): the player leaves the Lair, discards the
    companion and draws a new one at the start of the next turn (a chance event); the magic
    item is kept."""
    state = in_lair_with_2600()
    act(state, "p0: battle", "chance: dice 111111 blank")
    assert state.armies[0] == 0  # 3,000 lost, only 2,600 there
    assert lair(state) == [False, False] and companion(state, 0) is None
    assert full(state)["player"] == 1 and held(state, 0) == ["gold-purse"]
    assert state.companion_discard[[c.id for c in COMPANIONS].index("scout")] == 1
    pass_turn(state, 1)
    assert state.is_chance()
    draws = {str(a): p for a, p in state.chance_outcomes()}
    assert set(draws) == {f"companion {c.id}" for c in COMPANIONS
                          if c.id not in ("scout", "shieldmaiden")}
    assert all(p == pytest.approx(1 / 8) for p in draws.values())
    act(state, "chance: companion tabby")
    assert companion(state, 0) == "tabby"
    assert options(state) == ["recruit", "skirmish p1", "use gold-purse"]


def test_d7_several_players_in_the_lair() -> None:
    state = deal(("scout", "shieldmaiden", "field-medic"))
    recruit(state, 0, "111111", "111111")
    recruit(state, 1, "111111", "111111")
    pass_turn(state, 2)
    act(state, "p0: battle", f"chance: dice {FARKLE6} blank", "p0: farkle")
    act(state, "p1: battle", f"chance: dice {FARKLE6} blank", "p1: farkle")
    assert lair(state) == [True, True, False]
    assert options(state) == ["recruit", "use gold-purse"]  # nobody to attack


# ---------------------------------------------------------------------------- D8 cards
def test_d8_decks_ten_companions_twenty_items_seed_and_house_cards() -> None:
    assert sum(c.count for c in COMPANIONS) == 10
    assert sum(c.count for c in ITEMS) == 20
    cards = (*COMPANIONS, *ITEMS)
    assert {c.id for c in cards if not c.house} == SEED_CARDS
    assert len({c.id for c in cards}) == len(cards)
    for c in cards:
        assert c.effect in (COMPANION_EFFECTS if c.kind == "companion" else ITEM_EFFECTS)
        assert c.name("en") and c.name("de") and c.text("en") and c.text("de")
    assert {c.kind for c in COMPANIONS} == {"companion"} and {c.kind for c in ITEMS} == {"item"}


def test_d8_tabby_ignores_one_dragon_per_turn_in_a_recruit() -> None:
    state = deal(("tabby", "scout"))
    act(state, "p0: recruit", "chance: dice 122346 dragon")
    assert options(state) == ["ignore dragon", "pass"]
    act(state, "p0: ignore dragon")
    assert options(state) == ["keep 1"]  # treated as blank
    act(state, "p0: keep 1", "p0: roll", "chance: dice 12346 dragon")  # once per turn
    assert options(state) == ["roll", "bank"] and in_hand(state) == 4 and pending(state) == 100
    act(state, "p0: bank")
    pass_turn(state, 1)
    act(state, "p0: recruit", "chance: dice 122346 dragon")  # a new turn: again
    assert options(state) == ["ignore dragon", "pass"]
    act(state, "p0: pass")  # declined: the dragon eats the 1
    assert options(state) == ["roll", "bank"] and in_hand(state) == 5
    act(state, "p0: roll", "chance: dice 12346 dragon")
    assert options(state) == ["ignore dragon", "pass"]  # declined is not used
    act(state, "p0: pass", "p0: bank")
    pass_turn(state, 1)
    act(state, "p0: skirmish p1", "chance: dice 122346 dragon")  # not in a Skirmish
    assert options(state) == ["roll", "stop"]


def test_d8_hiccup_rerolls_one_die_once_per_skirmish() -> None:
    state = deal(("hiccup", "scout"))
    act(state, "p0: skirmish p1", f"chance: dice {FARKLE6} blank")
    assert set(options(state)) == {"pass", "reroll 2", "reroll 3", "reroll 4", "reroll 6"}
    act(state, "p0: reroll 6")
    assert {str(a): p for a, p in state.chance_outcomes()} == {
        f"die {f}": pytest.approx(1 / 6) for f in range(1, 7)}
    act(state, "chance: die 1")
    assert full(state)["roll"] == "122346" and options(state) == ["keep 1"]
    act(state, "p0: keep 1", "p0: stop", "chance: dice 12346 blank")
    assert options(state) == ["keep 1"]  # used: not offered on the defender's roll


def test_d8_hiccup_may_reroll_the_defenders_die() -> None:
    state = deal(("hiccup", "scout"))
    act(state, "p0: skirmish p1", "chance: dice 122346 blank")
    assert state.current_seats() == (0,) and "reroll 1" in options(state)
    act(state, "p0: pass", "p0: keep 1", "p0: stop", "chance: dice 12346 blank")
    assert state.current_seats() == (0,)  # the attacker decides on the defender's roll
    act(state, "p0: reroll 1", "chance: die 6")
    assert options(state) == ["farkle"] and state.current_seats() == (1,)
    act(state, "p1: farkle")
    assert state.armies == [0 + 500, 0]


def test_d8_hiccup_not_in_a_recruit_nor_for_a_defender() -> None:
    state = deal(("scout", "hiccup"))
    act(state, "p0: recruit", f"chance: dice {FARKLE6} blank")
    assert options(state) == ["farkle"]
    act(state, "p0: farkle")
    pass_turn(state, 1)
    act(state, "p0: skirmish p1", "chance: dice 122346 blank")
    assert options(state) == ["keep 1"]  # p1 owns Hiccup but only defends
    act(state, "p0: keep 1", "p0: stop", "chance: dice 12346 blank")
    assert options(state) == ["keep 1"]


def test_d8_skree_scares_200_once_per_turn_in_or_out_of_the_lair() -> None:
    state = deal(("skree", "scout"), start=1)
    recruit(state, 1, "233346")
    assert options(state) == ["recruit", "skirmish p1", "scare p1", "use gold-purse"]
    act(state, "p0: scare p1")
    assert state.armies == [0, 100]
    assert options(state) == ["recruit", "skirmish p1", "use gold-purse"]  # once per turn
    pass_turn(state, 0)
    pass_turn(state, 1)
    act(state, "p0: scare p1")
    assert state.armies == [0, 0]  # never below 0


def test_d8_skree_reaches_into_the_lair() -> None:
    state = in_lair_with_2600(("scout", "skree"))
    battle_farkle(state, 0)
    act(state, "p1: scare p0")
    assert state.armies == [2400, 0] and lair(state)[0]


def test_d8_skree_wipes_out_an_army_in_the_lair() -> None:
    """D7 with Skree (engine fix): an army scared down to 0 in the Lair leaves it and its
    companion is replaced at the start of the next turn."""
    state = deal(("scout", "skree"))
    recruit(state, 0, "111111", "111111", "112346")  # 6,200
    pass_turn(state, 1)
    act(state, "p0: battle", "chance: dice 111111 blank", "chance: dice 111111 blank",
        f"chance: dice {FARKLE6} blank", "p0: farkle")
    assert state.armies[0] == 200 and lair(state)[0]
    act(state, "p1: scare p0")
    assert state.armies[0] == 0 and lair(state) == [False, False]
    assert companion(state, 0) is None and held(state, 0) == ["gold-purse"]
    pass_turn(state, 1)
    assert state.is_chance()
    act(state, "chance: companion tabby")
    assert companion(state, 0) == "tabby"


def test_d8_lucky_dragon_tooth_ignores_one_farkled_roll() -> None:
    state = deal(items=("lucky-dragon-tooth", "gold-purse"))
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1", "p0: roll",
        "chance: dice 22346 blank")
    assert options(state) == ["use lucky-dragon-tooth", "farkle"]
    act(state, "p0: use lucky-dragon-tooth")
    assert state.is_chance() and in_hand(state) == 5 and pending(state) == 100
    assert held(state, 0) == [] and full(state)["item_discard"] == {"lucky-dragon-tooth": 1}
    act(state, "chance: dice 22346 blank")
    assert options(state) == ["farkle"]  # used once, gone
    act(state, "p0: farkle")
    assert state.armies == [0, 0]


def test_d8_lucky_dragon_tooth_in_the_final_battle() -> None:
    state = battle_table(items=("lucky-dragon-tooth", "gold-purse"))
    act(state, f"chance: dice {FARKLE6} blank")
    assert options(state) == ["use lucky-dragon-tooth", "farkle"]
    act(state, "p0: use lucky-dragon-tooth", f"chance: dice {FARKLE6} alliance")
    assert damage(state) == 2


def test_d8_lucky_dragon_tooth_not_for_a_defender() -> None:
    """D8.4 (engine fix): 'during your turn': the defender rolls in the attacker's turn."""
    state = deal(("field-medic", "battle-mage"), ("gold-purse", "lucky-dragon-tooth"))
    act(state, "p0: skirmish p1", "chance: dice 122346 blank", "p0: keep 1", "p0: stop",
        f"chance: dice {FARKLE6[1:]} blank")
    assert options(state) == ["farkle"]


def test_d8_plunder_sack_keeps_three_more() -> None:
    state = deal(items=("plunder-sack", "gold-purse"))
    act(state, "p0: recruit",
        "chance: dice 122346 alliance", "p0: keep 1", "p0: item", "chance: item gold-purse",
        "p0: roll", "chance: dice 12346 alliance", "p0: keep 1", "p0: item",
        "chance: item gold-purse",
        "p0: roll", "chance: dice 1234 alliance", "p0: keep 1", "p0: item",
        "chance: item second-wind", "p0: bank")
    assert held(state, 0) == ["gold-purse", "gold-purse", "plunder-sack", "second-wind"]
    assert state.current_seats() == (1,)  # four items with the sack: no discard
    assert full(state)["seats"][0]["items"] == 4
    assert state.view(0)["private"]["item_limit"] == 4
    pass_turn(state, 1)
    act(state, "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item healing-potion", "p0: bank")
    assert set(options(state)) == {"discard gold-purse", "discard plunder-sack",
                                   "discard second-wind", "discard healing-potion"}
    sack_gone = state.clone()
    act(state, "p0: discard healing-potion")
    assert len(held(state, 0)) == 4 and state.current_seats() == (1,)
    # discarding the sack itself: the limit is one again, so three more go
    act(sack_gone, "p0: discard plunder-sack")
    for _ in range(3):
        assert sack_gone.current_seats() == (0,)
        act(sack_gone, f"p0: {options(sack_gone)[0]}")
    assert len(held(sack_gone, 0)) == 1 and sack_gone.current_seats() == (1,)


def test_d8_item_limit_at_the_end_of_every_turn_even_anothers() -> None:
    """D8.3: at the end of every turn: a defender who wins and keeps a gained item chooses
    what to discard at the end of the attacker's turn."""
    state = skirmish_table()
    act(state, "p0: skirmish p1", "chance: dice 122346 blank", "p0: keep 1", "p0: stop",
        "chance: dice 11234 alliance", "p1: keep 11", "p1: item", "chance: item second-wind",
        "p1: stop")
    assert state.armies == [0, 500]
    assert state.current_seats() == (1,) and full(state)["player"] == 0
    assert options(state) == ["discard gold-purse", "discard second-wind"]
    act(state, "p1: discard second-wind")
    assert state.current_seats() == (1,) and full(state)["player"] == 1


def test_d8_empty_item_pile_reshuffles_the_discards() -> None:
    decks = {"companions": NEUTRAL["companions"],
             "items": [_card("amber", "keep_extra", 0, 2), _card("bone", "keep_extra", 0, 1)]}
    state = FarkleGame({"players": 2, "decks": decks}).new_initial_state()
    act(state, "chance: companion bystander", "chance: companion bystander",
        "chance: item amber", "chance: item amber", "chance: start p0")
    assert full(state)["item_deck"] == {"bone": 1}
    act(state, "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item bone", "p0: roll", f"chance: dice {FARKLE6[1:]} blank", "p0: farkle")
    assert full(state)["item_deck"] == {} and full(state)["item_discard"] == {"bone": 1}
    act(state, "p1: recruit", "chance: dice 122346 alliance", "p1: keep 1", "p1: item")
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [("item bone", 1.0)]
    act(state, "chance: item bone", "p1: bank", "p1: discard amber")
    assert full(state)["item_discard"] == {"amber": 1} and full(state)["item_deck"] == {}
    assert held(state, 0) == ["amber"] and held(state, 1) == ["bone"]


def test_d8_no_item_left_to_draw() -> None:
    """D8.2 (engine): with the draw pile and the discards both empty, the alliance item
    brings nothing and the roll goes on."""
    decks = {"companions": NEUTRAL["companions"], "items": [_card("amber", "keep_extra", 0, 2)]}
    state = FarkleGame({"players": 2, "decks": decks}).new_initial_state()
    act(state, "chance: companion bystander", "chance: companion bystander",
        "chance: item amber", "chance: item amber", "chance: start p0",
        "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item")
    assert options(state) == ["roll", "bank"] and pending(state) == 100
    assert ("farkle.item.none_left", {}) in said(state)
    act(state, "p0: bank")
    assert state.armies == [100, 0] and state.current_seats() == (1,)


# ---------------------------------------------------------------------------- D8 house cards
def test_d8_old_sergeant_bank_bonus() -> None:
    state = deal(("old-sergeant", "scout"))
    recruit(state, 0, "122346")
    assert state.armies == [200, 0]
    pass_turn(state, 1)
    act(state, "p0: recruit", "chance: dice 122346 dragon", "p0: bank")  # nothing pending
    assert state.armies == [200, 0]


@pytest.mark.parametrize(("attack", "armies"), [("122346", [250 + 500, 1000 - 250]),
                                                (FARKLE6, [0, 1000 + 0 + 500])])
def test_d8_scout_adds_200_to_an_attack_above_0(attack: str, armies: list[int]) -> None:
    state = deal(("scout", "field-medic"), start=1)
    recruit(state, 1, "111234")
    act(state, "p0: skirmish p1", f"chance: dice {attack} blank",
        "p0: keep 1" if attack != FARKLE6 else "p0: farkle")
    if attack != FARKLE6:
        act(state, "p0: stop")
    act(state, "chance: dice 23456 blank", "p1: keep 5", "p1: stop")
    assert state.armies == armies


def test_d8_shieldmaiden_adds_200_to_a_defence_above_0() -> None:
    state = deal(("field-medic", "shieldmaiden"), start=1)
    recruit(state, 1, "111234")
    act(state, "p0: skirmish p1", "chance: dice 111234 blank", "p0: keep 111", "p0: stop",
        "chance: dice 12346 blank", "p1: keep 1", "p1: stop")
    assert state.armies == [700 + 500, 1000 - 700]  # 1000 against 100 + 200


def test_d8_battle_mage_first_damaging_roll_one_more() -> None:
    state = battle_table(("battle-mage", "scout"))
    act(state, f"chance: dice {FARKLE6} dragon")
    assert damage(state) == 2
    act(state, "chance: dice 122346 blank", f"chance: dice {FARKLE6[1:]} dragon")
    assert state.is_terminal()


def test_d8_field_medic_halves_battle_losses_down_to_50s() -> None:
    state = battle_table(("field-medic", "scout"))
    act(state, "chance: dice 111111 blank")
    assert state.armies[0] == 6000 - 1500
    act(state, "chance: dice 122345 blank")  # 150: half is 75, down to 50
    assert state.armies[0] == 4500 - 50


def test_d8_quartermaster_keeps_half_the_pending_on_a_farkle() -> None:
    state = deal(("quartermaster", "scout"))
    act(state, "p0: recruit", "chance: dice 234445 blank", "p0: keep 4445", "p0: roll",
        "chance: dice 23 blank", "p0: farkle")
    assert state.armies == [200, 0]  # half of 450 is 225, down to 200


def test_d8_treasure_hunter_draws_an_item_for_1000_banked() -> None:
    state = deal(("treasure-hunter", "scout"))
    recruit(state, 0, "122345")  # 150: no item
    assert state.current_seats() == (1,)
    pass_turn(state, 1)
    act(state, "p0: recruit", "chance: dice 111234 blank", "p0: keep 111", "p0: bank")
    assert state.armies == [1150, 0] and state.is_chance()
    act(state, "chance: item second-wind")
    assert options(state) == ["discard gold-purse", "discard second-wind"]


def test_d8_gold_purse_before_the_action() -> None:
    state = deal()
    act(state, "p0: use gold-purse")
    assert state.armies == [300, 0] and held(state, 0) == []
    assert options(state) == ["recruit", "skirmish p1"]
    assert full(state)["item_discard"] == {"gold-purse": 1}


def test_d8_recruiting_horn_between_rolls() -> None:
    state = deal(items=("recruiting-horn", "gold-purse"))
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1")
    assert options(state) == ["use recruiting-horn", "roll", "bank"]
    act(state, "p0: use recruiting-horn")
    assert pending(state) == 400 and options(state) == ["roll", "bank"]
    act(state, "p0: bank")
    assert state.armies == [400, 0]


def test_d8_second_wind_brings_every_die_back() -> None:
    state = deal(items=("second-wind", "gold-purse"))
    act(state, "p0: recruit", "chance: dice 122346 blank", "p0: keep 1",
        "p0: use second-wind", "p0: roll")
    illegal(state, "chance: dice 12346 blank", "D3")
    act(state, "chance: dice 122346 blank", "p0: keep 1", "p0: bank")
    assert state.armies == [200, 0]


def test_d8_lucky_clover_like_the_tooth() -> None:
    state = deal(items=("lucky-clover", "gold-purse"))
    act(state, "p0: recruit", f"chance: dice {FARKLE6} blank")
    assert options(state) == ["use lucky-clover", "farkle"]
    act(state, "p0: use lucky-clover", "chance: dice 122346 blank", "p0: keep 1", "p0: bank")
    assert state.armies == [100, 0]


def test_d8_healing_potion_cancels_the_first_battle_loss() -> None:
    state = battle_table(items=("healing-potion", "gold-purse"))
    act(state, "chance: dice 111111 blank")
    assert state.armies[0] == 6000 and held(state, 0) == []
    act(state, "chance: dice 122346 blank")
    assert state.armies[0] == 5900


def test_d8_dragonsbane_arrow_first_damaging_roll_one_more() -> None:
    state = battle_table(items=("dragonsbane-arrow", "gold-purse"))
    act(state, "chance: dice 122346 blank")  # no damage: the arrow waits
    assert held(state, 0) == ["dragonsbane-arrow"]
    act(state, f"chance: dice {FARKLE6[1:]} dragon")
    assert damage(state) == 2 and held(state, 0) == []
    act(state, f"chance: dice {FARKLE6[1:]} dragon")
    assert state.is_terminal()


# ---------------------------------------------------------------------------- D8.5 deck files
DECK_TOML = """
[[companions]]
id = "grandma"
count = 4
effect = "bank_bonus"
amount = 50
name = { en = "Grandma", de = "Oma" }
text = { en = "Banking: 50 more.", de = "Beim Sichern: 50 mehr." }

[[items]]
id = "cookie"
count = 6
effect = "gain"
amount = 100
name = { en = "Cookie" }
text = { en = "Before your action: 100 soldiers." }
"""


def test_d8_deck_file_toml_and_json_replace_the_decks(tmp_path: Path) -> None:
    toml = tmp_path / "deck.toml"
    toml.write_text(DECK_TOML, encoding="utf-8")
    data = load_deck_file(str(toml))
    js = tmp_path / "deck.json"
    js.write_text(json.dumps(data), encoding="utf-8")
    assert load_deck_file(str(js)) == data
    game = make_game("farkle", {"players": 3, "decks": data})
    assert isinstance(game, FarkleGame)
    assert [c.id for c in game.companions] == ["grandma"]
    assert [c.id for c in game.items] == ["cookie"]
    assert game.items[0].name("de") == "Cookie"  # German falls back to the English
    state = game.new_initial_state()
    act(state, *["chance: companion grandma"] * 3, *["chance: item cookie"] * 3,
        "chance: start p0", "p0: use cookie")
    recruit(state, 0, "122346")
    assert state.armies == [100 + 100 + 50, 0, 0]
    record = finish_record(new_record(game, SEATS2 + SEATS2[:1]), state)
    _, again = replay(Record.from_json(json.loads(record.dumps())))
    assert again.full_state() == state.full_state()
    # one deck only: the other stays built in
    game2 = FarkleGame({"players": 2, "decks": {"items": data["items"]}})
    assert game2.companions == COMPANIONS


@pytest.mark.parametrize(("data", "message"), [
    ({"companions": [{"effect": "scare"}]}, "needs an 'id'"),
    ({"companions": [_card("x", "fly")]}, "effect must be one of"),
    ({"items": [_card("x", "scare")]}, "effect must be one of"),  # a companion effect
    ({"items": [{**_card("x", "gain"), "amount": -1}]}, "amount"),
    ({"items": [{**_card("x", "gain"), "count": 0}]}, "count"),
    ({"items": [{**_card("x", "gain"), "name": {}}]}, "name.en"),
    ({"items": [{**_card("x", "gain"), "text": "words"}]}, "text.en"),
    ({"items": [_card("x", "gain", 1, 5), _card("x", "gain", 1, 5)]}, "unique"),
    ({"monsters": []}, "companions"),
    ({"companions": [_card("x", "scare", 100, 1)]}, "2 players need at least 2"),
])
def test_d8_bad_deck_data_raises_option_error(data: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        FarkleGame({"players": 2, "decks": data})


def test_d8_bad_deck_files(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="cannot read deck file"):
        load_deck_file(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[[companions]\nid = ", encoding="utf-8")
    with pytest.raises(OptionError, match="does not parse"):
        load_deck_file(str(bad))
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"items": [', encoding="utf-8")
    with pytest.raises(OptionError, match="does not parse"):
        load_deck_file(str(bad_json))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"items": [_card("x", "fly")]}), encoding="utf-8")
    with pytest.raises(OptionError, match="effect must be one of"):
        load_deck_file(str(wrong))


def test_d8_small_neutral_decks_are_enough_for_the_table() -> None:
    comps, items = decks_from_data(NEUTRAL)
    assert [c.id for c in comps] == ["bystander"] and len(items) == 2
    with pytest.raises(OptionError, match="5 players need at least 5"):
        FarkleGame({"players": 5, "decks": {"companions": [_card("x", "scare", 200, 4)]}})
    FarkleGame({"players": 5, "decks": NEUTRAL})


# ---------------------------------------------------------------------------- D9 views
def test_d9_item_identities_are_their_owners_alone() -> None:
    state = deal(items=("lucky-dragon-tooth", "plunder-sack"))
    act(state, "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item second-wind", "p0: bank", "p0: discard lucky-dragon-tooth")
    mine, theirs, spectator = state.view(0), state.view(1), state.view(None)
    assert mine["private"] == {"items": ["second-wind"], "gained": [], "item_limit": 1}
    assert theirs["private"]["items"] == ["plunder-sack"]
    assert spectator["private"] is None and spectator["legal"] is None
    for v in (mine, theirs, spectator):
        assert [s["items"] for s in v["public"]["seats"]] == [1, 1]  # counts are public
    assert mine["public"]["history"][2] == "chance: item lucky-dragon-tooth"
    assert theirs["public"]["history"][2] == "chance: item for p0"
    assert theirs["public"]["history"][3] == "chance: item plunder-sack"
    assert mine["public"]["history"][3] == "chance: item for p1"
    for v in (theirs, spectator):
        text = json.dumps(v)
        assert "lucky-dragon-tooth" not in text and "second-wind" not in text
        assert "p0: discard (hidden)" in v["public"]["history"]
        assert "chance: item for p0" in v["public"]["history"]
    assert "plunder-sack" not in json.dumps(spectator) and "plunder-sack" not in json.dumps(mine)
    # the public rest is the same for everybody
    for key in ("seats", "dragon", "roll", "pending"):
        assert mine["public"][key] == theirs["public"][key] == spectator["public"][key]
    assert mine["turn"] == theirs["turn"] == spectator["turn"]
    # the public events are the same for everybody; each seat adds its own secrets only
    public = [e for e in spectator["events"] if "to" not in e]
    assert public == spectator["events"]
    for seat, v in ((0, mine), (1, theirs)):
        assert [e for e in v["events"] if "to" not in e] == public
        assert all(e.get("to", seat) == seat for e in v["events"])


def test_d9_gained_items_hidden_while_set_aside() -> None:
    state = deal()
    act(state, "p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
        "chance: item lucky-clover")
    assert state.view(0)["private"]["gained"] == ["lucky-clover"]
    assert state.view(1)["public"]["seats"][0]["items_gained"] == 1
    assert "lucky-clover" not in json.dumps(state.view(1))
    assert "lucky-clover" not in json.dumps(state.view(None))


def _perturbed(state: FarkleState, seat: int | None) -> FarkleState:
    """Other seats' items replaced by other cards (same counts), their hidden entries too."""
    other = state.clone()
    n = len(state.game.items)
    for s in range(state.num_players):
        if s == seat:
            continue
        other.items[s] = [(i + 1) % n for i in other.items[s]]
        other.gained[s] = [(i + 3) % n for i in other.gained[s]]
    for i, owner in other.hidden_for.items():
        if owner != seat:
            other._log[i] = "chance: item secret"
    for i, (s, a) in enumerate(other.history):
        if s != seat and a.kind in (Kind.DISCARD, Kind.KEEP_ITEM):
            other._log[i] = f"p{s}: discard secret"
    return other


def test_d9_views_do_not_depend_on_other_seats_items() -> None:
    """D9 perturbation: another seat's items changed in a clone (same count): no change."""
    state = deal(("scout", "shieldmaiden", "field-medic"),
                 ("plunder-sack", "lucky-dragon-tooth", "gold-purse"))
    stages = [
        [],
        ["p0: recruit", "chance: dice 122346 alliance", "p0: keep 1", "p0: item",
         "chance: item second-wind"],
        ["p0: bank"],  # the sack: no discard
        ["p1: skirmish p2", "chance: dice 122346 alliance", "p1: keep 1", "p1: item",
         "chance: item healing-potion", "p1: stop", f"chance: dice {FARKLE6[1:]} alliance",
         "p2: farkle"],  # p1 wins, keeps the potion: two items, one to discard
        ["p1: discard lucky-dragon-tooth"],
    ]
    for entries in stages:
        act(state, *entries)
        for seat in (0, 1, 2, None):
            before = json.dumps(state.view(seat), sort_keys=True)
            assert json.dumps(_perturbed(state, seat).view(seat), sort_keys=True) == before


# ---------------------------------------------------------------------------- errors
def test_errors_illegal_actions_name_the_rule_and_change_nothing() -> None:
    state = deal(items=("gold-purse", "lucky-clover"))
    illegal(state, "p0: battle", "D3")
    illegal(state, "p0: skirmish p0", "D5.1")
    illegal(state, "p0: use lucky-clover", "D3")  # not held by p0
    illegal(state, "p0: roll", "D3")
    illegal(state, "p0: discard gold-purse", "D3")
    illegal(state, "chance: dice 122346 blank", None)  # not chance's turn
    err = illegal(state, "p1: recruit", None)
    assert "not Player 2's move" in str(err)  # no names: seats counted from 1
    act(state, "p0: recruit")
    illegal(state, "chance: dice 12346 blank", "D3")  # six dice in hand
    illegal(state, "chance: item gold-purse", "D3")
    illegal(state, "p0: keep 1", None)
    act(state, "chance: dice 122346 alliance")
    illegal(state, "p0: keep 12", "D2")
    illegal(state, "p0: double", "D4.1")
    act(state, "p0: keep 1")
    illegal(state, "p0: bank", "D4.4")
    illegal(state, "p0: keep-item gold-purse", "D4.4")
    act(state, "p0: double")
    illegal(state, "p0: stop", "D4.1")
    illegal(state, "p0: farkle", "D4.1")
    act(state, "p0: roll", f"chance: dice {FARKLE6[1:]} blank")
    illegal(state, "p0: bank", "D4.2")
    illegal(state, "p0: use gold-purse", "D4.2")


@pytest.mark.parametrize("text", ["fly", "", "keep", "keep 7", "keep 1234567", "dice 123 purple",
                                  "dice 12x blank", "skirmish p7", "skirmish", "use sword",
                                  "reroll 0", "start p9", "companion dog"])
def test_errors_malformed_action_text(text: str) -> None:
    with pytest.raises(MalformedActionError, match="not a Dragon Farkle action"):
        FarkleGame({"players": 2}).parse_action(text)


def test_errors_unsorted_dice_are_forgiven() -> None:
    game = FarkleGame({"players": 2})
    assert game.parse_action("keep 5444") is game.parse_action("keep 4445")
    assert game.parse_action("Dice 544432  BLANK") is game.parse_action("dice 234445 blank")


@pytest.mark.parametrize("players", [1, 6, "2"])
def test_errors_bad_player_count(players: Any) -> None:
    with pytest.raises(OptionError, match="2 to 5 players"):
        FarkleGame({"players": players})


def test_d1_components_dice_event_die_and_decks() -> None:
    """D1: six soldier dice per roll, an event die with 1 dragon, 1 alliance and 4 blank
    faces, 10 companions and 20 magic items."""
    from dragonlair.games.farkle.cards import COMPANIONS, ITEMS
    from dragonlair.games.farkle.state import roll_outcomes

    outcomes = roll_outcomes(6)
    by_event = {e: sum(p for _, ev, p in outcomes if ev == e) for e in range(3)}
    assert by_event[0] == pytest.approx(1 / 6)  # dragon
    assert by_event[1] == pytest.approx(1 / 6)  # alliance
    assert by_event[2] == pytest.approx(4 / 6)  # blank
    assert sum(p for _, _, p in outcomes) == pytest.approx(1)
    assert sum(c.count for c in COMPANIONS) == 10
    assert sum(c.count for c in ITEMS) == 20
