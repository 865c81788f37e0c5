"""Many server processes, one table (issue 15, "Tests that must exist"): real ``dragonlair
serve`` subprocesses on one PostgreSQL database and one Redis (tests/server_multi/cluster.py),
players of one table connected to different processes, spectators too.

- Whole games of each game play to the end; every viewer sees the same log and the same
  public events, and each only what its seat may know (every view is the engine's view for
  that seat; every message is scanned for other seats' secrets, as tests/server/test_leak.py).
- A process killed with SIGKILL mid-game: its clients reconnect to another process and
  resume, no acknowledged action is lost, and the table's bot still moves once the dead
  process's claim expires (a short lease).
- An act whose process is SIGKILLed before its answer arrives, sent again with the same key
  to another process: applied once (``ack`` if it had not been committed,
  ``server.act.duplicate_key`` naming its position if it had), one row, one key row.
- Redis restarted mid-game: nothing is lost, every viewer catches up to the same final seq.
- Two processes racing for the same move N: exactly one is accepted, the other is refused
  (``server.act.stale``), the log holds one row at N.

The tests share their processes (tests/server_multi/conftest.py, ``cluster3``: three
processes on a database and a Redis of their own, started once; a process a test killed is
started again for the next), since each start of a process costs seconds. The default run
plays a table or a few races on them; the ``slow`` tests (CI) kill more processes, restart
Redis more often, play more games and races (``scripts/test.sh --long``: more again,
tests/sizes.py).
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytest.importorskip("websockets")

from dragonlair.client import Client, Refused, TableConnection
from dragonlair.client.client import legal_texts
from dragonlair.core.records import Record, parse_entry, replay
from tests.server.helpers import check_no_leaks
from tests.server.test_leak import PLANTED_ITEMS, scan
from tests.server.zygote import stopped
from tests.server_multi.cluster import Cluster, Game, Node
from tests.sizes import size

JSON = dict[str, Any]


def tables(game: str, rng: random.Random) -> tuple[list[JSON], JSON]:
    """Seats spread over processes 0..2 (people) with a bot, and short options."""
    if game == "master":
        return [{"kind": "me", "node": 0}, {"kind": "open", "node": 1}], {}
    if game == "fist":
        return ([{"kind": "me", "node": 0}, {"kind": "open", "node": 1},
                 {"kind": "open", "node": 2}, {"kind": "bot", "bot": "random"}],
                {"max_turns": 1})
    return ([{"kind": "me", "node": 1}, {"kind": "open", "node": 2},
             {"kind": "bot", "bot": "random"}],
            {"max_turns": rng.randint(4, 6), "decks": {"items": PLANTED_ITEMS}})


def public_events(game: Game) -> list[list[JSON]]:
    return [[e for e in (v.conn.events if v.conn else []) if e.get("to") is None]
            for v in game.viewers]


def check_finished(game: Game) -> Record:
    """The game ended; every viewer has the whole log and the same public events; every
    acknowledged action is in the record; nobody saw what its seat may not know."""
    record = game.record()
    _, state = replay(record)
    assert state.is_terminal()
    n = len(record.actions)
    seqs = {(v.seat, v.node.name): v.conn.seq for v in game.viewers if v.conn}
    assert set(seqs.values()) == {n}, f"viewers' final seq {seqs}, the log has {n}"
    events = public_events(game)
    for v, evs in zip(game.viewers, events, strict=True):
        assert evs == events[0], (f"seat {v.seat}@{v.node.name} saw other public events "
                                  f"than seat {game.viewers[0].seat}")
        assert [e["seq"] for e in v.conn.events] == sorted(  # type: ignore[union-attr]
            e["seq"] for e in v.conn.events)  # type: ignore[union-attr]
        updates = [m["seq"] for m in v.messages if m.get("type") == "update"]
        assert updates == sorted(updates), f"seat {v.seat}: updates out of log order"
    game.check_acked(record)
    received = [(v.seat, v.messages) for v in game.viewers]
    assert check_no_leaks(record, received) > 0
    scan(record, received)
    return record


def spread_game(c: Cluster, game: str, seed: int, rounds: int = 1) -> None:
    for r in range(rounds):
        rng = random.Random(seed + r)
        seats, options = tables(game, rng)
        g = Game(c.nodes, game, seats, options, spectators=[2, 0], rng=rng)
        try:
            g.play(90)
            check_finished(g)
            assert g.acked, "no person acted"
        finally:
            g.close()


# the quick run plays Master's (the quickest) over three processes, CI every game's
@pytest.mark.parametrize("game", [pytest.param("fist", marks=pytest.mark.slow), "master",
                                  pytest.param("farkle", marks=pytest.mark.slow)])
def test_one_table_over_three_processes_plays_to_the_end(cluster3: Cluster, game: str) -> None:
    spread_game(cluster3, game, 15)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["fist", "master", "farkle"])
def test_many_tables_over_three_processes(cluster3: Cluster, game: str) -> None:
    """CI: 2 tables of each game, ``scripts/test.sh --long``: 8 (tests/sizes.py)."""
    spread_game(cluster3, game, 1500, rounds=size(ci=2, long=8))


# ---------------------------------------------------------------------------- Redis down


def settle(g: Game, pg_url: str, seconds: float = 20.0) -> None:
    """Wait until the table's log stops growing (chance drawn, bots moved) and every viewer
    has all of it: a notice still on its way when Redis stops reaches the other processes
    only when Redis is back, and until then nobody there may be to move."""
    deadline = time.monotonic() + seconds
    rows = -1
    while time.monotonic() < deadline:
        now = len(g.log_rows(pg_url))
        g.wait_all(now)
        if now == rows:
            return
        rows = now
        time.sleep(0.3)
    raise AssertionError(f"table {g.id}: the log never settled")


def redis_restart(c: Cluster, game: str, seed: int) -> None:
    """Players of one table on two or three processes, spectators on all three; Redis stops
    after a few moves and play goes on: a move is judged and committed by the process it
    reaches (the database orders the log), whose own viewers see it at once; the other
    processes learn of it from the database, which each asks every half second while
    Redis is away (bus.py), and the claim holder draws chance and moves bots as usual.
    Every viewer sees the moves made during the outage before Redis is back; then the game
    plays to the end and every viewer has the same final log. (The shared cluster runs on
    a Redis of its own: this stops it.)"""
    redis = c.own_redis
    assert redis is not None, "a cluster on its own Redis"
    rng = random.Random(seed)
    seats, options = tables(game, rng)
    g = Game(c.nodes, game, seats, options, spectators=[0, 1, 2], rng=rng)
    try:
        g.play(60, until=lambda g: len(g.acked) >= 3)
        settle(g, c.db)  # so the next mover knows it is to move
        redis.stop()
        before = len(g.acked)
        during = g.play(60, until=lambda g: len(g.acked) >= before + 6 or g.done())
        settle(g, c.db)  # every viewer, on every process, has them: Redis is still down
        assert during >= 1, "nothing was acknowledged while Redis was down"
        redis.start()
        g.play(120)
        record = check_finished(g)
        assert len(record.actions) >= len(g.acked)
    finally:
        g.close()


@pytest.mark.parametrize("game", ["master", pytest.param("fist", marks=pytest.mark.slow)])
def test_a_redis_restart_loses_nothing(cluster3: Cluster, game: str) -> None:
    redis_restart(cluster3, game, 21)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["master", "fist", "farkle"])
def test_redis_restarts_in_many_games(cluster3: Cluster, game: str) -> None:
    """CI: one more restart for each game, ``scripts/test.sh --long``: 4 (tests/sizes.py)."""
    for seed in range(size(ci=1, long=4)):
        redis_restart(cluster3, game, 300 + seed)


# ---------------------------------------------------------------------------- races


def reached(n: int) -> Callable[[TableConnection], bool]:
    return lambda conn: conn.seq >= n


def race_once(conns: list[TableConnection], texts: list[str]) -> list[int | Refused]:
    """Each connection sends its action at once (a barrier): the log length after each
    acknowledged one, or its refusal."""
    results: list[int | Refused] = [Refused("unanswered")] * len(conns)
    barrier = threading.Barrier(len(conns))

    def send(i: int) -> None:
        barrier.wait(10)
        try:
            results[i] = conns[i].act(texts[i], wait=False, timeout=30)
        except Refused as exc:
            results[i] = exc

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(conns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(40)
    return results


def race(c: Cluster, repeats: int, seed: int) -> None:
    """Dragon Master: each seat's user has a socket on two processes. ``repeats`` times, the
    mover's two sockets send a move at the same log position N at once (a barrier): one is
    acknowledged, the other refused as stale, and the log holds the winner's action at N.
    Two of the cluster's processes."""
    rng = random.Random(seed)
    nodes = c.nodes[:2]
    raced = 0
    wins = [0, 0]  # races won by the seat's first socket, by its twin
    while raced < repeats:
        g = Game(nodes, "master", [{"kind": "me", "node": 0}, {"kind": "open", "node": 1}],
                 {"match": True}, rng=rng)
        twins: dict[int | None, TableConnection] = {}
        try:
            for v in g.players:
                other = nodes[1] if v.node is nodes[0] else nodes[0]
                twin = Client(other.base, session=v.client.session)
                twins[v.seat] = twin.connect(g.id, reconnects=3)
            while raced < repeats and not g.conns()[0].finished:
                n = g.newest()
                g.wait_all(n)
                for t in twins.values():
                    assert t.wait(reached(n), 20), f"a twin never saw seq {n}"
                movers = [v for v in g.players if v.conn and v.conn.my_turn()]
                if not movers:
                    g.conns()[0].recv(0.05)
                    continue
                v = movers[0]
                assert v.conn is not None and v.seat is not None
                twin_conn = twins[v.seat]
                n = v.conn.seq  # both sockets send this seq (chance may have moved it on)
                assert twin_conn.wait(reached(n), 20), f"a twin never saw seq {n}"
                if twin_conn.seq != n or g.newest() != n:
                    continue  # the log moved on meanwhile: look again
                options = legal_texts(v.conn.view)
                texts = [rng.choice(options), rng.choice(options)]
                results = race_once([v.conn, twin_conn], texts)
                acks = [r for r in results if isinstance(r, int)]
                refusals = [r for r in results if isinstance(r, Refused)]
                assert len(acks) == 1 and len(refusals) == 1, (
                    f"race {raced} at seq {n}: {results!r}; the log ends "
                    f"{g.log_rows(c.db)[-4:]}; seqs {v.conn.seq} {twin_conn.seq}")
                assert acks[0] == n + 1
                # the position moved on: a stale seq or, after the game's last move,
                # a finished table
                moved_on = "server.act.not_running" if v.conn.wait(
                    reached(n + 1), 20) and v.conn.finished else "server.act.stale"
                assert refusals[0].code == moved_on, refusals[0].to_json()
                winner = texts[results.index(acks[0])]
                wins[results.index(acks[0])] += 1
                rows = g.log_rows(c.db)
                assert [r[0] for r in rows] == list(range(len(rows))), "a gap in the log"
                assert rows[n][1:] == (v.seat, winner), (rows[n], v.seat, winner)
                g.acked[n] = (v.seat, winner)
                raced += 1
                g.step()
        finally:
            for t in twins.values():
                t.close()
            g.close()
    print(f"{raced} races: the first socket won {wins[0]}, its twin {wins[1]}")


