"""The database: SQLAlchemy 2 models and the engine (SQLite by default, PostgreSQL later).

The action log is the game record: one row per applied action (chance outcomes included),
``UNIQUE(table_id, seq)``. Whoever inserts ``seq`` first wins; a second process that tried
the same ``seq`` gets an integrity error and reloads. Schema changes go through Alembic
(``dragonlair/server/migrations``); :func:`dragonlair.server.migrate.upgrade` runs them on
start.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.orm import Session as OrmSession


def now() -> float:
    """Seconds since the epoch (stored as a float: portable across databases)."""
    return time.time()


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: unique login name; guests get ``guest-<hex>``
    username: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str] = mapped_column(String(64))
    #: argon2 hash; ``None`` for a guest
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float, default=now)


class Session(Base):
    """A login: the cookie holds the token, the database only its SHA-256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         index=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    expires_at: Mapped[float] = mapped_column(Float)


class GameTable(Base):
    """A table: a game with its options, seats and action log. ``status``: ``open``
    (seats being filled), ``running``, ``finished``."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[int] = mapped_column(Integer)
    #: the complete options (defaults included), as the record stores them
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True, default="open")
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: reserved for clocks (a later increment): the clock settings as JSON
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the engine's outcome once finished
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class Seat(Base):
    """A seat: ``kind`` is ``open``, ``human`` (``user_id``) or ``bot`` (``bot``: its name)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),
                      UniqueConstraint("table_id", "user_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)


class ActionRow(Base):
    """One applied action: ``seat`` (-1: chance) and its canonical text."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    #: who sent it (``None``: chance or a bot)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)


class IdempotencyKey(Base):
    """A client's idempotency key, per table and user, and the action it produced."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("table_id", "user_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    key: Mapped[str] = mapped_column(String(128))
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float, default=now)


SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    """An engine for ``url``. SQLite gets WAL mode (readers never block the writer),
    ``synchronous`` (docs/server.md), foreign keys, and a busy timeout so that several
    processes on one file wait for each other instead of failing."""
    if synchronous.upper() not in SYNCHRONOUS:
        raise ValueError(f"sqlite synchronous must be one of {SYNCHRONOUS}")
    sqlite = url.startswith("sqlite")
    kwargs: dict[str, Any] = {}
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    if sqlite:
        mode = synchronous.upper()

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={mode}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    return engine


def make_sessionmaker(engine: Engine) -> sessionmaker[OrmSession]:
    return sessionmaker(engine, expire_on_commit=False)
