"""Rules tests for Dragon Master: components (M1), setup and the deal (M2), placement (M3),
scoring (M4), the match (M5) and what each player may know (M6), as rulings in
shared/rules/master.md.

Positions are staged with hand-written record entries ("chance: deal ruby",
"chance: start p0", "p0: place ruby d4"). Hands are written as strings of card values,
one digit per card: "00112233" is two Eggs, two Emeralds, two Sapphires and two Rubies.
Whole rounds are staged as a 4 x 4 grid on the box a1-d4 (rows[0] is row 1, one digit per
column a-d); the deal that fits it is worked out by :func:`play_grid`.
"""

from __future__ import annotations

import json
import random
import re
from math import comb, prod
from pathlib import Path

import pytest

from dragonlair.core.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
)
from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, parse_entry, replay
from dragonlair.games.master.cards import (
    CARDS,
    COPIES,
    HAND,
    compare,
    line_code,
    score_table,
)
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import MasterState, Phase, cell_name

ROOT = Path(__file__).resolve().parents[1]
ID = [c.id for c in CARDS]  # egg, emerald, sapphire, ruby
SEATS = [{"name": "a", "player": "human"}, {"name": "b", "player": "human"}]

# the 16 cells of the box a1-d4, each touching an earlier one along a side (a snake from d4)
SNAKE = ["d4", "c4", "b4", "a4", "a3", "b3", "c3", "d3",
         "d2", "c2", "b2", "a2", "a1", "b1", "c1", "d1"]

# whole-round grids (rows[0] is row 1; columns a-d); seat 0 scores the columns, seat 1 the rows
P0_WINS = ["0123", "0123", "0123", "0123"]  # columns: four of a kind; rows: 0+1+2+3 = 6
P1_WINS = ["0000", "1111", "2222", "3333"]  # the transpose: rows four of a kind
# a symmetric grid with its rows reversed: columns [40, 21, 6, 6], rows [6, 6, 21, 40]
DRAWN = ["3210", "3201", "1022", "1133"]


# ---------------------------------------------------------------------------- helpers
def new_round(**options: object) -> MasterState:
    return MasterGame(options).new_initial_state()


def play(state: MasterState, *entries: str) -> MasterState:
    """Apply record entries such as ``"p0: place ruby d4"`` or ``"chance: deal egg"``."""
    for entry in entries:
        seat, text = parse_entry(entry, 2)
        state.apply(seat, state.game.parse_action(text))
    return state


def deal(state: MasterState, p0: str, p1: str, start: int | None = 0) -> MasterState:
    """M2: chance deals p0's eight cards, then p1's eight, then (``start``) the start player."""
    assert len(p0) == len(p1) == HAND
    play(state, *[f"chance: deal {ID[int(ch)]}" for ch in p0 + p1])
    if start is not None:
        play(state, f"chance: start p{start}")
    return state


def hand(state: MasterState, seat: int) -> str:
    """A seat's hand as a sorted digit string."""
    return "".join(str(v) * n for v, n in enumerate(state.hands[seat]))


def cells(state: MasterState) -> set[str]:
    return {cell_name(c) for c in state.legal_cells()}


def placements(state: MasterState, *cells_: str) -> MasterState:
    """The seats to move place, in turn, the first card of their hand on these cells."""
    for cell in cells_:
        seat = state.player
        value = next(v for v in range(4) if state.hands[seat][v])
        play(state, f"p{seat}: place {ID[value]} {cell}")
    return state


def snapshot(state: MasterState) -> str:
    return json.dumps(state.full_state(), sort_keys=True)


def rejects(state: MasterState, entry: str, rule: str | None = "M3",
            error: type[Exception] = IllegalActionError) -> Exception:
    """``entry`` raises ``error`` (naming ``rule``) and changes nothing."""
    before, length = snapshot(state), len(state.history)
    with pytest.raises(error) as info:
        play(state, entry)
    if rule is not None:
        assert isinstance(info.value, IllegalActionError) and info.value.rule == rule
    assert snapshot(state) == before and len(state.history) == length
    return info.value


def play_grid(state: MasterState, rows: list[str], starter: int) -> MasterState:
    """Deal and play a whole round that fills the box a1-d4 with ``rows``, ``starter`` placing
    first and the cards going down in :data:`SNAKE` order. Checks that the engine agrees on the
    starter (a chance ``start`` entry is written only where the engine asks for one)."""
    value = {f"{'abcd'[c]}{r + 1}": rows[r][c] for r in range(4) for c in range(4)}
    seq = [value[cell] for cell in SNAKE]
    assert all(seq.count(str(v)) <= COPIES for v in range(4))
    hands = {starter: "".join(seq[0::2]), 1 - starter: "".join(seq[1::2])}
    deal(state, hands[0], hands[1], start=None)
    if state.phase == Phase.START:
        play(state, f"chance: start p{starter}")
    assert state.phase == Phase.PLACE and state.player == starter
    for i, cell in enumerate(SNAKE):
        seat = starter if i % 2 == 0 else 1 - starter
        play(state, f"p{seat}: place {ID[int(seq[i])]} {cell}")
    return state


def finish(state: MasterState) -> MasterState:
    """Place the first legal action until the round (or game) is over."""
    while not state.is_terminal() and state.phase == Phase.PLACE:
        state.apply(state.player, state.legal_actions(state.player)[0])
    return state


def winners(state: MasterState) -> tuple[int, ...]:
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winners


