"""The play protocol's messages as models, and their published JSON Schema.

The WebSocket protocol (docs/protocol.md) is JSON objects with a ``type``. What a client may
send is declared where the server reads it (``dragonlair.server.ws.MODELS``: ``hello``,
``act``, ``resume``, ``ping``, ``chat``, ``resign``); what the server sends is declared here
(``welcome``, ``ack``, ``update``, ``error``, ``pong``, ``chat``, ``chat_history``,
``takeover``, ``resigned``, ``presence``). Both are published as
one JSON Schema document, ``protocol.v<N>.json``, in ``dragonlair/schemas/`` (package data)
and ``docs/schemas/``; regenerate both after changing a model with::

    python -m dragonlair.server.protocol

A test fails when the committed files differ from the models, and validates every message of
whole test games against them. The views inside ``welcome`` and ``update`` are the engines'
envelopes (``dragonlair.core.views``; each game's own parts in ``view-<game>.v1.json``).
A server message that gains a field needs it here too (the models forbid unknown fields, so
the schema stays the truth); a client ignores fields it does not know.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from dragonlair.core.views import Envelope, ResultModel, schema_text

#: the protocol version (``hello.protocol``, ``welcome.protocol``);
#: ``dragonlair.server.table.viewers.PROTOCOL`` agrees
PROTOCOL_VERSION = 1
SCHEMA_ID = f"https://dragonlair.invalid/schemas/protocol.v{PROTOCOL_VERSION}.json"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Out(_Strict):
    re: str | None = Field(default=None, max_length=64,
                           description="the `id` of the client message this answers")


class Part(BaseModel):
    """A game's own part of a view (``public``, ``private``, ``legal``): see the game's
    ``view-<game>.v1.json``."""

    model_config = ConfigDict(extra="allow")


class View(Envelope[Part, Part, Part]):
    """The engine's view for the receiver's seat (docs/views.md)."""


class SeatOut(_Strict):
    seat: int = Field(ge=0)
    kind: str = Field(description="`open`, `human` or `bot`")
    user_id: int | None
    bot: str | None = Field(description="a bot seat's bot name")
    name: str | None = Field(description="the display name of a person's seat")


class TableOut(_Strict):
    id: str
    game: str
    status: str = Field(description="`open`, `running` or `finished`")
    seats: list[SeatOut]
    result: ResultModel | None


class ChatLine(_Strict):
    id: int
    seat: int | None = Field(description="the writer's seat then; null: a spectator")
    user_id: int
    name: str
    text: str = Field(description="plain text: clients escape it")
    at: float = Field(description="seconds since the epoch")
    channel: Literal["table", "spectators"] = Field(
        default="table", description="`table`: every viewer's; `spectators`: a spectator's "
                                     "line while the game ran (players get it after the end)")


class SeatClockOut(_Strict):
    seat: int = Field(ge=0)
    remaining: float = Field(ge=0, description="seconds left when the message was built")
    running: bool
    deadline: float | None = Field(description="server time at which it runs out; null: "
                                               "not to move")


class ClockOut(_Strict):
    """A table's clocks (docs/protocol.md, "Clocks"): ``realtime`` (a bank per seat plus
    ``increment`` per move, capped at ``maximum``) or ``turn`` (``hours`` per move)."""

    kind: Literal["realtime", "turn"]
    initial: float | None = None
    increment: float | None = None
    maximum: float | None = None
    hours: float | None = None
    now: float = Field(description="the server's time (seconds since the epoch)")
    seats: list[SeatClockOut]


class PresenceSeat(_Strict):
    """A seat held by a person: connected (any of their sockets on the table), since when
    not, and when the away policy's bot takes the seat (docs/protocol.md, "Presence")."""

    seat: int = Field(ge=0)
    connected: bool
    since: float | None = Field(description="server time the person was last connected; "
                                "null: connected")
    takeover_at: float | None = Field(description="server time the table's takeover bot "
                                      "takes the seat unless the person comes back; null: "
                                      "it will not (connected, game not running, or the "
                                      "table waits)")


class AwayOut(_Strict):
    kind: Literal["bot", "wait"]
    seconds: float | None = None


class PresenceInfo(_Strict):
    """Who is connected (the ``presence`` part of ``welcome``)."""

    now: float = Field(description="the server's time (seconds since the epoch)")
    away: AwayOut = Field(description="the table's away policy")
    seats: list[PresenceSeat] = Field(description="one entry per seat held by a person")


class Presence(PresenceInfo, _Out):
    """Sent to every viewer when a person's presence or a countdown changes."""

    type: Literal["presence"]


class Welcome(_Out):
    """The answer to ``hello``: the table, the receiver's seat (null: a spectator), the log
    length and the whole view (all events)."""

    type: Literal["welcome"]
    protocol: int
    table: TableOut
    seat: int | None
    seq: int = Field(ge=0, description="the action log's length")
    view: View
    chat: list[ChatLine] = Field(default_factory=list, description="the newest chat lines")
    features: list[str] | None = Field(default=None, description="the features of "
                                       "`hello.features` this server turned on; absent: none")
    clock: ClockOut | None = Field(default=None, description="absent: the table has no clock")
    presence: PresenceInfo | None = Field(default=None, description="who is connected")


class Ack(_Out):
    """An ``act`` was accepted and committed; ``seq`` is the log length after it."""

    type: Literal["ack"]
    key: str
    seq: int = Field(ge=0)


