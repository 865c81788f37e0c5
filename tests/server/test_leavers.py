"""Leavers: a person who times out, leaves or resigns a running game is replaced by the
table's takeover bot, the others finish, the record notes the takeover and still replays,
and a rated table ranks the leaver last."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from dragonlair.server.clocks import FakeClock
from tests.server.clock_helpers import (
    fake_server,
    finished_record,
    mover,
    rating_points,
    running_clock,
    table_with,
)
from tests.server.helpers import Client, ServerThread, check_no_leaks, play_to_end


@pytest.mark.slow
def test_time_out_then_a_bot_finishes_and_the_leaver_is_rated_last(tmp_path: Path) -> None:
    fake = FakeClock()
    server = fake_server(tmp_path, fake)
    try:
        ann, bob = Client(server, "Ann"), Client(server, "Bob")
        tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}],
                         clock={"kind": "realtime", "initial": 30}, rated=True,
                         takeover_bot="greedy")
        people = {0: ann, 1: bob}
        late = mover(server, tid)
        stays = 1 - late
        running_clock(people[late], late)
        fake.advance(31)
        for c in people.values():
            note = c.wait(lambda m: m.get("type") == "takeover")
            assert note == {"type": "takeover", "seat": late, "bot": "greedy",
                            "reason": "timeout", "seq": note["seq"]}
        play_to_end(server, tid, {stays: people[stays]}, random.Random(5))
        record = finished_record(ann, tid)
        assert record.meta["takeovers"][0]["seat"] == late
        assert record.seats[late]["player"] == "human"  # the person's seat, a bot finished
        assert any(a.startswith(f"p{late}:") for a in record.actions)  # the bot played
        # what each person was sent before and after the takeover is its own view only
        assert check_no_leaks(record, [(stays, people[stays].received)]) > 5
        points = {p.seat: p for p in rating_points(server, tid)}
        assert points[late].placing == 2 and points[stays].placing == 1
        model = PlackettLuce()
        ranked = model.rate([[model.rating()], [model.rating()]],
                            ranks=[2.0 if s == late else 1.0 for s in (0, 1)])
        for seat in (0, 1):
            assert points[seat].mu == ranked[seat][0].mu
            assert points[seat].sigma == ranked[seat][0].sigma
        profile = ann.http.get(f"/api/users/{people[late].user['username']}").json()
        assert profile["recent"][0]["taken_over"] is True
        assert profile["ratings"][0]["history"][0]["placing"] == 2
    finally:
        server.stop()


@pytest.mark.slow
def test_leaving_a_running_game_hands_the_seat_to_a_bot(server: ServerThread) -> None:
    """Fist at three (two people, a bot): one person leaves mid-game through the lobby; a
    bot of the table's takeover kind bids for them, sealed bids still in any order."""
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = table_with(ann, [bob], "fist",
                     [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}],
                     rated=True, takeover_bot="random", max_turns=2)
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(7), stop_after=3)
    r = ann.http.post(f"/api/tables/{tid}/leave")
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][0]
    assert seat["kind"] == "bot" and seat["bot"] == "random" and seat["name"] == "Ann"
    note = bob.wait(lambda m: m.get("type") == "takeover")
    assert note["seat"] == 0 and note["reason"] == "left"
    ann.drain()
    refused = ann.act("anything")
    assert refused["code"] == "server.act.not_seated"
    # leaving twice, or resigning a seat one no longer holds, is refused and changes nothing
    again = ann.http.post(f"/api/tables/{tid}/resign")
    assert again.status_code == 409 and again.json()["code"] == "server.table.not_seated"
    play_to_end(server, tid, {1: bob}, random.Random(8))
    record = finished_record(bob, tid)
    assert record.meta["takeovers"] == [{"seat": 0, "seq": note["seq"], "reason": "left",
                                         "bot": "random"}]
    points = {p.seat: p for p in rating_points(server, tid)}
    assert points[0].placing > max(points[1].placing, points[2].placing)
    assert check_no_leaks(record, [(1, bob.received)]) > 5


def test_resign_over_rest_and_its_refusals(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    r = ann.http.post("/api/tables", json={"game": "master", "rated": False})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.json()["takeover_bot"] == "expert"  # the game's default bot
    early = ann.http.post(f"/api/tables/{tid}/resign")  # not started yet
    assert early.status_code == 409 and early.json()["code"] == "server.table.not_running"
    missing = ann.http.post("/api/tables/nope/resign")
    assert missing.status_code == 404
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    stranger = Client(server, "Eve")
    r = stranger.http.post(f"/api/tables/{tid}/resign")
    assert r.status_code == 409 and r.json()["code"] == "server.table.not_seated"
    r = bob.http.post(f"/api/tables/{tid}/resign")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["kind"] == "bot"
    unknown = ann.http.post("/api/tables", json={"game": "master", "takeover_bot": "nobody"})
    assert unknown.status_code == 422
    assert unknown.json()["code"] == "server.table.unknown_bot"


def test_resign_over_the_websocket(server: ServerThread) -> None:
    ann, bob, eve = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Eve")
    tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}],
                     takeover_bot="greedy")
    eve.connect(tid)
    refused = eve.request({"type": "resign"})
    assert refused["type"] == "error" and refused["code"] == "server.table.not_seated"
    answer = bob.request({"type": "resign"})
    assert answer["type"] == "resigned" and answer["seat"] == 1
    note = ann.wait(lambda m: m.get("type") == "takeover")
    assert note["seat"] == 1 and note["reason"] == "resigned" and note["bot"] == "greedy"
    again = bob.request({"type": "resign"})
    assert again["type"] == "error" and again["code"] == "server.table.not_seated"
    play_to_end(server, tid, {0: ann}, random.Random(9))
    assert finished_record(ann, tid).meta["takeovers"][0]["reason"] == "resigned"


def test_a_move_after_the_time_ran_out_is_refused_and_the_seat_taken(tmp_path: Path) -> None:
    """The wake-up has not come yet (here: it was cancelled) when a move arrives after the
    deadline: the move is refused, the seat taken over, and nothing else changes."""
    fake = FakeClock()
    server = fake_server(tmp_path, fake)
    try:
        ann, bob = Client(server, "Ann"), Client(server, "Bob")
        tid = table_with(ann, [bob], "master", [{"kind": "me"}, {"kind": "open"}],
                         clock={"kind": "realtime", "initial": 30}, takeover_bot="greedy")
        people = {0: ann, 1: bob}
        late = mover(server, tid)
        running_clock(people[late], late)
        runtime = server.runtime(tid)
        seq = runtime.seq
        assert runtime.timekeeper.timer is not None
        runtime.timekeeper.timer.cancel()
        fake.advance(30)
        answer = people[late].act(str(runtime.state.legal_actions(late)[0]))
        assert answer["type"] == "error" and answer["code"] == "server.clock.flagged"
        assert answer["params"] == {"seat": late}
        note = people[1 - late].wait(lambda m: m.get("type") == "takeover")
        assert note == {"type": "takeover", "seat": late, "bot": "greedy",
                        "reason": "timeout", "seq": seq}
        play_to_end(server, tid, {1 - late: people[1 - late]}, random.Random(10))
        record = finished_record(ann, tid)
        assert record.meta["takeovers"] == [{"seat": late, "seq": seq, "reason": "timeout",
                                             "bot": "greedy"}]
    finally:
        server.stop()