def random_round(seed: int, **options: object) -> MasterState:
    rng = random.Random(seed)
    state = new_round(**options)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            state.apply(state.player, rng.choice(state.legal_actions(state.player)))
    return state


def probs(state: MasterState) -> dict[str, float]:
    return {str(a): p for a, p in state.chance_outcomes()}


# ---------------------------------------------------------------------------- M1
def test_m1_four_kinds_of_dragon_values_and_names() -> None:
    """M1: Dragon Egg 0, Emerald 1, Sapphire 2, Ruby 3, with English and German names."""
    assert [(c.value, c.id, c.name("en"), c.name("de")) for c in CARDS] == [
        (0, "egg", "Dragon Egg", "Drachenei"),
        (1, "emerald", "Emerald Dragon", "Smaragd-Drache"),
        (2, "sapphire", "Sapphire Dragon", "Saphir-Drache"),
        (3, "ruby", "Ruby Dragon", "Rubin-Drache"),
    ]


def test_m1_twenty_cards_five_of_each() -> None:
    """M1: 20 cards, 5 of each value: the deal draws from exactly that deck, and after it the
    hands and the set-aside cards hold 5 of each value."""
    assert COPIES == 5
    state = new_round()
    assert probs(state) == {f"deal {i}": 5 / 20 for i in ID}
    deal(state, "00112233", "01230123")
    full = state.full_state()
    for i in ID:
        assert full["hands"][0][i] + full["hands"][1][i] + full["set_aside"][i] == 5
    # the deck runs out of a value after five
    state = new_round()
    play(state, *["chance: deal ruby"] * 5)
    assert "deal ruby" not in probs(state)
    rejects(state, "chance: deal ruby", "M2")


# ---------------------------------------------------------------------------- M2
def test_m2_deal_probabilities_are_draws_without_replacement() -> None:
    """M2: each deal is a chance event weighted by the cards left: 5/20 each, then 4/19 for the
    value just dealt and 5/19 for the others, ... always summing to 1."""
    state = new_round()
    play(state, "chance: deal ruby")
    assert probs(state) == {"deal egg": 5 / 19, "deal emerald": 5 / 19,
                            "deal sapphire": 5 / 19, "deal ruby": 4 / 19}
    play(state, "chance: deal ruby", "chance: deal egg")
    assert probs(state) == {"deal egg": 4 / 17, "deal emerald": 5 / 17,
                            "deal sapphire": 5 / 17, "deal ruby": 3 / 17}
    rng = random.Random(3)
    for _ in range(13):
        assert sum(probs(state).values()) == pytest.approx(1)
        state.apply(CHANCE, state.sample_chance(rng))
    assert state.phase == Phase.START


def test_m2_first_hand_follows_the_multivariate_hypergeometric() -> None:
    """M2: the chance probabilities give p0's 8 cards exactly the hypergeometric law
    C(5,a) C(5,b) C(5,c) C(5,d) / C(20,8) for a hand with a Eggs, b Emeralds, ..."""
    dist: dict[tuple[int, ...], float] = {(0, 0, 0, 0): 1.0}
    for _ in range(HAND):  # p0's cards: sum over the chance tree, merged by hand
        nxt: dict[tuple[int, ...], float] = {}
        for counts, p in dist.items():
            state = new_round()
            play(state, *[f"chance: deal {ID[v]}" for v in range(4) for _ in range(counts[v])])
            for action, q in state.chance_outcomes():
                key = tuple(n + (v == action.value) for v, n in enumerate(counts))
                nxt[key] = nxt.get(key, 0.0) + p * q
        dist = nxt
    assert len(dist) == sum(1 for a in range(6) for b in range(6) for c in range(6)
                            if 0 <= HAND - a - b - c <= 5)
    for counts, p in dist.items():
        assert p == pytest.approx(prod(comb(5, n) for n in counts) / comb(20, 8)), counts
    assert sum(dist.values()) == pytest.approx(1)


def test_m2_eight_cards_each_and_four_set_aside_unseen() -> None:
    """M2: p0's eight cards are dealt first, then p1's; the 4 left are set aside, and nobody
    sees them: no view holds them, only the full state."""
    state = new_round()
    play(state, *[f"chance: deal {i}" for i in ("egg", "egg", "ruby", "ruby", "ruby",
                                                 "emerald", "sapphire", "sapphire")])
    assert state.view(None)["public"]["hand_sizes"] == [8, 0] and state.is_chance()
    deal_rest = ["sapphire", "sapphire", "sapphire", "egg", "egg", "egg", "emerald", "emerald"]
    play(state, *[f"chance: deal {i}" for i in deal_rest])
    assert hand(state, 0) == "00122333" and hand(state, 1) == "00011222"
    assert state.phase == Phase.START and state.view(None)["public"]["hand_sizes"] == [8, 8]
    assert state.full_state()["set_aside"] == {"egg": 0, "emerald": 2, "sapphire": 0, "ruby": 2}
    for seat in (0, 1, None):
        view = state.view(seat)
        assert "set_aside" not in json.dumps(view) and "hands" not in json.dumps(view)
        assert view["public"]["rounds"] == []


