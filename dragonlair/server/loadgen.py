"""A load generator for the game server (``dragonlair bench --server``, bench/server_load.py).

It starts ``dragonlair serve`` as a subprocess on 127.0.0.1 (a temporary SQLite database),
opens many Dragon Master tables (a match: first to two dragons, so games last), each with
its two players and two anonymous spectators on their own WebSockets (250 tables: 1,000
connections), and plays them with scripted clients: one asyncio process, moves read from
each mover's own view (``legal``), sent at a fixed aggregate rate (open loop: the schedule
does not wait for the server). A finished table is played again: its two players ask for a
rematch (``POST /api/tables/{id}/rematch``, both) and its spectators follow them to the new
table, as people at a table usually do; ``fresh_people=True`` (``--fresh-people``) has two
new guests open, join and start a new table instead (five requests where a rematch takes
two, each new guest an account and a session in the database).

For each action it measures the time from sending ``act`` to the moment the *last* of the
table's connections has received the update that holds it (action -> last-seat delivery),
and from ``act`` to ``ack``. It reports, for each rate, p50 and p99 of both, the actions per
second achieved, the errors (error answers, lost connections, deliveries slower than 10 s),
the server's CPU, and the server's memory per connection (the growth of its resident set
from before the connections to after them, divided by their number). A ramp raises the rate
until p99 or the errors blow up: the last rate that held is the saturation point.

Many processes (issue 15): ``processes=N`` with ``server_args`` naming ``--db
postgresql://...`` and ``--redis redis://...`` starts N servers on that database and Redis
(or ``urls`` names running ones); the connections are spread over them so that each table's
two players speak to different processes, and an action's delivery to the last seat crosses
processes (through Redis). CPU and memory are then the sum over the servers.

Thinking bots (issue 24): ``bot_tables=N`` also keeps N tables of bots only playing (Fist of
Dragonstones, three players, ``ismcts`` in every seat by default: ``bot_game``,
``bot_name``), watched by one spectator each and replaced when they end, so that the
people's actions are measured while bots think; the report adds the bots' actions per second
and the CPU of the server's bot worker processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dragonlair.core.forms import form_slots, form_text

JSON = dict[str, Any]

#: a delivery slower than this counts as an error
LOST_AFTER = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_command() -> list[str]:
    script = Path(sys.executable).with_name("dragonlair")
    if script.exists():
        return [str(script)]
    found = shutil.which("dragonlair")
    if found:
        return [found]
    return [sys.executable, "-c", "from dragonlair.cli.main import main; main()"]


def rss_kib(pid: int) -> int:
    """The resident set of a process (Linux), in KiB; 0 where unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int | None = None) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``; this one by default)."""
    if pid is None:
        t = os.times()
        return t.user + t.system
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and all its descendants, the live ones and those it has
    waited for (Linux ``/proc``): a PostgreSQL postmaster and its backends, say."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu_seconds(p)
        todo += [c for c, parent in parents.items() if parent == p]
    try:  # children that exited and were waited for
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        pass
    return total


def watched_cpu(pids: list[int]) -> float:
    return sum(tree_cpu(p) for p in pids)


def servers_cpu(pids: list[int]) -> float:
    """CPU seconds of the servers (0 for a server not started here: pid 0)."""
    return sum(cpu_seconds(p) for p in pids if p)


def children_cpu(pids: list[int]) -> float:
    """CPU seconds of the servers' descendants (their bot worker processes)."""
    return sum(tree_cpu(p) - cpu_seconds(p) for p in pids if p)


def servers_rss(pids: list[int]) -> int:
    return sum(rss_kib(p) for p in pids if p)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Conn:
    """One WebSocket: a seat (``None``: a spectator), the newest seq and view it received."""

    table: Table
    seat: int | None
    cookie: str | None
    #: the server this connection speaks to
    base: str = ""
    ws: Any = None
    seq: int = -1
    view: JSON | None = None
    status: str = "running"
    waiting: dict[str, asyncio.Future[JSON]] = field(default_factory=dict)


