"""Running tables: each table's state in memory, loaded from its action log, and its viewers.

One :class:`TableRuntime` per table and process. Every change goes the same way, under the
table's asyncio lock: catch up with the database (another process may have appended), ask
the engine (on a clone, so a refusal changes nothing), insert the action rows and commit
(``UNIQUE(table_id, seq)`` decides between processes), acknowledge the sender, then queue
for each viewer the view the engine builds for that viewer's seat. Chance outcomes are drawn
with :class:`secrets.SystemRandom` and bots think in a thread pool, on a clone, through
:func:`dragonlair.core.players.ask_bot`; both are logged and committed like any action.

Clocks (:mod:`dragonlair.server.clocks`) change in the transaction of the action that
changes whose move it is, and a wake-up of the hub's :class:`~dragonlair.server.clocks.Clock`
checks them at the next deadline; a seat whose time ran out, or whose player left, is taken
over by the table's takeover bot (a ``seat_changes`` row). A rated table is rated
(:func:`dragonlair.server.ratings.rate_table`) in the transaction of its final action.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import WebSocket
from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from dragonlair.core import viewdelta
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import CHANCE, JSON, Action, Game, State
from dragonlair.core.players import Bot, ask_bot
from dragonlair.server import claims, hotpath
from dragonlair.server.bus import Bus, LocalBus, Subscription, TableEvent
from dragonlair.server.clocks import (
    Clock,
    ClockSpec,
    SeatClock,
    SystemClock,
    Timer,
    clock_json,
    plan,
)
from dragonlair.server.db import (
    ActionRow,
    GameTable,
    Seat,
    SeatChange,
    SeatClockRow,
    ServerState,
    now,
)
from dragonlair.server.dbthread import GroupCommit
from dragonlair.server.errors import ServerError
from dragonlair.server.presence import AwayPolicy, TablePresence, welcome_part
from dragonlair.server.ratings import rate_table
from dragonlair.server.settings import Settings

if TYPE_CHECKING:
    from dragonlair.server.push import Pusher

log = logging.getLogger("dragonlair.server")

#: the version of the WebSocket protocol (docs/protocol.md)
PROTOCOL = 1

T = TypeVar("T")


def entry(seat: int, text: str) -> str:
    """A record entry from a logged action (as :func:`dragonlair.core.records.entry_text`)."""
    return f"{'chance' if seat == CHANCE else f'p{seat}'}: {text}"


@dataclass(slots=True)
class SeatInfo:
    seat: int
    kind: str  # open, human, bot
    user_id: int | None
    bot: str | None
    name: str | None

    def to_json(self) -> JSON:
        return {"seat": self.seat, "kind": self.kind, "user_id": self.user_id,
                "bot": self.bot, "name": self.name}


class Viewer:
    """One WebSocket on a table: its user (``None``: anonymous spectator), what it has been
    sent, and a bounded queue that a writer task drains (a slow viewer never holds a table's
    lock; one that falls too far behind is disconnected and resumes)."""

    def __init__(self, ws: WebSocket, user_id: int | None, max_queued: int) -> None:
        self.ws = ws
        self.user_id = user_id
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(max_queued)
        #: the next event sequence number this viewer needs, and the seat it was counted for
        self.events_seen = 0
        self.seat_seen: int | None = None
        self.greeted = False
        self.closed = False
        #: the text of the last message queued
        self.last = ""
        #: the protocol features this connection asked for in ``hello`` (``delta``)
        self.features: frozenset[str] = frozenset()
        #: with ``delta``: the view it holds (the last sent), which the next delta changes,
        #: and the table status it was last sent
        self.view_sent: JSON | None = None
        self.status_sent: str | None = None

    def push(self, message: JSON | str) -> None:
        """Queue a message (a dict, or its JSON text already encoded)."""
        if self.closed:
            return
        text = message if isinstance(message, str) else json.dumps(message,
                                                                   separators=(",", ":"))
        self.last = text
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    async def write(self) -> None:
        """Send what is queued until closed; then close the socket (1013: try again)."""
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1013)
                return
            await self.ws.send_text(text)


class StaleTable(Exception):
    """The table changed in another process in a way the write's guard saw (a seat taken
    over, the game over): nothing was written; read the database and judge again."""


@dataclass(frozen=True, slots=True)
class Row:
    """An action to log: seat, canonical text, who sent it, who was to move before it."""

    seat: int
    text: str
    user_id: int | None
    movers: tuple[int, ...]


@dataclass(slots=True)
class Snapshot:
    """What the database holds of a table (read in a worker thread)."""

    status: str
    seats: list[SeatInfo]
    actions: list[tuple[int, str]]  # (seat, text) from the requested seq on
    result: JSON | None
    #: the seats' clocks (``None``: not read, the table has no clock)
    clocks: dict[int, SeatClock] | None = None


class TableRuntime:
    """A table's state in this process (see the module docs)."""

    def __init__(self, hub: Hub, table_id: str, game: Game, created_by: int | None,
                 spec: ClockSpec | None = None, takeover_bot: str | None = None) -> None:
        self.hub = hub
        #: the clock settings and each seat's clock (as the database holds them)
        self.spec = spec or ClockSpec()
        self.clocks: dict[int, SeatClock] = {}
        self.timer: Timer | None = None
        self.clock_task: asyncio.Task[None] | None = None
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
        self.bots: dict[int, Bot] = {}
        self.lock = asyncio.Lock()
        self.viewers: set[Viewer] = set()
        self.task: asyncio.Task[None] | None = None
        #: many processes: news from another process waits to be read (:meth:`refresh_soon`)
        self.stale = False
        self.refresh_task: asyncio.Task[None] | None = None
        #: notices of new rows from other processes, not yet applied
        self.news: list[TableEvent] = []
        #: who of its people is connected, and the away countdowns (presence.py)
        self.presence = TablePresence(self)

    # ------------------------------------------------------------------ state
    @property
    def seq(self) -> int:
        """How many actions the log holds: the sequence number of the next one."""
        return len(self.log)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for s in self.seats:
            if s.kind == "human" and s.user_id == user_id:
                return s.seat
        return None

    def _apply_logged(self, seat: int, text: str) -> None:
        self.movers.append(tuple(self.state.current_seats()))
        self.state.apply(seat, self.game.parse_action(text))
        self.log.append((seat, text))

    async def sync(self, key: tuple[int | None, str] | None = None) -> int | None:
        """Catch up with the database: status, seats and actions appended elsewhere. With
        ``key`` (user id, idempotency key), in the same trip: the seq that key produced,
        if it did."""
        clocks, since = self.spec.active, self.seq

        def read(s: OrmSession) -> tuple[Snapshot, int | None]:
            snap = read_table(s, self.id, since, clocks)
            if key is None or key[0] is None:
                return snap, None
            return snap, key_seq(s, self.id, key[0], key[1])

        snap, done = await self.hub.db(read)
        was = self.status
        self.status, self.seats, self.result = snap.status, snap.seats, snap.result
        if snap.clocks is not None:
            self.clocks = snap.clocks
        for seat, text in snap.actions:
            self._apply_logged(seat, text)
        self.ended(was)
        return done

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
        return {"id": self.id, "game": self.game.info.id, "status": self.status,
                "seats": [s.to_json() for s in self.seats], "result": self.result}

    # ---------------------------------------------------------------- viewers
    def view_for(self, viewer: Viewer, since: int | None = None) -> JSON:
        """The engine's view for ``viewer``'s seat with the events it has not been sent (all
        of them after a change of seat; the whole view where a game has no event count)."""
        seat = self.seat_of(viewer.user_id)
        if since is None:
            since = viewer.events_seen if seat == viewer.seat_seen else 0
        view = self.state.view(seat, since=since)
        total = view.get("events_total") if isinstance(view, dict) else None
        if isinstance(total, int):
            viewer.events_seen = total
        else:
            view = self.state.view(seat)
        viewer.seat_seen = seat
        return view

    def update(self, viewer: Viewer, since: int | None = None, re: str | None = None) -> None:
        """The ``update`` for ``viewer``: its seat's view with the events it has not been
        sent; to a viewer with the ``delta`` feature, what changed since the view it holds
        (``delta``), unless it asked for the whole view (``resume``: ``since``) or its seat
        changed (docs/protocol.md, "Deltas")."""
        seat = self.seat_of(viewer.user_id)
        held = viewer.view_sent if seat == viewer.seat_seen and since is None else None
        view = self.view_for(viewer, since)
        message: JSON = {"type": "update", "seq": self.seq, "status": self.status,
                         "seat": seat}
        if viewdelta.FEATURE in viewer.features:
            viewer.view_sent = view
            if isinstance(held, dict) and isinstance(view, dict):
                # the seat is the one of the view held; the status is sent when it changed
                del message["seat"]
                if self.status == viewer.status_sent:
                    del message["status"]
                message["delta"] = viewdelta.diff(viewdelta.rebased(held), view)
            else:
                message["view"] = view
            viewer.status_sent = self.status
        else:
            message["view"] = view
        if self.spec.active:
            message["clock"] = self.clock_json()
        if re is not None:
            message["re"] = re
        viewer.push(message)

    def broadcast(self) -> None:
        # viewers of the same seat that have been sent the same events get the same update:
        # the engine builds it and JSON encodes it once (spectators, most of all)
        # (with deltas: the same view held before, too: by identity, the views held are kept
        # alive in ``held_views`` until the loop ends so that no id is reused meanwhile)
        sent: dict[tuple[int | None, int, int], tuple[str, int, JSON | None]] = {}
        held_views = [v.view_sent for v in self.viewers]
        for viewer in list(self.viewers):
            if not viewer.greeted or viewer.closed:
                continue
            seat = self.seat_of(viewer.user_id)
            same_seat = seat == viewer.seat_seen
            held = (id(viewer.view_sent) if same_seat and viewer.view_sent is not None else 0) \
                if viewdelta.FEATURE in viewer.features else -1
            key = (seat, viewer.events_seen if same_seat else 0, held)
            done = sent.get(key)
            if done is None:
                self.update(viewer)
                sent[key] = (viewer.last, viewer.events_seen, viewer.view_sent)
            else:
                viewer.push(done[0])
                viewer.events_seen, viewer.seat_seen = done[1], seat
                if held != -1:
                    viewer.view_sent, viewer.status_sent = done[2], self.status
        del held_views

    def tell(self, message: JSON) -> None:
        """Send ``message`` (the same for everybody) to every greeted viewer here."""
        for viewer in list(self.viewers):
            if viewer.greeted:
                viewer.push(message)

    def announce(self, kind: str, since: int | None = None, seq: int | None = None,
                 **extra: JSON) -> None:
        """Tell the other processes (through the hub's bus) that this table changed:
        ``act`` (the log grew from ``since`` to ``seq``), ``takeover``, ``clock``, ``lobby``
        or ``chat``. They catch up from the database; nothing is sent with one process."""
        self.hub.announce(self.id, {"k": kind, **extra}, since, seq)

    def apply_news(self, news: list[TableEvent]) -> bool:
        """(Under the lock.) Apply the rows other processes announced, when they continue
        this process's log exactly; ``False``: something else changed, or a notice is
        missing or unreadable (the caller reads the database instead). Tables with clocks
        always read it (the clocks changed in the same transactions)."""
        if not news or self.spec.active:
            return False
        for event in sorted(news, key=lambda e: e.since or 0):
            rows, since = event.payload.get("rows"), event.since
            if event.payload.get("k") != "act" or not isinstance(rows, list) or since is None:
                return False
            if event.seq is not None and event.seq <= self.seq:
                continue  # had it already
            if since != self.seq:
                return False
            trial = self.state.clone()
            movers: list[tuple[int, ...]] = []
            logged: list[tuple[int, str]] = []
            try:
                for seat, text in rows:
                    movers.append(tuple(trial.current_seats()))
                    trial.apply(int(seat), self.game.parse_action(str(text)))
                    logged.append((int(seat), str(text)))
            except (DragonlairError, TypeError, ValueError):
                return False
            self.state = trial
            self.movers += movers
            self.log += logged
            result = event.payload.get("result")
            if isinstance(result, dict):
                was = self.status
                self.status, self.result = "finished", result
                self.ended(was)
        return True

    def refresh_soon(self) -> None:
        """News from another process: re-read the table in a task of its own, so that the
        bus's reader goes on to the next table at once; notices that arrive meanwhile are
        served by one more read (they only say *that* the table changed)."""
        self.stale = True
        if self.refresh_task is None:
            self.refresh_task = asyncio.create_task(self.refresh())

    async def refresh(self) -> None:
        """Catch up with the database and send each viewer here what its seat may see; the
        holder of the table's claim also runs its clocks, chance and bots."""
        try:
            while self.stale:
                self.stale = False
                news, self.news = self.news, []
                async with self.lock:
                    if not self.apply_news(news):
                        await self.sync()
                    self.broadcast()
                    if self.hub.runs(self.id):
                        await self.tick()
                self.kick()
        except asyncio.CancelledError:
            raise
        except Exception:  # the next notice (or the claim's sweep) tries again
            log.exception("table %s: catching up with another process failed", self.id)
        finally:
            self.refresh_task = None

    def welcome(self, viewer: Viewer, re: str | None = None,
                extra: JSON | None = None) -> None:
        viewer.greeted = True
        seat = self.seat_of(viewer.user_id)
        viewer.seat_seen, viewer.events_seen = seat, 0
        view = self.view_for(viewer, 0)
        viewer.view_sent = view if viewdelta.FEATURE in viewer.features else None
        viewer.status_sent = self.status
        message: JSON = {"type": "welcome", "protocol": PROTOCOL, "table": self.table_json(),
                         "seat": seat, "seq": self.seq, "view": view}
        if viewer.features:
            message["features"] = sorted(viewer.features)
        if self.spec.active:
            message["clock"] = self.clock_json()
        message["presence"] = welcome_part(self)
        message.update(extra or {})  # e.g. the chat's recent lines (dragonlair/server/chat.py)
        if re is not None:
            message["re"] = re
        viewer.push(message)

    # ---------------------------------------------------------------- actions
    async def act(self, viewer: Viewer, text: str, seen: int, key: str,
                  re: str | None = None) -> None:
        """A person's action (see the module docs); answers ``ack`` or ``error``."""
        def refuse(err: JSON) -> None:
            viewer.push({"type": "error", **err, **({"re": re} if re is not None else {})})

        async with self.lock:
            # another process may commit between our sync and our insert: then
            # UNIQUE(table_id, seq) refuses ours, nothing was written, and the move is judged
            # again on the log as it is now, as one process judges a move that arrives after
            # another (accepted, stale, illegal, or a key already used); a few rounds at most
            for attempt in range(self.hub.settings.limits.max_commit_races):
                # many processes, a table without clocks: the log here is usually current
                # (notices carry the new rows), so the first try skips the read and lets the
                # write check what the read would have: the seq (UNIQUE), the key (UNIQUE),
                # the seat still the sender's and the table running (``guard``); any miss
                # reads the database and judges the move again
                fast = (attempt == 0 and self.hub.multi and not self.spec.active
                        and self.hub.settings.limits.max_commit_races > 1)
                done = None if fast else await self.sync((viewer.user_id, key))
                seat = self.seat_of(viewer.user_id)
                # a refusal is only given on what the database says (a fast try that would
                # refuse reads it first: the move may be a resend whose key is known there)
                if seat is None:
                    if fast:
                        continue
                    return refuse(ServerError("server.act.not_seated").to_json())
                if self.status != "running":
                    if fast:
                        continue
                    return refuse(ServerError("server.act.not_running",
                                              status=self.status).to_json())
                if self.flagged(seat):
                    await self.tick()  # the timer has not fired yet: a bot takes the seat now
                    self.kick()
                    return refuse(ServerError("server.clock.flagged", seat=seat).to_json())
                user_id = viewer.user_id
                assert user_id is not None
                if done is not None:
                    return refuse(ServerError("server.act.duplicate_key", key=key,
                                              seq=done).to_json())
                if not self.fresh_enough(seat, seen):
                    if fast:
                        continue
                    return refuse(ServerError("server.act.stale", seen=seen,
                                              seq=self.seq).to_json())
                try:
                    action = self.game.parse_action(text)
                    trial = self.state.clone()
                    before = tuple(trial.current_seats())
                    trial.apply(seat, action)
                except DragonlairError as exc:
                    if fast:
                        continue
                    return refuse(exc.to_json())
                rows = [Row(seat, str(action), user_id, before)]
                try:
                    await self.commit(trial, rows, (user_id, key),
                                      guard=(seat, user_id) if fast else None)
                except StaleTable:
                    continue
                except IntegrityError:
                    log.info("table %s: another process committed seq %d first (round %d)",
                             self.id, self.seq, attempt + 1)
                    continue
                break
            else:  # lost every round: the table is too busy; the client may send it again
                return refuse(ServerError("server.act.stale", seen=seen,
                                          seq=self.seq).to_json())
            ack: JSON = {"type": "ack", "key": key, "seq": self.seq}
            if re is not None:
                ack["re"] = re
            viewer.push(ack)
            self.broadcast()
        self.kick()
        return None

    async def commit(self, trial: State, rows: Sequence[Row],
                     key: tuple[int, str] | None = None,
                     guard: tuple[int, int] | None = None) -> None:
        """Insert ``rows`` (seat, action text, user) from the current ``seq`` on, with the
        idempotency ``key`` and, when ``trial`` is over, the result; commit; then make
        ``trial`` the state. An :class:`IntegrityError` (another process was first) leaves
        everything as it was; so does :class:`StaleTable` when ``guard`` (seat, user id)
        finds that seat no longer the user's or the table not running."""
        start = self.seq
        outcome = trial.outcome() if trial.is_terminal() else None
        result = outcome.to_json() if outcome is not None else None
        at = self.hub.clock.now()
        clocks = (plan(self.spec, self.clocks, self.to_run(trial), len(self.seats), at)
                  if self.spec.active else {})

        # PostgreSQL, a change that needs no more than its rows and key (no clock, not the
        # last move: nothing to rate): one statement, one round trip (hotpath.write_in_one)
        one = self.hub.postgresql and result is None and not clocks and bool(rows)

        def write_one(conn: Any) -> None:
            if not hotpath.write_in_one(conn, self.id, start,
                                        [(r.seat, r.text, r.user_id) for r in rows], now(),
                                        key, guard):
                raise StaleTable(self.id)

        def write(s: OrmSession) -> None:
            stamp = now()
            if guard is not None and not hotpath.still_seated(s, self.id, *guard):
                s.rollback()
                raise StaleTable(self.id)
            hotpath.insert_actions(s, self.id, start,
                                   [(r.seat, r.text, r.user_id) for r in rows], stamp)
            if key is not None:
                hotpath.insert_key(s, self.id, key[0], key[1], start + len(rows), stamp)
            write_clocks(s, self.id, clocks)
            if result is not None:
                table = s.get(GameTable, self.id)
                assert table is not None
                if table.status != "finished":  # rated once, with the final action
                    rate_table(s, table, result, at)
                table.status, table.result, table.finished_at = "finished", result, now()
            s.commit()

        if one:
            await self.hub.db_raw(write_one)
        else:
            await self.hub.db(write)
        if self.hub.pusher is not None:  # turn-based: Web Push to whose turn began
            self.hub.pusher.turns_begin(self, clocks)
        self.clocks.update(clocks)
        # the database holds them: now the memory follows
        for row in rows:
            self.movers.append(row.movers)
            self.log.append((row.seat, row.text))
        self.state = trial
        if result is not None:
            was = self.status
            self.status, self.result = "finished", result
            self.ended(was)
        self.schedule()
        # the new rows travel with the notice: a process whose log ends where they begin
        # applies them without reading the database (Hub.notice, TableRuntime.apply_news)
        news: JSON = {"rows": [[r.seat, r.text] for r in rows]}
        if result is not None:
            news["result"] = result
        self.announce("act", since=start, seq=self.seq, **news)

    # ------------------------------------------------------------ clocks, leavers
    def clock_json(self) -> JSON:
        return clock_json(self.spec, self.clocks, len(self.seats), self.hub.clock.now())

    def to_run(self, state: State) -> set[int] | None:
        """The seats whose clocks run in ``state``: people's seats to move (none once the
        game is over; ``None`` while chance is to move: every clock stays as it is)."""
        if state.is_terminal() or self.status != "running":
            return set()
        if state.is_chance():
            return None
        return {s for s in state.current_seats()
                if s < len(self.seats) and self.seats[s].kind == "human"}

    def flagged(self, seat: int) -> bool:
        """Whether ``seat``'s time has run out (a running clock at or below zero)."""
        clock = self.clocks.get(seat) if self.spec.active else None
        return (clock is not None and clock.running
                and clock.remaining(self.hub.clock.now()) <= 0)

    def schedule(self) -> None:
        """Set the wake-up for the next deadline (at once when the clocks must catch up with
        whose move it is); none without a clock or a running game. (The away countdowns
        follow too: presence.py.)"""
        self.presence.refresh()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.spec.active or self.status != "running" or self.state.is_terminal() \
                or not self.hub.runs(self.id):
            return
        want = self.to_run(self.state)
        if want is not None and any(
                (seat in want) != (self.clocks.get(seat) is not None
                                   and self.clocks[seat].running)
                for seat in range(len(self.seats))):
            when = self.hub.clock.now()
        else:
            deadlines = [d for c in self.clocks.values()
                         if (d := c.deadline()) is not None]
            if not deadlines:
                return
            when = min(deadlines)
        self.timer = self.hub.clock.call_at(when, self.wake)

    def wake(self) -> None:
        self.timer = None
        if self.clock_task is None:
            self.clock_task = asyncio.create_task(self.check_time())

    async def check_time(self) -> None:
        """A wake-up: take over the seats out of time, bring the clocks up to date."""
        try:
            async with self.lock:
                await self.sync()
                await self.tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: checking the clocks failed", self.id)
        finally:
            self.clock_task = None
        self.kick()

    async def tick(self) -> None:
        """(Under the lock, synced.) Seats out of time are taken over; the clocks follow
        whose move it is; the next wake-up is set."""
        if self.spec.active and self.status == "running" and not self.state.is_terminal():
            at = self.hub.clock.now()
            for seat in sorted(self.clocks):
                if self.flagged(seat) and self.seats[seat].kind == "human":
                    await self.take_over(seat, "timeout")
            changes = plan(self.spec, self.clocks, self.to_run(self.state), len(self.seats),
                           at)
            if changes:
                def write(s: OrmSession) -> None:
                    write_clocks(s, self.id, changes)
                    s.commit()

                try:
                    await self.hub.db(write)
                except IntegrityError:  # another process wrote them first
                    await self.sync()
                else:
                    if self.hub.pusher is not None:  # Web Push to whose turn began
                        self.hub.pusher.turns_begin(self, changes)
                    self.clocks.update(changes)
                    self.broadcast()
                    self.announce("clock")
        self.schedule()

    async def take_over(self, seat: int, reason: str) -> bool:
        """(Under the lock.) The table's takeover bot takes ``seat`` from its player, who is
        ranked last if the table is rated; logged as a ``seat_changes`` row at the current
        ``seq``. ``False`` if the seat is no person's (any more)."""
        info = self.seats[seat]
        if info.kind != "human" or info.user_id is None:
            return False
        bot, seq, at, user_id = self.takeover_bot, self.seq, self.hub.clock.now(), info.user_id
        clock = self.clocks.get(seat)
        if clock is not None and clock.running:
            left = max(0.0, clock.remaining(at))
            clock = SeatClock(seat, left, None)

        def write(s: OrmSession) -> bool:
            done = s.execute(update(Seat).where(
                Seat.table_id == self.id, Seat.seat == seat, Seat.kind == "human",
                Seat.user_id == user_id).values(kind="bot", bot=bot))
            if done.rowcount != 1:  # type: ignore[attr-defined]
                s.rollback()
                return False
            s.add(SeatChange(table_id=self.id, seat=seat, seq=seq, reason=reason,
                             user_id=user_id, bot=bot, created_at=at))
            if clock is not None:
                write_clocks(s, self.id, {seat: clock})
            s.commit()
            return True

        if not await self.hub.db(write):
            await self.sync()
            return False
        log.info("table %s: bot %s takes p%d (%s)", self.id, bot, seat, reason)
        self.seats[seat] = SeatInfo(seat, "bot", user_id, bot, info.name)
        self.bots.pop(seat, None)
        if clock is not None:
            self.clocks[seat] = clock
        note: JSON = {"type": "takeover", "seat": seat, "bot": bot, "reason": reason,
                      "seq": seq}
        self.tell(note)
        self.broadcast()
        self.announce("takeover", note=note)
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
        async with self.lock:
            await self.sync()
            if self.status != "running":
                raise ServerError("server.table.not_running", 409, status=self.status)
            seat = self.seat_of(user_id)
            if seat is None or not await self.take_over(seat, reason):
                raise ServerError("server.table.not_seated", 409)
            await self.tick()
        self.kick()
        return seat

    # ------------------------------------------------------- chance and bots
    def kick(self) -> None:
        """Make sure chance and bots are being played (one task per table; none while only
        people may move, as :meth:`advance` would find at once)."""
        if self.task is None and not self.waits_for_people():
            self.task = asyncio.create_task(self.advance())

    def waits_for_people(self) -> bool:
        """Whether, on this process's log, only people may move (or nobody: the game is
        over, or this process no longer runs the table): no chance, no bot to play."""
        if self.status != "running" or self.state.is_terminal() or not self.hub.runs(self.id):
            return True
        if self.state.is_chance():
            return False
        return not any(self.seats[s].kind == "bot" for s in self.state.current_seats()
                       if s < len(self.seats))

    async def advance(self) -> None:
        """Draw chance outcomes and play bot seats until a person must act or the game ends."""
        # what this process knows is current as of the change that kicked it (its own
        # commit, or news it applied): a later change elsewhere is news that kicks again
        # (Hub.notice -> refresh), and a draw on a log that another process has extended
        # meanwhile fails on UNIQUE(table_id, seq), after which the database is read. So
        # the database is read only then, or where clocks are involved (their state is in
        # the database): no read per action (docs/server.md, "Performance")
        trusted = not self.spec.active
        try:
            for _ in range(self.hub.settings.limits.max_auto_actions):
                async with self.lock:
                    if self.waits_for_people():  # nothing to play on what we know
                        self.task = None
                        return
                    if not trusted:
                        await self.sync()
                    trusted = False
                    if self.status != "running" or self.state.is_terminal() \
                            or not self.hub.runs(self.id):  # the claim passed on meanwhile
                        self.task = None
                        return
                    if self.state.is_chance():
                        trusted = await self.draw_chance() and not self.spec.active
                        continue
                    bot_seats = [s for s in self.state.current_seats()
                                 if self.seats[s].kind == "bot"]
                    if not bot_seats:
                        self.task = None
                        return
                    base = self.seq
                    jobs = [(s, self.bot(s), self.state.clone()) for s in bot_seats]
                choices = await asyncio.gather(*(self.hub.think(bot, state, seat)
                                                 for seat, bot, state in jobs))
                async with self.lock:
                    await self.sync()
                    await self.apply_bot_moves(base, list(zip(bot_seats, choices, strict=True)))
                await asyncio.sleep(0)
            log.warning("table %s: stopped after %d automatic actions", self.id,
                        self.hub.settings.limits.max_auto_actions)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug: log it, and let the next action try again
            log.exception("table %s: playing chance and bots failed", self.id)
        self.task = None

    async def draw_chance(self) -> bool:
        """Draw every chance outcome due now (one transaction), then broadcast. ``False``:
        another process had extended the log (nothing written)."""
        trial = self.state.clone()
        rows: list[Row] = []
        while trial.is_chance() and len(rows) < 10_000:
            action = trial.sample_chance(self.hub.chance)
            before = tuple(trial.current_seats())
            trial.apply(CHANCE, action)
            rows.append(Row(CHANCE, str(action), None, before))
        try:
            await self.commit(trial, rows)
        except (IntegrityError, StaleTable):
            return False  # another process drew first: the next sync reads its draws
        self.broadcast()
        return True

    async def apply_bot_moves(self, base: int, choices: list[tuple[int, Action]]) -> None:
        trial = self.state.clone()
        rows: list[Row] = []
        for seat, action in choices:
            before = tuple(trial.current_seats())
            if (self.seats[seat].kind != "bot" or seat not in before
                    or not self.fresh_enough(seat, base)):
                continue
            try:
                trial.apply(seat, action)
            except DragonlairError as exc:  # the position moved on: think again next round
                log.info("table %s: bot p%d's move no longer fits: %s", self.id, seat, exc.code)
                break
            rows.append(Row(seat, str(action), None, before))
        if not rows:
            return
        try:
            await self.commit(trial, rows)
        except IntegrityError:
            return
        self.broadcast()

    def bot(self, seat: int) -> Bot:
        if seat not in self.bots:
            from dragonlair.bots import make_bot

            name = self.seats[seat].bot or "random"
            self.bots[seat] = make_bot(self.game.info.id, name,
                                       random.Random(secrets.randbits(64)))
        return self.bots[seat]


