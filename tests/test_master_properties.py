"""Property tests over thousands of seeded random Dragon Master games (M2-M6).

Records, action round-trips, snapshots, view secrecy (M6) and the view schema are checked
for every game alike in tests/test_contract.py.

Random games take uniform random legal actions and sample chance with
``random.Random(seed)``. Line scores are checked against an independent scorer written from
the M4 text (value groups), and legal cells against an independent reading of M3.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise

import pytest

from dragonlair.core.game import CHANCE
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.games.master.cards import CARDS, compare
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import PLACE, MasterState, Phase
from tests.sizes import long_tier, size

#: the slow twins' sizes, after the quick tests' games: CI, and the release run
#: (scripts/test.sh --long)
SINGLE_GAMES = size(ci=1200, long=10_000)
MATCH_GAMES = size(ci=50, long=400)
CHECKED_GAMES = size(ci=40, long=300)
#: the exhaustive search of shapes: how many cards, and how many shapes of up to that many
#: cards can arise (each thousand takes a tenth of a second or more)
SHAPES = (16, 94_785) if long_tier() else (9, 28_397)
ID = [c.id for c in CARDS]
SEATS = [{"name": "r0", "player": "bot:random"}, {"name": "r1", "player": "bot:random"}]


def random_game(seed: int, match: bool = False, four: str = "100",
                check: bool = False) -> MasterState:
    """A uniform random game; with ``check``, M3/M6 invariants after every action."""
    rng = random.Random(seed)
    state = MasterGame({"match": match, "four_of_a_kind": four}).new_initial_state()
    for _ in range(10_000):
        seats = state.current_seats()
        if not seats:
            return state
        if seats[0] == CHANCE:
            if check:
                outcomes = [(str(a), p) for a, p in state.chance_outcomes()]
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                if state.phase == Phase.DEAL:  # M2: draws without replacement
                    total = sum(state.deck)
                    assert outcomes == [(f"deal {ID[v]}", n / total)
                                        for v, n in enumerate(state.deck) if n]
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            (seat,) = seats
            legal = state.legal_actions(seat)
            assert legal, "M3: a player is never stuck"
            if check:
                assert {a.cell for a in legal} == oracle_cells(state)
                assert {a.value for a in legal} == {v for v in range(4) if state.hands[seat][v]}
                assert len(legal) == len({a.cell for a in legal}) * len({a.value for a in legal})
            state.apply(seat, rng.choice(legal))
        if check:
            invariants(state)
    raise AssertionError(f"game {seed} did not end")


def occupied(state: MasterState) -> set[int]:
    return {c for c, v in enumerate(state.grid) if v >= 0}


def oracle_cells(state: MasterState) -> set[int]:
    """M3 read independently: d4 first; then empty cells sharing a side with a card whose
    addition keeps the cards within 4 columns and 4 rows."""
    occ = occupied(state)
    if not occ:
        return {3 * 7 + 3}
    out = set()
    for c in occ:
        x, y = c % 7, c // 7
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            n = ny * 7 + nx
            if not (0 <= nx < 7 and 0 <= ny < 7) or n in occ:
                continue
            xs = [p % 7 for p in occ] + [nx]
            ys = [p // 7 for p in occ] + [ny]
            if max(xs) - min(xs) < 4 and max(ys) - min(ys) < 4:
                out.add(n)
    return out


def line_score(values: list[int], four: str) -> int:
    """M4 read independently: each value group scores on its own."""
    total = 0
    for value, n in Counter(values).items():
        total += {1: value, 2: 10 * value, 3: 100,
                  4: 100 + (value if four == "100+face" else 0)}[n]
    return total


def grid_lines(state: MasterState) -> tuple[list[list[int]], list[list[int]]]:
    """The full 4 x 4 box as (columns, rows) of values, left to right and top (row 1) down."""
    occ = occupied(state)
    xs = sorted({c % 7 for c in occ})
    ys = sorted({c // 7 for c in occ})
    assert len(occ) == 16 and len(xs) == 4 and len(ys) == 4
    cols = [[state.grid[y * 7 + x] for y in ys] for x in xs]
    rows = [[state.grid[y * 7 + x] for x in xs] for y in ys]
    return cols, rows


def invariants(state: MasterState) -> None:
    occ = occupied(state)
    if occ:
        xs = [c % 7 for c in occ]
        ys = [c // 7 for c in occ]
        assert max(xs) - min(xs) < 4 and max(ys) - min(ys) < 4, "M3: the 4 x 4 box"
    in_hands = sum(state.hands[0]) + sum(state.hands[1])
    if state.phase == Phase.DEAL:
        assert in_hands == state.dealt and not occ
    else:
        assert in_hands + len(occ) == 16
        assert sum(state.deck) == 4
    for seat in (0, 1, None):
        view = state.view(seat)
        assert "hands" not in view and "set_aside" not in view["public"]
        assert view["public"]["hand_sizes"] == [sum(h) for h in state.hands]
        if seat is None:
            continue
        own = state.hands[seat]
        assert view["private"]["hand"] == {ID[v]: own[v] for v in range(4)}
        unseen = state.unseen(seat)
        for v in range(4):
            assert unseen[v] == 5 - own[v] - sum(1 for c in occ if state.grid[c] == v)


def check_round(state: MasterState, index: int, four: str) -> None:
    """The round's line scores follow M4 from the final grid, and the winner the comparison."""
    cols, rows = grid_lines(state)
    result = state.rounds[index]
    assert result.columns == [line_score(line, four) for line in cols]
    assert result.rows == [line_score(line, four) for line in rows]
    verdict = compare(result.columns, result.rows)
    assert result.winner == {1: 0, -1: 1, 0: None}[verdict]
    assert sorted(result.set_aside) == result.set_aside and len(result.set_aside) == 4


