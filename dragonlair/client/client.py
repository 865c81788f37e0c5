"""A small blocking client of the Dragonlair server: the lobby (REST) and play (WebSocket).

:class:`Client` signs in (a guest in one step, a login, or a bot's API token) and speaks
to the lobby; :meth:`Client.connect` opens a :class:`TableConnection` to one table, which
keeps what the protocol tells (docs/protocol.md): the log length ``seq``, the table's
status, this client's seat, the latest view and every event received, merged from the
``welcome`` and the ``update`` messages. :meth:`TableConnection.act` sends an action with the
newest ``seq`` seen and an idempotency key and waits for its ``ack``; a refusal raises
:class:`Refused` with the code, params and rule that a client renders from the catalogues.
A dropped socket is reopened (``hello``, then ``resume`` with the events held) and an action
whose answer was lost is sent again with the same key, so it is applied once. Updates come as
deltas (the ``delta`` feature, docs/protocol.md "Deltas"; ``deltas=False``: whole views),
applied with :mod:`dragonlair.core.viewdelta` to ``last_view``.
"""

from __future__ import annotations

import itertools
import json
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from dragonlair.core import viewdelta
from dragonlair.core.forms import form_choice as form_choice  # re-exported: the client's API
from dragonlair.core.forms import form_text as form_text
from dragonlair.core.forms import form_texts as form_texts
from dragonlair.core.i18n import error_message

JSON = dict[str, Any]
COOKIE = "dragonlair_session"
PROTOCOL = 1
#: refusals that mean "the position moved on while you decided": look again, then act
MOVED_ON = frozenset({"server.act.stale", "server.act.not_running", "core.turn.not_your_move"})
#: the server's answer to a message sent too fast (it was not read): wait, then send it again
RATE_LIMITED = "server.msg.rate_limited"
RATE_PAUSE = 0.5


