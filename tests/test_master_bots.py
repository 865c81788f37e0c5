"""Dragon Master bots: positions with a known best move, views only (M6), determinism, and
the expert's exact endgame checked against brute force on the engine (M3, M4)."""

from __future__ import annotations

import json
import random

import pytest

from dragonlair.bots import bot_names, make_bot
from dragonlair.core.driver import play_out
from dragonlair.core.game import CHANCE
from dragonlair.games.master.bots import (
    TABLES,
    Board,
    ExpertMasterBot,
    GreedyMasterBot,
    opponent_hands,
    solve,
)
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import MasterState


def staged(lines: list[str], four_of_a_kind: str = "100") -> MasterState:
    """A position from record lines ("chance: deal ruby", "p0: place ruby d4", ...)."""
    game = MasterGame({"four_of_a_kind": four_of_a_kind})
    state = game.new_initial_state()
    for line in lines:
        who, _, text = line.partition(": ")
        state.apply(CHANCE if who == "chance" else int(who[1:]), game.parse_action(text))
    return state


def deal(p0: str, p1: str) -> list[str]:
    """The 16 deal entries: p0's eight cards, then p1's eight (M2)."""
    hands = p0.split(), p1.split()
    assert len(hands[0]) == len(hands[1]) == 8
    return [f"chance: deal {card}" for card in (*hands[0], *hands[1])]


def choice(bot: ExpertMasterBot | GreedyMasterBot, state: MasterState) -> str:
    seat = state.current_seats()[0]
    return str(bot.choose(state.view(seat), state.legal_actions(seat)))


def minimax(state: MasterState) -> int:
    """Brute force on the engine itself: seat 0's result, 2 win, 1 draw, 0 loss."""
    outcome = state.outcome()
    if outcome is not None:
        return 1 if not outcome.winners else 2 if outcome.winners[0] == 0 else 0
    seat = state.current_seats()[0]
    values = []
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply(seat, action)
        values.append(minimax(child))
    return max(values) if seat == 0 else min(values)


def winners_against_every_hand(record: list[str], p1_placed: list[str],
                               p0_cards: str) -> set[str]:
    """Moves of p0 (to move) that win whatever p1 holds: the record is replayed with every
    hand p1 could hold given p0's view (the cards p0 has not seen), the rest set aside."""
    state = staged(record)
    unseen = state.unseen(0)
    size = state.view(0)["public"]["hand_sizes"][1]
    ids = ["egg", "emerald", "sapphire", "ruby"]
    winners: set[str] | None = None
    for hand, _ in opponent_hands(unseen, size):
        held = [ids[v] for v in range(4) for _ in range(hand[v])]
        lines = deal(p0_cards, " ".join([*p1_placed, *held])) + record[16:]
        position = staged(lines)
        assert position.view(0) == state.view(0)  # the same position from p0's side
        wins = set()
        for action in position.legal_actions(0):
            child = position.clone()
            child.apply(0, action)
            if minimax(child) == 2:
                wins.add(str(action))
        winners = wins if winners is None else winners & wins
    assert winners is not None
    return winners


# A (M4: the lowest line decides). p0 (columns) holds an egg and an emerald; three cells are
# empty: d1, g1 and e4. p0's weakest columns d and g hold {emerald, ruby, egg} (4 each); one
# of them will get p0's egg and end at 4. p1's weakest row is row 4, {egg, sapphire, egg} = 2
# with e4 its only gap: an egg there would make three eggs (100), a sapphire two pairs (20).
# The only winning move is in p1's row: the emerald on e4 closes row 4 at 3 < 4, whatever p1
# holds. Greedy pairs its emeralds in column d or g instead (+9 for it, +1 for p1) and loses
# against every hand: p1 fills e4 itself, or leaves it to p0's egg (three eggs for p1).
P0_A = "egg emerald emerald emerald sapphire sapphire ruby ruby"
P1_A_PLACED = ["egg", "egg", "emerald", "sapphire", "sapphire", "ruby", "ruby"]
RECORD_A = [
    *deal(P0_A, " ".join([*P1_A_PLACED, "egg"])),
    "chance: start p1",
    "p1: place egg d4", "p0: place ruby d3", "p1: place ruby e3", "p0: place emerald d2",
    "p1: place emerald f3", "p0: place ruby e2", "p1: place sapphire f4",
    "p0: place sapphire f2", "p1: place ruby g3", "p0: place sapphire f1",
    "p1: place sapphire e1", "p0: place emerald g2", "p1: place egg g4",
]

