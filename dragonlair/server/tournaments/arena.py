"""The arena's pairing (docs/tournaments.md, "Arena"): pure functions, no database.

Every runner tick the players waiting for a game are grouped into tables by rating: sorted
by rating (ordinal, highest first), neighbours play each other. Two players who have just
played each other are not paired again at once while another partner is waiting (an
immediate rematch is allowed only once one of them has waited ``rematch_wait_s``). Tables of
``size`` players: the waiting players are cut into groups of ``size`` in rating order; the
few left over wait for others, or, where the organiser allows bots, once the longest of them
has waited ``bot_wait_s`` seconds, play with bots filling the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Waiting:
    user_id: int
    rating: float
    since: float
    #: the other people of the player's last game (no immediate rematch)
    last: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class Group:
    """A table to start: its people (rating order) and how many bots fill it."""

    users: tuple[int, ...]
    bots: int = 0


def ranked(waiting: Sequence[Waiting]) -> list[Waiting]:
    return sorted(waiting, key=lambda w: (-w.rating, w.since, w.user_id))


def pair(waiting: Sequence[Waiting], size: int, at: float, *, bots: bool = False,
         bot_wait_s: float = 10.0, rematch_wait_s: float = 10.0,
         min_players: int = 2) -> list[Group]:
    """The tables to start now from the players ``waiting`` (module docs)."""
    if size == 2:
        groups, left = _pairs(ranked(waiting), at, rematch_wait_s)
    else:
        groups, left = _groups(ranked(waiting), size, at, rematch_wait_s)
    if left and bots and at - min(w.since for w in left) >= bot_wait_s:
        people = tuple(w.user_id for w in left)
        groups.append(Group(people, max(size, min_players) - len(people)))
    return groups


def _pairs(order: list[Waiting], at: float,
           rematch_wait_s: float) -> tuple[list[Group], list[Waiting]]:
    groups: list[Group] = []
    left: list[Waiting] = []
    free = list(order)
    while free:
        a = free.pop(0)
        partner = next((b for b in free if b.user_id not in a.last
                        and a.user_id not in b.last), None)
        if partner is None and free and max(at - a.since, at - free[0].since) >= \
                rematch_wait_s:
            partner = free[0]
        if partner is None:
            left.append(a)
            continue
        free.remove(partner)
        groups.append(Group((a.user_id, partner.user_id)))
    return groups, left


def _groups(order: list[Waiting], size: int, at: float,
            rematch_wait_s: float) -> tuple[list[Group], list[Waiting]]:
    full = len(order) // size * size
    groups = [Group(tuple(w.user_id for w in order[i:i + size]))
              for i in range(0, full, size)]
    left = order[full:]
    if len(groups) == 1 and not left:  # the same people again at once: wait a little
        members = set(groups[0].users)
        if all(members - {w.user_id} <= w.last for w in order) and \
                max(at - w.since for w in order) < rematch_wait_s:
            return [], order
    return groups, left


def seat_order(users: Sequence[int], seat_sums: dict[int, float],
               games: dict[int, int]) -> list[int]:
    """Balanced seats: the player whose seats so far were on average the latest sits
    first (seat 0 moves first); ties by the order given."""
    def average(u: int) -> float:
        n = games.get(u, 0)
        return seat_sums.get(u, 0.0) / n if n else 0.0

    return sorted(users, key=lambda u: (-average(u), games.get(u, 0)))
