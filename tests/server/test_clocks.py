"""Clocks with an injected (fake) time: real-time banks with an increment and a cap,
turn-based deadlines, the clock in welcome/update, settings checked on creation, and clocks
that survive a restart with the downtime charged to nobody."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from dragonlair.server.clocks import (
    ClockSpec,
    FakeClock,
    SeatClock,
    moved,
    plan,
    start,
)
from tests.server.clock_helpers import (
    clock_at,
    fake_server,
    finished_record,
    mover,
    running_clock,
    table_with,
)
from tests.server.helpers import Client, play_to_end

REALTIME = ClockSpec("realtime", 60.0, 10.0, 65.0)


def test_a_real_time_bank_is_charged_gets_the_increment_and_is_capped() -> None:
    c = start(REALTIME, SeatClock(0, 60.0), now=100.0)
    assert c.running and c.deadline() == 160.0 and c.remaining(120.0) == 40.0
    c = moved(REALTIME, c, now=120.0)  # 60 - 20 + 10
    assert not c.running and c.bank == 50.0
    c = moved(REALTIME, start(REALTIME, c, 200.0), now=201.0)  # 49 + 10
    assert c.bank == 59.0
    c = moved(REALTIME, start(REALTIME, c, 300.0), now=300.5)  # 58.5 + 10 capped at 65
    assert c.bank == 65.0


def test_a_turn_based_clock_gives_each_move_its_hours() -> None:
    spec = ClockSpec.from_json({"kind": "turn", "hours": 2})
    c = start(spec, SeatClock(0, spec.initial), now=0.0)
    assert c.deadline() == 7200.0
    c = moved(spec, c, now=7000.0)
    assert c.bank == 7200.0 and not c.running
    assert start(spec, c, now=9000.0).deadline() == 16200.0


def test_only_the_seats_to_move_run_and_chance_stops_no_clock() -> None:
    clocks = plan(REALTIME, {}, {1, 2}, 3, now=10.0)  # a sealed step: seats 1 and 2 bid
    assert sorted(clocks) == [0, 1, 2]
    assert [clocks[s].running for s in range(3)] == [False, True, True]
    after = plan(REALTIME, clocks, {2}, 3, now=15.0)  # seat 1 bid; seat 2 still runs
    assert set(after) == {1} and after[1].bank == 65.0  # 60 - 5 + 10, capped at 65
    assert plan(REALTIME, {**clocks, **after}, None, 3, now=99.0) == {}  # chance to move


def test_the_fake_clock_wakes_in_time_order_and_not_before() -> None:
    async def run() -> list[str]:
        fake, woke = FakeClock(0.0), []
        fake.call_at(5.0, lambda: woke.append("b"))
        fake.call_at(2.0, lambda: woke.append("a"))
        fake.call_at(9.0, lambda: woke.append("c")).cancel()
        fake.advance(1.0)
        await asyncio.sleep(0.01)
        assert woke == []
        fake.advance(5.0)
        await asyncio.sleep(0.01)
        fake.advance(5.0)
        await asyncio.sleep(0.01)
        return woke

    assert asyncio.run(run()) == ["a", "b"]


@pytest.mark.parametrize("clock", [
    {"kind": "realtime", "initial": 5},  # under 10 s
    {"kind": "realtime", "initial": 60, "maximum": 30},  # cap under the start
    {"kind": "realtime", "initial": 60, "increment": -1},
    {"kind": "turn", "hours": 0},
    {"kind": "turn", "hours": 1000},
    {"kind": "sandglass", "initial": 60},
    {"kind": "turn", "hours": 1, "initial": 60},  # a field of another kind
])
def test_clock_settings_out_of_range_are_a_clear_422(server: object, clock: dict[str, object]
                                                     ) -> None:
    from tests.server.helpers import ServerThread

    assert isinstance(server, ServerThread)
    ann = Client(server, "Ann")
    r = ann.http.post("/api/tables", json={"game": "master", "clock": clock})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == "server.request.invalid"
    assert all(e["field"].startswith("body.clock") for e in body["params"]["errors"])


@pytest.mark.slow
def test_real_time_over_a_real_server(tmp_path: Path) -> None:
    fake = FakeClock()
    server = fake_server(tmp_path, fake)
    try:
        ann, bob = Client(server, "Ann"), Client(server, "Bob")
        tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}],
                         clock={"kind": "realtime", "initial": 60, "increment": 10,
                                "maximum": 65}, takeover_bot="greedy")
        table = ann.http.get(f"/api/tables/{tid}").json()
        assert table["clock"] == {"kind": "realtime", "initial": 60.0, "increment": 10.0,
                                  "maximum": 65.0}
        people = {0: ann, 1: bob}
        first = mover(server, tid)
        other = 1 - first
        clock = running_clock(people[first], first)
        assert clock["kind"] == "realtime"
        assert clock["seats"][first]["remaining"] == 60.0
        assert clock["seats"][other] == {"seat": other, "remaining": 60.0, "running": False,
                                         "deadline": None}
        fake.advance(20)
        state = server.runtime(tid).state
        answer = people[first].act(str(state.legal_actions(first)[0]))
        assert answer["type"] == "ack", answer
        clock = clock_at(people[other], answer["seq"])
        assert clock["seats"][first] == {"seat": first, "remaining": 50.0, "running": False,
                                         "deadline": None}
        assert clock["seats"][other]["running"]
        assert clock["seats"][other]["deadline"] == clock["now"] + 60.0
        fake.advance(2)
        state = server.runtime(tid).state
        answer = people[other].act(str(state.legal_actions(other)[0]))
        assert answer["type"] == "ack", answer
        clock = clock_at(people[first], answer["seq"])
        assert clock["seats"][other]["remaining"] == 65.0  # 58 + 10, capped
        assert clock["seats"][first]["remaining"] == 50.0 and clock["seats"][first]["running"]
        # a spectator sees the clocks too
        eve = Client(server, "Eve")
        welcome = eve.connect(tid)
        assert welcome is not None and welcome["seat"] is None
        assert welcome["clock"]["seats"][other]["remaining"] == 65.0
    finally:
        server.stop()


def test_turn_based_deadline_over_a_real_server(tmp_path: Path) -> None:
    fake = FakeClock()
    server = fake_server(tmp_path, fake)
    try:
        ann, bob = Client(server, "Ann"), Client(server, "Bob")
        tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}],
                         clock={"kind": "turn", "hours": 1}, takeover_bot="greedy")
        people = {0: ann, 1: bob}
        first = mover(server, tid)
        other = 1 - first
        clock = running_clock(people[first], first)
        assert clock["kind"] == "turn" and clock["hours"] == 1.0
        assert clock["seats"][first]["deadline"] == clock["now"] + 3600.0
        fake.advance(3599)  # a second to spare: the move counts
        state = server.runtime(tid).state
        answer = people[first].act(str(state.legal_actions(first)[0]))
        assert answer["type"] == "ack", answer
        clock = clock_at(people[other], answer["seq"])
        assert clock["seats"][first]["remaining"] == 3600.0  # the next move has its hour
        assert clock["seats"][other]["deadline"] == fake.now() + 3600.0
        fake.advance(3601)
        note = people[first].wait(lambda m: m.get("type") == "takeover")
        assert note["seat"] == other and note["reason"] == "timeout" and note["bot"] == "greedy"
        seats = ann.http.get(f"/api/tables/{tid}").json()["seats"]
        assert seats[other]["kind"] == "bot" and seats[other]["bot"] == "greedy"
        # the one who timed out watches now: its moves are refused
        people[other].drain()
        refused = people[other].act("anything")
        assert refused["type"] == "error" and refused["code"] == "server.act.not_seated"
        play_to_end(server, tid, {first: people[first]}, random.Random(1))
        record = finished_record(ann, tid)
        assert record.meta["takeovers"] == [
            {"seat": other, "seq": answer["seq"], "reason": "timeout", "bot": "greedy"}]
    finally:
        server.stop()


@pytest.mark.slow
def test_clocks_survive_a_restart_and_the_downtime_counts_for_nobody(tmp_path: Path) -> None:
    fake = FakeClock()
    first_server = fake_server(tmp_path, fake)
    ann, bob = Client(first_server, "Ann"), Client(first_server, "Bob")
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}],
                     clock={"kind": "realtime", "initial": 60}, takeover_bot="greedy")
    people = {0: ann, 1: bob}
    first = mover(first_server, tid)
    other = 1 - first
    running_clock(people[first], first)
    fake.advance(20)
    state = first_server.runtime(tid).state
    answer = people[first].act(str(state.legal_actions(first)[0]))
    assert answer["type"] == "ack", answer
    seq = answer["seq"]
    fake.advance(10)  # the other has 50 s left
    for c in people.values():
        c.close()
    first_server.stop()
    fake.advance(1000)  # no server for 1,000 s
    second = fake_server(tmp_path, fake)
    try:
        for c in people.values():
            c.server = second
            c.http.base_url = second.base
            welcome = c.connect(tid)
            assert welcome is not None and welcome["seq"] >= seq
        clock = clock_at(people[first], seq)
        assert clock["seats"][first] == {"seat": first, "remaining": 40.0, "running": False,
                                         "deadline": None}
        assert clock["seats"][other]["running"]
        assert clock["seats"][other]["remaining"] == 50.0
        fake.advance(49)  # still in time
        state = second.runtime(tid).state
        answer = people[other].act(str(state.legal_actions(other)[0]))
        assert answer["type"] == "ack", answer
        fake.advance(41)  # the first runs out (40 s left)
        note = people[other].wait(lambda m: m.get("type") == "takeover")
        assert note["seat"] == first and note["reason"] == "timeout"
        play_to_end(second, tid, {other: people[other]}, random.Random(2))
        record = finished_record(ann, tid)
        assert len(record.actions) == second.runtime(tid).seq
    finally:
        second.stop()
