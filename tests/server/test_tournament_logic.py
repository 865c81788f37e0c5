"""The tournaments' pure logic (docs/tournaments.md): points, streaks, arena pairing, Swiss
pairing and tie-breaks."""

from __future__ import annotations

import random

import pytest

from dragonlair.server.tournaments import arena, swiss
from dragonlair.server.tournaments.scoring import arena_score, placing_points, wins
from dragonlair.server.tournaments.standings import (
    GameResult,
    buchholz,
    ranking,
    recompute,
    sonneborn_berger,
)


def test_placing_points() -> None:
    assert placing_points([1, 2]) == [2, 0]
    assert placing_points([2, 1]) == [0, 2]
    assert placing_points([1, 1]) == [1, 1]  # a draw
    assert placing_points([1, 2, 3, 4]) == [6, 4, 2, 0]
    assert placing_points([3, 1, 1]) == [0, 3, 3]
    assert wins([1, 1]) == [False, False]
    assert wins([2, 1, 3]) == [False, True, False]


def test_arena_streak_doubles_after_two_wins_until_a_non_win() -> None:
    streak, got = 0, []
    for base, won in [(2, True), (2, True), (2, True), (1, False), (2, True), (0, False)]:
        scored = arena_score(base, won, streak)
        streak = scored.streak
        got.append((scored.points, scored.fire))
    assert got == [(2, False), (2, False), (4, True), (2, True), (2, False), (0, False)]
    assert streak == 0


def w(user: int, rating: float, since: float = 0.0, last: frozenset[int] = frozenset()
      ) -> arena.Waiting:
    return arena.Waiting(user, rating, since, last)


def test_arena_pairs_neighbours_by_rating() -> None:
    groups = arena.pair([w(1, 10), w(2, 40), w(3, 20), w(4, 30)], 2, at=1.0)
    assert [g.users for g in groups] == [(2, 4), (3, 1)]


def test_arena_avoids_an_immediate_rematch() -> None:
    waiting = [w(1, 40, last=frozenset({2})), w(2, 30, last=frozenset({1})), w(3, 20), w(4, 10)]
    assert [g.users for g in arena.pair(waiting, 2, at=1.0)] == [(1, 3), (2, 4)]
    alone = [w(1, 40, last=frozenset({2})), w(2, 30, last=frozenset({1}))]
    assert arena.pair(alone, 2, at=1.0, rematch_wait_s=10) == []  # they wait a little
    assert [g.users for g in arena.pair(alone, 2, at=11.0, rematch_wait_s=10)] == [(1, 2)]


def test_arena_tables_of_three_and_bots_fill_after_a_wait() -> None:
    waiting = [w(u, 100 - u, since=float(u)) for u in range(1, 6)]
    groups = arena.pair(waiting, 3, at=6.0, bots=False)
    assert [g.users for g in groups] == [(1, 2, 3)]  # 4 and 5 wait for a third person
    groups = arena.pair(waiting, 3, at=6.0, bots=True, bot_wait_s=10.0)
    assert [g.users for g in groups] == [(1, 2, 3)]  # not waited long enough yet
    groups = arena.pair(waiting, 3, at=14.0, bots=True, bot_wait_s=10.0)
    assert [(g.users, g.bots) for g in groups] == [((1, 2, 3), 0), ((4, 5), 1)]


def test_seat_order_balances_first_moves() -> None:
    assert arena.seat_order([1, 2], {}, {}) == [1, 2]
    assert arena.seat_order([1, 2], {1: 0.0, 2: 1.0}, {1: 1, 2: 1}) == [2, 1]


def play_swiss(players: int, rounds: int, seed: int, ahead: bool = True) -> list[swiss.Round]:
    rng = random.Random(seed)
    score = dict.fromkeys(range(1, players + 1), 0.0)
    rating = {u: rng.uniform(0, 30) for u in score}
    opponents: dict[int, set[int]] = {u: set() for u in score}
    byes = dict.fromkeys(score, 0)
    out = []
    for _ in range(rounds):
        plan = swiss.pair_two([swiss.Entrant(u, score[u], rating[u], frozenset(opponents[u]),
                                             byes[u]) for u in score],
                              later=rounds - len(out) - 1 if ahead else 0)
        out.append(plan)
        for u in plan.byes:
            byes[u] += 1
            score[u] += 2
        for a, b in plan.tables:
            opponents[a].add(b)
            opponents[b].add(a)
            outcome = rng.choice([(2, 0), (1, 1), (0, 2)])
            score[a] += outcome[0]
            score[b] += outcome[1]
    return out