def test_m2_random_start_player_is_a_fair_chance_event() -> None:
    """M2: in a single round the start player is a chance event, 1/2 each."""
    state = deal(new_round(), "00112233", "01230123", start=None)
    assert state.is_chance() and state.phase == Phase.START
    assert probs(state) == {"start p0": 0.5, "start p1": 0.5}
    rejects(state, "chance: deal egg", "M2")
    rejects(state, "p0: place egg d4", None)  # nobody places before the start is chosen
    rng = random.Random(0)
    picks = [str(state.sample_chance(rng)) for _ in range(2000)]
    assert 900 < picks.count("start p1") < 1100
    play(state, "chance: start p1")
    assert state.current_seats() == (1,) and state.view(None)["public"]["starter"] == 1
    assert state.legal_actions(0) == ()


def test_m2_a_record_stages_any_deal() -> None:
    """M2: the deal is written in the record, so a record can stage any deal (here p0 holds
    every Egg and p1 every Ruby) and replays to it."""
    state = deal(new_round(), "00000111", "22223333", start=1)
    assert hand(state, 0) == "00000111" and hand(state, 1) == "22223333"
    assert state.full_state()["set_aside"] == {"egg": 0, "emerald": 2, "sapphire": 1, "ruby": 1}
    record = finish_record(new_record(state.game, SEATS), state)
    assert record.actions[:16] == [f"chance: deal {ID[int(ch)]}" for ch in "0000011122223333"]
    assert record.actions[16] == "chance: start p1"
    _, again = replay(Record.from_json(json.loads(record.dumps())))
    assert again.full_state() == state.full_state()


def test_m2_chance_cannot_deal_what_the_deck_lacks() -> None:
    """M2: a sixth Egg cannot be dealt; a record that tries says which action is bad."""
    state = new_round()
    play(state, *["chance: deal egg"] * 5)
    rejects(state, "chance: deal egg", "M2")
    rejects(state, "chance: start p0", "M2")  # the start comes after the deal
    rejects(state, "chance: place egg d4", "M2")
    rejects(state, "p0: place egg d4", None)  # no seat moves during the deal
    record = new_record(state.game, SEATS)
    record.actions = ["chance: deal egg"] * 6
    with pytest.raises(RecordError, match=r"action 5 .*rule M2"):
        replay(record)


# ---------------------------------------------------------------------------- M3
def test_m3_first_card_only_on_d4() -> None:
    """M3: the first card goes on the origin, d4, and any card of the hand may be it."""
    state = deal(new_round(), "00112233", "01230123", start=0)
    assert cells(state) == {"d4"}
    assert [str(a) for a in state.legal_actions(0)] == [f"place {i} d4" for i in ID]
    assert state.view(0)["public"]["legal_cells"] == ["d4"]
    for cell in ("a1", "c4", "d3", "g7", "e5"):
        err = rejects(state, f"p0: place ruby {cell}")
        assert isinstance(err, IllegalActionError)
        assert err.code == "master.place.first_on_origin" and err.params["origin"] == "d4"
    play(state, "p0: place emerald d4")
    assert state.view(None)["public"]["grid"] == {"d4": "emerald"}


def test_m3_later_cards_share_a_side_diagonal_is_not_enough() -> None:
    """M3: after the origin, only the four side neighbours are legal; diagonal cells are not."""
    state = placements(deal(new_round(), "00112233", "01230123"), "d4")
    assert cells(state) == {"c4", "e4", "d3", "d5"}
    for cell in ("c3", "e3", "c5", "e5", "d4", "d6", "b4"):
        rejects(state, f"p1: place egg {cell}")
    placements(state, "e4")
    assert cells(state) == {"c4", "f4", "d3", "e3", "d5", "e5"}
    err = rejects(state, "p0: place egg f5")  # diagonal to e4
    assert isinstance(err, IllegalActionError) and err.code == "master.place.not_adjacent"
    err = rejects(state, "p0: place egg e4")  # occupied
    assert isinstance(err, IllegalActionError) and err.code == "master.place.cell_taken"
    assert err.params["card"] == "egg" and err.params["cell"] == "e4"


def test_m3_no_fifth_card_in_a_row_of_four() -> None:
    """M3: after four cards in a row, the row is full: no fifth card at either end; the cells
    above and below are legal."""
    state = placements(deal(new_round(), "00112233", "01230123"), "d4", "c4", "b4")
    assert cells(state) == {"a4", "e4", "b3", "c3", "d3", "b5", "c5", "d5"}
    placements(state, "a4")
    assert cells(state) == {"a3", "b3", "c3", "d3", "a5", "b5", "c5", "d5"}
    rejects(state, "p0: place egg e4")


def test_m3_no_fifth_card_in_a_column_of_four() -> None:
    """M3: the same for a column: d4 d5 d6 d7 leaves no room for d3."""
    state = placements(deal(new_round(), "00112233", "01230123"), "d4", "d5", "d6")
    assert {"d3", "d7"} <= cells(state)
    placements(state, "d7")
    assert cells(state) == {f"{c}{r}" for c in "ce" for r in (4, 5, 6, 7)}
    rejects(state, "p0: place egg d3")


def test_m3_fixed_box_only_inside_and_holes_need_a_side_neighbour() -> None:
    """M3: once the cards span 4 columns and 4 rows the box is fixed: only cells inside it that
    touch a card along a side are legal. A hole inside the box with no side neighbour (f6) is
    not legal, nor is any cell outside."""
    state = placements(deal(new_round(), "00112233", "01230123"),
                       "d4", "e4", "f4", "g4", "d5", "d6", "d7")
    assert state.view(None)["public"]["box"] == {"columns": "defg", "rows": [4, 5, 6, 7]}
    assert cells(state) == {"e5", "f5", "g5", "e6", "e7"}
    for cell in ("f6", "g6", "f7", "g7", "c4", "d3", "c7", "g3"):
        rejects(state, f"p1: place egg {cell}")
    placements(state, "e6")
    assert cells(state) == {"e5", "f5", "g5", "f6", "e7"}


