"""Rematch (issue 22; dragonlair/server/rematch.py, docs/server.md "Rematch"), over a real
server on a :class:`FakeClock`: the people at a finished table accept and a new table runs
with the same people (moved one seat on), options, clock, rated flag and takeover bot; bots
accept at once; a decline or the end of the offer's time is told to every viewer; whoever is
no person at the table cannot accept; accepting twice changes nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from dragonlair.server.clocks import FakeClock
from tests.server.helpers import JSON, Client, ServerThread, play_to_end, serving

CLOCK = FakeClock()
TIMEOUT = 120.0  # Settings.rematch_timeout_s (its default)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server on :data:`CLOCK` (SQLite, or PostgreSQL as ``DRAGONLAIR_TEST_SERVER_DB``
    says)."""
    for srv in serving(tmp_path_factory, clock=CLOCK, clock_heartbeat_s=5.0):
        assert srv.settings.rematch_timeout_s == TIMEOUT
        yield srv


def finished(server: ServerThread, game: str, people: list[Client], seats: list[JSON],
             seed: int, **body: object) -> str:
    """A table of ``game`` played to its end by ``people`` (the first creates it, the others
    join its open seats in order), each connected to it."""
    owner = people[0]
    r = owner.http.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    for c in people[1:]:
        assert c.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert owner.http.post(f"/api/tables/{tid}/start").status_code == 200
    humans: dict[int, Client] = {}
    for c in people:
        c.connect(tid)
        assert c.seat is not None
        humans[c.seat] = c
    play_to_end(server, tid, humans, random.Random(seed))
    for c in people:
        ended(c)
    return tid


def ended(client: Client) -> None:
    """Wait until ``client`` has been sent the update that ends the game."""
    def over(m: JSON) -> bool:
        return m.get("type") == "update" and m["status"] == "finished"

    if not any(over(m) for m in client.received):
        client.wait(over)


def rematch(client: Client, tid: str, decline: bool = False) -> JSON:
    r = client.http.post(f"/api/tables/{tid}/rematch" + ("/decline" if decline else ""))
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def note(client: Client, state: str) -> JSON:
    """The next ``rematch`` message in ``state`` this client gets."""
    return client.wait(lambda m: m.get("type") == "rematch" and m["state"] == state)


def table(client: Client, tid: str) -> JSON:
    r = client.http.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    out: JSON = r.json()
    return out


def rematch_rows(server: ServerThread) -> int:
    from sqlalchemy import func, select

    from dragonlair.server.db import Rematch

    with server.app.state.sessions() as s:
        return int(s.scalar(select(func.count()).select_from(Rematch)) or 0)


def test_everyone_accepts_and_the_new_table_runs_with_the_same_people(
        server: ServerThread) -> None:
    ann, bob, eve = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Eve")
    clock = {"kind": "realtime", "initial": 600, "increment": 5}
    tid = finished(server, "master", [ann, bob], [{"kind": "me"}, {"kind": "open"}], 1,
                   options={"four_of_a_kind": "100"}, rated=True, clock=clock,
                   takeover_bot="random")
    eve.connect(tid)  # a spectator sees the offer too
    old = table(ann, tid)
    offered = rematch(ann, tid)
    assert offered["state"] == "offered" and offered["accepted"] == [0]
    assert offered["asked"] == [0, 1] and "table" not in offered
    assert offered["expires_at"] == pytest.approx(CLOCK.now() + TIMEOUT)
    for c in (ann, bob, eve):
        assert note(c, "offered")["accepted"] == [0]
    started = rematch(bob, tid)
    assert started["state"] == "started" and started["accepted"] == [0, 1]
    new_id = started["table"]
    for c in (ann, bob, eve):  # every client is told where to go
        assert note(c, "started")["table"] == new_id
    new = table(ann, new_id)
    assert new["status"] == "running" and new["id"] != tid
    # M1: Dragon Master is for two; the rematch swaps who moves first
    assert [(s["kind"], s["user_id"]) for s in new["seats"]] == \
        [("human", bob.user["id"]), ("human", ann.user["id"])]
    for key in ("game", "options", "rated", "clock", "takeover_bot", "game_version"):
        assert new[key] == old[key], key
    # the new table plays: Bob (seat 0 now) is welcomed with his seat and the clocks
    bob.close()
    welcome = bob.connect(new_id)
    assert welcome is not None and welcome["seat"] == 0 and welcome["table"]["status"] == \
        "running" and "clock" in welcome
    # a POST after the start answers the same (a client that missed the message)
    again = rematch(ann, tid)
    assert again["state"] == "started" and again["table"] == new_id
    # and a late viewer of the finished table is told after its welcome
    late = Client(server, "Late")
    late.connect(tid)
    assert note(late, "started")["table"] == new_id


