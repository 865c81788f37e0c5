"""The puzzles' tables (issue 27; docs/puzzles.md, "On the server"); their migration:
dragonlair/server/migrations/versions/0012_puzzles.py.

A puzzle's row holds its JSON (dragonlair/puzzles/model.py) and its Glicko-2 rating; its id
is the puzzle's id, a hash of the position as the seat sees it, so the same position from
two games is one row (inserted with "on conflict do nothing"). Themes have a table of their
own (a plain index serves the filter on SQLite and PostgreSQL alike). An account's first
answer to a puzzle is its one rated attempt (unique per account and puzzle); later tries
only count.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from dragonlair.server.db import Base, now

__all__ = ["Puzzle", "PuzzleAttempt", "PuzzleRating", "PuzzleTheme"]


class Puzzle(Base):
    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_game_rating", "game", "rating"),)

    #: the puzzle's id (dragonlair.puzzles.model.position_id): the de-duplication key
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[int] = mapped_column(Integer)
    #: the puzzle's JSON (Puzzle.to_json)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: its theme keys (also in ``puzzle_themes``, which the filter reads)
    themes: Mapped[list[Any]] = mapped_column(JSON)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    #: rated attempts, and how many of them solved it
    plays: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float, default=now, index=True)
    #: the server table it was mined from (``None``: shipped with Dragonlair)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class PuzzleTheme(Base):
    __tablename__ = "puzzle_themes"
    __table_args__ = (Index("ix_puzzle_themes_game_theme", "game", "theme"),)

    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"),
                                           primary_key=True)
    theme: Mapped[str] = mapped_column(String(128), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))


class PuzzleAttempt(Base):
    """An account's answer to a puzzle: the first one (``rated`` for a registered account,
    with both ratings before and after); ``tries`` counts the answers since (unrated)."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (UniqueConstraint("user_id", "puzzle_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         index=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"),
                                           index=True)
    correct: Mapped[bool] = mapped_column(Boolean)
    answer: Mapped[str] = mapped_column(String(200))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    tries: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    user_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    user_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    puzzle_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    puzzle_after: Mapped[float | None] = mapped_column(Float, nullable=True)


class PuzzleRating(Base):
    """An account's puzzle rating (Glicko-2; one over all games, as lichess keeps one)."""

    __tablename__ = "puzzle_ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float, default=now)
