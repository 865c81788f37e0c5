"""Group commit: one database thread that runs the work of many tables in one transaction.

With ``synchronous=FULL`` every SQLite commit waits for the disk (an ``fsync`` of the WAL):
a few milliseconds on a busy disk, and one writer at a time, so one commit per action caps a
server at a few hundred actions per second however fast the rest is. Here the work queued
while the disk was busy runs as one batch: each piece of work in its own SAVEPOINT (its
``session.commit()`` releases the savepoint; an error, such as another process's row at the
same ``seq``, rolls back that piece alone and is raised to its caller), then one ``COMMIT``
(one ``fsync``) for the batch. Nobody hears of a result before that commit returns: the
rule "commit before ack" holds for every piece. docs/server.md, "Performance".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

log = logging.getLogger("dragonlair.server")

T = TypeVar("T")

#: the most pieces of work in one transaction
MAX_BATCH = 64

#: (work, its loop, its future, whether it takes the DB-API connection instead of a session)
_Job = tuple[Callable[[Any], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]", bool]


def _settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if fut.done():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


class GroupCommit:
    """The database thread (see the module docs). :meth:`run` from the event loop."""

    def __init__(self, sessions: sessionmaker[OrmSession]) -> None:
        engine = sessions.kw.get("bind")
        assert isinstance(engine, Engine)
        self.engine = engine
        self.sessions = sessions
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.closed = False
        self.thread = threading.Thread(target=self.loop, name="dragonlair-db", daemon=True)
        self.thread.start()
        #: batches run and pieces of work in them (for the benchmark's report)
        self.batches = 0
        self.pieces = 0

    async def run(self, work: Callable[[OrmSession], T]) -> T:
        return await self._run(work, False)

    async def run_raw(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """:meth:`run` for work that takes pysqlite's connection itself, in the batch's
        transaction, in a savepoint of its own (no ORM session: the per-action path,
        :func:`dragonlair.server.hotpath.act_sqlite`). It must not commit."""
        return await self._run(work, True)

    async def _run(self, work: Callable[[Any], T], raw: bool) -> T:
        if self.closed:
            raise RuntimeError("the database thread has stopped")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self.jobs.put((work, loop, fut, raw))
        return await fut

    def close(self) -> None:
        """Stop after the work queued so far (later work is refused)."""
        self.closed = True
        self.jobs.put(None)

    def loop(self) -> None:
        while True:
            first = self.jobs.get()
            if first is None:
                self.refuse_rest()
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self.jobs.put(None)  # finish this batch, then stop
                    break
                batch.append(job)
            self.run_batch(batch)

    def refuse_rest(self) -> None:
        """After :meth:`close`: whatever slipped in is refused, not left waiting."""
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                return
            if job is not None:
                with contextlib.suppress(RuntimeError):
                    job[1].call_soon_threadsafe(
                        _settle, job[2], False, RuntimeError("the database thread has stopped"))

    def run_batch(self, batch: list[_Job]) -> None:
        outcomes: list[tuple[bool, Any]] = []
        try:
            with self.engine.connect() as conn:
                conn.begin()
                # pysqlite would begin by itself, deferred, and not around a SAVEPOINT: here
                # the transaction is ours, and takes the write lock at once (a deferred one
                # that read first could not write after another process had)
                raw: Any = conn.connection.dbapi_connection
                level = raw.isolation_level
                raw.isolation_level = None
                try:
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                    self.pieces_of(conn, batch, outcomes)
                    conn.commit()
                finally:
                    if raw.in_transaction:
                        raw.rollback()
                    raw.isolation_level = level
        except Exception as exc:  # the commit itself failed: nothing of the batch holds
            log.warning("a group commit of %d failed: %r", len(batch), exc)
            outcomes = [(False, exc)] * len(batch)
        self.batches += 1
        self.pieces += len(batch)
        for (_, loop, fut, _), (ok, value) in zip(batch, outcomes, strict=True):
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(_settle, fut, ok, value)

    def pieces_of(self, conn: Any, batch: list[_Job],
                  outcomes: list[tuple[bool, Any]]) -> None:
        raw: sqlite3.Connection = conn.connection.dbapi_connection
        for work, _, _, bare in batch:
            if bare:  # pysqlite's connection, in a savepoint (no session: cheaper)
                raw.execute("SAVEPOINT piece")
                try:
                    value = work(raw)
                except Exception as exc:  # that piece is rolled back, the rest goes on
                    raw.execute("ROLLBACK TO piece")
                    raw.execute("RELEASE piece")
                    outcomes.append((False, exc))
                else:
                    raw.execute("RELEASE piece")
                    outcomes.append((True, value))
                continue
            try:
                with self.sessions(bind=conn, join_transaction_mode="create_savepoint") as s:
                    outcomes.append((True, work(s)))
            except Exception as exc:  # that piece is rolled back, the rest goes on
                outcomes.append((False, exc))
