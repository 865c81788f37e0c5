"""Catching up with other processes (:class:`News`): a table served by many processes.

With a Redis (``Settings.redis_url``) each commit is announced on the hub's bus
(:meth:`TableRuntime.announce`); the other processes that have the table loaded hear of it
(``Hub.notice``). A notice of an ``act`` carries the new rows: a process whose log ends
where they begin applies them without reading the database (:meth:`News.apply_news`);
anything else (a takeover, the clocks, the lobby, a notice missing) makes it read the
database. Either way its viewers then get what their seats may see, and the process holding
the table's claim runs its clocks, chance and bots. The database stays the truth.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from dragonlair.core.errors import DragonlairError
from dragonlair.server.bus import TableEvent

if TYPE_CHECKING:
    from dragonlair.server.table.runtime import TableRuntime

log = logging.getLogger("dragonlair.server")


class News:
    """The notices of one table from other processes, and the catching up they ask for."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.rt = runtime
        #: a notice arrived since the last read (:meth:`refresh` reads again)
        self.stale = False
        #: the task catching up (``None``: none running)
        self.task: asyncio.Task[None] | None = None
        #: notices of new rows from other processes, not yet applied
        self.pending: list[TableEvent] = []

    def apply_news(self, news: list[TableEvent]) -> bool:
        """(Under the lock.) Apply the rows other processes announced, when they continue
        this process's log exactly; ``False``: something else changed, or a notice is
        missing or unreadable (the caller reads the database instead). Tables with clocks
        always read it (the clocks changed in the same transactions)."""
        rt = self.rt
        if not news or rt.spec.active:
            return False
        for event in sorted(news, key=lambda e: e.since or 0):
            rows, since = event.payload.get("rows"), event.since
            if event.payload.get("k") != "act" or not isinstance(rows, list) or since is None:
                return False
            if event.seq is not None and event.seq <= rt.seq:
                # had its rows already; its result too, unless a read raced the commit
                if event.seq == rt.seq and rt.status != "finished":
                    self._finish(event)
                continue
            if since != rt.seq:
                return False
            trial = rt.state.clone()
            movers: list[tuple[int, ...]] = []
            logged: list[tuple[int, str]] = []
            try:
                for seat, text in rows:
                    movers.append(tuple(trial.current_seats()))
                    trial.apply(int(seat), rt.game.parse_action(str(text)))
                    logged.append((int(seat), str(text)))
            except (DragonlairError, TypeError, ValueError):
                return False
            rt.state = trial
            rt.movers += movers
            rt.log += logged
            self._finish(event)
        return True

    def _finish(self, event: TableEvent) -> None:
        """The game ended with ``event``'s rows, if it carries a result."""
        rt, result = self.rt, event.payload.get("result")
        if isinstance(result, dict):
            was = rt.status
            rt.status, rt.result = "finished", result
            rt.ended(was)

    def refresh_soon(self) -> None:
        """News from another process: re-read the table in a task of its own, so that the
        bus's reader goes on to the next table at once; notices that arrive meanwhile are
        served by one more read (they only say *that* the table changed)."""
        self.stale = True
        if self.task is None:
            self.task = asyncio.create_task(self.refresh())

    async def refresh(self) -> None:
        """Catch up with the database and send each viewer here what its seat may see; the
        holder of the table's claim also runs its clocks, chance and bots."""
        rt = self.rt
        try:
            while self.stale:
                self.stale = False
                news, self.pending = self.pending, []
                async with rt.lock:
                    if not self.apply_news(news):
                        await rt.sync()
                    rt.audience.broadcast()
                    if rt.hub.runs(rt.id):
                        await rt.timekeeper.tick()
                rt.driver.kick()
        except asyncio.CancelledError:
            raise
        except Exception:  # the next notice (or the claim's sweep) tries again
            log.exception("table %s: catching up with another process failed", rt.id)
        finally:
            self.task = None
