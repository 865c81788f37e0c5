"""Claims between server processes (dragonlair/server/claims.py; issue 15; docs/deploy.md),
on both databases: a running table's claim goes to one process, its lease holds while
renewed and passes to another process once it runs out (the owner died) or is released; two
processes sweeping at once never take the same table. Then the exactly-once guarantee at the
level of two hubs sharing one PostgreSQL database: a chance draw fired twice (two processes
that both believe they hold the claim) commits once, and a person's move that loses the race
for its sequence number is judged again on the new log (stale, or its key already used),
exactly as one process judges a move that arrives after another.

Times here are explicit numbers (``now``), not the wall clock: nothing waits for a lease."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import func, select
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from dragonlair.games import make_game
from dragonlair.server import claims
from dragonlair.server.bus import LocalBus
from dragonlair.server.db import (
    ActionRow,
    GameTable,
    Seat,
    TableClaim,
    User,
    make_engine,
    make_sessionmaker,
)
from dragonlair.server.hub import Hub
from dragonlair.server.migrate import upgrade
from dragonlair.server.settings import Settings
from dragonlair.server.table.runtime import TableRuntime
from dragonlair.server.table.viewers import Viewer

TTL = 2.0



def add_tables(make: sessionmaker[OrmSession], **by_status: int) -> dict[str, list[str]]:
    """Tables of farkle with the given statuses (e.g. ``running=3``); their ids by status."""
    game = make_game("farkle", {})
    ids: dict[str, list[str]] = {}
    with make() as s:
        for status, count in by_status.items():
            for i in range(count):
                table_id = f"{status[:3]}{i:04d}"
                s.add(GameTable(id=table_id, game="farkle", game_version=game.info.version,
                                options=game.record_options(), status=status))
                ids.setdefault(status, []).append(table_id)
        s.commit()
    return ids


def owners(make: sessionmaker[OrmSession]) -> dict[str, str]:
    with make() as s:
        return {c.table_id: c.owner for c in s.scalars(select(TableClaim))}


def test_a_sweep_takes_the_running_tables_only_and_drops_finished_ones(
        sessions: sessionmaker[OrmSession]) -> None:
    ids = add_tables(sessions, open=2, running=3, finished=1)
    with sessions() as s:
        assert claims.sweep(s, "A", 100.0, TTL) == sorted(ids["running"])
    with sessions() as s:  # B comes second: every lease is A's and holds
        assert claims.sweep(s, "B", 101.0, TTL) == []
    assert owners(sessions) == {t: "A" for t in ids["running"]}
    with sessions() as s:  # a table ends: its claim goes with the next sweep of anybody
        table = s.get(GameTable, ids["running"][0])
        assert table is not None
        table.status = "finished"
        s.commit()
        assert claims.sweep(s, "B", 101.5, TTL) == []
        assert claims.holder(s, ids["running"][0]) is None
        assert claims.holder(s, ids["running"][1]) == ("A", 100.0 + TTL)


def test_a_renewed_lease_holds_and_an_unrenewed_one_passes_on(
        sessions: sessionmaker[OrmSession]) -> None:
    running = add_tables(sessions, running=2)["running"]
    with sessions() as s:
        assert claims.sweep(s, "A", 100.0, TTL) == running
        assert claims.sweep(s, "A", 101.5, TTL) == running  # renewed to 103.5
        assert claims.sweep(s, "B", 103.0, TTL) == []  # would have run out at 102 unrenewed
        # A dies (renews nothing): after its lease B holds everything, and A nothing
        assert claims.sweep(s, "B", 103.6, TTL) == running
        assert claims.sweep(s, "A", 104.0, TTL) == []
    assert owners(sessions) == {t: "B" for t in running}


def test_a_claim_taken_on_demand_is_exclusive_until_it_runs_out(
        sessions: sessionmaker[OrmSession]) -> None:
    table = add_tables(sessions, running=1)["running"][0]
    with sessions() as s:
        assert claims.claim(s, table, "A", 100.0, TTL)  # no row yet: inserted as A's
        assert not claims.claim(s, table, "B", 101.0, TTL)
        assert claims.claim(s, table, "A", 101.0, TTL)  # one's own: renewed
        assert claims.holder(s, table) == ("A", 101.0 + TTL)
        assert not claims.claim(s, table, "B", 102.9, TTL)
        assert claims.claim(s, table, "B", 103.1, TTL)  # A's lease ran out
        assert claims.holder(s, table) == ("B", 103.1 + TTL)
        assert claims.sweep(s, "A", 103.2, TTL) == []


def test_released_claims_pass_on_at_once(sessions: sessionmaker[OrmSession]) -> None:
    running = add_tables(sessions, running=3)["running"]
    with sessions() as s:
        assert claims.sweep(s, "A", 100.0, TTL) == running
        claims.release(s, "A")  # a clean shutdown: nobody waits for the leases
        assert claims.sweep(s, "B", 100.1, TTL) == running


def test_processes_sweeping_at_once_never_share_a_table(
        sessions: sessionmaker[OrmSession]) -> None:
    """Four sweepers start together, again and again, on tables whose owner died: each
    table ends with exactly one owner, and no table is in two sweepers' answers."""
    running = add_tables(sessions, running=60)["running"]
    with sessions() as s:
        assert len(claims.sweep(s, "dead", 5.0, TTL)) == 60
    for round_ in range(3):
        at = 10.0 * (round_ + 1)  # every earlier lease has run out
        gate = threading.Barrier(4)
        answers: dict[str, list[str]] = {}

        def sweep(owner: str, at: float = at, gate: threading.Barrier = gate,
                  answers: dict[str, list[str]] = answers) -> None:
            gate.wait()
            with sessions() as s:
                answers[owner] = claims.sweep(s, owner, at, TTL, limit=25)

        threads = [threading.Thread(target=sweep, args=(f"p{i}",)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        held = [t for answer in answers.values() for t in answer]
        assert len(answers) == 4
        assert sorted(held) == sorted(set(held)), "a table was taken by two processes"
        assert set(held) == set(running), "a table whose owner died was left unclaimed"
        assert {t: o for o, answer in answers.items() for t in answer} == owners(sessions)


# ---------------------------------------------------------------- two hubs, one database
class Inbox:
    """A stand-in WebSocket: a viewer's messages are read from its queue."""


def viewer(user_id: int) -> Viewer:
    v = Viewer(cast(Any, Inbox()), user_id, 100)
    v.greeted = True
    return v


def messages(v: Viewer) -> list[dict[str, Any]]:
    import json

    out = []
    while not v.queue.empty():
        text = v.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def human_table(make: sessionmaker[OrmSession], name: str = "farkle",
                players: int = 2) -> tuple[str, list[int]]:
    """A running table of people only (chance moves first)."""
    game = make_game(name, {"players": players})
    with make() as s:
        users = [User(username=f"u{i}", display_name=f"U{i}") for i in range(players)]
        s.add_all(users)
        s.add(GameTable(id="race", game=name, game_version=game.info.version,
                        options=game.record_options(), status="running"))
        s.flush()
        for i, user in enumerate(users):
            s.add(Seat(table_id="race", seat=i, kind="human", user_id=user.id))
        s.commit()
        return "race", [u.id for u in users]


def hubs(make: sessionmaker[OrmSession], pool: ThreadPoolExecutor) -> tuple[Hub, Hub]:
    """Two processes' hubs (many-process mode: they run only what they claim)."""
    settings = Settings(redis_url="redis://127.0.0.1:1/0")
    return (Hub(settings, make, pool, bus=LocalBus()),
            Hub(settings, make, pool, bus=LocalBus()))


def count(make: sessionmaker[OrmSession], table_id: str) -> int:
    with make() as s:
        return s.scalar(select(func.count()).select_from(ActionRow)
                        .where(ActionRow.table_id == table_id)) or 0


def test_a_doubled_chance_draw_commits_once(pg_url: str) -> None:
    """Both processes believe they hold the claim (a lease ran out under a stalled holder)
    and draw the same chance step at once: the sequence number admits one draw."""
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, _ = human_table(make)

    async def main() -> None:
        with ThreadPoolExecutor(2) as pool:
            a, b = hubs(make, pool)
            ra, rb = await a.table(table_id), await b.table(table_id)
            a.claimed.add(table_id)
            b.claimed.add(table_id)
            assert ra.state.is_chance() and rb.state.is_chance()
            await asyncio.gather(ra.driver.draw_chance(), rb.driver.draw_chance())
            for runtime in (ra, rb):
                await runtime.sync()
            assert ra.log == rb.log and ra.seq == rb.seq == count(make, table_id) > 0
            assert not ra.state.is_chance()
            await a.close()
            await b.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()


async def race(make: sessionmaker[OrmSession], table_id: str, users: list[int],
               same_key: bool, other_seat: bool = False,
               ) -> tuple[dict[str, Any], dict[str, Any], TableRuntime]:
    """The person to move sends the same move through both processes (``other_seat``: a
    second seat of the same simultaneous step sends its own through B); B read the log just
    before A committed (its first sync is held back), so B's insert loses the race."""
    with ThreadPoolExecutor(2) as pool:
        a, b = hubs(make, pool)
        ra = await a.table(table_id)
        a.claimed.add(table_id)
        await ra.driver.draw_chance()
        a.claimed.discard(table_id)  # nobody draws the chance after the move meanwhile
        rb = await b.table(table_id)
        base = rb.seq
        seat = ra.state.current_seats()[0]
        move = str(ra.state.legal_actions(seat)[0])
        seat_b = ra.state.current_seats()[1] if other_seat else seat
        move_b = str(ra.state.legal_actions(seat_b)[0])
        va, vb = viewer(users[seat]), viewer(users[seat_b])
        ra.viewers.add(va)
        rb.viewers.add(vb)
        await ra.moves.act(va, move, base, "k1")
        real_sync = rb.sync
        held_back = [True]

        async def sync(key: tuple[int | None, str] | None = None) -> int | None:
            if held_back[0]:  # the race: B's read happened before A's commit
                held_back[0] = False
                return None
            return await real_sync(key)

        rb.sync = sync  # type: ignore[method-assign]
        await rb.moves.act(vb, move_b, base, "k1" if same_key else "k2")
        answer_a = [m for m in messages(va) if m["type"] in ("ack", "error")][-1]
        answer_b = [m for m in messages(vb) if m["type"] in ("ack", "error")][-1]
        await ra.sync()
        assert count(make, table_id) == base + 1 + other_seat == ra.seq == rb.seq
        assert ra.log == rb.log
        await a.close()
        await b.close()
        return answer_a, answer_b, rb


@pytest.mark.parametrize("same_key", [False, True])
def test_a_move_that_loses_the_race_is_judged_on_the_new_log(
        pg_url: str, same_key: bool, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="dragonlair.server")
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, users = human_table(make)
    answer_a, answer_b, rb = asyncio.run(asyncio.wait_for(
        race(make, table_id, users, same_key), 60))
    engine.dispose()
    # B's insert really met A's row (UNIQUE(table_id, seq)) and B judged the move again
    assert "another process committed seq" in caplog.text
    assert answer_a["type"] == "ack"
    assert answer_b["type"] == "error"
    if same_key:  # the key is spent: the seq it produced, as one process answers
        assert answer_b["code"] == "server.act.duplicate_key"
        assert answer_b["params"]["seq"] == answer_a["seq"]
    else:  # sent having seen the log before A's move: stale, with the log's length now
        assert answer_b["code"] == "server.act.stale"
        assert answer_b["params"]["seq"] == rb.seq


def test_serve_names_a_redis_it_cannot_reach_in_one_line(pg_url: str) -> None:
    """The database answers, Redis does not: no server starts, one line says why (the
    password hidden), no traceback."""
    from typer.testing import CliRunner

    from dragonlair.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--port", "1", "--db", pg_url,
                                      "--redis", "redis://:secret@127.0.0.1:1/0"])
    assert result.exit_code == 2, result.output
    assert "cannot reach Redis at redis://:***@127.0.0.1:1/0" in result.output
    assert "secret" not in result.output and "Traceback" not in result.output


