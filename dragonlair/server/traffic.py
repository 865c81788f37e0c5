"""WebSocket traffic of one player: a 4-player Fist of Dragonstones game over a real server.

Starts ``dragonlair serve`` (a temporary SQLite database) unless ``--url`` names one, signs in
a guest, creates a table with the guest and three server bots, and plays the guest's moves at
random from its legal actions. Besides the connection that plays, two more connections of the
same person watch the same seat, so that both protocols are measured on the very same game:

- ``full``: ``hello`` without features, as clients before the ``delta`` feature: every
  ``update`` carries the whole view;
- ``delta``: ``hello {features: ["delta"]}`` (docs/protocol.md, "Deltas"): an ``update``
  carries only what changed. Its views, merged as a client merges them, are checked against
  the ``full`` connection's, update by update (the run fails on any difference).

Counted: the bytes of every WebSocket frame each connection receives (header and UTF-8 JSON
payload; the server does not compress frames), the ``welcome`` included. ``--json`` prints
one object; ``--dump FILE`` keeps the delta connection's updates.

    python bench/traffic.py                 # 3 games (or: dragonlair bench --traffic)
    python bench/traffic.py --games 10 --json
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import connect as ws_connect

from dragonlair.client.client import COOKIE, PROTOCOL, Client, legal_texts

JSON = dict[str, Any]
#: a file to append every ``delta`` connection's update to (``--dump``)
DUMP: str | None = None


@dataclass
class Watch:
    """One watching connection: the bytes and messages it received, the views it holds."""

    features: list[str]
    frames: int = 0
    bytes: int = 0
    welcome_bytes: int = 0
    biggest: int = 0
    views: list[JSON] = field(default_factory=list)
    error: str | None = None


def frame_size(payload: int) -> int:
    """A server's WebSocket frame (unmasked, uncompressed: ``dragonlair serve`` turns
    per-message deflate off, docs/server.md): the header, 2, 4 or 10 bytes, and the payload."""
    return payload + (2 if payload < 126 else 4 if payload < 65536 else 10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    data = tempfile.mkdtemp(prefix="dragonlair-traffic-")
    exe = str(Path(sys.executable).parent / "dragonlair")
    proc = subprocess.Popen([exe, "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--data", data], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    import httpx

    for _ in range(300):
        try:
            if httpx.get(f"{url}/api/health").status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("dragonlair serve did not start")


def watch(client: Client, table_id: str, w: Watch, ready: threading.Event) -> None:
    """Receive every frame of the table until it is finished; keep the merged views."""
    from dragonlair.core.viewdelta import merge_update

    headers = {"Cookie": f"{COOKIE}={client.session}"}
    try:
        with ws_connect(client.ws_url(table_id), additional_headers=headers,
                        max_size=1 << 23) as ws:
            hello: JSON = {"type": "hello", "protocol": PROTOCOL}
            if w.features:
                hello["features"] = w.features
            ws.send(json.dumps(hello))
            view: JSON | None = None
            while True:
                raw = ws.recv(timeout=120)
                text = raw if isinstance(raw, str) else raw.decode()
                size = frame_size(len(text.encode()))
                w.frames += 1
                w.bytes += size
                w.biggest = max(w.biggest, size)
                message = json.loads(text)
                kind = message.get("type")
                if kind == "error":
                    w.error = str(message.get("code"))
                    ready.set()
                    return
                if kind == "welcome":
                    w.welcome_bytes = size
                    view = message["view"]
                    ready.set()
                elif kind == "update":
                    if DUMP and w.features:
                        with open(DUMP, "a", encoding="utf-8") as out:
                            out.write(text + "\n")
                    view = merge_update(view, message)
                    w.views.append(view)
                    if message.get("status") == "finished":
                        return
    except Exception as exc:
        w.error = w.error or repr(exc)
        ready.set()


def play_game(url: str, rng: random.Random, bot: str) -> dict[str, Any]:
    client = Client(url)
    client.guest("Traffic")
    table = client.create_table("fist", {"players": 4},
                                [{"kind": "me"}] + [{"kind": "bot", "bot": bot}] * 3)
    watches = {"full": Watch([]), "delta": Watch(["delta"])}
    threads = []
    for w in watches.values():
        ready = threading.Event()
        t = threading.Thread(target=watch, args=(client, table["id"], w, ready), daemon=True)
        t.start()
        ready.wait(30)
        threads.append(t)
    conn = client.connect(table["id"])
    client.start(table["id"])
    actions = 0
    while not conn.finished:
        if conn.my_turn():
            choices = legal_texts(conn.view)
            if choices:
                try:
                    conn.act(rng.choice(choices))
                    actions += 1
                except Exception:
                    pass
                continue
        conn.recv(1.0)
    conn.close()
    for t in threads:
        t.join(120)
    client.close()
    full, delta = watches["full"], watches["delta"]
    same = None
    if delta.error is None and full.error is None:
        same = len(full.views) == len(delta.views) and all(
            a == b for a, b in zip(full.views, delta.views, strict=False))
    return {"table": table["id"], "person_actions": actions, "seq": conn.seq,
            "updates": len(full.views),
            **{f"{k}_{f}": getattr(w, f) for k, w in watches.items()
               for f in ("frames", "bytes", "welcome_bytes", "biggest", "error")},
            "delta_views_equal_full": same}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", help="a running server (default: start one)")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1, help="the person's random moves")
    ap.add_argument("--bot", default="heuristic", help="the three bots (server bot names)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--dump", help="append the delta connection's updates to this file")
    args = ap.parse_args(argv)
    global DUMP
    DUMP = args.dump
    proc = None
    url = args.url
    if url is None:
        proc, url = start_server()
    try:
        rng = random.Random(args.seed)
        games = [play_game(url, rng, args.bot) for _ in range(args.games)]
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    summary: JSON = {"games": games}
    for mode in ("full", "delta"):
        sizes = [g[f"{mode}_bytes"] for g in games if g[f"{mode}_error"] is None]
        if sizes:
            summary[f"{mode}_mean_bytes"] = round(sum(sizes) / len(sizes))
            summary[f"{mode}_max_bytes"] = max(sizes)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        for g in games:
            print(f"table {g['table']}: {g['seq']} actions, {g['updates']} updates; "
                  f"full {g['full_bytes']:,} B (biggest frame {g['full_biggest']:,} B); "
                  + (f"delta {g['delta_bytes']:,} B (biggest frame {g['delta_biggest']:,} B),"
                     f" views equal: {g['delta_views_equal_full']}"
                     if g["delta_error"] is None else f"delta: {g['delta_error']}"))
        for mode in ("full", "delta"):
            if f"{mode}_mean_bytes" in summary:
                print(f"{mode}: mean {summary[f'{mode}_mean_bytes']:,} B per player per game, "
                      f"max {summary[f'{mode}_max_bytes']:,} B")
    bad = [g for g in games if g["delta_views_equal_full"] is False]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
