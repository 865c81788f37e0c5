"""Bots that think in worker processes (dragonlair/server/botpool.py, issue 24): games against
them play to the end with records that replay, a bot keeps its memory between decisions (it
lives in one worker), a worker that dies is started again, cheap bots stay in-process, and
the workers warm up at start."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonlair.core.game import JSON, Action, State
from dragonlair.core.records import Record, replay
from dragonlair.games import make_game
from dragonlair.server import botpool
from dragonlair.server.botpool import BotPool, RemoteBot
from tests.server.helpers import Client, ServerThread, new_table, play_to_end

pytestmark = pytest.mark.skipif(not botpool.processes_available(),
                                reason="no worker processes here")


class CountingBot:
    """Plays its first legal action; remembers how many decisions it made (in its worker)
    and says so through its choice (the n-th decision picks legal[n % len(legal)])."""

    reads_events = False

    def __init__(self, rng: random.Random) -> None:
        self.decisions = 0

    def choose(self, view: JSON, legal: list[Action]) -> Action:
        self.decisions += 1
        return legal[(self.decisions - 1) % len(legal)]


@pytest.fixture
def pool() -> Iterator[BotPool]:
    p = BotPool(2, warm=False)
    try:
        yield p
    finally:
        p.close()


def a_state_with_choices() -> tuple[State, int]:
    state = make_game("master", {}).new_initial_state()
    rng = random.Random(3)
    while state.is_chance():
        state.apply(-1, state.sample_chance(rng))
    seat = state.current_seats()[0]
    assert len(state.legal_actions(seat)) > 3
    return state, seat


@pytest.mark.slow  # worker processes started: CI
def test_a_bot_keeps_its_memory_in_its_worker(pool: BotPool) -> None:
    state, seat = a_state_with_choices()
    legal = state.legal_actions(seat)
    bot = pool.make(make_game("master", {}), f"{__name__}:CountingBot", "t1", seat)
    other = pool.make(make_game("master", {}), f"{__name__}:CountingBot", "t2", seat)
    assert bot.worker != other.worker  # placed round robin

    async def ask(b: RemoteBot) -> Action:
        return await pool.think(b, state.clone(), seat, None)

    async def go() -> list[Action]:
        return [await ask(bot) for _ in range(3)] + [await ask(other)]

    chosen = asyncio.run(go())
    assert [str(a) for a in chosen] == [str(legal[0]), str(legal[1]), str(legal[2]),
                                         str(legal[0])]
    assert all(a in legal for a in chosen)  # the state's own actions come back


@pytest.mark.slow  # worker processes started: CI
def test_a_dead_worker_is_started_again(pool: BotPool) -> None:
    state, seat = a_state_with_choices()
    bot = pool.make(make_game("master", {}), "greedy", "t1", seat)

    async def go() -> tuple[list[int], Action]:
        pids = await pool.start()
        os.kill(pids[bot.worker], signal.SIGKILL)
        await asyncio.sleep(0.2)
        return pids, await pool.think(bot, state.clone(), seat, None)

    _, action = asyncio.run(go())
    assert action in state.legal_actions(seat)
    assert pool.restarts == 1


def test_the_view_handed_over_is_the_one_ask_bot_builds() -> None:
    state, seat = a_state_with_choices()
    assert botpool.bot_view(False, True, state, seat, None) == {}
    assert botpool.bot_view(True, False, state, seat, None) == state.view(
        seat, state.event_count)
    assert botpool.bot_view(True, True, state, seat, None) == state.view(seat)


@pytest.fixture
def process_server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path, bot_processes=2, bots_in_process=("random",)).start()
    try:
        yield srv
    finally:
        srv.stop()


def finished_record(client: Client, table_id: str) -> Record:
    r = client.http.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    record = Record.from_json(r.json())
    _, state = replay(record)
    assert state.is_terminal()
    return record


@pytest.mark.slow  # worker processes started: CI
@pytest.mark.parametrize("game,bot,options", [
    ("farkle", "optimal", {"max_turns": 4}),
    ("master", "expert", {}),
])
def test_a_game_against_a_bot_in_a_worker(process_server: ServerThread, game: str, bot: str,
                                          options: dict[str, Any]) -> None:
    ann = Client(process_server, "Ann")
    tid = new_table(ann, game, [{"kind": "me"}, {"kind": "bot", "bot": bot}],
                    **options)["id"]
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    ann.connect(tid)
    play_to_end(process_server, tid, {0: ann}, random.Random(5))
    record = finished_record(ann, tid)
    assert any(a.startswith("p1:") for a in record.actions)  # the bot played
    hub = process_server.hub
    assert hub.bots is not None and hub.bots.asked > 0
    assert isinstance(process_server.runtime(tid).driver.bots[1], RemoteBot)


@pytest.mark.slow  # worker processes started: CI
def test_bots_named_in_process_stay_there(process_server: ServerThread) -> None:
    ann = Client(process_server, "Ann")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])["id"]
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    ann.connect(tid)
    play_to_end(process_server, tid, {0: ann}, random.Random(6))
    finished_record(ann, tid)
    assert not isinstance(process_server.runtime(tid).driver.bots[1], RemoteBot)


PARENT = """
import asyncio, time
from dragonlair.server.botpool import BotPool
if __name__ == "__main__":
    pool = BotPool(1, warm=False)
    print(asyncio.run(pool.start())[0], flush=True)
    time.sleep(120)
"""


def running(pid: int) -> bool:
    """Whether ``pid`` runs (Linux ``/proc``; a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow  # worker processes started: CI
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(PARENT)
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env=env)
    try:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        assert running(worker)
        proc.kill()  # as SIGKILL: no shutdown of the pool
        proc.wait(10)
        deadline = time.monotonic() + 15
        while running(worker):
            assert time.monotonic() < deadline, "the worker outlived its server"
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
