"""dragonlair.client against a real server (uvicorn on 127.0.0.1), and the terminal as a
client: ``dragonlair play GAME --server URL`` plays whole games with its screens, fed by the
server's views, its input scripted (a stdin that types a legal move whenever asked)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonlair.cli.main import app
from dragonlair.cli.session import shown_action
from dragonlair.client import Client, Refused, TableConnection, legal_texts
from dragonlair.core.records import Record, replay
from tests.server.helpers import ServerThread
from tests.sizes import quick_first


def guest(server: ServerThread, name: str) -> Client:
    client = Client(server.base)
    client.guest(name)
    return client


def fresh_events(client: Client, table_id: str) -> list[dict[str, Any]]:
    """The events a new connection's welcome brings (the truth to compare with)."""
    with client.connect(table_id) as other:
        return list(other.events)


def play_out(conn: TableConnection, rng: random.Random, *, timeout: float = 120) -> int:
    """Random legal moves read from the view's legal description, to the end."""
    deadline = time.monotonic() + timeout
    moves = 0
    while not conn.finished:
        assert time.monotonic() < deadline, "the game did not end"
        if conn.my_turn():
            conn.act(rng.choice(legal_texts(conn.view)))
            moves += 1
        else:
            conn.recv(1.0)
    return moves


def drop_server_side(server: ServerThread, table_id: str) -> None:
    """The server drops every socket of a table (as it drops a viewer that fell behind)."""
    runtime = server.runtime(table_id)
    for viewer in list(runtime.viewers):
        loop = viewer.queue._loop  # type: ignore[attr-defined]  # the server's event loop
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(5)
        loop.call_soon_threadsafe(viewer.close)


# ---------------------------------------------------------------- the client
def test_client_plays_a_game_refusals_change_nothing_and_keys_apply_once(
        server: ServerThread) -> None:
    ann = guest(server, "Ann")
    table = ann.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    ann.start(table["id"])
    conn = ann.connect(table["id"])
    assert conn.seat == 0 and conn.view is not None and conn.view["seat"] == 0
    assert conn.wait(lambda c: c.my_turn() or c.finished, 30)
    seq = conn.seq
    card = legal_texts(conn.view)[0].split()[1]  # a card in Ann's hand, on a cell no rule allows
    with pytest.raises(Refused) as exc:  # the engine's refusal, its code and params (M3)
        conn.act(f"place {card} a1")
    assert exc.value.code.startswith("master.") and conn.seq == seq
    assert "a1" in exc.value.message("en") and "a1" in exc.value.message("de")
    move = legal_texts(conn.view)[0]
    after = conn.act(move, key="first-move")
    assert after == seq + 1 and conn.seq >= after  # the update came after the ack
    again = conn.act(move, key="first-move")  # the same key: applied once, same answer
    assert again == after
    assert [a for s, a in server.runtime(table["id"]).log if s == 0] == [move]
    play_out(conn, random.Random(2))
    assert conn.view is not None and conn.view["result"] is not None
    assert conn.events == fresh_events(ann, table["id"])
    _, state = replay(Record.from_json(ann.record(table["id"])))
    assert state.is_terminal()
    conn.close()


def test_a_dropped_socket_is_reopened_and_resumed(server: ServerThread) -> None:
    bob = guest(server, "Bob")
    table = bob.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    bob.start(table["id"])
    conn = bob.connect(table["id"])
    rng = random.Random(5)
    moves = 0
    while not conn.finished:
        if conn.my_turn():
            conn.act(rng.choice(legal_texts(conn.view)))
            moves += 1
            if moves in (2, 5):
                drop_server_side(server, table["id"])  # the next read finds it closed
        else:
            conn.recv(1.0)
    assert conn.drops >= 2
    assert conn.events == fresh_events(bob, table["id"])  # nothing missed, nothing twice
    conn.close()


def test_an_action_whose_answer_was_lost_is_sent_again_and_applied_once(
        server: ServerThread) -> None:
    cy = guest(server, "Cy")
    table = cy.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    cy.start(table["id"])
    conn = cy.connect(table["id"])
    assert conn.wait(lambda c: c.my_turn(), 30)
    move = legal_texts(conn.view)[0]
    conn.send({"type": "act", "action": move, "seq": conn.seq, "key": "lost-answer"})
    assert conn.ws is not None
    conn.ws.close()  # the answer never arrives here
    conn.ws = None
    after = conn.act(move, key="lost-answer")
    mine = [a for s, a in server.runtime(table["id"]).log if s == conn.seat]
    assert mine == [move] and after >= 1
    conn.close()


