"""Web Push for turn-based tables (issue 22; docs/server.md, "Turn alerts and Web Push").

A server started with a VAPID key (``dragonlair serve --vapid-key FILE``; the key made by
``dragonlair push keygen``) tells a person by Web Push (RFC 8030, encrypted as RFC 8291
``aes128gcm``, signed as RFC 8292 VAPID) that it is their move at a table with a turn-based
clock, when they have no socket open to that table here. The browser subscribes with the
server's public key (``GET /api/push/key``) and hands its subscription over
(``POST /api/push/subscriptions``); the service worker (web/public/sw.js) shows the
notification and opens the table when it is clicked.

Sending never blocks the event loop or the move pipeline: :meth:`Pusher.turns_begin` is
called by :mod:`dragonlair.server.table` right after the transaction that started a seat's
clock, picks the people to tell and hands the work to a thread of its own, which reads the
subscriptions, encrypts and posts. A push service answering 404 or 410 (the subscription is
gone) gets the subscription deleted. The payload names the table, the game and the deadline,
and carries a title and a line written in the subscription's language: never a view, a
hand, an event, or anything else of the game.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import logging
import os
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker
from starlette.requests import Request

from dragonlair.core.i18n import languages, render
from dragonlair.server.accounts import DB, CurrentUser
from dragonlair.server.db import PushSubscription, now
from dragonlair.server.errors import ServerError
from dragonlair.server.responses import OkOut
from dragonlair.server.settings import Settings

if TYPE_CHECKING:
    from dragonlair.server.clocks import SeatClock
    from dragonlair.server.table.runtime import TableRuntime

log = logging.getLogger("dragonlair.server.push")

router = APIRouter(prefix="/api/push", tags=["push"])

#: the longest endpoint URL accepted (push services' are 150-500 characters)
MAX_ENDPOINT_CHARS = 1024
#: how long a push service keeps an undelivered alert (seconds; its deadline, at most this)
MAX_TTL_S = 7 * 24 * 3600
#: seconds to wait for a push service's answer
SEND_TIMEOUT_S = 10.0


# ------------------------------------------------------------------------- keys
def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """Base64url (padded or not; ``+/`` read too, as some browsers once wrote them)."""
    text = text.strip().replace("+", "-").replace("/", "_").rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_text(key: ec.EllipticCurvePrivateKey) -> str:
    """The public key in the application-server-key form the browser's
    ``pushManager.subscribe`` takes: the uncompressed P-256 point, base64url, no padding."""
    return b64url(key.public_key().public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint))


def new_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """Write ``key`` as a PEM file readable by its owner only (refusing to overwrite)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key_pem(key))


def load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    """The VAPID private key of ``path`` (PEM, P-256). Refusals: ``server.push.key_unreadable``
    (no such file, no permission), ``server.push.key_invalid`` (not a PEM private key),
    ``server.push.key_curve`` (a key, but not P-256)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ServerError("server.push.key_unreadable", 500, file=str(path),
                          why=exc.strerror or type(exc).__name__) from exc
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:  # not PEM, encrypted, or damaged
        raise ServerError("server.push.key_invalid", 500, file=str(path)) from exc
    if not isinstance(key, ec.EllipticCurvePrivateKey) or \
            not isinstance(key.curve, ec.SECP256R1):
        raise ServerError("server.push.key_curve", 500, file=str(path))
    return key


def default_subject() -> str:
    """The VAPID ``sub`` when none is configured: ``mailto:`` an address at this machine's
    name (set ``--vapid-subject`` to one that reaches you: push services write to it)."""
    host = socket.getfqdn() or "localhost"
    return f"mailto:dragonlair@{host}"


def check_subject(subject: str) -> str:
    if not subject.startswith(("mailto:", "https://")) or len(subject) > 200 \
            or any(c.isspace() for c in subject):
        raise ServerError("server.push.bad_subject", 500, subject=subject[:200])
    return subject


# -------------------------------------------------------------------- endpoints
def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def endpoint_allowed(url: str, settings: Settings) -> bool:
    """Whether the server may post to ``url``: an ``https://`` URL of a named host on the
    default port (no address literal, no ``localhost``, no user info), or one whose origin
    ``settings.push_test_origins`` names. Push services are public web servers; this keeps
    a client from aiming the server's posts at its own network."""
    if len(url) > MAX_ENDPOINT_CHARS or any(ord(c) < 33 or ord(c) > 126 for c in url):
        return False
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    if origin_of(url) in {o.lower().rstrip("/") for o in settings.push_test_origins}:
        return True
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme != "https" or not host or parts.username is not None \
            or parts.password is not None or port not in (None, 443) or parts.fragment:
        return False
    if host == "localhost" or host.endswith(".localhost") or "." not in host:
        return False
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True
    return False  # an address literal


