"""A real server (uvicorn on 127.0.0.1, on the port the system gives for port 0, in a
thread; SQLite in a temporary folder) and clients that speak to it as a browser would: httpx
for the lobby, a WebSocket per table, every received message kept for the leak checks."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import shutil
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from dragonlair.core.game import State
from dragonlair.core.records import Record, parse_entry
from dragonlair.games import make_game
from dragonlair.server import Settings, create_app
from dragonlair.server.accounts import COOKIE
from dragonlair.server.app import bound_port
from dragonlair.server.db import make_engine
from dragonlair.server.hub import Hub
from dragonlair.server.migrate import upgrade
from dragonlair.server.settings import Limits
from dragonlair.server.table.runtime import TableRuntime
from tests.server.zygote import Forked

JSON = dict[str, Any]


#: the test servers' limits: a socket may send as fast as a test plays (the clients wait for
#: each answer), so no test sleeps to stay under the rate; the tests of the rate limit itself
#: pass ``limits=Limits()`` (or their own)
TEST_LIMITS = Limits(messages_per_second=10_000.0, message_burst=10_000)

#: the test servers' argon2id cost (one pass over 8 KiB, the least argon2 allows): a hash
#: in microseconds, not the default's tens of milliseconds and 64 MiB (the same hashes and
#: checks, only cheaper); a server keeps the defaults (``Settings.argon2_cost``)
TEST_ARGON2 = (1, 8, 1)


@contextmanager
def one_tls_context() -> Iterator[None]:
    """Meanwhile, httpx clients made with the default TLS settings share one TLS context:
    each new ``httpx.Client`` otherwise loads certifi's CA bundle again (tens of milliseconds;
    these tests make hundreds of clients, the typed client's too). The test servers speak
    plain HTTP, so the context is never even used; any other choice (``verify=False``, a
    context of one's own, a certificate) is made as httpx makes it."""
    from httpx._transports import default

    original = getattr(default, "create_ssl_context", None)
    if original is None:  # another httpx: nothing shared, only slower
        yield
        return
    made: dict[bool, ssl.SSLContext] = {}

    def create(verify: Any = True, cert: Any = None, trust_env: bool = True) -> ssl.SSLContext:
        if verify is not True or cert is not None:
            context: ssl.SSLContext = original(verify=verify, cert=cert, trust_env=trust_env)
            return context
        if trust_env not in made:
            made[trust_env] = original(verify=True, cert=None, trust_env=trust_env)
        return made[trust_env]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(default, "create_ssl_context", create)
        yield


#: the line `dragonlair serve` prints once it listens (cli.serve_ready, always in English)
READY = re.compile(rb"Dragonlair is running: open http://127\.0\.0\.1:(\d+)/")


def serve_ready_port(proc: subprocess.Popen[bytes] | Forked, log: Path, start: int = 0,
                     timeout: float = 60) -> int:
    """The port a ``dragonlair serve --port 0`` subprocess chose, read from its ready line in
    ``log`` (its stdout) after byte ``start``: it listens once the line is there."""
    deadline = time.monotonic() + timeout
    while True:
        with log.open("rb") as f:
            f.seek(start)
            match = READY.search(f.read())
        if match:
            return int(match.group(1))
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}); see {log}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start; see {log}")
        time.sleep(0.03)


_template: list[Path] = []


def migrated_copy(db: Path) -> None:
    """A new test server's SQLite file starts as a copy of an empty database this process
    migrated once (Alembic's upgrade of every script costs a fifth of a CPU-second a server):
    the server finds it at the newest revision. ``ServerThread(migrated=False)`` starts from
    nothing, as a new host does (tests/server/test_accounts_lobby.py); the migrations
    themselves are tested in tests/server_multi/test_migrations.py."""
    if db.exists():
        return
    if not _template:
        folder = Path(tempfile.mkdtemp(prefix="dragonlair-migrated-"))
        engine = make_engine(f"sqlite:///{folder / 'dragonlair.db'}")
        upgrade(engine)
        with engine.connect() as conn:  # everything in the main file, nothing in the WAL
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.dispose()
        _template.append(folder / "dragonlair.db")
    db.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_template[0], db)


