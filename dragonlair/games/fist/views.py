"""What a Fist of Dragonstones seat may know (F8), as the view envelope's models and schema.

``state.view(seat)`` returns plain data in the envelope of :mod:`dragonlair.core.views`;
its ``public``, ``private`` and ``legal`` parts have the shapes of :class:`FistPublic`,
:class:`FistPrivate` and :class:`FistLegal` (docs/views.md). The published schema is
``dragonlair/games/fist/schemas/view-fist.v1.json`` (and docs/schemas/); regenerate it with
``python -m dragonlair.games.fist.views``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from dragonlair.core import views
from dragonlair.core.views import ActionForm, Envelope, Strict, envelope_schema

Colour = Literal["red", "blue", "yellow"]
#: a card id: a built-in character or a custom one (F9)
CardId = str
Seat = int
Decision = Literal["double", "choice", "pay", "colour_gain", "colour_troll", "colour_rainbow",
                   "steal", "target", "pick_ghost", "pick_imp", "buy", "necro", "rainbow_more"]
Phase = Literal["setup", "special", "reveal", "bid", "tiebid", "decide", "power_chance",
                "over"]


class Stones(Strict):
    red: int = Field(ge=0, le=12)
    blue: int = Field(ge=0, le=12)
    yellow: int = Field(ge=0, le=12)


class Bank(Strict):
    """What no player holds (F1); Black Magic coins never run short."""

    fairy: int = Field(ge=0, le=60)
    silver: int = Field(ge=0, le=40)
    common: int = Field(ge=0, le=15)
    amulet: int = Field(ge=0, le=2)
    black: int = Field(ge=0, le=2)
    stones: Stones


class SeatPublic(Strict):
    """What everyone sees of a seat (F3.3, F8): score, stones, the Doppelganger."""

    seat: Seat = Field(ge=0, le=5)
    score: int = Field(ge=0, le=3)
    stones: Stones
    doppelganger: bool = Field(description="holds the Doppelganger face up (F7)")
    has_bid: bool | None = Field(description="during a sealed bid: whether this seat has "
                                 "handed in its bid (F8: nothing more); else null")


class Options(Strict):
    players: int = Field(ge=3, le=6)
    max_turns: int | None = Field(ge=1)
    custom: list[dict[str, Any]] = Field(description="custom characters, as data (F9)")
    specials: Literal["custom"] | None = Field(
        default=None, description="'custom': the special deck holds only the custom characters "
        "(F9); absent: every special character")


class FistPublic(Strict):
    """What everyone sees (F8)."""

    players: int = Field(ge=3, le=6)
    options: Options
    card: CardId | None = Field(description="the card up for auction or being resolved")
    tie_break: list[Seat] = Field(description="the seats in the Silver tie-break (F5.7)")
    winner: Seat | None = Field(description="the auction's winner, while its power runs")
    pile: list[CardId] = Field(description="this turn's cards not yet auctioned, sorted "
                               "(their order is hidden from all, F4.2)")
    auctioned: list[CardId] = Field(description="this turn's cards revealed so far, in order")
    turn_specials: list[CardId] = Field(description="this turn's special cards (F4.1)")
    special_deck_size: int = Field(ge=0)
    special_discard: list[CardId]
    doppelganger_holder: Seat | None
    bank: Bank
    drawn: Stones = Field(description="stones a Rainbow Dragon has drawn, not yet kept")
    rainbow_colour: Colour | None = Field(description="the colour a Rainbow Dragon named")
    second_highest: list[Seat] = Field(description="the second-highest bidders (F5, Thief)")
    seats: list[SeatPublic]
    decision: Decision | None = Field(description="what the winner is deciding")
    history: list[str] = Field(description="the record so far (`p0: bid f3 c1`); sealed bids "
                               "not yet revealed read `pN: sealed` (F8)")


class FistPrivate(Strict):
    """This seat's screen (F3.3, F8)."""

    fairy: int = Field(ge=0, le=60, description="unspent Fairy Gold")
    fairy_spent: int = Field(ge=0, le=60, description="bid this turn, back at F4.4")
    common: int = Field(ge=0, le=15)
    silver: int = Field(ge=0, le=40)
    black: int = Field(ge=0)
    amulet: int = Field(ge=0, le=2)
    bid: str | None = Field(description="this seat's sealed bid handed in, not yet revealed")


class BidLimits(Strict):
    """A sealed bid (F5.1): any Fairy Gold up to ``fairy``, any Common Gold up to ``common``,
    optionally one Black Magic coin and one Red Amulet if ``black`` / ``amulet``. The
    action's text is the legal part's ``form`` (slots ``fairy``, ``common``, ``black``,
    ``amulet``)."""

    fairy: int = Field(ge=0, le=60)
    common: int = Field(ge=0, le=15)
    black: bool
    amulet: bool


class SilverLimits(Strict):
    """A tie-break bid (F5.7): any Silver up to ``silver``, optionally the Red Amulet. The
    action's text is the legal part's ``form`` (slots ``silver``, ``amulet``)."""

    silver: int = Field(ge=0, le=40)
    amulet: bool


class ChoiceModel(Strict):
    """One option of a power decision: its action text and index, and a catalogue code with
    params to show it (``fist.choice.*``)."""

    action: str
    index: int = Field(ge=0)
    code: str
    params: dict[str, Any]


class FistLegal(Strict):
    """The legal actions of the seat to move, compactly: limits for a bid with the form its
    texts are written in, the list of choices for a power decision."""

    kind: Literal["bid", "silver", "decision"]
    bid: BidLimits | None
    silver: SilverLimits | None
    decision: Decision | None
    card: CardId | None = Field(description="the card whose power asks")
    choices: list[ChoiceModel] | None
    form: ActionForm | None = Field(description="a bid (slots fairy, common, black, amulet) "
                                    "or tie-break bid (slots silver, amulet): every legal one "
                                    "and its text; null for a decision (its choices carry "
                                    "their texts)")


FistView = Envelope[FistPublic, FistPrivate, FistLegal]

def view_schema() -> dict[str, Any]:
    """The JSON Schema of Fist of Dragonstones views."""
    return envelope_schema("fist", FistPublic, FistPrivate, FistLegal)


def schema_text() -> str:
    return views.schema_text(view_schema())


def schema_paths(root: Path | None = None) -> list[Path]:
    return views.schema_paths("fist", root)


if __name__ == "__main__":
    sys.exit(views.write_schema("fist", view_schema()))