def test_a_spectator_follows_and_cannot_act(server: ServerThread) -> None:
    dee, eve = guest(server, "Dee"), guest(server, "Eve")
    table = dee.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    dee.start(table["id"])
    watcher = eve.connect(table["id"])
    assert watcher.seat is None and watcher.view is not None
    assert watcher.view["private"] is None and not watcher.my_turn()
    with pytest.raises(Refused) as exc:
        watcher.act("place ruby d4")
    assert exc.value.code == "server.act.not_seated"
    with dee.connect(table["id"]) as player:
        play_out(player, random.Random(3))
    assert watcher.wait(lambda c: c.finished, 30)
    assert watcher.events == fresh_events(eve, table["id"])
    watcher.close()


def test_lobby_refusals_are_raised_with_their_code(server: ServerThread) -> None:
    anon = Client(server.base)
    with pytest.raises(Refused) as exc:
        anon.create_table("master")
    assert exc.value.code == "server.auth.required" and exc.value.status == 401
    with pytest.raises(Refused) as exc:
        anon.table("no-such-table")
    assert exc.value.code == "server.table.not_found" and exc.value.status == 404
    assert exc.value.params == {"table": "no-such-table"}
    assert exc.value.message("de") != exc.value.message("en") != exc.value.code


# ---------------------------------------------------------------- the terminal
class TypingOracle:
    """A stdin that types, whenever the terminal asks, a legal move of the terminal's seat
    at its table as the terminal shows moves (a seat counted from 1: ``skirmish 2`` for the
    engine's ``skirmish p1``; the test knows the move from the server: the oracle of
    legality; the terminal must parse it, send it and draw what comes back). ``script``
    lines are typed first; ``on_line`` is called before each line (to drop a socket
    mid-game). ``conns``: the terminal's table connections (filled by the ``terminal``
    fixture)."""

    def __init__(self, server: ServerThread, script: list[str] | None = None,
                 on_line: Any = None) -> None:
        self.server = server
        self.script = list(script or [])
        self.rng = random.Random(7)
        self.on_line = on_line
        self.lines = 0
        self.conns: list[TableConnection] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        self.lines += 1
        if self.on_line is not None:
            self.on_line(self.lines)
        if self.script:
            return self.script.pop(0) + "\n"
        deadline = time.monotonic() + 10
        while self.conns and time.monotonic() < deadline:
            conn = self.conns[-1]
            runtime = self.server.runtime(conn.table_id)
            state = runtime.state
            if runtime.status != "running" or state.is_terminal():
                return "\n"  # the end: Enter leaves the final prompt
            if conn.seat in state.current_seats():
                action = str(self.rng.choice(list(state.legal_actions(conn.seat))))
                return shown_action(action) + "\n"  # as the terminal shows it: seats from 1
            time.sleep(0.02)
        return "\n"


