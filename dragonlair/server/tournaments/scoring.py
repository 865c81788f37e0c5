"""Points of a finished game in a tournament (docs/tournaments.md, "Scoring").

One table for every game and size: a player gets **2 points for each player placed below
them and 1 for each player tied with them**. Two players: a win 2, a draw 1, a loss 0 (the
arena's chess scale); four players: 1st 6, 2nd 4, 3rd 2, last 0. A player whose seat a bot
took (left, away, resigned) is placed below everyone who stayed (the ratings' rule,
:func:`dragonlair.server.ratings.rating_placings`).

Arena streaks (lichess): a *win* is an outright first place (no tie). After two wins in a
row a player is *on fire*: each game then counts double, until a game that is not a win
ends the streak (that game still counts double).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def placing_points(placings: Sequence[int]) -> list[int]:
    """Each seat's points: 2 per player placed below, 1 per other player tied."""
    return [2 * sum(q > p for q in placings) + sum(q == p for q in placings) - 1
            for p in placings]


def wins(placings: Sequence[int]) -> list[bool]:
    """Whether each seat won outright (first, nobody tied with it)."""
    best = min(placings)
    alone = sum(p == best for p in placings) == 1
    return [alone and p == best for p in placings]


def max_points(players: int) -> int:
    return 2 * (players - 1)


@dataclass(frozen=True, slots=True)
class Scored:
    points: int
    streak: int  # the streak after this game
    fire: bool  # the game counted double


def arena_score(base: int, won: bool, streak: int) -> Scored:
    """An arena game's points from its ``base`` points, given the ``streak`` before it."""
    fire = streak >= 2
    return Scored(base * 2 if fire else base, streak + 1 if won else 0, fire)