class ServerThread:
    """``create_app(settings)`` under uvicorn in a thread: :meth:`start`, :meth:`stop`. It
    binds port 0 and reads the port it got once started (:attr:`port`)."""

    def __init__(self, data: Path, *, migrated: bool = True, **settings: Any) -> None:
        settings.setdefault("limits", TEST_LIMITS)
        settings.setdefault("argon2_cost", TEST_ARGON2)
        settings.setdefault("warm_up", False)
        settings.setdefault("puzzle_miner", False)  # test_puzzles.py runs it itself
        settings.setdefault("puzzle_shipped", False)  # likewise: loading them costs 0.2 CPU-s
        settings.setdefault("bot_processes", 0)  # the threads; test_botpool.py: processes
        self.settings = Settings(data_dir=data, bot_workers=2, **settings)
        if migrated and self.settings.database_url is None:
            migrated_copy(data / "dragonlair.db")
        self.port = 0
        self.app = create_app(self.settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0,
                                log_level="warning", ws_max_size=1 << 20, lifespan="on",
                                proxy_headers=False)  # as `dragonlair serve` (app.py)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        self.port = bound_port(self.server)
        assert self.port, "the server listens on no TCP port"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    def runtime(self, table_id: str) -> TableRuntime:
        deadline = time.monotonic() + 10
        while table_id not in self.hub.tables:
            if time.monotonic() > deadline:
                raise AssertionError(f"table {table_id} never loaded")
            time.sleep(0.01)
        return self.hub.tables[table_id]


#: ``DRAGONLAIR_TEST_SERVER_DB=postgresql``: the ``server`` fixture's database is a fresh
#: PostgreSQL database (on ``DRAGONLAIR_TEST_PG``, scripts/services.sh) instead of SQLite;
#: scripts/test.sh runs the play tests a second time so (docs/deploy.md)
SERVER_DB = os.environ.get("DRAGONLAIR_TEST_SERVER_DB", "sqlite")


def serving(tmp_path_factory: pytest.TempPathFactory, **settings: Any
            ) -> Iterator[ServerThread]:
    """A fixture's body: a server with the test settings (and ``settings``) on a fresh
    database of the kind ``DRAGONLAIR_TEST_SERVER_DB`` names, stopped when the fixture ends."""
    data: Path = tmp_path_factory.mktemp("server")
    with ExitStack() as stack:
        extra: dict[str, Any] = dict(settings)
        if SERVER_DB == "postgresql":
            from tests.server_multi.services import fresh_database, service_url

            pytest.importorskip("psycopg")
            url = service_url("DRAGONLAIR_TEST_PG", "PostgreSQL")
            extra["database_url"] = stack.enter_context(fresh_database(url))
        srv = ServerThread(data, **extra).start()
        assert srv.app.state.engine.dialect.name == SERVER_DB
        yield srv
        srv.stop()


_ids = itertools.count()


