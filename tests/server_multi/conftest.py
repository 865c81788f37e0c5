from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from tests.server_multi.services import RedisProcess, fresh_database, service_url


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (dropped after the test)."""
    pytest.importorskip("psycopg")
    with fresh_database(service_url("DRAGONLAIR_TEST_PG", "PostgreSQL")) as url:
        yield url


@pytest.fixture
def redis_url() -> str:
    """The shared test Redis (scripts/services.sh)."""
    pytest.importorskip("redis")
    return service_url("DRAGONLAIR_TEST_REDIS", "Redis")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisProcess]:
    """A private redis-server the test may restart."""
    pytest.importorskip("redis")
    proc = RedisProcess(tmp_path).start()
    yield proc
    proc.stop()