# -------------------------------------------------------------- database reads
def read_table(s: OrmSession, table_id: str, since: int, clocks: bool = False) -> Snapshot:
    table = hotpath.table_row(s, table_id)  # plain statements: the per-action path
    if table is None:
        raise ServerError("server.table.not_found", 404, table=table_id)
    return Snapshot(table[0], read_seats(s, table_id), hotpath.action_rows(s, table_id, since),
                    table[1], read_clocks(s, table_id) if clocks else None)


def read_clocks(s: OrmSession, table_id: str) -> dict[int, SeatClock]:
    return {c.seat: SeatClock(c.seat, c.bank, c.started) for c in s.scalars(
        select(SeatClockRow).where(SeatClockRow.table_id == table_id))}


def write_clocks(s: OrmSession, table_id: str, clocks: dict[int, SeatClock]) -> None:
    """Insert or update seat clocks (in the caller's transaction)."""
    for seat, c in clocks.items():
        s.merge(SeatClockRow(table_id=table_id, seat=seat, bank=c.bank, started=c.started))


def shift_downtime(s: OrmSession, at: float, interval: float) -> float:
    """On start: if no server process was alive for more than two heartbeats, move every
    running clock on by the gap (time nobody could play is charged to nobody); then beat.
    Returns the gap forgiven (0: none)."""
    row = s.get(ServerState, "heartbeat")
    gap = 0.0
    if row is None:
        s.add(ServerState(key="heartbeat", value=at))
    else:
        if at - row.value > 2 * interval:
            gap = at - row.value
            s.execute(update(SeatClockRow).where(SeatClockRow.started.is_not(None))
                      .values(started=SeatClockRow.started + gap))
        row.value = max(row.value, at)
    s.commit()
    return gap


