"""Ratings: openskill's Plackett-Luce model, one rating per game and player.

:func:`rate_table` runs inside the transaction that commits a rated table's final action
(:meth:`dragonlair.server.table.pipeline.MovePipeline.commit`), so a finished game is rated exactly
once or, if that transaction fails, neither finished nor rated. Placings come from the
engine's outcome (ties stay ties); a person whose seat a bot took (time out, leave, resign)
is ranked below everyone who stayed (several leavers share the last place), and the bot that
finished for them is not rated. Server bots are rated like people, one rating per bot name
(a name is a strength: ``greedy``, ``ismcts-strong``) and game, on the same scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.db import GameTable, Rating, RatingPoint, Seat, SeatChange

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown and sorted by: ``mu - 3 sigma``."""
    return mu - 3.0 * sigma


def user_key(user_id: int) -> str:
    return f"u:{user_id}"


def bot_key(bot: str) -> str:
    return f"b:{bot}"


@dataclass(frozen=True, slots=True)
class Participant:
    """Who a seat's result counts for: ``player`` key, user or bot, and whether they left."""

    seat: int
    player: str
    user_id: int | None
    bot: str | None
    left: bool


def participants(s: OrmSession, table_id: str) -> list[Participant]:
    """Each seat's rated player: its person, or the leaver whose seat a bot took, or its bot."""
    leavers = {c.seat: c.user_id for c in s.scalars(
        select(SeatChange).where(SeatChange.table_id == table_id).order_by(SeatChange.id))}
    out = []
    for seat in s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)):
        leaver = leavers.get(seat.seat)
        if seat.seat in leavers and leaver is not None:
            out.append(Participant(seat.seat, user_key(leaver), leaver, None, True))
        elif seat.kind == "human" and seat.user_id is not None:
            out.append(Participant(seat.seat, user_key(seat.user_id), seat.user_id, None,
                                   False))
        elif seat.kind == "bot" and seat.bot:
            out.append(Participant(seat.seat, bot_key(seat.bot), None, seat.bot, False))
    return out


def rating_placings(placings: list[int], left: list[bool]) -> list[int]:
    """The engine's placings with leavers moved below everyone who stayed (sharing the last
    place); the others keep their order and ties."""
    stayed = sorted({p for p, gone in zip(placings, left, strict=True) if not gone})
    rank = {p: i + 1 for i, p in enumerate(stayed)}
    last = len(stayed) + 1
    return [last if gone else rank[p] for p, gone in zip(placings, left, strict=True)]


def rate_table(s: OrmSession, table: GameTable, result: dict[str, Any], at: float) -> int:
    """Rate ``table``'s finished game (in the caller's transaction; nothing is committed
    here). Friendly tables and games with fewer than two rated players change nothing.
    Returns how many ratings changed."""
    if not table.rated:
        return 0
    seats = participants(s, table.id)
    placings = result.get("placings")
    if not isinstance(placings, list) or len(seats) < 2 or \
            any(p.seat >= len(placings) for p in seats):
        return 0
    ranks = rating_placings([int(placings[p.seat]) for p in seats], [p.left for p in seats])
    rows: dict[str, Rating] = {}
    for p in seats:
        if p.player in rows:
            continue
        row = s.scalar(select(Rating).where(Rating.game == table.game,
                                            Rating.player == p.player))
        if row is None:
            fresh = MODEL.rating()
            row = Rating(game=table.game, player=p.player, user_id=p.user_id, bot=p.bot,
                         mu=float(fresh.mu), sigma=float(fresh.sigma),
                         ordinal=ordinal(float(fresh.mu), float(fresh.sigma)), games=0,
                         updated_at=at)
            s.add(row)
        rows[p.player] = row
    teams = [[MODEL.rating(mu=rows[p.player].mu, sigma=rows[p.player].sigma)] for p in seats]
    new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    # a bot at several seats of one game moves by the mean of its seats' changes
    changes: dict[str, list[tuple[float, float]]] = {}
    for p, team in zip(seats, new, strict=True):
        changes.setdefault(p.player, []).append((float(team[0].mu), float(team[0].sigma)))
    s.flush()
    for p, rank in zip(seats, ranks, strict=True):
        row = rows[p.player]
        got = changes.pop(p.player, None)
        if got is not None:
            row.mu = row.mu + sum(mu - row.mu for mu, _ in got) / len(got)
            row.sigma = sum(sigma for _, sigma in got) / len(got)
            row.ordinal = ordinal(row.mu, row.sigma)
            row.games += 1
            row.updated_at = at
        s.add(RatingPoint(rating_id=row.id, table_id=table.id, seat=p.seat, placing=rank,
                          mu=row.mu, sigma=row.sigma, ordinal=row.ordinal, created_at=at))
    return len(rows)
