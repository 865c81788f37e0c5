"""Crash safety: ``dragonlair serve`` (a process of its own on 127.0.0.1, a SQLite file) is
killed with SIGKILL at random moments while clients play several tables, and started again on
the same database, over and over (forked from tests/server/zygote.py: a start is a fraction
of a second).

After every restart: every action a client got an ``ack`` for is in the log at the position
the ack named (commit before ack), the log of every table is ``0..n-1`` with no gap, and the
clients reconnect (``hello``), ``resume`` from the last event they held, and resend the action
they were waiting on with the same idempotency key (``ack`` if it was lost, ``server.act.
duplicate_key`` naming its position if it was committed). Every game goes on to the end (bots
and chance resumed by the new process) and its record replays.

Clients choose their moves from the views they receive (``legal``), as a real client does.
The randomness is seeded; the seed is printed (``DRAGONLAIR_CRASH_SEED`` repeats a run).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from dragonlair.core.records import Record, parse_entry, replay
from dragonlair.server.accounts import COOKIE
from tests.server.helpers import serve_ready_port
from tests.server.zygote import Forked, spawn
from tests.sizes import seconds, size

JSON = dict[str, Any]

#: what a dead server looks like to a client
DOWN = (OSError, WebSocketException, httpx.HTTPError, TimeoutError, EOFError)


class Down(Exception):
    """The server went away while a client was talking to it."""


def dragonlair_command() -> list[str]:
    script = Path(sys.executable).with_name("dragonlair")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from dragonlair.cli.main import main; main()"]


class ServerProcess:
    """``dragonlair serve`` in a process of its own (forked from tests/server/zygote.py, the
    server imported once: a start costs no new interpreter); :meth:`kill` is SIGKILL."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = 0  # the first start binds port 0; a restart takes the same port again
        self.proc: Forked | subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0
        self.lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db(self) -> Path:
        return self.data / "dragonlair.db"

    def start(self) -> None:
        path = self.data / f"server-{self.starts}.log"
        self.proc = spawn(["serve", "--host", "127.0.0.1", "--port", str(self.port), "--data",
                           str(self.data)], path, {**os.environ, "COLUMNS": "300"},
                          dragonlair_command())
        self.starts += 1
        port = serve_ready_port(self.proc, path)
        assert self.port in (0, port), (self.port, port)
        self.port = port

    def kill(self) -> None:
        with self.lock:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
                self.kills += 1

    def wait_dead(self, timeout: float) -> bool:
        assert self.proc is not None
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_ids = itertools.count()


@dataclass
class Player:
    """A person at one table: a guest session, a WebSocket, what it has been told."""

    http: httpx.Client
    seat: int
    ws: ClientConnection | None = None
    seq: int = 0
    view: JSON | None = None
    status: str = "running"
    #: the action sent and not yet answered: (text, idempotency key, seq seen)
    pending: tuple[str, str, int] | None = None
    #: log position -> action text, for every action acknowledged (or found committed)
    acked: dict[int, str] = field(default_factory=dict)
    sent_at: float = 0.0

    def take(self, m: JSON) -> None:
        if m.get("type") in ("welcome", "update") and m["seq"] >= self.seq:
            self.seq, self.view = m["seq"], m["view"]
            self.status = m.get("status", m.get("table", {}).get("status", self.status))

    def recv(self, timeout: float) -> JSON | None:
        assert self.ws is not None
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except DOWN as exc:
            raise Down() from exc
        m: JSON = json.loads(text)
        self.take(m)
        return m

    def request(self, message: JSON, timeout: float = 15) -> JSON:
        rid = f"r{next(_ids)}"
        assert self.ws is not None
        # under the server's rate limit (20 messages a second per socket), as a person is
        pause = self.sent_at + 0.06 - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        self.sent_at = time.monotonic()
        try:
            self.ws.send(json.dumps({**message, "id": rid}))
        except DOWN as exc:
            raise Down() from exc
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = self.recv(max(0.0, deadline - time.monotonic()))
            if m is not None and m.get("re") == rid:
                return m
        raise Down()  # a live server answers at once: it is gone (or stuck: the log says)

    def connect(self, base: str, table_id: str) -> None:
        token = self.http.cookies.get(COOKIE)
        try:
            self.ws = connect(f"{base.replace('http', 'ws')}/ws/tables/{table_id}",
                              additional_headers={"Cookie": f"{COOKIE}={token}"},
                              max_size=1 << 22, open_timeout=5).__enter__()
        except DOWN as exc:
            raise Down() from exc
        held = (self.view or {}).get("events_total", 0)
        welcome = self.request({"type": "hello", "protocol": 1})
        assert welcome["type"] == "welcome" and welcome["seat"] == self.seat, welcome
        update = self.request({"type": "resume", "since": held})
        assert update["type"] == "update", update
        assert update["view"]["events_since"] == held
        assert update["seq"] >= welcome["seq"]

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(*DOWN):
                self.ws.close()
            self.ws = None

    def choose(self, rng: random.Random) -> str | None:
        """A random legal action from the latest view, if this seat is to move."""
        view = self.view
        if view is None or self.status != "running" or self.seat not in view["to_move"]:
            return None
        legal = view.get("legal")
        if not legal:
            return None
        if "actions" in legal:  # farkle
            return str(rng.choice(legal["actions"]))
        if legal.get("action") == "place":  # master
            return f"place {rng.choice(legal['cards'])} {rng.choice(legal['cells'])}"
        if legal["kind"] == "bid":  # fist
            bid = legal["bid"]
            return f"bid f{rng.randint(0, bid['fairy'])} c{rng.randint(0, bid['common'])}"
        if legal["kind"] == "silver":
            return f"silver {rng.randint(0, legal['silver']['silver'])}"
        return str(rng.choice(legal["choices"])["action"])