def test_a_sealed_bid_that_loses_the_race_is_still_accepted(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Fist's bids are sealed and simultaneous (rules/fist.md F5.1): two seats
    bid through two processes at once and B's insert meets A's row at the same seq. Judged
    again on the new log, B's bid is still fresh (only another seat's sealed bid came
    between), so it is committed after A's, as one process accepts bids in any order."""
    caplog.set_level(logging.INFO, logger="dragonlair.server")
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, users = human_table(make, "fist", 4)
    answer_a, answer_b, rb = asyncio.run(asyncio.wait_for(
        race(make, table_id, users, False, other_seat=True), 60))
    engine.dispose()
    assert "another process committed seq" in caplog.text
    assert answer_a["type"] == answer_b["type"] == "ack"
    assert (answer_a["seq"], answer_b["seq"]) == (rb.seq - 1, rb.seq)
    assert [seat for seat, _ in rb.log[-2:]] == [0, 1]


def test_only_the_holder_runs_the_bots_and_a_dead_holders_table_passes_on(pg_url: str) -> None:
    """A table of two bots whose claim a live process ("ghost") holds: this hub loads it
    and plays nothing. The ghost dies (its lease runs out): the next claim round takes the
    table, and its bots play it to the end here. A clean close gives the claim back."""
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    game = make_game("farkle", {"players": 2})
    with make() as s:
        s.add(GameTable(id="bots", game="farkle", game_version=game.info.version,
                        options=game.record_options(), status="running"))
        s.flush()
        s.add_all([Seat(table_id="bots", seat=i, kind="bot", bot="random") for i in range(2)])
        s.add(TableClaim(table_id="bots", owner="ghost", expires_at=time.time() + 600))
        s.commit()

    async def main() -> None:
        with ThreadPoolExecutor(2) as pool:
            hub, _ = hubs(make, pool)
            assert await hub.resume_all() == 0  # the ghost's lease holds
            runtime = await hub.table("bots")
            runtime.driver.kick()  # decides at once: no task where this process holds no claim
            assert not hub.runs("bots") and runtime.driver.task is None
            assert count(make, "bots") == 0, "a process without the claim played"
            with make() as s:  # the ghost dies: nobody renews its lease
                claim = s.get(TableClaim, "bots")
                assert claim is not None
                claim.expires_at = time.time() - 1
                s.commit()
            await hub.claim_round()
            assert hub.runs("bots")
            for _ in range(600):
                if runtime.status == "finished":
                    break
                await asyncio.sleep(0.05)
            assert runtime.status == "finished" and count(make, "bots") > 0
            await hub.claim_round()  # a finished table's claim goes
            with make() as s:
                assert claims.holder(s, "bots") is None
            await hub.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()


