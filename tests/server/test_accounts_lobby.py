"""Accounts and the lobby over real HTTP: guests, argon2 accounts, hashed session tokens,
tables created from the plugins' option specs, seats, start, and refusals as codes."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import httpx

from dragonlair.core.errors import OptionError
from dragonlair.games import make_game
from dragonlair.server import migrate
from dragonlair.server.accounts import COOKIE
from tests.server.helpers import Client, ServerThread, new_table, running_master


def db_rows(server: ServerThread, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(server.settings.data_dir / "dragonlair.db") as conn:
        return conn.execute(sql).fetchall()


def test_database_is_created_migrated_and_in_wal_mode(tmp_path: Path) -> None:
    """A new host's first start: no database file; the server creates and migrates it."""
    assert not (tmp_path / "dragonlair.db").exists()
    server = ServerThread(tmp_path, migrated=False).start()
    try:
        assert db_rows(server, "PRAGMA journal_mode") == [("wal",)]
        assert db_rows(server, "SELECT version_num FROM alembic_version") == [
            (migrate.head(),)]
        assert server.app.openapi()["paths"]["/api/tables"]
    finally:
        server.stop()


def test_guest_in_one_step_and_me(server: ServerThread) -> None:
    ann = Client(server, "Ann")
    assert ann.user["guest"] and ann.user["display_name"] == "Ann"
    assert ann.http.get("/api/me").json()["id"] == ann.user["id"]
    anonymous = httpx.Client(base_url=server.base)
    r = anonymous.get("/api/me")
    assert r.status_code == 401 and r.json()["code"] == "server.auth.required"


def test_an_expired_session_is_nobody_on_rest_and_on_the_websocket(
        server: ServerThread) -> None:
    """A session past its time signs nobody in: the REST API asks for a sign-in, and the
    table's WebSocket greets a spectator, not the seat's player (one statement reads the
    token, the session's time and the user: accounts._by_token)."""
    table_id, ann, _bob = running_master(server)
    assert ann.connect(table_id)["seat"] in (0, 1)
    ann.close()
    digest = hashlib.sha256(str(ann.token).encode()).hexdigest()
    with sqlite3.connect(server.settings.data_dir / "dragonlair.db") as conn:
        conn.execute("UPDATE sessions SET expires_at = 1 WHERE token_hash = ?", (digest,))
    assert ann.http.get("/api/me").status_code == 401
    assert ann.connect(table_id)["seat"] is None
    ann.close()


def test_session_cookie_is_httponly_lax_and_stored_hashed(server: ServerThread) -> None:
    http = httpx.Client(base_url=server.base)
    r = http.post("/api/auth/guest", json={})
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header
    token = http.cookies[COOKIE]
    hashes = {row[0] for row in db_rows(server, "SELECT token_hash FROM sessions")}
    assert hashlib.sha256(token.encode()).hexdigest() in hashes
    assert token not in hashes