class Client:
    """A person: a guest session (httpx) and, once connected, a WebSocket to one table."""

    def __init__(self, server: ServerThread, name: str | None = None,
                 guest: bool = True) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=20)
        self.user: JSON = {}
        if guest:
            r = self.http.post("/api/auth/guest", json={"display_name": name} if name else {})
            assert r.status_code == 200, r.text
            self.user = r.json()
        self.ws: ClientConnection | None = None
        self.received: list[JSON] = []
        self.seat: int | None = None
        self.seen = -1  # the newest log seq of a welcome or update

    @property
    def token(self) -> str | None:
        return self.http.cookies.get(COOKIE)

    def connect(self, table_id: str, hello: bool = True,
                headers: dict[str, str] | None = None) -> JSON | None:
        extra = dict(headers or {})
        if self.token:
            extra["Cookie"] = f"{COOKIE}={self.token}"
        self.ws = connect(f"ws://127.0.0.1:{self.server.port}/ws/tables/{table_id}",
                          additional_headers=extra, max_size=1 << 22,
                          open_timeout=10).__enter__()
        self.seen = -1
        if not hello:
            return None
        welcome = self.request({"type": "hello", "protocol": 1})
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        return welcome

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def send_raw(self, text: str) -> None:
        assert self.ws is not None
        self.ws.send(text)

    def recv(self, timeout: float) -> JSON | None:
        assert self.ws is not None
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        message: JSON = json.loads(text)
        self.received.append(message)
        if message.get("type") in ("welcome", "update"):
            self.seen = max(self.seen, message["seq"])
        return message

    def wait(self, pred: Callable[[JSON], bool], timeout: float = 20) -> JSON:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.recv(max(0.0, deadline - time.monotonic()))
            if message is not None and pred(message):
                return message
        raise AssertionError(f"no such message within {timeout}s; last: {self.received[-3:]}")

    def drain(self) -> None:
        while self.recv(0.0) is not None:
            pass

    def request(self, message: JSON, timeout: float = 20) -> JSON:
        """Send ``message`` with a fresh id; the answer that names it (``re``)."""
        rid = f"r{next(_ids)}"
        self.send_raw(json.dumps({**message, "id": rid}))
        return self.wait(lambda m: m.get("re") == rid, timeout)

    def act(self, action: str, seq: int | None = None, key: str | None = None) -> JSON:
        return self.request({"type": "act", "action": action,
                             "seq": self.seen if seq is None else seq,
                             "key": key or f"k{next(_ids)}"})

    def catch_up(self, seq: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.seen < seq:
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw seq {seq} (saw {self.seen})")
            self.recv(0.05)


def new_table(owner: Client, game: str, seats: list[JSON], **options: Any) -> JSON:
    r = owner.http.post("/api/tables", json={"game": game, "options": options, "seats": seats})
    assert r.status_code == 201, r.text
    table: JSON = r.json()
    return table


def running_master(server: ServerThread) -> tuple[str, Client, Client]:
    """A running Dragon Master table of two people, Ann (seat 0, the creator) and Bob."""
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    return tid, ann, bob


def say(client: Client, text: str) -> JSON:
    """Send a chat line and return the answer to it."""
    return client.request({"type": "chat", "text": text})


def consistent(runtime: TableRuntime) -> State:
    """The runtime's current state (never mutated after it is swapped in)."""
    return runtime.state


def play_to_end(server: ServerThread, table_id: str, humans: dict[int, Client],
                rng: random.Random, *, stale_bids: bool = True,
                max_steps: int = 20_000, stop_after: int | None = None) -> None:
    """Humans play random legal moves (chosen from the server's state: the test is the
    oracle of legality, the protocol is what is tested) until the game ends, or until
    ``stop_after`` human actions. Sealed bids are sent in a shuffled order, each with the
    sequence number the client saw when the bid began (``stale_bids``)."""
    runtime = server.runtime(table_id)
    acted = 0
    for _ in range(max_steps):
        state = consistent(runtime)
        n = len(state.history)
        if state.is_terminal():
            for client in humans.values():
                client.catch_up(n)
            return
        mine = [s for s in state.current_seats() if s in humans]
        if not mine:
            time.sleep(0.002)
            continue
        rng.shuffle(mine)
        for seat in mine:
            humans[seat].catch_up(n)
        for seat in mine:
            client = humans[seat]
            action = rng.choice(list(state.legal_actions(seat)))
            answer = client.act(str(action), seq=n if stale_bids else None)
            assert answer["type"] == "ack", (answer, str(action), seat)
            acted += 1
            if stop_after is not None and acted >= stop_after:
                return
    raise AssertionError("the game did not end")


def states_at(record: Record, seqs: Iterable[int]) -> dict[int, State]:
    """The state after the first ``n`` actions of ``record``, for each ``n`` in ``seqs``."""
    game = make_game(record.game, record.options)
    state = game.new_initial_state()
    wanted = sorted(set(seqs))
    out: dict[int, State] = {}
    i = 0
    for n in range(len(record.actions) + 1):
        while i < len(wanted) and wanted[i] == n:
            out[n] = state.clone()
            i += 1
        if n < len(record.actions):
            seat, text = parse_entry(record.actions[n], game.num_players)
            state.apply(seat, game.parse_action(text))
    return out


def check_no_leaks(record: Record, clients: Iterable[tuple[int | None, list[JSON]]]) -> int:
    """Every welcome and update a client received is exactly the engine's view for that
    client's seat at that point (so it holds nothing of another seat's private part), and no
    event in it is addressed to another seat. Returns how many views were checked."""
    clients = list(clients)
    seqs = [m["seq"] for _, msgs in clients for m in msgs
            if m.get("type") in ("welcome", "update")]
    states = states_at(record, seqs)
    checked = 0
    for seat, msgs in clients:
        for m in msgs:
            if m.get("type") not in ("welcome", "update"):
                continue
            state, view = states[m["seq"]], m["view"]
            assert m["seat"] == seat
            if "events_total" in view:
                expected = state.view(seat, since=view["events_since"])
            else:  # a game whose view has no envelope yet: the whole view is sent
                expected = state.view(seat)
            assert json.loads(json.dumps(expected)) == view, (seat, m["seq"])
            for event in view.get("events") or []:
                assert event.get("to") in (None, seat), (seat, event)
            if seat is None and "private" in view:
                assert view["private"] is None and view["legal"] is None
            checked += 1
    return checked