@dataclass
class Table:
    id: str
    conns: list[Conn] = field(default_factory=list)
    #: the action in flight: the seq that will hold it, when it was sent, who has it
    target: int | None = None
    sent_at: float = 0.0
    delivered: set[int] = field(default_factory=set)
    last_at: float = 0.0
    finished: bool = False

    def mover(self) -> Conn | None:
        """The player whose move it is, once it (and everyone) has the newest view."""
        if self.target is not None or self.finished:
            return None
        newest = max(c.seq for c in self.conns)
        for c in self.conns[:2]:
            v = c.view
            if (c.seq == newest and v is not None and c.status == "running"
                    and c.seat in v["to_move"] and v.get("legal")):
                return c
        return None


@dataclass
class Step:
    """One rate of the ramp and what it gave."""

    rate: float
    seconds: float
    actions: int = 0
    errors: int = 0
    delivery: list[float] = field(default_factory=list)
    ack: list[float] = field(default_factory=list)
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    #: CPU seconds of the watched processes (``--watch``: PostgreSQL, Redis) and trees
    watched_cpu: float = 0.0
    starved: int = 0
    #: actions the bots of the bot tables played meanwhile (``bot_tables``)
    bot_actions: int = 0
    #: CPU seconds of the servers' child processes (bot workers: dragonlair/server/botpool.py)
    children_cpu: float = 0.0
    #: finished tables played again (a rematch) or replaced by a new one meanwhile: each
    #: costs the server requests and new connections, beside the actions (bench/README.md)
    replaced: int = 0

    def to_json(self) -> JSON:
        ms = 1000.0
        return {"rate": self.rate, "seconds": round(self.seconds, 2),
                "actions": self.actions,
                "actions_per_s": round(self.actions / self.seconds, 1) if self.seconds else 0,
                "errors": self.errors, "starved": self.starved,
                "delivery_p50_ms": round(percentile(self.delivery, 0.5) * ms, 1),
                "delivery_p99_ms": round(percentile(self.delivery, 0.99) * ms, 1),
                "delivery_max_ms": round(max(self.delivery, default=0) * ms, 1),
                "ack_p50_ms": round(percentile(self.ack, 0.5) * ms, 1),
                "ack_p99_ms": round(percentile(self.ack, 0.99) * ms, 1),
                "server_cpu_pct": round(100 * self.server_cpu / self.seconds, 1)
                if self.seconds else 0,
                "generator_cpu_pct": round(100 * self.client_cpu / self.seconds, 1)
                if self.seconds else 0,
                "watched_cpu_pct": round(100 * self.watched_cpu / self.seconds, 1)
                if self.seconds else 0,
                "bot_actions_per_s": round(self.bot_actions / self.seconds, 1)
                if self.seconds else 0,
                "server_children_cpu_pct": round(100 * self.children_cpu / self.seconds, 1)
                if self.seconds else 0,
                "tables_replaced": self.replaced,
                # CPU milliseconds per acknowledged action: robust to the other load on a
                # shared machine, where the latencies are not
                "server_cpu_ms_per_action": round(ms * self.server_cpu / self.actions, 2)
                if self.actions else 0,
                "watched_cpu_ms_per_action": round(ms * self.watched_cpu / self.actions, 2)
                if self.actions else 0}


