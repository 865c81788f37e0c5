"""A person's move on SQLite is read and written in one trip to the database
(``MovePipeline.in_one_trip``): the read, in the transaction that writes, still sees what
another process appended meanwhile, and then nothing is written and the move is judged on
the log as the database holds it."""

from __future__ import annotations

import time

from sqlalchemy import text

from dragonlair.server import hotpath
from dragonlair.server.db import make_engine, make_sessionmaker
from tests.server.helpers import Client, ServerThread, new_table


def test_a_row_of_another_process_is_seen_before_a_move_is_written(
        server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    people = {0: ann, 1: bob}
    for c in people.values():
        c.connect(tid)
    rt = server.runtime(tid)
    deadline = time.monotonic() + 20
    while rt.state.is_chance() or rt.driver.task is not None:  # the deal is drawn
        assert time.monotonic() < deadline
        time.sleep(0.02)
    seq = rt.seq
    seat = rt.state.current_seats()[0]
    mover = people[seat]
    mover.catch_up(seq)
    legal = [str(a) for a in rt.state.legal_actions(seat)]

    # "another process" appends the mover's first legal action to the log on disk
    engine = make_engine(server.settings.url())
    try:
        with make_sessionmaker(engine)() as s:
            hotpath.insert_actions(s, tid, seq, [(seat, legal[0], None)], time.time())
            s.commit()
        # the mover, not knowing, sends another move for the same seq: refused as stale
        answer = mover.act(legal[1], seq=seq)
        assert answer["type"] == "error" and answer["code"] == "server.act.stale", answer
        assert rt.seq == seq + 1  # caught up with the row on disk
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT seq, action FROM actions WHERE table_id = :t "
                                     "AND seq >= :n ORDER BY seq"), {"t": tid, "n": seq})
            assert [tuple(r) for r in rows] == [(seq, legal[0])]  # ours was not written
    finally:
        engine.dispose()


def test_moves_in_one_trip_are_acknowledged_and_logged(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    people = {0: ann, 1: bob}
    for c in people.values():
        c.connect(tid)
    rt = server.runtime(tid)
    for _ in range(6):
        deadline = time.monotonic() + 20
        while rt.state.is_chance() or rt.driver.task is not None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        seat = rt.state.current_seats()[0]
        people[seat].catch_up(rt.seq)
        seq = rt.seq
        key = f"once-{seq}"
        sent = str(rt.state.legal_actions(seat)[0])
        answer = people[seat].act(sent, seq=seq, key=key)
        assert answer["type"] == "ack" and answer["seq"] == seq + 1, answer
        again = people[seat].act(sent, seq=seq, key=key)  # a resend: its key is known
        assert again["type"] == "error" and again["code"] == "server.act.duplicate_key"
        assert again["params"]["seq"] == seq + 1
    engine = make_engine(server.settings.url())
    try:
        with engine.connect() as conn:
            count = conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :t"),
                                 {"t": tid}).scalar()
        assert count == rt.seq
    finally:
        engine.dispose()
