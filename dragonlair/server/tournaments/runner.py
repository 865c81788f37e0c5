"""The runner (docs/tournaments.md, "Runner"): one background task per server process.

Every :data:`TICK_S` seconds it renews its claims on tournaments and takes free or expired
ones (a row's ``owner`` and ``expires_at``: one process runs a tournament; a process that
dies passes its tournaments to the others once the lease runs out), then steps each one it
holds (:func:`~dragonlair.server.tournaments.service.step`): start when due, withdraw the
absent, pair, advance a Swiss round, end. The tables it starts are loaded here at once
(:meth:`Hub.changed <dragonlair.server.hub.Hub.changed>`: bots play, clocks run). Everything
it knows is in the database, so a restart resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.tournaments import service

if TYPE_CHECKING:
    from dragonlair.server.hub import Hub

log = logging.getLogger("dragonlair.server")

#: seconds between two rounds of the runner (tests may shorten it)
TICK_S = 1.0


class Runner:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.held: list[str] = []
        self.stopped = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.loop())

    async def loop(self) -> None:
        while not self.stopped and not self.hub.closing:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the tournament runner's round failed")
            await asyncio.sleep(TICK_S)

    def present(self) -> set[int]:
        """The people with a socket open on a running or finished table loaded here: at a
        game, or on the end screen of one (the tournament's page marks the rest present as
        it polls, :func:`~dragonlair.server.tournaments.service.show`)."""
        out: set[int] = set()
        for runtime in list(self.hub.tables.values()):
            if runtime.status in ("running", "finished"):
                presence = runtime.presence
                out.update(u for u, n in presence.here.items() if n > 0)
                for users in presence.elsewhere.values():
                    out.update(users)
        return out

    async def tick(self) -> None:
        hub = self.hub
        owner = hub.process_id
        wall = time.time()
        ttl = hub.settings.claim_ttl_s  # renewed (and new tournaments taken) every round
        self.held = await hub.db(lambda s: service.sweep_claims(s, owner, wall, ttl))
        if not self.held:
            return
        present = self.present()
        for tid in list(self.held):
            started = await hub.db(self.stepper(tid, owner, hub.clock.now(), present))
            for table_id in started:
                try:
                    await hub.changed(table_id)
                except Exception:
                    log.exception("tournament %s: table %s could not be started", tid,
                                  table_id)

    def stepper(self, tid: str, owner: str, at: float,
                present: set[int]) -> Callable[[OrmSession], list[str]]:
        settings = self.hub.settings
        return lambda s: service.step(s, tid, owner, at, present, settings)

    async def stop(self) -> None:
        self.stopped = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
            self.task = None
        with contextlib.suppress(Exception):
            owner = self.hub.process_id
            await self.hub.db(lambda s: service.release_claims(s, owner))