@pytest.mark.parametrize("seed", range(8))
def test_swiss_of_seven_no_repeats_one_bye_a_round(seed: int) -> None:
    rounds = play_swiss(7, 5, seed)
    met: set[frozenset[int]] = set()
    had_bye: list[int] = []
    for plan in rounds:
        assert len(plan.byes) == 1 and len(plan.tables) == 3
        seen = [u for t in plan.tables for u in t] + plan.byes
        assert sorted(seen) == list(range(1, 8))
        for a, b in plan.tables:
            assert frozenset((a, b)) not in met, "a repeated pairing"
            met.add(frozenset((a, b)))
        bye = plan.byes[0]
        assert bye not in had_bye, "a second bye before everyone had one"
        had_bye.append(bye)


def repeats(rounds: list[swiss.Round]) -> int:
    met: set[frozenset[int]] = set()
    count = 0
    for plan in rounds:
        for a, b in plan.tables:
            count += frozenset((a, b)) in met
            met.add(frozenset((a, b)))
    return count


def test_swiss_looks_ahead_to_the_last_round() -> None:
    # 7 players, 6 rounds (as many as each one's opponents): pairing one round at a time
    # dead-ends now and then; looking ahead never does
    assert any(repeats(play_swiss(7, 6, seed, ahead=False)) for seed in range(40))
    assert [seed for seed in range(200) if repeats(play_swiss(7, 6, seed))] == []
    # more rounds than a round robin: none repeats before the round robin is complete
    for players, robin in ((5, 5), (6, 5)):
        for seed in range(10):
            rounds = play_swiss(players, 8, seed)
            assert repeats(rounds[:robin]) == 0 and repeats(rounds) > 0


def test_swiss_byes_go_round_before_anyone_has_two() -> None:
    for seed in range(8):
        rounds = play_swiss(7, 7, seed)  # as many rounds as a round robin of seven
        assert sorted(u for plan in rounds for u in plan.byes) == list(range(1, 8))
        rounds = play_swiss(5, 11, seed)  # more rounds than opponents: byes go round again
        byes = [plan.byes[0] for plan in rounds]
        assert sorted(byes[:5]) == sorted(byes[5:10]) == list(range(1, 6))


def test_swiss_pairs_top_half_against_bottom_half() -> None:
    entrants = [swiss.Entrant(u, 0.0, float(100 - u)) for u in range(1, 9)]
    assert swiss.pair_two(entrants).tables == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_swiss_many_table_sizes() -> None:
    assert swiss.table_sizes(10, 4) == [4, 3, 3]
    assert swiss.table_sizes(3, 4) == [3]
    entrants = [swiss.Entrant(u, 0.0, 0.0) for u in range(1, 6)]
    plan = swiss.pair_many(entrants, 4, 3, bots=False)
    assert plan.tables == [(1, 2, 3)] and plan.byes == [4, 5]
    plan = swiss.pair_many(entrants, 4, 3, bots=True)
    assert plan.tables == [(1, 2, 3), (4, 5)] and plan.bots == [0, 1]


def test_tie_breaks_by_hand() -> None:
    # round 1: 1 beats 2, 3 and 4 draw; round 2: 1 beats 3, 2 beats 4 (win 2, draw 1)
    games = [GameResult((1, 2), (1, 2)), GameResult((3, 4), (1, 1)),
             GameResult((1, 3), (1, 2)), GameResult((4, 2), (2, 1))]
    totals = recompute("swiss", [1, 2, 3, 4], games, {}, 2.0)
    assert {u: t.score for u, t in totals.items()} == {1: 4, 2: 2, 3: 1, 4: 1}
    assert [buchholz(u, totals) for u in (1, 2, 3, 4)] == [3, 5, 5, 3]
    assert [sonneborn_berger(u, totals) for u in (1, 2, 3, 4)] == [3, 1, 0.5, 0.5]
    rows = ranking("swiss", totals, {})
    assert [(r.rank, r.user_id) for r in rows] == [(1, 1), (2, 2), (3, 3), (4, 4)]


def test_arena_recompute_counts_streaks_in_order() -> None:
    games = [GameResult((1, 2), (1, 2)), GameResult((1, 2), (1, 2)),
             GameResult((2, 1), (2, 1)), GameResult((1, None), (1, 1))]
    totals = recompute("arena", [1, 2], games, {}, 2.0)
    assert totals[1].score == 2 + 2 + 4 + 2 and totals[1].streak == 0
    assert totals[2].score == 0 and totals[1].wins == 3
    rows = ranking("arena", totals, {})
    assert [r.user_id for r in rows] == [1, 2]
