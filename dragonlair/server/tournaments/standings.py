"""Standings (docs/tournaments.md, "Standings"): totals recomputed from the games' results,
and the ranking with its tie-breaks. Pure functions, no database.

Arena: by score, then wins, then rating. Swiss: by score, then Buchholz (the sum of the
final scores of every opponent met, once per game; a bye adds nothing), then
Sonneborn-Berger (the final scores of the opponents one placed above, plus half of those one
tied with), then rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dragonlair.server.tournaments.scoring import arena_score, placing_points, wins


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: its people per seat (``None``: a bot) and placings per seat."""

    seats: tuple[int | None, ...]
    placings: tuple[int, ...]


@dataclass(slots=True)
class Totals:
    score: float = 0.0
    streak: int = 0
    games: int = 0
    wins: int = 0
    byes: int = 0
    #: per game: (opponents with their placing relative to me: 1 above me, 0 tied, -1 below)
    meetings: list[list[tuple[int, int]]] = field(default_factory=list)


def recompute(kind: str, users: Sequence[int], games: Sequence[GameResult],
              byes: Mapping[int, int], bye_points: float) -> dict[int, Totals]:
    """Every player's totals from the finished ``games`` in the order they were created
    (a player plays one game at a time, so that is the order of their results) and their
    ``byes``."""
    out = {u: Totals() for u in users}
    for game in games:
        points = placing_points(game.placings)
        won = wins(game.placings)
        for seat, user in enumerate(game.seats):
            if user is None or user not in out:
                continue
            t = out[user]
            if kind == "arena":
                scored = arena_score(points[seat], won[seat], t.streak)
                t.score += scored.points
                t.streak = scored.streak
            else:
                t.score += points[seat]
            t.games += 1
            t.wins += int(won[seat])
            mine = game.placings[seat]
            t.meetings.append([
                (other, (mine < game.placings[j]) - (mine > game.placings[j]))
                for j, other in enumerate(game.seats) if j != seat and other is not None])
    for user, n in byes.items():
        if user in out:
            out[user].byes = n
            out[user].score += n * bye_points
    return out


def buchholz(user: int, totals: Mapping[int, Totals]) -> float:
    return sum(totals[o].score for game in totals[user].meetings for o, _ in game
               if o in totals)


def sonneborn_berger(user: int, totals: Mapping[int, Totals]) -> float:
    out = 0.0
    for game in totals[user].meetings:
        for other, above in game:
            if other in totals and above >= 0:
                out += totals[other].score * (1.0 if above > 0 else 0.5)
    return out


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    user_id: int
    score: float
    games: int
    wins: int
    streak: int
    buchholz: float
    sonneborn_berger: float
    rating: float


def ranking(kind: str, totals: Mapping[int, Totals],
            ratings: Mapping[int, float]) -> list[Row]:
    """The standings, best first; equal keys share a rank."""
    rows = [Row(0, u, t.score, t.games, t.wins, t.streak, buchholz(u, totals),
                sonneborn_berger(u, totals), ratings.get(u, 0.0)) for u, t in totals.items()]

    def key(r: Row) -> tuple[float, ...]:
        if kind == "arena":
            return (-r.score, -r.wins, -r.rating)
        return (-r.score, -r.buchholz, -r.sonneborn_berger, -r.rating)

    rows.sort(key=lambda r: (key(r), r.user_id))
    out: list[Row] = []
    for i, r in enumerate(rows):
        same = out and key(out[-1]) == key(r)
        out.append(Row(out[-1].rank if same else i + 1, *(getattr(r, f) for f in (
            "user_id", "score", "games", "wins", "streak", "buchholz", "sonneborn_berger",
            "rating"))))
    return out