@dataclass
class Table:
    id: str
    game: str
    players: list[Player]


KINDS = [
    ("master", [{"kind": "me"}, {"kind": "open"}], {}),
    ("farkle", [{"kind": "me"}, {"kind": "bot", "bot": "random"}], {"max_turns": 4}),
    ("farkle", [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}],
     {"max_turns": 3}),
    ("fist", [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
     {"max_turns": 1}),
]


class Crash:
    """The run: tables, players, the killer, the checks."""

    def __init__(self, data: Path, seed: int, kills: int, tables: int) -> None:
        self.server = ServerProcess(data)
        self.rng = random.Random(seed)
        self.target_kills = kills
        self.n_tables = tables
        self.tables: list[Table] = []
        self.finished: list[str] = []
        self.timer: threading.Timer | None = None
        self.checks = 0
        self.actions_acked = 0
        self.duplicates = 0

    # ---------------------------------------------------------------- server life
    def arm(self) -> None:
        """Kill the server at a random moment of this life (while kills are due)."""
        if self.server.kills < self.target_kills:
            self.timer = threading.Timer(self.rng.uniform(0.05, 0.8), self.server.kill)
            self.timer.daemon = True
            self.timer.start()

    def recover(self) -> None:
        """The server is (being) killed: wait for it to die, check the log, start it again,
        reconnect everyone and resend what was pending."""
        while True:
            for t in self.tables:
                for p in t.players:
                    p.close()
            dead = self.server.wait_dead(15)
            assert dead, "a client lost the server, but the server was not killed"
            if self.timer is not None:
                self.timer.cancel()
            self.check_log()
            self.server.start()
            self.arm()
            try:
                for t in self.tables:
                    for p in t.players:
                        p.connect(self.server.base, t.id)
                        self.resend(p)
                return
            except Down:
                continue  # killed again while reconnecting

    def resend(self, p: Player) -> None:
        """The action a player was waiting on, again with the same key."""
        if p.pending is None:
            return
        text, key, seen = p.pending
        answer = p.request({"type": "act", "action": text, "seq": seen, "key": key})
        self.answered(p, answer)

    def answered(self, p: Player, answer: JSON) -> None:
        assert p.pending is not None
        text = p.pending[0]
        if answer["type"] == "ack":
            p.acked[answer["seq"] - 1] = text
            self.actions_acked += 1
        elif answer["code"] == "server.act.duplicate_key":  # committed before the crash
            p.acked[answer["params"]["seq"] - 1] = text
            self.duplicates += 1
        else:
            # the position moved on before it was committed (never for a lone human's move)
            assert answer["code"] in ("server.act.stale", "server.act.not_running"), answer
        p.pending = None

    def check_log(self) -> None:
        """Every acknowledged action is in the log where its ack said; no gap in any log."""
        with sqlite3.connect(f"file:{self.server.db}?mode=ro", uri=True, timeout=30) as conn:
            for t in self.tables:
                rows = conn.execute("SELECT seq, seat, action FROM actions WHERE table_id=? "
                                    "ORDER BY seq", (t.id,)).fetchall()
                assert [r[0] for r in rows] == list(range(len(rows))), f"a gap in {t.id}"
                for p in t.players:
                    for seq, text in p.acked.items():
                        assert seq < len(rows), (t.id, seq, "acknowledged, not in the log")
                        assert (rows[seq][1], rows[seq][2]) == (p.seat, text), (t.id, seq)
                self.checks += 1

    # ------------------------------------------------------------------- tables
    def new_table(self) -> Table:
        while True:
            try:
                return self._new_table()
            except Down:
                self.recover()

    def _new_table(self) -> Table:
        game, seats, options = KINDS[len(self.tables + self.finished) % len(KINDS)]
        try:
            people = []
            for i, seat in enumerate(seats):
                if seat["kind"] in ("me", "open"):
                    http = httpx.Client(base_url=self.server.base, timeout=10)
                    r = http.post("/api/auth/guest", json={})
                    assert r.status_code == 200, r.text
                    people.append(Player(http, i))
            owner = people[0].http
            r = owner.post("/api/tables", json={"game": game, "options": options,
                                                "seats": seats})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            for p in people[1:]:
                r = p.http.post(f"/api/tables/{tid}/join", json={"seat": p.seat})
                assert r.status_code == 200, r.text
            r = owner.post(f"/api/tables/{tid}/start")
            assert r.status_code == 200, r.text
            table = Table(tid, game, people)
            for p in people:
                p.connect(self.server.base, tid)
        except DOWN as exc:  # a half-made table stays open (or unplayed): not ours
            raise Down() from exc
        self.tables.append(table)
        return table

    def finish(self, t: Table) -> None:
        """A finished table: its record replays and holds every acknowledged action."""
        while True:
            try:
                r = t.players[0].http.get(f"/api/tables/{t.id}/record")
                break
            except DOWN:
                self.recover()
        assert r.status_code == 200, r.text
        record = Record.from_json(r.json())
        _, state = replay(record)
        assert state.is_terminal()
        for p in t.players:
            for seq, text in p.acked.items():
                assert parse_entry(record.actions[seq], len(record.seats)) == (p.seat, text)
            p.close()
            p.http.close()
        self.tables.remove(t)
        self.finished.append(t.id)

    # --------------------------------------------------------------------- play
    def step(self) -> bool:
        """One pass over every player: read what came, act where it is one's move. Whether
        anybody acted."""
        acted = False
        for t in list(self.tables):
            for p in t.players:
                while p.recv(0.0) is not None:
                    pass
                text = p.choose(self.rng)
                if text is None:
                    continue
                key = f"k{next(_ids)}"
                p.pending = (text, key, p.seq)
                answer = p.request({"type": "act", "action": text, "seq": p.seq, "key": key})
                self.answered(p, answer)
                acted = True
            if all(p.status == "finished" for p in t.players):
                self.finish(t)
                if self.server.kills < self.target_kills:
                    self.new_table()
        return acted

    def describe(self) -> list[Any]:
        return [(t.id, t.game, [(p.seat, p.seq, p.status, (p.view or {}).get("to_move"),
                                 p.pending) for p in t.players]) for t in self.tables]

    def run(self, deadline: float) -> None:
        self.server.start()
        for _ in range(self.n_tables):
            self.new_table()
        # the first kill once the tables are there: a new server's first tables take longer
        # to make than a life may last, and kills before them would find nothing to lose
        self.arm()
        while self.tables:
            assert time.monotonic() < deadline, (
                f"out of time: {self.server.kills} kills, {len(self.finished)} games done; "
                f"stuck: {self.describe()}")
            try:
                if not self.step():
                    for t in self.tables:  # nobody to move: bots or chance; wait a little
                        t.players[0].recv(0.01)
            except Down:
                self.recover()
        self.server.stop()
        self.check_log()


