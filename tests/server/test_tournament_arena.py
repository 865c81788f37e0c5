"""Arenas run to the end with people playing as browsers do (protocol clients) and with bots
filling tables (docs/tournaments.md)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from dragonlair.server.tournaments import service
from dragonlair.server.tournaments.models import TournamentGame, TournamentPlayer
from tests.server.helpers import Client, ServerThread, serving
from tests.server.tournament_helpers import (
    create,
    expected_arena,
    organiser,
    play,
    quick_tournaments,
    show,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with quick_tournaments(bot_wait_s=0.3):
        yield from serving(tmp_path_factory)


def stored(server: ServerThread, tid: str) -> tuple[dict[int, tuple[float, int, int]],
                                                     list[TournamentGame]]:
    with server.app.state.sessions() as s:
        rows = {p.user_id: (p.score, p.games, p.wins) for p in s.scalars(
            select(TournamentPlayer).where(TournamentPlayer.tournament_id == tid))}
        games = list(s.scalars(select(TournamentGame).where(
            TournamentGame.tournament_id == tid)))
    return rows, games


def check_standings(server: ServerThread, info: dict[str, Any], tid: str) -> None:
    assert info["status"] == "finished" and not info["running"]
    expected = expected_arena(info)
    standings = info["standings"]
    assert {r["user_id"]: r["score"] for r in standings} == expected
    scores = [r["score"] for r in standings]
    assert scores == sorted(scores, reverse=True)
    assert standings[0]["rank"] == 1
    rows, games = stored(server, tid)
    assert {u: v[0] for u, v in rows.items()} == expected  # the totals kept game by game
    assert all(g.finished for g in games)
    assert sum(v[1] for v in rows.values()) == sum(
        sum(u is not None for u in g.seats) for g in games)


def test_arena_of_twelve_people(server: ServerThread) -> None:
    players = [Client(server, f"P{i}") for i in range(12)]
    org = organiser(server)
    # 3 s: twelve people join one by one, and on a loaded machine (CI, three pytest workers)
    # the last of them joined too late to be paired in an arena of 1.5 s
    t = create(org, game="master", kind="arena", name="Twelve", minutes=3 / 60, rated=True)
    for p in players:
        r = p.http.post(f"/api/tournaments/{t['id']}/join")
        assert r.status_code == 200, r.text
        assert r.json()["me"]["joined"] is True
    info = play(server, t["id"], players, random.Random(1))
    check_standings(server, info, t["id"])
    assert len(info["standings"]) == 12
    assert all(row["games"] >= 1 for row in info["standings"])
    assert len(info["finished"]) >= 6
    for game in info["finished"][:3]:  # the tables' own results
        table = org.http.get(f"/api/tables/{game['table_id']}").json()
        assert table["status"] == "finished" and table["rated"] is True
        assert [p["placing"] for p in game["players"]] == table["result"]["placings"]


@pytest.mark.slow  # CI runs it; the quick run has the arena of twelve people
def test_arena_with_bots_filling_tables(server: ServerThread,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # bots at once for whoever is left over: with a wait, the one left over is the last to
    # come back from a table, and a people's table of three that ended within the wait
    # brought everybody back before it passed, again and again (a CI run saw no bot in a
    # whole arena); the wait itself: test_tournament_logic.py
    monkeypatch.setattr(service.LIMITS, "bot_wait_s", 0.0)
    players = [Client(server, f"F{i}") for i in range(4)]
    org = organiser(server)
    t = create(org, game="farkle", kind="arena", name="Bots", minutes=1.5 / 60,
               table_size=3, bots=True, bot="random", options={"max_turns": 2})
    for p in players:
        assert p.http.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    info = play(server, t["id"], players, random.Random(2))
    check_standings(server, info, t["id"])
    with_bots = [g for g in info["finished"]
                 if any(p["user_id"] is None for p in g["players"])]
    assert with_bots, f"no table was filled with a bot: {info['finished']}, {info['standings']}"
    assert all(len(g["players"]) == 3 for g in info["finished"])


@pytest.mark.slow  # CI runs it; the quick run has Swiss pairing's unit tests (tournament_logic)
def test_swiss_of_seven_with_a_bye_and_no_repeat(server: ServerThread) -> None:
    players = [Client(server, f"S{i}") for i in range(7)]
    org = organiser(server)
    t = create(org, game="master", kind="swiss", name="Seven", rounds=3, starts_in_s=1.5)
    for p in players:
        assert p.http.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    info = play(server, t["id"], players, random.Random(5))
    assert info["status"] == "finished" and info["current_round"] == 3
    by_round: dict[int, list[frozenset[int]]] = {}
    for game in info["finished"]:
        by_round.setdefault(game["round"], []).append(
            frozenset(p["user_id"] for p in game["players"]))
    assert sorted(by_round) == [1, 2, 3] and all(len(v) == 3 for v in by_round.values())
    pairs = [pair for games in by_round.values() for pair in games]
    assert len(pairs) == len(set(pairs)), "a repeated pairing"
    standings = info["standings"]
    assert sum(r["byes"] for r in standings) == 3 and max(r["byes"] for r in standings) == 1
    points: dict[int, float] = {r["user_id"]: 2.0 * r["byes"] for r in standings}
    for game in info["finished"]:
        for p in game["players"]:
            points[p["user_id"]] += p["points"]
    assert {r["user_id"]: r["score"] for r in standings} == points
    keys = [(-r["score"], -r["buchholz"], -r["sonneborn_berger"]) for r in standings]
    assert keys == sorted(keys)
    # a joined Swiss has started: nobody joins any more
    late = Client(server, "Late")
    r = late.http.post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409 and r.json()["code"] == "server.tournament.closed"


def test_refusals(server: ServerThread) -> None:
    guest = Client(server, "Guest")
    body: dict[str, Any] = {"game": "master", "kind": "arena", "name": "x", "minutes": 30}
    r = guest.http.post("/api/tournaments", json=body)
    assert r.status_code == 403 and r.json()["code"] == "server.tournament.registered_only"
    org = organiser(server)
    refused: list[tuple[dict[str, Any], str]] = [
                      ({"table_size": 3}, "server.tournament.table_size"),
                      ({"minutes": 200}, "server.request.invalid"),
                      ({"minutes": 0.001}, "server.tournament.duration"),
                      ({"name": "x" * 81}, "server.request.invalid"),
                      ({"name": "   "}, "server.tournament.name"),
                      ({"kind": "swiss", "rounds": None}, "server.tournament.rounds"),
                      ({"starts_in_s": 7200}, "server.tournament.starts"),
                      ({"clock": {"kind": "turn", "hours": 24}}, "server.tournament.clock"),
                      ({"bot": "nobody"}, "server.table.unknown_bot"),
                      ({"game": "nope"}, "core.game.unknown")]
    for bad, code in refused:
        r = org.http.post("/api/tournaments", json={**body, **bad})
        assert r.status_code in (403, 422) and r.json()["code"] == code, (bad, r.text)
    made = [org.http.post("/api/tournaments", json={**body, "starts_in_s": 3000})
            for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 429]
    assert made[2].json()["code"] == "server.tournament.too_many"
    tid = made[0].json()["id"]
    r = guest.http.post(f"/api/tournaments/{tid}/withdraw")
    assert r.status_code == 409 and r.json()["code"] == "server.tournament.not_joined"
    r = guest.http.get("/api/tournaments/nope")
    assert r.status_code == 404 and r.json()["code"] == "server.tournament.not_found"
    listed = guest.http.get("/api/tournaments").json()
    assert tid in {t["id"] for t in listed["scheduled"]}
    assert guest.http.post(f"/api/tournaments/{tid}/join").json()["me"]["joined"] is True
    page = guest.http.post(f"/api/tournaments/{tid}/withdraw").json()
    assert page["me"]["withdrawn"] is True and page["players"] == 0


@pytest.mark.slow  # CI runs it (a few seconds of waiting for the absence to count)
def test_absent_withdrawn_and_leavers_are_not_paired_again(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    absent_s = service.LIMITS.absent_s
    monkeypatch.setattr(service.LIMITS, "absent_s", 0.6)
    here, quitter, absent = (Client(server, n) for n in ("Here", "Quits", "Away"))
    org = organiser(server)
    t = create(org, game="master", kind="arena", name="Leavers", minutes=1.0 / 60,
               starts_in_s=1.2)
    for p in (here, quitter, absent):
        assert p.http.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    assert quitter.http.post(f"/api/tournaments/{t['id']}/withdraw").json()["me"]["withdrawn"]
    deadline = time.monotonic() + 20
    while (info := show(here, t["id"]))["status"] != "finished":  # only "Here" looks
        assert info["me"]["table"] is None and not info["running"]
        assert time.monotonic() < deadline
        time.sleep(0.1)
    withdrawn = {r["name"]: r["withdrawn"] for r in info["standings"]}
    assert withdrawn == {"Here": False, "Quits": True, "Away": True}
    assert info["finished"] == []

    # a player who leaves a game (a bot finishes it for them) is withdrawn, ranked last there;
    # the usual absence again (at 0.6 s, "Stays", who does not look while "Leaves" waits for
    # a table, could be withdrawn as absent before they are paired)
    monkeypatch.setattr(service.LIMITS, "absent_s", absent_s)
    a, b = Client(server, "Stays"), Client(server, "Leaves")
    t = create(org, game="master", kind="arena", name="Leaver", minutes=1.5 / 60, bot="random")
    for p in (a, b):
        assert p.http.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    deadline = time.monotonic() + 20
    while not (info := show(b, t["id"]))["me"]["table"]:
        assert time.monotonic() < deadline, "the two players were not paired"
        time.sleep(0.05)
    assert b.http.post(f"/api/tables/{info['me']['table']}/leave").status_code == 200
    info = play(server, t["id"], [a], random.Random(6))
    rows = {r["name"]: r for r in info["standings"]}
    assert rows["Leaves"]["withdrawn"] and rows["Leaves"]["games"] == 1
    assert rows["Stays"]["score"] == 2 and rows["Leaves"]["score"] == 0
    assert len(info["finished"]) == 1  # nobody left to pair "Stays" with