def test_m3_box_can_grow_either_way_until_it_reaches_four() -> None:
    """M3: three in a row may grow at either end; the fourth fixes the width."""
    state = placements(deal(new_round(), "00112233", "01230123"), "d4", "e4", "f4")
    assert {"c4", "g4"} <= cells(state)
    placements(state, "c4")
    assert "g4" not in cells(state) and "b4" not in cells(state)
    # an L: the height still grows both ways to four rows
    placements(state, "c3", "c2")
    assert {"c1", "c5"} <= cells(state)
    placements(state, "c5")
    assert not {"c1", "c6", "b4", "g4"} & cells(state)


def test_m3_any_card_of_the_hand_on_any_legal_cell() -> None:
    """M3: the legal actions are exactly every value in the hand times every legal cell."""
    state = placements(deal(new_round(), "00000111", "22223333"), "d4", "e4", "d5")
    assert hand(state, 1) == "2223333"
    expected = {f"place {i} {c}" for i in ("sapphire", "ruby") for c in cells(state)}
    assert {str(a) for a in state.legal_actions(1)} == expected
    assert len(state.legal_actions(1)) == 2 * len(cells(state))
    assert state.legal_actions(0) == ()


def test_m3_a_card_not_in_hand_is_refused() -> None:
    """M3: a player places a card from their own hand only."""
    state = deal(new_round(), "00000111", "22223333", start=0)
    err = rejects(state, "p0: place ruby d4")
    assert isinstance(err, IllegalActionError)
    assert err.code == "master.place.card_not_in_hand"
    assert err.params == {"seat": 0, "card": "ruby"}
    assert "no Ruby Dragon in hand" in str(err) and "Rubin-Drache" in err.message("de")
    placements(state, "d4", "d5", "d6")  # p0 egg, p1 sapphire, p0 egg
    rejects(state, "p1: place egg e4")
    rejects(state, "p1: place emerald d3")


def test_m3_out_of_turn_and_after_the_end_change_nothing() -> None:
    """M3: players alternate; a seat that is not to move, or chance during placement, is refused
    and nothing changes; after the 16th card nobody moves."""
    state = placements(deal(new_round(), "00112233", "01230123"), "d4")
    assert state.current_seats() == (1,)
    err = rejects(state, "p0: place egg e4", None)
    assert "not Player 1's move" in str(err)  # no names: seats counted from 1
    rejects(state, "chance: deal egg", None)
    rejects(state, "chance: start p0", None)
    rejects(state, "p1: deal egg", "M3")
    rejects(state, "p1: start p1", "M3")
    done = play_grid(new_round(), P0_WINS, 0)
    assert done.is_terminal()
    rejects(done, "p1: place egg e4", None)
    rejects(done, "chance: deal egg", None)


@pytest.mark.parametrize("text", ["place ruby h4", "place ruby d8", "place ruby d0",
                                  "place dragon d4", "put ruby d4", "place ruby", "place d4",
                                  "ruby d4", "", "deal", "deal diamond", "start p2",
                                  "place ruby d4 now", "place 3 d4"])
def test_m3_malformed_text_is_refused(text: str) -> None:
    """Action text that is not a Dragon Master action raises MalformedActionError."""
    game = MasterGame()
    with pytest.raises(MalformedActionError, match="not a Dragon Master action"):
        game.parse_action(text)
    state = deal(new_round(), "00112233", "01230123")
    rejects(state, f"p0: {text}" if text else "p0: x", None, MalformedActionError)


def test_m3_parsing_forgives_case_and_spaces() -> None:
    game = MasterGame()
    assert game.parse_action("  Place  RUBY   D4 ") == game.parse_action("place ruby d4")
    assert str(game.parse_action("DEAL Egg")) == "deal egg"


def test_m3_never_stuck_and_the_box_is_full_after_sixteen() -> None:
    """M3: in random rounds the player to move always has a legal action, the cards always fit
    a 4 x 4 box, and after 16 cards that box is full and the hands empty.
    (tests/test_master_properties.py checks every reachable shape exhaustively.)"""
    for seed in range(200):
        rng = random.Random(seed)
        state = deal(new_round(), "00112233", "01230123", start=seed % 2)
        while not state.is_terminal():
            legal = state.legal_actions(state.player)
            assert legal
            state.apply(state.player, rng.choice(legal))
            box = state.view(None)["public"]["box"]
            assert len(box["columns"]) <= 4 and len(box["rows"]) <= 4
        grid = state.view(None)["public"]["grid"]
        box = state.view(None)["public"]["box"]
        assert len(grid) == 16 and len(box["columns"]) == 4 and len(box["rows"]) == 4
        assert set(grid) == {f"{c}{r}" for c in box["columns"] for r in box["rows"]}
        assert state.view(None)["public"]["hand_sizes"] == [0, 0]


