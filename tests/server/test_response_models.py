"""Every REST answer has a model (dragonlair/server/responses.py and the routes' own): the
OpenAPI document names the shape of each 2xx JSON answer, so that the browser's types are
generated from it (web/src/gen/openapi.ts), none written by hand. And the models keep the
answers as the routes build them: no key added, dropped or changed in type (a ``3`` stays
``3``, a key a route leaves out stays out)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

from dragonlair.server import Settings, create_app
from dragonlair.server.db import GameTable
from tests.server.helpers import JSON, Client, ServerThread, new_table


def resolve(doc: JSON, schema: JSON) -> JSON:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    assert ref.startswith("#/components/schemas/"), ref
    out: JSON = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return out


def untyped(doc: JSON, schema: JSON, where: str) -> list[str]:
    """Where ``schema`` (an answer's, or an item's of a list answer) is an object without a
    named shape: no ``$ref`` and no properties (``{"type": "object"}``, a ``dict``)."""
    if "$ref" in schema:
        named = resolve(doc, schema)
        return [] if named.get("properties") else [f"{where} ({schema['$ref']}: no properties)"]
    if schema.get("type") == "array":
        return untyped(doc, schema.get("items", {}), f"{where}[]")
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return [p for i, s in enumerate(schema[key]) if s.get("type") != "null"
                    for p in untyped(doc, s, f"{where}|{i}")]
    if schema.get("type") == "object" or not schema:
        return [where]  # an open object, or no schema at all
    return []  # a string, a number: typed


def unnamed_answers(doc: JSON) -> tuple[int, list[str]]:
    """How many 2xx JSON answers the document declares, and those without a named shape."""
    problems: list[str] = []
    answers = 0
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if not status.startswith("2"):
                    continue
                content = response.get("content", {})
                assert set(content) <= {"application/json"}, (method, path, set(content))
                if "application/json" in content:
                    answers += 1
                    problems += untyped(doc, content["application/json"].get("schema", {}),
                                        f"{method.upper()} {path} {status}")
    return answers, problems


def test_every_answer_has_a_named_model(tmp_path: Path) -> None:
    answers, problems = unnamed_answers(create_app(Settings(data_dir=tmp_path)).openapi())
    assert answers >= 40
    assert not problems, "answers without a model:\n" + "\n".join(problems)


class Named(BaseModel):
    ok: bool


def test_an_answer_without_a_model_is_found() -> None:
    app = FastAPI()

    @app.get("/open")
    def open_answer() -> dict[str, Any]:
        return {}

    @app.get("/opens")
    def open_answers() -> list[dict[str, Any]]:
        return []

    @app.get("/named")
    def named() -> list[Named]:
        return []

    @app.get("/word")
    def word() -> str:
        return ""

    assert unnamed_answers(app.openapi()) == (4, ["GET /open 200", "GET /opens 200[]"])


def same(answer: Any, built: Any) -> None:
    """The answer is the JSON the route built: every key, every value, every number's type
    (key order aside)."""
    assert json.dumps(answer, sort_keys=True) == json.dumps(built, sort_keys=True)


def built(server: ServerThread, fn: Any) -> Any:
    with server.app.state.sessions() as s:
        return json.loads(json.dumps(fn(s)))


def test_the_models_keep_the_answers_as_built(server: ServerThread) -> None:
    from dragonlair.server.lobby import record
    from dragonlair.server.lobby_service import table_json

    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    created = new_table(ann, "master", [{"kind": "me"}, {"kind": "invite"}])
    tid = created["id"]
    assert [i["seat"] for i in created["invites"]] == [1] and "spectators" not in created
    r = ann.http.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    shown = r.json()
    assert isinstance(shown["seq"], int) and shown["spectators"] == 0
    same({k: v for k, v in shown.items() if k != "spectators"},
         built(server, lambda s: table_json(s, s.get(GameTable, tid), detail=True)))
    listed = [t for t in ann.http.get("/api/tables").json() if t["id"] == tid]
    assert len(listed) == 1 and "seq" not in listed[0] and "spectators" not in listed[0]
    same(listed[0], built(server, lambda s: table_json(s, s.get(GameTable, tid))))
    r = ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "open"})
    assert r.status_code == 200 and "invite" not in r.json(), r.text
    r = ann.http.put(f"/api/tables/{tid}/seats/1", json={"kind": "invite"})
    assert r.status_code == 200 and r.json()["invite"]["seat"] == 1, r.text
    assert ann.http.get("/api/me").json().keys() == {
        "id", "username", "display_name", "guest", "bot", "moderator", "profile"}
    assert bob.http.post("/api/auth/logout").json() == {"ok": True}

    # a finished table: its record and replay as the routes build them
    done = new_table(ann, "master", [{"kind": "bot", "bot": "random"}] * 2)["id"]
    assert ann.http.post(f"/api/tables/{done}/start").status_code == 200
    deadline = time.monotonic() + 60
    while ann.http.get(f"/api/tables/{done}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.05)
    r = ann.http.get(f"/api/tables/{done}/record")
    assert r.status_code == 200, r.text
    same(r.json(), built(server, lambda s: record(done, s)))
    r = ann.http.get(f"/api/tables/{done}/replay", params={"record": "false"})
    assert r.status_code == 200, r.text
    replay = r.json()
    assert "record" not in replay and replay["seat"] is None and replay["perspective"] is None
    assert all("action" not in step for step in replay["steps"])  # nobody's own moves
    with_record = ann.http.get(f"/api/tables/{done}/replay").json()
    same(with_record["record"], built(server, lambda s: record(done, s)))
    result = built(server, lambda s: s.get(GameTable, done).result)
    same(with_record["table"]["result"], result)
    same(with_record["view"]["result"], result)  # the view's scores as the engine gave them
