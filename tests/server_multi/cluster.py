"""Several real ``dragonlair serve`` processes sharing one PostgreSQL database and one Redis,
and players driving one table through them with the typed client (dragonlair/client).

:class:`Cluster` starts the processes (the .venv's ``dragonlair``) on free 127.0.0.1 ports,
waits for ``/api/health`` on each, can SIGKILL one, and always kills what is left on exit.
The first process is started alone (it migrates the fresh database); the others then start
together. A cluster outlives one test (tests/server_multi/conftest.py shares one: each start
of a process costs seconds): :meth:`Cluster.revive` starts again, on their ports, the
processes a test killed. :class:`Game` is a table whose seats (and spectators) are connected
to chosen processes; :meth:`Game.play` moves every seat that its own view says may move, with
a random legal action read from that view (the server is the judge of legality), and
remembers every acknowledged action so that the final record can be compared with it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from dragonlair.client import Client, Refused, TableConnection
from dragonlair.client.client import MOVED_ON, legal_texts
from dragonlair.core.records import Record, parse_entry
from dragonlair.server.loadgen import server_command
from tests.server.helpers import serve_ready_port
from tests.server.zygote import Forked, spawn
from tests.server_multi.services import RedisProcess

JSON = dict[str, Any]

#: what a process that went away looks like to a client
DOWN = (OSError, httpx.HTTPError, TimeoutError, EOFError)


class Node:
    """One ``dragonlair serve`` process: :meth:`spawn`, :meth:`kill` (SIGKILL), :meth:`stop`
    (SIGTERM, then SIGKILL)."""

    def __init__(self, name: str, folder: Path, args: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.folder = folder
        self.args = args
        self.env = env
        self.port = 0  # the first spawn binds port 0; a restart takes the same port again
        self.proc: Forked | subprocess.Popen[bytes] | None = None
        self.log = folder / f"{name}.log"
        self.logged = 0  # the log's size when the process was spawned

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def spawn(self) -> None:
        """Start it (forked from tests/server/zygote.py: the server imported once)."""
        self.logged = self.log.stat().st_size if self.log.exists() else 0
        self.proc = spawn(["serve", "--host", "127.0.0.1", "--port", str(self.port), "--data",
                           str(self.folder / self.name), *self.args], self.log,
                          {**os.environ, "COLUMNS": "300", **self.env}, server_command())

    def wait_healthy(self, seconds: float = 60.0) -> None:
        assert self.proc is not None
        try:  # it listens once it has printed its address (with the port chosen for 0)
            port = serve_ready_port(self.proc, self.log, self.logged, seconds)
        except RuntimeError as exc:
            raise RuntimeError(f"{self.name}: {exc}:\n{self.tail()}") from None
        assert self.port in (0, port), (self.port, port)
        self.port = port
        deadline = time.monotonic() + seconds
        while True:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited before it was healthy:\n{self.tail()}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} not healthy in {seconds}s:\n{self.tail()}")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(20)

    def stop(self) -> None:
        if self.alive:
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


class Cluster:
    """``n`` processes on one database (``db``) and one Redis (``redis``, or none)."""

    def __init__(self, folder: Path, n: int, db: str, redis: str | None,
                 args: Iterable[str] = (), env: dict[str, str] | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.db = db
        self.redis = redis
        #: the private redis-server ``redis`` names, where the cluster has one (a test may
        #: stop and start it)
        self.own_redis: RedisProcess | None = None
        base_args = ["--db", db, *(["--redis", redis] if redis else []), *args]
        self.nodes = [Node(f"p{i}", folder, base_args, dict(env or {})) for i in range(n)]

    def start(self) -> Cluster:
        first, *rest = self.nodes
        first.spawn()
        first.wait_healthy()  # it migrated the fresh database
        for node in rest:
            node.spawn()
        for node in rest:
            node.wait_healthy()
        return self

    def revive(self) -> Cluster:
        """Every process alive again: one stopped (SIGSTOP) is continued, one killed is
        started again on its port (they start together); waits until they are healthy."""
        dead = []
        for node in self.nodes:
            if node.alive:
                assert node.proc is not None
                node.proc.send_signal(signal.SIGCONT)
            else:
                node.spawn()
                dead.append(node)
        for node in dead:
            node.wait_healthy()
        return self

    def close(self) -> None:
        for node in self.nodes:
            node.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {n.name} (alive: {n.alive})\n{n.tail()}" for n in self.nodes)


@contextmanager
def cluster(folder: Path, n: int, db: str, redis: str | None, **kwargs: Any
            ) -> Iterator[Cluster]:
    """A started :class:`Cluster`; every process is stopped (or killed) on the way out, and
    on a failure the end of each log is printed (pytest shows it)."""
    c = Cluster(folder, n, db, redis, **kwargs)
    try:
        yield c.start()
    except BaseException:
        print(c.logs())
        raise
    finally:
        for node in c.nodes:
            try:
                node.stop()
            except Exception:
                if node.proc is not None:
                    node.proc.kill()


# ---------------------------------------------------------------------------- players


@dataclass
class Viewer:
    """One WebSocket at the table: a seat (``None``: a spectator), the process it speaks
    to, and every message it received (for the leak checks)."""

    client: Client
    seat: int | None
    node: Node
    conn: TableConnection | None = None
    messages: list[JSON] = field(default_factory=list)

    def connect(self, table_id: str) -> None:
        self.conn = self.client.connect(table_id, on_message=self.keep, reconnects=3)

    def keep(self, message: JSON) -> None:
        """Keep a message; an update sent as a delta (docs/protocol.md, "Deltas") is kept
        with the view and seat it left the client holding, as a whole update would carry."""
        if message.get("type") == "update" and "delta" in message and self.conn is not None:
            whole = {k: v for k, v in message.items() if k != "delta"}
            message = {**whole, "seat": self.conn.seat, "view": self.conn.last_view}
        self.messages.append(message)

    def move_to(self, node: Node) -> None:
        """Reconnect to another process (``hello``, then ``resume`` with the events held)."""
        assert self.conn is not None
        self.node = node
        self.client.url = node.base
        self.client.http.base_url = httpx.URL(node.base)
        self.conn.close()
        self.conn.reopen()

    def pump(self) -> None:
        """Take in every message already waiting."""
        assert self.conn is not None
        while self.conn.recv(0.0) is not None:
            pass


class Game:
    """One table of ``game`` played by people connected to chosen processes.

    ``seats``: one per seat, ``{"kind": "me" | "open" | "bot", ...}`` with ``"node": i``
    for a person (the process its socket talks to); ``spectators``: the process of each
    spectator. ``table``: more of the lobby's table fields (a clock, ``takeover_bot``)."""

    def __init__(self, nodes: list[Node], game: str, seats: list[JSON], options: JSON,
                 spectators: Iterable[int] = (), rng: random.Random | None = None,
                 **table: Any) -> None:
        self.rng = rng or random.Random(0)
        self.nodes = nodes
        self.viewers: list[Viewer] = []
        people = [i for i, s in enumerate(seats) if s["kind"] in ("me", "open")]
        owner_at = seats[people[0]].get("node", 0)
        owner = Client(nodes[owner_at].base)
        owner.guest(f"seat{people[0]}")
        lobby_seats = [{k: v for k, v in s.items() if k != "node"} for s in seats]
        self.table = owner.create_table(game, options, lobby_seats, **table)
        self.id: str = self.table["id"]
        self.viewers.append(Viewer(owner, people[0], nodes[owner_at]))
        for i in people[1:]:
            at = seats[i].get("node", 0)
            c = Client(nodes[at].base)
            c.guest(f"seat{i}")
            c.join(self.id, i)
            self.viewers.append(Viewer(c, i, nodes[at]))
        owner.start(self.id)
        for k, at in enumerate(spectators):
            c = Client(nodes[at].base)
            c.guest(f"eve{k}")
            self.viewers.append(Viewer(c, None, nodes[at]))
        for v in self.viewers:
            v.connect(self.id)
        self.num_players = len(seats)
        #: every acknowledged action: log index -> (seat, action text)
        self.acked: dict[int, tuple[int, str]] = {}
        self.refused: list[str] = []
        #: seats whose person stopped playing (their clock runs out)
        self.idle: set[int] = set()

    @property
    def players(self) -> list[Viewer]:
        return [v for v in self.viewers if v.seat is not None]

    def conns(self) -> list[TableConnection]:
        return [v.conn for v in self.viewers if v.conn is not None]

    def leave(self, seat: int) -> None:
        """The person at ``seat`` stops playing and closes its socket (it is no viewer
        from here on)."""
        self.idle.add(seat)
        for v in [v for v in self.viewers if v.seat == seat]:
            if v.conn is not None:
                v.conn.close()
            self.viewers.remove(v)
            v.client.close()

    def newest(self) -> int:
        """The newest position anyone has heard of: a viewer's update, or an ack (which can
        reach the mover before the update does)."""
        return max([*(c.seq for c in self.conns()), *(i + 1 for i in self.acked)])

    def done(self) -> bool:
        """Finished, and every viewer has the final update."""
        conns = self.conns()
        return all(c.finished for c in conns) and len({c.seq for c in conns}) == 1

    def step(self) -> bool:
        """Let one seat that may move (by its own view) make a random legal move; True if
        an action was acknowledged."""
        for v in self.viewers:
            v.pump()
        movers = [v for v in self.players if v.conn is not None and v.conn.my_turn()
                  and v.seat not in self.idle and legal_texts(v.conn.view)]
        if not movers:
            return False
        v = self.rng.choice(movers)
        assert v.conn is not None and v.seat is not None
        text = self.rng.choice(legal_texts(v.conn.view))
        try:
            after = v.conn.act(text, wait=False, timeout=30)
        except Refused as exc:
            if exc.code not in MOVED_ON:
                raise AssertionError(f"seat {v.seat} on {v.node.name}: {text!r} refused: "
                                     f"{exc.code} {exc.params}") from None
            self.refused.append(exc.code)
            time.sleep(0.05)  # the position moved on: look again (under the rate limit)
            return False
        assert after - 1 not in self.acked, (after, text, self.acked[after - 1])
        self.acked[after - 1] = (v.seat, text)
        return True

    def play(self, seconds: float, until: Callable[[Game], bool] | None = None) -> int:
        """Play until ``until`` holds (default: :meth:`done`); returns the actions
        acknowledged. Fails after ``seconds``."""
        until = until or Game.done
        deadline = time.monotonic() + seconds
        acked = 0
        while not until(self):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"table {self.id} stuck after {seconds}s: " + "; ".join(
                        f"seat {v.seat}@{v.node.name} seq {v.conn.seq} {v.conn.status}"
                        for v in self.viewers if v.conn is not None))
            if self.step():
                acked += 1
            else:
                self.conns()[0].recv(0.02)
        return acked

    def wait_all(self, seq: int, seconds: float = 20.0) -> None:
        """Every viewer has seen the log reach ``seq``."""
        deadline = time.monotonic() + seconds
        for v in self.viewers:
            assert v.conn is not None
            left = max(0.1, deadline - time.monotonic())
            ok = v.conn.wait(lambda c: c.seq >= seq, left)
            assert ok, f"seat {v.seat}@{v.node.name} saw seq {v.conn.seq}, never {seq}"

    def record(self) -> Record:
        return Record.from_json(self.viewers[0].client.record(self.id))

    def check_acked(self, record: Record) -> None:
        """Every acknowledged action is in the record where its ack put it."""
        for index, (seat, text) in sorted(self.acked.items()):
            assert index < len(record.actions), (index, text, "acknowledged, not logged")
            assert parse_entry(record.actions[index], self.num_players) == (seat, text), (
                index, record.actions[index], seat, text)

    def log_rows(self, db_url: str) -> list[tuple[int, int, str]]:
        """The table's action log as the database holds it: (seq, seat, action) rows."""
        from sqlalchemy import create_engine, text

        engine = create_engine(db_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(text("SELECT seq, seat, action FROM actions WHERE "
                                         "table_id = :t ORDER BY seq"), {"t": self.id}).all()
        finally:
            engine.dispose()
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    def close(self) -> None:
        for v in self.viewers:
            if v.conn is not None:
                v.conn.close()
            v.client.close()
