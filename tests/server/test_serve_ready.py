"""`dragonlair serve` says where to open the client once it is ready (cli.serve_ready), and
that address serves the client's page (issue 14: the README's first command starts the
server and a browser at the printed address can play)."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from dragonlair.web import DIST, NOT_BUILT, is_built

READY = re.compile(r"Dragonlair is running: open (http://127\.0\.0\.1:(\d+)/) in a browser")


@pytest.mark.slow
def test_serve_prints_the_address_once_ready_and_it_serves_the_client(tmp_path: Path) -> None:
    """``--port 0``: the system chooses a free port, and the ready line names it."""
    exe = Path(sys.executable).with_name("dragonlair")
    env = {**os.environ, "COLUMNS": "300", "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [str(exe), "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    try:
        seen: list[str] = []
        match = None
        while match is None:
            try:
                line = lines.get(timeout=60)
            except queue.Empty:
                raise AssertionError(f"no ready line within 60 s; printed: {seen}") from None
            seen.append(line)
            match = READY.search(line)
        address, printed_port = match.group(1), int(match.group(2))
        assert printed_port > 0
        # printed once ready: the first request already succeeds
        with urllib.request.urlopen(address, timeout=10) as answer:
            assert answer.status == 200
            assert answer.headers.get_content_type() == "text/html"
            page = answer.read().decode("utf-8")
        if is_built():
            assert page == (DIST / "index.html").read_text("utf-8")
            assert '<div id="app">' in page
        else:
            assert page == NOT_BUILT
        assert sum(bool(READY.search(x)) for x in seen) == 1
    finally:
        proc.terminate()
        proc.wait(timeout=20)