def test_a_clean_close_gives_the_claims_back(pg_url: str) -> None:
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, _ = human_table(make)

    async def main() -> None:
        with ThreadPoolExecutor(2) as pool:
            a, b = hubs(make, pool)
            assert await a.resume_all() == 1 and a.runs(table_id)
            assert await b.resume_all() == 0 and not b.runs(table_id)
            await a.close()
            with make() as s:
                assert claims.holder(s, table_id) == ("", 0.0)
            await b.claim_round()  # at once, no lease to wait for
            assert b.runs(table_id)
            await b.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()


def test_news_of_a_move_reaches_the_viewers_of_another_process(pg_url: str,
                                                               redis_url: str) -> None:
    """Two hubs with Redis buses: a move accepted by A reaches B's viewer as an update at
    A's seq with B's seat's own view; a chat line carried in the notice arrives once; the
    bots and chance after the move are A's (the holder's) alone."""
    import json

    from dragonlair.server.bus import RedisBus

    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, users = human_table(make)

    async def main() -> None:
        with ThreadPoolExecutor(2) as pool:
            settings = Settings(redis_url=redis_url)
            a = Hub(settings, make, pool, bus=RedisBus(redis_url, prefix="t" + pg_url[-8:]))
            b = Hub(settings, make, pool, bus=RedisBus(redis_url, prefix="t" + pg_url[-8:]))
            await a.bus.start()
            await b.bus.start()
            assert await a.resume_all() == 1 and await b.resume_all() == 0
            ra, rb = await a.table(table_id), await b.table(table_id)
            for _ in range(100):  # A, the holder, draws the opening chance
                if ra.seq > 0 and not ra.state.is_chance():
                    break
                await asyncio.sleep(0.05)
            seat = ra.state.current_seats()[0]
            other = 1 - seat
            va, vb = viewer(users[seat]), viewer(users[other])
            ra.viewers.add(va)
            rb.viewers.add(vb)
            await ra.moves.act(va, str(ra.state.legal_actions(seat)[0]), ra.seq, "k1")
            ra.announce("chat", message={"user": "U0", "text": "hallo"})
            seen: list[dict[str, Any]] = []
            for _ in range(200):
                seen += messages(vb)
                if any(m["type"] == "update" and m["seq"] >= ra.seq for m in seen) and any(
                        m["type"] == "chat" for m in seen):
                    break
                await asyncio.sleep(0.02)
            updates = [m for m in seen if m["type"] == "update"]
            assert updates and updates[-1]["seq"] == ra.seq, seen
            assert updates[-1]["seat"] == other
            # the seat's own view; its events come once each over the updates, in order
            full = ra.state.view(other, since=0)
            skip = ("events", "events_since")
            last = {k: v for k, v in updates[-1]["view"].items() if k not in skip}
            assert json.dumps(last) == json.dumps({k: v for k, v in full.items()
                                                   if k not in skip})
            events = [e for m in updates for e in m["view"]["events"]]
            assert json.dumps(events) == json.dumps(full["events"])
            # a second line, after which no second copy of the first can come: the notices
            # of one process arrive in order
            ra.announce("chat", message={"user": "U0", "text": "bis bald"})
            for _ in range(200):
                seen += messages(vb)
                if any(m["type"] == "chat" and m["message"]["text"] == "bis bald"
                       for m in seen):
                    break
                await asyncio.sleep(0.02)
            chat = [m["message"]["text"] for m in seen if m["type"] == "chat"]
            assert chat == ["hallo", "bis bald"], chat
            assert rb.driver.task is None and not b.runs(table_id)
            await a.close()
            await b.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()


