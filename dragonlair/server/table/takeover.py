"""Takeover: a bot takes the seat of a person who timed out, left, resigned or is away.

The table's takeover bot (``tables.takeover_bot``: the game's default unless chosen) takes
the seat from the person, who is ranked last if the table is rated; the change is a
``seat_changes`` row at the current ``seq`` (the record names the person, with the
takeover), written only while the seat is still that person's (another process may have
taken it first). Every viewer is told (``takeover``), and so are the other processes.
Who decides: :mod:`~dragonlair.server.table.timekeeper` (``timeout``), the lobby's
``leave`` and ``resign`` and the WebSocket ``resign`` (``left``, ``resigned``), and
:mod:`dragonlair.server.presence` (``away``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from dragonlair.core.game import JSON
from dragonlair.server.clocks import SeatClock
from dragonlair.server.errors import ServerError
from dragonlair.server.table.storage import SeatInfo, take_seat

if TYPE_CHECKING:
    from dragonlair.server.table.runtime import TableRuntime
    from dragonlair.server.table.viewers import Viewer

log = logging.getLogger("dragonlair.server")


class Takeover:
    """The takeover policy of one table (see the module docs)."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.rt = runtime

    async def take_over(self, seat: int, reason: str) -> bool:
        """(Under the lock.) The table's takeover bot takes ``seat`` from its player, who is
        ranked last if the table is rated; logged as a ``seat_changes`` row at the current
        ``seq``. ``False`` if the seat is no person's (any more)."""
        rt = self.rt
        info = rt.seats[seat]
        if info.kind != "human" or info.user_id is None:
            return False
        bot, seq, at, user_id = rt.takeover_bot, rt.seq, rt.hub.clock.now(), info.user_id
        clock = rt.clocks.get(seat)
        if clock is not None and clock.running:
            left = max(0.0, clock.remaining(at))
            clock = SeatClock(seat, left, None)

        if not await rt.hub.db(lambda s: take_seat(s, rt.id, seat, user_id, bot, seq, reason,
                                                   at, clock)):
            await rt.sync()
            return False
        log.info("table %s: bot %s takes p%d (%s)", rt.id, bot, seat, reason)
        rt.seats[seat] = SeatInfo(seat, "bot", user_id, bot, info.name)
        rt.driver.drop(seat)
        if clock is not None:
            rt.clocks[seat] = clock
        note: JSON = {"type": "takeover", "seat": seat, "bot": bot, "reason": reason,
                      "seq": seq}
        rt.audience.tell(note)
        rt.audience.broadcast()
        rt.announce("takeover", note=note)
        return True

    async def resign(self, viewer: Viewer, re: str | None = None) -> None:
        """The WebSocket ``resign``: answers ``resigned`` (after the ``takeover`` every
        viewer gets) or an ``error``."""
        if viewer.user_id is None:
            err = ServerError("server.act.not_seated").to_json()
            viewer.push({"type": "error", **err, **({"re": re} if re is not None else {})})
            return
        try:
            seat = await self.leave(viewer.user_id, "resigned")
        except ServerError as exc:
            viewer.push({"type": "error", **exc.to_json(),
                         **({"re": re} if re is not None else {})})
            return
        viewer.push({"type": "resigned", "seat": seat, **({"re": re} if re is not None else {})})

    async def leave(self, user_id: int, reason: str) -> int:
        """A person leaves (or resigns) a running game: a bot takes their seat."""
        rt = self.rt
        async with rt.lock:
            await rt.sync()
            if rt.status != "running":
                raise ServerError("server.table.not_running", 409, status=rt.status)
            seat = rt.seat_of(user_id)
            if seat is None or not await self.take_over(seat, reason):
                raise ServerError("server.table.not_seated", 409)
            await rt.timekeeper.tick()
        rt.driver.kick()
        return seat