class Load:
    """The generator (see the module docs)."""

    def __init__(self, tables: int, spectators: int, seed: int, bases: list[str],
                 watch: list[int] | None = None, bot_tables: int = 0,
                 bot_game: str = "fist", bot_name: str = "ismcts",
                 bot_players: int = 3, fresh_people: bool = False) -> None:
        self.n_tables = tables
        self.fresh_people = fresh_people
        self.spectators = spectators
        self.rng = random.Random(seed)
        self.bases = bases
        self.spread = 0
        self.tables: list[Table] = []
        self.step: Step | None = None
        self.errors = 0
        self.error_samples: list[str] = []
        self.replacing = 0
        #: finished tables played again by their people, and tables new guests opened instead
        self.rematches = 0
        self.fresh_tables = 0
        self.stopping = False
        self.http: Any = None
        #: other processes whose CPU (with their children's) is measured per rate
        self.watch = list(watch or [])
        #: tables of bots only, playing meanwhile (see the module docs)
        self.bot_tables = bot_tables
        self.bot_game, self.bot_name, self.bot_players = bot_game, bot_name, bot_players
        self.bot_seq: dict[str, int] = {}

    # ----------------------------------------------------------------- setup
    async def guest(self) -> str:
        r = await self.http.post("/api/auth/guest", json={})
        r.raise_for_status()
        name, value = next(iter(r.cookies.items()))
        return f"{name}={value}"

    async def new_table(self) -> Table:
        a, b = await asyncio.gather(self.guest(), self.guest())
        r = await self.http.post("/api/tables", headers={"Cookie": a}, json={
            "game": "master", "options": {"match": True},
            "seats": [{"kind": "me"}, {"kind": "open"}]})
        r.raise_for_status()
        tid = r.json()["id"]
        (await self.http.post(f"/api/tables/{tid}/join", headers={"Cookie": b},
                              json={})).raise_for_status()
        (await self.http.post(f"/api/tables/{tid}/start",
                              headers={"Cookie": a})).raise_for_status()
        table = Table(tid)
        table.conns = [Conn(table, 0, a), Conn(table, 1, b)] + [
            Conn(table, None, None) for _ in range(self.spectators)]
        # round robin over the servers: a table's players land on different ones
        for conn in table.conns:
            conn.base = self.bases[self.spread % len(self.bases)]
            self.spread += 1
        return table

    async def bot_table(self) -> None:
        """A table of bots only, watched until it ends, then another in its place."""
        from websockets.asyncio.client import connect

        while not self.stopping:
            owner = await self.guest()
            r = await self.http.post("/api/tables", headers={"Cookie": owner}, json={
                "game": self.bot_game, "options": {"players": self.bot_players},
                "seats": [{"kind": "bot", "bot": self.bot_name}] * self.bot_players})
            r.raise_for_status()
            tid = r.json()["id"]
            (await self.http.post(f"/api/tables/{tid}/start",
                                  headers={"Cookie": owner})).raise_for_status()
            url = self.bases[0].replace("http://", "ws://") + f"/ws/tables/{tid}"
            async with connect(url, max_size=1 << 22, open_timeout=60,
                               ping_interval=None) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1}))
                async for text in ws:
                    m = json.loads(text)
                    if m.get("type") not in ("welcome", "update"):
                        continue
                    seq = int(m["seq"])
                    before = self.bot_seq.get(tid, seq)
                    if self.step is not None and seq > before:
                        self.step.bot_actions += seq - before
                    self.bot_seq[tid] = seq
                    status = m.get("status") or m.get("table", {}).get("status")
                    if status == "finished" or self.stopping:
                        break
            self.bot_seq.pop(tid, None)

    async def bot_tables_forever(self) -> None:
        async def one() -> None:
            try:
                await self.bot_table()
            except Exception as exc:
                if not self.stopping:
                    self.error(f"a bot table: {exc!r}")

        await asyncio.gather(*(one() for _ in range(self.bot_tables)))

    async def connect(self, conn: Conn) -> None:
        from websockets.asyncio.client import connect

        headers = {"Cookie": conn.cookie} if conn.cookie else {}
        url = conn.base.replace("http://", "ws://") + f"/ws/tables/{conn.table.id}"
        conn.ws = await connect(url, additional_headers=headers, max_size=1 << 22,
                                open_timeout=60, ping_interval=None)
        asyncio.get_running_loop().create_task(self.read(conn))
        welcome = await self.request(conn, {"type": "hello", "protocol": 1})
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"no welcome: {welcome}")

    async def request(self, conn: Conn, message: JSON, timeout: float = 60) -> JSON:
        rid = f"r{self.rng.getrandbits(48):x}"
        fut: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        conn.waiting[rid] = fut
        await conn.ws.send(json.dumps({**message, "id": rid}))
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            conn.waiting.pop(rid, None)

    async def read(self, conn: Conn) -> None:
        """Every message a connection receives: views move it on, answers wake a request."""
        try:
            async for text in conn.ws:
                t = time.perf_counter()
                m = json.loads(text)
                kind = m.get("type")
                if kind in ("welcome", "update"):
                    if m["seq"] >= conn.seq:
                        conn.seq, conn.view = m["seq"], m["view"]
                        conn.status = m.get("status") or m["table"]["status"]
                    self.seen(conn, t)
                elif kind == "error":
                    self.error(f"{m.get('code')} {m.get('params')}")
                fut = conn.waiting.get(m.get("re", ""))
                if fut is not None and not fut.done():
                    fut.set_result(m)
        except Exception as exc:  # a lost connection
            if not conn.table.finished and not self.stopping:
                self.error(f"connection lost: {exc!r}")

    def error(self, what: str) -> None:
        self.errors += 1
        if self.step is not None:
            self.step.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(what)

    def seen(self, conn: Conn, t: float) -> None:
        table = conn.table
        if conn.status == "finished" and not table.finished:
            table.finished = True
            asyncio.get_running_loop().create_task(self.replace(table))
        if table.target is None or conn.seq < table.target:
            return
        table.delivered.add(id(conn))
        table.last_at = max(table.last_at, t)
        if len(table.delivered) == len(table.conns):
            if self.step is not None:
                self.step.delivery.append(table.last_at - table.sent_at)
            table.target = None

    async def rematch(self, table: Table) -> Table | None:
        """Both players of a finished table ask for a rematch; the new table (each moved one
        seat on: in two, they swap), with the same spectators and servers, or ``None`` where
        it did not start."""
        a, b = table.conns[0], table.conns[1]
        out: JSON = {}
        for conn in (a, b):
            r = await self.http.post(f"/api/tables/{table.id}/rematch",
                                     headers={"Cookie": conn.cookie or ""})
            r.raise_for_status()
            out = r.json()
        if out.get("state") != "started" or not out.get("table"):
            return None
        new = Table(str(out["table"]))
        new.conns = [Conn(new, 0, b.cookie, b.base), Conn(new, 1, a.cookie, a.base)] + [
            Conn(new, None, None, c.base) for c in table.conns[2:]]
        return new

    async def replace(self, table: Table) -> None:
        """A finished game: close its connections, and its people play again (a rematch) or,
        with ``fresh_people``, two new guests open a table in its place."""
        self.replacing += 1
        try:
            for c in table.conns:
                with contextlib.suppress(Exception):
                    await c.ws.close()
            new = None if self.fresh_people else await self.rematch(table)
            if new is None:
                new = await self.new_table()
                self.fresh_tables += 1
            else:
                self.rematches += 1
            for c in new.conns:
                await self.connect(c)
            self.tables[self.tables.index(table)] = new
            if self.step is not None:
                self.step.replaced += 1
        except Exception as exc:
            if not self.stopping:
                self.error(f"replacing a table: {exc!r}")
        finally:
            self.replacing -= 1

    # ------------------------------------------------------------------ play
    def begin(self, table: Table, conn: Conn) -> str:
        """The table's next action, chosen now (the table is busy from here on)."""
        assert conn.view is not None
        legal = conn.view["legal"]
        table.target, table.delivered, table.last_at = conn.seq + 1, set(), 0.0
        table.sent_at = time.perf_counter()
        form = legal["form"]  # the engine's texts: a card (slot card), a cell (slot cell)
        text = form_text(form, {slot: self.rng.randrange(n)
                                for slot, n in form_slots(form).items()})
        assert text is not None
        return text

    async def act(self, table: Table, conn: Conn, text: str) -> None:
        t0 = table.sent_at = time.perf_counter()
        step = self.step
        try:
            answer = await self.request(conn, {"type": "act", "action": text, "seq": conn.seq,
                                               "key": f"k{self.rng.getrandbits(60):x}"},
                                        timeout=LOST_AFTER)
        except Exception as exc:
            self.error(f"act: {exc!r}")
            table.target = None
            return
        if answer.get("type") != "ack":
            table.target = None  # counted as an error by the reader
            return
        if step is not None:
            step.ack.append(time.perf_counter() - t0)
            step.actions += 1

    async def run_step(self, rate: float, seconds: float, warmup: float,
                       server_pids: list[int]) -> Step:
        """Send actions at ``rate`` per second for ``warmup + seconds``; measure the last
        ``seconds``."""
        loop = asyncio.get_running_loop()
        tasks: set[asyncio.Task[None]] = set()
        step = Step(rate, seconds)
        start = time.perf_counter()
        measuring = False
        cpu0 = cpu1 = cpu2 = cpu3 = 0.0
        next_t = start
        while True:
            now = time.perf_counter()
            if not measuring and now - start >= warmup:
                measuring = True
                self.step = step
                t_measure = now
                cpu0, cpu1 = servers_cpu(server_pids), cpu_seconds()
                cpu2 = watched_cpu(self.watch)
                cpu3 = children_cpu(server_pids)
            if measuring and now - t_measure >= seconds:
                break
            while next_t <= now:  # every action due by now (open loop)
                next_t += 1.0 / rate
                ready = [(t, c) for t in self.tables if (c := t.mover()) is not None]
                if not ready:
                    if measuring:
                        step.starved += 1
                    continue
                table, conn = ready[self.rng.randrange(len(ready))]
                task = loop.create_task(self.act(table, conn, self.begin(table, conn)))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            await asyncio.sleep(max(0.0, next_t - time.perf_counter()))
        step.seconds = time.perf_counter() - t_measure
        step.server_cpu = servers_cpu(server_pids) - cpu0
        step.client_cpu = cpu_seconds() - cpu1
        step.watched_cpu = watched_cpu(self.watch) - cpu2
        step.children_cpu = children_cpu(server_pids) - cpu3
        self.step = None
        # let what is in flight land (it is not counted), and stale deliveries clear
        await asyncio.sleep(0.5)
        for t in self.tables:
            if t.target is not None and time.perf_counter() - t.sent_at > LOST_AFTER:
                t.target = None
        return step