def endpoint_hash(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------- routes
class KeysIn(BaseModel):
    """The browser's keys of a subscription (``PushSubscription.toJSON().keys``)."""

    #: its P-256 public key (65 bytes uncompressed), base64url
    p256dh: str = Field(min_length=80, max_length=100, pattern=r"^[A-Za-z0-9_\-+/]+=*$")
    #: its authentication secret (16 bytes), base64url
    auth: str = Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_\-+/]+=*$")


class SubscriptionIn(BaseModel):
    """A browser's push subscription, and the language of the alerts it wants."""

    endpoint: str = Field(min_length=10, max_length=MAX_ENDPOINT_CHARS)
    keys: KeysIn
    lang: str = Field(default="en", min_length=2, max_length=16, pattern=r"^[a-z]{2,3}$")


class KeyOut(BaseModel):
    #: the VAPID public key as ``pushManager.subscribe({applicationServerKey})`` takes it
    key: str


class SubscriptionOut(BaseModel):
    id: int


def pusher_of(request: Request) -> Pusher:
    pusher: Pusher | None = getattr(request.app.state, "pusher", None)
    if pusher is None:
        raise ServerError("server.push.off", 404)
    return pusher


@router.get("/key")
def push_key(request: Request) -> KeyOut:
    """The server's VAPID public key; ``404 server.push.off`` when push is not configured."""
    return KeyOut(key=pusher_of(request).public_key)


@router.post("/subscriptions", status_code=201)
def subscribe(body: SubscriptionIn, request: Request, user: CurrentUser,
              s: DB) -> SubscriptionOut:
    """Keep a browser's push subscription for the signed-in user (turn alerts of
    turn-based tables). The same endpoint again replaces its keys and language (and moves it
    to this user: the browser is theirs now). Refusals: ``server.push.off``,
    ``server.push.bad_endpoint``, ``server.push.bad_key``, ``server.push.bad_lang``,
    ``server.push.too_many``."""
    pusher = pusher_of(request)
    settings: Settings = request.app.state.settings
    if not endpoint_allowed(body.endpoint, settings):
        raise ServerError("server.push.bad_endpoint", 422)
    try:
        raw = unb64url(body.keys.p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        if len(raw) != 65:
            raise ValueError("not an uncompressed point")
    except ValueError as exc:
        raise ServerError("server.push.bad_key", 422, field="p256dh") from exc
    try:
        secret = unb64url(body.keys.auth)
    except ValueError as exc:
        raise ServerError("server.push.bad_key", 422, field="auth") from exc
    if len(secret) != 16:
        raise ServerError("server.push.bad_key", 422, field="auth")
    if body.lang not in languages():
        raise ServerError("server.push.bad_lang", 422, lang=body.lang,
                          langs=list(languages()))
    digest = endpoint_hash(body.endpoint)
    row = s.scalar(select(PushSubscription).where(PushSubscription.endpoint_hash == digest))
    if row is None or row.user_id != user.id:
        held = s.scalar(select(func.count()).select_from(PushSubscription)
                        .where(PushSubscription.user_id == user.id)) or 0
        limit = settings.limits.max_push_subscriptions
        if held >= limit:
            raise ServerError("server.push.too_many", 409, limit=limit)
    fields = {"user_id": user.id, "p256dh": b64url(raw), "auth": b64url(secret),
              "lang": body.lang}
    if row is None:
        row = PushSubscription(endpoint_hash=digest, endpoint=body.endpoint, created_at=now(),
                               **fields)
        s.add(row)
        try:
            s.commit()
        except IntegrityError:  # the same browser's other request was first: update its row
            s.rollback()
            row = s.scalar(select(PushSubscription)
                           .where(PushSubscription.endpoint_hash == digest))
            if row is None:
                raise
    if row.id is None or any(getattr(row, k) != v for k, v in fields.items()):
        for k, v in fields.items():
            setattr(row, k, v)
        s.commit()
    log.info("push: user %d subscribed (%s)", user.id, pusher.describe(body.endpoint))
    return SubscriptionOut(id=row.id)


@router.delete("/subscriptions/{subscription_id}", response_model=OkOut)
def unsubscribe(subscription_id: Annotated[int, PathParam(ge=1, le=2**62)],
                user: CurrentUser, s: DB) -> dict[str, Any]:
    """Forget one of the user's push subscriptions (``server.push.not_found`` if it is not
    theirs or gone). Works with push switched off too."""
    done = s.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id,
                                                    PushSubscription.user_id == user.id))
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.push.not_found", 404, id=subscription_id)
    s.commit()
    return {"ok": True}


