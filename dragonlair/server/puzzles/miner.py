"""The puzzle miner (docs/puzzles.md, "On the server"): one background task per server
process turns the server's finished tables into puzzles.

Progress is one ``server_state`` row, ``puzzles.mined_until``: the ``finished_at`` up to
which every finished table has been mined. A round reads it, takes the next few finished
tables after it (whole groups of equal ``finished_at``; only tables finished a little while
ago, so that a transaction finishing a table cannot commit behind the marker), and moves the
marker past them with a compare-and-set (``UPDATE ... WHERE value = <what it read>``): the
process whose update changed the row mines that batch, any other finds the marker moved and
tries again later. So with many processes each table is mined once; a process that dies
while mining loses its batch's puzzles (they are not retried). Puzzles are inserted with
"on conflict do nothing": the same position from two games is one puzzle.

CPU: one table at a time, in a thread of its own (the analysers are pure Python), then a
pause of ``(1 - share) / share`` times the CPU time it took (``puzzle_miner_share``, a
quarter by default), so mining takes at most about that share of one core; a table whose
record has more than ``puzzle_miner_max_actions`` actions is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.db import GameTable, ServerState
from dragonlair.server.puzzles import service

if TYPE_CHECKING:
    from dragonlair.puzzles.model import Puzzle as PuzzleData
    from dragonlair.server.hub import Hub

log = logging.getLogger("dragonlair.server")

#: the ``server_state`` key of the miner's progress
KEY = "puzzles.mined_until"
#: tables finished less than this many seconds ago wait for the next round
SETTLE_S = 10.0


def marker(s: OrmSession) -> float:
    row = s.get(ServerState, KEY)
    if row is None:
        s.add(ServerState(key=KEY, value=0.0))
        try:
            s.commit()
        except IntegrityError:
            s.rollback()
        return 0.0
    return float(row.value)


def claim_batch(s: OrmSession, at: float, batch: int) -> list[str]:
    """The ids of the next finished tables to mine, claimed for this process (the marker
    moved past them); ``[]``: nothing to do, or another process took them first."""
    since = marker(s)
    rows = s.execute(select(GameTable.id, GameTable.finished_at)
                     .where(GameTable.status == "finished",
                            GameTable.finished_at.is_not(None),
                            GameTable.finished_at > since,
                            GameTable.finished_at <= at - SETTLE_S)
                     .order_by(GameTable.finished_at, GameTable.id).limit(batch + 1)).all()
    if not rows:
        return []
    if len(rows) > batch:  # only whole groups of one finished_at
        last = rows[batch][1]
        rows = [r for r in rows if r[1] != last]
        if not rows:  # one group bigger than a batch: all of it
            rows = list(s.execute(select(GameTable.id, GameTable.finished_at)
                                  .where(GameTable.status == "finished",
                                         GameTable.finished_at == last)
                                  .order_by(GameTable.id)).all())
    until = max(float(r[1] or 0.0) for r in rows)
    moved = s.execute(update(ServerState).where(ServerState.key == KEY,
                                                ServerState.value == since)
                      .values(value=until))
    s.commit()
    if getattr(moved, "rowcount", 0) != 1:
        return []
    return [str(r[0]) for r in rows]


def record_of(s: OrmSession, table_id: str) -> Any:
    from dragonlair.core.records import Record
    from dragonlair.server.lobby_service import record

    return Record.from_json(record(s, table_id))


def mine(rec: Any, max_actions: int) -> list[PuzzleData]:
    """The puzzles of one record (P1's :func:`dragonlair.puzzles.mine.mine_record`); none for
    a game without puzzle rules, a record too long, or one that does not replay."""
    from dragonlair.core.errors import DragonlairError
    from dragonlair.puzzles.mine import NoPuzzles, mine_record

    if len(rec.actions) > max_actions:
        return []
    try:
        return mine_record(rec)
    except NoPuzzles:
        return []
    except DragonlairError as exc:
        log.warning("puzzle miner: a record did not replay: %s", exc)
        return []


def mine_tables(s: OrmSession, table_ids: list[str], max_actions: int) -> int:
    """Mine ``table_ids`` here and now (synchronously: tests, and the task's thread); the
    number of new puzzles."""
    added = 0
    for tid in table_ids:
        rec = record_of(s, tid)
        found = mine(rec, max_actions)
        added += service.store(s, found, table_id=tid)
        s.commit()
    return added


def run_once(s: OrmSession, at: float, batch: int, max_actions: int) -> int:
    """One round: claim a batch and mine it; the number of new puzzles."""
    return mine_tables(s, claim_batch(s, at, batch), max_actions)


class Miner:
    """The background task (see the module docs)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.stopped = False
        #: the shipped puzzles are in (or were found there already)
        self.loaded = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.loop())

    async def loop(self) -> None:
        settings = self.hub.settings
        if settings.puzzle_shipped:
            with contextlib.suppress(Exception):
                added = await self.hub.db(service.load_shipped)
                if added:
                    log.info("%d shipped puzzle(s) loaded", added)
        self.loaded = True
        if not settings.puzzle_miner:
            return
        while not self.stopped and not self.hub.closing:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the puzzle miner's round failed")
            await asyncio.sleep(settings.puzzle_miner_every_s)

    async def round(self) -> None:
        settings = self.hub.settings
        at = time.time()
        ids = await self.hub.db(lambda s: claim_batch(s, at, settings.puzzle_miner_batch))
        share = min(1.0, max(0.01, settings.puzzle_miner_share))
        for tid in ids:
            if self.stopped:
                return
            rec = await self.hub.db(functools.partial(record_of, table_id=tid))
            found = await asyncio.to_thread(self._mine, rec)
            spent = found[1]
            added = await self.hub.db(functools.partial(self._store, puzzles=found[0], tid=tid))
            if added:
                log.info("puzzle miner: table %s gave %d new puzzle(s)", tid, added)
            await asyncio.sleep(spent * (1.0 - share) / share)

    def _mine(self, rec: Any) -> tuple[list[PuzzleData], float]:
        start = time.thread_time()
        out = mine(rec, self.hub.settings.puzzle_miner_max_actions)
        return out, time.thread_time() - start

    @staticmethod
    def _store(s: OrmSession, puzzles: list[PuzzleData], tid: str) -> int:
        added = service.store(s, puzzles, table_id=tid)
        s.commit()
        return added

    async def stop(self) -> None:
        self.stopped = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
            self.task = None
