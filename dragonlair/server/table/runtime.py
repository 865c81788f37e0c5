"""A running table: its state in this process, and the parts that act on it.

One :class:`TableRuntime` per table and process, its engine state rebuilt from the action
log (:mod:`~dragonlair.server.table.storage`), changed only under its asyncio lock. It holds
what every part reads (state, log, seats, status, clocks, viewers) and composes the parts,
each of one concern:

- :attr:`~TableRuntime.moves` (:class:`~dragonlair.server.table.pipeline.MovePipeline`): a
  person's move judged by the engine on a clone, then committed (``UNIQUE(table_id, seq)``
  decides between processes), acknowledged and broadcast;
- :attr:`~TableRuntime.timekeeper` (:class:`~dragonlair.server.table.timekeeper.Timekeeper`):
  which clocks run, the wake-up at the next deadline, the flag;
- :attr:`~TableRuntime.takeover` (:class:`~dragonlair.server.table.takeover.Takeover`): a
  bot takes the seat of a person who timed out, left, resigned or is away;
- :attr:`~TableRuntime.driver` (:class:`~dragonlair.server.table.botdriver.BotDriver`):
  chance outcomes and the bots' moves, committed like any action;
- :attr:`~TableRuntime.audience` (:class:`~dragonlair.server.table.viewers.Audience`): what
  each viewer is sent (its seat's view only);
- :attr:`~TableRuntime.news` (:class:`~dragonlair.server.table.news.News`): catching up with
  the commits of other processes;
- :attr:`~TableRuntime.presence` (:class:`~dragonlair.server.presence.TablePresence`): who
  of its people is connected, and the away countdowns.

A rated table is rated (:func:`dragonlair.server.ratings.rate_table`) in the transaction of
its final action.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.game import JSON, Game, State
from dragonlair.server.clocks import ClockSpec, SeatClock
from dragonlair.server.presence import TablePresence
from dragonlair.server.table.botdriver import BotDriver
from dragonlair.server.table.news import News
from dragonlair.server.table.pipeline import MovePipeline
from dragonlair.server.table.storage import SeatInfo, Snapshot, key_seq, read_table
from dragonlair.server.table.takeover import Takeover
from dragonlair.server.table.timekeeper import Timekeeper
from dragonlair.server.table.viewers import Audience, Viewer

if TYPE_CHECKING:
    from dragonlair.server.hub import Hub

#: what a read beside a sync gives (:meth:`TableRuntime.sync_with`)
R = TypeVar("R")

class TableRuntime:
    """A table's state in this process and its parts (see the module docs)."""

    def __init__(self, hub: Hub, table_id: str, game: Game, created_by: int | None,
                 spec: ClockSpec | None = None, takeover_bot: str | None = None) -> None:
        self.hub = hub
        #: the clock settings and each seat's clock (as the database holds them)
        self.spec = spec or ClockSpec()
        self.clocks: dict[int, SeatClock] = {}
        #: the bot that takes a seat whose player timed out or left
        self.takeover_bot = takeover_bot or "random"
        self.id = table_id
        self.game = game
        self.created_by = created_by
        self.state: State = game.new_initial_state()
        #: the applied actions (seat, canonical text) and who was to move before each
        self.log: list[tuple[int, str]] = []
        self.movers: list[tuple[int, ...]] = []
        self.status = "open"
        self.result: JSON | None = None
        self.seats: list[SeatInfo] = []
        self.lock = asyncio.Lock()
        #: the WebSockets on this table in this process
        self.viewers: set[Viewer] = set()
        # the parts (see the module docs)
        self.moves = MovePipeline(self)
        self.timekeeper = Timekeeper(self)
        self.takeover = Takeover(self)
        self.driver = BotDriver(self)
        self.audience = Audience(self)
        self.news = News(self)
        #: who of its people is connected, and the away countdowns (presence.py)
        self.presence = TablePresence(self)

    @property
    def seq(self) -> int:
        """How many actions the log holds: the sequence number of the next one."""
        return len(self.log)

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` holds here (``None``: a spectator)."""
        if user_id is None:
            return None
        for s in self.seats:
            if s.kind == "human" and s.user_id == user_id:
                return s.seat
        return None

    def _apply_logged(self, seat: int, text: str) -> None:
        """Apply an action read from the log (the engine checks it)."""
        self.movers.append(tuple(self.state.current_seats()))
        self.state.apply(seat, self.game.parse_action(text))
        self.log.append((seat, text))

    async def sync(self, key: tuple[int | None, str] | None = None) -> int | None:
        """Catch up with the database: status, seats and actions appended elsewhere. With
        ``key`` (user id, idempotency key), in the same trip: the seq that key produced,
        if it did."""
        user, text = key if key is not None else (None, "")

        def seq_of_key(s: OrmSession, _snap: Snapshot) -> int | None:
            return None if user is None else key_seq(s, self.id, user, text)

        return await self.sync_with(seq_of_key)

    async def sync_with(self, more: Callable[[OrmSession, Snapshot], R]) -> R:
        """Catch up with the database (:meth:`sync`), and ``more`` (given the snapshot just
        read) in the same trip: a greeting reads the table and its chat at once."""
        clocks, since = self.spec.active, self.seq

        def read(s: OrmSession) -> tuple[Snapshot, R]:
            snap = read_table(s, self.id, since, clocks)
            return snap, more(s, snap)

        snap, out = await self.hub.db(read)
        self.catch_up(snap)
        return out

    def catch_up(self, snap: Snapshot) -> None:
        """Take what the database said (a snapshot from the current ``seq`` on)."""
        was = self.status
        self.status, self.seats, self.result = snap.status, snap.seats, snap.result
        if snap.clocks is not None:
            self.clocks = snap.clocks
        for seat, text in snap.actions:
            self._apply_logged(seat, text)
        self.ended(was)

    def current(self, snap: Snapshot) -> bool:
        """Whether ``snap`` (read from the current ``seq`` on) says what this process holds
        already: no new action, the same status, seats and clocks."""
        return (not snap.actions and snap.status == self.status and snap.seats == self.seats
                and (snap.clocks is None or snap.clocks == self.clocks))

    def ended(self, was: str) -> None:
        """Call the hub's ``finish_hooks`` if the game has just ended here (status ``was``
        before the change): the spectators' chat goes to the players (chat.reveal)."""
        if was != "finished" and self.status == "finished":
            for hook in list(self.hub.finish_hooks):
                hook(self)

    def fresh_enough(self, seat: int, seen: int) -> bool:
        """Whether an action of ``seat`` sent having seen ``seen`` actions may be applied: it
        saw the newest one, or everything after it is other seats' sealed moves of the same
        simultaneous step (a sealed bid is accepted in any order)."""
        if seen == self.seq:
            return True
        if not 0 <= seen < self.seq:
            return False
        movers = self.movers[seen]
        if seat not in movers or len(movers) < 2:
            return False
        return all(s != seat and s in movers for s, _ in self.log[seen:])

    def table_json(self) -> JSON:
        """The table as the ``table`` of a ``welcome``."""
        return {"id": self.id, "game": self.game.info.id, "status": self.status,
                "seats": [s.to_json() for s in self.seats], "result": self.result}

    def announce(self, kind: str, since: int | None = None, seq: int | None = None,
                 **extra: JSON) -> None:
        """Tell the other processes (through the hub's bus) that this table changed:
        ``act`` (the log grew from ``since`` to ``seq``), ``takeover``, ``clock``, ``lobby``
        or ``chat``. They catch up from the database; nothing is sent with one process."""
        self.hub.announce(self.id, {"k": kind, **extra}, since, seq)
