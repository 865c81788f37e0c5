from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.server.helpers import ServerThread


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    data: Path = tmp_path_factory.mktemp("server")
    srv = ServerThread(data).start()
    yield srv
    srv.stop()