# ---------------------------------------------------------------------------- M4
# every 4-card line, by pattern (hand-computed from M4)
LINES_100 = {
    # all four values once: 0 + 1 + 2 + 3
    "0123": 6,
    # a pair (10 x value; two Eggs = 0) and two singles
    "0012": 3, "0013": 4, "0023": 5,
    "1102": 12, "1103": 13, "1123": 15,
    "2201": 21, "2203": 23, "2213": 24,
    "3301": 31, "3302": 32, "3312": 33,
    # two pairs: both score
    "0011": 10, "0022": 20, "0033": 30, "1122": 30, "1133": 40, "2233": 50,
    # three of a value: 100 (three Eggs too), plus the fourth card's face value
    "0001": 101, "0002": 102, "0003": 103,
    "1110": 100, "1112": 102, "1113": 103,
    "2220": 100, "2221": 101, "2223": 103,
    "3330": 100, "3331": 101, "3332": 102,
    # four of a value
    "0000": 100, "1111": 100, "2222": 100, "3333": 100,
}


def test_m4_the_table_covers_every_line() -> None:
    assert len(LINES_100) == comb(4 + 4 - 1, 4)  # 35 multisets of 4 cards over 4 values
    assert len({"".join(sorted(k)) for k in LINES_100}) == 35


@pytest.mark.parametrize("line", sorted(LINES_100))
def test_m4_line_score_every_pattern(line: str) -> None:
    """M4: the score of every 4-card line under the default option, in any card order."""
    table = score_table("100")
    values = [int(ch) for ch in line]
    assert table[line_code(values)] == LINES_100[line]
    assert table[line_code(values[::-1])] == LINES_100[line]


@pytest.mark.parametrize(("line", "plain", "face"), [
    ("0000", 100, 100), ("1111", 100, 101), ("2222", 100, 102), ("3333", 100, 103)])
def test_m4_four_of_a_kind_under_both_options(line: str, plain: int, face: int) -> None:
    """M4: four of a value score 100; with four_of_a_kind = "100+face" 100 plus the face value
    of the fourth card. Nothing else changes with the option."""
    code = line_code([int(ch) for ch in line])
    plain_table, face_table = score_table("100"), score_table("100+face")
    assert plain_table[code] == plain
    assert face_table[code] == face
    fours = {line_code([v] * 4) for v in range(4)}
    assert all(plain_table[c] == face_table[c] for c in range(625) if c not in fours)


def test_m4_singles_pairs_and_triples_in_partial_lines() -> None:
    """M4 by value group: a single scores its face value (an Egg 0), a pair 10 x the value
    (two Eggs 0), three of a value 100 (three Eggs the only way Eggs score)."""
    table = score_table("100")
    assert [table[line_code([v])] for v in range(4)] == [0, 1, 2, 3]
    assert [table[line_code([v, v])] for v in range(4)] == [0, 10, 20, 30]
    assert [table[line_code([v, v, v])] for v in range(4)] == [100, 100, 100, 100]
    assert table[line_code([])] == 0


def test_m4_unknown_four_of_a_kind_option_is_refused() -> None:
    with pytest.raises(OptionError, match="four_of_a_kind"):
        score_table("200")
    with pytest.raises(OptionError, match="four_of_a_kind"):
        MasterGame({"four_of_a_kind": "face"})


def test_m4_compare_lowest_line_first() -> None:
    """M4: the sorted lists are compared from the lowest; the first difference decides, not
    the total; a line score shared by two lines counts for both places."""
    assert compare([6, 12, 0, 0], [6, 6, 0, 0]) == 1  # the rules' example, unsorted input
    assert compare([6, 12, 13, 14], [6, 6, 100, 100]) == 1  # second-lowest decides
    assert compare([5, 100, 100, 100], [6, 6, 6, 6]) == -1  # lowest decides against totals
    assert compare([6, 6, 50, 50], [6, 10, 10, 10]) == -1  # two lowest 6s: both count
    assert compare([6, 10, 20, 31], [6, 10, 20, 30]) == 1  # the highest line last
    assert compare([40, 21, 6, 6], [6, 6, 21, 40]) == 0


def test_m4_columns_belong_to_p0_rows_to_p1_four_of_a_kind_100() -> None:
    """M2/M4: seat 0 owns the columns, seat 1 the rows. Every column four of a kind (100),
    every row 0+1+2+3 (6): p0 wins."""
    state = play_grid(new_round(), P0_WINS, 0)
    assert state.is_terminal()
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [100, 100, 100, 100] and result["rows"] == [6, 6, 6, 6]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.placings == (1, 2)
    assert outcome.reason == "master.end.lowest_lines"
    assert outcome.reason_params == {"seat": 0, "at": 0}
    assert state.view(1)["private"]["lines"] == "rows"
    assert state.view(0)["private"]["lines"] == "columns"


def test_m4_four_of_a_kind_100_plus_face_in_a_full_round() -> None:
    """M4 option "100+face": the same columns score 100, 101, 102, 103."""
    state = play_grid(new_round(four_of_a_kind="100+face"), P0_WINS, 1)
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [100, 101, 102, 103] and result["rows"] == [6, 6, 6, 6]
    state = play_grid(new_round(four_of_a_kind="100+face"), P1_WINS, 0)
    result = state.view(None)["public"]["rounds"][0]
    assert result["rows"] == [100, 101, 102, 103] and result["columns"] == [6, 6, 6, 6]
    assert winners(state) == (1,)


def test_m4_three_eggs_and_three_of_a_kind_in_a_full_round() -> None:
    """M4: three Eggs in column a score 100 (+1 for the Emerald); three Rubies and a Sapphire
    in column d score 102."""
    rows = ["0123", "0123", "0213", "1032"]
    state = play_grid(new_round(), rows, 0)
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [101, 12, 24, 102] and result["rows"] == [6, 6, 6, 6]
    assert winners(state) == (0,)


