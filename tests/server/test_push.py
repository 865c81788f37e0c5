"""Web Push for turn-based tables (issue 22; docs/server.md, "Turn alerts and Web Push").

A local HTTP receiver on 127.0.0.1 plays the push service: it checks the VAPID
``Authorization`` (RFC 8292: a JWT signed by the server's key, ``aud`` the receiver's
origin), decrypts the body (RFC 8291, ``aes128gcm``, with ``http_ece`` and the subscriber's
P-256 key pair and auth secret made here with ``cryptography``), and answers what the test
tells it (201, or 410 for a subscription that is gone). The payload must name the table, the
game and the deadline, in the subscriber's language, and nothing else: the game is Dragon
Farkle with planted items (rule D8.5 deck data) whose ids must never appear in it (items
are hidden, D9).
"""

from __future__ import annotations

import base64
import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import select
from typer.testing import CliRunner

from dragonlair.cli.main import app as cli_app
from dragonlair.server import Settings, create_app
from dragonlair.server.db import PushSubscription
from dragonlair.server.errors import ServerError
from dragonlair.server.push import load_key, public_key_text, write_key
from dragonlair.server.settings import Limits
from tests.server.helpers import Client, ServerThread, serving
from tests.server.test_leak import PLANTED_ITEMS  # hidden in each player's hand (D9)

JSON = dict[str, Any]

SUBJECT = "mailto:ops@example.org"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ------------------------------------------------------------------ the receiver
@dataclass
class Push:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A push service on 127.0.0.1: keeps each POST; answers ``status[path]`` (201)."""

    server: ThreadingHTTPServer
    got: list[Push] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)
    cond: threading.Condition = field(default_factory=threading.Condition)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def wait(self, count: int, timeout: float = 20) -> list[Push]:
        with self.cond:
            if not self.cond.wait_for(lambda: len(self.got) >= count, timeout):
                raise AssertionError(f"{len(self.got)} push(es), expected {count}")
            return list(self.got)


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    holder: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            rec = holder[0]
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with rec.cond:
                rec.got.append(Push(self.path, {k.lower(): v for k, v in self.headers.items()},
                                    body))
                code = rec.status.get(self.path, 201)
                rec.cond.notify_all()
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder.append(Receiver(httpd))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield holder[0]
    httpd.shutdown()


@pytest.fixture(scope="module")
def key_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vapid") / "vapid.pem"
    result = CliRunner().invoke(cli_app, ["push", "keygen", "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, key_file: Path,
           receiver: Receiver) -> Iterator[ServerThread]:
    """A server with push on (SQLite, or PostgreSQL as the ``server`` fixture of
    conftest.py chooses with ``DRAGONLAIR_TEST_SERVER_DB``)."""
    yield from serving(tmp_path_factory, vapid_key=key_file, vapid_subject=SUBJECT,
                       push_test_origins=(receiver.origin,),
                       limits=Limits(max_push_subscriptions=3))


# ------------------------------------------------------------------ subscribers
@dataclass
class Browser:
    """A browser's push subscription: its endpoint on the receiver and its keys."""

    endpoint: str
    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def json(self, lang: str = "en") -> JSON:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point),
                                                    "auth": b64url(self.auth)},
                "lang": lang}

    def decrypt(self, push: Push) -> JSON:
        assert push.headers.get("content-encoding") == "aes128gcm"
        plain = http_ece.decrypt(push.body, private_key=self.private, auth_secret=self.auth,
                                 version="aes128gcm")
        out: JSON = json.loads(plain)
        return out


def subscribe(client: Client, browser: Browser, lang: str = "en") -> int:
    r = client.http.post("/api/push/subscriptions", json=browser.json(lang))
    assert r.status_code == 201, r.text
    sid: int = r.json()["id"]
    return sid


def subscriptions(server: ServerThread) -> list[PushSubscription]:
    with server.app.state.sessions() as s:
        return list(s.scalars(select(PushSubscription).order_by(PushSubscription.id)))


