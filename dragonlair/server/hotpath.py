"""The SQL of the per-action path, written once as plain statements.

Every action reads the table (status, seats, actions appended by another process), looks up
its idempotency key and inserts its rows; with the ORM and freshly built ``select()``s that
was ~10 ms of CPU per action (statement construction, cache keys, the unit of work), more
than the engine and the views together. These are module-level ``text()`` statements (built
and compiled once, named parameters: the same text runs on SQLite and PostgreSQL) executed
on the session's connection, in the session's transaction. docs/server.md, "Performance".
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session as OrmSession

TABLE = text("SELECT status, result FROM tables WHERE id = :t")
SEATS = text("SELECT seats.seat, seats.kind, seats.user_id, seats.bot, users.display_name "
             "FROM seats LEFT OUTER JOIN users ON seats.user_id = users.id "
             "WHERE seats.table_id = :t ORDER BY seats.seat")
ACTIONS = text("SELECT seat, action FROM actions WHERE table_id = :t AND seq >= :n "
               "ORDER BY seq")
KEY = text("SELECT seq FROM idempotency_keys "
           "WHERE table_id = :t AND user_id = :u AND key = :k")
SEATED = text("SELECT tables.status, seats.kind, seats.user_id FROM tables JOIN seats "
               "ON seats.table_id = tables.id WHERE tables.id = :t AND seats.seat = :s")
INSERT_ACTION = text("INSERT INTO actions (table_id, seq, seat, action, user_id, created_at) "
                     "VALUES (:t, :n, :seat, :a, :u, :at)")
INSERT_KEY = text("INSERT INTO idempotency_keys (table_id, user_id, key, seq, created_at) "
                  "VALUES (:t, :u, :k, :n, :at)")


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def table_row(s: OrmSession, table_id: str) -> tuple[str, Any] | None:
    """(status, result) of a table, or ``None``."""
    row = s.connection().execute(TABLE, {"t": table_id}).first()
    return None if row is None else (row[0], _json(row[1]))


def seat_rows(s: OrmSession, table_id: str) -> list[tuple[int, str, int | None, str | None,
                                                           str | None]]:
    """(seat, kind, user id, bot, display name) of each seat, in order."""
    return [(r[0], r[1], r[2], r[3], r[4])
            for r in s.connection().execute(SEATS, {"t": table_id})]


def action_rows(s: OrmSession, table_id: str, since: int) -> list[tuple[int, str]]:
    return [(r[0], r[1]) for r in s.connection().execute(ACTIONS, {"t": table_id, "n": since})]


def key_seq(s: OrmSession, table_id: str, user_id: int, key: str) -> int | None:
    row = s.connection().execute(KEY, {"t": table_id, "u": user_id, "k": key}).first()
    return None if row is None else int(row[0])


def insert_actions(s: OrmSession, table_id: str, start: int,
                   rows: Iterable[tuple[int, str, int | None]], at: float) -> None:
    """Insert (seat, text, user id) rows at ``start``, ``start + 1``... (not committed)."""
    params = [{"t": table_id, "n": start + i, "seat": seat, "a": action, "u": user, "at": at}
              for i, (seat, action, user) in enumerate(rows)]
    if params:
        s.connection().execute(INSERT_ACTION, params)


def insert_key(s: OrmSession, table_id: str, user_id: int, key: str, seq: int,
               at: float) -> None:
    s.connection().execute(INSERT_KEY, {"t": table_id, "u": user_id, "k": key, "n": seq,
                                        "at": at})


def still_seated(s: OrmSession, table_id: str, seat: int, user_id: int) -> bool:
    """Whether the table is running and ``seat`` is still ``user_id``'s (not taken over)."""
    row = s.connection().execute(SEATED, {"t": table_id, "s": seat}).first()
    return row is not None and row[0] == "running" and row[1] == "human" and row[2] == user_id
