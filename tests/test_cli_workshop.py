"""``dragonlair play fist --custom workshop:ID --server URL`` (dragonlair/server/workshop/
fetch.py): the entry is fetched from the server (its newest version, or ``@N``) and played
locally; a bad reference, a missing ``--server``, an unknown entry or an unreachable server
is one line and exit code 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from dragonlair.cli.main import app

runner = CliRunner()
BOTS = ["--seat", "greedy", "--seat", "greedy", "--seat", "greedy", "--max-turns", "2"]
MISER = {"id": "miser", "count": 1, "name": {"en": "Miser"}, "power": [{"gain": {"common": 1}}]}


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """A fake server: entry 7 (fist, version 2 the newest), nothing else."""
    calls: list[tuple[str, Any]] = []

    def get(url: str, params: Any = None, timeout: float = 0) -> httpx.Response:
        calls.append((url, params))
        if url.startswith("http://down"):
            raise httpx.ConnectError("refused")
        if not url.endswith("/api/workshop/entries/7"):
            return httpx.Response(404, json={"code": "server.workshop.not_found",
                                             "params": {"entry": int(url.rsplit("/", 1)[1])},
                                             "rule": None})
        name = "Miser v1" if params == {"version": 1} else "Miser"
        return httpx.Response(200, json={"id": 7, "game": "fist", "version": 2, "content": {
            "custom": [{**MISER, "name": {"en": name}}]}})

    monkeypatch.setattr(httpx, "get", get)
    return calls


def test_an_entry_is_fetched_and_played_locally(asked: list[tuple[str, Any]],
                                                tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = invoke("play", "fist", "--custom", "workshop:7@1", "--server",
                       "http://example.test/", "--seed", "4", *BOTS, "--save", str(save))
    assert code == 0, out[-2000:]
    assert asked == [("http://example.test/api/workshop/entries/7", {"version": 1})]
    record = json.loads(save.read_text())
    assert [c["name"]["en"] for c in record["options"]["custom"]] == ["Miser v1"]


@pytest.mark.parametrize(("args", "words"), [
    (["--custom", "workshop:abc", "--server", "http://example.test"], "workshop:ID@VERSION"),
    (["--custom", "workshop:7"], "needs --server"),
    (["--custom", "workshop:8", "--server", "http://example.test"], "no workshop entry 8"),
    (["--custom", "workshop:7", "--server", "http://down.test"], "cannot fetch the entry"),
])
def test_bad_references_and_servers_are_one_line(asked: list[tuple[str, Any]],
                                                 args: list[str], words: str) -> None:
    code, out = invoke("play", "fist", *args, *BOTS)
    assert code == 2, out
    assert words in out and "Traceback" not in out
