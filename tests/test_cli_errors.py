"""A user's mistake is one line, never a traceback (issue 25, "The terminal, too"): each
command below ended in a traceback before; now it says what is wrong in one ``error:``
line, exit 2 for a usage error and 1 for a failure."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from typer.testing import CliRunner

from dragonlair.cli.main import app

runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input, prog_name="dragonlair")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def one_error_line(out: str) -> str:
    """The output's one line, which must be an ``error:`` line (no traceback)."""
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(("error: ", "Fehler: ")), out
    assert "Traceback" not in out
    return lines[0]


# ---------------------------------------------------------------- play --server
def test_play_at_an_unreachable_server_fails_in_one_line() -> None:
    """Nothing listens on port 1: a failure (exit 1), naming the server and the cause."""
    code, out = invoke("play", "fist", "--server", "http://127.0.0.1:1")
    line = one_error_line(out)
    assert code == 1
    assert "cannot reach the game server at http://127.0.0.1:1" in line
    code, out = invoke("play", "master", "--server", "http://127.0.0.1:1", "--lang", "de")
    assert code == 1 and "nicht erreichbar" in one_error_line(out)


@pytest.mark.parametrize("url", ["notaurl", "ftp://127.0.0.1:8000", "http://",
                                 "http://127.0.0.1:99999", "http://127.0.0.1:port"])
def test_play_with_a_server_that_is_no_address_is_a_usage_error(url: str) -> None:
    code, out = invoke("play", "fist", "--server", url)
    assert code == 2
    assert f"not a server address: {url}" in one_error_line(out)


