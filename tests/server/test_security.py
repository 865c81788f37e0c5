"""Session and request security over a real server (issue 22): Secure cookies behind a
trusted proxy only, cross-site state-changing requests refused before any route runs,
Bearer tokens on every REST route (``/replay`` included), chat lines without a visible
character or with a bidirectional control refused, and what a WebSocket frame over 64 KiB
does (docs/protocol.md, docs/server.md "Security notes")."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from dragonlair.server import Settings, create_app
from dragonlair.server.accounts import COOKIE
from dragonlair.server.app import bound_port, uvicorn_config
from dragonlair.server.chat import clean_text
from dragonlair.server.errors import ServerError
from dragonlair.server.security import cross_site
from tests.server.helpers import JSON, Client, ServerThread, new_table

FRIEND = "https://friend.example"


@pytest.fixture(scope="module")
def trusting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server behind a proxy on this machine (the default ``--forwarded-allow-ips``),
    with one more allowed origin."""
    srv = ServerThread(tmp_path_factory.mktemp("trusting"),
                       allowed_origins=(FRIEND,)).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def distrusting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server that believes only a proxy at 10.0.0.1: this machine is no proxy of it."""
    srv = ServerThread(tmp_path_factory.mktemp("distrusting"),
                       forwarded_allow_ips=("10.0.0.1",)).start()
    yield srv
    srv.stop()


def guest_cookie(server: ServerThread, **headers: str) -> httpx.Response:
    return httpx.post(f"{server.base}/api/auth/guest", json={}, headers=headers)


# ------------------------------------------------------------------ Secure cookies
def cookie_attributes(response: httpx.Response) -> set[str]:
    header = response.headers["set-cookie"]
    assert header.startswith(f"{COOKIE}=")
    return {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}


def test_cookie_is_secure_over_tls_behind_a_trusted_proxy(trusting: ServerThread) -> None:
    r = guest_cookie(trusting, **{"X-Forwarded-Proto": "https",
                                  "X-Forwarded-For": "203.0.113.9"})
    assert r.status_code == 200, r.text
    assert {"secure", "httponly", "samesite"} <= cookie_attributes(r)
    plain = guest_cookie(trusting, **{"X-Forwarded-Proto": "http"})
    assert plain.status_code == 200 and "secure" not in cookie_attributes(plain)
    login = httpx.Client(base_url=trusting.base, headers={"X-Forwarded-Proto": "https"})
    r = login.post("/api/auth/register", json={"username": "tls-ann", "password": "pw-123456"})
    assert r.status_code == 200 and "secure" in cookie_attributes(r)
    r = login.post("/api/auth/login", json={"username": "tls-ann", "password": "pw-123456"})
    assert r.status_code == 200 and "secure" in cookie_attributes(r)


def test_an_untrusted_peer_cannot_claim_tls(distrusting: ServerThread) -> None:
    r = guest_cookie(distrusting, **{"X-Forwarded-Proto": "https"})
    assert r.status_code == 200, r.text
    assert "secure" not in cookie_attributes(r)


def test_cookie_secure_setting_forces_it(tmp_path: Path) -> None:
    srv = ServerThread(tmp_path, cookie_secure=True, forwarded_allow_ips=()).start()
    try:
        assert "secure" in cookie_attributes(guest_cookie(srv))
    finally:
        srv.stop()


# ------------------------------------------------------------------ cross-site requests
EVIL = {"Origin": "https://evil.example"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def cross_refused(r: httpx.Response) -> None:
    assert r.status_code == 403, r.text
    assert r.json() == {"code": "server.request.cross_site", "params": {}, "rule": None}


def test_empty_cross_site_form_posts_to_start_resign_logout_are_refused(
        trusting: ServerThread) -> None:
    ann = Client(trusting, "Ann")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])["id"]
    # an empty form post from another site, as a hidden <form> would send it
    cross_refused(ann.http.post(f"/api/tables/{tid}/start", headers={**EVIL, **FORM},
                                content=b""))
    cross_refused(ann.http.post(f"/api/tables/{tid}/start",
                                headers={"Sec-Fetch-Site": "cross-site", **FORM}))
    assert ann.http.get(f"/api/tables/{tid}").json()["status"] == "open"  # nothing changed
    r = ann.http.post(f"/api/tables/{tid}/start",
                      headers={"Origin": trusting.base, "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200, r.text
    table = ann.http.get(f"/api/tables/{tid}").json()
    cross_refused(ann.http.post(f"/api/tables/{tid}/resign", headers={**EVIL, **FORM}))
    cross_refused(ann.http.post(f"/api/tables/{tid}/resign", headers={"Origin": "null"}))
    after = ann.http.get(f"/api/tables/{tid}").json()
    assert after["seats"] == table["seats"]  # still Ann's seat, no bot took it
    cross_refused(ann.http.post("/api/auth/logout", headers={**EVIL, **FORM}))
    cross_refused(ann.http.post("/api/auth/logout", headers={"Sec-Fetch-Site": "same-site"}))
    assert ann.http.get("/api/me").status_code == 200  # still signed in
    # no Origin, no Sec-Fetch-Site (the terminal client, curl, a remote bot): allowed
    assert ann.http.post(f"/api/tables/{tid}/resign").status_code == 200
    assert ann.http.post("/api/auth/logout").status_code == 200
    assert ann.http.get("/api/me").status_code == 401


def test_every_unsafe_method_is_checked_and_safe_ones_are_not(trusting: ServerThread) -> None:
    bob = Client(trusting, "Bob")
    cross_refused(bob.http.patch("/api/me", json={"display_name": "Mallory"}, headers=EVIL))
    cross_refused(bob.http.delete("/api/auth/tokens/1", headers=EVIL))
    cross_refused(bob.http.put("/api/me", json={}, headers=EVIL))
    cross_refused(bob.http.post("/api/tables", headers=EVIL, json={
        "game": "master", "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}))
    assert bob.http.get("/api/me").json()["display_name"] == "Bob"
    assert bob.http.get("/api/me", headers=EVIL).status_code == 200  # reading: no change
    # the server's own origin (its Host, any letter case) and the --origin list pass
    for origin in (trusting.base, trusting.base.upper().replace("HTTP", "http"), FRIEND):
        r = bob.http.patch("/api/me", json={"display_name": "Bobby"}, headers={"Origin": origin})
        assert r.status_code == 200, (origin, r.text)
    r = bob.http.patch("/api/me", json={"display_name": "Bob"},
                       headers={"Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200
    r = bob.http.patch("/api/me", json={"display_name": "Bob"}, headers={"Sec-Fetch-Site": "none"})
    assert r.status_code == 200  # typed into the address bar / a bookmark


def test_websocket_upgrade_and_rest_agree_on_the_origin(trusting: ServerThread) -> None:
    """One check for both (security.origin_allowed): an origin a state-changing request may
    come from may open a table's WebSocket, and one refused there is refused here. The server
    is reached as ``localhost`` so that the letter case of its own origin counts."""
    cara = Client(trusting, "Cara")
    tid = new_table(cara, "master", [{"kind": "me"}, {"kind": "bot", "bot": "random"}])["id"]
    host = f"localhost:{trusting.port}"

    def upgrade(origin: str | None) -> int:
        """The upgrade's answer: 101 (open), or the status it was refused with."""
        headers = {} if origin is None else {"Origin": origin}
        try:
            with connect(f"ws://{host}/ws/tables/{tid}", additional_headers=headers,
                         open_timeout=10):
                return 101
        except InvalidStatus as e:
            return e.response.status_code

    def rest(origin: str) -> httpx.Response:
        return cara.http.patch("/api/me", json={"display_name": "Cara"},
                               headers={"Host": host, "Origin": origin})

    for origin in (f"http://{host}", f"HTTP://LocalHost:{trusting.port}", FRIEND):
        assert upgrade(origin) == 101, origin
        assert rest(origin).status_code == 200, origin
    for origin in ("https://evil.example", "null", f"ftp://{host}", f"http://{host}0",
                   f"https://{host}.evil.example"):
        assert upgrade(origin) == 403, origin
        cross_refused(rest(origin))
    assert upgrade(None) == 101  # no Origin: no browser (a remote bot), let in


