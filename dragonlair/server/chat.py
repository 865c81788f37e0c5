"""Table chat: short plain-text lines, stored, rate-limited per user, seen by every viewer.

A ``chat`` message on a table's WebSocket (docs/protocol.md) is checked (who may write,
length after trimming blanks, no control characters), rate-limited per user (a token bucket
shared by all of that user's sockets in this process), inserted and committed, and only then
sent as ``chat`` to every greeted viewer of the table, seated or spectating, anonymous
spectators included. A ``welcome`` carries the newest lines (``chat``); ``resume`` with
``chat_since`` sends the lines after that id (``chat_history``).

Who may write: a seated player, always; a signed-in spectator, always; an anonymous viewer
never. Channels (docs/protocol.md, "Chat"): a line is ``table`` (every viewer gets it) or
``spectators``: what a spectator writes while the game runs. Those lines reach only the
viewers who are not players of the table while the game runs (a player is whoever holds a
seat of it, or held one that a bot took over), and the players too once it has ended: in the
``welcome``'s history, and as one ``chat_history`` pushed to the players at the end (no
kibitzing: a player's frames hold no spectator line before the end). A player whose seat a bot
took over may not write while the game runs (``server.chat.spectators_read_only``). The text
is stored and sent as given (after trimming): the server never interprets it as HTML or
markup, and clients must escape it.
"""

from __future__ import annotations

import asyncio
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.buckets import Bucket
from dragonlair.server.db import ChatMessage, GameTable, User
from dragonlair.server.errors import ServerError
from dragonlair.server.settings import Limits
from dragonlair.server.table.runtime import TableRuntime
from dragonlair.server.table.storage import SeatInfo, Snapshot, read_seats
from dragonlair.server.table.viewers import Viewer

JSON = dict[str, Any]

#: bidirectional controls: the embeddings, overrides and isolates (they could make a line
#: read backwards) and the direction marks (ALM, LRM, RLM)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
#: characters that show nothing though they are neither blanks nor format characters: the
#: combining grapheme joiner, the variation selectors, the Hangul fillers, the blank
#: Braille pattern
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f"
                      "\u2800\u3164\uffa0"
                      + "".join(chr(c) for c in range(0xFE00, 0xFE10))
                      + "".join(chr(c) for c in range(0xE0100, 0xE01F0)))
#: buckets kept at most (the least recently used goes first: it is the fullest)
MAX_BUCKETS = 10_000
#: locks that order one table's chat lines (a table id picks one)
LOCK_STRIPES = 64


def clean_text(text: str, limit: int) -> str:
    """The line to store: ``text`` without surrounding blanks. Refused (``ServerError``,
    422): empty, longer than ``limit`` characters, or holding a control character (C0/C1,
    line breaks included), a lone surrogate or a bidirectional control (marks included);
    or holding no visible character (only zero-width, format or blank characters)."""
    line = text.strip()
    if not line:
        raise ServerError("server.chat.empty", 422)
    if len(line) > limit:
        raise ServerError("server.chat.too_long", 422, limit=limit, length=len(line))
    for ch in line:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs"):
            raise ServerError("server.chat.bad_character", 422, char=f"U+{ord(ch):04X}")
    if not any(visible(ch) for ch in line):
        raise ServerError("server.chat.invisible", 422)
    return line


def visible(ch: str) -> bool:
    """Whether a character shows anything (not a blank, a format character such as a
    zero-width space or joiner, or one of :data:`INVISIBLE`)."""
    return not (ch.isspace() or ch in INVISIBLE or unicodedata.category(ch) in ("Cf", "Zs"))


#: the channels of a table's chat (see the module docs)
TABLE, SPECTATORS = "table", "spectators"


def may_write(user_id: int | None, seat: int | None, status: str,
              player: bool = False) -> str:
    """The channel a viewer's line goes to, or the refusal for one who may not write (see
    the module docs): ``player``: the user holds or held a seat of the table."""
    if user_id is None:
        raise ServerError("server.chat.sign_in", 401)
    if seat is None and status == "running":
        if player:  # a bot took their seat: out of the game, yet no kibitzer either
            raise ServerError("server.chat.spectators_read_only", 403, status=status)
        return SPECTATORS
    return TABLE


