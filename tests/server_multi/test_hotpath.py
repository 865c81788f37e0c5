"""The PostgreSQL per-action write (dragonlair/server/hotpath.py, ``write_in_one``; issue 15's
performance work) keeps what the separate statements guaranteed: all or nothing, the
guard (the seat still the sender's, the table running) checked in the same statement, a
taken ``seq`` or a used idempotency key refused by the database's unique keys with nothing
written; and the pool's ping after idleness (db.py, ``ping_when_idle``) still replaces a
connection that the database dropped meanwhile, as ``pool_pre_ping`` did."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import Engine

from dragonlair.games import make_game
from dragonlair.server.db import GameTable, Seat, User, make_engine, make_sessionmaker
from dragonlair.server.hotpath import write_in_one
from dragonlair.server.migrate import upgrade

TABLE = "hot0001"


@pytest.fixture
def engine(pg_url: str) -> Iterator[Engine]:
    """A migrated PostgreSQL database with one running Master table: user 1 at seat 0,
    user 2 at seat 1."""
    eng = make_engine(pg_url)
    upgrade(eng)
    game = make_game("master", {})
    with make_sessionmaker(eng)() as s:
        s.add_all([User(id=1, username="a", display_name="A"),
                   User(id=2, username="b", display_name="B")])
        s.flush()
        s.add(GameTable(id=TABLE, game="master", game_version=game.info.version,
                        options=game.record_options(), status="running"))
        s.flush()
        s.add_all([Seat(table_id=TABLE, seat=0, kind="human", user_id=1),
                   Seat(table_id=TABLE, seat=1, kind="human", user_id=2)])
        s.commit()
    yield eng
    eng.dispose()


def write(eng: Engine, *args: Any) -> bool:
    raw = eng.raw_connection()
    try:
        conn: Any = raw.driver_connection
        conn.autocommit = True
        try:
            return write_in_one(conn, TABLE, *args)
        finally:
            conn.autocommit = False
    finally:
        raw.close()


def log(eng: Engine) -> tuple[list[tuple[int, int, str]], list[tuple[str, int]]]:
    """(seq, seat, action) rows and (key, seq) rows of the table."""
    with eng.connect() as c:
        actions = [(int(r[0]), int(r[1]), str(r[2])) for r in c.execute(text(
            "SELECT seq, seat, action FROM actions WHERE table_id = :t ORDER BY seq"),
            {"t": TABLE})]
        keys = [(str(r[0]), int(r[1])) for r in c.execute(text(
            "SELECT key, seq FROM idempotency_keys WHERE table_id = :t ORDER BY seq"),
            {"t": TABLE})]
    return actions, keys


def test_one_statement_writes_all_or_nothing(engine: Engine) -> None:
    # chance rows (no key, no guard), then a person's move with its key, guarded
    assert write(engine, 0, [(-1, "deal a", None), (-1, "deal b", None)], 1.0, None, None)
    assert write(engine, 2, [(0, "place x", 1)], 2.0, (1, "k1"), (0, 1))
    assert log(engine) == ([(0, -1, "deal a"), (1, -1, "deal b"), (2, 0, "place x")],
                           [("k1", 3)])
    # the guard: seat 1 is not user 1's; nothing written, no error
    assert not write(engine, 3, [(1, "place y", 1)], 3.0, (1, "k2"), (1, 1))
    # a taken seq (another process was first): refused, and the key is not kept either
    with pytest.raises(psycopg.errors.UniqueViolation):
        write(engine, 2, [(1, "place y", 2)], 3.0, (2, "k3"), (1, 2))
    # a key already used: refused, and the action row is not kept either
    with pytest.raises(psycopg.errors.UniqueViolation):
        write(engine, 3, [(0, "place z", 1)], 3.0, (1, "k1"), (0, 1))
    assert log(engine) == ([(0, -1, "deal a"), (1, -1, "deal b"), (2, 0, "place x")],
                           [("k1", 3)])
    # the game no longer running: the guard refuses (a move that arrives after the end)
    with engine.begin() as c:
        c.execute(text("UPDATE tables SET status = 'finished' WHERE id = :t"), {"t": TABLE})
    assert not write(engine, 3, [(1, "place y", 2)], 4.0, (2, "k4"), (1, 2))
    assert len(log(engine)[0]) == 3


def test_a_pooled_connection_dropped_while_idle_is_replaced(engine: Engine) -> None:
    """The database drops the pool's connection (as a restart does); once it has been idle
    longer than the ping's threshold, the next checkout pings it, finds it dead and hands
    out a new one: the request does not fail."""
    victim, killer = engine.connect(), engine.connect()
    pid = victim.execute(text("SELECT pg_backend_pid()")).scalar()
    victim.close()  # back in the pool, idle, first in line
    killer.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    killer.commit()
    killer.close()
    # the connection lay idle long enough (moved back in time, not waited for)
    for record in list(engine.pool._pool.queue):  # type: ignore[attr-defined]
        if "idle_since" in record.info:
            record.info["idle_since"] -= 3600
    with engine.connect() as c:
        assert c.execute(text("SELECT pg_backend_pid()")).scalar() not in (None, pid)
