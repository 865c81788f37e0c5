"""Helpers of the clock, leaver and rating tests: a real server on a :class:`FakeClock`,
tables with people, and what their messages say about the clocks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import select

from dragonlair.core.records import Record, replay
from dragonlair.server.clocks import FakeClock
from dragonlair.server.db import RatingPoint
from tests.server.helpers import Client, ServerThread

JSON = dict[str, Any]


def fake_server(data: Path, clock: FakeClock) -> ServerThread:
    return ServerThread(data, clock=clock, clock_heartbeat_s=5.0).start()


def table_with(owner: Client, others: list[Client], game: str, seats: list[JSON], *,
               clock: JSON | None = None, rated: bool = False,
               takeover_bot: str | None = None, **options: Any) -> str:
    """Create a table, seat ``others`` at its open seats, start it, connect everyone."""
    body: JSON = {"game": game, "options": options, "seats": seats, "rated": rated}
    if clock is not None:
        body["clock"] = clock
    if takeover_bot is not None:
        body["takeover_bot"] = takeover_bot
    r = owner.http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    for c in others:
        r = c.http.post(f"/api/tables/{tid}/join", json={})
        assert r.status_code == 200, r.text
    r = owner.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 200, r.text
    for c in (owner, *others):
        c.connect(tid)
    return tid


def clock_at(client: Client, seq: int, timeout: float = 20) -> JSON:
    """The ``clock`` of the newest welcome/update this client got at log ``seq`` or later
    (waiting for one)."""
    deadline = time.monotonic() + timeout
    while True:
        for m in reversed(client.received):
            if m.get("type") in ("welcome", "update") and m["seq"] >= seq and "clock" in m:
                clock: JSON = m["clock"]
                return clock
        if time.monotonic() > deadline:
            raise AssertionError(f"no clock at seq {seq}: {client.received[-3:]}")
        client.recv(0.05)


def running_clock(client: Client, seat: int, timeout: float = 20) -> JSON:
    """Wait for a message in which ``seat``'s clock runs; its clock part."""
    def runs(m: JSON) -> bool:
        return (m.get("type") in ("welcome", "update") and "clock" in m
                and bool(m["clock"]["seats"][seat]["running"]))

    message = next((m for m in client.received if runs(m)), None) or client.wait(runs, timeout)
    clock: JSON = message["clock"]
    return clock


def mover(server: ServerThread, tid: str, timeout: float = 20) -> int:
    """The person's seat to move once chance has been drawn (waits for it)."""
    runtime = server.runtime(tid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = runtime.state
        if not state.is_chance() and not state.is_terminal():
            seats = [s for s in state.current_seats()
                     if runtime.seats[s].kind == "human"]
            if seats:
                return seats[0]
        time.sleep(0.01)
    raise AssertionError("nobody came to move")


def finished_record(client: Client, tid: str, timeout: float = 60) -> Record:
    """The record of ``tid`` once finished (waiting for bots to finish it); it replays."""
    deadline = time.monotonic() + timeout
    while True:
        r = client.http.get(f"/api/tables/{tid}/record")
        if r.status_code == 200:
            record = Record.from_json(r.json())
            _, state = replay(record)
            assert state.is_terminal()
            return record
        if time.monotonic() > deadline:
            raise AssertionError(f"table {tid} did not finish: {r.text}")
        time.sleep(0.05)


def rating_points(server: ServerThread, tid: str) -> list[RatingPoint]:
    with server.app.state.sessions() as s:
        return list(s.scalars(select(RatingPoint).where(RatingPoint.table_id == tid)
                              .order_by(RatingPoint.seat)))
