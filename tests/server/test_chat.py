"""Table chat over a real server: a line reaches every viewer (seats, a signed-in spectator,
an anonymous one) after it is stored; the history comes with ``welcome`` and after
``resume``; lines that are too long, empty, hold control characters, come too fast or come
from someone who may not write are refused with a code and change nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from dragonlair.server.settings import Limits
from tests.server.helpers import JSON, Client, ServerThread, new_table, running_master, say

#: one line a minute after a burst of 8: a test never waits for a refill
LIMITS = Limits(chat_burst=8, chat_per_minute=1.0, chat_history=5)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    data: Path = tmp_path_factory.mktemp("chat")
    srv = ServerThread(data, limits=LIMITS).start()
    yield srv
    srv.stop()


def chat_rows(server: ServerThread, table_id: str) -> list[tuple[int, str]]:
    with sqlite3.connect(server.settings.data_dir / "dragonlair.db") as conn:
        return [(int(r[0]), str(r[1])) for r in conn.execute(
            "SELECT id, text FROM chat_messages WHERE table_id=? ORDER BY id", (table_id,))]


def chats(client: Client) -> list[JSON]:
    client.drain()
    return [m["message"] for m in client.received if m.get("type") == "chat"]


def test_a_line_reaches_both_seats_and_both_spectators(server: ServerThread) -> None:
    tid, ann, bob = running_master(server)
    eve, anon = Client(server, "Eve"), Client(server, guest=False)
    for c in (ann, bob, eve, anon):
        c.connect(tid)
    text = "<b>hi</b> & <script>alert(1)</script> — ünïcødé 🐉"
    answer = say(ann, f"  {text}  ")
    assert answer["type"] == "chat", answer
    line = answer["message"]
    assert line["text"] == text  # trimmed, otherwise exactly as sent: no HTML handling
    assert line["seat"] == 0 and line["name"] == "Ann" and line["user_id"] == ann.user["id"]
    assert say(bob, "gl hf")["type"] == "chat"
    for c in (ann, eve, anon):
        c.wait(lambda m: m.get("type") == "chat" and m["message"]["text"] == "gl hf")
    for c in (ann, bob, eve, anon):
        got = chats(c)
        assert [m["text"] for m in got] == [text, "gl hf"], c.user
        assert got[0]["id"] < got[1]["id"]
    assert [t for _, t in chat_rows(server, tid)] == [text, "gl hf"]


def test_spectators_write_only_to_spectators_while_the_game_runs(server: ServerThread) -> None:
    # (issue 22: the spectators' channel; tests/server/test_spectator_chat.py scans frames)
    tid, ann, _bob = running_master(server)
    eve, anon = Client(server, "Eve"), Client(server, guest=False)
    for c in (ann, eve, anon):
        c.connect(tid)
    answer = say(eve, "psst: the dragon")
    assert answer["type"] == "chat" and answer["message"]["channel"] == "spectators"
    anon.wait(lambda m: m.get("type") == "chat")
    err = say(anon, "hello")
    assert err["type"] == "error" and err["code"] == "server.chat.sign_in"
    assert [t for _, t in chat_rows(server, tid)] == ["psst: the dragon"]
    # the server answers Ann's ping after anything it had for her before: no line came
    assert ann.request({"type": "ping"})["type"] == "pong"
    assert chats(ann) == []


def test_spectators_may_talk_while_the_table_gathers(server: ServerThread) -> None:
    ann, eve = Client(server, "Ann"), Client(server, "Eve")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    ann.connect(tid)
    eve.connect(tid)
    assert eve.seat is None
    answer = say(eve, "may I join next round?")
    assert answer["type"] == "chat" and answer["message"]["seat"] is None
    ann.wait(lambda m: m.get("type") == "chat")


def test_history_comes_with_welcome_and_after_resume(server: ServerThread) -> None:
    tid, ann, bob = running_master(server)
    ann.connect(tid)
    bob.connect(tid)
    texts = [f"line {i}" for i in range(7)]
    for i, text in enumerate(texts):
        assert say(ann if i % 2 == 0 else bob, text)["type"] == "chat"
    ids = [i for i, _ in chat_rows(server, tid)]
    # a spectator arriving later (and Bob after a reload) reads the newest lines
    eve = Client(server, "Eve")
    welcome = eve.connect(tid)
    assert welcome is not None
    assert [m["text"] for m in welcome["chat"]] == texts[-LIMITS.chat_history:]
    bob.close()
    again = bob.connect(tid)
    assert again is not None and again["seat"] == 1
    assert [m["id"] for m in again["chat"]] == ids[-LIMITS.chat_history:]
    # resume: the lines after the one held
    bob.send_raw(json.dumps({"type": "resume", "since": 0, "chat_since": ids[3]}))
    history = bob.wait(lambda m: m.get("type") == "chat_history")
    assert [m["text"] for m in history["messages"]] == texts[4:]
    assert history["complete"] is True
    bob.send_raw(json.dumps({"type": "resume", "since": 0, "chat_since": 0}))
    history = bob.wait(lambda m: m.get("type") == "chat_history")
    assert [m["text"] for m in history["messages"]] == texts[-LIMITS.chat_history:]
    assert history["complete"] is False  # older lines were left out


@pytest.mark.parametrize(("text", "code"), [
    ("x" * 501, "server.chat.too_long"),
    ("   \t ", "server.chat.empty"),
    ("", "server.chat.empty"),
    ("ring \x07 ring", "server.chat.bad_character"),
    ("two\nlines", "server.chat.bad_character"),
    ("C1 \x85 control", "server.chat.bad_character"),
    ("reversed \u202e txet", "server.chat.bad_character"),
])
def test_bad_lines_are_refused_and_change_nothing(server: ServerThread, text: str,
                                                  code: str) -> None:
    tid, ann, bob = running_master(server)
    ann.connect(tid)
    bob.connect(tid)
    err = say(ann, text)
    assert err["type"] == "error" and err["code"] == code, err
    assert chat_rows(server, tid) == []
    bob.send_raw(json.dumps({"type": "ping", "id": "p"}))
    bob.wait(lambda m: m.get("type") == "pong")
    assert chats(bob) == []


def test_a_line_of_500_characters_after_trimming_is_fine(server: ServerThread) -> None:
    tid, ann, _bob = running_master(server)
    ann.connect(tid)
    answer = say(ann, "  " + "y" * 500 + "\n")
    assert answer["type"] == "chat" and len(answer["message"]["text"]) == 500
    err = say(ann, "z" * 501)
    assert err["code"] == "server.chat.too_long" and err["params"]["limit"] == 500


def test_a_lone_surrogate_is_refused(server: ServerThread) -> None:
    tid, ann, _bob = running_master(server)
    ann.connect(tid)
    ann.send_raw('{"type": "chat", "text": "bad \\ud800 half", "id": "s"}')
    err = ann.wait(lambda m: m.get("re") == "s")
    assert err["type"] == "error" and err["code"] == "server.chat.bad_character"
    assert chat_rows(server, tid) == []


def test_wrong_fields_are_refused(server: ServerThread) -> None:
    tid, ann, _bob = running_master(server)
    ann.connect(tid)
    for message in ({"type": "chat"}, {"type": "chat", "text": 5},
                    {"type": "chat", "text": "hi", "colour": "red"}):
        err = ann.request(message)
        assert err["type"] == "error" and err["code"] == "server.msg.bad_field", err
    assert chat_rows(server, tid) == []


def test_the_rate_limit_is_per_user_and_refusals_store_nothing(server: ServerThread) -> None:
    tid, ann, bob = running_master(server)
    ann.connect(tid)
    bob.connect(tid)
    other = Client(server, guest=False)  # a second socket of Ann's shares her bucket
    other.http.cookies.set("dragonlair_session", ann.token or "")
    other.connect(tid)
    assert other.seat == 0
    for i in range(LIMITS.chat_burst):
        assert say(ann if i % 2 else other, f"spam {i}")["type"] == "chat"
    err = say(ann, "one more")
    assert err["type"] == "error" and err["code"] == "server.chat.rate_limited"
    assert err["params"]["per_minute"] == LIMITS.chat_per_minute
    assert say(other, "and another")["code"] == "server.chat.rate_limited"
    assert say(bob, "my own bucket")["type"] == "chat"  # Bob is not limited by Ann
    assert len(chat_rows(server, tid)) == LIMITS.chat_burst + 1