@contextlib.contextmanager
def server_process(data: Path, port: int, extra: list[str] | None = None) -> Iterator[int]:
    """``dragonlair serve`` on 127.0.0.1:``port``; yields its pid."""
    import httpx

    log = (data / "server.log").open("wb")
    proc = subprocess.Popen([*server_command(), "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--data", str(data), *(extra or [])],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited; see {data / 'server.log'}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).is_success:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        yield proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


async def _run(tables: int, spectators: int, rates: list[float], seconds: float,
               warmup: float, ramp: bool, seed: int, bases: list[str], pids: list[int],
               report: Any, watch: list[int] | None = None, bot_tables: int = 0,
               bot_game: str = "fist", bot_name: str = "ismcts",
               fresh_people: bool = False) -> JSON:
    import httpx

    base = bases[0]
    load = Load(tables, spectators, seed, bases, watch, bot_tables, bot_game, bot_name,
                fresh_people=fresh_people)
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        load.http = http
        t0 = time.perf_counter()
        sem = asyncio.Semaphore(16)

        async def make() -> Table:
            async with sem:
                return await load.new_table()

        load.tables = list(await asyncio.gather(*(make() for _ in range(tables))))
        made = time.perf_counter() - t0
        rss0 = servers_rss(pids)
        t0 = time.perf_counter()

        async def join(c: Conn) -> None:
            async with sem:
                await load.connect(c)

        await asyncio.gather(*(join(c) for t in load.tables for c in t.conns))
        connected = time.perf_counter() - t0
        # the generator's own collector, tuned as the server's is (app.tune_gc): its full
        # passes over a thousand connections paused it for hundreds of ms, counted as the
        # server's latency
        from dragonlair.server.app import tune_gc

        if tune_gc():
            gc.collect()
            gc.freeze()
        await asyncio.sleep(1.0)
        rss1 = servers_rss(pids)
        n_conns = sum(len(t.conns) for t in load.tables)
        out: JSON = {
            "tables": tables, "connections": n_conns,
            "setup_s": round(made, 1), "connect_s": round(connected, 1),
            "server_rss_mib_before": round(rss0 / 1024, 1),
            "server_rss_mib_connected": round(rss1 / 1024, 1),
            "server_kib_per_connection": round((rss1 - rss0) / n_conns, 1),
            "cpus": os.cpu_count(), "servers": len(bases), "steps": []}
        bots: asyncio.Task[None] | None = None
        if bot_tables:
            out["bot_tables"] = {"tables": bot_tables, "game": bot_game, "bot": bot_name}
            bots = asyncio.get_running_loop().create_task(load.bot_tables_forever())
            await asyncio.sleep(2.0)  # the bots are thinking before anything is measured
        report(out, None)
        queue = list(rates)
        while queue:
            rate = queue.pop(0)
            step = await load.run_step(rate, seconds, warmup, pids)
            data = step.to_json()
            out["steps"].append(data)
            report(out, data)
            held = (data["errors"] == 0 and data["delivery_p99_ms"] <= 250
                    and data["actions_per_s"] >= 0.9 * rate)
            if ramp and not queue and held:
                queue.append(rate * 1.5 if rate >= 400 else rate * 2)
        load.stopping = True
        if bots is not None:
            bots.cancel()
            with contextlib.suppress(BaseException):
                await bots
        out["server_rss_mib_end"] = round(servers_rss(pids) / 1024, 1)
        out["errors"] = load.errors
        out["replaced"] = {"rematches": load.rematches, "fresh_tables": load.fresh_tables}
        out["error_samples"] = load.error_samples
        good = [s for s in out["steps"] if s["errors"] == 0 and s["delivery_p99_ms"] <= 250
                and s["actions_per_s"] >= 0.9 * s["rate"]]
        out["saturation_actions_per_s"] = max((s["actions_per_s"] for s in good), default=0)
        out["max_actions_per_s"] = max((s["actions_per_s"] for s in out["steps"]), default=0)
        for t in load.tables:
            for c in t.conns:
                with contextlib.suppress(Exception):
                    await c.ws.close()
    return out


