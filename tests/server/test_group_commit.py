"""Group commit (dragonlair/server/dbthread.py): pieces of work queued together share one
transaction, each in its own savepoint. A piece that fails leaves nothing behind (not even
the rows it wrote before failing) and the others of its batch still commit; nobody hears of
a result before the commit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.db import make_engine, make_sessionmaker
from dragonlair.server.dbthread import GroupCommit


def test_a_failing_piece_is_rolled_back_alone(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'g.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (a INTEGER UNIQUE)")
    group = GroupCommit(make_sessionmaker(engine))

    def insert(*values: int) -> Callable[[OrmSession], int]:
        def work(s: OrmSession) -> int:
            for v in values:
                s.execute(text("INSERT INTO t (a) VALUES (:v)"), {"v": v})
            s.commit()
            return len(values)
        return work

    def count(s: OrmSession) -> list[int]:
        return [r[0] for r in s.execute(text("SELECT a FROM t ORDER BY a"))]

    async def main() -> list[Any]:
        # queued at once: they run as one batch (or a few), in this order
        return list(await asyncio.gather(group.run(insert(1, 2)), group.run(insert(3, 1)),
                                    group.run(insert(4)), group.run(count),
                                    return_exceptions=True))

    try:
        results = asyncio.run(main())
        assert results[0] == 2 and results[2] == 1
        assert isinstance(results[1], IntegrityError)  # 3 went in, then 1 clashed: neither
        assert results[3] == [1, 2, 4]  # what the batch saw before it committed
        assert group.pieces == 4 and group.batches <= 4
        with engine.connect() as conn:  # and what is on disk after
            assert [r[0] for r in conn.exec_driver_sql("SELECT a FROM t ORDER BY a")] == \
                [1, 2, 4]
    finally:
        group.close()
        group.thread.join(5)
        engine.dispose()


def test_an_error_in_a_piece_reaches_its_caller(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'g.db'}")
    group = GroupCommit(make_sessionmaker(engine))

    def boom(s: OrmSession) -> None:
        raise ValueError("not a database error")

    try:
        with pytest.raises(ValueError):
            asyncio.run(group.run(boom))
    finally:
        group.close()
        group.thread.join(5)
        engine.dispose()