def test_m4_lowest_line_decides_against_the_total() -> None:
    """M4: p0's columns [24, 12, 33, 5] (total 74) beat p1's rows [33, 4, 24, 21] (total 82):
    p0's lowest line, 5, is higher than p1's, 4 (a pair of Eggs with an Emerald and a Ruby)."""
    state = play_grid(new_round(), ["2133", "1030", "3122", "2210"], 1)
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [24, 12, 33, 5] and result["rows"] == [33, 4, 24, 21]
    assert winners(state) == (0,)
    assert state.view(None)["result"]["placings"] == list((1, 2))


def test_m4_second_lowest_decides_when_the_lowest_ties() -> None:
    """M4: lowest lines 6 and 6; then 12 (p0) against 15 (p1): p1 wins though p0's total (83)
    is higher than p1's (75)."""
    state = play_grid(new_round(), ["0313", "1123", "2302", "3210"], 0)
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [6, 33, 12, 32] and result["rows"] == [31, 15, 23, 6]
    assert winners(state) == (1,)
    assert state.view(None)["result"]["placings"] == list((2, 1))


def test_m4_third_lowest_decides() -> None:
    """M4: 6 = 6, 12 = 12, then 24 (p0) against 12 (p1): p0 wins though p1 has a 102 line."""
    state = play_grid(new_round(), ["0312", "1012", "3323", "2101"], 0)
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [6, 31, 12, 24] and result["rows"] == [6, 12, 102, 12]
    assert winners(state) == (0,)


def test_m4_equal_sorted_lists_draw_the_round() -> None:
    """M4: equal sorted lists are a drawn round (here in different orders): no winner, both
    placed first. Two pairs (1,1,3,3) score 40 and a pair with two singles 21."""
    state = play_grid(new_round(), DRAWN, 1)
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [40, 21, 6, 6] and result["rows"] == [6, 6, 21, 40]
    assert result["winner"] is None
    outcome = state.outcome()
    assert outcome is not None and state.is_terminal()
    assert outcome.winners == () and outcome.placings == (1, 1)
    assert outcome.reason == "master.end.drawn" and outcome.reason_params == {}
    record = finish_record(new_record(state.game, SEATS), state)
    assert record.result is not None and record.result["winners"] == []
    _, again = replay(Record.from_json(json.loads(record.dumps())))
    assert again.outcome() == outcome


def test_m4_scoring_only_after_sixteen_cards() -> None:
    """M4: the round is scored after all 16 cards, not before."""
    state = deal(new_round(), "00112233", "01230123")
    placements(state, *SNAKE[:15])
    assert not state.is_terminal() and state.view(None)["public"]["rounds"] == []
    assert state.outcome() is None
    placements(state, SNAKE[15])
    assert state.is_terminal() and len(state.view(None)["public"]["rounds"]) == 1


# ---------------------------------------------------------------------------- M5
def test_m5_first_to_two_dragons_wins_and_the_loser_starts() -> None:
    """M5: each round's winner takes a dragon; the loser starts the next round (no start chance
    event then); the first to two dragons wins the match."""
    state = new_round(match=True)
    play_grid(state, P0_WINS, 0)
    assert not state.is_terminal() and state.dragons == [1, 0]
    assert state.phase == Phase.DEAL and state.view(None)["public"]["hand_sizes"] == [0, 0]
    public = state.view(None)["public"]
    assert public["grid"] == {} and len(public["rounds"]) == 1
    # round 2: after the deal p1 (the loser) is to move at once
    deal(state, "00112233", "01230123", start=None)
    assert state.phase == Phase.PLACE and state.current_seats() == (1,)
    assert state.view(None)["public"]["starter"] == 1
    assert state.full_state()["history"][-1] == "chance: deal ruby"
    rejects(state, "chance: start p0", None)
    state = new_round(match=True)
    play_grid(state, P0_WINS, 0)
    play_grid(state, P1_WINS, 1)
    assert state.dragons == [1, 1] and not state.is_terminal()
    play_grid(state, P0_WINS, 0)  # p1 won round 2: p0 starts round 3
    assert state.is_terminal() and state.dragons == [2, 1]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.placings == (1, 2)
    assert outcome.reason == "master.end.second_dragon" and outcome.scores == (2.0, 1.0)
    assert outcome.reason_params == {"seat": 0}
    assert outcome.message("de") == "Spieler 1 hat den zweiten Drachen bekommen"
    starts = [e for e in finish_record(new_record(state.game, SEATS), state).actions
              if "start" in e]
    assert starts == ["chance: start p0"]  # only the first round's start is chance
    assert [r["starter"] for r in state.view(None)["public"]["rounds"]] == [0, 1, 0]
    assert [r["winner"] for r in state.view(None)["public"]["rounds"]] == [0, 1, 0]


def test_m5_drawn_round_gives_no_dragon_and_the_other_player_starts() -> None:
    """M5: a drawn round gives no dragon; the player who did not start it starts the next."""
    state = new_round(match=True)
    play_grid(state, DRAWN, 1)
    assert state.dragons == [0, 0] and not state.is_terminal()
    play_grid(state, DRAWN, 0)  # p1 started the drawn round: p0 starts
    assert state.dragons == [0, 0]
    play_grid(state, P1_WINS, 1)  # p0 started the drawn round: p1 starts
    assert state.dragons == [0, 1]
    play_grid(state, P1_WINS, 0)  # p0 lost: p0 starts
    assert state.is_terminal() and state.dragons == [0, 2]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.placings == (2, 1)
    assert [r["winner"] for r in state.view(None)["public"]["rounds"]] == [None, None, 1, 1]
    record = finish_record(new_record(state.game, SEATS), state)
    _, again = replay(Record.from_json(json.loads(record.dumps())))
    assert again.full_state() == state.full_state()