def test_racing_processes_accept_a_move_once(cluster3: Cluster) -> None:
    race(cluster3, 20, 3)


@pytest.mark.slow
def test_racing_processes_accept_a_move_once_many_times(cluster3: Cluster) -> None:
    """CI: 75 races, ``scripts/test.sh --long``: 300 (tests/sizes.py)."""
    race(cluster3, size(ci=75, long=300), 4)


# ---------------------------------------------------------------------------- SIGKILL


def claim_owner(pg_url: str, table_id: str) -> str | None:
    """The owner of the table's claim (a process id), or None (no claim row)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT owner FROM table_claims WHERE table_id = :t"),
                               {"t": table_id}).first()
    finally:
        engine.dispose()
    return None if row is None else str(row[0])


def holder(nodes: list[Node], pg_url: str, table_id: str) -> tuple[Node, str]:
    """The process holding the table's claim (its ``/api/health`` names the claim's
    owner), and the owner's id."""
    deadline = time.monotonic() + 15
    owner = ""
    while time.monotonic() < deadline:
        owner = claim_owner(pg_url, table_id) or ""
        for node in nodes:
            if owner and node.alive and httpx.get(
                    f"{node.base}/api/health", timeout=5).json().get("process") == owner:
                return node, owner
        time.sleep(0.1)
    raise AssertionError(f"no live process holds {table_id}'s claim ({owner!r})")


