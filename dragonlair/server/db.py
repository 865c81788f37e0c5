"""The database: SQLAlchemy 2 models and the engine (SQLite by default, or PostgreSQL).

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
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
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
    #: a bot account (migration 0004): plays through the WebSocket protocol with an API token
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    #: may hide and restore posts and workshop entries (``dragonlair admin grant USER``)
    is_moderator: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float, default=now)

    #: ``name_taken`` (dragonlair/server/accounts.py) looks names up letter case aside
    __table_args__ = (Index("ix_users_display_name_lower", func.lower(display_name)),)


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
    (seats being filled), ``running``, ``finished``, ``expired`` (open, never started:
    docs/server.md, "Away players and abandoned tables")."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[int] = mapped_column(Integer)
    #: the complete options (defaults included), as the record stores them
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True, default="open")
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the clock settings as JSON (docs/server.md, "Clocks"); ``None``: no clock
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the bot that takes a person's seat when they time out or leave (migration 0002)
    takeover_bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    #: what happens to a seat whose person is away (migration 0006; dragonlair/server/
    #: presence.py): ``{"kind": "bot", "seconds": S}`` or ``{"kind": "wait"}``; ``None``
    #: (tables older than it): the default policy
    away: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: an open table not started by then becomes ``expired`` (migration 0006)
    expires_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the engine's outcome once finished
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the workshop entry the table was made from (migration 0009; dragonlair/server/
    #: workshop): ``{"entry": id, "version": n, "title": ...}``; its content is in ``options``
    workshop: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


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


# ---- clocks, leavers and ratings (migration 0002) ----
class SeatClockRow(Base):
    """A seat's clock (docs/server.md, "Clocks"): the bank left when its turn began and
    when that was (``started``: ``None`` while the seat is not to move)."""

    __tablename__ = "seat_clocks"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    bank: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)


class SeatChange(Base):
    """A bot took a person's seat of a running game: ``reason`` ``timeout``, ``left`` or
    ``resigned``; ``seq``: the log length then; ``user_id``: the leaver (ranked last)."""

    __tablename__ = "seat_changes"
    __table_args__ = (UniqueConstraint("table_id", "seat", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    bot: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[float] = mapped_column(Float, default=now)


class Rating(Base):
    """An openskill (Plackett-Luce) rating per game and player: ``player`` is ``u:<user
    id>`` for a person (or a bot account) and ``b:<bot name>`` for a server bot."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("game", "player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    player: Mapped[str] = mapped_column(String(160))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True,
                                                index=True)
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float, default=now)


class RatingPoint(Base):
    """A rating after one rated game (a profile's history)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rating_id: Mapped[int] = mapped_column(ForeignKey("ratings.id", ondelete="CASCADE"),
                                           index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: the place the rating used (a leaver's is last)
    placing: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float, default=now)


class ServerState(Base):
    """Small server-wide values: ``heartbeat`` (the newest moment any server process was
    alive; the gap before a start is time no clock is charged for)."""

    __tablename__ = "server_state"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[float] = mapped_column(Float)


class TableClaim(Base):
    """Which server process runs a table's timers and bots, and until when its lease holds
    (dragonlair/server/claims.py). An ``owner`` of ``""`` or a lease in the past: free."""

    __tablename__ = "table_claims"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    expires_at: Mapped[float] = mapped_column(Float)
# ---- end clocks, leavers and ratings ----


# ---- chat and invites (migration 0003) ----
class ChatMessage(Base):
    """A table's chat line: who wrote it (their seat then, ``None``: a spectator), the
    display name then, and the text (plain text: clients escape it, nothing is HTML)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    #: ``table`` (every viewer) or ``spectators`` (a spectator's line while the game ran:
    #: the players get it once the game is over; migration 0007)
    channel: Mapped[str] = mapped_column(String(16), default="table", server_default="table")


class Invite(Base):
    """A seat reserved by an invite link: only the SHA-256 of the token is stored; one
    live invite per seat (issuing anew replaces the old token); deleted once used."""

    __tablename__ = "invites"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
# ---- end chat and invites ----


