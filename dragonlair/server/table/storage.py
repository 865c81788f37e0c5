"""A table in the database: what a running table reads and writes, and nothing else.

The reads fill a :class:`Snapshot` (status, seats, the actions from a seq on, the seats'
clocks); the writes are the ones of a change: the action rows with their idempotency key, the
clocks and, with the final action, the result and the rating (:func:`write_actions`, or its
one-statement PostgreSQL form :func:`write_actions_in_one`), a seat taken over
(:func:`take_seat`), the clocks alone (:func:`save_clocks`), and the server's heartbeat. The
per-action statements are :mod:`dragonlair.server.hotpath`'s. Every function runs in a
worker thread with the session (or connection) it is given, in its transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.game import CHANCE, JSON
from dragonlair.server import hotpath
from dragonlair.server.clocks import SeatClock
from dragonlair.server.db import (
    ActionRow,
    GameTable,
    Seat,
    SeatChange,
    SeatClockRow,
    ServerState,
    now,
)
from dragonlair.server.errors import ServerError
from dragonlair.server.ratings import rate_table


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


# ------------------------------------------------------------------------ reads
def read_table(s: OrmSession, table_id: str, since: int, clocks: bool = False) -> Snapshot:
    """The table from log length ``since`` on, in plain statements (the per-action path).

    The actions are read before the status, and once more when the status says finished:
    PostgreSQL (READ COMMITTED) shows each statement the newest commit, and a game's final
    action commits with its status. Read the other way round, a commit between the two
    statements gave a snapshot of the final action beside "running", and the notice of
    that action, already had, never corrected it (a spectator's table stayed running in a
    CI run; tests/server_multi/test_claims.py)."""
    actions = hotpath.action_rows(s, table_id, since)
    table = hotpath.table_row(s, table_id)
    if table is None:
        raise ServerError("server.table.not_found", 404, table=table_id)
    if table[0] == "finished":  # every action is committed: the ones after the first read
        actions += hotpath.action_rows(s, table_id, since + len(actions))
    return Snapshot(table[0], read_seats(s, table_id), actions, table[1],
                    read_clocks(s, table_id) if clocks else None)


def read_clocks(s: OrmSession, table_id: str) -> dict[int, SeatClock]:
    return {c.seat: SeatClock(c.seat, c.bank, c.started) for c in s.scalars(
        select(SeatClockRow).where(SeatClockRow.table_id == table_id))}


def read_seats(s: OrmSession, table_id: str) -> list[SeatInfo]:
    return [SeatInfo(*row) for row in hotpath.seat_rows(s, table_id)]


def key_seq(s: OrmSession, table_id: str, user_id: int, key: str) -> int | None:
    return hotpath.key_seq(s, table_id, user_id, key)


def action_count(s: OrmSession, table_id: str) -> int:
    return s.scalar(select(func.count()).select_from(ActionRow)
                    .where(ActionRow.table_id == table_id)) or 0


# ----------------------------------------------------------------------- writes
def write_clocks(s: OrmSession, table_id: str, clocks: dict[int, SeatClock]) -> None:
    """Insert or update seat clocks (in the caller's transaction)."""
    for seat, c in clocks.items():
        s.merge(SeatClockRow(table_id=table_id, seat=seat, bank=c.bank, started=c.started))


def write_actions(s: OrmSession, table_id: str, start: int, rows: Sequence[Row],
                  key: tuple[int, str] | None, guard: tuple[int, int] | None,
                  clocks: dict[int, SeatClock], result: JSON | None, at: float) -> None:
    """Insert ``rows`` from seq ``start`` on, the idempotency ``key`` (user id, key), the
    changed ``clocks`` and, when ``result`` is given, finish and rate the table (once, with
    its final action; ``at`` the rating's time); commit. :class:`StaleTable` (nothing
    written) when ``guard`` (seat, user id) finds that seat no longer the user's or the
    table not running; an :class:`~sqlalchemy.exc.IntegrityError` when another process
    wrote that seq or that key first."""
    stamp = now()
    if guard is not None and not hotpath.still_seated(s, table_id, *guard):
        s.rollback()
        raise StaleTable(table_id)
    hotpath.insert_actions(s, table_id, start,
                           [(r.seat, r.text, r.user_id) for r in rows], stamp)
    if key is not None:
        hotpath.insert_key(s, table_id, key[0], key[1], start + len(rows), stamp)
    write_clocks(s, table_id, clocks)
    if result is not None:
        table = s.get(GameTable, table_id)
        assert table is not None
        if table.status != "finished":  # rated once, with the final action
            rate_table(s, table, result, at)
            if table.workshop is not None:  # made from a workshop entry: played once more
                from dragonlair.server.workshop.api import finished as workshop_finished

                workshop_finished(s, table, result)
            from dragonlair.server.tournaments.service import record_finish

            record_finish(s, table, result, at)  # a tournament's table: counted with it
        table.status, table.result, table.finished_at = "finished", result, now()
    s.commit()


def write_actions_in_one(conn: Any, table_id: str, start: int, rows: Sequence[Row],
                         key: tuple[int, str] | None, guard: tuple[int, int] | None) -> None:
    """(PostgreSQL, a psycopg connection in autocommit.) :func:`write_actions` for a change
    with no clock and no result, as one statement (:func:`hotpath.write_in_one`)."""
    if not hotpath.write_in_one(conn, table_id, start,
                                [(r.seat, r.text, r.user_id) for r in rows], now(),
                                key, guard):
        raise StaleTable(table_id)


def save_clocks(s: OrmSession, table_id: str, clocks: dict[int, SeatClock]) -> None:
    """Write the seats' ``clocks`` and commit (the clocks changed without an action)."""
    write_clocks(s, table_id, clocks)
    s.commit()


def take_seat(s: OrmSession, table_id: str, seat: int, user_id: int, bot: str, seq: int,
              reason: str, at: float, clock: SeatClock | None) -> bool:
    """The bot ``bot`` takes ``seat`` from the person ``user_id``: the seat row, a
    ``seat_changes`` row at ``seq`` and the seat's stopped ``clock``, committed. ``False``
    (nothing written) when the seat is not that person's any more."""
    done = s.execute(update(Seat).where(
        Seat.table_id == table_id, Seat.seat == seat, Seat.kind == "human",
        Seat.user_id == user_id).values(kind="bot", bot=bot))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        s.rollback()
        return False
    s.add(SeatChange(table_id=table_id, seat=seat, seq=seq, reason=reason,
                     user_id=user_id, bot=bot, created_at=at))
    if clock is not None:
        write_clocks(s, table_id, {seat: clock})
    s.commit()
    return True


# -------------------------------------------------------------- the heartbeat
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
