"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
deviation (RD) and a volatility, updated once per rating period from that period's results.

Written from Glickman's paper rather than taken from PyPI: the ``glicko2`` package there
(2.1.0) is a small, long-unmaintained copy of the same few formulas, without type hints and
with the volatility found by an older iteration; this module is as short, typed, and tested
against the paper's worked example (tests/test_glicko2.py). The volatility is found with the
Illinois algorithm of the paper's step 5.

Dragonlair's puzzles (docs/puzzles.md, "On the server") treat each attempt as a rating
period of one game, as lichess does: the solver plays the puzzle; solving it is a win for
the solver and a loss for the puzzle. Time away grows the deviation with :func:`idle`
(one period of ``sigma`` for each whole day without an attempt), never past :data:`MAX_RD`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: the scale factor between the Glicko and the Glicko-2 scale
SCALE = 173.7178
#: a newcomer's rating, deviation and volatility (the paper's defaults)
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: the deviation never grows past a newcomer's
MAX_RD = 350.0
#: the system constant (the paper: between 0.3 and 1.2)
TAU = 0.5
#: the convergence tolerance of the volatility's iteration
EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale: ``rating`` (1500 a newcomer), ``rd`` (its deviation)
    and ``volatility``."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance ``player`` beats ``opponent`` (the paper's ``E``)."""
    return _e((player.rating - DEFAULT_RATING) / SCALE,
              (opponent.rating - DEFAULT_RATING) / SCALE, opponent.rd / SCALE)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of ``f`` by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful; bounded all the same
        if abs(big_b - big_a) <= EPSILON:
            break
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[tuple[Rating, float]], *,
           tau: float = TAU) -> Rating:
    """``player`` after one rating period with ``results``: ``(opponent, score)`` pairs,
    the score 1 a win, 0.5 a draw, 0 a loss, each opponent as they were before the period.
    No results: only the deviation grows (the paper's step 6 alone)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    games = [((o.rating - DEFAULT_RATING) / SCALE, o.rd / SCALE, float(s)) for o, s in results]
    if not games:
        return idle(player, 1)
    inv_v = 0.0
    total = 0.0
    for mu_j, phi_j, score in games:
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma = _volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    rd = min(MAX_RD, phi_new * SCALE)
    return Rating(DEFAULT_RATING + SCALE * mu_new, rd, sigma)


def idle(player: Rating, periods: float) -> Rating:
    """``player`` after ``periods`` rating periods without a game: the deviation grows by
    the volatility each period (``phi^2 + n sigma^2``), never past :data:`MAX_RD`."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility * player.volatility) * SCALE
    return Rating(player.rating, min(MAX_RD, grown), player.volatility)
