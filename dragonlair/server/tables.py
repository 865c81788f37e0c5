"""Running tables: each table's state in memory, loaded from its action log, and its viewers.

One :class:`TableRuntime` per table and process. Every change goes the same way, under the
table's asyncio lock: catch up with the database (another process may have appended), ask
the engine (on a clone, so a refusal changes nothing), insert the action rows and commit
(``UNIQUE(table_id, seq)`` decides between processes), acknowledge the sender, then queue
for each viewer the view the engine builds for that viewer's seat. Chance outcomes are drawn
with :class:`secrets.SystemRandom` and bots think in a thread pool, on a clone, through
:func:`dragonlair.core.players.ask_bot`; both are logged and committed like any action.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TypeVar

from fastapi import WebSocket
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import CHANCE, JSON, Action, Game, State
from dragonlair.core.players import Bot, ask_bot
from dragonlair.server.db import ActionRow, GameTable, IdempotencyKey, Seat, User, now
from dragonlair.server.errors import ServerError
from dragonlair.server.settings import Settings

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

    def push(self, message: JSON) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, separators=(",", ":")))
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


class TableRuntime:
    """A table's state in this process (see the module docs)."""

    def __init__(self, hub: Hub, table_id: str, game: Game, created_by: int | None) -> None:
        self.hub = hub
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

    async def sync(self) -> None:
        """Catch up with the database: status, seats and actions appended elsewhere."""
        snap = await self.hub.db(lambda s: read_table(s, self.id, self.seq))
        self.status, self.seats, self.result = snap.status, snap.seats, snap.result
        for seat, text in snap.actions:
            self._apply_logged(seat, text)

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
        message: JSON = {"type": "update", "seq": self.seq, "status": self.status,
                         "seat": self.seat_of(viewer.user_id),
                         "view": self.view_for(viewer, since)}
        if re is not None:
            message["re"] = re
        viewer.push(message)

    def broadcast(self) -> None:
        for viewer in list(self.viewers):
            if viewer.greeted:
                self.update(viewer)

    def welcome(self, viewer: Viewer, re: str | None = None) -> None:
        viewer.greeted = True
        seat = self.seat_of(viewer.user_id)
        viewer.seat_seen, viewer.events_seen = seat, 0
        message: JSON = {"type": "welcome", "protocol": PROTOCOL, "table": self.table_json(),
                         "seat": seat, "seq": self.seq, "view": self.view_for(viewer, 0)}
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
            await self.sync()
            seat = self.seat_of(viewer.user_id)
            if seat is None:
                return refuse(ServerError("server.act.not_seated").to_json())
            if self.status != "running":
                return refuse(ServerError("server.act.not_running",
                                          status=self.status).to_json())
            user_id = viewer.user_id
            assert user_id is not None
            done = await self.hub.db(lambda s: key_seq(s, self.id, user_id, key))
            if done is not None:
                return refuse(ServerError("server.act.duplicate_key", key=key,
                                          seq=done).to_json())
            if not self.fresh_enough(seat, seen):
                return refuse(ServerError("server.act.stale", seen=seen,
                                          seq=self.seq).to_json())
            try:
                action = self.game.parse_action(text)
                trial = self.state.clone()
                before = tuple(trial.current_seats())
                trial.apply(seat, action)
            except DragonlairError as exc:
                return refuse(exc.to_json())
            rows = [Row(seat, str(action), user_id, before)]
            try:
                await self.commit(trial, rows, (user_id, key))
            except IntegrityError:
                await self.sync()
                done = await self.hub.db(lambda s: key_seq(s, self.id, user_id, key))
                err = (ServerError("server.act.duplicate_key", key=key, seq=done)
                       if done is not None
                       else ServerError("server.act.stale", seen=seen, seq=self.seq))
                return refuse(err.to_json())
            ack: JSON = {"type": "ack", "key": key, "seq": self.seq}
            if re is not None:
                ack["re"] = re
            viewer.push(ack)
            self.broadcast()
        self.kick()
        return None

    async def commit(self, trial: State, rows: Sequence[Row],
                     key: tuple[int, str] | None = None) -> None:
        """Insert ``rows`` (seat, action text, user) from the current ``seq`` on, with the
        idempotency ``key`` and, when ``trial`` is over, the result; commit; then make
        ``trial`` the state. An :class:`IntegrityError` (another process was first) leaves
        everything as it was."""
        start = self.seq
        outcome = trial.outcome() if trial.is_terminal() else None
        result = outcome.to_json() if outcome is not None else None

        def write(s: OrmSession) -> None:
            for i, row in enumerate(rows):
                s.add(ActionRow(table_id=self.id, seq=start + i, seat=row.seat,
                                action=row.text, user_id=row.user_id))
            if key is not None:
                s.add(IdempotencyKey(table_id=self.id, user_id=key[0], key=key[1],
                                     seq=start + len(rows)))
            if result is not None:
                table = s.get(GameTable, self.id)
                assert table is not None
                table.status, table.result, table.finished_at = "finished", result, now()
            s.commit()

        await self.hub.db(write)
        # the database holds them: now the memory follows
        for row in rows:
            self.movers.append(row.movers)
            self.log.append((row.seat, row.text))
        self.state = trial
        if result is not None:
            self.status, self.result = "finished", result

    # ------------------------------------------------------- chance and bots
    def kick(self) -> None:
        """Make sure chance and bots are being played (one task per table)."""
        if self.task is None and self.status == "running":
            self.task = asyncio.create_task(self.advance())

    async def advance(self) -> None:
        """Draw chance outcomes and play bot seats until a person must act or the game ends."""
        try:
            for _ in range(self.hub.settings.limits.max_auto_actions):
                async with self.lock:
                    await self.sync()
                    if self.status != "running" or self.state.is_terminal():
                        self.task = None
                        return
                    if self.state.is_chance():
                        await self.draw_chance()
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

    async def draw_chance(self) -> None:
        """Draw every chance outcome due now (one transaction), then broadcast."""
        trial = self.state.clone()
        rows: list[Row] = []
        while trial.is_chance() and len(rows) < 10_000:
            action = trial.sample_chance(self.hub.chance)
            before = tuple(trial.current_seats())
            trial.apply(CHANCE, action)
            rows.append(Row(CHANCE, str(action), None, before))
        try:
            await self.commit(trial, rows)
        except IntegrityError:
            return  # another process drew first: the next sync reads its draws
        self.broadcast()

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
def read_table(s: OrmSession, table_id: str, since: int) -> Snapshot:
    table = s.get(GameTable, table_id)
    if table is None:
        raise ServerError("server.table.not_found", 404, table=table_id)
    seats = read_seats(s, table_id)
    rows = s.execute(select(ActionRow.seat, ActionRow.action)
                     .where(ActionRow.table_id == table_id, ActionRow.seq >= since)
                     .order_by(ActionRow.seq)).all()
    return Snapshot(table.status, seats, [(r[0], r[1]) for r in rows], table.result)