def is_player(runtime: TableRuntime, user_id: int | None) -> bool:
    """Whether ``user_id`` holds a seat of the table, or held one that a bot took over."""
    return user_id is not None and any(s.user_id == user_id for s in runtime.seats)


def sees(runtime: TableRuntime, user_id: int | None, message: JSON) -> bool:
    """Whether a viewer may be sent ``message`` (a chat line) now: a spectators' line only
    once the game is over, or when the viewer is no player (module docs)."""
    return (message.get("channel", TABLE) != SPECTATORS
            or not hides_spectators_of(runtime.status, runtime.seats, user_id))


def message_json(row: ChatMessage) -> JSON:
    return {"id": row.id, "seat": row.seat, "user_id": row.user_id, "name": row.name,
            "text": row.text, "at": row.created_at, "channel": row.channel or TABLE}


def hides_spectators_of(status: str, seats: Sequence[SeatInfo], user_id: int | None) -> bool:
    """Whether ``user_id`` may not read the spectators' channel of a table with ``status``
    and ``seats`` now: the table is not finished and the user holds or held one of its
    seats (a bot took it over)."""
    return (user_id is not None and status != "finished"
            and any(seat.user_id == user_id for seat in seats))


#: a table's status (not its row with its JSON), built once
_STATUS = select(GameTable.status).where(GameTable.id == bindparam("t"))


def hides_spectators(s: OrmSession, table_id: str, user_id: int | None) -> bool:
    """:func:`hides_spectators_of` as the database says it."""
    if user_id is None:
        return False
    status = s.scalar(_STATUS, {"t": table_id})
    return status is not None and hides_spectators_of(status, read_seats(s, table_id), user_id)


def _recent_query(after: bool, channels: bool) -> Select[ChatMessage]:
    query = select(ChatMessage).where(ChatMessage.table_id == bindparam("t"))
    if after:
        query = query.where(ChatMessage.id > bindparam("after"))
    if channels:
        query = query.where(ChatMessage.channel.in_(bindparam("channels", expanding=True)))
    return query.order_by(ChatMessage.id.desc()).limit(bindparam("n"))


#: :func:`recent`'s statements, built once (each greeting reads the chat): by whether they
#: take lines after an id, and whether only some channels
_RECENT = {(a, c): _recent_query(a, c) for a in (False, True) for c in (False, True)}


def recent(s: OrmSession, table_id: str, n: int, after: int | None = None,
           channels: tuple[str, ...] | None = None) -> list[JSON]:
    """The newest ``n`` lines of a table (those with an id above ``after``, of the
    ``channels`` given: all by default), oldest first."""
    params: dict[str, Any] = {"t": table_id, "n": max(0, n)}
    if after is not None:
        params["after"] = after
    if channels is not None:
        params["channels"] = list(channels)
    query = _RECENT[after is not None, channels is not None]
    rows = s.scalars(query, params).all()
    return [message_json(row) for row in reversed(rows)]


def recent_for(s: OrmSession, table_id: str, user_id: int | None, n: int,
               after: int | None = None) -> list[JSON]:
    """:func:`recent`, without the spectators' channel where the user may not read it."""
    hide = hides_spectators(s, table_id, user_id)
    return recent(s, table_id, n, after, (TABLE,) if hide else None)


def store(s: OrmSession, table_id: str, user_id: int, seat: int | None, text: str,
          channel: str = TABLE) -> JSON:
    """Insert a line and commit; its JSON (with the id the database gave it)."""
    user = s.get(User, user_id)
    name = user.display_name if user is not None else f"user {user_id}"
    row = ChatMessage(table_id=table_id, user_id=user_id, seat=seat, name=name[:64],
                      text=text, channel=channel)
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

    def check(self, user_id: int | None, seat: int | None, status: str, text: str,
              player: bool = False) -> tuple[str, str]:
        """The cleaned line and its channel, or the refusal (who may write, the text, then
        the rate: a refused line costs no token)."""
        channel = may_write(user_id, seat, status, player)
        line = clean_text(text, self.limits.max_chat_chars)
        assert user_id is not None
        if not self.allow(user_id):
            raise ServerError("server.chat.rate_limited", 429,
                              per_minute=self.limits.chat_per_minute,
                              burst=self.limits.chat_burst)
        return line, channel