class Update(_Out):
    """After every change: the view for the receiver's seat with the events it has not been
    sent (from ``view.events_since``). To a client that asked for the ``delta`` feature, only
    what changed since the view it holds (``delta``) instead of ``view``, except after
    ``resume`` and a change of seat (docs/protocol.md, "Deltas")."""

    type: Literal["update"]
    seq: int = Field(ge=0)
    status: str | None = Field(default=None, description="absent (only in an update with "
                               "`delta`): the status last sent")
    seat: int | None = Field(default=None, description="`null`: a spectator; absent (only "
                             "in an update with `delta`): the seat of the view held")
    view: View | None = Field(default=None, description="the whole view; absent: `delta`")
    delta: dict[str, Any] | None = Field(
        default=None, description="with the `delta` feature: the patch turning the view "
        "held (its `events_since` set to its `events_total`) into this one: each key names "
        "a key (or a list's index) there, its value a patch one level down (an object), "
        "`[value]` (set), `[]` (remove the key) or `[at, items]` (the list keeps `at` items, "
        "then `items`)")
    clock: ClockOut | None = Field(default=None, description="absent: the table has no clock")


class Error(_Out):
    """A refusal: a catalogue code (the engine's or ``server.*``) with params; nothing
    changed."""

    type: Literal["error"]
    code: str
    params: dict[str, Any]
    rule: str | None


class Pong(_Out):
    type: Literal["pong"]


class ChatPosted(_Out):
    """A chat line, sent to every viewer once stored."""

    type: Literal["chat"]
    message: ChatLine


class ChatHistory(_Out):
    """The chat lines after ``resume.chat_since``."""

    type: Literal["chat_history"]
    messages: list[ChatLine]
    complete: bool


class Takeover(_Out):
    """A bot took ``seat`` (its player's time ran out, they left or resigned) when the log
    was at ``seq``; an ``update`` follows."""

    type: Literal["takeover"]
    seat: int = Field(ge=0)
    bot: str
    reason: str = Field(description="`timeout`, `left`, `resigned` or `away`")
    seq: int = Field(ge=0)


class Resigned(_Out):
    """The answer to ``resign``: the seat given up."""

    type: Literal["resigned"]
    seat: int = Field(ge=0)


class RematchNote(_Out):
    """The rematch offer of a finished table (docs/protocol.md, "Rematch"), to every viewer
    at each change and after a ``welcome``."""

    type: Literal["rematch"]
    state: Literal["none", "offered", "declined", "expired", "started"]
    accepted: list[int] = Field(description="the seats (of the finished table) that accepted")
    asked: list[int] = Field(description="the seats whose people are asked")
    expires_at: float | None = Field(default=None, description="server time the offer ends")
    by: int | None = Field(default=None, description="`declined`: the seat that declined")
    table: str | None = Field(default=None, description="`started`: the new table's id")


#: what the server sends, by type
SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "welcome": Welcome, "ack": Ack, "update": Update, "error": Error, "pong": Pong,
    "chat": ChatPosted, "chat_history": ChatHistory, "takeover": Takeover,
    "resigned": Resigned, "presence": Presence, "rematch": RematchNote,
}


def client_messages() -> dict[str, type[BaseModel]]:
    """What a client may send, by type (read by the server: ``ws.MODELS``)."""
    from dragonlair.server.ws import MODELS

    return dict(MODELS)


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema document of every message: ``$defs/ClientMessage`` (any message a
    client sends), ``$defs/ServerMessage`` (any the server sends), one definition each."""
    clients, servers = client_messages(), SERVER_MESSAGES
    models = [(m, "validation") for m in (*clients.values(), *servers.values())]
    _, doc = models_json_schema(models, ref_template="#/$defs/{model}")  # type: ignore[arg-type]
    defs: dict[str, Any] = copy.deepcopy(doc["$defs"])
    for kind, model in clients.items():  # the server reads `type` as a string: pin it
        props = defs[model.__name__]["properties"]
        props["type"] = {"const": kind, "type": "string", "title": "Type"}
    defs["ClientMessage"] = {"oneOf": [{"$ref": f"#/$defs/{m.__name__}"}
                                       for m in clients.values()]}
    defs["ServerMessage"] = {"oneOf": [{"$ref": f"#/$defs/{m.__name__}"}
                                       for m in servers.values()]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"Dragonlair play protocol, version {PROTOCOL_VERSION}",
        "description": "Every WebSocket message of /ws/tables/{id} (docs/protocol.md): "
                       "$defs/ClientMessage from a client, $defs/ServerMessage from the "
                       "server.",
        "protocol": PROTOCOL_VERSION,
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(defs.items())),
    }


def schema_file() -> str:
    return f"protocol.v{PROTOCOL_VERSION}.json"


def schema_paths(root: Path | None = None) -> list[Path]:
    """Where the schema is published: in the package and in docs/."""
    base = root or Path(__file__).resolve().parents[2]
    return [base / "dragonlair" / "schemas" / schema_file(),
            base / "docs" / "schemas" / schema_file()]


def published_schema() -> dict[str, Any]:
    """The schema as the installed package ships it."""
    import json
    from importlib import resources

    text = resources.files("dragonlair.schemas").joinpath(schema_file()).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def main(argv: list[str] | None = None) -> int:
    """Write the published schema files (``python -m dragonlair.server.protocol``)."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else None
    text = schema_text(protocol_schema())
    for path in schema_paths(root):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
