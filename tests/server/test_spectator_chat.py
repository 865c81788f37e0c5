"""The spectators' chat channel (issue 22; dragonlair/server/chat.py, docs/protocol.md "Chat"):
while a game runs, what signed-in spectators write reaches only the spectators; the players
get it once the game has ended (a ``chat_history`` pushed at the end, and in the history of a
later ``welcome``). Checked by planting a text and scanning every frame each player got
before the end for it. The players' chat stays everybody's. (The ``server`` fixture of
conftest.py: SQLite, or PostgreSQL with ``DRAGONLAIR_TEST_SERVER_DB=postgresql``.)"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from tests.server.helpers import (
    Client,
    ServerThread,
    play_to_end,
    running_master,
    say,
)

PLANTED = "PLANTED-kibitz-7f3a: Ann, play the ruby on c5"


def frames_before_the_end(client: Client) -> list[str]:
    """Every message the client got before the update that ended the game, as JSON text."""
    out: list[str] = []
    for m in client.received:
        if m.get("type") == "update" and m["status"] == "finished":
            return out
        out.append(json.dumps(m, ensure_ascii=False))
    raise AssertionError("the game did not end for this client")


def test_players_get_spectators_lines_only_after_the_end(server: ServerThread) -> None:
    tid, ann, bob = running_master(server)
    eve, anon = Client(server, "Eve"), Client(server, guest=False)
    for c in (ann, bob, eve, anon):
        c.connect(tid)
    # a spectator writes: the spectators' channel, to the spectators only
    answer = say(eve, PLANTED)
    assert answer["type"] == "chat", answer
    line = answer["message"]
    assert line["channel"] == "spectators" and line["seat"] is None and line["name"] == "Eve"
    anon.wait(lambda m: m.get("type") == "chat" and m["message"]["id"] == line["id"])
    # a player writes: everyone's, as before
    hello = say(ann, "good luck")
    assert hello["type"] == "chat" and hello["message"]["channel"] == "table"
    for c in (bob, eve, anon):
        c.wait(lambda m: m.get("type") == "chat" and m["message"]["text"] == "good luck")
    # a player who comes back meanwhile: the welcome's history and a resume hold no
    # spectator line either
    bob.close()
    welcome = bob.connect(tid)
    assert welcome is not None and [m["text"] for m in welcome["chat"]] == ["good luck"]
    bob.send_raw(json.dumps({"type": "resume", "since": 0, "chat_since": 0}))
    history = bob.wait(lambda m: m.get("type") == "chat_history")
    assert [m["text"] for m in history["messages"]] == ["good luck"]
    # a spectator arriving now reads both channels
    late = Client(server, "Late")
    seen = late.connect(tid)
    assert seen is not None and [m["text"] for m in seen["chat"]] == [PLANTED, "good luck"]
    # the game is played to its end
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(7))
    for c in (ann, bob):
        pushed = c.wait(lambda m: m.get("type") == "chat_history"
                        and any(x["text"] == PLANTED for x in m["messages"]))
        assert [x["channel"] for x in pushed["messages"]] == ["spectators"]
        # no frame before the end carried the planted text
        before = frames_before_the_end(c)
        assert before and not any("PLANTED-kibitz" in f for f in before)
    # the spectators got no second copy pushed (the pong comes after anything pushed before)
    assert eve.request({"type": "ping"})["type"] == "pong"
    assert not any(m.get("type") == "chat_history" for m in eve.received)
    # after the end, a player's welcome holds both channels
    ann.close()
    again = ann.connect(tid)
    assert again is not None
    assert [(m["text"], m["channel"]) for m in again["chat"]] == \
        [(PLANTED, "spectators"), ("good luck", "table")]
    # and a spectator's line now is everyone's
    after = say(eve, "well played")
    assert after["message"]["channel"] == "table"
    bob.wait(lambda m: m.get("type") == "chat" and m["message"]["text"] == "well played")


def test_a_player_whose_seat_a_bot_took_is_no_spectator(server: ServerThread) -> None:
    tid, ann, bob = running_master(server)
    eve = Client(server, "Eve")
    for c in (ann, bob, eve):
        c.connect(tid)
    assert bob.request({"type": "resign"})["type"] == "resigned"
    err = say(bob, "psst, Ann")
    assert err["type"] == "error" and err["code"] == "server.chat.spectators_read_only"
    line = say(eve, PLANTED)["message"]
    assert line["channel"] == "spectators"
    # Ann (seated) and Bob (a seat of this table was his) are not sent it while it runs
    assert say(ann, "marker")["type"] == "chat"
    bob.wait(lambda m: m.get("type") == "chat" and m["message"]["text"] == "marker")
    for c in (ann, bob):
        assert not any("PLANTED-kibitz" in json.dumps(m) for m in c.received)
    bob.close()
    welcome = bob.connect(tid)
    assert welcome is not None and welcome["seat"] is None
    assert [m["text"] for m in welcome["chat"]] == ["marker"]


def test_anonymous_viewers_still_may_not_write(server: ServerThread) -> None:
    tid, _ann, _bob = running_master(server)
    anon = Client(server, guest=False)
    anon.connect(tid)
    err = say(anon, "hello")
    assert err["type"] == "error" and err["code"] == "server.chat.sign_in"


def test_news_of_a_spectators_line_from_another_process(tmp_path: Path) -> None:
    """Many processes (docs/deploy.md): a line written in another process arrives as a bus
    notice; this process sends a spectators' line to its spectators only, and a rematch
    note to everyone (Hub.notice)."""
    from concurrent.futures import ThreadPoolExecutor
    from typing import Any, cast

    from dragonlair.server.bus import TableEvent
    from dragonlair.server.db import make_engine, make_sessionmaker
    from dragonlair.server.hub import Hub
    from dragonlair.server.migrate import upgrade
    from dragonlair.server.settings import Settings
    from dragonlair.server.table.viewers import Viewer
    from tests.server_multi.test_claims import Inbox, human_table, messages

    engine = make_engine(f"sqlite:///{tmp_path / 'n.db'}")
    upgrade(engine)
    make = make_sessionmaker(engine)
    table_id, users = human_table(make)

    def viewer(user_id: int | None) -> Viewer:
        v = Viewer(cast(Any, Inbox()), user_id, 100)
        v.greeted = True
        return v

    async def main() -> None:
        with ThreadPoolExecutor(1) as pool:
            hub = Hub(Settings(), make, pool)
            runtime = await hub.table(table_id)
            player, spectator = viewer(users[0]), viewer(None)
            runtime.viewers |= {player, spectator}
            line = {"id": 1, "seat": None, "user_id": 99, "name": "Eve", "text": PLANTED,
                    "at": 0.0, "channel": "spectators"}
            await hub.notice(TableEvent(table_id, {"k": "chat", "message": line, "p": "x"}))
            note = {"type": "rematch", "state": "none", "accepted": [], "asked": [0, 1]}
            await hub.notice(TableEvent(table_id, {"k": "rematch", "note": note, "p": "x"}))
            got_player, got_spectator = messages(player), messages(spectator)
            assert [m["type"] for m in got_player] == ["rematch"]
            assert [m["type"] for m in got_spectator] == ["chat", "rematch"]
            assert got_spectator[0]["message"]["text"] == PLANTED
            await hub.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    engine.dispose()
