"""The SQL of the per-action path, written once as plain statements.

Every action reads the table (status, seats, actions appended by another process), looks up
its idempotency key and inserts its rows; with the ORM and freshly built ``select()``s that
was ~10 ms of CPU per action (statement construction, cache keys, the unit of work), more
than the engine and the views together. These are module-level ``text()`` statements (built
and compiled once, named parameters: the same text runs on SQLite and PostgreSQL) executed
on the session's connection, in the session's transaction. docs/server.md, "Performance".

On PostgreSQL the writes of the per-action path go further (:func:`write_in_one`): one
statement in autocommit on a pooled psycopg connection, no session, one round trip; and no
read at all before them where the log in memory is current (``MovePipeline.act``'s first
try, ``BotDriver.advance``): the database's unique keys and the guard catch a stale one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
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

#: PostgreSQL: the rows of one change (a person's action and its idempotency key, or the
#: chance outcomes drawn after it) in one statement, run outside a transaction block
#: (autocommit: the statement is its own transaction, all or nothing), so the write is one
#: round trip instead of BEGIN, the guard's SELECT, the INSERTs and COMMIT, through psycopg
#: itself (no ORM session: :func:`write_in_one`). ``ok`` is the guard of
#: :func:`still_seated` (no row: nothing inserted, zero returned); a row at a seq taken or a
#: key already used fails the statement (a unique violation) as the separate INSERTs did.
_WRITE_PG = """WITH ok AS ({guard}),
a AS (INSERT INTO actions (table_id, seq, seat, action, user_id, created_at)
      SELECT %(t)s::varchar, r.n, r.seat, r.a, r.u, %(at)s::double precision
      FROM ok, {rows}
      RETURNING seq){key}
SELECT count(*) FROM a"""
_GUARD = ("SELECT 1 FROM tables JOIN seats ON seats.table_id = tables.id "
          "WHERE tables.id = %(t)s::varchar AND seats.seat = %(gseat)s::integer "
          "AND tables.status = 'running' AND seats.kind = 'human' "
          "AND seats.user_id = %(guser)s::integer")
#: one row (a person's action, most often) as plain parameters; several as arrays
_ONE = ("(SELECT %(n)s::integer AS n, %(seat)s::integer AS seat, %(a)s::text AS a, "
        "%(u)s::integer AS u) AS r")
_MANY = ("unnest(%(ns)s::integer[], %(seats)s::integer[], %(as)s::text[], "
         "%(us)s::integer[]) AS r(n, seat, a, u)")
_KEY = """,
k AS (INSERT INTO idempotency_keys (table_id, user_id, key, seq, created_at)
      SELECT %(t)s::varchar, %(ku)s::integer, %(k)s::varchar, %(kn)s::integer,
             %(at)s::double precision FROM ok RETURNING seq)"""
#: (guarded, with a key, one row) -> the statement
WRITE_PG = {(g, k, one): _WRITE_PG.format(guard=_GUARD if g else "SELECT 1",
                                          rows=_ONE if one else _MANY, key=_KEY if k else "")
            for g in (False, True) for k in (False, True) for one in (False, True)}


#: SQLite, the per-action path in one piece (:func:`act_sqlite`): the same statements for
#: pysqlite itself (``?`` parameters), without SQLAlchemy's execution machinery
_SQ_TABLE = "SELECT status, result FROM tables WHERE id = ?"
_SQ_SEATS = ("SELECT seats.seat, seats.kind, seats.user_id, seats.bot, users.display_name "
             "FROM seats LEFT OUTER JOIN users ON seats.user_id = users.id "
             "WHERE seats.table_id = ? ORDER BY seats.seat")
_SQ_ACTIONS = "SELECT seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq"
_SQ_KEY = "SELECT seq FROM idempotency_keys WHERE table_id = ? AND user_id = ? AND key = ?"
_SQ_INSERT_ACTION = ("INSERT INTO actions (table_id, seq, seat, action, user_id, created_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)")
_SQ_INSERT_KEY = ("INSERT INTO idempotency_keys (table_id, user_id, key, seq, created_at) "
                  "VALUES (?, ?, ?, ?, ?)")

#: what :func:`act_sqlite` read: (status, result), seat rows, action rows, the key's seq
Read = tuple[tuple[str, Any] | None, list[tuple[int, str, int | None, str | None, str | None]],
             list[tuple[int, str]], int | None]


def act_sqlite(db: sqlite3.Connection, table_id: str, since: int, user_id: int, key: str,
               rows: Sequence[tuple[int, str, int | None]], at: float,
               unchanged: Callable[[Read], bool]) -> Read | None:
    """(SQLite, pysqlite's connection in the group commit's transaction: it holds the write
    lock.) Read the table, its seats, its actions from ``since`` on and ``key``; if
    ``unchanged`` says the read holds nothing new, insert the (seat, text, user id)
    ``rows`` at ``since``... and the key, and return ``None``; else write nothing and return
    the read. A unique violation is raised as SQLAlchemy's :class:`IntegrityError`."""
    table = db.execute(_SQ_TABLE, (table_id,)).fetchone()
    done = db.execute(_SQ_KEY, (table_id, user_id, key)).fetchone()
    read: Read = (None if table is None else (table[0], _json(table[1])),
                  db.execute(_SQ_SEATS, (table_id,)).fetchall(),
                  db.execute(_SQ_ACTIONS, (table_id, since)).fetchall(),
                  None if done is None else int(done[0]))
    if done is not None or not unchanged(read):
        return read
    try:
        db.executemany(_SQ_INSERT_ACTION, [(table_id, since + i, seat, action, user, at)
                                           for i, (seat, action, user) in enumerate(rows)])
        db.execute(_SQ_INSERT_KEY, (table_id, user_id, key, since + len(rows), at))
    except sqlite3.IntegrityError as exc:
        raise IntegrityError("hotpath.act_sqlite", None, exc) from exc
    return None


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


def write_in_one(conn: Any, table_id: str, start: int,
                 rows: Sequence[tuple[int, str, int | None]], at: float,
                 key: tuple[int, str] | None, guard: tuple[int, int] | None) -> bool:
    """(PostgreSQL, ``conn`` a psycopg connection in autocommit: ``Hub.db_raw``.) Insert the
    (seat, text, user id) ``rows`` at ``start``, ``start + 1``... and the idempotency
    ``key`` (user id, key; its seq: the log length after the rows) in one statement; with
    ``guard`` (seat, user id), only while that seat is still that user's and the table
    running. ``False``: the guard failed, nothing was written."""
    params: dict[str, Any] = {"t": table_id, "at": at}
    one = len(rows) == 1
    if one:
        params.update(n=start, seat=rows[0][0], a=rows[0][1], u=rows[0][2])
    else:
        params.update(ns=[start + i for i in range(len(rows))], seats=[r[0] for r in rows],
                      us=[r[2] for r in rows], **{"as": [r[1] for r in rows]})
    if key is not None:
        params.update(ku=key[0], k=key[1], kn=start + len(rows))
    if guard is not None:
        params.update(gseat=guard[0], guser=guard[1])
    row = conn.execute(WRITE_PG[guard is not None, key is not None, one], params).fetchone()
    return row is not None and int(row[0]) == len(rows)
