"""A request's database session (``accounts.db``, an ``async`` dependency) is closed after
the request on both databases, when it succeeds and when it fails: its connection goes back
to the pool, and what the request committed stays."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest
from sqlalchemy import text

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


@pytest.mark.parametrize("fails", [False, True])
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_request_session_is_closed_after_the_request(
        kind: str, fails: bool, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    engine = make_engine(_url(kind, tmp_path, request))
    try:
        sessions = make_sessionmaker(engine)
        fake = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(sessions=sessions)))

        async def one_request() -> None:
            dependency = accounts.db(fake)  # type: ignore[arg-type]
            session = await dependency.__anext__()
            session.execute(text("SELECT 1"))  # the session connects and begins
            assert session.in_transaction() and engine.pool.checkedout() == 1
            if fails:  # the endpoint raised: FastAPI throws it into the dependency
                with pytest.raises(RuntimeError, match="the endpoint failed"):
                    await dependency.athrow(RuntimeError("the endpoint failed"))
            else:
                with pytest.raises(StopAsyncIteration):
                    await dependency.__anext__()
            assert not session.in_transaction()
            assert engine.pool.checkedout() == 0  # closed (the session is still referenced)

        asyncio.run(one_request())
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_cancelled_request_still_gives_its_connection_back(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The client went away: the request's task is cancelled while the dependency closes its
    session (on PostgreSQL an ``await``, shielded from the cancellation)."""
    engine = make_engine(_url(kind, tmp_path, request))
    try:
        fake = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(
            sessions=make_sessionmaker(engine))))

        async def cancelled_request() -> None:
            dependency = accounts.db(fake)  # type: ignore[arg-type]
            session = await dependency.__anext__()
            session.execute(text("SELECT 1"))
            cancelled = anyio.get_cancelled_exc_class()
            with anyio.CancelScope() as scope:
                scope.cancel()  # every await in this scope is cancelled, unless shielded
                with pytest.raises(cancelled):
                    await dependency.athrow(cancelled())
            assert not session.in_transaction()
            assert engine.pool.checkedout() == 0

        anyio.run(cancelled_request)
    finally:
        engine.dispose()


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
