from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.server.helpers import ServerThread, one_tls_context, serving


@pytest.fixture(scope="module", autouse=True)
def _one_tls_context() -> Iterator[None]:
    """The module's httpx clients share one TLS context (:func:`one_tls_context`)."""
    with one_tls_context():
        yield


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server per test process, shared by every module that takes the plain ``server``:
    a start costs a database migration and FastAPI's first build of each route (about half a
    second each, 26 modules). The tests make their own people and tables and look only at
    those; a module that needs other settings, or a database of its own (it counts every
    table), starts its own (:func:`serving`)."""
    yield from serving(tmp_path_factory)
