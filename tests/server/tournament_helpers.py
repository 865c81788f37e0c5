"""Tournaments driven as people drive them (docs/tournaments.md): HTTP for the tournament,
a WebSocket per game; the moves are random legal ones (the server's state is the test's
oracle of legality, the protocol is what is tested), and the standings recomputed here from
the finished games, independently of the server's code."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import select

from dragonlair.server.db import GameTable
from dragonlair.server.tournaments import runner, service
from dragonlair.server.tournaments.models import Tournament, TournamentGame
from tests.server.helpers import Client, ServerThread

JSON = dict[str, Any]
_names = itertools.count()


@contextmanager
def quick_tournaments(**limits: Any) -> Iterator[None]:
    """Meanwhile: a runner round every 100 ms, an arena of a few seconds allowed, and
    ``limits`` (service.Limits fields)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "TICK_S", 0.1)
        patch.setattr(service.LIMITS, "arena_min_s", 0.5)
        for name, value in limits.items():
            patch.setattr(service.LIMITS, name, value)
        yield


def organiser(server: ServerThread, moderator: bool = False) -> Client:
    """A registered person (tournaments are created by registered people)."""
    org = Client(server, guest=False)
    n = next(_names)
    r = org.http.post("/api/auth/register", json={
        "username": f"org{n}x{random.randrange(10**6)}", "password": "a long password 123",
        "display_name": f"Org {n}"})
    assert r.status_code == 200, r.text
    org.user = r.json()
    return org


def create(org: Client, **body: Any) -> JSON:
    r = org.http.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    out: JSON = r.json()
    return out


def show(client: Client, tid: str) -> JSON:
    r = client.http.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def leave(client: Client) -> None:
    """Close the client's socket, having read what it was sent (unread messages would hold
    up the closing handshake)."""
    if client.ws is not None:
        client.drain()
        client.close()


def play(server: ServerThread, tid: str, players: list[Client], rng: random.Random,
         timeout: float = 60.0, stop_when: Any = None) -> JSON:
    """Play every game the tournament pairs ``players`` in until it has finished (or
    ``stop_when(info)`` says stop); the last tournament page read."""
    by_user = {c.user["id"]: c for c in players}
    tables: dict[str, dict[int, Client]] = {}
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    next_poll = 0.0
    while True:
        assert time.monotonic() < deadline, "the tournament did not end"
        if time.monotonic() >= next_poll:
            info = show(players[0], tid)
            if info["status"] == "finished" or (stop_when is not None and stop_when(info)):
                for c in players:
                    leave(c)
                return info
            busy = [p["user_id"] for g in info["running"] for p in g["players"]
                    if p["user_id"] is not None]
            assert len(busy) == len(set(busy)), "a player at two tables at once"
            for game in info["running"]:
                if game["table_id"] in seen:
                    continue
                seen.add(game["table_id"])
                humans = {}
                for seat, p in enumerate(game["players"]):
                    client = by_user.get(p["user_id"])
                    if client is None:
                        continue
                    leave(client)
                    welcome = client.connect(game["table_id"])
                    assert welcome is not None and welcome["seat"] == seat
                    humans[seat] = client
                tables[game["table_id"]] = humans
            next_poll = time.monotonic() + 0.25
        moved = False
        for table_id, humans in list(tables.items()):
            runtime = server.runtime(table_id)
            state = runtime.state
            if state.is_terminal():
                del tables[table_id]
                continue
            n = len(state.history)
            for seat in [s for s in state.current_seats() if s in humans]:
                client = humans[seat]
                client.catch_up(n)
                action = rng.choice(list(state.legal_actions(seat)))
                answer = client.act(str(action), seq=n)
                assert answer["type"] in ("ack", "error"), answer
                moved = True
        if not moved:
            time.sleep(0.005)


def expected_arena(info: JSON) -> dict[int, float]:
    """Each player's arena score from the finished games as the page lists them (win 2,
    draw 1, loss 0; after two wins in a row each game counts double until a non-win)."""
    score: dict[int, float] = {row["user_id"]: 0.0 for row in info["standings"]}
    streak: dict[int, int] = dict.fromkeys(score, 0)
    for game in reversed(info["finished"]):  # the page lists the newest first
        placings = [p["placing"] for p in game["players"]]
        for i, p in enumerate(game["players"]):
            user = p["user_id"]
            if user is None:
                continue
            below = sum(q > placings[i] for q in placings)
            tied = sum(q == placings[i] for q in placings) - 1
            base = 2 * below + tied
            won = placings[i] == 1 and tied == 0
            score[user] += base * (2 if streak[user] >= 2 else 1)
            streak[user] = streak[user] + 1 if won else 0
    return score


#: the holder of a tournament that :func:`arena_of` makes: no runner steps it
OWNER = "a test, not a runner"


def arena_of(server: ServerThread, players: list[Client]) -> tuple[str, Any]:
    """An arena of ``players``, running, held by :data:`OWNER` (no runner steps it)."""
    org = organiser(server)
    t = create(org, game="master", kind="arena", name="Tables", minutes=30, starts_in_s=3000)
    for p in players:
        assert p.http.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    with server.app.state.sessions() as s:
        row = s.get(Tournament, t["id"])
        assert row is not None
        row.owner, row.expires_at, row.status = OWNER, 1e12, "running"
        row.starts_at, row.ends_at = 0.0, 1e12
        s.commit()
    return t["id"], server.app.state.settings


def game(server: ServerThread, tid: str, seats: list[int | None],
         placings: list[int] | None, settings: Any) -> str:
    """A table of the tournament, finished with ``placings`` (``None``: still running)."""
    with server.app.state.sessions() as s:
        t = s.get(Tournament, tid)
        assert t is not None
        table_id = service._start_table(s, t, seats, None, settings)
        if placings is not None:
            table = s.get(GameTable, table_id)
            assert table is not None
            table.status = "finished"
            table.result = {"winners": [placings.index(1)], "placings": placings,
                            "scores": [0] * len(placings), "reason": "master.end.score",
                            "reason_params": {}}
            row = s.scalar(select(TournamentGame).where(TournamentGame.table_id == table_id))
            assert row is not None
            service.count_game(s, row, table.result, 1.0)
        s.commit()
    return table_id
