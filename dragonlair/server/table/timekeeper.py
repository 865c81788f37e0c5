"""A table's time (:class:`Timekeeper`): which clocks run, when to wake, who is out of time.

The clocks' arithmetic is :mod:`dragonlair.server.clocks`'s; here they follow the table.
Clocks change in the transaction of the action that changes whose move it is
(:meth:`MovePipeline.commit <dragonlair.server.table.pipeline.MovePipeline.commit>` asks
:meth:`Timekeeper.to_run`); a wake-up of the hub's :class:`~dragonlair.server.clocks.Clock`
checks them at the next deadline, and a seat whose time ran out is taken over by the
table's takeover bot (:mod:`dragonlair.server.table.takeover`, reason ``timeout``). Only the
process that runs the table (``Hub.runs``: alone, or holding its claim) sets wake-ups.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from dragonlair.core.game import JSON, State
from dragonlair.server.clocks import Timer, clock_json, plan
from dragonlair.server.table.storage import save_clocks

if TYPE_CHECKING:
    from dragonlair.server.table.runtime import TableRuntime

log = logging.getLogger("dragonlair.server")


class Timekeeper:
    """The clocks of one table (see the module docs); the clocks themselves are the
    runtime's (:attr:`TableRuntime.clocks`, as the database holds them)."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.rt = runtime
        #: the wake-up set for the next deadline, and the check it started
        self.timer: Timer | None = None
        self.task: asyncio.Task[None] | None = None

    def clock_json(self) -> JSON:
        """The clocks as the ``clock`` of a ``welcome`` or an ``update``."""
        rt = self.rt
        return clock_json(rt.spec, rt.clocks, len(rt.seats), rt.hub.clock.now())

    def to_run(self, state: State) -> set[int] | None:
        """The seats whose clocks run in ``state``: people's seats to move (none once the
        game is over; ``None`` while chance is to move: every clock stays as it is)."""
        rt = self.rt
        if state.is_terminal() or rt.status != "running":
            return set()
        if state.is_chance():
            return None
        return {s for s in state.current_seats()
                if s < len(rt.seats) and rt.seats[s].kind == "human"}

    def flagged(self, seat: int) -> bool:
        """Whether ``seat``'s time has run out (a running clock at or below zero)."""
        rt = self.rt
        clock = rt.clocks.get(seat) if rt.spec.active else None
        return (clock is not None and clock.running
                and clock.remaining(rt.hub.clock.now()) <= 0)

    def schedule(self) -> None:
        """Set the wake-up for the next deadline (at once when the clocks must catch up with
        whose move it is); none without a clock or a running game. (The away countdowns
        follow too: presence.py.)"""
        rt = self.rt
        rt.presence.refresh()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not rt.spec.active or rt.status != "running" or rt.state.is_terminal() \
                or not rt.hub.runs(rt.id):
            return
        want = self.to_run(rt.state)
        if want is not None and any(
                (seat in want) != (rt.clocks.get(seat) is not None
                                   and rt.clocks[seat].running)
                for seat in range(len(rt.seats))):
            when = rt.hub.clock.now()
        else:
            deadlines = [d for c in rt.clocks.values()
                         if (d := c.deadline()) is not None]
            if not deadlines:
                return
            when = min(deadlines)
        self.timer = rt.hub.clock.call_at(when, self.wake)

    def wake(self) -> None:
        """The deadline came: :meth:`check_time` in a task (one at a time)."""
        self.timer = None
        if self.task is None:
            self.task = asyncio.create_task(self.check_time())

    async def check_time(self) -> None:
        """A wake-up: take over the seats out of time, bring the clocks up to date."""
        rt = self.rt
        try:
            async with rt.lock:
                await rt.sync()
                await self.tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: checking the clocks failed", rt.id)
        finally:
            self.task = None
        rt.driver.kick()

    async def tick(self) -> None:
        """(Under the lock, synced.) Seats out of time are taken over; the clocks follow
        whose move it is; the next wake-up is set."""
        rt = self.rt
        if rt.spec.active and rt.status == "running" and not rt.state.is_terminal():
            at = rt.hub.clock.now()
            for seat in sorted(rt.clocks):
                if self.flagged(seat) and rt.seats[seat].kind == "human":
                    await rt.takeover.take_over(seat, "timeout")
            changes = plan(rt.spec, rt.clocks, self.to_run(rt.state), len(rt.seats),
                           at)
            if changes:
                try:
                    await rt.hub.db(lambda s: save_clocks(s, rt.id, changes))
                except IntegrityError:  # another process wrote them first
                    await rt.sync()
                else:
                    if rt.hub.pusher is not None:  # Web Push to whose turn began
                        rt.hub.pusher.turns_begin(rt, changes)
                    rt.clocks.update(changes)
                    rt.audience.broadcast()
                    rt.announce("clock")
        self.schedule()