# ---------------------------------------------------------------------- sending
@dataclass(frozen=True, slots=True)
class Turn:
    """A person's turn began: at ``table`` (``game``), by ``deadline`` (epoch seconds)."""

    table: str
    game: str
    user_id: int
    deadline: float | None
    at: float


def payload(turn: Turn, lang: str) -> dict[str, Any]:
    """What the push carries: the table, the game, the deadline, where to go, and the words
    to show (in ``lang``). Nothing else of the game."""
    game = render(f"web.game.{turn.game}", None, lang)
    left = max(0.0, (turn.deadline - turn.at)) if turn.deadline is not None else None
    if left is None:
        body = render("server.push.turn_body", {"table": turn.table}, lang)
    elif left >= 2 * 3600:
        body = render("server.push.turn_body_hours", {"table": turn.table,
                                                      "n": int(left // 3600)}, lang)
    else:
        body = render("server.push.turn_body_minutes", {"table": turn.table,
                                                        "n": max(1, int(left // 60))}, lang)
    return {"type": "turn", "table": turn.table, "game": turn.game,
            "deadline": turn.deadline, "url": f"/tables/{turn.table}",
            "title": render("server.push.turn_title", {"game": game}, lang),
            "body": body, "lang": lang}


class Pusher:
    """The server's Web Push sender (one per process): its VAPID key and subject, the
    subscriptions' database, a small thread pool for the posts."""

    def __init__(self, settings: Settings, sessions: sessionmaker[OrmSession],
                 key: ec.EllipticCurvePrivateKey) -> None:
        from py_vapid import Vapid02

        self.settings = settings
        self.sessions = sessions
        self.vapid = Vapid02(key)
        self.public_key = public_key_text(key)
        self.subject = check_subject(settings.vapid_subject or default_subject())
        self.executor = ThreadPoolExecutor(2, thread_name_prefix="dragonlair-push")
        self.closed = False
        self.lock = threading.Lock()
        #: alerts handed to the threads and not yet done (tests wait for 0: :meth:`idle`)
        self.pending = 0
        self.done = threading.Condition(self.lock)

    @staticmethod
    def describe(endpoint: str) -> str:
        """An endpoint for the log: its host only (the path is the subscription's secret)."""
        return urlsplit(endpoint).hostname or "?"

    # -- called on the event loop, by the table (table/pipeline.py, table/timekeeper.py)
    def turns_begin(self, runtime: TableRuntime, changes: dict[int, SeatClock]) -> None:
        """(On the event loop, after the commit of ``changes``, before the runtime's clocks
        take them.) Every seat of a turn-based table whose clock starts now is a person's
        turn: tell each such person who has no socket open to the table in this process."""
        if runtime.spec.kind != "turn" or self.closed:
            return
        try:
            for seat, clock in changes.items():
                before = runtime.clocks.get(seat)
                if not clock.running or (before is not None and before.running):
                    continue
                info = runtime.seats[seat] if seat < len(runtime.seats) else None
                if info is None or info.kind != "human" or info.user_id is None:
                    continue
                if any(v.user_id == info.user_id and not v.closed for v in runtime.viewers):
                    continue  # the page is open: it says "your turn" itself
                self.submit(Turn(runtime.id, runtime.game.info.id, info.user_id,
                                 clock.deadline(), clock.started or now()))
        except Exception:  # an alert never stands in the way of a move
            log.exception("push: table %s: choosing whom to alert failed", runtime.id)

    def submit(self, turn: Turn) -> None:
        with self.lock:
            if self.closed:
                return
            self.pending += 1
        try:
            self.executor.submit(self._send_turn, turn)
        except RuntimeError:  # shut down meanwhile
            self._finished()

    def _finished(self) -> None:
        with self.lock:
            self.pending -= 1
            self.done.notify_all()

    def idle(self, timeout: float) -> bool:
        """Wait until every alert handed over is sent (or failed); ``False`` on timeout."""
        with self.lock:
            return self.done.wait_for(lambda: self.pending == 0, timeout)

    def close(self) -> None:
        with self.lock:
            self.closed = True
        self.executor.shutdown(wait=False, cancel_futures=True)

    # -- in the push threads
    def _send_turn(self, turn: Turn) -> None:
        try:
            with self.sessions() as s:
                rows = list(s.scalars(select(PushSubscription)
                                      .where(PushSubscription.user_id == turn.user_id)))
            for row in rows:
                if not endpoint_allowed(row.endpoint, self.settings):
                    log.warning("push: subscription %d's endpoint is not allowed here: "
                                "skipped", row.id)
                    continue
                status = self.send(row, payload(turn, row.lang), turn)
                if status in (404, 410):
                    with self.sessions() as s:
                        s.execute(delete(PushSubscription).where(
                            PushSubscription.id == row.id,
                            PushSubscription.endpoint_hash == row.endpoint_hash))
                        s.commit()
                    log.info("push: subscription %d is gone (%d): deleted", row.id, status)
        except Exception:
            log.exception("push: telling user %d of table %s failed", turn.user_id,
                          turn.table)
        finally:
            self._finished()

    def send(self, row: PushSubscription, data: dict[str, Any], turn: Turn) -> int | None:
        """Encrypt ``data`` for ``row`` and post it; the push service's status (``None``:
        no answer)."""
        import requests
        from pywebpush import WebPushException, webpush

        ttl = MAX_TTL_S
        if turn.deadline is not None:
            ttl = int(min(MAX_TTL_S, max(60.0, turn.deadline - turn.at)))
        session = requests.Session()
        session.max_redirects = 0  # a push service answers; it never sends us elsewhere
        try:
            response = webpush(
                subscription_info={"endpoint": row.endpoint,
                                   "keys": {"p256dh": row.p256dh, "auth": row.auth}},
                data=json.dumps(data, separators=(",", ":")),
                vapid_private_key=self.vapid, vapid_claims={"sub": self.subject},
                content_encoding="aes128gcm", ttl=ttl, timeout=SEND_TIMEOUT_S,
                headers={"Urgency": "high", "Topic": turn.table},
                requests_session=session)
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            log.warning("push to %s refused: %s", self.describe(row.endpoint), status)
            return status if isinstance(status, int) else None
        except requests.RequestException as exc:
            log.warning("push to %s failed: %s", self.describe(row.endpoint),
                        type(exc).__name__)
            return None
        finally:
            session.close()
        code = getattr(response, "status_code", None)
        return code if isinstance(code, int) else None


def make_pusher(settings: Settings, sessions: sessionmaker[OrmSession]) -> Pusher | None:
    """The pusher of ``settings`` (``None`` without a VAPID key). A key that cannot be read
    or used is a :class:`ServerError` (``server.push.key_*``), raised before anything
    starts."""
    if settings.vapid_key is None:
        return None
    return Pusher(settings, sessions, load_key(Path(settings.vapid_key)))
