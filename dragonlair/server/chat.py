"""Table chat: short plain-text lines, stored, rate-limited per user, seen by every viewer.

A ``chat`` message on a table's WebSocket (docs/protocol.md) is checked (who may write,
length after trimming blanks, no control characters), rate-limited per user (a token bucket
shared by all of that user's sockets in this process), inserted and committed, and only then
sent as ``chat`` to every greeted viewer of the table, seated or spectating, anonymous
spectators included. A ``welcome`` carries the newest lines (``chat``); ``resume`` with
``chat_since`` sends the lines after that id (``chat_history``).

Who may write: a seated player, always; a signed-in spectator while the table is open (the
players are gathering) or finished, never while its game is running (nobody outside the game
coaches a player); an anonymous viewer never. The text is stored and sent as given (after
trimming): the server never interprets it as HTML or markup, and clients must escape it.
"""

from __future__ import annotations

import asyncio
import unicodedata
import zlib
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.buckets import Bucket
from dragonlair.server.db import ChatMessage, User
from dragonlair.server.errors import ServerError
from dragonlair.server.settings import Limits
from dragonlair.server.tables import TableRuntime, Viewer

JSON = dict[str, Any]

#: bidirectional overrides and isolates (they could make a line read backwards)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: buckets kept at most (the least recently used goes first: it is the fullest)
MAX_BUCKETS = 10_000
#: locks that order one table's chat lines (a table id picks one)
LOCK_STRIPES = 64


def clean_text(text: str, limit: int) -> str:
    """The line to store: ``text`` without surrounding blanks. Refused (``ServerError``,
    422): empty, longer than ``limit`` characters, or holding a control character (C0/C1,
    line breaks included), a lone surrogate or a bidirectional override."""
    line = text.strip()
    if not line:
        raise ServerError("server.chat.empty", 422)
    if len(line) > limit:
        raise ServerError("server.chat.too_long", 422, limit=limit, length=len(line))
    for ch in line:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs"):
            raise ServerError("server.chat.bad_character", 422, char=f"U+{ord(ch):04X}")
    return line


def may_write(user_id: int | None, seat: int | None, status: str) -> None:
    """Raise the refusal for a viewer who may not write (see the module docs)."""
    if user_id is None:
        raise ServerError("server.chat.sign_in", 401)
    if seat is None and status == "running":
        raise ServerError("server.chat.spectators_read_only", 403, status=status)


def message_json(row: ChatMessage) -> JSON:
    return {"id": row.id, "seat": row.seat, "user_id": row.user_id, "name": row.name,
            "text": row.text, "at": row.created_at}


def recent(s: OrmSession, table_id: str, n: int, after: int | None = None) -> list[JSON]:
    """The newest ``n`` lines of a table (those with an id above ``after``), oldest first."""
    query = select(ChatMessage).where(ChatMessage.table_id == table_id)
    if after is not None:
        query = query.where(ChatMessage.id > after)
    rows = s.scalars(query.order_by(ChatMessage.id.desc()).limit(max(0, n))).all()
    return [message_json(row) for row in reversed(rows)]


def store(s: OrmSession, table_id: str, user_id: int, seat: int | None, text: str) -> JSON:
    """Insert a line and commit; its JSON (with the id the database gave it)."""
    user = s.get(User, user_id)
    name = user.display_name if user is not None else f"user {user_id}"
    row = ChatMessage(table_id=table_id, user_id=user_id, seat=seat, name=name[:64],
                      text=text)
    s.add(row)
    s.commit()
    return message_json(row)