def test_m5_single_round_without_the_match_option() -> None:
    """M5: without the option one round decides; no dragons are handed out."""
    state = play_grid(new_round(), P1_WINS, 0)
    assert state.is_terminal() and state.dragons == [0, 0]
    assert winners(state) == (1,)
    assert state.view(None)["public"]["match"] is False
    with pytest.raises(OptionError, match="match"):
        MasterGame({"match": "yes"})
    with pytest.raises(OptionError, match="2 players"):
        MasterGame({"players": 3})


# ---------------------------------------------------------------------------- M6
def test_m6_own_hand_is_private_and_the_other_deal_is_masked() -> None:
    """M6: each seat's view holds its own hand only, and each seat is told its own deal
    (a spectator neither); the deal is public only as "each holds 8 cards"."""
    state = deal(new_round(), "00112233", "01112333", start=0)
    placements(state, "d4", "e4")  # an Egg each
    v0, v1, vs = state.view(0), state.view(1), state.view(None)
    assert v0["private"]["hand"] == {"egg": 1, "emerald": 2, "sapphire": 2, "ruby": 2}
    assert v1["private"]["hand"] == {"egg": 0, "emerald": 3, "sapphire": 1, "ruby": 3}
    assert vs["private"] is None
    for view in (v0, v1, vs):
        assert "hands" not in json.dumps(view)
    dealt = {v["seat"]: [e["params"] for e in v["events"] if e["code"] == "master.deal.hand"]
             for v in (v0, v1, vs)}
    assert dealt[0] == [{"seat": 0, "cards": ["egg", "egg", "emerald", "emerald", "sapphire",
                                              "sapphire", "ruby", "ruby"]}]
    assert dealt[1] == [{"seat": 1, "cards": ["egg", "emerald", "emerald", "emerald",
                                              "sapphire", "ruby", "ruby", "ruby"]}]
    assert dealt[None] == []
    assert [e["code"] for e in vs["events"]] == [
        "master.round.begin", "master.deal.done", "master.start.lot", "master.move.placed",
        "master.move.placed"]


def test_m6_hand_sizes_grid_and_turn_are_public() -> None:
    """M6: the grid, whose turn it is and each hand's size are in every view."""
    state = placements(deal(new_round(), "00112233", "01112333", start=1), "d4", "d5", "e5")
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view["public"]["hand_sizes"] == [7, 6]
        assert view["public"]["grid"] == {"d4": "egg", "d5": "egg", "e5": "emerald"}
        assert view["to_move"] == [0] and view["public"]["starter"] == 1
        assert view["phase"] == "place"


def test_m6_unseen_counts_are_twenty_minus_own_hand_minus_grid() -> None:
    """M6: a perfect memory knows 20 - own hand - grid, per value."""
    state = placements(deal(new_round(), "00112233", "01112333", start=0), "d4", "e4", "f4")
    grid = [0, 0, 0, 0]
    for card in state.view(None)["public"]["grid"].values():
        grid[ID.index(card)] += 1
    for seat in (0, 1):
        private = state.view(seat)["private"]
        own = [private["hand"][i] for i in ID]
        assert private["unseen"] == {ID[v]: 5 - own[v] - grid[v] for v in range(4)}
        assert sum(private["unseen"].values()) == 20 - sum(own) - 3
    assert state.view(None)["private"] is None


def test_m6_set_aside_revealed_only_when_the_round_ends() -> None:
    """M6: the 4 set-aside cards are in the full state (and the record) but in no view until
    the round ends; then every view lists them under rounds[i]["set_aside"], and an event
    tells them."""
    state = deal(new_round(), "00000111", "22223333", start=0)
    assert state.full_state()["set_aside"] == {"egg": 0, "emerald": 2, "sapphire": 1, "ruby": 1}
    placements(state, *SNAKE[:15])
    for seat in (0, 1, None):
        text = json.dumps(state.view(seat))
        assert "set_aside" not in text
    placements(state, SNAKE[15])
    for seat in (0, 1, None):
        view = state.view(seat)
        aside = ["emerald", "emerald", "ruby", "sapphire"]
        assert view["public"]["rounds"][0]["set_aside"] == aside
        told = [e for e in view["events"] if e["code"] == "master.round.set_aside"]
        assert [e["params"]["cards"] for e in told] == [aside]


def test_m6_match_reveals_each_round_when_it_ends() -> None:
    """M6/M5: in a match, a finished round's placements and set-aside cards are public; the
    current round's deal stays private to each seat."""
    state = new_round(match=True)
    play_grid(state, P0_WINS, 0)
    deal(state, "00112233", "01230123", start=None)
    for seat in (0, 1, None):
        view = state.view(seat)
        first = view["public"]["rounds"][0]
        assert first["set_aside"] == ["egg", "emerald", "ruby", "sapphire"]
        assert len(first["placements"]) == 16 and view["public"]["placements"] == []
        hands = [e["params"]["seat"] for e in view["events"] if e["code"] == "master.deal.hand"]
        assert hands == ([] if seat is None else [seat, seat])


