"""A request's database session (``accounts.db``, an ``async`` dependency) is closed after
the request on both databases, when it succeeds and when it fails: its connection goes back
to the pool, and what the request committed stays."""

from __future__ import annotations

import warnings
from collections.abc import AsyncGenerator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server import accounts
from dragonlair.server.app import create_app
from dragonlair.server.db import make_engine, make_sessionmaker
from dragonlair.server.settings import Settings

with warnings.catch_warnings():  # starlette's TestClient warns about httpx (not ours)
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    return (f"sqlite:///{tmp_path / 'requests.db'}" if kind == "sqlite"
            else str(request.getfixturevalue("pg_url")))


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An engine of each kind, disposed of after the test."""
    made = make_engine(_url(request.param, tmp_path, request))
    yield made
    made.dispose()


def _held(engine: Engine) -> int:
    """Connections out of the engine's pool now."""
    pool: Any = engine.pool  # a QueuePool (SQLite files and PostgreSQL alike)
    return int(pool.checkedout())


async def _open(engine: Engine) -> tuple[AsyncGenerator[OrmSession, None], OrmSession]:
    """``accounts.db`` of a request to an app with ``engine``, and its session, connected
    and in a transaction."""
    fake = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(
        sessions=make_sessionmaker(engine))))
    dependency = accounts.db(fake)  # type: ignore[arg-type]
    session = await dependency.__anext__()
    session.execute(text("SELECT 1"))  # the session connects and begins
    assert session.in_transaction() and _held(engine) == 1
    return dependency, session


@pytest.mark.parametrize("fails", [False, True])
def test_the_request_session_is_closed_after_the_request(engine: Engine, fails: bool) -> None:
    async def one_request() -> None:
        dependency, session = await _open(engine)
        if fails:  # the endpoint raised: FastAPI throws it into the dependency
            with pytest.raises(RuntimeError, match="the endpoint failed"):
                await dependency.athrow(RuntimeError("the endpoint failed"))
        else:
            with pytest.raises(StopAsyncIteration):
                await dependency.__anext__()
        assert not session.in_transaction()
        assert _held(engine) == 0  # closed (the session is still referenced)

    anyio.run(one_request)


def test_a_cancelled_request_still_gives_its_connection_back(engine: Engine) -> None:
    """The client went away: the request's task is cancelled while the dependency closes its
    session (on PostgreSQL an ``await``, shielded from the cancellation)."""
    async def cancelled_request() -> None:
        dependency, session = await _open(engine)
        cancelled = anyio.get_cancelled_exc_class()
        with anyio.CancelScope() as scope:
            scope.cancel()  # every await in this scope is cancelled, unless shielded
            with pytest.raises(cancelled):
                await dependency.athrow(cancelled())
        assert not session.in_transaction()
        assert _held(engine) == 0

    anyio.run(cancelled_request)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_requests_through_the_dependency_commit_and_fail_as_before(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    app = create_app(Settings(database_url=_url(kind, tmp_path, request), data_dir=tmp_path,
                              warm_up=False, puzzle_miner=False))
    with TestClient(app) as client:
        assert client.get("/api/me").status_code == 401  # no session cookie
        assert client.post("/api/auth/guest", json={}).status_code == 200
        assert client.get("/api/me").status_code == 200
        assert client.patch("/api/me", json={"display_name": ""}).status_code == 422
        assert client.patch("/api/me", json={"display_name": "Ann Example"}).status_code == 200
        assert client.get("/api/me").json()["display_name"] == "Ann Example"  # committed