@pytest.fixture
def terminal(server: ServerThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> Iterator[Any]:
    monkeypatch.setenv("DRAGONLAIR_DATA", str(tmp_path))  # the kept session cookie goes here
    original = TableConnection.open

    def run(args: list[str], oracle: TypingOracle) -> tuple[int, str]:
        def spy(self: TableConnection) -> Any:
            if self not in oracle.conns:
                oracle.conns.append(self)
            return original(self)

        monkeypatch.setattr(TableConnection, "open", spy)
        monkeypatch.setattr(sys, "stdin", oracle)
        code = app(["play", *args, "--server", server.base], standalone_mode=False)
        return int(code or 0), capsys.readouterr().out

    yield run


def finished_tables(server: ServerThread) -> list[str]:
    return [t for t, r in server.hub.tables.items() if r.status == "finished"]


@pytest.mark.parametrize(("game", "args", "bad"), quick_first(1, [
    ("farkle", ["--seat", "human", "--seat", "random", "--max-turns", "4"], "battle"),
    ("master", [], "place ruby a1"),
    ("fist", ["--players", "3", "--seat", "human", "--seat", "random", "--seat", "random",
              "--max-turns", "2"], "bid f99 c0"),
]))
def test_play_server_plays_a_whole_game_in_the_terminal(
        server: ServerThread, terminal: Any, game: str, args: list[str], bad: str) -> None:
    before = set(finished_tables(server))
    oracle = TypingOracle(server, script=["help", "log", bad])
    code, out = terminal([game, *args, "--lang", "de", "--name", "Tess"], oracle)
    assert code == 0, out[-3000:]
    done = [t for t in finished_tables(server) if t not in before]
    assert len(done) == 1
    runtime = server.runtime(done[0])
    assert runtime.seats[0].kind == "human" and runtime.seats[0].name == "Tess"
    assert any(s == 0 for s, _ in runtime.log)  # the terminal's moves are in the log
    typed = out.index(f"> {bad}\n")  # typed, sent, refused by the server's engine, and its
    assert "Versuch es nochmal" in " ".join(out[typed:typed + 800].split())  # reason in German
    assert "Spielende" in out  # the end screen, drawn from the final view
    assert "Tess" in out and not re.search(r"\bp\d\b", out)  # seats by name, never p0
    _, state = replay(Record.from_json(guest(server, "Rex").record(done[0])))
    assert state.is_terminal()


def test_play_server_reconnects_and_joins_by_table_id(
        server: ServerThread, terminal: Any, tmp_path: Path) -> None:
    host = guest(server, "Host")
    table = host.create_table("master", seats=[{"kind": "open"},
                                               {"kind": "bot", "bot": "random"}])
    def drop(line: int) -> None:
        conns = oracle.conns
        if line in (3, 6) and conns and conns[-1].ws is not None:
            conns[-1].ws.close()  # the socket drops under the terminal mid-game

    oracle = TypingOracle(server, on_line=drop)
    code, out = terminal(["master", "--table", table["id"], "--lang", "de"], oracle)
    assert code == 0, out[-3000:]
    assert "wieder verbunden" in out
    final = host.table(table["id"])
    assert final["status"] == "finished" and final["seats"][0]["kind"] == "human"
    kept = json.loads((tmp_path / "client-sessions.json").read_text())
    assert list(kept) == [server.base]  # the same player comes back with --table


def test_play_server_watches_a_table_without_a_seat_for_it(
        server: ServerThread, terminal: Any) -> None:
    host = guest(server, "Host")
    table = host.create_table("master", seats=[{"kind": "bot", "bot": "random"},
                                               {"kind": "bot", "bot": "random"}])
    host.start(table["id"])
    oracle = TypingOracle(server)
    code, out = terminal(["master", "--table", table["id"]], oracle)
    assert code == 0, out[-3000:]
    assert "you are watching" in out and "Game over" in out
    assert oracle.conns and oracle.conns[-1].seat is None and oracle.lines == 0


def test_play_server_leaves_and_comes_back_to_its_seat_with_table(
        server: ServerThread, terminal: Any) -> None:
    first = TypingOracle(server, script=["quit"])
    code, out = terminal(["master", "--seat", "human", "--seat", "random"], first)
    assert code == 0 and "You left the table" in out  # quit is not a failure
    table_id = first.conns[-1].table_id
    assert server.runtime(table_id).status == "running"
    again = TypingOracle(server)  # a new process: the kept session cookie, the same player
    code, out = terminal(["master", "--table", table_id], again)
    assert code == 0, out[-3000:]
    assert again.conns[-1].seat == 0 and f"You play seat 1 at table {table_id}." in out
    assert server.runtime(table_id).status == "finished"


def test_the_client_keeps_the_clock_and_counts_it_down(server: ServerThread) -> None:
    fay = guest(server, "Fay")
    table = fay.create_table("master", seats=[{"kind": "me"}, {"kind": "bot", "bot": "random"}],
                             clock={"kind": "realtime", "initial": 600, "increment": 5,
                                    "maximum": 900})
    fay.start(table["id"])
    with fay.connect(table["id"]) as conn:
        assert conn.wait(lambda c: c.my_turn(), 30)
        assert conn.clock is not None and conn.clock["kind"] == "realtime"
        left = conn.time_left()
        assert left is not None and 0 < left <= 600
        other = conn.time_left(1)  # not running: what it was when its move ended
        assert other is not None and 0 < other <= 605
