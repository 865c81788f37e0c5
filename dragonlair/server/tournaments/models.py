"""The tournaments' tables (issue 26; docs/tournaments.md); their migration:
dragonlair/server/migrations/versions/0011_tournaments.py.

Everything a tournament is lives here, so that a restart (or another process taking the
claim) resumes it from the database alone: the tournament (its claim: ``owner`` and
``expires_at``, as ``table_claims`` for tables), its players (score, streak, the arena's
queue: ``waiting_since``) and its games (one row per table it created, with the result as
the tournament counted it, written in the transaction that finished the table).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from dragonlair.server.db import Base, now

__all__ = ["Base", "Tournament", "TournamentGame", "TournamentPlayer"]


class Tournament(Base):
    """An arena (a fixed time; whoever is free is paired at once) or a Swiss tournament
    (a fixed number of rounds). ``status``: scheduled, running, finished."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))  # arena, swiss
    name: Mapped[str] = mapped_column(String(80))
    #: table options, table size, bots allowed, clock, ... (docs/tournaments.md)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True, default="scheduled")
    starts_at: Mapped[float] = mapped_column(Float)
    #: an arena's end (no pairing after it; games running then still count)
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: a Swiss tournament's number of rounds
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the claim: which server process runs it, until when (``""`` or the past: free)
    owner: Mapped[str] = mapped_column(String(64), default="", index=True)
    expires_at: Mapped[float] = mapped_column(Float, default=0.0)


class TournamentPlayer(Base):
    """A person in a tournament: their totals (kept with each finished game; the games'
    results are the truth they are recomputed from), the arena's queue and presence."""

    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    joined_at: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[float] = mapped_column(Float, default=0.0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    byes: Mapped[int] = mapped_column(Integer, default=0)
    #: the player's rating (ordinal) in the game when they joined: pairing by rating
    rating: Mapped[float] = mapped_column(Float, default=0.0)
    #: an arena: since when the player waits for a game (``None``: playing, or withdrawn)
    waiting_since: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: when the player's client last showed the tournament page (presence)
    seen_at: Mapped[float] = mapped_column(Float, default=0.0)


class TournamentGame(Base):
    """A table a tournament created: its players per seat (user ids; ``None``: a bot), the
    Swiss round, and the result as the tournament counted it."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          unique=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    #: {"placings": [...], "points": {user id: points}, "left": [user ids]}
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
