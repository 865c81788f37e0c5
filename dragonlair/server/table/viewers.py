"""A table's viewers: each WebSocket's queue (:class:`Viewer`), and what each is sent
(:class:`Audience`): the ``welcome``, then the ``update`` after each change, built by the
engine for the viewer's seat alone (a spectator's view, a player's own hand), with the
events it has not been sent yet or, to a client with the ``delta`` feature, what changed
since the view it holds (docs/protocol.md). A viewer is never sent another seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING

import orjson
from fastapi import WebSocket

from dragonlair.core import viewdelta
from dragonlair.core.game import JSON
from dragonlair.server.presence import welcome_part

if TYPE_CHECKING:
    from dragonlair.server.table.runtime import TableRuntime

#: the version of the WebSocket protocol (docs/protocol.md)
PROTOCOL = 1

#: compact JSON text, with one encoder for every message (``json.dumps`` with separators
#: builds a new encoder per call): the fallback of :func:`_encode`
_json_encode = json.JSONEncoder(separators=(",", ":")).encode


def _encode(message: JSON) -> str:
    """The compact JSON text of a message: orjson's (a tenth of the server's CPU per action
    went into the standard library's encoder): the same values as the standard library's
    text (non-ASCII letters as UTF-8 rather than escapes); the standard library's for what
    orjson refuses (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return _json_encode(message)


class Viewer:
    """One WebSocket on a table: its user (``None``: anonymous spectator), what it has been
    sent, and a bounded queue that a writer task drains (a slow viewer never holds a table's
    lock; one that falls too far behind is disconnected and resumes)."""

    def __init__(self, ws: WebSocket, user_id: int | None, max_queued: int) -> None:
        self.ws = ws
        self.user_id = user_id
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(max_queued)
        #: the next event sequence number this viewer needs, and the seat it was counted for
        self.events_seen = 0
        self.seat_seen: int | None = None
        self.greeted = False
        self.closed = False
        #: the text of the last message queued
        self.last = ""
        #: the protocol features this connection asked for in ``hello`` (``delta``)
        self.features: frozenset[str] = frozenset()
        #: with ``delta``: the view it holds (the last sent), which the next delta changes,
        #: and the table status it was last sent
        self.view_sent: JSON | None = None
        self.status_sent: str | None = None

    def push(self, message: JSON | str) -> None:
        """Queue a message (a dict, or its JSON text already encoded)."""
        if self.closed:
            return
        text = message if isinstance(message, str) else _encode(message)
        self.last = text
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    async def write(self) -> None:
        """Send what is queued until closed; then close the socket (1013: try again)."""
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1013)
                return
            await self.ws.send_text(text)


class Audience:
    """What the viewers of a table (:attr:`TableRuntime.viewers`) are sent: built from the
    runtime's state under its lock, queued on each viewer (a slow one never holds the
    lock)."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.rt = runtime

    def view_for(self, viewer: Viewer, since: int | None = None) -> JSON:
        """The engine's view for ``viewer``'s seat with the events it has not been sent (all
        of them after a change of seat; the whole view where a game has no event count)."""
        rt = self.rt
        seat = rt.seat_of(viewer.user_id)
        if since is None:
            since = viewer.events_seen if seat == viewer.seat_seen else 0
        view = rt.state.view(seat, since=since)
        total = view.get("events_total") if isinstance(view, dict) else None
        if isinstance(total, int):
            viewer.events_seen = total
        else:
            view = rt.state.view(seat)
        viewer.seat_seen = seat
        return view

    def update(self, viewer: Viewer, since: int | None = None, re: str | None = None) -> None:
        """The ``update`` for ``viewer``: its seat's view with the events it has not been
        sent; to a viewer with the ``delta`` feature, what changed since the view it holds
        (``delta``), unless it asked for the whole view (``resume``: ``since``) or its seat
        changed (docs/protocol.md, "Deltas")."""
        rt = self.rt
        seat = rt.seat_of(viewer.user_id)
        held = viewer.view_sent if seat == viewer.seat_seen and since is None else None
        view = self.view_for(viewer, since)
        message: JSON = {"type": "update", "seq": rt.seq, "status": rt.status,
                         "seat": seat}
        if viewdelta.FEATURE in viewer.features:
            viewer.view_sent = view
            if isinstance(held, dict) and isinstance(view, dict):
                # the seat is the one of the view held; the status is sent when it changed
                del message["seat"]
                if rt.status == viewer.status_sent:
                    del message["status"]
                message["delta"] = viewdelta.diff(viewdelta.rebased(held), view)
            else:
                message["view"] = view
            viewer.status_sent = rt.status
        else:
            message["view"] = view
        if rt.spec.active:
            message["clock"] = rt.timekeeper.clock_json()
        if re is not None:
            message["re"] = re
        viewer.push(message)

    def broadcast(self) -> None:
        rt = self.rt
        # viewers of the same seat that have been sent the same events get the same update:
        # the engine builds it and JSON encodes it once (spectators, most of all)
        # (with deltas: the same view held before, too: by identity, the views held are kept
        # alive in ``held_views`` until the loop ends so that no id is reused meanwhile)
        sent: dict[tuple[int | None, int, int], tuple[str, int, JSON | None]] = {}
        held_views = [v.view_sent for v in rt.viewers]
        for viewer in list(rt.viewers):
            if not viewer.greeted or viewer.closed:
                continue
            seat = rt.seat_of(viewer.user_id)
            same_seat = seat == viewer.seat_seen
            held = (id(viewer.view_sent) if same_seat and viewer.view_sent is not None else 0) \
                if viewdelta.FEATURE in viewer.features else -1
            key = (seat, viewer.events_seen if same_seat else 0, held)
            done = sent.get(key)
            if done is None:
                self.update(viewer)
                sent[key] = (viewer.last, viewer.events_seen, viewer.view_sent)
            else:
                viewer.push(done[0])
                viewer.events_seen, viewer.seat_seen = done[1], seat
                if held != -1:
                    viewer.view_sent, viewer.status_sent = done[2], rt.status
        del held_views

    def tell(self, message: JSON) -> None:
        """Send ``message`` (the same for everybody) to every greeted viewer here."""
        rt = self.rt
        for viewer in list(rt.viewers):
            if viewer.greeted:
                viewer.push(message)

    def welcome(self, viewer: Viewer, re: str | None = None,
                extra: JSON | None = None) -> None:
        rt = self.rt
        viewer.greeted = True
        seat = rt.seat_of(viewer.user_id)
        viewer.seat_seen, viewer.events_seen = seat, 0
        view = self.view_for(viewer, 0)
        viewer.view_sent = view if viewdelta.FEATURE in viewer.features else None
        viewer.status_sent = rt.status
        message: JSON = {"type": "welcome", "protocol": PROTOCOL, "table": rt.table_json(),
                         "seat": seat, "seq": rt.seq, "view": view}
        if viewer.features:
            message["features"] = sorted(viewer.features)
        if rt.spec.active:
            message["clock"] = rt.timekeeper.clock_json()
        message["presence"] = welcome_part(rt)
        message.update(extra or {})  # e.g. the chat's recent lines (dragonlair/server/chat.py)
        if re is not None:
            message["re"] = re
        viewer.push(message)
