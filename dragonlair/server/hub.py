"""The hub: the tables this process has loaded, and what they share.

One :class:`Hub` per process: its tables
(:class:`~dragonlair.server.table.runtime.TableRuntime`, loaded from the action log on first
use), the database (:meth:`Hub.db`: a worker thread, or SQLite's one database thread
committing in groups), the bots' thread pool, the only source of chance outcomes, the
clock the tables' clocks read and the server's heartbeat. With many processes (a Redis) it
also holds the bus between them (:meth:`Hub.announce`, :meth:`Hub.notice`) and this
process's claims: which running tables it runs the timers and bots of
(:mod:`dragonlair.server.claims`; a dead process's tables pass to the others).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from dragonlair.core.game import JSON, Action, State
from dragonlair.core.players import Bot, ask_bot
from dragonlair.core.streams import SeatViews
from dragonlair.server import claims, hotpath
from dragonlair.server.botpool import BotPool, RemoteBot
from dragonlair.server.bus import Bus, LocalBus, Subscription, TableEvent
from dragonlair.server.clocks import Clock, ClockSpec, SystemClock, Timer
from dragonlair.server.db import GameTable
from dragonlair.server.dbthread import GroupCommit
from dragonlair.server.errors import ServerError
from dragonlair.server.presence import AwayPolicy
from dragonlair.server.settings import Settings
from dragonlair.server.table.runtime import TableRuntime
from dragonlair.server.table.storage import (
    SeatInfo,
    action_count,
    heartbeat,
    read_seats,
    read_table,
    shift_downtime,
)

if TYPE_CHECKING:
    from dragonlair.server.push import Pusher

log = logging.getLogger("dragonlair.server")

T = TypeVar("T")


@dataclass
class Hub:
    """The tables this process has loaded, the database, the bots' threads, chance."""

    settings: Settings
    sessions: sessionmaker[OrmSession]
    executor: Executor
    tables: dict[str, TableRuntime] = field(default_factory=dict)
    loading: dict[str, asyncio.Lock] = field(default_factory=dict)
    #: the only source of chance outcomes: the operating system's, no client can predict it
    chance: random.Random = field(default_factory=secrets.SystemRandom)
    #: the time of the clocks (``Settings.clock``; tests inject a fake one)
    clock: Clock = field(default_factory=SystemClock)
    heartbeat_timer: Timer | None = None
    beat_task: asyncio.Task[None] | None = None
    closing: bool = False

    #: the worker processes the bots think in (``None``: the threads of ``executor``)
    bots: BotPool | None = None

    #: SQLite: the one database thread, committing in groups (dragonlair/server/dbthread.py)
    group: GroupCommit | None = None

    #: many processes (``Settings.redis_url``): the news between them, this process's id,
    #: the tables whose claims it holds (it runs their timers and bots), its subscriptions
    bus: Bus = field(default_factory=LocalBus)
    process_id: str = field(default_factory=lambda: secrets.token_hex(8))
    claimed: set[str] = field(default_factory=set)
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    claim_timer: Timer | None = None
    #: until when the leases of the last successful renewal hold (wall-clock time)
    leases_until: float = 0.0
    background: set[asyncio.Task[None]] = field(default_factory=set)
    #: Web Push for turn-based tables (dragonlair/server/push.py; ``None``: no VAPID key)
    pusher: Pusher | None = None
    #: called with a runtime whose game has just ended in this process's eyes
    #: (TableRuntime.ended; the chat registers one: chat.reveal)
    finish_hooks: list[Callable[[TableRuntime], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.settings.clock is not None:
            self.clock = self.settings.clock
        bind = self.sessions.kw.get("bind")
        if self.group is None and getattr(getattr(bind, "dialect", None), "name", "") == \
                "sqlite":
            self.group = GroupCommit(self.sessions)

    @property
    def postgresql(self) -> bool:
        """Whether the database is PostgreSQL (the per-action write has a one-statement
        form there: hotpath.write_in_one)."""
        bind = self.sessions.kw.get("bind")
        return getattr(getattr(bind, "dialect", None), "name", "") == "postgresql"

    @property
    def multi(self) -> bool:
        """Whether other processes may serve the same tables (a Redis is configured)."""
        return self.settings.redis_url is not None

    def runs(self, table_id: str) -> bool:
        """Whether this process runs ``table_id``'s timers and bots: always when alone, else
        while it holds the table's claim."""
        return not self.multi or table_id in self.claimed

    def spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` in the background, keeping a reference until it is done."""
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a background task failed")

        task = asyncio.create_task(run())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def announce(self, table_id: str, payload: JSON, since: int | None,
                 seq: int | None) -> None:
        """Publish a change of ``table_id`` to the other processes (nothing when alone)."""
        if self.multi and not self.closing:
            event = TableEvent(table_id, {**payload, "p": self.process_id}, since, seq)
            self.spawn(self.bus.publish(event))

    async def catch_up(self, table_id: str, seq: int) -> list[TableEvent]:
        """What a subscription missed after log length ``seq``: one notice to re-read the
        table if its log is longer now, or if its seats or status changed without an action
        (a takeover or a seat taken while Redis was away); the database is the truth."""
        def read(s: OrmSession) -> tuple[int, list[SeatInfo], str | None]:
            row = hotpath.table_row(s, table_id)
            return action_count(s, table_id), read_seats(s, table_id), \
                None if row is None else row[0]

        count, seats, status = await self.db(read)
        if count > seq:
            return [TableEvent(table_id, {"k": "sync", "p": ""}, seq, count)]
        runtime = self.tables.get(table_id)
        if runtime is not None and (seats != runtime.seats or status != runtime.status):
            return [TableEvent(table_id, {"k": "sync", "p": ""})]
        return []

    async def notice(self, event: TableEvent) -> None:
        """News of a table from another process: its viewers here get what they may see,
        and if this process runs the table, its clocks and bots follow."""
        payload = event.payload
        if payload.get("p") == self.process_id:
            return  # our own news, delivered here already
        runtime = self.tables.get(event.table_id)
        if runtime is None:
            return
        kind = payload.get("k")
        if kind == "chat" and isinstance(payload.get("message"), dict):
            from dragonlair.server.chat import sees  # (chat imports this module)

            line: JSON = payload["message"]
            for viewer in list(runtime.viewers):  # a spectators' line: not to the players
                if viewer.greeted and sees(runtime, viewer.user_id, line):
                    viewer.push({"type": "chat", "message": line})
            return
        if kind == "rematch" and isinstance(payload.get("note"), dict):
            runtime.audience.tell(payload["note"])  # dragonlair/server/rematch.py
            return
        if kind == "presence":
            runtime.presence.notice(event)
            return
        if kind == "takeover" and isinstance(payload.get("note"), dict):
            runtime.audience.tell(payload["note"])
        runtime.news.pending.append(event)
        runtime.news.refresh_soon()

    async def subscribe(self, runtime: TableRuntime) -> None:
        if self.multi and runtime.id not in self.subscriptions:
            self.subscriptions[runtime.id] = await self.bus.subscribe(
                runtime.id, self.notice, runtime.seq, self.catch_up)

    async def claim_round(self) -> None:
        """Renew this process's leases, take free and expired claims (a dead process's
        tables), and start or stop running tables accordingly."""
        at, ttl = time.time(), self.settings.claim_ttl_s
        try:
            owned = set(await self.db(lambda s: claims.sweep(s, self.process_id, at, ttl)))
        except Exception:
            # the database is away: our leases run out unrenewed, and once they have,
            # another process may hold the tables, so this one stops running them
            log.exception("renewing the table claims failed")
            if at < self.leases_until:
                return
            owned = set()
        else:
            self.leases_until = at + ttl
        gained, lost = owned - self.claimed, self.claimed - owned
        self.claimed = owned
        for table_id in sorted(gained):
            try:
                runtime = await self.table(table_id)
            except Exception:
                log.exception("table %s could not be loaded", table_id)
                continue
            log.info("table %s: claimed by this process", table_id)
            async with runtime.lock:
                await runtime.sync()
                await runtime.timekeeper.tick()
            runtime.driver.kick()
        for table_id in lost:
            held = self.tables.get(table_id)
            if held is not None:
                held.timekeeper.schedule()  # no timers here any more

    def claims_later(self) -> None:
        """Run :meth:`claim_round` every ``claim_renew_s`` seconds of real time (leases are
        wall-clock times shared by the processes, whatever clock the tables' clocks read)."""
        def due() -> None:
            self.claim_timer = None
            if not self.closing:
                self.spawn(self.claims_again())

        self.claim_timer = asyncio.get_running_loop().call_later(
            self.settings.claim_renew_s, due)

    async def claims_again(self) -> None:
        try:
            await self.claim_round()
        finally:
            if not self.closing and self.claim_timer is None:
                self.claims_later()

    async def take_claim(self, table_id: str) -> bool:
        """Take ``table_id``'s claim now if it is free (a table started here)."""
        if not self.multi or table_id in self.claimed:
            return True
        at, ttl = time.time(), self.settings.claim_ttl_s
        if await self.db(lambda s: claims.claim(s, table_id, self.process_id, at, ttl)):
            self.claimed.add(table_id)
            return True
        return False

    async def db(self, work: Callable[[OrmSession], T]) -> T:
        """Run ``work`` with a database session off the event loop: on SQLite in the one
        database thread, in a transaction shared with the work queued beside it (group
        commit: the result comes back once that transaction is committed); elsewhere in a
        worker thread with a transaction of its own."""
        if self.group is not None:
            return await self.group.run(work)

        def run() -> T:
            with self.sessions() as s:
                return work(s)

        return await asyncio.to_thread(run)

    async def db_raw(self, work: Callable[[Any], T]) -> T:
        """(PostgreSQL.) Run ``work`` with a pooled psycopg connection in autocommit (each
        statement its own transaction), in a worker thread: the per-action write without an
        ORM session (hotpath.write_in_one). A unique violation is raised as SQLAlchemy's
        :class:`IntegrityError`, as :meth:`db` raises it; a broken connection is dropped."""
        import psycopg

        bind = self.sessions.kw.get("bind")
        assert isinstance(bind, Engine)
        engine = bind

        def run() -> T:
            raw = engine.raw_connection()
            try:
                conn: Any = raw.driver_connection
                conn.autocommit = True
                try:
                    return work(conn)
                finally:
                    if not conn.closed:
                        conn.autocommit = False
            except psycopg.IntegrityError as exc:
                raise IntegrityError("hotpath", None, exc) from exc
            except psycopg.OperationalError:
                raw.invalidate()
                raise
            finally:
                raw.close()

        return await asyncio.to_thread(run)

    async def think(self, bot: Bot | RemoteBot, state: State, seat: int,
                    views: SeatViews | None = None) -> Action:
        """A bot's choice, computed off the event loop (a slow search delays no other table):
        in a worker process (:mod:`dragonlair.server.botpool`) or, for a bot that lives
        here, in the threads; a bot that fails plays a random legal action. ``views``: the
        table's bot seats' views, kept current (:mod:`dragonlair.core.streams`)."""
        loop = asyncio.get_running_loop()
        try:
            if isinstance(bot, RemoteBot):
                assert self.bots is not None
                return await self.bots.think(bot, state, seat, views)
            return await loop.run_in_executor(self.executor, ask_bot, bot, state, seat, views)
        except Exception:  # a bug in a bot (or BotError: an illegal choice) stalls no table
            log.exception("a bot failed at p%d; playing a random legal action", seat)
            legal = state.legal_actions(seat)
            return legal[self.chance.randrange(len(legal))]

    async def table(self, table_id: str) -> TableRuntime:
        """The runtime of ``table_id``, loaded from its action log on first use."""
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        lock = self.loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            runtime = self.tables.get(table_id)
            if runtime is None:
                runtime = await self.db(lambda s: self._load(s, table_id))
                self.tables[table_id] = runtime
                await self.subscribe(runtime)
                runtime.presence.tell_others(ask=True)
                runtime.timekeeper.schedule()
        self.loading.pop(table_id, None)
        return runtime

    def _load(self, s: OrmSession, table_id: str) -> TableRuntime:
        from dragonlair.games import make_game, plugin

        table = s.get(GameTable, table_id)
        if table is None:
            raise ServerError("server.table.not_found", 404, table=table_id)
        spec = ClockSpec.from_json(table.clock)
        runtime = TableRuntime(self, table_id, make_game(table.game, table.options),
                               table.created_by, spec,
                               table.takeover_bot or plugin(table.game).default_bot)
        snap = read_table(s, table_id, 0, spec.active)
        runtime.status, runtime.seats, runtime.result = snap.status, snap.seats, snap.result
        runtime.clocks = snap.clocks or {}
        runtime.presence.policy = AwayPolicy.from_json(table.away, spec,
                                                       self.settings.away_seconds)
        for seat, text in snap.actions:  # replay: the engine checks every logged action
            runtime._apply_logged(seat, text)
        return runtime

    async def resume_all(self) -> int:
        """Load every running table and play its chance and bots (after a restart). Time
        while no server ran is charged to no clock (:func:`shift_downtime`); from here on
        this process beats the heartbeat."""
        interval = self.settings.clock_heartbeat_s
        gap = await self.db(lambda s: shift_downtime(s, self.clock.now(), interval))
        if gap:
            log.info("no server for %.0f s: running clocks moved on by that", gap)
        self.beat_later()
        if self.multi:  # the running tables are shared out by their claims
            await self.claim_round()
            self.claims_later()
            return len(self.claimed)
        ids = await self.db(lambda s: list(s.scalars(
            select(GameTable.id).where(GameTable.status == "running"))))
        for table_id in ids:
            try:
                (await self.table(table_id)).driver.kick()
            except Exception:
                log.exception("table %s could not be resumed", table_id)
        return len(ids)

    async def changed(self, table_id: str) -> None:
        """The lobby changed a table (seats, start): catch up, tell its viewers, play on."""
        runtime = self.tables.get(table_id)
        if runtime is None:
            runtime = await self.table(table_id)
        else:
            async with runtime.lock:
                await runtime.sync()
                runtime.audience.broadcast()
        if runtime.status == "running" and await self.take_claim(table_id):
            async with runtime.lock:
                await runtime.timekeeper.tick()
        runtime.announce("lobby")
        runtime.driver.kick()

    def beat_later(self) -> None:
        """Beat the heartbeat every ``clock_heartbeat_s`` seconds (of :attr:`clock`)."""
        def due() -> None:
            self.heartbeat_timer = None
            if not self.closing:
                self.beat_task = asyncio.create_task(self.beat())

        self.heartbeat_timer = self.clock.call_at(
            self.clock.now() + self.settings.clock_heartbeat_s, due)

    async def beat(self) -> None:
        try:
            await self.db(lambda s: heartbeat(s, self.clock.now()))
        except Exception:
            log.exception("the heartbeat failed")
        if self.heartbeat_timer is None and not self.closing:
            self.beat_later()

    async def close(self) -> None:
        self.closing = True
        if self.heartbeat_timer is not None:
            self.heartbeat_timer.cancel()
            self.heartbeat_timer = None
        if self.claim_timer is not None:
            self.claim_timer.cancel()
            self.claim_timer = None
        if self.multi:  # the others may take these tables at once
            with contextlib.suppress(Exception):
                await self.db(lambda s: claims.release(s, self.process_id))
            self.claimed.clear()
        with contextlib.suppress(Exception):
            await self.bus.close()
        for task in list(self.background):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.db(lambda s: heartbeat(s, self.clock.now()))
        for runtime in self.tables.values():
            if runtime.timekeeper.timer is not None:
                runtime.timekeeper.timer.cancel()
            runtime.presence.cancel()
            if runtime.driver.task is not None:
                runtime.driver.task.cancel()
            if runtime.news.task is not None:
                runtime.news.task.cancel()
            for viewer in list(runtime.viewers):
                viewer.close()
        if self.group is not None:
            self.group.close()
        if self.bots is not None:
            self.bots.close()