# ---------------------------------------------------------------------------- single rounds
def check_rounds(seeds: range) -> None:
    draws = 0
    for seed in seeds:
        four = "100+face" if seed % 10 == 5 else "100"
        state = random_game(seed, four=four)
        assert state.is_terminal() and state.phase == Phase.OVER
        assert state.hands == [[0, 0, 0, 0], [0, 0, 0, 0]]
        assert sum(state.deck) == 4
        assert len(state.history) == 33 and str(state.history[16][1]).startswith("start")
        check_round(state, 0, four)
        outcome = state.outcome()
        assert outcome is not None
        winner = state.rounds[0].winner
        if winner is None:
            draws += 1
            assert outcome.winners == () and outcome.placings == (1, 1)
        else:
            assert outcome.winners == (winner,) and outcome.placings[winner] == 1
    assert draws < len(seeds) // 10


def test_m3_m4_every_random_round_fills_a_4x4_box_and_scores_by_m4() -> None:
    """M3: random rounds each end with 16 cards filling a 4 x 4 box and both hands empty;
    M2: 4 cards set aside; M4: the line scores and the winner follow from the grid (every
    10th round with the "100+face" option). The slow twin plays 1,200 more rounds in CI,
    10,000 in the release run."""
    check_rounds(range(300))


@pytest.mark.slow
def test_m3_m4_over_10000_random_rounds() -> None:
    check_rounds(range(300, 300 + SINGLE_GAMES))


def test_m3_m6_invariants_after_every_action() -> None:
    """M3 legal cells match an independent reading; M6 unseen counts; chance sums to 1."""
    for seed in range(15):
        random_game(50_000 + seed, match=seed % 2 == 0, check=True)


@pytest.mark.slow
def test_m3_m6_invariants_after_every_action_many() -> None:
    """CI 75 more games, the release run 300."""
    for seed in range(15, 15 + CHECKED_GAMES):
        random_game(50_000 + seed, match=seed % 2 == 0, check=True)


def test_m3_every_shape_of_up_to_nine_cards_offers_the_legal_cells_of_m3() -> None:
    """M3, exhaustively up to seven cards (4,828 shapes; nine in the release run); the slow
    twin goes on to nine in CI, to sixteen in the release run."""
    assert explore_shapes(size(ci=7, long=9)) > 1000