@pytest.mark.parametrize(("method", "headers", "refused"), [
    ("POST", {"origin": "https://evil.example", "host": "games.example"}, True),
    ("POST", {"origin": "https://games.example", "host": "games.example"}, False),
    ("POST", {"origin": "http://games.example:8080", "host": "games.example"}, True),
    ("POST", {"origin": "ftp://games.example", "host": "games.example"}, True),
    ("POST", {"origin": "null", "host": "games.example"}, True),
    ("DELETE", {"origin": FRIEND, "host": "games.example"}, False),
    ("GET", {"origin": "https://evil.example", "host": "games.example"}, False),
    ("OPTIONS", {"origin": "https://evil.example", "host": "games.example"}, False),
    ("PUT", {"sec-fetch-site": "cross-site"}, True),
    ("PATCH", {"sec-fetch-site": "same-site"}, True),
    ("POST", {"sec-fetch-site": "same-origin"}, False),
    ("POST", {}, False),
])
def test_cross_site_decision(method: str, headers: dict[str, str], refused: bool) -> None:
    assert cross_site(method, headers, (FRIEND,)) is refused


# ------------------------------------------------------------------ Bearer tokens
def finished(http: httpx.Client, tid: str, timeout: float = 60) -> JSON:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table: JSON = http.get(f"/api/tables/{tid}").json()
        if table["status"] == "finished":
            return table
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not finish")