def chat_of(state: Any, limits: Limits) -> Chat:
    """The :class:`Chat` of an application (``app.state``), made on first use."""
    chat: Chat | None = getattr(state, "chat", None)
    if chat is None:
        chat = Chat(limits)
        state.chat = chat
        hub = getattr(state, "hub", None)
        if hub is not None:  # at the end of a game the players get the spectators' lines
            made = chat
            hub.finish_hooks.append(lambda runtime: hub.spawn(reveal(made, runtime)))
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
        player = is_player(runtime, viewer.user_id)
    try:
        line, channel = chat.check(viewer.user_id, seat, status, text, player)
    except ServerError as exc:
        return _push(viewer, {"type": "error", **exc.to_json()}, re)
    user_id = viewer.user_id
    assert user_id is not None
    async with chat.lock(runtime.id):
        message = await runtime.hub.db(
            lambda s: store(s, runtime.id, user_id, seat, line, channel))
        for other in list(runtime.viewers):
            if other.greeted and sees(runtime, other.user_id, message):
                _push(other, {"type": "chat", "message": message},
                      re if other is viewer else None)
    runtime.announce("chat", message=message)  # the viewers in other processes
    return None


async def welcome(chat: Chat, runtime: TableRuntime, viewer: Viewer,
                  re: str | None = None) -> None:
    """``welcome`` with the newest chat lines (``chat``), under the table's chat lock so
    that a line stored meanwhile is either in the history or sent after it. The table and
    its lines are read in one trip to the database (the channels the viewer may read from
    the table just read)."""
    n = chat.limits.chat_history

    def lines(s: OrmSession, snap: Snapshot) -> list[JSON]:
        hide = hides_spectators_of(snap.status, snap.seats, viewer.user_id)
        return recent(s, runtime.id, n, None, (TABLE,) if hide else None)

    async with chat.lock(runtime.id), runtime.lock:
        history = await runtime.sync_with(lines)
        runtime.audience.welcome(viewer, re, extra={"chat": history})


async def history_since(chat: Chat, runtime: TableRuntime, viewer: Viewer, since: int,
                        re: str | None = None) -> None:
    """``chat_history``: the lines after id ``since`` (the newest ``chat_history`` of them;
    ``complete`` is false when older ones were left out)."""
    n = chat.limits.chat_history
    async with chat.lock(runtime.id):
        lines = await runtime.hub.db(
            lambda s: recent_for(s, runtime.id, viewer.user_id, n + 1, after=since))
        _push(viewer, {"type": "chat_history", "messages": lines[-n:] if n else [],
                       "complete": len(lines) <= n}, re)


async def reveal(chat: Chat, runtime: TableRuntime) -> None:
    """The game of ``runtime`` has ended (in this process's eyes): its players here get the
    spectators' lines as one ``chat_history`` (the newest ``chat_history`` of them;
    ``complete`` false when older ones were left out). Under the chat lock, so that a viewer
    welcomed meanwhile either had them in its history or is greeted before this push."""
    n = chat.limits.chat_history
    async with chat.lock(runtime.id):
        lines = await runtime.hub.db(
            lambda s: recent(s, runtime.id, n + 1, channels=(SPECTATORS,)))
        if not lines:
            return
        message = {"type": "chat_history", "messages": lines[-n:] if n else [],
                   "complete": len(lines) <= n}
        for viewer in list(runtime.viewers):
            if viewer.greeted and is_player(runtime, viewer.user_id):
                viewer.push(message)


def spectators(runtime: TableRuntime | None) -> int:
    """Viewers of a table in this process that hold no seat (anonymous ones included)."""
    if runtime is None:
        return 0
    return sum(1 for v in list(runtime.viewers)
               if not v.closed and runtime.seat_of(v.user_id) is None)