class Refused(Exception):
    """A refusal by the server or the engine: ``code`` (a catalogue code), ``params``,
    ``rule``, and the HTTP status for a lobby call (``None`` on the WebSocket)."""

    def __init__(self, code: str, params: JSON | None = None, rule: str | None = None,
                 status: int | None = None) -> None:
        super().__init__(code)
        self.code, self.params, self.rule, self.status = code, dict(params or {}), rule, status

    @classmethod
    def from_json(cls, data: Any, status: int | None = None) -> Refused:
        if isinstance(data, dict) and isinstance(data.get("code"), str):
            params = data.get("params")
            return cls(data["code"], params if isinstance(params, dict) else {},
                       data.get("rule"), status)
        return cls("server.request.failed", {"status": status}, None, status)

    def to_json(self) -> JSON:
        return {"code": self.code, "params": self.params, "rule": self.rule}

    def message(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """The refusal in words, from the shared catalogues."""
        return error_message(self.to_json(), lang, names)

    def __str__(self) -> str:
        return self.message()


class ConnectionLost(Exception):
    """The table's socket dropped and could not be reopened."""


class _Dropped(Exception):
    """The socket dropped (and was reopened) while an answer was awaited."""


class Client:
    """One account on one server: ``Client("http://127.0.0.1:8000")``, then :meth:`guest`,
    :meth:`login` or ``token=`` (a bot's API token, sent as ``Authorization: Bearer``)."""

    def __init__(self, url: str, *, token: str | None = None,
                 session: str | None = None, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=self.url, timeout=timeout, headers=headers)
        self.token = token
        if session:
            self.http.cookies.set(COOKIE, session)
        self.user: JSON | None = None

    # ------------------------------------------------------------------ plumbing
    def _call(self, method: str, path: str, body: JSON | None = None,
              params: Any = None) -> Any:
        r = self.http.request(method, path, json=body, params=params)
        if r.status_code >= 400:
            try:
                data = r.json()
            except ValueError:
                data = None
            raise Refused.from_json(data, r.status_code)
        return r.json()

    @property
    def session(self) -> str | None:
        """The session cookie's token (keep it to sign in again as the same user)."""
        value: str | None = self.http.cookies.get(COOKIE)
        return value

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ accounts
    def guest(self, name: str | None = None, *, lang: str | None = None) -> JSON:
        """Sign in as a new guest (a display name, or a friendly one the server makes up, in
        ``lang`` if given)."""
        body: JSON = {"display_name": name} if name else {}
        if lang:
            body["lang"] = lang
        self.user = self._call("POST", "/api/auth/guest", body)
        return self.user

    def register(self, username: str, password: str, display_name: str | None = None, *,
                 bot: bool = False) -> JSON:
        """A new account (``bot``: a bot account), signed in."""
        body: JSON = {"username": username, "password": password, "bot": bot}
        if display_name:
            body["display_name"] = display_name
        self.user = self._call("POST", "/api/auth/register", body)
        return self.user

    def login(self, username: str, password: str) -> JSON:
        self.user = self._call("POST", "/api/auth/login",
                               {"username": username, "password": password})
        return self.user

    def logout(self) -> None:
        self._call("POST", "/api/auth/logout")
        self.user = None

    def me(self) -> JSON:
        self.user = self._call("GET", "/api/me")
        return self.user

    def rename(self, display_name: str) -> JSON:
        """Change this account's display name (guests too)."""
        self.user = self._call("PATCH", "/api/me", {"display_name": display_name})
        return self.user

    def change_password(self, current: str, new: str) -> None:
        self._call("POST", "/api/me/password", {"current": current, "new": new})

    def create_token(self, name: str = "bot") -> str:
        """A personal API token for this account (shown once): ``Client(url, token=...)``."""
        token: str = self._call("POST", "/api/auth/tokens", {"name": name})["token"]
        return token

    # ------------------------------------------------------------------ lobby
    def games(self) -> list[JSON]:
        games: list[JSON] = self._call("GET", "/api/games")
        return games

    def tables(self, *status: str) -> list[JSON]:
        """Tables by status (none given: open and running), newest first."""
        tables: list[JSON] = self._call("GET", "/api/tables",
                                        params=[("status", s) for s in status] or None)
        return tables

    def table(self, table_id: str) -> JSON:
        table: JSON = self._call("GET", f"/api/tables/{table_id}")
        return table

    def create_table(self, game: str, options: JSON | None = None,
                     seats: Iterable[JSON] | None = None, *, rated: bool = False,
                     **fields: Any) -> JSON:
        """A new table: ``seats`` one per seat, ``{"kind": "me" | "open" | "bot",
        "bot"?: name}`` (none: this account and open seats); ``fields``: more of the
        lobby's table fields (``clock={"kind": "realtime", ...}``, ``takeover_bot=...``)."""
        body: JSON = {"game": game, "options": dict(options or {}), "rated": rated, **fields}
        if seats is not None:
            body["seats"] = list(seats)
        table: JSON = self._call("POST", "/api/tables", body)
        return table

    def join(self, table_id: str, seat: int | None = None) -> JSON:
        table: JSON = self._call("POST", f"/api/tables/{table_id}/join",
                                 {"seat": seat} if seat is not None else {})
        return table

    def leave(self, table_id: str) -> JSON:
        table: JSON = self._call("POST", f"/api/tables/{table_id}/leave")
        return table

    def start(self, table_id: str) -> JSON:
        table: JSON = self._call("POST", f"/api/tables/{table_id}/start")
        return table

    def record(self, table_id: str) -> JSON:
        """A finished table's record (docs/records.md)."""
        record: JSON = self._call("GET", f"/api/tables/{table_id}/record")
        return record

    # ------------------------------------------------------------------ play
    def ws_url(self, table_id: str) -> str:
        base = self.url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}/ws/tables/{table_id}"

    def connect(self, table_id: str, **kwargs: Any) -> TableConnection:
        """Open the table's WebSocket and say ``hello`` (see :class:`TableConnection`)."""
        conn = TableConnection(self, table_id, **kwargs)
        conn.open()
        return conn