class Chat:
    """This process's chat: the users' buckets and the locks that keep one table's lines in
    the order the database numbered them. (With several processes each keeps its own
    buckets: a user is limited per process; a later issue moves them to Redis.)"""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: OrderedDict[int, Bucket] = OrderedDict()
        self.locks = [asyncio.Lock() for _ in range(LOCK_STRIPES)]

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock of a table's chat: held while a line is stored and sent, and while a
        viewer is welcomed with the history (so no line falls between the two)."""
        return self.locks[zlib.crc32(table_id.encode("utf-8")) % LOCK_STRIPES]

    def allow(self, user_id: int) -> bool:
        """Take a token from the user's bucket (``False``: over the rate)."""
        bucket = self.buckets.get(user_id)
        if bucket is None:
            bucket = Bucket(self.limits.chat_per_minute / 60.0, self.limits.chat_burst)
            self.buckets[user_id] = bucket
            while len(self.buckets) > MAX_BUCKETS:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(user_id)
        return bucket.take()

    def check(self, user_id: int | None, seat: int | None, status: str, text: str) -> str:
        """The cleaned line, or the refusal (who may write, the text, then the rate: a
        refused line costs no token)."""
        may_write(user_id, seat, status)
        line = clean_text(text, self.limits.max_chat_chars)
        assert user_id is not None
        if not self.allow(user_id):
            raise ServerError("server.chat.rate_limited", 429,
                              per_minute=self.limits.chat_per_minute,
                              burst=self.limits.chat_burst)
        return line


def chat_of(state: Any, limits: Limits) -> Chat:
    """The :class:`Chat` of an application (``app.state``), made on first use."""
    chat: Chat | None = getattr(state, "chat", None)
    if chat is None:
        chat = Chat(limits)
        state.chat = chat
    return chat


def _push(viewer: Viewer, message: JSON, re: str | None) -> None:
    viewer.push({**message, "re": re} if re is not None else message)


async def send(chat: Chat, runtime: TableRuntime, viewer: Viewer, text: str,
               re: str | None = None) -> None:
    """A ``chat`` message: refused with an ``error`` (nothing stored, nothing sent), or
    stored, committed, then sent as ``chat`` to every greeted viewer (the sender's copy
    carries ``re``)."""
    async with runtime.lock:
        await runtime.sync()
        seat, status = runtime.seat_of(viewer.user_id), runtime.status
    try:
        line = chat.check(viewer.user_id, seat, status, text)
    except ServerError as exc:
        return _push(viewer, {"type": "error", **exc.to_json()}, re)
    user_id = viewer.user_id
    assert user_id is not None
    async with chat.lock(runtime.id):
        message = await runtime.hub.db(lambda s: store(s, runtime.id, user_id, seat, line))
        for other in list(runtime.viewers):
            if other.greeted:
                _push(other, {"type": "chat", "message": message},
                      re if other is viewer else None)
    runtime.announce("chat", message=message)  # the viewers in other processes
    return None


async def welcome(chat: Chat, runtime: TableRuntime, viewer: Viewer,
                  re: str | None = None) -> None:
    """``welcome`` with the newest chat lines (``chat``), under the table's chat lock so
    that a line stored meanwhile is either in the history or sent after it."""
    async with chat.lock(runtime.id):
        history = await runtime.hub.db(
            lambda s: recent(s, runtime.id, chat.limits.chat_history))
        async with runtime.lock:
            await runtime.sync()
            runtime.welcome(viewer, re, extra={"chat": history})


async def history_since(chat: Chat, runtime: TableRuntime, viewer: Viewer, since: int,
                        re: str | None = None) -> None:
    """``chat_history``: the lines after id ``since`` (the newest ``chat_history`` of them;
    ``complete`` is false when older ones were left out)."""
    n = chat.limits.chat_history
    async with chat.lock(runtime.id):
        lines = await runtime.hub.db(lambda s: recent(s, runtime.id, n + 1, after=since))
        _push(viewer, {"type": "chat_history", "messages": lines[-n:] if n else [],
                       "complete": len(lines) <= n}, re)


def spectators(runtime: TableRuntime | None) -> int:
    """Viewers of a table in this process that hold no seat (anonymous ones included)."""
    if runtime is None:
        return 0
    return sum(1 for v in list(runtime.viewers)
               if not v.closed and runtime.seat_of(v.user_id) is None)