def test_a_catch_up_finds_a_seat_change_without_an_action(pg_url: str) -> None:
    """B missed the notice of a takeover (its Redis connection broke): the takeover added no
    action, yet B's catch-up after the reconnection sees the seats differ, re-reads the
    table and sends its viewer the seat now played by the bot."""
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, users = human_table(make)

    async def main() -> None:
        with ThreadPoolExecutor(2) as pool:
            a, b = hubs(make, pool)
            ra, rb = await a.table(table_id), await b.table(table_id)
            assert await b.catch_up(table_id, rb.seq) == []  # nothing new: no re-read
            vb = viewer(users[1])
            rb.viewers.add(vb)
            async with ra.lock:
                assert await ra.takeover.take_over(0, "resigned")
            assert rb.seats[0].kind == "human"  # B heard nothing (LocalBuses)
            await b.subscriptions[table_id].resync()  # what a reconnection does
            seen: list[dict[str, Any]] = []
            for _ in range(250):
                seen += messages(vb)
                if rb.seats[0].kind == "bot" and any(m["type"] == "update" for m in seen):
                    break
                await asyncio.sleep(0.02)
            assert rb.seats[0].kind == "bot" and rb.seats == ra.seats
            assert any(m["type"] == "update" for m in seen), seen
            await a.close()
            await b.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()


