"""Presence and "nobody is stuck" (issue 22; docs/server.md, "Away players and abandoned
tables"), on a real server with an injected (fake) clock: each seat's presence in
``welcome`` and ``presence``; the away policy (a countdown the others see, the takeover bot
at exactly its end, a return that cancels it, turn-based tables that wait, the option
checked); open tables that expire; the lobby listing only what one can join or watch."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from dragonlair.server.clocks import ClockSpec, FakeClock
from dragonlair.server.db import GameTable, SeatChange
from dragonlair.server.presence import AwayPolicy
from tests.server.clock_helpers import fake_server, finished_record
from tests.server.helpers import Client, ServerThread, play_to_end

JSON = dict[str, Any]
TWO = [{"kind": "me"}, {"kind": "open"}]


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def srv(tmp_path: Path, fake: FakeClock) -> Any:
    server = fake_server(tmp_path, fake)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One server for the refused options: none of them creates anything."""
    server = fake_server(tmp_path_factory.mktemp("refusing"), FakeClock())
    yield server
    server.stop()


def table_with(owner: Client, others: list[Client], game: str, seats: list[JSON], *,
               clock: JSON | None = None, away: JSON | None = None) -> str:
    """Create a table (with its away policy), seat ``others``, start it, connect everyone.
    A seat taken over goes to the random bot (the default, Master's expert, thinks for
    seconds a game: what is tested here is when and how the seat is taken)."""
    body: JSON = {"game": game, "seats": seats, "takeover_bot": "random"}
    if clock is not None:
        body["clock"] = clock
    if away is not None:
        body["away"] = away
    r = owner.http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    for c in others:
        assert c.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert owner.http.post(f"/api/tables/{tid}/start").status_code == 200
    for c in (owner, *others):
        c.connect(tid)
    return tid


def presence_of(client: Client, seat: int, connected: bool) -> JSON:
    """The next ``presence`` message in which ``seat``'s person is (not) connected."""
    def matches(m: JSON) -> bool:
        return m.get("type") == "presence" and any(
            e["seat"] == seat and e["connected"] is connected for e in m["seats"])

    message = next((m for m in reversed(client.received) if matches(m)), None)
    return message or client.wait(matches)


def entry(message: JSON, seat: int) -> JSON:
    found: JSON = next(e for e in message["seats"] if e["seat"] == seat)
    return found


def seat_kind(server: ServerThread, tid: str, seat: int) -> str:
    kind: str = server.runtime(tid).seats[seat].kind
    return kind


def test_the_stored_policy_and_its_defaults() -> None:
    realtime = ClockSpec("realtime", 60.0, 0.0, 60.0)
    turn = ClockSpec.from_json({"kind": "turn", "hours": 24})
    # a table older than the option (NULL) gets the server's default
    assert AwayPolicy.from_json(None, ClockSpec(), 180.0) == AwayPolicy("bot", 180.0)
    assert AwayPolicy.from_json({"kind": "bot", "seconds": 45}, realtime, 180.0) == \
        AwayPolicy("bot", 45.0)
    assert AwayPolicy.from_json({"kind": "wait"}, ClockSpec(), 180.0).takes_over is False
    # a turn-based table waits whatever is stored: its per-move clock decides
    assert AwayPolicy.from_json({"kind": "bot", "seconds": 45}, turn, 180.0).kind == "wait"
    assert AwayPolicy("bot", 45.0).to_json() == {"kind": "bot", "seconds": 45.0}
    assert AwayPolicy("wait", 0.0).to_json() == {"kind": "wait"}


def test_welcome_shows_who_is_connected_and_the_default_policy(srv: ServerThread) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tid = table_with(ann, [bob], "master", TWO)
    eve = Client(srv, "Eve")  # a spectator sees the presence too: it is public
    welcome = eve.connect(tid)
    assert welcome is not None
    presence = welcome["presence"]
    assert presence["away"] == {"kind": "bot", "seconds": 180.0}
    assert presence["seats"] == [
        {"seat": 0, "connected": True, "since": None, "takeover_at": None},
        {"seat": 1, "connected": True, "since": None, "takeover_at": None}]
    assert ann.http.get(f"/api/tables/{tid}").json()["away"] == {"kind": "bot",
                                                                 "seconds": 180.0}


