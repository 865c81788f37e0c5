"""A restart in the middle of an arena changes nothing (docs/tournaments.md, "Restarts and
processes"): the server stops while games run, a new one starts on the same database, the
tournament goes on, and the final standings are those of its games, none lost or counted
twice."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from dragonlair.server.tournaments.models import TournamentGame, TournamentPlayer
from tests.server.helpers import Client, ServerThread
from tests.server.tournament_helpers import (
    create,
    expected_arena,
    organiser,
    play,
    quick_tournaments,
    show,
)


def move_to(client: Client, server: ServerThread) -> None:
    cookies = client.http.cookies
    client.http.close()
    client.server = server
    client.http = httpx.Client(base_url=server.base, timeout=20, cookies=cookies)


@pytest.mark.slow  # CI runs it; the quick run has the table restarts (test_bots_and_restart)
def test_a_restart_mid_arena_loses_nothing(tmp_path: Path) -> None:
    with quick_tournaments():
        first = ServerThread(tmp_path).start()
        players = [Client(first, f"R{i}") for i in range(4)]
        org = organiser(first)
        t = create(org, game="master", kind="arena", name="Restart", minutes=2.5 / 60)
        for p in players:
            assert p.http.post(f"/api/tournaments/{t['id']}/join").status_code == 200
        rng = random.Random(3)
        middle = play(first, t["id"], players, rng,
                      stop_when=lambda i: len(i["finished"]) >= 2 and bool(i["running"]))
        first.stop()  # games running
        second = ServerThread(tmp_path).start()
        try:
            for p in [*players, org]:
                move_to(p, second)
            after = show(org, t["id"])
            assert {g["table_id"] for g in middle["running"]} <= \
                {g["table_id"] for g in after["running"] + after["finished"]}
            final = play(second, t["id"], players, rng)
            finished = {g["table_id"] for g in final["finished"]}
            assert {g["table_id"] for g in middle["finished"]} <= finished
            assert {g["table_id"] for g in middle["running"]} <= finished
            expected = expected_arena(final)
            assert {r["user_id"]: r["score"] for r in final["standings"]} == expected
            with second.app.state.sessions() as s:
                games = list(s.scalars(select(TournamentGame).where(
                    TournamentGame.tournament_id == t["id"])))
                rows = {p.user_id: p for p in s.scalars(select(TournamentPlayer).where(
                    TournamentPlayer.tournament_id == t["id"]))}
            assert len(games) == len(finished) and all(g.finished for g in games)
            assert {u: r.score for u, r in rows.items()} == expected
            assert sum(r.games for r in rows.values()) == 2 * len(games)
        finally:
            second.stop()
