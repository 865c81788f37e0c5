"""A remote bot: it joins a table on a Dragonlair server and plays random legal moves.

    python examples/remote_bot.py --server http://127.0.0.1:8000 --token dlb_... [--table ID]

It speaks the same WebSocket protocol as a person's client (docs/protocol.md) through
dragonlair.client, reading its moves from its own view's ``legal`` description: it never
sees another seat's secrets. Without --table it takes the first open seat of any open table
(of --game, if given). Without --token it plays as a guest. See docs/remote-bots.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import time

from dragonlair.client import Client, Refused, legal_texts


def find_table(client: Client, game: str | None) -> str:
    """The newest open table with an open seat (of ``game``), waiting until there is one."""
    while True:
        for table in client.tables("open"):
            if (game is None or table["game"] == game) and any(
                    seat["kind"] == "open" for seat in table["seats"]):
                return str(table["id"])
        time.sleep(1.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("DRAGONLAIR_TOKEN"))
    parser.add_argument("--table", help="the table to join (default: the first open one)")
    parser.add_argument("--game", help="only join tables of this game")
    parser.add_argument("--seed", type=int, help="seed of the bot's choices")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    client = Client(args.server, token=args.token)
    me = client.me() if args.token else client.guest("random bot")
    table_id = args.table or find_table(client, args.game)
    try:
        client.join(table_id)
    except Refused as exc:
        if exc.code != "server.table.already_seated":  # sat there before: play on
            raise
    print(f"{me['display_name']} sits at table {table_id}", flush=True)

    conn = client.connect(table_id)
    seats = client.table(table_id)["seats"]
    if conn.status == "open" and all(s["kind"] != "open" for s in seats):
        with contextlib.suppress(Refused):  # the last seat taken: start (if nobody did)
            client.start(table_id)
    moves = 0
    while not conn.finished:
        if not conn.my_turn():
            conn.recv(timeout=5.0)  # updates: other seats' moves, chance, the start
            continue
        try:
            conn.act(rng.choice(legal_texts(conn.view)))
            moves += 1
        except Refused as exc:  # the position moved on meanwhile: look again
            print(f"refused: {exc.code} {exc.params}", flush=True)
    result = conn.view["result"] if conn.view else None
    print(f"game over after {moves} moves of mine; result: {result}", flush=True)
    conn.close()
    client.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