def run_crash(tmp_path: Path, kills: int, tables: int, seconds: float) -> Crash:
    seed = int(os.environ.get("DRAGONLAIR_CRASH_SEED", str(random.randrange(10**6))))
    print(f"crash test: seed {seed} (DRAGONLAIR_CRASH_SEED={seed} repeats it)")
    crash = Crash(tmp_path, seed, kills, tables)
    t0 = time.monotonic()
    try:
        crash.run(t0 + seconds)
    finally:
        if crash.timer is not None:
            crash.timer.cancel()
        crash.server.stop()
    print(f"crash test: {crash.server.kills} kills, {crash.server.starts} starts, "
          f"{len(crash.finished)} games to the end, {crash.actions_acked} acks, "
          f"{crash.duplicates} resent actions found committed, {crash.checks} log checks, "
          f"{time.monotonic() - t0:.0f}s")
    assert crash.server.kills >= kills
    assert len(crash.finished) >= tables
    return crash


@pytest.mark.slow
def test_a_kill_loses_nothing(tmp_path: Path) -> None:
    """Quick tier: one kill over two tables (the slow run below: more kills over four
    tables)."""
    run_crash(tmp_path, kills=1, tables=2, seconds=120)


@pytest.mark.slow
def test_dozens_of_kills_lose_nothing(tmp_path: Path) -> None:
    """CI: 4 kills over four tables, each at a random moment of its server's life (each
    kill a fresh chance to lose an acked action); ``scripts/test.sh --long``: 100
    (tests/sizes.py). ``DRAGONLAIR_CRASH_KILLS`` and ``DRAGONLAIR_CRASH_SECONDS`` (the
    time it may take: CI 150, --long 900) choose others."""
    kills = int(os.environ.get("DRAGONLAIR_CRASH_KILLS") or size(ci=4, long=100))
    budget = float(os.environ.get("DRAGONLAIR_CRASH_SECONDS") or seconds(ci=150, long=900))
    run_crash(tmp_path, kills=kills, tables=4, seconds=budget)