# B (a pair must be broken). p0 holds two emeralds and a sapphire; five cells are empty (e2,
# f2, c3, f4, f5). p1's weakest row is row 5, {egg, ruby, egg} = 3, and three of the six cards
# p0 has not seen are eggs: an egg on f5 would make it 100. p0 must break its pair of
# emeralds and put one on f5 (row 5 ends at 4, column f pairs it with the emerald on f3).
# Greedy completes three sapphires in column c (c3, +80 for it) and loses unless p1 holds
# both unseen sapphires; a sapphire on f5 loses to an egg in p1's hand.
P0_B = "egg emerald emerald emerald sapphire sapphire ruby ruby"
P1_B_PLACED = ["egg", "emerald", "emerald", "sapphire", "ruby", "ruby"]
RECORD_B = [
    *deal(P0_B, " ".join([*P1_B_PLACED, "egg", "egg"])),
    "chance: start p1",
    "p1: place ruby d4", "p0: place ruby d5", "p1: place ruby e4", "p0: place emerald e3",
    "p1: place emerald d3", "p0: place ruby d2", "p1: place emerald f3", "p0: place egg c5",
    "p1: place sapphire c2", "p0: place sapphire c4", "p1: place egg e5",
]


def test_a_the_only_winning_move_is_in_the_opponents_line() -> None:
    """M4: closing the opponent's weakest row beats pairing in one's own column."""
    state = staged(RECORD_A)
    assert state.hands[0] == [1, 1, 0, 0] and state.placed == 13
    assert winners_against_every_hand(RECORD_A, P1_A_PLACED, P0_A) == {"place emerald e4"}
    for seed in range(3):
        assert choice(ExpertMasterBot(random.Random(seed)), state) == "place emerald e4"
        assert choice(GreedyMasterBot(random.Random(seed)), state) in {
            "place emerald d1", "place emerald g1"}


def test_b_a_pair_in_hand_must_be_broken() -> None:
    """M4: one emerald of the pair must block row 5; the sapphire triple loses."""
    state = staged(RECORD_B)
    assert state.hands[0] == [0, 2, 1, 0] and state.placed == 11
    assert winners_against_every_hand(RECORD_B, P1_B_PLACED, P0_B) == {"place emerald f5"}
    assert choice(ExpertMasterBot(random.Random(0)), state) == "place emerald f5"
    assert choice(GreedyMasterBot(random.Random(0)), state) == "place sapphire c3"


def test_solver_matches_brute_force_on_the_engine() -> None:
    """The expert's compact minimax (M3 cells, M4 comparison, draws) agrees with the
    engine on random endgames with the deal known."""
    game = MasterGame()
    rng = random.Random(7)
    checked = 0
    for placed in (11, 12, 12, 13, 13, 14, 14, 15) * 3:
        state = game.new_initial_state()
        while state.current_seats() == (CHANCE,):
            outcomes = state.chance_outcomes()
            state.apply(CHANCE, rng.choices([a for a, _ in outcomes],
                                            [p for _, p in outcomes])[0])
        while state.placed < placed:
            seat = state.current_seats()[0]
            state.apply(seat, rng.choice(list(state.legal_actions(seat))))
        board = Board()
        for cell, v in enumerate(state.grid):
            if v >= 0:
                board.place(v, cell)
        hands = [h[:] for h in state.hands]
        assert solve(board, hands, state.player, game.table, {}) == minimax(state)
        assert hands == state.hands  # restored
        checked += 1
    assert checked == 24


