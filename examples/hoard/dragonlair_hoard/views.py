"""What a seat of Dragon's Hoard sees, as the view envelope's models and its JSON Schema.

The game has no secrets (every seat and spectator sees the same public part), so the private
part is an empty object. ``public.summary`` and ``legal.choices`` are catalogue codes with
params: an interface without a screen of its own for this game (the browser's generic
screen, the generic terminal session) renders them in the reader's language.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from dragonlair.core.views import Envelope, Strict, envelope_schema


class Line(Strict):
    code: str = Field(description="a catalogue code, e.g. hoard.summary.hoard")
    params: dict[str, Any]


class HoardPublic(Strict):
    target: int = Field(ge=1, description="the gold a hoard needs to win (H5)")
    max_turns: int = Field(ge=1, description="rounds before the richest hoard wins (H5)")
    hoards: list[int] = Field(min_length=2, max_length=4, description="each seat's banked gold")
    roller: int = Field(ge=0, description="the seat whose turn it is")
    turn_gold: int = Field(ge=0, description="gold rolled this turn, not yet banked (H2)")
    last_roll: int | None = Field(ge=1, le=6, description="the die's last face, if any")
    summary: list[Line] = Field(description="the position in words, for generic screens")


class HoardPrivate(Strict):
    """Nothing is secret in Dragon's Hoard."""


class Choice(Strict):
    action: Literal["roll", "bank"]
    code: str
    params: dict[str, Any]


class HoardLegal(Strict):
    actions: list[Literal["roll", "bank"]] = Field(min_length=1)
    choices: list[Choice] = Field(min_length=1)


HoardView = Envelope[HoardPublic, HoardPrivate, HoardLegal]


def view_schema() -> dict[str, Any]:
    """The JSON Schema of Dragon's Hoard views."""
    return envelope_schema("hoard", HoardPublic, HoardPrivate, HoardLegal)