def kill_mid_game(c: Cluster, seed: int) -> None:
    """Farkle: a person on each of two processes, a bot, a spectator on the third. After a
    few moves the process holding the table's claim (its bot) is SIGKILLed; its viewers
    reconnect elsewhere with ``resume``; the game plays to the end, the bot moving again
    once the lease ran out (the shared cluster's leases are short)."""
    rng = random.Random(seed)
    c.revive()  # the previous kill's victim
    seats: list[JSON] = [{"kind": "me", "node": 0}, {"kind": "open", "node": 1},
                         {"kind": "bot", "bot": "random"}]
    options: JSON = {"max_turns": 6, "decks": {"items": PLANTED_ITEMS}}
    g = Game(c.nodes, "farkle", seats, options, spectators=[2], rng=rng)
    try:
        g.play(60, until=lambda g: len(g.acked) >= 3)
        victim, owner = holder(c.nodes, c.db, g.id)
        before = dict(g.acked)
        logged = len(g.log_rows(c.db))
        victim.kill()
        survivors = [n for n in c.nodes if n.alive]
        moved = [v for v in g.viewers if v.node is victim]
        assert moved, f"nobody was connected to {victim.name}"
        for v in moved:  # hello, then resume with the events held
            v.move_to(rng.choice(survivors))
        g.play(120)
        record = check_finished(g)
        assert all(g.acked[i] == a for i, a in before.items())
        later = [a for a in record.actions[logged:]
                 if parse_entry(a, len(record.seats))[0] == 2]
        assert later, f"the bot never moved after {victim.name} (claim {owner}) died"
    finally:
        g.close()