def test_register_login_logout_with_argon2(server: ServerThread) -> None:
    http = httpx.Client(base_url=server.base)
    r = http.post("/api/auth/register", json={"username": "bob", "password": "s3cret-pass"})
    assert r.status_code == 200, r.text
    stored = db_rows(server, "SELECT password_hash FROM users WHERE username='bob'")[0][0]
    assert isinstance(stored, str) and stored.startswith("$argon2id$")
    assert "s3cret-pass" not in stored
    again = httpx.Client(base_url=server.base).post(
        "/api/auth/register", json={"username": "bob", "password": "other-pass"})
    assert again.status_code == 409 and again.json()["code"] == "server.auth.username_taken"
    assert http.post("/api/auth/logout").status_code == 200
    assert http.get("/api/me").status_code == 401
    wrong = http.post("/api/auth/login", json={"username": "bob", "password": "nope-nope"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "server.auth.bad_credentials"
    unknown = http.post("/api/auth/login", json={"username": "nobody", "password": "x"})
    assert unknown.status_code == 401
    ok = http.post("/api/auth/login", json={"username": "bob", "password": "s3cret-pass"})
    assert ok.status_code == 200 and http.get("/api/me").json()["username"] == "bob"


def test_a_refused_password_is_not_echoed(server: ServerThread) -> None:
    http = httpx.Client(base_url=server.base)
    r = http.post("/api/auth/register", json={"username": "carl", "password": "pw7Zq"})
    assert r.status_code == 422 and r.json()["code"] == "server.auth.weak_password"
    assert "pw7Zq" not in r.text
    r = http.post("/api/auth/register", json={"username": "carl", "password": "pw7Zq" * 60})
    assert r.status_code == 422 and r.json()["code"] == "server.request.invalid"
    assert "pw7Zq" not in r.text


def test_games_list_option_specs_and_bots(server: ServerThread) -> None:
    games = {g["id"]: g for g in httpx.get(f"{server.base}/api/games").json()}
    assert set(games) >= {"fist", "master", "farkle"}
    fist = games["fist"]
    players = next(o for o in fist["options"] if o["name"] == "players")
    assert players["kind"] == "int" and players["minimum"] == 3
    assert "greedy" in fist["bots"] and fist["default_bot"] in fist["bots"]


def test_games_list_is_the_registry_with_what_clients_branch_on(server: ServerThread) -> None:
    """Issue 23: clients list games and decide what a game has (rules and tips pages, a
    character workshop) from ``/api/games`` alone, read from each plugin; none names a game."""
    from dragonlair.games import game_ids, plugin

    listed = httpx.get(f"{server.base}/api/games").json()
    assert [g["id"] for g in listed] == list(game_ids())
    for g in listed:
        p = plugin(g["id"])
        assert g["rules"] is (p.rules is not None)
        assert g["tips"] is (p.tips is not None)
        assert g["characters_option"] == p.characters_option
        # each option as its spec says, and whether a file may hold it (option_uploads)
        assert g["options"] == [{**spec.to_json(), "upload": spec.name in p.option_uploads}
                                for spec in p.info.options]
        if p.characters_option is not None:
            assert p.characters_option in {o["name"] for o in g["options"]}
    assert {g["id"]: g["characters_option"] for g in listed}["fist"] == "custom"  # F9


def test_create_join_leave_start(server: ServerThread) -> None:
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    table = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])
    tid = table["id"]
    assert table["status"] == "open" and table["options"]["players"] == 2
    r = ann.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 409 and r.json()["code"] == "server.table.seats_open"
    assert r.json()["params"]["seats"] == [1]
    listed = {t["id"] for t in bob.http.get("/api/tables").json()}
    assert tid in listed
    r = bob.http.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 200 and r.json()["seats"][1]["user_id"] == bob.user["id"]
    r = bob.http.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 409 and r.json()["code"] == "server.table.already_seated"
    assert bob.http.post(f"/api/tables/{tid}/leave").status_code == 200
    assert ann.http.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"
    assert bob.http.post(f"/api/tables/{tid}/join", json={"seat": 1}).status_code == 200
    r = ann.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 200 and r.json()["status"] == "running"
    r = bob.http.post(f"/api/tables/{tid}/leave")  # mid-game: a bot takes the seat
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "bot"
    r = bob.http.post(f"/api/tables/{tid}/leave")
    assert r.status_code == 409 and r.json()["code"] == "server.table.not_seated"
    r = ann.http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 409 and r.json()["code"] == "server.table.not_finished"


def test_engine_option_errors_come_back_as_their_codes(server: ServerThread) -> None:
    ann = Client(server)
    r = ann.http.post("/api/tables", json={"game": "fist", "options": {"players": 9}})
    assert r.status_code == 422
    try:
        make_game("fist", {"players": 9})
    except OptionError as exc:
        expected = exc.to_json()
    assert r.json() == expected  # the engine's own code and params, as the engine gave them
    r = ann.http.post("/api/tables", json={"game": "master", "options": {"colour": 1}})
    assert r.status_code == 422 and r.json()["code"] == "core.option.unknown"
    r = ann.http.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 422 and r.json()["code"] == "core.game.unknown"
    r = ann.http.post("/api/tables", json={
        "game": "master", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "os:system"}]})
    assert r.status_code == 422 and r.json()["code"] == "server.table.unknown_bot"
    r = ann.http.post("/api/tables", json={"game": "master", "seats": [{"kind": "me"}] * 3})
    assert r.status_code == 422
    r = ann.http.post("/api/tables", content=b"x" * 100_000,
                      headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "server.request.too_large"
    assert httpx.post(f"{server.base}/api/tables", json={"game": "master"}).status_code == 401


def test_table_ids_never_look_like_a_command_line_option() -> None:
    from dragonlair.server.lobby_service import new_table_id

    ids = {new_table_id() for _ in range(3000)}
    assert len(ids) == 3000
    assert all(i[0].isalnum() and len(i) == 12 for i in ids)
