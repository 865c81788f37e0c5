"""Swiss pairing (docs/tournaments.md, "Swiss"): pure functions, no database.

Two players (Dragon Master): a simplified Dutch system. Players are ranked by score, then
rating. With an odd number, the bye goes to the lowest-ranked player among those with the
fewest byes (nobody gets a second bye before everyone has had one). The first unpaired
player is paired within their score group with the player half a group below them (top half
against bottom half), else the nearest one, else a lower score group; no two players meet
twice: a backtracking search takes the next candidate (or another bye) when the rest cannot
be paired. Only when no pairing without a repeat exists at all (more rounds than opponents)
is a repeat allowed.

More players a table (Fist, Farkle): each round the players, ranked the same way, are cut
into tables of the chosen size (sizes as even as the number allows); a table that would be
smaller than the game's minimum is filled with bots where the organiser allows it, else its
players get a bye.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    score: float
    rating: float
    opponents: frozenset[int] = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    tables: list[tuple[int, ...]]  # user ids per table (seat order decided later)
    byes: list[int]
    bots: list[int] = field(default_factory=list)  # bots filling each table


def rank(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.user_id))


#: the backtracking search's budget (candidate tries) before it allows repeats
SEARCH_BUDGET = 200_000


def pair_two(entrants: Sequence[Entrant]) -> Round:
    """A round of two-player games (module docs)."""
    order = rank(entrants)
    for strict in (True, False):
        budget = [SEARCH_BUDGET]
        for bye in _bye_candidates(order):
            rest = [e for e in order if e.user_id != bye] if bye is not None else order
            found = _match(rest, strict, budget)
            if found is not None:
                return Round([(a, b) for a, b in found], [] if bye is None else [bye])
            if budget[0] <= 0:
                break
    raise AssertionError("no pairing")  # without the repeat rule one always exists


def _bye_candidates(order: list[Entrant]) -> list[int | None]:
    """Who may get the bye: the players with the fewest byes, lowest-ranked first."""
    if len(order) % 2 == 0:
        return [None]
    fewest = min(e.byes for e in order)
    return [e.user_id for e in reversed(order) if e.byes == fewest]


def _candidates(top: Entrant, rest: list[Entrant]) -> list[Entrant]:
    group = [e for e in rest if e.score == top.score]
    # top half against bottom half: with ``top`` the group has len(group) + 1 players
    half = (len(group) + 1) // 2 - 1
    ideal = min(max(half, 0), max(len(group) - 1, 0))
    ordered = group[ideal:] + list(reversed(group[:ideal]))
    return ordered + [e for e in rest if e.score != top.score]


def _match(order: list[Entrant], strict: bool,
           budget: list[int]) -> list[tuple[int, int]] | None:
    if not order:
        return []
    top, rest = order[0], order[1:]
    for other in _candidates(top, rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if strict and other.user_id in top.opponents:
            continue
        found = _match([e for e in rest if e is not other], strict, budget)
        if found is not None:
            return [(top.user_id, other.user_id), *found]
    return None


def table_sizes(n: int, size: int) -> list[int]:
    """``n`` players into tables of at most ``size``, sizes as even as possible."""
    if n <= 0:
        return []
    count = -(-n // size)
    base, extra = divmod(n, count)
    return [base + 1] * extra + [base] * (count - extra)


def pair_many(entrants: Sequence[Entrant], size: int, min_players: int,
              bots: bool) -> Round:
    """A round of tables of ``size`` players (module docs)."""
    order = [e.user_id for e in rank(entrants)]
    tables: list[tuple[int, ...]] = []
    fill: list[int] = []
    byes: list[int] = []
    at = 0
    for n in table_sizes(len(order), size):
        people = tuple(order[at:at + n])
        at += n
        if n >= min_players:
            tables.append(people)
            fill.append(0)
        elif bots:
            tables.append(people)
            fill.append(min_players - n)
        else:
            byes.extend(people)
    return Round(tables, byes, fill)