def test_bearer_tokens_on_every_route_and_replay(trusting: ServerThread) -> None:
    signup = httpx.Client(base_url=trusting.base)
    r = signup.post("/api/auth/register", json={"username": "dora", "password": "pw-123456"})
    assert r.status_code == 200, r.text
    session_token = signup.cookies[COOKIE]
    api = signup.post("/api/auth/tokens", json={"name": "replays"}).json()["token"]
    for token in (api, session_token):  # a personal API token, and a session token
        bearer = httpx.Client(base_url=trusting.base,
                              headers={"Authorization": f"Bearer {token}"})
        assert bearer.get("/api/me").json()["username"] == "dora"
        tid = bearer.post("/api/tables", json={
            "game": "master", "options": {}, "takeover_bot": "random",  # plays the resigned
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}).json()["id"]
        assert bearer.post(f"/api/tables/{tid}/start").status_code == 200
        assert bearer.post(f"/api/tables/{tid}/resign").status_code == 200
        finished(bearer, tid)
        mine = bearer.get(f"/api/tables/{tid}/replay", params={"record": "false"})
        assert mine.status_code == 200, mine.text
        assert mine.json()["seat"] == 0 and mine.json()["perspective"] == 0
        anonymous = httpx.get(f"{trusting.base}/api/tables/{tid}/replay",
                              params={"record": "false"})
        assert anonymous.json()["seat"] is None and anonymous.json()["perspective"] is None
    # a bearer session token logs out like its cookie would; the API token stays
    out = httpx.post(f"{trusting.base}/api/auth/logout",
                     headers={"Authorization": f"Bearer {session_token}"})
    assert out.status_code == 200
    assert httpx.get(f"{trusting.base}/api/me",
                     headers={"Authorization": f"Bearer {session_token}"}).status_code == 401
    assert httpx.get(f"{trusting.base}/api/me",
                     headers={"Authorization": f"Bearer {api}"}).status_code == 200


