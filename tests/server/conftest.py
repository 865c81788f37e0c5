from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.server.helpers import ServerThread, one_tls_context

#: ``DRAGONLAIR_TEST_SERVER_DB=postgresql``: the ``server`` fixture's database is a fresh
#: PostgreSQL database (on ``DRAGONLAIR_TEST_PG``, scripts/services.sh) instead of SQLite;
#: scripts/test.sh runs the play tests a second time so (docs/deploy.md)
SERVER_DB = os.environ.get("DRAGONLAIR_TEST_SERVER_DB", "sqlite")


@pytest.fixture(scope="module", autouse=True)
def _one_tls_context() -> Iterator[None]:
    """The module's httpx clients share one TLS context (:func:`one_tls_context`)."""
    with one_tls_context():
        yield


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    data: Path = tmp_path_factory.mktemp("server")
    with ExitStack() as stack:
        extra: dict[str, str] = {}
        if SERVER_DB == "postgresql":
            from tests.server_multi.services import fresh_database, service_url

            pytest.importorskip("psycopg")
            url = service_url("DRAGONLAIR_TEST_PG", "PostgreSQL")
            extra["database_url"] = stack.enter_context(fresh_database(url))
        srv = ServerThread(data, **extra).start()
        assert srv.app.state.engine.dialect.name == SERVER_DB
        yield srv
        srv.stop()