def test_play_online_without_the_server_extra_says_which_extra(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without httpx and websockets (the ``server`` extra) the online client cannot be
    imported: the command names the extra to install."""
    monkeypatch.setitem(sys.modules, "dragonlair.cli.online", None)
    code, out = invoke("play", "farkle", "--server", "http://127.0.0.1:1")
    assert code == 2
    assert "pip install 'dragonlair[server]'" in one_error_line(out)


# ---------------------------------------------------------------- db, serve
def test_db_upgrade_of_a_url_that_is_none() -> None:
    pytest.importorskip("sqlalchemy")
    code, out = invoke("db", "upgrade", "--db", "notaurl")
    assert code == 2 and "not a database URL: notaurl" in one_error_line(out)


def test_db_check_of_a_database_without_its_driver() -> None:
    pytest.importorskip("sqlalchemy")
    code, out = invoke("db", "check", "--db", "mysql://x")
    line = one_error_line(out)
    assert code == 2 and "cannot use the database mysql://x" in line
    assert "postgresql://" in line  # what it can use


def test_serve_with_a_data_folder_it_cannot_make(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for data in ("/proc/nope", str(blocker / "below")):
        code, out = invoke("serve", "--data", data)
        assert code == 2 and f"cannot use the data folder {data}" in one_error_line(out)
    code, out = invoke("db", "upgrade", "--data", "/proc/nope")
    assert code == 2 and "cannot use the data folder /proc/nope" in one_error_line(out)


def test_serve_and_bench_refuse_a_bad_gc_setting(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """DRAGONLAIR_GC (docs/server.md, "Performance"): three thresholds or ``default``;
    anything else is one line, exit 2, and no server started (no data folder made)."""
    pytest.importorskip("fastapi")
    import gc

    from dragonlair.server.app import GC_THRESHOLDS, gc_thresholds

    before = gc.get_threshold()
    for bad in ("abc", "1,2", "0,10,10", "5,5,5,5", "-1,2,3"):
        monkeypatch.setenv("DRAGONLAIR_GC", bad)
        data = tmp_path / "data"
        for args in (("serve", "--data", str(data)), ("bench", "--server", "--no-ramp")):
            code, out = invoke(*args)
            line = one_error_line(out)
            assert code == 2 and "DRAGONLAIR_GC" in line and repr(bad) in line, out
        assert not data.exists()
    monkeypatch.setenv("DRAGONLAIR_GC", " 700, 10 ,10 ")
    assert gc_thresholds() == (700, 10, 10)
    monkeypatch.setenv("DRAGONLAIR_GC", "default")
    assert gc_thresholds() is None
    monkeypatch.delenv("DRAGONLAIR_GC")
    assert gc_thresholds() == GC_THRESHOLDS
    assert gc.get_threshold() == before  # asking changes nothing


def test_db_check_of_a_missing_sqlite_file_says_so_and_creates_nothing(tmp_path: Path) -> None:
    pytest.importorskip("sqlalchemy")
    for target in (tmp_path / "missing.db", tmp_path / "nope" / "missing.db"):
        code, out = invoke("db", "check", "--db", f"sqlite:///{target}")
        assert code == 2
        assert f"no database at sqlite:///{target}" in one_error_line(out)
        assert "nothing was created" in out
    code, out = invoke("db", "check", "--data", str(tmp_path / "data"))
    assert code == 2 and "no database at" in one_error_line(out)
    assert list(tmp_path.iterdir()) == []  # no file, no folder
    code, out = invoke("db", "upgrade", "--db", f"sqlite:///{tmp_path / 'made.db'}")
    assert code == 0, out
    code, out = invoke("db", "check", "--db", f"sqlite:///{tmp_path / 'made.db'}")
    assert code == 0 and "the newest; no migration pending" in out, out


# ---------------------------------------------------------------- one convention
def test_version_and_short_help() -> None:
    from importlib.metadata import version

    code, out = invoke("--version")
    assert code == 0 and out.strip() == f"dragonlair {version('dragonlair')}"
    code, out = invoke("-h")
    assert code == 0 and "Usage: dragonlair" in out and "--install-completion" in out
    for args in (["play", "-h"], ["db", "check", "-h"], ["i18n", "-h"]):
        code, out = invoke(*args)
        assert code == 0 and f"Usage: dragonlair {' '.join(args[:-1])}" in out


@pytest.mark.parametrize("game", ["fist", "master", "farkle"])
def test_quit_is_no_failure_and_the_input_running_out_is(game: str) -> None:
    seats = ["--seat", "human", "--seat", "random"] + (["--seat", "random"] if game == "fist"
                                                        else [])
    code, out = invoke("play", game, "--seed", "2", *seats, input="quit\n")
    assert code == 0 and "Game abandoned" in out
    code, out = invoke("play", game, "--seed", "2", *seats, input="")
    assert code == 1 and "Game abandoned" in out


def test_a_usage_error_says_error_and_exits_2() -> None:
    code, out = invoke("play", "chess")
    assert code == 2 and one_error_line(out).startswith("error: ")
    code, out = invoke("play", "fist", "--lang", "xx")
    assert code == 2 and one_error_line(out).startswith("error: ")


# ---------------------------------------------------------------- sessions per server, name
class FakeClient:
    """A server's accounts, without the server: a session token per guest."""

    guests: ClassVar[dict[str, str]] = {}

    def __init__(self, url: str, *, session: str | None = None) -> None:
        self.url, self.session = url, session
        self.user: dict[str, str] | None = None
        self.http = self

    def me(self) -> dict[str, str]:
        from dragonlair.client import Refused

        if self.session not in self.guests:
            raise Refused("server.auth.required")
        user = {"id": self.session, "display_name": self.guests[self.session]}
        self.user = user
        return user

    def rename(self, name: str) -> None:
        assert self.session is not None
        self.guests[self.session] = name

    def guest(self, name: str | None, *, lang: str | None = None) -> None:
        self.session = f"s{len(self.guests)}"
        self.guests[self.session] = name or "guest"
        self.user = {"id": self.session, "display_name": self.guests[self.session]}

    @property
    def cookies(self) -> FakeClient:
        return self

    def clear(self) -> None:
        self.session = None


def test_two_terminals_under_two_names_are_two_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dragonlair.cli.online as online

    monkeypatch.setenv("DRAGONLAIR_DATA", str(tmp_path))
    monkeypatch.setattr(online, "Client", FakeClient)
    monkeypatch.setattr(FakeClient, "guests", {})
    server = "http://127.0.0.1:8000"
    unnamed = online.sign_in(server, None)
    ann = online.sign_in(server, "Ann")  # takes over the session kept without a name
    bob = online.sign_in(server + "/", "Bob")
    assert ann.session == unnamed.session and bob.session != ann.session
    assert online.sign_in(server, "Ann").session == ann.session  # each comes back as itself
    assert online.sign_in(server, "Bob").session == bob.session
    assert online.sign_in("http://127.0.0.1:8001", "Ann").session not in (ann.session,
                                                                         bob.session)
    kept = json.loads((tmp_path / "client-sessions.json").read_text())
    assert kept == {f"{server} name=Ann": ann.session, f"{server} name=Bob": bob.session,
                    "http://127.0.0.1:8001 name=Ann": kept["http://127.0.0.1:8001 name=Ann"]}


# ---------------------------------------------------------------- a bot thinking
def test_a_bot_thinks_under_a_spinner_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import time

    from rich.console import Console

    import dragonlair.cli.session as session_module
    from dragonlair.cli.session import make_bots
    from dragonlair.games import make_game
    from dragonlair.games.master.terminal.play import MasterSession

    def slow(*_args: object) -> str:
        time.sleep(0.3)
        return "chosen"

    monkeypatch.setattr(session_module, "ask_bot", slow)
    kinds = ["human", "random"]
    for terminal in (True, False):
        out = io.StringIO()
        console = Console(file=out, force_terminal=terminal, width=80)
        session = MasterSession(make_game("master", {}), kinds, make_bots("master", kinds, 1),
                                1, "en", console, None)
        assert session.bot_move(1) == "chosen"
        assert ("random is thinking" in out.getvalue()) is terminal  # no spinner in a pipe


# ---------------------------------------------------------------- Ctrl-C in a long run
@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_ctrl_c_in_a_run_of_games_says_what_was_kept(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after two games: no traceback, how many games were finished and where their
    records are, exit 130."""
    import dragonlair.simulate as simulate_module
    import dragonlair.tournament as tournament_module

    module: object = simulate_module if command == "simulate" else tournament_module
    name = "simulate" if command == "simulate" else "run_tournament"

    def two_then_ctrl_c(*_args: object, on_game: object = None, **_kw: object) -> None:
        assert callable(on_game)
        on_game(0)
        on_game(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(module, name, two_then_ctrl_c)
    bots = ["--bots", "random,random"] if command == "tournament" else []
    code, out = invoke(command, "master", *bots, "--games", "10", "--save-dir", str(tmp_path))
    assert code == 130 and "Traceback" not in out
    assert f"2 of 10 games finished; their records are kept in {tmp_path}" in " ".join(
        out.split())
    code, out = invoke(command, "master", *bots, "--games", "10")
    assert code == 130 and "2 of 10 games finished; nothing was kept" in out


def test_the_command_itself_words_a_usage_error_as_error_and_exits_2() -> None:
    """Click's own refusals (an option missing or malformed, no such command) through the
    installed entry point: one ``error:`` line and a pointer to ``-h``, exit 2."""
    import subprocess

    code = ("import sys; sys.argv = ['dragonlair', 'play', 'fist', '--players', 'x']; "
            "from dragonlair.cli.main import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={"COLUMNS": "200", "PATH": ""})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("error: Invalid value for '--players'"), lines
    assert lines[1] == "Try 'dragonlair play -h' for help." and "Traceback" not in done.stderr