def check_vapid(push: Push, server_key: str, audience: str) -> JSON:
    """The RFC 8292 ``Authorization: vapid t=JWT,k=KEY``: the key is the server's, the JWT
    is ES256-signed by it, for ``audience``, not expired. Its claims."""
    scheme, _, rest = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.split("=", 1) for p in rest.split(","))
    assert parts["k"] == server_key
    head, claims, sig = parts["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(sig)
    assert len(raw) == 64
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    try:
        public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                           int.from_bytes(raw[32:], "big")),
                      f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as exc:  # pragma: no cover - the failure itself
        raise AssertionError("the VAPID JWT is not signed by the server's key") from exc
    body: JSON = json.loads(unb64url(claims))
    assert body["aud"] == audience
    assert body["sub"] == SUBJECT
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    return body


# ------------------------------------------------------------------ the round trip
def test_turn_alert_round_trip_names_the_table_and_nothing_secret(
        server: ServerThread, receiver: Receiver) -> None:
    """A turn-based Farkle table: whoever is to move and has no socket open to the table
    gets a push (decrypted here) naming the table, the game and the deadline, in their
    language, and nothing of the game (no planted item id, D9); a 410 deletes the
    subscription; a person with the table open gets none."""
    server_key = server.app.state.pusher.public_key
    r = httpx_get_key(server)
    assert server.settings.vapid_key is not None
    assert r == server_key == public_key_text(load_key(server.settings.vapid_key))

    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    browsers = {ann.user["id"]: Browser(f"{receiver.origin}/push/ann"),
                bob.user["id"]: Browser(f"{receiver.origin}/push/bob")}
    langs = {ann.user["id"]: "de", bob.user["id"]: "en"}
    for c in (ann, bob):
        subscribe(c, browsers[c.user["id"]], langs[c.user["id"]])
    before = len(receiver.got)

    body = {"game": "farkle", "options": {"decks": {"items": PLANTED_ITEMS}},
            "seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"kind": "turn", "hours": 3}}
    r2 = ann.http.post("/api/tables", json=body)
    assert r2.status_code == 201, r2.text
    tid = r2.json()["id"]
    assert bob.http.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/tables/{tid}/start").status_code == 200

    # the first person to move (after the deal) gets one push
    got = receiver.wait(before + 1)
    assert server.app.state.pusher.idle(20)
    runtime = server.runtime(tid)
    state = runtime.state
    seat = state.current_seats()[0]
    mover = runtime.seats[seat].user_id
    assert mover is not None
    other = next(u for u in browsers if u != mover)
    push = got[before]
    assert push.path == f"/push/{'ann' if mover == ann.user['id'] else 'bob'}"
    check_vapid(push, server_key, receiver.origin)
    assert int(push.headers["ttl"]) > 0
    assert push.headers.get("topic") == tid
    payload = browsers[mover].decrypt(push)
    deadline = runtime.clocks[seat].deadline()
    assert deadline is not None
    if langs[mover] == "de":
        words = {"title": "Du bist am Zug: Dragon Farkle",
                 "body": f"Tisch {tid}: noch 3 Stunden für deinen Zug"}
    else:
        words = {"title": "Your turn: Dragon Farkle",
                 "body": f"Table {tid}: 3 hours left for your move"}
    # exactly this, so nothing else rides along
    assert payload == {"type": "turn", "table": tid, "game": "farkle", "deadline": deadline,
                       "url": f"/tables/{tid}", "lang": langs[mover], **words}
    # the planted secrets are in the players' hands (D9), never in a push
    hands = json.dumps([state.view(s) for s in range(2)])
    assert "zq-secret" in hands
    assert b"zq-secret" not in http_ece.decrypt(
        push.body, private_key=browsers[mover].private, auth_secret=browsers[mover].auth,
        version="aes128gcm")
    assert len(receiver.got) == before + 1  # the other player is not to move: no push

    # the other's push service says the subscription is gone: it is deleted
    other_name = "ann" if other == ann.user["id"] else "bob"
    receiver.status[f"/push/{other_name}"] = 410
    movers_client = ann if mover == ann.user["id"] else bob
    others_client = bob if movers_client is ann else ann
    assert movers_client.http.post(f"/api/tables/{tid}/resign").status_code == 200
    got = receiver.wait(before + 2)
    assert server.app.state.pusher.idle(20)
    assert got[before + 1].path == f"/push/{other_name}"
    gone = browsers[other].decrypt(got[before + 1])
    assert gone["table"] == tid and gone["lang"] == langs[other]
    assert [row.user_id for row in subscriptions(server)].count(other) == 0
    assert [row.user_id for row in subscriptions(server)].count(mover) == 1

    # with the table open, no push: the page says "your turn" itself
    fresh = Browser(f"{receiver.origin}/push/{other_name}-2")
    subscribe(others_client, fresh)
    others_client.connect(tid)
    count = len(receiver.got)
    turns = 0
    for _ in range(3):  # their turn, the bot's, and their turn begins again: no push
        play_own_turn(server, tid, others_client)
        wait_turn_or_end(server, tid, others_client)
        if runtime.state.is_terminal():
            break
        turns += 1
    assert turns >= 1
    assert server.app.state.pusher.idle(20)
    assert len(receiver.got) == count
    others_client.close()


def httpx_get_key(server: ServerThread) -> str:
    c = Client(server, guest=False)
    r = c.http.get("/api/push/key")
    assert r.status_code == 200, r.text
    key: str = r.json()["key"]
    return key


def play_own_turn(server: ServerThread, tid: str, client: Client) -> None:
    """Act (over the socket) until it is no longer the client's move: bank when possible."""
    runtime = server.runtime(tid)
    for _ in range(200):
        while runtime.state.is_chance():  # the dice of a roll: drawn at once after it
            client.recv(0.05)
        state = runtime.state
        if state.is_terminal() or client.seat not in state.current_seats():
            return
        legal = [str(a) for a in state.legal_actions(client.seat)]
        choice = next((a for a in ("bank", "recruit", "roll") if a in legal), legal[0])
        client.catch_up(len(state.history))
        answer = client.act(choice)
        assert answer["type"] == "ack", answer


def wait_turn_or_end(server: ServerThread, tid: str, client: Client) -> None:
    """Wait (on the client's messages) until the client is to move again or the game ends."""
    runtime = server.runtime(tid)

    def ready(m: JSON) -> bool:
        state = runtime.state
        return m.get("type") == "update" and (
            state.is_terminal() or (not state.is_chance()
                                    and client.seat in state.current_seats()))

    client.wait(ready, 30)


# ------------------------------------------------------------------ the routes
def test_subscriptions_are_checked_hard_and_bounded(server: ServerThread,
                                                    receiver: Receiver) -> None:
    """Only https push services (or the configured test origin), real P-256 keys, a 16-byte
    auth secret, a known language, a signed-in user, at most the limit; a refusal changes
    nothing; one's own subscription can be deleted, nobody else's."""
    carl, dora = Client(server, "Carl"), Client(server, "Dora")
    good = Browser(f"{receiver.origin}/push/carl")
    rows_before = len(subscriptions(server))

    def refused(client: Client, body: JSON, status: int, code: str) -> None:
        r = client.http.post("/api/push/subscriptions", json=body)
        assert r.status_code == status, r.text
        assert r.json()["code"] == code

    for endpoint in ("http://push.example.org/x", "https://10.0.0.1/x", "https://localhost/x",
                     "https://[::1]/x", "https://push.example.org:8443/x",
                     "https://user:pw@push.example.org/x", "ftp://push.example.org/x",
                     "https://intranet/x",
                     f"{receiver.origin.replace('127.0.0.1', 'localhost')}/x"):
        refused(carl, {**good.json(), "endpoint": endpoint}, 422, "server.push.bad_endpoint")
    off_curve = {**good.json(), "keys": {"p256dh": b64url(b"\x04" + b"\x01" * 64),
                                         "auth": b64url(good.auth)}}
    refused(carl, off_curve, 422, "server.push.bad_key")
    short_auth = {**good.json(), "keys": {**good.json()["keys"], "auth": b64url(b"x" * 15)}}
    refused(carl, short_auth, 422, "server.push.bad_key")
    refused(carl, good.json("fr"), 422, "server.push.bad_lang")
    refused(carl, {**good.json(), "keys": {"p256dh": "!" * 87, "auth": b64url(good.auth)}},
            422, "server.request.invalid")
    anonymous = Client(server, guest=False)
    refused(anonymous, good.json(), 401, "server.auth.required")
    assert len(subscriptions(server)) == rows_before

    # a real https push service is fine (stored, never posted to here)
    sid = subscribe(carl, Browser("https://fcm.googleapis.com/fcm/send/abc123"))
    subscribe(carl, good)
    again = subscribe(carl, good, "de")  # the same endpoint: replaced, not added
    rows = [r for r in subscriptions(server) if r.user_id == carl.user["id"]]
    assert len(rows) == 2 and next(r for r in rows if r.id == again).lang == "de"
    subscribe(carl, Browser(f"{receiver.origin}/push/carl-3"))
    refused(carl, Browser(f"{receiver.origin}/push/carl-4").json(), 409,
            "server.push.too_many")
    assert len([r for r in subscriptions(server) if r.user_id == carl.user["id"]]) == 3

    r = dora.http.delete(f"/api/push/subscriptions/{sid}")
    assert r.status_code == 404 and r.json()["code"] == "server.push.not_found"
    assert carl.http.delete(f"/api/push/subscriptions/{sid}").status_code == 200
    assert sid not in {r.id for r in subscriptions(server)}


def test_no_key_no_push(tmp_path: Path) -> None:
    """Without a VAPID key the server says so (``server.push.off``) and stores nothing."""
    srv = ServerThread(tmp_path).start()
    try:
        c = Client(srv, "Eve")
        r = c.http.get("/api/push/key")
        assert r.status_code == 404 and r.json()["code"] == "server.push.off"
        r = c.http.post("/api/push/subscriptions",
                        json=Browser("https://fcm.googleapis.com/fcm/send/x").json())
        assert r.status_code == 404 and r.json()["code"] == "server.push.off"
        assert subscriptions(srv) == []
    finally:
        srv.stop()


# ------------------------------------------------------------------ keys and the CLI
def test_keygen_writes_a_usable_private_key(key_file: Path, tmp_path: Path) -> None:
    """``dragonlair push keygen --out FILE``: a P-256 PEM key only its owner may read; the
    public key printed is the key's; an existing file is never overwritten."""
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = load_key(key_file)
    path = tmp_path / "k.pem"
    result = CliRunner().invoke(cli_app, ["push", "keygen", "--out", str(path)])
    assert result.exit_code == 0
    assert public_key_text(load_key(path)) in result.stdout.split()
    assert len(unb64url(public_key_text(key))) == 65
    again = CliRunner().invoke(cli_app, ["push", "keygen", "--out", str(path)])
    assert again.exit_code == 2 and "exists already" in again.output


@pytest.mark.parametrize("content,code", [
    (b"not a key\n", "server.push.key_invalid"),
    (None, "server.push.key_unreadable"),
    ("ed25519", "server.push.key_curve"),
])
def test_a_bad_key_is_a_clear_error_at_serve(tmp_path: Path, content: Any, code: str) -> None:
    """A VAPID key that is no PEM, missing, or not P-256: ``serve`` says so in one line
    (exit 2, no traceback); ``create_app`` refuses with the code."""
    path = tmp_path / "bad.pem"
    if content == "ed25519":
        from cryptography.hazmat.primitives.asymmetric import ed25519

        path.write_bytes(ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
    elif content is not None:
        path.write_bytes(content)
    result = CliRunner().invoke(cli_app, ["serve", "--vapid-key", str(path),
                                          "--data", str(tmp_path / "data")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and str(path) in result.output
    assert result.output.startswith("error:")
    with pytest.raises(ServerError) as err:
        create_app(Settings(data_dir=tmp_path / "data", vapid_key=path))
    assert err.value.code == code


def test_a_bad_subject_is_refused_at_serve(key_file: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--vapid-key", str(key_file),
                                          "--vapid-subject", "me at home",
                                          "--data", str(tmp_path)])
    assert result.exit_code == 2 and "mailto:" in result.output


def test_write_key_never_overwrites(tmp_path: Path) -> None:
    from dragonlair.server.push import new_key

    path = tmp_path / "x.pem"
    write_key(path, new_key())
    with pytest.raises(FileExistsError):
        write_key(path, new_key())
