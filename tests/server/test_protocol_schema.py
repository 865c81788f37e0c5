"""The protocol's JSON Schema: generated from the models, committed in the package and in
docs/, and true of every message of whole test games (each view also true to its game's
view schema)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")

from dragonlair.core.views import schema_paths, schema_text  # noqa: E402
from dragonlair.server import protocol  # noqa: E402
from dragonlair.server.settings import Limits  # noqa: E402
from dragonlair.server.table.viewers import PROTOCOL  # noqa: E402
from tests.server.helpers import Client, ServerThread, new_table, play_to_end  # noqa: E402
from tests.sizes import quick_first  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server whose message rate limit the scripted players (who act as fast as the server
    answers) never reach: the games, not the flood control, are under test here."""
    srv = ServerThread(tmp_path_factory.mktemp("schema"),
                       limits=Limits(messages_per_second=10_000, message_burst=10_000)).start()
    yield srv
    srv.stop()


def validator(which: str) -> Any:
    """A validator of ``$defs/<which>`` of the published document."""
    doc = protocol.published_schema()
    schema = {**doc, "oneOf": [{"$ref": f"#/$defs/{which}"}]}
    return jsonschema.Draft202012Validator(schema)


def view_validator(game: str) -> Any:
    path = schema_paths(game, ROOT)[0]
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def test_the_committed_schemas_are_the_generated_ones() -> None:
    """After changing a message model: ``python -m dragonlair.server.protocol``."""
    text = schema_text(protocol.protocol_schema())
    for path in protocol.schema_paths(ROOT):
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: regenerate it"
    assert protocol.published_schema() == json.loads(text)


def test_the_schema_names_every_message_and_the_version() -> None:
    doc = protocol.published_schema()
    assert doc["protocol"] == protocol.PROTOCOL_VERSION == PROTOCOL
    defs = doc["$defs"]
    clients = {defs[r["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"]
               for r in defs["ClientMessage"]["oneOf"]}
    servers = {defs[r["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"]
               for r in defs["ServerMessage"]["oneOf"]}
    assert {"hello", "act", "resume", "ping"} <= clients
    assert {"welcome", "ack", "update", "error", "pong"} <= servers
    jsonschema.Draft202012Validator.check_schema(doc)


def test_the_schema_refuses_what_the_protocol_refuses() -> None:
    client, server = validator("ClientMessage"), validator("ServerMessage")
    assert client.is_valid({"type": "act", "action": "place ruby d4", "seq": 3, "key": "k1"})
    assert not client.is_valid({"type": "act", "action": "place ruby d4", "seq": 3})
    assert not client.is_valid({"type": "act", "action": "x", "seq": 3, "key": "bad key!"})
    assert not client.is_valid({"type": "shout"})
    assert server.is_valid({"type": "ack", "key": "k1", "seq": 4})
    assert not server.is_valid({"type": "ack", "key": "k1", "seq": 4, "extra": 1})
    assert server.is_valid({"type": "error", "code": "server.act.stale",
                            "params": {"seen": 1, "seq": 2}, "rule": None, "re": "r1"})


@pytest.mark.parametrize("game", quick_first(1, ["master", "farkle", "fist"]))
def test_every_message_of_a_whole_game_fits_the_schema(server: ServerThread, game: str) -> None:
    """Two people (or one and bots) and a spectator: every message each received, and the
    messages they sent, validate; each view validates against its game's view schema."""
    ann, bob, eve = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Eve")
    # Fist to turn 2 and Farkle to its 10th turn (about 100 actions, not 300): every kind of
    # message and view comes up in them (tests/test_contract.py validates the views of
    # whole games)
    options: dict[str, Any] = {"fist": {"max_turns": 2}, "farkle": {"max_turns": 10}}.get(game, {})
    seats = ([{"kind": "me"}, {"kind": "open"}]
             + [{"kind": "bot", "bot": "random"}] * (game == "fist"))
    tid = new_table(ann, game, seats, **options)["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    for c in (ann, bob, eve):
        c.connect(tid)
    sent: list[dict[str, Any]] = [{"type": "hello", "protocol": 1, "id": "r1"}]
    refused = ann.act("no such action")  # an error message too
    sent.append({"type": "act", "action": "no such action", "seq": 0, "key": "k0"})
    assert refused["type"] == "error"
    assert ann.request({"type": "ping"})["type"] == "pong"
    assert ann.request({"type": "resume", "since": 0})["type"] == "update"
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(4))
    eve.catch_up(len(server.runtime(tid).state.history))
    incoming, outgoing, views = validator("ServerMessage"), validator("ClientMessage"), \
        view_validator(game)
    checked = 0
    kinds: set[str] = set()
    for c in (ann, bob, eve):
        for message in c.received:
            errors = sorted(incoming.iter_errors(message), key=str)
            assert not errors, (message.get("type"), str(errors[0])[:2000])
            if "view" in message:
                assert views.is_valid(message["view"]), message["type"]
            kinds.add(message["type"])
            checked += 1
    assert {"welcome", "update", "ack", "error", "pong"} <= kinds and checked > 20
    for message in sent:
        assert outgoing.is_valid(message), message


def test_clocks_takeovers_and_resignations_fit_the_schema(server: ServerThread) -> None:
    """A table with a real-time clock where a player resigns: ``clock`` in every welcome
    and update, ``resigned`` and ``takeover`` messages, all true to the schema."""
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    r = ann.http.post("/api/tables", json={
        "game": "master", "seats": [{"kind": "me"}, {"kind": "open"}], "takeover_bot": "random",
        "clock": {"kind": "realtime", "initial": 600, "increment": 5, "maximum": 900}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200
    ann.connect(tid)
    bob.connect(tid)
    play_to_end(server, tid, {0: ann, 1: bob}, random.Random(6), stop_after=2)
    assert ann.request({"type": "resign"})["type"] == "resigned"
    play_to_end(server, tid, {1: bob}, random.Random(7))
    incoming = validator("ServerMessage")
    kinds: set[str] = set()
    for c in (ann, bob):
        for message in c.received:
            errors = sorted(incoming.iter_errors(message), key=str)
            assert not errors, (message.get("type"), str(errors[0])[:2000])
            if message["type"] in ("welcome", "update"):
                assert "clock" in message
            kinds.add(message["type"])
    assert {"welcome", "update", "ack", "resigned", "takeover"} <= kinds