# ---- bot accounts (migration 0004) ----
class ApiToken(Base):
    """A personal API token (``Authorization: Bearer ...``, for remote bots): only its
    SHA-256 is stored; shown once when made; revoked by deleting the row."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         index=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float, default=now)
# ---- end bot accounts ----


# ---- rematch (migration 0007) ----
class Rematch(Base):
    """The offer to play a finished table again (dragonlair/server/rematch.py): ``state``
    ``offered``, ``declined``, ``expired`` or ``started`` (``new_table``); ``accepted``: the
    seats that said yes (bot seats at once); ``declined_by``: the seat that said no."""

    __tablename__ = "rematches"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    state: Mapped[str] = mapped_column(String(16))
    offered_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    accepted: Mapped[list[int]] = mapped_column(JSON)
    declined_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    new_table: Mapped[str | None] = mapped_column(String(32), nullable=True)
# ---- end rematch ----


# ---- Web Push (migration 0008) ----
class PushSubscription(Base):
    """A browser's Web Push subscription (dragonlair/server/push.py): the push service's
    ``endpoint`` (unique, by its SHA-256), the browser's P-256 key ``p256dh`` and ``auth``
    secret (base64url), and the language its notifications are written in."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         index=True)
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    endpoint: Mapped[str] = mapped_column(Text)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float, default=now)
# ---- end Web Push ----


SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")


def database_url(url: str) -> str:
    """``url`` with its driver made explicit: ``postgres://`` and ``postgresql://`` (what
    libpq and most hosting write) become ``postgresql+psycopg://`` (psycopg 3, the ``server``
    extra); everything else is returned as given."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme):]
    return url


def is_postgresql(url: str) -> bool:
    return url.startswith(("postgresql", "postgres:"))


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    """An engine for ``url``. SQLite gets WAL mode (readers never block the writer),
    ``synchronous`` (docs/server.md), foreign keys, and a busy timeout so that several
    processes on one file wait for each other instead of failing. PostgreSQL (psycopg 3;
    ``postgresql://`` is read as ``postgresql+psycopg://``) gets a pool sized for a server
    that works from many threads, and a ping before reuse, so that connections broken by a
    database restart are replaced instead of failing a request; ``synchronous`` is SQLite's
    and ignored there (PostgreSQL's own ``synchronous_commit`` applies)."""
    if synchronous.upper() not in SYNCHRONOUS:
        raise ValueError(f"sqlite synchronous must be one of {SYNCHRONOUS}")
    url = database_url(url)
    sqlite = url.startswith("sqlite")
    kwargs: dict[str, Any] = {}
    if is_postgresql(url):
        # the asyncio default executor's threads each hold one while they work; beyond
        # pool_size + max_overflow a request waits pool_timeout for a free one
        kwargs.update(pool_size=10, max_overflow=30, pool_timeout=30)
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        if ":memory:" not in url and url not in ("sqlite://", "sqlite+pysqlite://"):
            # no cap on connections: a request holds one (its user's session) while it waits
            # for the database thread, which needs one too; with a cap of 15, 15 such
            # requests at once waited on each other for the pool's 30 s. A SQLite connection
            # is a file handle; SQLite itself lets one writer in at a time.
            kwargs["pool_size"], kwargs["max_overflow"] = 8, -1
    engine = create_engine(url, **kwargs)
    if is_postgresql(url):
        ping_when_idle(engine)
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


#: a pooled connection idle longer than this is pinged before reuse (seconds)
PING_AFTER_IDLE_S = 1.0


def ping_when_idle(engine: Engine, after: float = PING_AFTER_IDLE_S) -> None:
    """Ping a pooled connection before reuse when it has lain idle in the pool for more than
    ``after`` seconds: one broken by a database restart meanwhile is replaced instead of
    failing a request. ``pool_pre_ping`` pings at every checkout, a round trip per action
    (docs/server.md, "Performance"); a connection back from work a moment ago needs none.
    (A statement that does meet a broken connection, after a restart within that moment,
    fails that request; SQLAlchemy then invalidates the pool, so the next ones reconnect.)"""
    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_conn: Any, record: Any) -> None:
        if record is not None:
            record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since <= after:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:  # the pool drops it and checks out another
            raise DisconnectionError(f"a pooled connection failed its ping: {exc}") from exc


def make_sessionmaker(engine: Engine) -> sessionmaker[OrmSession]:
    return sessionmaker(engine, expire_on_commit=False)


# the community's models (issue 26), each in its feature's package; imported here so that
# ``Base.metadata`` (the migrations' comparison, ``create_all`` in tests) holds them
from dragonlair.server.forum import models as _forum_models  # noqa: E402,F401
from dragonlair.server.puzzles import models as _puzzle_models  # noqa: E402,F401
from dragonlair.server.tournaments import models as _tournament_models  # noqa: E402,F401
from dragonlair.server.workshop import models as _workshop_models  # noqa: E402,F401