def heartbeat(s: OrmSession, at: float) -> None:
    row = s.get(ServerState, "heartbeat")
    if row is None:
        s.add(ServerState(key="heartbeat", value=at))
    elif row.value < at:
        row.value = at
    s.commit()


def read_seats(s: OrmSession, table_id: str) -> list[SeatInfo]:
    return [SeatInfo(*row) for row in hotpath.seat_rows(s, table_id)]


def key_seq(s: OrmSession, table_id: str, user_id: int, key: str) -> int | None:
    return hotpath.key_seq(s, table_id, user_id, key)


def action_count(s: OrmSession, table_id: str) -> int:
    return s.scalar(select(func.count()).select_from(ActionRow)
                    .where(ActionRow.table_id == table_id)) or 0


# ------------------------------------------------------------------------ hub
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
            runtime.tell(payload["note"])  # dragonlair/server/rematch.py
            return
        if kind == "presence":
            runtime.presence.notice(event)
            return
        if kind == "takeover" and isinstance(payload.get("note"), dict):
            runtime.tell(payload["note"])
        runtime.news.append(event)
        runtime.refresh_soon()

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
                await runtime.tick()
            runtime.kick()
        for table_id in lost:
            held = self.tables.get(table_id)
            if held is not None:
                held.schedule()  # no timers here any more

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

    async def think(self, bot: Bot, state: State, seat: int) -> Action:
        """A bot's choice, computed off the event loop (a slow search delays no other table);
        a bot that fails plays a random legal action."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, ask_bot, bot, state, seat)
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
                runtime.schedule()
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
                (await self.table(table_id)).kick()
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
                runtime.broadcast()
        if runtime.status == "running" and await self.take_claim(table_id):
            async with runtime.lock:
                await runtime.tick()
        runtime.announce("lobby")
        runtime.kick()

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
            if runtime.timer is not None:
                runtime.timer.cancel()
            runtime.presence.cancel()
            if runtime.task is not None:
                runtime.task.cancel()
            if runtime.refresh_task is not None:
                runtime.refresh_task.cancel()
            for viewer in list(runtime.viewers):
                viewer.close()
        if self.group is not None:
            self.group.close()