def test_an_away_player_is_replaced_at_exactly_the_end_of_the_countdown(
        srv: ServerThread, fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tid = table_with(ann, [bob], "master", TWO, away={"kind": "bot", "seconds": 60})
    left_at = fake.now()
    bob.close()
    note = presence_of(ann, 1, connected=False)
    assert entry(note, 1) == {"seat": 1, "connected": False, "since": left_at,
                              "takeover_at": left_at + 60}
    assert entry(note, 0)["connected"] is True
    assert note["away"] == {"kind": "bot", "seconds": 60.0}
    fake.advance(59.5)  # no wake-up is due before the countdown's end
    assert seat_kind(srv, tid, 1) == "human"
    fake.advance(0.5)
    takeover = ann.wait(lambda m: m.get("type") == "takeover")
    assert takeover["seat"] == 1 and takeover["reason"] == "away"
    after = ann.wait(lambda m: m.get("type") == "presence")
    assert [e["seat"] for e in after["seats"]] == [0]  # a bot's seat has no presence
    with srv.app.state.sessions() as s:
        change = s.scalars(select(SeatChange).where(SeatChange.table_id == tid)).one()
        assert (change.seat, change.reason, change.created_at) == (1, "away", left_at + 60)
    # the other player finishes the game against the bot (Master is short)
    play_to_end(srv, tid, {0: ann}, random.Random(3))
    record = finished_record(ann, tid)
    assert record.meta["takeovers"] == [{"seat": 1, "seq": takeover["seq"],
                                         "reason": "away", "bot": takeover["bot"]}]


def test_coming_back_before_the_end_cancels_the_countdown(srv: ServerThread,
                                                          fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tid = table_with(ann, [bob], "master", TWO, away={"kind": "bot", "seconds": 60})
    bob.close()
    presence_of(ann, 1, connected=False)
    fake.advance(45)
    bob.connect(tid)
    back = presence_of(ann, 1, connected=True)
    assert entry(back, 1) == {"seat": 1, "connected": True, "since": None,
                              "takeover_at": None}
    fake.advance(600)  # the cancelled wake-up never comes
    assert seat_kind(srv, tid, 1) == "human"
    # away again: a new countdown, from the new departure
    again_at = fake.now()
    bob.close()
    ann.received.clear()
    note = presence_of(ann, 1, connected=False)
    assert entry(note, 1)["takeover_at"] == again_at + 60


def test_a_turn_based_table_waits_for_its_clock(srv: ServerThread, fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tid = table_with(ann, [bob], "master", TWO, clock={"kind": "turn", "hours": 24})
    welcome = [m for m in ann.received if m["type"] == "welcome"][-1]
    assert welcome["presence"]["away"] == {"kind": "wait"}
    bob.close()
    note = presence_of(ann, 1, connected=False)
    assert entry(note, 1)["takeover_at"] is None and entry(note, 1)["since"] == fake.now()
    fake.advance(3600)  # an hour away: no bot (the 24 h per move decide)
    assert seat_kind(srv, tid, 1) == "human"


def test_a_table_that_waits_never_replaces_anyone(srv: ServerThread, fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tid = table_with(ann, [bob], "master", TWO, away={"kind": "wait"})
    bob.close()
    assert entry(presence_of(ann, 1, connected=False), 1)["takeover_at"] is None
    fake.advance(3600)
    assert seat_kind(srv, tid, 1) == "human"


def test_when_everybody_is_away_the_bots_finish_and_nothing_hangs(
        srv: ServerThread, fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    tid = table_with(ann, [bob], "master", TWO, away={"kind": "bot", "seconds": 30})
    eve = Client(srv, "Eve")
    eve.connect(tid)
    ann.close()
    bob.close()
    presence_of(eve, 0, connected=False)
    presence_of(eve, 1, connected=False)
    fake.advance(30)
    record = finished_record(eve, tid)
    assert sorted(t["seat"] for t in record.meta["takeovers"]) == [0, 1]
    assert {t["reason"] for t in record.meta["takeovers"]} == {"away"}
    listed = [t["id"] for t in eve.http.get("/api/tables").json()]
    assert tid not in listed  # finished: nothing to join or watch live


@pytest.mark.parametrize(("away", "clock", "code"), [
    ({"kind": "bot", "seconds": 5}, None, "server.table.away_seconds"),  # under the minimum
    ({"kind": "bot", "seconds": 10_000}, None, "server.request.invalid"),  # over an hour
    ({"kind": "bot", "seconds": -1}, None, "server.request.invalid"),
    ({"kind": "zombie"}, None, "server.request.invalid"),
    ({"kind": "wait", "seconds": 60}, None, "server.request.invalid"),  # a bot's field
    ({"kind": "bot", "seconds": 60}, {"kind": "turn", "hours": 1},
     "server.table.away_turn_based"),
])
def test_a_bad_away_option_is_refused_with_a_code_and_creates_nothing(
        refusing: ServerThread, away: JSON, clock: JSON | None, code: str) -> None:
    srv = refusing
    ann = Client(srv, "Ann")
    body: JSON = {"game": "master", "away": away}
    if clock is not None:
        body["clock"] = clock
    r = ann.http.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == code
    if code == "server.table.away_seconds":
        assert r.json()["params"] == {"seconds": 5, "min": 30.0, "max": 3600.0}
    with srv.app.state.sessions() as s:
        assert s.scalars(select(GameTable)).all() == []


def test_an_open_table_expires_and_leaves_the_lobby(srv: ServerThread, fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    created = fake.now()
    r = ann.http.post("/api/tables", json={"game": "master"})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.json()["expires_at"] == created + 3600
    assert tid in [t["id"] for t in bob.http.get("/api/tables").json()]
    fake.advance(3599)
    assert tid in [t["id"] for t in bob.http.get("/api/tables").json()]
    fake.advance(1)  # an hour: no longer listed, even before the sweep comes
    assert tid not in [t["id"] for t in bob.http.get("/api/tables").json()]
    r = bob.http.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 409 and r.json()["params"] == {"status": "expired"}
    table = bob.http.get(f"/api/tables/{tid}").json()
    assert table["status"] == "expired" and table["seats"][1]["kind"] == "open"
    r = ann.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 409 and r.json()["code"] == "server.table.not_open"
    expired = bob.http.get("/api/tables", params={"status": "expired"}).json()
    assert [t["id"] for t in expired] == [tid]


def test_the_sweep_expires_a_waiting_table_and_tells_its_viewers(
        srv: ServerThread, fake: FakeClock) -> None:
    ann = Client(srv, "Ann")
    tid = ann.http.post("/api/tables", json={"game": "master"}).json()["id"]
    ann.connect(tid)
    fake.advance(3600 + srv.settings.expiry_sweep_s)
    update = ann.wait(lambda m: m.get("type") == "update" and m["status"] == "expired")
    assert update["seq"] == 0
    with srv.app.state.sessions() as s:
        table = s.get(GameTable, tid)
        assert table is not None and table.status == "expired"
        assert table.finished_at is not None
    # an expired table no longer counts against the creator's open tables
    assert ann.http.post("/api/tables", json={"game": "master"}).status_code == 201


def test_the_lobby_lists_what_one_can_join_or_watch(srv: ServerThread,
                                                    fake: FakeClock) -> None:
    ann, bob = Client(srv, "Ann"), Client(srv, "Bob")
    old = ann.http.post("/api/tables", json={"game": "master"}).json()["id"]
    fake.advance(3600)
    waiting = ann.http.post("/api/tables", json={"game": "master"}).json()["id"]
    running = table_with(ann, [bob], "master", TWO)
    alone = table_with(bob, [], "master", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])
    play_to_end(srv, alone, {0: bob}, random.Random(1))
    finished_record(bob, alone)
    listed = {t["id"]: t["status"] for t in Client(srv, "Eve").http.get("/api/tables").json()}
    assert listed == {waiting: "open", running: "running"}
    assert old not in listed and alone not in listed