def _swap_hidden(state: MasterState, a: int, b: int, rng: random.Random,
                 seat: int | None) -> MasterState | None:
    """A clone where one of ``a``'s cards trades places with a card of ``b`` (a seat, or -1 for
    the set-aside deck), consistently in the hands, the deck and the deal history; None where
    no such pair of different values exists."""
    pile_a = state.hands[a]
    pile_b = state.deck if b < 0 else state.hands[b]
    pairs = [(x, y) for x in range(4) for y in range(4)
             if x != y and pile_a[x] and pile_b[y]]
    if not pairs:
        return None
    x, y = rng.choice(pairs)
    other = state.clone()
    other.hands[a][x] -= 1
    other.hands[a][y] += 1
    other_b = other.deck if b < 0 else other.hands[b]
    other_b[y] -= 1
    other_b[x] += 1

    def rewrite(owner: int, old: int, new: int) -> None:
        start = other.round_start + HAND * owner
        for i in range(start, start + HAND):
            s, act = other._history[i]
            if act.value == old:
                new_act = other.game.parse_action(f"deal {ID[new]}")
                other._history[i] = (s, new_act)
                other._log[i] = f"chance: deal {ID[new]}"
                return
        raise AssertionError("the dealt card is not in the history")

    rewrite(a, x, y)
    if b >= 0:
        rewrite(b, y, x)
    assert other.full_state() != state.full_state()
    if seat is not None:
        assert other.unseen(seat) == state.unseen(seat)
    return other


def test_m6_view_ignores_the_opponents_hand_and_the_set_aside() -> None:
    """M6: swapping cards between the opponent's hand and the set-aside cards (or, for a
    spectator, between the hands) never changes a view, at any point of a round or match."""
    checked = 0
    for seed in range(120):
        rng = random.Random(seed)
        full = random_round(seed, match=seed % 3 == 0)
        history = full.history
        cut = rng.randrange(1, len(history))
        state = MasterGame({"match": full.game.match}).new_initial_state()
        for s, a in history[:cut]:
            state.apply(s, a)
        if state.phase in (Phase.DEAL, Phase.OVER):
            continue  # mid-deal hands are not yet complete; after the end all is public
        for seat in (0, 1):
            before = json.dumps(state.view(seat), sort_keys=True)
            other = _swap_hidden(state, 1 - seat, -1, rng, seat)
            if other is not None:
                assert json.dumps(other.view(seat), sort_keys=True) == before
                checked += 1
        before = json.dumps(state.view(None), sort_keys=True)
        for a, b in ((0, 1), (0, -1), (1, -1)):
            other = _swap_hidden(state, a, b, rng, None)
            if other is not None:
                assert json.dumps(other.view(None), sort_keys=True) == before
                checked += 1
    assert checked > 300


# ---------------------------------------------------------------------------- docs
def master_docs_example() -> dict[str, object]:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    _, sep, tail = text.partition("## A complete Dragon Master example")
    assert sep, "docs/records.md has a Dragon Master example section"
    block = re.search(r"```json\n(.*?)```", tail, re.S)
    assert block, "the Dragon Master example is a ```json block"
    data: dict[str, object] = json.loads(block.group(1))
    return data


def test_docs_master_example_record_replays_to_its_result() -> None:
    """docs/records.md: the complete Dragon Master example replays, legal throughout, to the
    result it states; the first ```json block of the file stays the Fist example."""
    data = master_docs_example()
    assert data["game"] == "master"
    record = Record.from_json(data)
    game, state = replay(record)
    outcome = state.outcome()
    assert outcome is not None
    assert {k: outcome.to_json()[k] for k in ("winners", "placings", "scores")} == {
        k: data["result"][k] for k in ("winners", "placings", "scores")}
    assert len(record.actions) == 33 and record.actions[16].startswith("chance: start")
    public = state.view(None)["public"]
    assert public["hand_sizes"] == [0, 0] and len(public["grid"]) == 16
    # the prose around the example: its grid's line scores and the set-aside cards
    result = state.view(None)["public"]["rounds"][0]
    assert result["columns"] == [12, 6, 30, 102] and result["rows"] == [33, 100, 6, 103]
    assert result["set_aside"] == ["egg", "egg", "egg", "ruby"]
    assert state.view(None)["public"]["box"] == {"columns": "abcd", "rows": [2, 3, 4, 5]}
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    first = re.search(r"```json\n(.*?)```", text, re.S)
    assert first is not None and json.loads(first.group(1))["game"] == "fist"
    assert game.info.id == "master"


def test_m3_placement_problem_agrees_with_legal_cells() -> None:
    """M3: the reason the engine gives for a refused cell is None exactly for legal cells."""
    import random as _random

    from dragonlair.core.game import CHANCE as _CHANCE
    from dragonlair.games.master.game import MasterGame as _Game
    from dragonlair.games.master.state import CELLS, placement_problem

    for seed in range(40):
        rng = _random.Random(seed)
        state = _Game().new_initial_state()
        while not state.is_terminal():
            seats = state.current_seats()
            if seats == (_CHANCE,):
                state.apply(_CHANCE, state.sample_chance(rng))
                continue
            occupied = {c for c, v in enumerate(state.grid) if v >= 0}
            legal = set(state.legal_cells())
            for cell in range(CELLS):
                assert (placement_problem(occupied, cell) is None) == (cell in legal)
            state.apply(seats[0], rng.choice(list(state.legal_actions(seats[0]))))