# ------------------------------------------------------------------ chat
@pytest.mark.parametrize("text", [
    "\u200b", "\u200b\u200c\u200d\u2060", " \ufeff ", "\u3164", "\u115f\u1160", "\u2800",
    "\u034f\ufe0f", "\u00ad", "\u2061\u2062", "\U000e0041\U000e0020",
])
def test_chat_line_without_a_visible_character_is_refused(text: str) -> None:
    with pytest.raises(ServerError) as caught:
        clean_text(text, 500)
    assert caught.value.code == "server.chat.invisible" and caught.value.status == 422


@pytest.mark.parametrize("char", [
    "\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
    "\u2066", "\u2067", "\u2068", "\u2069",
])
def test_every_bidi_control_is_refused(char: str) -> None:
    with pytest.raises(ServerError) as caught:
        clean_text(f"gg {char}wp", 500)
    assert caught.value.code == "server.chat.bad_character"
    assert caught.value.params == {"char": f"U+{ord(char):04X}"}


@pytest.mark.parametrize("text", [
    "gg", "שלום", "مرحبا", "👍🏽", "👨\u200d👩\u200d👧", "a\u200bb", "\u2764\ufe0f", "ok\u00a0!",
])
def test_visible_lines_pass_unchanged(text: str) -> None:
    assert clean_text(f"  {text} ", 500) == text


def test_invisible_chat_line_refused_over_the_socket(trusting: ServerThread) -> None:
    ann = Client(trusting, "Ann")
    tid = new_table(ann, "master", [{"kind": "me"}, {"kind": "open"}])["id"]
    ann.connect(tid)
    for text, code in (("\u200b\u200d", "server.chat.invisible"),
                       ("left\u200fright", "server.chat.bad_character")):
        err = ann.request({"type": "chat", "text": text})
        assert err["type"] == "error" and err["code"] == code, err
    ok = ann.request({"type": "chat", "text": "hello"})
    assert ok["type"] == "chat" and ok["message"]["text"] == "hello"
    ann.close()


# ------------------------------------------------------------------ frames over 64 KiB
def test_frame_over_64_kib_closes_the_socket_with_1009(tmp_path: Path) -> None:
    """What ``dragonlair serve`` does (its uvicorn configuration): a text frame over the
    message limit (8192 characters) but under 64 KiB is answered ``server.msg.too_large``
    and the socket stays; one over 64 KiB is refused by uvicorn itself, which closes the
    socket with 1009 (message too big) before the application reads it."""
    settings = Settings(data_dir=tmp_path, bot_workers=1)
    app = create_app(settings)
    server = uvicorn.Server(uvicorn_config(app, settings, "127.0.0.1", 0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.02)
        port = bound_port(server)
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}")
        http.post("/api/auth/guest", json={})
        tid = http.post("/api/tables", json={"game": "master", "options": {}, "seats": [
            {"kind": "me"}, {"kind": "open"}]}).json()["id"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", max_size=1 << 22,
                     additional_headers={"Cookie": f"{COOKIE}={http.cookies[COOKIE]}"}) as ws:
            ws.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
            answer = json.loads(ws.recv(timeout=10))
            assert answer["code"] == "server.msg.too_large", answer
            ws.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        server.should_exit = True
        thread.join(20)


# ------------------------------------------------------------------ dragonlair serve
@pytest.mark.parametrize(("args", "env", "expected"), [
    ([], {}, ("127.0.0.1", "::1")),
    (["--forwarded-allow-ips", "10.0.0.1, 10.1.0.0/16"], {}, ("10.0.0.1", "10.1.0.0/16")),
    ([], {"FORWARDED_ALLOW_IPS": "*"}, ("*",)),
])
def test_serve_takes_forwarded_allow_ips(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                         args: list[str], env: dict[str, str],
                                         expected: tuple[str, ...]) -> None:
    from typer.testing import CliRunner

    from dragonlair.cli.main import app
    from dragonlair.server import app as server_app

    seen: list[Settings] = []
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    monkeypatch.setattr(server_app, "serve",
                        lambda settings, *_a, **_k: seen.append(settings))
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), *args], env=env)
    assert result.exit_code == 0, result.output
    assert seen[0].forwarded_allow_ips == expected