def run(tables: int = 250, spectators: int = 2, rates: list[float] | None = None,
        seconds: float = 15.0, warmup: float = 3.0, ramp: bool = True, seed: int = 1,
        url: str | None = None, server_args: list[str] | None = None,
        report: Any = None, urls: list[str] | None = None, processes: int = 1,
        watch: list[int] | None = None, bot_tables: int = 0, bot_game: str = "fist",
        bot_name: str = "ismcts", fresh_people: bool = False) -> JSON:
    """Run the load (starting ``processes`` servers with ``server_args``, unless ``url`` or
    ``urls`` name running ones) and return the figures. ``report(out, step)`` is called
    after the setup and after each rate; ``watch``: pids whose CPU (with their
    descendants') is measured too, such as PostgreSQL's postmaster; ``bot_tables``: tables
    of ``bot_name`` bots only (``bot_game``) playing meanwhile; ``fresh_people``: a
    finished table's place goes to two new guests instead of a rematch."""
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    report = report or (lambda out, step: None)
    rates = rates or [200.0]

    def go(bases: list[str], pids: list[int]) -> JSON:
        return asyncio.run(_run(tables, spectators, rates, seconds, warmup, ramp, seed, bases,
                                pids, report, watch, bot_tables, bot_game, bot_name,
                                fresh_people))

    from dragonlair.server.app import gc_thresholds

    gc_thresholds()  # a bad DRAGONLAIR_GC: refused before anything starts
    named = list(urls or []) + ([url] if url else [])
    if named:
        return go(named, [0] * len(named))
    with tempfile.TemporaryDirectory(prefix="dragonlair-load-") as folder, \
            contextlib.ExitStack() as stack:
        ports = [free_port() for _ in range(processes)]
        dirs = [Path(folder) / f"p{i}" for i in range(processes)]
        try:
            pids = []
            for d, port in zip(dirs, ports, strict=True):  # the first migrates, alone
                d.mkdir()
                pids.append(stack.enter_context(server_process(d, port, server_args)))
            return go([f"http://127.0.0.1:{p}" for p in ports], pids)
        except Exception:
            for d in dirs:
                with contextlib.suppress(OSError):
                    log = (d / "server.log").read_text(errors="replace")
                    print(f"the log of {d.name} ends:\n" + "\n".join(log.splitlines()[-80:]),
                          file=sys.stderr)
            raise