def read_as_the_end_commits(make: sessionmaker[OrmSession], table_id: str, after: str,
                            patch: pytest.MonkeyPatch) -> Any:
    """storage.read_table of ``table_id`` from seq 1, with another session committing the
    final action (seq 3, "last") and the end right after the read ``after`` (a hotpath
    function's name)."""
    from dragonlair.server import hotpath
    from dragonlair.server.table import storage

    real = {name: getattr(hotpath, name) for name in ("table_row", "seat_rows", "action_rows")}
    committed: list[bool] = []

    def finish() -> None:
        with make() as other:
            other.add(ActionRow(table_id=table_id, seq=3, seat=0, action="last"))
            row = other.get_one(GameTable, table_id)
            row.status, row.result = "finished", {"winners": [0]}
            other.commit()
        committed.append(True)

    def reading(name: str) -> Any:
        def read(*args: Any) -> Any:
            out = real[name](*args)
            if name == after and not committed:
                finish()
            return out
        return read

    with patch.context() as p:
        for name in real:
            p.setattr(hotpath, name, reading(name))
        with make() as s:
            snap = storage.read_table(s, table_id, 1)
    assert committed
    return snap


def test_a_read_beside_the_final_commit_holds_the_last_action_with_the_end(
        sessions: sessionmaker[OrmSession], monkeypatch: pytest.MonkeyPatch) -> None:
    """A process re-reads a table (storage.read_table, plain statements) while another
    commits the game's final action and its end: whichever statement the commit follows,
    the snapshot has the final action exactly when it says finished (a spectator's table
    once stayed "running" after its last move: the status was read before the commit, the
    actions after it)."""
    table_id = add_tables(sessions, running=1)["running"][0]
    for after in ("table_row", "seat_rows", "action_rows"):
        with sessions() as s:
            s.query(ActionRow).filter(ActionRow.table_id == table_id).delete()
            s.add_all(ActionRow(table_id=table_id, seq=i, seat=0, action=f"a{i}")
                      for i in range(3))
            s.get_one(GameTable, table_id).status = "running"
            s.commit()
        snap = read_as_the_end_commits(sessions, table_id, after, monkeypatch)
        texts = [text for _, text in snap.actions]
        assert texts in (["a1", "a2"], ["a1", "a2", "last"]), (after, texts)
        assert (snap.status == "finished") == ("last" in texts), (after, snap.status, texts)


def test_a_notice_of_rows_already_read_still_ends_the_game(pg_url: str) -> None:
    """A process read a table's final action before its end was visible; the notice of that
    action then arrives (rows it has) and carries the result: the game ends there too."""
    engine = make_engine(pg_url)
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, _ = human_table(make, "master")

    async def main() -> None:
        with ThreadPoolExecutor(2) as pool:
            a, _b = hubs(make, pool)
            rt = await a.table(table_id)
            assert rt.status == "running"
            from dragonlair.server.bus import TableEvent

            result = {"winners": [0], "placings": [1, 2], "scores": [1, 0],
                      "reason": "master.end.score", "reason_params": {}}
            news = [TableEvent(table_id, {"k": "act", "rows": [], "result": result},
                               rt.seq, rt.seq)]
            assert rt.news.apply_news(news)
            assert (rt.status, rt.result) == ("finished", result)
            await a.close()
            await _b.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()
