"""Load on the game server: many Dragon Master tables played at once by WebSocket clients.

    python bench/server_load.py --tables 20

Starts a server (uvicorn, a temporary SQLite database), creates the tables, and plays every
game to the end with two clients per table sending random legal actions (read, as in the
tests, from the server's state: the bench measures the protocol, not move choice).
Reports actions per second and the latency from `act` to `ack` (median, 95th percentile).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.helpers import Client, ServerThread, new_table


def play_table(server: ServerThread, seed: int, latencies: list[float]) -> int:
    ann, bob = Client(server, "A"), Client(server, "B")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    bob.http.post(f"/api/tables/{tid}/join", json={})
    ann.http.post(f"/api/tables/{tid}/start")
    ann.connect(tid)
    bob.connect(tid)
    people = {0: ann, 1: bob}
    rng = random.Random(seed)
    runtime = server.runtime(tid)
    n_acts = 0
    while True:
        state = runtime.state
        if state.is_terminal():
            return n_acts
        seats = [s for s in state.current_seats() if s in people]
        if not seats:
            time.sleep(0.001)
            continue
        seat = seats[0]
        n = len(state.history)
        people[seat].catch_up(n)
        t = time.perf_counter()
        answer = people[seat].act(str(rng.choice(list(state.legal_actions(seat)))), seq=n)
        latencies.append(time.perf_counter() - t)
        assert answer["type"] == "ack", answer
        n_acts += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerThread(Path(folder)).start()
        latencies: list[float] = []
        counts: list[int] = []
        t0 = time.perf_counter()
        threads = [threading.Thread(target=lambda i=i: counts.append(
            play_table(server, i, latencies))) for i in range(args.tables)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        elapsed = time.perf_counter() - t0
        server.stop()
    total = sum(counts)
    latencies.sort()
    print(f"{args.tables} tables, {total} human actions in {elapsed:.2f}s "
          f"({total / elapsed:.0f} actions/s)")
    print(f"act->ack latency: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p95 {latencies[int(len(latencies) * 0.95)] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