def read_seats(s: OrmSession, table_id: str) -> list[SeatInfo]:
    rows = s.execute(select(Seat, User.display_name).outerjoin(User, Seat.user_id == User.id)
                     .where(Seat.table_id == table_id).order_by(Seat.seat)).all()
    return [SeatInfo(seat.seat, seat.kind, seat.user_id, seat.bot, name)
            for seat, name in rows]


def key_seq(s: OrmSession, table_id: str, user_id: int, key: str) -> int | None:
    return s.scalar(select(IdempotencyKey.seq).where(
        IdempotencyKey.table_id == table_id, IdempotencyKey.user_id == user_id,
        IdempotencyKey.key == key))


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

    async def db(self, work: Callable[[OrmSession], T]) -> T:
        """Run ``work`` with a database session in a worker thread."""
        def run() -> T:
            with self.sessions() as s:
                return work(s)

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
        self.loading.pop(table_id, None)
        return runtime

    def _load(self, s: OrmSession, table_id: str) -> TableRuntime:
        from dragonlair.games import make_game

        table = s.get(GameTable, table_id)
        if table is None:
            raise ServerError("server.table.not_found", 404, table=table_id)
        runtime = TableRuntime(self, table_id, make_game(table.game, table.options),
                               table.created_by)
        snap = read_table(s, table_id, 0)
        runtime.status, runtime.seats, runtime.result = snap.status, snap.seats, snap.result
        for seat, text in snap.actions:  # replay: the engine checks every logged action
            runtime._apply_logged(seat, text)
        return runtime

    async def resume_all(self) -> int:
        """Load every running table and play its chance and bots (after a restart)."""
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
            if runtime.status == "running":
                runtime.kick()
            return
        async with runtime.lock:
            await runtime.sync()
            runtime.broadcast()
        runtime.kick()

    async def close(self) -> None:
        for runtime in self.tables.values():
            if runtime.task is not None:
                runtime.task.cancel()
            for viewer in list(runtime.viewers):
                viewer.close()
