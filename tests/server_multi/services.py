"""The real PostgreSQL and Redis of the multi-process tests: their URLs come from
``scripts/services.sh`` (``DRAGONLAIR_TEST_PG``, ``DRAGONLAIR_TEST_REDIS``), which
scripts/test.sh starts for the run. Without them these tests skip and say why; with
``DRAGONLAIR_REQUIRE_SERVICES=1`` (CI) a missing one fails instead. Each test gets a fresh
database of its own (created, then dropped) and may start a private redis-server (for a
restart) on a Unix socket."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HOW = "start them with `eval \"$(scripts/services.sh start)\"` or run scripts/test.sh"


def required() -> bool:
    return os.environ.get("DRAGONLAIR_REQUIRE_SERVICES") == "1"


def service_url(var: str, what: str) -> str:
    url = os.environ.get(var)
    if not url:
        message = f"{what} not available ({var} is not set): {HOW}"
        if required():
            pytest.fail(message)
        pytest.skip(message)
    return url


@contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the server of ``admin_url``; dropped after."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from dragonlair.server.db import database_url

    admin = create_engine(database_url(admin_url), isolation_level="AUTOCOMMIT")
    name = f"t_{uuid.uuid4().hex[:16]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(database_url(admin_url)).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class RedisProcess:
    """A private redis-server (no persistence) that a test may stop and start again at the
    same address: a Unix socket, not a TCP port. redis-server cannot bind port 0 and report
    the port it got (``--port 0`` turns TCP off), and a port found free beforehand may be
    taken by another process before redis binds it; a socket file in a folder of our own
    cannot be."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            message = f"redis-server not installed (Debian: apt-get install redis-server): {HOW}"
            if required():
                pytest.fail(message)
            pytest.skip(message)
        self.binary = binary
        self.folder = folder
        # a short path of its own: a Unix socket's path may not exceed 107 bytes, and
        # pytest's temporary folders can be longer
        sockets = tempfile.mkdtemp(prefix="dragonlair-redis-")
        weakref.finalize(self, shutil.rmtree, sockets, True)
        self.socket = Path(sockets) / "redis.sock"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}?db=0"

    def start(self) -> RedisProcess:
        self.proc = subprocess.Popen(
            [self.binary, "--port", "0", "--unixsocket", str(self.socket),
             "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.settimeout(0.5)
                    s.connect(str(self.socket))
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None
