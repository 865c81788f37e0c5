"""Play: one WebSocket per table (docs/protocol.md).

Each message is a JSON object with a ``type``. The client says ``hello`` first and gets a
``welcome`` (its seat or none, the table, the engine's view for its seat); it sends ``act``
(canonical action text, the log sequence number it has seen, an idempotency key) and gets an
``ack`` or an ``error``; every change reaches each viewer as an ``update`` carrying the view
of that viewer's own seat and the events it has not been sent; ``resume`` (the last event
sequence number held) brings a reconnected client up to date. Every message is bounded in
size and rate; whatever is wrong gets an ``error`` with a code and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from dragonlair.core import viewdelta
from dragonlair.server import chat, rematch
from dragonlair.server.accounts import request_token, user_id_from_token
from dragonlair.server.buckets import Bucket
from dragonlair.server.errors import ServerError
from dragonlair.server.hub import Hub
from dragonlair.server.security import origin_allowed
from dragonlair.server.settings import Limits, Settings
from dragonlair.server.table.runtime import TableRuntime
from dragonlair.server.table.viewers import PROTOCOL, Viewer

router = APIRouter()

#: the protocol features this server offers (``hello.features``; docs/protocol.md)
FEATURES = frozenset({viewdelta.FEATURE})

KEY_PATTERN = r"^[A-Za-z0-9_.:-]+$"


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: StrictStr
    #: echoed as ``re`` in the answer, to match answers with requests
    id: Annotated[StrictStr, Field(max_length=64)] | None = None


class Hello(Message):
    protocol: StrictInt = PROTOCOL
    #: optional protocol features the client understands (docs/protocol.md, "Versioning"):
    #: ``delta``; names the server does not know are ignored
    features: Annotated[list[Annotated[StrictStr, Field(max_length=32)]],
                        Field(max_length=16)] = []


class Act(Message):
    action: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    seq: Annotated[StrictInt, Field(ge=0, le=10**9)]
    key: Annotated[StrictStr, Field(min_length=1, max_length=64, pattern=KEY_PATTERN)]


class Resume(Message):
    since: Annotated[StrictInt, Field(ge=0, le=10**9)]
    #: the newest chat line id the client holds: the lines after it come as ``chat_history``
    chat_since: Annotated[StrictInt, Field(ge=0, le=2**53)] | None = None


class Chat(Message):
    #: bounded by the message size here; trimmed and checked by chat.clean_text
    text: StrictStr


class Resign(Message):
    """Give up a running game: a bot takes the seat (docs/server.md, "Leavers")."""


class Ping(Message):
    pass


MODELS: dict[str, type[Message]] = {"hello": Hello, "act": Act, "resume": Resume,
                                    "ping": Ping, "chat": Chat, "resign": Resign}


def origin_ok(ws: WebSocket, settings: Settings) -> bool:
    """A browser always sends ``Origin`` on a WebSocket upgrade: it must be the server's own
    (the ``Host`` it asked, any letter case) or one of ``allowed_origins``, checked as for a
    state-changing REST request (:func:`dragonlair.server.security.origin_allowed`). Clients
    that are no browser (a remote bot, the tests) send none and are let in: cookies are what
    they show."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return origin_allowed(origin.strip(), ws.headers.get("host"), settings.allowed_origins)


def error(code: str, re: str | None = None, **params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "params": params, "rule": None}
    if re is not None:
        out["re"] = re
    return out


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str) -> None:
    settings: Settings = ws.app.state.settings
    hub: Hub = ws.app.state.hub
    if not origin_ok(ws, settings):
        await ws.close(code=1008)  # before accept: the upgrade is refused (HTTP 403)
        return
    token = request_token(ws.cookies, ws.headers)  # a cookie, or a bot's bearer token
    # no credential (a spectator who never signed in): nobody, without a trip to the database
    user_id = await hub.db(lambda s: user_id_from_token(s, token)) if token else None
    try:
        runtime = await hub.table(table_id[:32])
    except ServerError:
        await ws.close(code=1008)
        return
    await ws.accept()
    viewer = Viewer(ws, user_id, settings.limits.max_queued)
    writer = asyncio.create_task(viewer.write())
    runtime.viewers.add(viewer)
    runtime.presence.joined(viewer)  # presence.py: connected, countdown cancelled
    session = Connection(runtime, viewer, settings.limits,
                         chat.chat_of(ws.app.state, settings.limits))
    try:
        while not viewer.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await session.handle(message.get("text"))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        runtime.viewers.discard(viewer)
        runtime.presence.left(viewer)
        viewer.close()
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(writer, 2.0)


class Connection:
    """One client's messages: bounds first, then the message's handler."""

    def __init__(self, runtime: TableRuntime, viewer: Viewer, limits: Limits,
                 chat_service: chat.Chat | None = None) -> None:
        self.runtime, self.viewer, self.limits = runtime, viewer, limits
        self.chat = chat_service or chat.Chat(limits)
        self.bucket = Bucket(limits.messages_per_second, limits.message_burst)
        self.rate_errors = 0

    async def handle(self, text: str | None) -> None:
        push, limits = self.viewer.push, self.limits
        if not self.bucket.take():
            self.rate_errors += 1
            push(error("server.msg.rate_limited", per_second=limits.messages_per_second))
            if self.rate_errors > limits.max_rate_errors:
                self.viewer.close()
            return
        if text is None:
            return push(error("server.msg.not_text"))
        if len(text) > limits.max_message_chars:
            return push(error("server.msg.too_large", limit=limits.max_message_chars))
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return push(error("server.msg.bad_json"))
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            return push(error("server.msg.no_type"))
        re = data.get("id") if isinstance(data.get("id"), str) else None
        re = re if re is None or len(re) <= 64 else None
        kind = data["type"]
        model = MODELS.get(kind)
        if model is None:
            return push(error("server.msg.unknown_type", re, type=kind[:32],
                              known=sorted(MODELS)))
        try:
            msg = model.model_validate(data)
        except ValidationError as exc:
            problems = [{"field": ".".join(str(x) for x in e["loc"]), "problem": e["type"]}
                        for e in exc.errors(include_input=False, include_url=False)][:10]
            return push(error("server.msg.bad_field", re, type=kind, errors=problems))
        if not isinstance(msg, Hello | Ping) and not self.viewer.greeted:
            return push(error("server.msg.hello_first", re))
        await self.dispatch(msg, re)

    async def dispatch(self, msg: Message, re: str | None) -> None:
        runtime, viewer = self.runtime, self.viewer
        if isinstance(msg, Hello):
            if msg.protocol != PROTOCOL:
                return viewer.push(error("server.protocol.unsupported", re,
                                         protocol=msg.protocol, supported=[PROTOCOL]))
            viewer.features = frozenset(msg.features) & FEATURES
            await chat.welcome(self.chat, runtime, viewer, re)
            await rematch.greet(runtime, viewer)
        elif isinstance(msg, Act):
            await runtime.moves.act(viewer, msg.action, msg.seq, msg.key, re)
        elif isinstance(msg, Resume):
            async with runtime.lock:
                await runtime.sync()
                runtime.audience.update(viewer, since=msg.since, re=re)
            if msg.chat_since is not None:
                await chat.history_since(self.chat, runtime, viewer, msg.chat_since, re)
        elif isinstance(msg, Chat):
            await chat.send(self.chat, runtime, viewer, msg.text, re)
        elif isinstance(msg, Resign):
            await runtime.takeover.resign(viewer, re)
        elif isinstance(msg, Ping):
            out: dict[str, Any] = {"type": "pong"}
            if re is not None:
                out["re"] = re
            viewer.push(out)
        return None