@pytest.mark.slow
def test_m3_every_reachable_shape_has_a_legal_cell_until_sixteen() -> None:
    """M3, exhaustively: every set of occupied cells that can arise offers exactly the legal
    cells of an independent reading of M3, at least one before the 16th card; after 16 the
    box is full. CI searches the shapes of up to nine cards (28,397), the release run
    (scripts/test.sh --long) all of them, to sixteen (94,785): they take half a minute.
    Random games reach the full box after every action in the invariants tests above."""
    most, shapes = SHAPES
    assert explore_shapes(most) == shapes


def explore_shapes(most: int) -> int:
    """Every shape of up to ``most`` cards reachable by legal placements, each checked
    against the independent reading of M3; the number of shapes."""
    game = MasterGame()
    state = game.new_initial_state()
    for text in ["egg"] * 4 + ["emerald"] * 4 + ["sapphire"] * 4 + ["ruby"] * 4:
        state.apply(CHANCE, game.parse_action(f"deal {text}"))
    state.apply(CHANCE, game.parse_action("start p0"))
    seen: set[frozenset[int]] = set()
    stack: list[tuple[MasterState, frozenset[int]]] = [(state, frozenset())]
    while stack:
        s, occ = stack.pop()
        cells = s.legal_cells()
        assert set(cells) == oracle_cells(s)
        if len(occ) == 16:
            assert s.is_terminal()
            continue
        if len(occ) == most:
            continue
        assert cells, "M3: never stuck"
        v = next(i for i in range(4) if s.hands[s.player][i])
        for c in cells:
            nxt = occ | {c}
            if nxt not in seen:
                seen.add(nxt)
                t = s.clone()
                t.apply(s.player, PLACE[v][c])
                stack.append((t, nxt))
    return len(seen)


def test_the_action_space_is_every_card_on_every_cell_then_chance() -> None:
    """Four values on 49 cells, then four deals and two start lots (M2, M3)."""
    game = MasterGame()
    assert game.num_distinct_actions == 4 * 49 + 4 + 2
    assert [str(game.action_from_index(i)) for i in range(196, 202)] == [
        "deal egg", "deal emerald", "deal sapphire", "deal ruby", "start p0", "start p1"]


# ---------------------------------------------------------------------------- matches
def test_m5_random_matches_end_at_two_dragons() -> None:
    """M5: random matches end when a player has 2 dragons; dragons count the rounds won;
    only the first round has a start chance event; the loser starts the next round, and after
    a drawn round the player who did not start it. Every 5th record replays."""
    check_matches(range(25))


@pytest.mark.slow
def test_m5_random_matches_end_at_two_dragons_many() -> None:
    """CI 100 more matches, the release run 400."""
    check_matches(range(25, 25 + MATCH_GAMES))


def check_matches(seeds: range) -> None:
    game = MasterGame({"match": True})
    for seed in seeds:
        state = random_game(100_000 + seed, match=True)
        outcome = state.outcome()
        assert outcome is not None and state.is_terminal()
        (winner,) = outcome.winners
        assert state.dragons[winner] == 2 and state.dragons[1 - winner] <= 1
        assert outcome.placings[winner] == 1 and outcome.placings[1 - winner] == 2
        results = state.rounds
        wins = [r.winner for r in results]
        assert [wins.count(0), wins.count(1)] == state.dragons
        assert wins[-1] == winner
        for prev, cur in pairwise(results):
            expected = 1 - prev.winner if prev.winner is not None else 1 - prev.starter
            assert cur.starter == expected
        starts = [a for s, a in state.history if s == CHANCE and str(a).startswith("start")]
        assert len(starts) == 1 and starts[0].value == results[0].starter
        assert len(state.history) == 1 + 32 * len(results)  # 16 deals + 16 cards a round
        if seed % 5 == 0:
            record = finish_record(new_record(game, SEATS), state)
            _, replayed = replay(Record.from_json(json.loads(record.dumps())))
            assert replayed.full_state() == state.full_state()
