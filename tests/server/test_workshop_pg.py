"""The workshop's full-text search on PostgreSQL (``to_tsvector`` against
``plainto_tsquery`` with migration 0009's GIN index; tests/server/test_workshop.py searches
SQLite's FTS5): skipped without the test PostgreSQL (scripts/services.sh)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from tests.server.helpers import Client, ServerThread
from tests.server.test_workshop import BASE, ok, person, publish


@pytest.fixture(scope="module")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    from tests.server_multi.services import fresh_database, service_url

    pytest.importorskip("psycopg")
    url = service_url("DRAGONLAIR_TEST_PG", "PostgreSQL")
    with fresh_database(url) as db, pytest.MonkeyPatch.context() as patch:
        from dragonlair.server.workshop import balance

        patch.setattr(balance, "LIMITS", balance.BalanceLimits(games=1, seconds=5.0))
        srv = ServerThread(tmp_path_factory.mktemp("workshop-pg"), database_url=db).start()
        try:
            yield srv
        finally:
            srv.stop()


def test_search_on_postgresql(pg_server: ServerThread) -> None:
    assert pg_server.app.state.engine.dialect.name == "postgresql"
    with pg_server.app.state.engine.connect() as conn:  # the migration's GIN index
        assert conn.execute(text("SELECT count(*) FROM pg_indexes WHERE indexname = "
                                 "'ix_workshop_versions_fts'")).scalar() == 1
    ann = person(pg_server)
    word = f"quux{time.time_ns() % 10**6}"
    a = publish(ann, title=f"Golden {word}", tags=["economy"])
    b = publish(ann, game="farkle", kind="variant", title="Big dragon",
                description=f"For {word} lovers: a **five**.", content={"dragon": 5})
    publish(ann, title="Unrelated", description="nothing here")
    found = ok(ann.http.get(BASE, params={"q": word}))["entries"]
    assert {e["id"] for e in found} == {a["id"], b["id"]}
    assert [e["id"] for e in ok(ann.http.get(BASE, params={"q": f"{word} five"}))[
        "entries"]] == [b["id"]]
    assert ok(ann.http.get(BASE, params={"q": "golden", "tag": "economy"}))["entries"][0][
        "id"] == a["id"]
    assert ok(Client(pg_server).http.get(BASE, params={"q": "&|!:*"}))["entries"] is not None
