from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from dragonlair.server.db import make_engine, make_sessionmaker
from dragonlair.server.migrate import upgrade
from tests.server.helpers import one_tls_context
from tests.server_multi.cluster import Cluster, cluster
from tests.server_multi.services import RedisProcess, fresh_database, service_url

#: the shared cluster's processes: short leases, so a dead process's tables pass to another
#: in about a second, and a short least away time (a table may choose 1 s)
SHARED_ARGS = ["--claim-ttl", "1.5", "--away-min", "1"]


@pytest.fixture(scope="module", autouse=True)
def _one_tls_context() -> Iterator[None]:
    """The module's httpx clients share one TLS context (tests/server/helpers.py)."""
    with one_tls_context():
        yield


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


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, object, object]:
    """Keep each phase's report on the test (``rep_call``): a shared cluster's fixture
    prints the processes' logs after a test that failed."""
    report = yield
    setattr(item, f"rep_{call.when}", report)
    return report


@pytest.fixture(scope="module")
def shared_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three ``dragonlair serve`` processes (:data:`SHARED_ARGS`) on a database of their own
    and a private redis-server (the Redis restarts stop it), started once for a module and
    shared by its tests that play tables through processes (each takes it through
    :func:`cluster3`): a test's tables are its own (new ids each time), so what one test
    leaves behind is no other's."""
    pytest.importorskip("psycopg")
    pytest.importorskip("redis")
    pg = service_url("DRAGONLAIR_TEST_PG", "PostgreSQL")
    folder = tmp_path_factory.mktemp("cluster")
    redis = RedisProcess(folder).start()
    try:
        with fresh_database(pg) as url, \
                cluster(folder, 3, url, redis.url, args=SHARED_ARGS) as c:
            c.own_redis = redis
            yield c
    finally:
        redis.stop()


@pytest.fixture
def cluster3(request: pytest.FixtureRequest, shared_cluster: Cluster) -> Iterator[Cluster]:
    """The shared cluster (:func:`shared_cluster`) whole for a test: its Redis running (a
    test that failed may have left it stopped), its processes alive (one that a test killed
    is started again on its port). Its processes' logs are printed (pytest shows them) after
    a test that failed."""
    redis = shared_cluster.own_redis
    if redis is not None and redis.proc is None:
        redis.start()
    yield shared_cluster.revive()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(shared_cluster.logs())


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sessionmaker[OrmSession]]:
    """A migrated database of each kind (PostgreSQL: a fresh one, ``pg_url``): the claims'
    tests of tables and of tournaments."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'claims.db'}"
    else:
        url = request.getfixturevalue("pg_url")
    engine = make_engine(url)
    upgrade(engine)
    yield make_sessionmaker(engine)
    engine.dispose()
