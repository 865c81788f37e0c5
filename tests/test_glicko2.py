"""Glicko-2 (dragonlair/core/glicko2.py) against Glickman's worked example ("Example of the
Glicko-2 system", 2013) and a few properties of the update."""

from __future__ import annotations

import pytest

from dragonlair.core.glicko2 import MAX_RD, Rating, expected, idle, update

PLAYER = Rating(1500.0, 200.0, 0.06)
OPPONENTS = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
             (Rating(1700.0, 300.0), 0.0)]


def test_glickmans_worked_example() -> None:
    out = update(PLAYER, OPPONENTS)
    assert out.rating == pytest.approx(1464.06, abs=0.01)
    assert out.rd == pytest.approx(151.52, abs=0.01)
    assert out.volatility == pytest.approx(0.05999, abs=1e-5)


def test_expected_scores_of_the_example() -> None:
    # the paper's E column: 0.639, 0.432, 0.303
    got = [expected(PLAYER, o) for o, _ in OPPONENTS]
    assert got == pytest.approx([0.639, 0.432, 0.303], abs=1e-3)


def test_symmetry_of_a_game_between_equals() -> None:
    a, b = Rating(1500.0, 200.0), Rating(1500.0, 200.0)
    winner, loser = update(a, [(b, 1.0)]), update(b, [(a, 0.0)])
    assert winner.rating - 1500.0 == pytest.approx(1500.0 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd) and winner.rd < 200.0
    drawn = update(a, [(b, 0.5)])
    assert drawn.rating == pytest.approx(1500.0)


def test_surprise_moves_more_and_certainty_moves_less() -> None:
    weak, strong = Rating(1300.0, 80.0), Rating(1800.0, 80.0)
    upset = update(weak, [(strong, 1.0)]).rating - weak.rating
    expected_win = update(strong, [(weak, 1.0)]).rating - strong.rating
    assert upset > expected_win > 0
    sure, unsure = Rating(1500.0, 50.0), Rating(1500.0, 300.0)
    opponent = Rating(1500.0, 100.0)
    assert (update(unsure, [(opponent, 1.0)]).rating - 1500.0
            > update(sure, [(opponent, 1.0)]).rating - 1500.0)


def test_no_games_and_idle_time_only_widen_the_deviation() -> None:
    alone = update(PLAYER, [])
    assert alone.rating == PLAYER.rating and alone.volatility == PLAYER.volatility
    assert alone.rd == pytest.approx(200.2714, abs=1e-3)  # the paper's phi* times 173.7178
    assert idle(PLAYER, 0) == PLAYER
    assert idle(PLAYER, 10).rd > idle(PLAYER, 1).rd > PLAYER.rd
    assert idle(PLAYER, 10**9).rd == MAX_RD
    assert update(Rating(1500.0, 349.0), [(Rating(), 0.5)]).rd <= MAX_RD