def test_a_decline_is_told_to_everyone_and_a_new_offer_may_follow(
        server: ServerThread) -> None:
    ann, bob, eve = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Eve")
    tid = finished(server, "master", [ann, bob], [{"kind": "me"}, {"kind": "open"}], 2)
    eve.connect(tid)
    rematch(bob, tid)
    declined = rematch(ann, tid, decline=True)
    assert declined["state"] == "declined" and declined["by"] == 0
    for c in (ann, bob, eve):
        assert note(c, "declined")["by"] == 0
    # nothing stands: accepting now makes a fresh offer (Ann's), declining is refused
    r = bob.http.post(f"/api/tables/{tid}/rematch/decline")
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.no_offer"
    fresh = rematch(ann, tid)
    assert fresh["state"] == "offered" and fresh["accepted"] == [0] and "by" not in fresh


def test_an_offer_expires_with_the_clock(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = finished(server, "master", [ann, bob], [{"kind": "me"}, {"kind": "open"}], 3)
    rematch(ann, tid)
    note(bob, "offered")
    CLOCK.advance(TIMEOUT - 1)
    assert rematch(ann, tid)["state"] == "offered"  # still standing
    CLOCK.advance(1)
    for c in (ann, bob):
        note(c, "expired")
    r = bob.http.post(f"/api/tables/{tid}/rematch/decline")
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.no_offer"
    assert r.json()["params"] == {"state": "expired"}
    # Bob's accept is a new offer now, not an acceptance of the old one
    fresh = rematch(bob, tid)
    assert fresh["state"] == "offered" and fresh["accepted"] == [1]


def test_bots_accept_at_once_and_a_taken_over_player_is_not_asked(
        server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "open"}]
    r = ann.http.post("/api/tables", json={"game": "farkle", "seats": seats,
                                            "options": {"max_turns": 2},
                                            "takeover_bot": "random"})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    ann.connect(tid)
    bob.connect(tid)
    # Bob resigns: a bot finishes for him (D-rules are the engine's; the seat is the bot's)
    assert bob.http.post(f"/api/tables/{tid}/resign").status_code == 200
    play_to_end(server, tid, {0: ann}, random.Random(4))
    ended(ann)
    r = bob.http.post(f"/api/tables/{tid}/rematch")
    assert r.status_code == 403 and r.json()["code"] == "server.rematch.not_player"
    # Ann is the only person asked: her offer is everyone's yes, the table starts
    started = rematch(ann, tid)
    assert started["asked"] == [0] and started["accepted"] == [0, 1, 2]
    assert started["state"] == "started"
    new = table(ann, started["table"])
    assert new["status"] == "running"
    assert [(s["kind"], s["user_id"], s["bot"]) for s in new["seats"]] == [
        ("bot", None, "random"), ("bot", None, "random"), ("human", ann.user["id"], None)]


def test_who_may_not_accept_and_double_accepts(server: ServerThread) -> None:
    ann, bob, eve = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Eve")
    r = ann.http.post("/api/tables", json={"game": "master",
                                            "seats": [{"kind": "me"}, {"kind": "open"}]})
    open_id = r.json()["id"]
    r = ann.http.post(f"/api/tables/{open_id}/rematch")
    assert r.status_code == 409 and r.json()["code"] == "server.rematch.not_finished"
    r = ann.http.post("/api/tables/nosuchtable/rematch")
    assert r.status_code == 404 and r.json()["code"] == "server.table.not_found"
    before = rematch_rows(server)
    tid = finished(server, "master", [ann, bob], [{"kind": "me"}, {"kind": "open"}], 5)
    # a spectator (and an anonymous visitor) may not offer, accept or decline
    for path in ("rematch", "rematch/decline"):
        r = eve.http.post(f"/api/tables/{tid}/{path}")
        assert r.status_code == 403 and r.json()["code"] == "server.rematch.not_player"
        r = Client(server, guest=False).http.post(f"/api/tables/{tid}/{path}")
        assert r.status_code == 401
    assert rematch_rows(server) == before  # nothing was written
    first = rematch(ann, tid)
    second = rematch(ann, tid)
    assert first == second and second["state"] == "offered" and second["accepted"] == [0]
    assert rematch_rows(server) == before + 1
