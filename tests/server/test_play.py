"""Play over the WebSocket: whole games of the three games to the end, refusals that change
nothing, the bounds of the protocol, records that replay, and no secret in any message."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sqlalchemy import text
from websockets.exceptions import InvalidStatus

from dragonlair.core.records import Record, replay
from dragonlair.server.settings import Limits
from tests.server.helpers import (
    Client,
    ServerThread,
    check_no_leaks,
    new_table,
    play_to_end,
)


def logged(server: ServerThread, table_id: str) -> int:
    # through the server's own engine: SQLite or PostgreSQL (DRAGONLAIR_TEST_SERVER_DB)
    with server.app.state.engine.connect() as conn:
        n: int = conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :t"),
                              {"t": table_id}).scalar_one()
        return n


def started_master(server: ServerThread) -> tuple[str, Client, Client]:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    return tid, ann, bob


def record_of(client: Client, table_id: str) -> Record:
    r = client.http.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    return Record.from_json(r.json())


def to_move(server: ServerThread, tid: str, ann: Client, bob: Client) -> tuple[Client, Client]:
    """(the client whose move it is, the other), once the deal is done and both saw it."""
    runtime = server.runtime(tid)
    for _ in range(2000):
        state = runtime.state
        if not state.is_chance() and state.current_seats():
            n = len(state.history)
            ann.catch_up(n)
            bob.catch_up(n)
            mover = state.current_seats()[0]
            return (ann, bob) if ann.seat == mover else (bob, ann)
        ann.recv(0.01)
    raise AssertionError("the deal never finished")


def test_master_two_people_and_a_spectator_to_the_end(server: ServerThread) -> None:
    tid, ann, bob = started_master(server)
    eve = Client(server, "Eve")
    welcome = {c.user["display_name"]: c.connect(tid) for c in (ann, bob, eve)}
    assert welcome["Ann"] and welcome["Ann"]["seat"] == 0 and ann.seat == 0
    assert bob.seat == 1 and eve.seat is None
    assert welcome["Eve"] and welcome["Eve"]["view"]["private"] is None
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(1))
    eve.catch_up(len(server.runtime(tid).state.history))
    final = ann.received[-1]
    assert final["type"] == "update" and final["status"] == "finished"
    assert final["view"]["result"] is not None
    record = record_of(eve, tid)
    _, state = replay(record)  # the server's record is one `dragonlair replay` accepts
    assert state.is_terminal() and record.result == state.outcome().to_json()  # type: ignore[union-attr]
    assert sum(a.startswith("chance:") for a in record.actions) == 17  # deal + start player
    checked = check_no_leaks(record, [(c.seat, c.received) for c in (ann, bob, eve)])
    assert checked > 40


def test_refusals_change_nothing_and_carry_the_engines_code(server: ServerThread) -> None:
    tid, ann, bob = started_master(server)
    ann.connect(tid)
    bob.connect(tid)
    mover, other = to_move(server, tid, ann, bob)
    runtime = server.runtime(tid)
    n = runtime.seq
    before = json.dumps(runtime.state.view(None))
    legal = str(runtime.state.legal_actions(mover.seat)[0])  # type: ignore[arg-type]

    answer = other.act(legal)  # not its move
    assert answer["type"] == "error" and answer["code"] == "core.turn.not_your_move"
    answer = mover.act("fly to the moon")
    assert answer["type"] == "error" and answer["code"].startswith("master.")
    assert answer["params"] is not None
    answer = mover.act(legal, seq=n - 1)  # stale: it has seen more than that
    assert answer == {**answer, "type": "error", "code": "server.act.stale"}
    assert answer["params"]["seq"] == n
    answer = mover.act(legal, seq=n + 5)
    assert answer["code"] == "server.act.stale"
    assert runtime.seq == n == logged(server, tid)
    assert json.dumps(runtime.state.view(None)) == before

    ok = mover.act(legal, key="same-key")
    assert ok["type"] == "ack" and ok["seq"] == n + 1 and ok["key"] == "same-key"
    again = mover.act(legal, key="same-key", seq=n + 1)
    assert again["type"] == "error" and again["code"] == "server.act.duplicate_key"
    assert again["params"]["seq"] == n + 1
    assert runtime.seq == n + 1 == logged(server, tid)


def test_spectators_cannot_act(server: ServerThread) -> None:
    tid, _, _ = started_master(server)
    eve = Client(server, "Eve")
    nobody = Client(server, guest=False)
    eve.connect(tid)
    nobody.connect(tid)
    n = server.runtime(tid).seq
    for spectator in (eve, nobody):
        answer = spectator.act("place egg a1")
        assert answer["type"] == "error" and answer["code"] == "server.act.not_seated"
    assert server.runtime(tid).seq == n


def test_protocol_bounds_each_get_a_code(server: ServerThread) -> None:
    tid, ann, _ = started_master(server)
    ann.connect(tid, hello=False)

    def answer(text: str) -> str:
        ann.send_raw(text)
        message = ann.wait(lambda m: m["type"] == "error")
        code: str = message["code"]
        return code

    assert answer('{"type": "act", "action": "x", "seq": 0, "key": "k"}') == \
        "server.msg.hello_first"
    assert answer("{not json") == "server.msg.bad_json"
    assert answer("[1, 2]") == "server.msg.no_type"
    assert answer('{"type": "dance"}') == "server.msg.unknown_type"
    assert answer(json.dumps({"type": "ping", "pad": "x" * 9000})) == "server.msg.too_large"
    assert answer('{"type": "hello", "protocol": 99}') == "server.protocol.unsupported"
    assert answer("[" * 5000 + "]" * 5000) in ("server.msg.too_large", "server.msg.bad_json")
    assert answer("[" * 3000 + "]" * 3000) == "server.msg.bad_json"
    ann.request({"type": "hello"})
    assert answer('{"type": "act", "action": "x", "seq": "0", "key": "k"}') == \
        "server.msg.bad_field"
    assert answer(json.dumps({"type": "act", "action": "x", "seq": 0, "key": "k" * 65})) == \
        "server.msg.bad_field"
    assert answer('{"type": "act", "action": "", "seq": 0, "key": "k"}') == \
        "server.msg.bad_field"
    assert answer('{"type": "resume", "since": -1}') == "server.msg.bad_field"
    assert ann.request({"type": "ping"})["type"] == "pong"


def test_flooding_is_rate_limited(tmp_path: Path) -> None:
    """Under the default limits (the other tests' servers allow any rate: TEST_LIMITS)."""
    server = ServerThread(tmp_path, limits=Limits()).start()
    try:
        tid, ann, _ = started_master(server)
        ann.connect(tid)
        for _ in range(60):
            ann.send_raw('{"type": "ping"}')
        codes = [ann.wait(lambda m: m["type"] in ("pong", "error")) for _ in range(60)]
        assert any(m.get("code") == "server.msg.rate_limited" for m in codes)
    finally:
        server.stop()


def test_websocket_upgrades_check_the_origin(server: ServerThread) -> None:
    tid, ann, _ = started_master(server)
    with pytest.raises(InvalidStatus):
        ann.connect(tid, headers={"Origin": "http://evil.example"})
    ann.connect(tid, headers={"Origin": server.base})  # the server's own pages may
    assert ann.seat == 0


def test_resume_sends_what_was_missed(server: ServerThread) -> None:
    tid, ann, bob = started_master(server)
    ann.connect(tid)
    bob.connect(tid)
    mover, other = to_move(server, tid, ann, bob)
    held = other.received[-1]["view"]["events_total"]
    other.close()
    runtime = server.runtime(tid)
    for _ in range(3):  # the other moves on while one is away
        state = runtime.state
        seat = state.current_seats()[0]
        present = mover if mover.seat == seat else None
        if present is None:
            break
        present.catch_up(len(state.history))
        assert present.act(str(state.legal_actions(seat)[0]))["type"] == "ack"
    assert runtime.state.view(other.seat)["events_total"] > held
    other.connect(tid)
    update = other.request({"type": "resume", "since": held})
    assert update["type"] == "update" and update["view"]["events_since"] == held
    assert update["view"]["events_total"] == runtime.state.view(other.seat)["events_total"]
    assert update["seq"] == runtime.seq
    assert update["view"]["events"]  # what it missed