def test_four_of_a_kind_never_changes_a_result() -> None:
    """M4 option: "100" or "100+face" never changes who wins a full grid (checked for all
    1,322,304,984 grids in docs/master-expert.md; sampled here, half the grids with a
    column of four), so the expert's search is exact under either; it still reads the
    option from the view."""
    rng = random.Random(11)
    plain, face = TABLES["100"], TABLES["100+face"]
    quads = 0
    for i in range(4000):
        deck = [v for v in range(4) for _ in range(5)]
        rng.shuffle(deck)
        cells = [y * 7 + x for y in range(4) for x in range(4)]
        if i % 2:  # column a four of a kind
            v = rng.randrange(1, 4)
            deck.remove(v)
            rest = [w for w in deck if w != v]
            deck = [v] * 4 + rest[:12]
            cells = [y * 7 for y in range(4)] + [c for c in cells if c % 7]
        board = Board()
        for cell, v in zip(cells, deck[:16], strict=True):
            board.place(v, cell)
        quads += board.lines(plain) != board.lines(face)
        assert board.result(plain) == board.result(face)
    assert quads >= 1000
    state = staged(RECORD_A, "100+face")
    assert state.view(0)["public"]["four_of_a_kind"] == "100+face"
    assert choice(ExpertMasterBot(random.Random(0)), state) == "place emerald e4"


def test_bots_see_only_the_view() -> None:
    """M6: two positions that differ only in p1's hidden hand and the set-aside cards look
    the same to p0, and the expert (seeded alike) plays the same there."""
    p0 = "egg emerald emerald sapphire sapphire ruby ruby ruby"
    moves = ["chance: start p0", "p0: place ruby d4", "p1: place egg d5",
             "p0: place sapphire e4", "p1: place emerald e5"]
    one = staged(deal(p0, "egg egg egg emerald emerald sapphire sapphire ruby") + moves)
    two = staged(deal(p0, "egg emerald emerald emerald sapphire ruby ruby egg") + moves)
    assert one.hands[1] != two.hands[1] and one.deck != two.deck
    assert one.view(0) == two.view(0)
    view = one.view(0)
    before = json.dumps(view, sort_keys=True)
    a = ExpertMasterBot(random.Random(5)).choose(view, one.legal_actions(0))
    assert json.dumps(view, sort_keys=True) == before  # the view is left as it was
    b = ExpertMasterBot(random.Random(5)).choose(two.view(0), two.legal_actions(0))
    assert a == b
    assert "hands" not in json.dumps(view) and "set_aside" not in json.dumps(view)


@pytest.mark.slow
def test_expert_is_deterministic_for_a_seed() -> None:
    """Two expert games, seconds: CI (a plain run's seeded old records,
    tests/test_master_old_records.py, pin expert games already)."""
    game = MasterGame()

    def record(seed: int) -> list[str]:
        bots = [make_bot("master", "expert", random.Random(seed)),
                make_bot("master", "greedy", random.Random(seed + 1))]
        state = play_out(game.new_initial_state(), bots, random.Random(seed + 2))
        return [str(a) for _, a in state.history]

    assert record(3) == record(3)


def test_registry_and_hands() -> None:
    assert {"expert", "greedy", "random"} <= set(bot_names("master"))
    assert isinstance(make_bot("master", "expert", random.Random(0)), ExpertMasterBot)
    assert isinstance(make_bot("master", "greedy", random.Random(0)), GreedyMasterBot)
    hands = opponent_hands([2, 1, 1, 1], 1)
    assert hands[0][0] == [1, 0, 0, 0]  # the most likely hand first
    assert sum(w for _, w in hands) == pytest.approx(1.0)
    assert dict((tuple(h), w) for h, w in hands)[(1, 0, 0, 0)] == pytest.approx(0.4)
    two = opponent_hands([3, 0, 2, 1], 2)
    assert sum(w for _, w in two) == pytest.approx(1.0)
    assert dict((tuple(h), w) for h, w in two)[(2, 0, 0, 0)] == pytest.approx(3 / 15)