def test_a_killed_process_loses_nothing_and_its_bot_moves_on(cluster3: Cluster) -> None:
    kill_mid_game(cluster3, 7)


@pytest.mark.slow  # seconds of waiting for a clock of 10 s to run out
def test_a_killed_process_s_clock_still_fires(cluster3: Cluster) -> None:
    """Dragon Master with a real-time clock (10 s, the least a table may have): the process
    holding the table's claim (its timers) is SIGKILLed and the person at seat 0 stops
    playing; once the lease has expired another process holds the claim, seat 0's clock runs
    out there, a bot takes the seat over (``takeover``, reason ``timeout``) and the game ends.
    """
    rng = random.Random(11)
    c = cluster3
    seats: list[JSON] = [{"kind": "me", "node": 0}, {"kind": "open", "node": 1}]
    clock = {"kind": "realtime", "initial": 10.0, "increment": 0.0}
    g = Game(c.nodes, "master", seats, {}, spectators=[2], rng=rng, clock=clock)
    try:
        g.play(30, until=lambda g: len(g.acked) >= 2)
        victim, owner = holder(c.nodes, c.db, g.id)
        victim.kill()
        g.leave(0)
        survivors = [n for n in c.nodes if n.alive]
        for v in g.viewers:
            if v.node is victim:
                v.move_to(rng.choice(survivors))
        g.play(90)
        new_owner = claim_owner(c.db, g.id)
        record = check_finished(g)
        takeovers = [m for v in g.viewers for m in v.messages if m.get("type") == "takeover"]
        assert takeovers, f"seat 0's clock never fired after {victim.name} died"
        assert {(m["seat"], m["reason"]) for m in takeovers} == {(0, "timeout")}, takeovers
        assert new_owner != owner, "the dead process still holds the claim"
        after = min(m["seq"] for m in takeovers)
        bot = [a for a in record.actions[after:] if parse_entry(a, 2)[0] == 0]
        assert bot, "no move of seat 0's bot after the takeover"
    finally:
        g.close()


@pytest.mark.slow
def test_kills_in_many_games(cluster3: Cluster) -> None:
    """CI: 2 more kills (each victim started again before the next game), ``scripts/test.sh
    --long``: 5 (tests/sizes.py)."""
    for seed in range(size(ci=2, long=5)):
        kill_mid_game(cluster3, 100 + seed)


