"""The games' workshops over the server (dragonlair/server/characters.py): the routes come
from the registry (a plugin's ``workshop``), and what the server does for any workshop, with a
toy one: the routes and their descriptions from the workshop, bodies bounded by its limits,
every entry normalized and the set checked before the workshop sees it, a refusal answered
with 422 and the game's code. Fist's workshop itself: tests/server/test_characters.py."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

from dragonlair.core.errors import OptionError
from dragonlair.core.plugin import Workshop
from dragonlair.games import game_ids, plugin
from dragonlair.server import characters
from tests.server.routers import client_for

JSON = dict[str, Any]
ROUTES = ("examples", "check", "import", "export", "balance")


class Note(BaseModel):
    id: str
    words: str


class NotesOut(BaseModel):
    notes: list[Note]


class NoteIn(BaseModel):
    note: JSON


class NotesIn(BaseModel):
    notes: list[JSON]
    format: str = "txt"
    games: int = 10
    players: int = 2
    seed: int | None = None


class FileIn(BaseModel):
    filename: str
    text: str


class FileOut(BaseModel):
    filename: str
    text: str


class Notes(Workshop):
    """A toy workshop: notes with an id and some words."""

    kind = "notes"
    entry = "note"
    max_entries = 3
    max_depth = 2
    max_string = 20
    examples_out = NotesOut
    check_in = NoteIn
    check_out = Note
    import_in = FileIn
    import_out = NotesOut
    export_in = NotesIn
    export_out = FileOut
    balance_in = NotesIn
    balance_out = NotesOut

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def normalize(self, data: Any) -> JSON:
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise OptionError("toy.bad_note", rule="T1")
        return {"id": data["id"], "words": str(data.get("words", ""))}

    def check_set(self, entries: list[JSON]) -> None:
        ids = [e["id"] for e in entries]
        if len(set(ids)) < len(ids):
            raise OptionError("toy.duplicate", rule="T2")

    def examples(self) -> JSON:
        """The toy's notes to start from."""
        return {"notes": [{"id": "a", "words": "hello"}]}

    def check(self, entry: JSON) -> JSON:
        """One note checked."""
        self.seen.append(entry)
        return entry

    def import_file(self, name: str, text: str) -> list[Any]:
        """The notes of a file."""
        self.seen.append(name)
        return [{"id": w} for w in text.split()]

    def export(self, entries: list[JSON], fmt: str) -> JSON:
        """Notes as a file."""
        return {"filename": f"notes.{fmt}", "text": " ".join(e["id"] for e in entries)}

    def balance(self, entries: list[JSON], games: int, players: int,
                seed: int) -> Any:
        """Notes weighed."""
        if players > 4:
            raise OptionError("toy.players", rule="T3")
        return lambda: {"notes": entries}


@pytest.fixture
def toy() -> tuple[TestClient, Notes]:
    router = APIRouter(prefix="/api")
    ws = Notes()
    characters.add_workshop(router, "toy", ws)
    return client_for(router), ws


def code(r: Any, status: int = 422) -> str:
    assert r.status_code == status, r.text
    out: str = r.json()["code"]
    return out


def test_the_routes_are_the_registrys_workshops() -> None:
    found = characters.workshops()
    assert set(found) == {g for g in game_ids() if plugin(g).workshop is not None}
    assert "fist" in found
    for game_id, ws in found.items():
        assert isinstance(ws, Workshop)
        assert plugin(game_id).characters_option is not None  # what a table plays them as
    paths = {getattr(r, "path", None) for r in characters.router.routes}
    assert paths == {f"/api/games/{g}/{ws.kind}/{name}" for g, ws in found.items()
                     for name in ROUTES}


def test_a_workshops_routes_answer_with_its_methods(toy: tuple[TestClient, Notes]) -> None:
    web, ws = toy
    base = "/api/games/toy/notes"
    assert web.get(f"{base}/examples").json() == {"notes": [{"id": "a", "words": "hello"}]}
    assert web.post(f"{base}/check", json={"note": {"id": "x"}}).json() == \
        {"id": "x", "words": ""}
    assert web.post(f"{base}/import", json={"filename": "C:\\d\\n.txt", "text": "a b"}
                    ).json() == {"notes": [{"id": "a", "words": ""}, {"id": "b", "words": ""}]}
    assert ws.seen[-1] == "n.txt"  # the file's base name only
    assert web.post(f"{base}/export", json={"notes": [{"id": "a"}, {"id": "b"}]}).json() == \
        {"filename": "notes.txt", "text": "a b"}
    assert web.post(f"{base}/balance", json={"notes": [{"id": "a"}]}).json() == \
        {"notes": [{"id": "a", "words": ""}]}
    assert not characters.BALANCE_LOCK.locked()


def test_bodies_are_bounded_and_refusals_keep_the_games_code(
        toy: tuple[TestClient, Notes]) -> None:
    web, ws = toy
    base = "/api/games/toy/notes"
    assert code(web.post(f"{base}/check", json={"note": {"id": 5}})) == "toy.bad_note"
    assert web.post(f"{base}/check", json={"note": {"id": 5}}).json()["rule"] == "T1"
    assert code(web.post(f"{base}/check", json={"note": {"id": "x" * 21}})) == \
        "server.characters.too_long"
    assert code(web.post(f"{base}/check", json={"note": {"id": "x", "w": [[1]]}})) == \
        "server.characters.too_deep"
    assert code(web.post(f"{base}/import", json={"filename": "n", "text": "a b c d"})) == \
        "server.characters.too_many"
    assert code(web.post(f"{base}/import", json={"filename": "n", "text": "a a"})) == \
        "toy.duplicate"
    assert code(web.post(f"{base}/export", json={"notes": [{"id": "a"}, {"id": "a"}]})) == \
        "toy.duplicate"
    assert code(web.post(f"{base}/balance", json={"notes": [{"id": "a"}], "players": 5})) \
        == "toy.players"
    assert ws.seen == ["n", "n"]  # a file is read; no refused note reached ``check``
    assert characters.BALANCE_LOCK.acquire(blocking=False)
    try:
        assert code(web.post(f"{base}/balance", json={"notes": [{"id": "a"}]}), 429) == \
            "server.characters.busy"
    finally:
        characters.BALANCE_LOCK.release()


def test_the_openapi_document_describes_each_route_by_the_workshop(
        toy: tuple[TestClient, Notes]) -> None:
    web, _ = toy
    app = web.app
    assert isinstance(app, FastAPI)
    paths = app.openapi()["paths"]
    check = paths["/api/games/toy/notes/check"]["post"]
    assert check["description"] == "One note checked."
    assert check["operationId"] == "check_api_games_toy_notes_check_post"
    assert check["tags"] == ["notes"]
    body = check["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/NoteIn"}
    assert paths["/api/games/toy/notes/import"]["post"]["summary"] == "Import File"