def print_report(out: JSON, step: JSON | None) -> None:
    if step is None:
        print(f"{out['tables']} tables, {out['connections']} connections on "
              f"{out['servers']} server(s) "
              f"(setup {out['setup_s']}s, connect {out['connect_s']}s); server RSS "
              f"{out['server_rss_mib_before']} -> {out['server_rss_mib_connected']} MiB: "
              f"{out['server_kib_per_connection']} KiB per connection", flush=True)
        return
    print(f"rate {step['rate']:>6.0f}/s: {step['actions_per_s']:>6.1f} actions/s, delivery "
          f"p50 {step['delivery_p50_ms']} ms p99 {step['delivery_p99_ms']} ms (max "
          f"{step['delivery_max_ms']}), ack p50 {step['ack_p50_ms']} p99 {step['ack_p99_ms']} "
          f"ms, errors {step['errors']}, server CPU {step['server_cpu_pct']}% "
          f"({step['server_cpu_ms_per_action']} ms/action), watched CPU "
          f"{step['watched_cpu_pct']}% ({step['watched_cpu_ms_per_action']} ms/action), "
          f"generator CPU {step['generator_cpu_pct']}%, tables replaced "
          f"{step['tables_replaced']}"
          + (f", bots {step['bot_actions_per_s']} actions/s, bot workers' CPU "
             f"{step['server_children_cpu_pct']}%" if "bot_tables" in out else ""),
          flush=True)


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=2, help="per table")
    parser.add_argument("--rate", type=float, action="append",
                        help="actions per second (repeatable; default 200)")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured per rate")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--no-ramp", action="store_true",
                        help="only the rates given, no ramp to saturation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", action="append",
                        help="a running server instead of a new one (repeatable: the "
                             "connections are spread over them)")
    parser.add_argument("--processes", type=int, default=1,
                        help="servers to start (more than one needs --db and --redis)")
    parser.add_argument("--db", help="the servers' database URL (postgresql://...)")
    parser.add_argument("--redis", help="the servers' Redis URL (redis://...)")
    parser.add_argument("--watch", type=int, action="append", default=[], metavar="PID",
                        help="also measure the CPU of this process and its descendants "
                             "(repeatable: PostgreSQL's postmaster, Redis)")
    parser.add_argument("--bot-tables", type=int, default=0, metavar="N",
                        help="also N tables of bots only, thinking meanwhile")
    parser.add_argument("--bot-game", default="fist", help="the bot tables' game")
    parser.add_argument("--bot", dest="bot_name", default="ismcts",
                        help="the bot tables' bot (every seat)")
    parser.add_argument("--fresh-people", action="store_true",
                        help="a finished table's place goes to two new guests, not a rematch")
    parser.add_argument("--json", dest="as_json", action="store_true")
    args = parser.parse_args(argv)
    server_args = [*(["--db", args.db] if args.db else []),
                   *(["--redis", args.redis] if args.redis else [])]
    if args.processes > 1 and not (args.db and args.redis):
        parser.error("--processes above 1 needs --db postgresql://... and --redis redis://...")
    out = run(args.tables, args.spectators, args.rate, args.seconds, args.warmup,
              not args.no_ramp, args.seed, None, server_args,
              report=None if args.as_json else print_report, urls=args.url,
              processes=args.processes, watch=args.watch, bot_tables=args.bot_tables,
              bot_game=args.bot_game, bot_name=args.bot_name,
              fresh_people=args.fresh_people)
    if args.as_json:
        print(json.dumps(out, indent=1))
    else:
        print(f"saturation: {out['saturation_actions_per_s']} actions/s held "
              f"(p99 <= 250 ms, no error); errors in all {out['errors']} "
              f"{out['error_samples'] or ''}")


if __name__ == "__main__":
    main()