class TableConnection:
    """One table's WebSocket, with what it has told so far.

    ``seat`` (``None``: a spectator), ``status``, ``seq`` (the action log's length),
    ``table`` (from the ``welcome``), ``view`` (the latest view for this seat, holding
    *every* event received: as ``state.view(seat)`` would) and ``events``. ``on_message``
    is called with every message received, after it is taken in."""

    def __init__(self, client: Client, table_id: str, *, reconnects: int = 8,
                 on_message: Callable[[JSON], None] | None = None,
                 open_timeout: float = 20.0, deltas: bool = True) -> None:
        self.client = client
        #: ask for updates as deltas (docs/protocol.md, "Deltas"); ``last_view``: the view
        #: as the server would have sent it last (what the next delta applies to)
        self.deltas = deltas
        self.last_view: JSON | None = None
        self.table_id = table_id
        self.reconnects = reconnects
        self.on_message = on_message
        self.open_timeout = open_timeout
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.status = "open"
        self.seq = 0
        self.table: JSON = {}
        self.view: JSON | None = None
        #: the table's clocks as the last welcome or update told them (None: no clock)
        self.clock: JSON | None = None
        self.clock_at = 0.0
        self.events: list[JSON] = []
        #: the event count the events held cover (``view.events_total``): ``resume`` from here
        self.events_total = 0
        self.received = 0
        #: how often the socket dropped and was reopened
        self.drops = 0
        self._ids = itertools.count()

    # ------------------------------------------------------------------ the socket
    def open(self) -> JSON:
        """Connect and say ``hello``; the ``welcome``."""
        headers: JSON = {}
        if self.client.session:
            headers["Cookie"] = f"{COOKIE}={self.client.session}"
        if self.client.token:
            headers["Authorization"] = f"Bearer {self.client.token}"
        try:
            ws = ws_connect(self.client.ws_url(self.table_id), additional_headers=headers,
                            max_size=1 << 23, open_timeout=self.open_timeout).__enter__()
        except InvalidStatus as exc:
            raise Refused("server.table.not_found", {"table": self.table_id},
                          status=exc.response.status_code) from None
        hello: JSON = {"type": "hello", "protocol": PROTOCOL}
        if self.deltas:
            hello["features"] = [viewdelta.FEATURE]
        ws.send(json.dumps(hello))
        deadline = time.monotonic() + self.open_timeout
        while True:
            message = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
            if isinstance(message, dict) and message.get("type") == "error":
                ws.close()
                raise Refused.from_json(message)
            if isinstance(message, dict) and message.get("type") == "welcome":
                self.ws = ws
                self.take(message)
                return message

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def __enter__(self) -> TableConnection:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def reopen(self) -> None:
        """After a drop: connect again, ``hello``, then ``resume`` with the events held
        (the view comes back complete; nothing acknowledged is ever lost: it is logged)."""
        self.close()
        delay = 0.2
        held = self.events_total
        for attempt in range(self.reconnects):
            try:
                self.open()
                self.send({"type": "resume", "since": held})
                return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                self.ws = None
                if attempt + 1 == self.reconnects:
                    break
                time.sleep(delay)
                delay = min(delay * 2, 5.0)
        raise ConnectionLost(self.table_id)

    def send(self, message: JSON) -> None:
        """Send one message (reopening a dropped socket first)."""
        if self.ws is None:
            self.reopen()
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(message, separators=(",", ":")))
        except ConnectionClosed:
            self.ws = None
            self.drops += 1
            raise _Dropped from None

    def recv(self, timeout: float | None = None) -> JSON | None:
        """The next message (taken in), or ``None`` after ``timeout`` seconds. A dropped
        socket is reopened (:meth:`reopen`) and the wait goes on."""
        while True:
            if self.ws is None:
                self.reopen()
            assert self.ws is not None
            try:
                text = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return None
            except ConnectionClosed:
                self.ws = None
                self.drops += 1
                continue
            message = json.loads(text)
            if not isinstance(message, dict):
                continue
            self.take(message)
            return message

    def request(self, message: JSON, done: Callable[[JSON], bool] | None = None,
                timeout: float = 60.0) -> JSON:
        """Send ``message`` with a fresh ``id`` and wait for the answer that names it (or,
        with ``done``, the first message it accepts); other messages are taken in on the
        way. An ``error`` answer raises :class:`Refused`; a drop meanwhile, ``_Dropped``."""
        rid = f"c{next(self._ids)}"
        self.send({**message, "id": rid})
        drops = self.drops
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer to {message.get('type')} in {timeout}s")
            answer = self.recv(left)
            if self.drops != drops:
                raise _Dropped
            if answer is None:
                continue
            if answer.get("type") == "error" and answer.get("code") == RATE_LIMITED \
                    and answer.get("re") is None:  # dropped unread: wait, send it again
                time.sleep(RATE_PAUSE)
                self.send({**message, "id": rid})
                continue
            if answer.get("re") == rid or (done is not None and done(answer)):
                if answer.get("type") == "error":
                    raise Refused.from_json(answer)
                return answer

    # ------------------------------------------------------------------ what it tells
    def take(self, message: JSON) -> None:
        """Keep what a message tells: seat, status, seq, the view and its events."""
        kind = message.get("type")
        if kind == "welcome":
            self.table = message.get("table") or {}
            self.status = self.table.get("status", self.status)
            self.events, self.events_total = [], 0
        if kind in ("welcome", "update"):
            # absent (an update with a delta): the seat of the view held
            self.seat = message.get("seat", self.seat)
            self.seq = int(message.get("seq", self.seq))
            self.status = message.get("status", self.status)
            self.clock = message.get("clock")
            self.clock_at = time.time()
            try:
                view = viewdelta.merge_update(self.last_view, message)
            except viewdelta.DeltaMismatch:  # cannot happen on one ordered socket: resync
                self.last_view = None
                self.send({"type": "resume", "since": self.events_total})
            else:
                self.last_view = view
                self.merge(view)
        self.received += 1
        if self.on_message is not None:
            self.on_message(message)

    def merge(self, view: JSON) -> None:
        """A view's events joined to those held. ``events_since`` and ``events_total`` count
        all of the game's events (a view holds only those its seat may see): the events from
        ``events_since`` on replace those held from there, and a gap (events the client never
        got) is asked for with ``resume``."""
        since = int(view.get("events_since", 0))
        if since > self.events_total:
            self.send({"type": "resume", "since": self.events_total})
        else:
            while self.events and int(self.events[-1]["seq"]) >= since:
                self.events.pop()
            self.events.extend(view.get("events") or [])
            self.events_total = int(view.get("events_total", self.events_total))
        self.view = {**view, "events": self.events, "events_since": 0,
                     "events_total": self.events_total}

    def my_turn(self) -> bool:
        """Whether this seat may act now (it is in ``to_move`` and has legal actions)."""
        view = self.view
        return (self.status == "running" and view is not None and self.seat is not None
                and self.seat in (view.get("to_move") or []) and view.get("legal") is not None)

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def time_left(self, seat: int | None = None) -> float | None:
        """Seconds left on ``seat``'s clock (this seat by default) as the last message told
        them, counted down to now by the server's ``deadline``; None without a clock."""
        seat = self.seat if seat is None else seat
        clock = self.clock
        if clock is None or seat is None:
            return None
        for entry in clock.get("seats") or []:
            if entry.get("seat") == seat:
                left = float(entry["remaining"])
                if entry.get("running") and entry.get("deadline") is not None:
                    left = float(entry["deadline"]) - float(clock.get("now", 0.0)) \
                        - (time.time() - self.clock_at)
                return max(0.0, left)
        return None

    # ------------------------------------------------------------------ acting
    def act(self, action: str, *, key: str | None = None, timeout: float = 60.0,
            wait: bool = True) -> int:
        """Send ``action`` (canonical text) with the newest ``seq`` seen and an idempotency
        key; return the log length after it once it is acknowledged (committed) and, with
        ``wait``, once the ``update`` after it is taken in (so ``view`` shows the move). A
        refusal raises :class:`Refused`; if the socket drops before the answer the same key
        is sent again, and ``server.act.duplicate_key`` then means it was applied."""
        after = self._act(action, key or secrets.token_urlsafe(12), timeout)
        if wait:
            self.wait(lambda c: c.seq >= after, timeout)
        return after

    def _act(self, action: str, key: str, timeout: float) -> int:
        seen = self.seq
        for _ in range(self.reconnects + 1):
            try:
                answer = self.request({"type": "act", "action": action, "seq": seen,
                                       "key": key}, timeout=timeout)
            except Refused as exc:
                if exc.code == "server.act.duplicate_key":
                    return int(exc.params.get("seq", self.seq))
                raise
            except _Dropped:
                continue  # the same key again: applied once whatever happened
            return int(answer["seq"])
        raise ConnectionLost(self.table_id)

    def wait(self, until: Callable[[TableConnection], bool], timeout: float = 60.0) -> bool:
        """Take in messages until ``until(self)`` holds (True) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while not until(self):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.recv(min(left, 1.0))
        return True


def legal_texts(view: JSON | None) -> list[str]:
    """Every legal action of a view's seat as canonical text, read from the view's ``legal``
    description (docs/views.md) as any client can: a list of ``actions`` (Dragon Farkle),
    ``choices`` with their ``action`` (a Fist decision, a plugin game), or the ``form`` the
    engine writes them in (a Fist bid or tie-break bid, a Dragon Master placement: every
    choice of one text per part, joined, :func:`form_texts`). Never composed here: the
    grammar of actions is the engine's. Empty when the seat cannot act."""
    legal = (view or {}).get("legal")
    if not isinstance(legal, dict):
        return []
    if isinstance(legal.get("actions"), list):
        return [str(a) for a in legal["actions"]]
    if legal.get("choices"):
        return [str(c["action"]) for c in legal["choices"]]
    if isinstance(legal.get("form"), dict):
        return form_texts(legal["form"])
    return []
