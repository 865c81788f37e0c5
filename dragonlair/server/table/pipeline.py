"""A move's way through a table: judged, logged, applied (:class:`MovePipeline`).

Under the table's lock: catch up with the database (another process may have appended), ask
the engine (on a clone, so a refusal changes nothing), insert the action rows with the
sender's idempotency key and commit (``UNIQUE(table_id, seq)`` decides between processes),
and only then change the state in memory, acknowledge the sender and send each viewer its
view. A move that loses the race to another process is judged again on the log as it is
now; a key already used answers ``duplicate_key`` with the seq it produced. Chance and the
bots' moves (:mod:`dragonlair.server.table.botdriver`) are committed the same way.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import JSON, State
from dragonlair.server import hotpath
from dragonlair.server.clocks import SeatClock, plan
from dragonlair.server.db import now
from dragonlair.server.errors import ServerError
from dragonlair.server.table.storage import (
    Row,
    SeatInfo,
    Snapshot,
    StaleTable,
    key_seq,
    read_table,
    write_actions,
    write_actions_in_one,
)

if TYPE_CHECKING:
    from dragonlair.server.table.runtime import TableRuntime
    from dragonlair.server.table.viewers import Viewer

log = logging.getLogger("dragonlair.server")

#: what :meth:`MovePipeline.commit` checks before it writes: the seq, whether clocks are
#: read, and the status, seats and clocks this process holds
Check = tuple[int, bool, str, list[SeatInfo], dict[int, SeatClock]]


class MovePipeline:
    """Validating and committing the moves of one table (see the module docs)."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.rt = runtime

    async def act(self, viewer: Viewer, text: str, seen: int, key: str,
                  re: str | None = None) -> None:
        """A person's action (see the module docs); answers ``ack`` or ``error``."""
        rt = self.rt

        def refuse(err: JSON) -> None:
            viewer.push({"type": "error", **err, **({"re": re} if re is not None else {})})

        async with rt.lock:
            # another process may commit between our sync and our insert: then
            # UNIQUE(table_id, seq) refuses ours, nothing was written, and the move is judged
            # again on the log as it is now, as one process judges a move that arrives after
            # another (accepted, stale, illegal, or a key already used); a few rounds at most
            for attempt in range(rt.hub.settings.limits.max_commit_races):
                # many processes, a table without clocks: the log here is usually current
                # (notices carry the new rows), so the first try skips the read and lets the
                # write check what the read would have: the seq (UNIQUE), the key (UNIQUE),
                # the seat still the sender's and the table running (``guard``); any miss
                # reads the database and judges the move again
                fast = (attempt == 0 and rt.hub.multi and not rt.spec.active
                        and rt.hub.settings.limits.max_commit_races > 1)
                # one process's database (SQLite: the group commit's transaction holds the
                # write lock): the move judged on the log in memory, then the read and the
                # write in one trip, the write only if the read finds nothing new
                if attempt == 0 and not fast and rt.hub.group is not None:
                    try:
                        tried = await self.in_one_trip(viewer, text, seen, key)
                    except IntegrityError:  # another process's row after all: judge again
                        continue
                    if tried is True:
                        break
                    if tried is False:
                        done = await rt.sync((viewer.user_id, key))
                    else:
                        done = tried[0]
                else:
                    done = None if fast else await rt.sync((viewer.user_id, key))
                seat = rt.seat_of(viewer.user_id)
                # a refusal is only given on what the database says (a fast try that would
                # refuse reads it first: the move may be a resend whose key is known there)
                if seat is None:
                    if fast:
                        continue
                    return refuse(ServerError("server.act.not_seated").to_json())
                if rt.status != "running":
                    if fast:
                        continue
                    return refuse(ServerError("server.act.not_running",
                                              status=rt.status).to_json())
                if rt.timekeeper.flagged(seat):
                    # the timer has not fired yet: a bot takes the seat now
                    await rt.timekeeper.tick()
                    rt.driver.kick()
                    return refuse(ServerError("server.clock.flagged", seat=seat).to_json())
                user_id = viewer.user_id
                assert user_id is not None
                if done is not None:
                    return refuse(ServerError("server.act.duplicate_key", key=key,
                                              seq=done).to_json())
                if not rt.fresh_enough(seat, seen):
                    if fast:
                        continue
                    return refuse(ServerError("server.act.stale", seen=seen,
                                              seq=rt.seq).to_json())
                try:
                    action = rt.game.parse_action(text)
                    trial = rt.state.clone()
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
                             rt.id, rt.seq, attempt + 1)
                    continue
                break
            else:  # lost every round: the table is too busy; the client may send it again
                return refuse(ServerError("server.act.stale", seen=seen,
                                          seq=rt.seq).to_json())
            ack: JSON = {"type": "ack", "key": key, "seq": rt.seq}
            if re is not None:
                ack["re"] = re
            viewer.push(ack)
            rt.audience.broadcast()
        rt.driver.kick()
        return None

    async def in_one_trip(self, viewer: Viewer, text: str, seen: int,
                          key: str) -> bool | tuple[int | None]:
        """(Under the lock.) A person's move judged on the log in memory, then read and
        written in one trip to the database: the table's rows from the current ``seq`` on
        and the idempotency key are read in the transaction that writes (it holds SQLite's
        write lock), and the move is written only if they hold nothing new. ``True``: the
        move is committed, acknowledged state follows (as :meth:`commit`); ``(seq,)``:
        nothing written, the runtime has caught up with what was read (``seq``: what the
        key produced, if it did) and the move must be judged again on it; ``False``: the
        log in memory refuses the move, nothing read (a refusal rests on a read: sync)."""
        rt = self.rt
        user_id = viewer.user_id
        seat = rt.seat_of(user_id)
        if (seat is None or user_id is None or rt.status != "running"
                or rt.timekeeper.flagged(seat) or not rt.fresh_enough(seat, seen)):
            return False
        try:
            action = rt.game.parse_action(text)
            trial = rt.state.clone()
            before = tuple(trial.current_seats())
            trial.apply(seat, action)
        except DragonlairError:
            return False
        rows = [Row(seat, str(action), user_id, before)]
        start, clocks_read = rt.seq, rt.spec.active
        status, seats, clocks_held = rt.status, list(rt.seats), dict(rt.clocks)
        written = await self.commit(trial, rows, (user_id, key), check=(
            start, clocks_read, status, seats, clocks_held))
        if isinstance(written, tuple):
            snap, done = written
            rt.catch_up(snap)
            return (done,)
        return True

    async def commit(self, trial: State, rows: Sequence[Row],
                     key: tuple[int, str] | None = None,
                     guard: tuple[int, int] | None = None,
                     check: Check | None = None) -> tuple[Snapshot, int | None] | None:
        """Insert ``rows`` (seat, action text, user) from the current ``seq`` on, with the
        idempotency ``key`` and, when ``trial`` is over, the result; commit; then make
        ``trial`` the state. An :class:`IntegrityError` (another process was first) leaves
        everything as it was; so does :class:`StaleTable` when ``guard`` (seat, user id)
        finds that seat no longer the user's or the table not running. With ``check`` (the
        seq, whether clocks are read, and the status, seats and clocks held), the table and
        the key are read first in the same transaction, and if that read holds anything new
        nothing is written and it is returned (snapshot, the key's seq) instead."""
        rt = self.rt
        start = rt.seq
        outcome = trial.outcome() if trial.is_terminal() else None
        result = outcome.to_json() if outcome is not None else None
        at = rt.hub.clock.now()
        clocks = (plan(rt.spec, rt.clocks, rt.timekeeper.to_run(trial), len(rt.seats), at)
                  if rt.spec.active else {})

        # PostgreSQL, a change that needs no more than its rows and key (no clock, not the
        # last move: nothing to rate): one statement, one round trip (hotpath.write_in_one)
        one = rt.hub.postgresql and result is None and not clocks and bool(rows)

        def write_one(conn: Any) -> None:
            write_actions_in_one(conn, rt.id, start, rows, key, guard)

        def write(s: OrmSession) -> None:
            write_actions(s, rt.id, start, rows, key, guard, clocks, result, at)

        def read_then_write(s: OrmSession) -> tuple[Snapshot, int | None] | None:
            assert check is not None
            seq, clocks_read, status, seats, held = check
            snap = read_table(s, rt.id, seq, clocks_read)
            done = None if key is None else key_seq(s, rt.id, key[0], key[1])
            if (done is not None or snap.actions or snap.status != status
                    or snap.seats != seats or (snap.clocks is not None and snap.clocks != held)):
                return snap, done
            write(s)
            return None

        group = rt.hub.group
        if (check is not None and group is not None and not check[1] and result is None
                and not clocks and key is not None):
            # the common case (no clock, not the last move) on SQLite: pysqlite itself, no
            # session (hotpath.act_sqlite)
            seq, _, status, seats, _ = check
            user_id, key_text = key

            def unchanged(read: hotpath.Read) -> bool:
                table, seat_rows, actions, _ = read
                return (table is not None and table[0] == status and not actions
                        and [SeatInfo(*r) for r in seat_rows] == seats)

            def act_raw(db: sqlite3.Connection) -> hotpath.Read | None:
                return hotpath.act_sqlite(db, rt.id, seq, user_id, key_text,
                                          [(r.seat, r.text, r.user_id) for r in rows], now(),
                                          unchanged)

            read = await group.run_raw(act_raw)
            if read is not None:
                table, seat_rows, actions, done = read
                if table is None:
                    raise ServerError("server.table.not_found", 404, table=rt.id)
                return Snapshot(table[0], [SeatInfo(*r) for r in seat_rows], actions,
                                table[1]), done
        elif check is not None:
            unwritten = await rt.hub.db(read_then_write)
            if unwritten is not None:
                return unwritten
        elif one:
            await rt.hub.db_raw(write_one)
        else:
            await rt.hub.db(write)
        if rt.hub.pusher is not None:  # turn-based: Web Push to whose turn began
            rt.hub.pusher.turns_begin(rt, clocks)
        rt.clocks.update(clocks)
        # the database holds them: now the memory follows
        for row in rows:
            rt.movers.append(row.movers)
            rt.log.append((row.seat, row.text))
        rt.state = trial
        if result is not None:
            was = rt.status
            rt.status, rt.result = "finished", result
            rt.ended(was)
        rt.timekeeper.schedule()
        # the new rows travel with the notice: a process whose log ends where they begin
        # applies them without reading the database (Hub.notice, News.apply_news)
        news: JSON = {"rows": [[r.seat, r.text] for r in rows]}
        if result is not None:
            news["result"] = result
        rt.announce("act", since=start, seq=rt.seq, **news)
        return None
