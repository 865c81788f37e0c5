"""The view envelope: one shape for what a seat (or a spectator) may know, in every game.

``state.view(seat, since=N)`` returns plain JSON data of this shape (the engines build
dicts, not models, on their hot paths); the models here describe it, give each game its
published JSON Schema (``dragonlair/games/<game>/schemas/view-<game>.v<N>.json``, docs/views.md) and
validate views in the tests.

    {"schema": "dragonlair-view", "schema_version": 1,
     "game": "fist", "game_version": 1,
     "seat": 0,                      # null: a spectator
     "to_move": [0, 2],              # seats that may act now (several: a sealed bid)
     "chance": false,                # a chance outcome is due (the server draws it)
     "phase": "bid", "turn": 3,
     "public": {...},                # what everyone sees (the game's model)
     "private": {...} | null,        # what only this seat sees (null for a spectator)
     "legal": {...} | null,          # this seat's legal actions, compactly (the game's model)
     "events": [{"seq": 0, "code": "...", "params": {...}}, ...],
     "events_since": 0, "events_total": 57,
     "result": null | {"winners": [...], "placings": [...], "scores": [...],
                       "reason": "<code>", "reason_params": {...}}}

``events`` holds the events this viewer may see with ``seq >= events_since``: a client that
holds everything up to N asks for ``since=N`` and gets only what is new.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_NAME = "dragonlair-view"
#: Changes whenever the envelope or a game's public/private/legal model changes shape.
SCHEMA_VERSION = 1

PublicT = TypeVar("PublicT", bound=BaseModel)
PrivateT = TypeVar("PrivateT", bound=BaseModel)
LegalT = TypeVar("LegalT", bound=BaseModel)


class Strict(BaseModel):
    """Base of every view model: unknown fields are an error, so the schema is the truth."""

    model_config = ConfigDict(extra="forbid")


class FormPart(Strict):
    """One part of an :class:`ActionForm`: the text of each of its options, in order."""

    slot: str | None = Field(description="what an option of this part stands for, named as "
                             "the game's legal part says (a count: option i is i; a flag: "
                             "option 0 without, 1 with; a list: its i-th entry); null: a "
                             "fixed part with one option")
    texts: list[str] = Field(min_length=1, description="each option's text, as written "
                             "into the action (spaces included)")


class ActionForm(Strict):
    """Legal actions written in parts, by the engine alone: every choice of one option per
    part is a legal action, and its text is the chosen options' texts joined in the parts'
    order, nothing in between. A client picks options by their slots and joins the texts,
    or finds the options a text is made of; it never writes a word itself."""

    parts: list[FormPart] = Field(min_length=1)


class EventModel(Strict):
    seq: int = Field(ge=0, description="the event's place among all events of the game")
    code: str = Field(description="a catalogue code, e.g. fist.auction.won")
    params: dict[str, Any]
    to: int | None = Field(default=None, ge=0,
                           description="present on a private event: the one seat it is for")


class ResultModel(Strict):
    winners: list[int]
    placings: list[int]
    scores: list[float]
    reason: str = Field(description="a catalogue code, e.g. fist.end.points_reached")
    reason_params: dict[str, Any]


class Envelope(Strict, Generic[PublicT, PrivateT, LegalT]):
    schema_name: Literal["dragonlair-view"] = Field(alias="schema")
    schema_version: int
    game: str
    game_version: int
    seat: int | None = Field(ge=0, description="the viewer's seat; null for a spectator")
    to_move: list[int] = Field(description="the seats that may act now")
    chance: bool = Field(description="a chance outcome is due")
    phase: str
    turn: int = Field(ge=0)
    public: PublicT
    private: PrivateT | None
    legal: LegalT | None
    events: list[EventModel]
    events_since: int = Field(ge=0)
    events_total: int = Field(ge=0)
    result: ResultModel | None

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def form_part(slot: str | None, texts: Iterable[str]) -> dict[str, Any]:
    """One part of an :class:`ActionForm` as plain data (a fresh list: views are data of
    their own)."""
    return {"slot": slot, "texts": list(texts)}


def envelope_schema(game_id: str, public: type[BaseModel], private: type[BaseModel],
                    legal: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of ``game_id``'s views."""
    model = Envelope[public, private, legal]  # type: ignore[valid-type]
    schema = model.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://dragonlair.invalid/schemas/view-{game_id}.v{SCHEMA_VERSION}.json"
    schema["title"] = f"Dragonlair view: {game_id} (schema version {SCHEMA_VERSION})"
    return schema


def envelope(*, game: str, game_version: int, seat: int | None, to_move: list[int],
             chance: bool, phase: str, turn: int, public: dict[str, Any],
             private: dict[str, Any] | None, legal: dict[str, Any] | None,
             events: list[dict[str, Any]], since: int, total: int,
             result: dict[str, Any] | None) -> dict[str, Any]:
    """A view as plain data, in the envelope's field order (engines call this)."""
    return {
        "schema": SCHEMA_NAME, "schema_version": SCHEMA_VERSION,
        "game": game, "game_version": game_version, "seat": seat,
        "to_move": to_move, "chance": chance, "phase": phase, "turn": turn,
        "public": public, "private": private, "legal": legal,
        "events": events, "events_since": since, "events_total": total,
        "result": result,
    }


def schema_file(game_id: str) -> str:
    return f"view-{game_id}.v{SCHEMA_VERSION}.json"


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the published file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def schema_paths(game_id: str, root: Path | None = None) -> list[Path]:
    """Where a built-in game's view schema is published: in the game's own package
    (``dragonlair/games/<game>/schemas/``, package data, beside everything else about the
    game) and in docs/schemas/."""
    base = root or Path(__file__).resolve().parents[2]
    name = schema_file(game_id)
    return [base / "dragonlair" / "games" / game_id / "schemas" / name,
            base / "docs" / "schemas" / name]


def write_schema(game_id: str, schema: dict[str, Any]) -> int:
    """Write a game's published schema files (each game's ``python -m ...views``)."""
    text = schema_text(schema)
    for path in schema_paths(game_id):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0
