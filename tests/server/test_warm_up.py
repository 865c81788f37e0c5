"""Start-up work (a plugin's ``warm_up``, issue 24): a server builds the Farkle optimal bot's
tables in a bot thread when it starts, so that no first decision waits for them; a failure
is logged and changes nothing else."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import httpx
import pytest

from dragonlair.core import plugin as core_plugin
from dragonlair.games import plugin
from dragonlair.games.farkle import bots as farkle_bots
from dragonlair.server.app import warm_ups
from tests.server.helpers import ServerThread


def test_every_warm_up_names_a_function() -> None:
    named = [g for g in ("fist", "master", "farkle") if plugin(g).warm_up]
    assert named == ["farkle"]
    assert callable(core_plugin.load_path(plugin("farkle").warm_up or ""))


def test_a_server_builds_the_farkle_tables_at_start(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    farkle_bots.race_for.cache_clear()  # as in a new process (the files on disk stay)
    caplog.set_level(logging.INFO, logger="dragonlair.server")
    srv = ServerThread(tmp_path, warm_up=True).start()
    try:
        deadline = time.monotonic() + 120
        while farkle_bots.race_for.cache_info().currsize == 0:
            assert time.monotonic() < deadline, "the race table was never built"
            time.sleep(0.05)
        while not any("farkle warmed up" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "no line says the warm-up ended"
            time.sleep(0.05)
        assert httpx.get(f"{srv.base}/api/games", timeout=10).status_code == 200
    finally:
        srv.stop()


def test_a_failing_warm_up_is_logged_and_stops_nothing(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(path: str) -> object:
        def fail() -> None:
            raise RuntimeError("no tables today")
        return fail

    monkeypatch.setattr(core_plugin, "load_path", broken)
    caplog.set_level(logging.INFO, logger="dragonlair.server")
    jobs = warm_ups()
    assert len(jobs) == 1
    jobs[0]()  # no exception
    assert any("start-up work of farkle" in r.getMessage() and r.exc_info
               for r in caplog.records)