def key_rows(pg_url: str, table_id: str, key: str) -> list[int]:
    """The seqs recorded for an idempotency key at a table (one row, or none)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT seq FROM idempotency_keys WHERE table_id = :t "
                                     "AND key = :k"), {"t": table_id, "k": key}).all()
    finally:
        engine.dispose()
    return [int(r[0]) for r in rows]


def turn_on(g: Game, node: Node, seconds: float = 30.0) -> Any:
    """Play on until the person connected to ``node`` is to move on the newest log (every
    viewer of that seat in step); that viewer."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for v in g.viewers:
            v.pump()
        v = next(p for p in g.players if p.node is node)
        assert v.conn is not None
        if v.conn.my_turn() and legal_texts(v.conn.view) and v.conn.seq == g.newest():
            return v
        if not g.step():
            g.conns()[0].recv(0.05)
    raise AssertionError(f"the person on {node.name} was never to move")


def answer_to(messages: list[JSON], key: str) -> JSON:
    """The answer (``ack``, or the ``error`` naming the key) to the act sent with ``key``."""
    for m in reversed(messages):
        if m.get("type") == "ack" and m.get("key") == key:
            return m
        if m.get("type") == "error" and m.get("params", {}).get("key") == key:
            return m
    raise AssertionError(f"no answer to the act with key {key!r} was received")


def test_an_unanswered_act_resent_to_another_process_is_applied_once(cluster3: Cluster) -> None:
    """Exactly once across processes (issue 15; docs/protocol.md, the idempotency key): a
    person sends an act to a process that is SIGKILLed before the answer reaches them; they
    reconnect to another process and send the same act with the same key. Twice: (1) the
    process was stopped (SIGSTOP) before it could read the act, so nothing was committed:
    the resend is acknowledged (``ack`` with that key, the log one longer); (2) the act was
    committed (its row is in the database) and only the answer was lost: the resend answers
    ``server.act.duplicate_key`` naming the key and the same position. Either way the log
    holds the action once, at the position the answer names, and one row for the key; the
    game then plays to the end (the second victim holds the table's claim: chance passes to
    the survivor)."""
    rng = random.Random(15)
    c = cluster3
    g = Game(c.nodes, "master", [{"kind": "me", "node": 0}, {"kind": "open", "node": 1}],
             {}, spectators=[2], rng=rng)
    try:
        g.play(30, until=lambda g: len(g.acked) >= 2)
        for victim, committed in ((c.nodes[1], False), (c.nodes[0], True)):
            v = turn_on(g, victim)
            assert v.conn is not None and v.seat is not None
            n, text = v.conn.seq, rng.choice(legal_texts(v.conn.view))
            assert len(g.log_rows(c.db)) == n, "the mover's view is behind the log"
            key = f"resend-{victim.name}"
            act = {"type": "act", "action": text, "seq": n, "key": key}
            if committed:
                v.conn.send(act)  # its answer is never read from this socket
                deadline = time.monotonic() + 20
                while len(g.log_rows(c.db)) <= n:
                    assert time.monotonic() < deadline, "the act was never committed"
                    time.sleep(0.02)
                victim.kill()
            else:
                assert victim.proc is not None
                victim.proc.send_signal(signal.SIGSTOP)
                assert stopped(victim.proc), "SIGSTOP did not stop it"
                v.conn.send(act)  # waits, unread, in a stopped process's socket
                victim.kill()
                assert len(g.log_rows(c.db)) == n, "a stopped process committed"
            survivor = c.nodes[2]
            for w in g.viewers:
                if w.node is victim:
                    w.move_to(survivor)
            after = v.conn.act(text, key=key, timeout=30)  # the same key again
            answer = answer_to(v.messages, key)
            if committed:
                assert answer["type"] == "error", answer
                assert answer["code"] == "server.act.duplicate_key", answer
                assert answer["params"]["seq"] == n + 1, answer
            else:
                assert answer["type"] == "ack" and answer["seq"] == n + 1, answer
            assert after == n + 1
            rows = g.log_rows(c.db)
            assert [r[0] for r in rows] == list(range(len(rows))), "a gap in the log"
            assert rows[n] == (n, v.seat, text), (rows[n], v.seat, text)
            assert key_rows(c.db, g.id, key) == [n + 1]
            g.acked[n] = (v.seat, text)
        g.play(120)
        check_finished(g)
    finally:
        g.close()
