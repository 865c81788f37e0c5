"""Games with bots (a thread pool, through the one gate), sealed bids in any order, chance
drawn on the server, records that replay, no leaks, and a restart that resumes play."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dragonlair.core.records import Record, replay
from tests.server.helpers import (
    Client,
    ServerThread,
    check_no_leaks,
    new_table,
    play_to_end,
)
from tests.sizes import quick_first


def finished_record(client: Client, table_id: str) -> Record:
    r = client.http.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    record = Record.from_json(r.json())
    _, state = replay(record)
    assert state.is_terminal()
    return record


def test_farkle_one_person_against_a_bot(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    table = new_table(ann, "farkle", [{"kind": "me"}, {"kind": "bot", "bot": "cautious"}],
                      max_turns=6)
    tid = table["id"]
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    ann.connect(tid)
    play_to_end(server, tid, {0: ann}, random.Random(2))
    record = finished_record(ann, tid)
    assert record.seats[1]["player"] == "bot:cautious"
    assert any(a.startswith("p1:") for a in record.actions)  # the bot played
    assert any(a.startswith("chance: dice") for a in record.actions)
    assert check_no_leaks(record, [(0, ann.received)]) > 5


@pytest.mark.parametrize("players", quick_first(1, [3, 4]))
def test_fist_people_and_bots_with_sealed_bids_in_any_order(server: ServerThread,
                                                             players: int) -> None:
    people = [Client(server, f"P{i}") for i in range(2)]
    seats = [{"kind": "me"}, {"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * (
        players - 2)
    table = new_table(people[0], "fist", seats, max_turns=2)
    tid = table["id"]
    assert people[1].http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert people[0].http.post(f"/api/tables/{tid}/start").status_code == 200
    spectator = Client(server, "Eve")
    for c in [*people, spectator]:
        c.connect(tid)
    play_to_end(server, tid, {0: people[0], 1: people[1]}, random.Random(players))
    spectator.catch_up(len(server.runtime(tid).state.history))
    record = finished_record(people[0], tid)
    assert check_no_leaks(record, [(c.seat, c.received)
                                   for c in (*people, spectator)]) > 20
    # nothing about a bid but "has bid" before the reveal: the oracle above compares every
    # message with the engine's own view; here, explicitly, no other seat's bid is visible
    for client in people:
        for m in client.received:
            if m.get("type") == "update":
                private = m["view"]["private"]
                assert set(private) >= {"fairy"}  # only its own coins


@pytest.mark.parametrize("game", quick_first(1, ["master", "farkle"]))
def test_a_restarted_server_resumes_a_running_game(tmp_path: Path, game: str) -> None:
    """Stop the server mid-game and start a new one on the same database: the game goes on
    from the action log (Farkle: against a bot, which the new server sets playing again)."""
    first = ServerThread(tmp_path).start()
    ann, bob = Client(first, "Ann"), Client(first, "Bob")
    if game == "master":
        tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
        assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        humans = {0: ann, 1: bob}
    else:
        tid = new_table(ann, "farkle", [{"kind": "me"}, {"kind": "bot", "bot": "cautious"}],
                        max_turns=6)["id"]
        humans = {0: ann}
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    for c in humans.values():
        c.connect(tid)
    play_to_end(first, tid, humans, random.Random(3), stop_after=5)
    for c in humans.values():
        c.close()
    first.stop()
    second = ServerThread(tmp_path).start()
    runtime = second.runtime(tid)  # loaded on start: it was running
    seq = runtime.seq
    assert seq > 5
    for c in humans.values():
        c.server = second
        c.http.base_url = second.base  # the cookies still apply
        welcome = c.connect(tid)
        assert welcome is not None and welcome["seq"] >= seq
    play_to_end(second, tid, humans, random.Random(4))
    record = finished_record(ann, tid)
    if game == "master":
        assert len(record.actions) == 17 + 16
    second.stop()


def test_sealed_bids_in_any_order_with_the_seq_each_saw(server: ServerThread) -> None:
    """Three people bid on the same card, last to first, each with the sequence number it saw
    when bidding began: all are accepted (no stale error between sealed moves), and before
    the reveal the others learn only that a seat has bid."""
    people = [Client(server, f"P{i}") for i in range(3)]
    tid = new_table(people[0], "fist", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
                    max_turns=1)["id"]
    for c in people[1:]:
        assert c.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert people[0].http.post(f"/api/tables/{tid}/start").status_code == 200
    for c in people:
        c.connect(tid)
    runtime = server.runtime(tid)
    for _ in range(2000):
        state = runtime.state
        if len(state.current_seats()) == 3:
            break
        people[0].recv(0.01)
    n = len(state.history)
    for c in people:
        c.catch_up(n)
    bids = {seat: str(state.legal_actions(seat)[-1]) for seat in (2, 1)}
    for seat, bid in bids.items():
        answer = people[seat].act(bid, seq=n)
        assert answer["type"] == "ack", answer
    # seat 0 has seen two "has bid" updates; nothing of the bids themselves
    people[0].catch_up(n + 2)
    updates = [m for m in people[0].received if m.get("type") == "update" and m["seq"] > n]
    assert updates
    for m in updates:
        assert [s["has_bid"] for s in m["view"]["public"]["seats"]][1:] in (
            [False, True], [True, True])
        text = str(m)
        for bid in bids.values():
            assert bid not in text
    answer = people[0].act(str(state.legal_actions(0)[0]), seq=n)
    assert answer["type"] == "ack", answer
