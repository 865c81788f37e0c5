"""What a Dragon Master seat may know (M6), as the view envelope's models and its schema.

``state.view(seat)`` returns plain data in the envelope of :mod:`dragonlair.core.views`;
its ``public``, ``private`` and ``legal`` parts have the shapes of :class:`MasterPublic`,
:class:`MasterPrivate` and :class:`MasterLegal` (docs/views.md). The published schema is
``dragonlair/games/master/schemas/view-master.v1.json`` (and docs/schemas/); regenerate it with
``python -m dragonlair.games.master.views``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from dragonlair.core import views
from dragonlair.core.views import ActionForm, Envelope, Strict, envelope_schema

CardId = Literal["egg", "emerald", "sapphire", "ruby"]
#: a cell of the 7 x 7 frame, ``a1`` .. ``g7`` (the first card goes on ``d4``, M3)
Cell = str
CELL_PATTERN = "^[a-g][1-7]$"


class Box(Strict):
    columns: str = Field(pattern="^[a-g]{1,4}$",
                         description="the columns the placed cards span, e.g. 'bcd'")
    rows: list[int] = Field(min_length=1, max_length=4, description="the rows they span")


class LineScores(Strict):
    columns: list[int] = Field(min_length=4, max_length=4,
                               description="p0's four columns, from the box's left edge")
    rows: list[int] = Field(min_length=4, max_length=4,
                            description="p1's four rows, from the box's bottom edge")


class Placement(Strict):
    seat: int = Field(ge=0, le=1)
    card: CardId
    cell: Cell = Field(pattern=CELL_PATTERN)


class RoundModel(Strict):
    """A finished round (M4): line scores, the winner (null: drawn), who started, the four
    set-aside cards (revealed when the round ends, M6) and its placements in order."""

    columns: list[int] = Field(min_length=4, max_length=4)
    rows: list[int] = Field(min_length=4, max_length=4)
    winner: int | None = Field(ge=0, le=1)
    starter: int = Field(ge=0, le=1)
    set_aside: list[CardId] = Field(min_length=4, max_length=4)
    decided_at: int | None = Field(ge=0, le=3, description="which lines decided, lowest = 0")
    placements: list[Placement] = Field(min_length=16, max_length=16)


class Hand(Strict):
    """Cards per id."""

    egg: int = Field(ge=0, le=5)
    emerald: int = Field(ge=0, le=5)
    sapphire: int = Field(ge=0, le=5)
    ruby: int = Field(ge=0, le=5)


class MasterPublic(Strict):
    """What everyone sees (M6): the grid, whose turn, each hand's size, the rounds so far."""

    round: int = Field(ge=1, description="the round being played (1 = the first)")
    grid: dict[Cell, CardId] = Field(description="the placed cards by cell, {'d4': 'ruby'}")
    box: Box | None = Field(description="the bounding box of the placed cards; null: none yet")
    legal_cells: list[Cell] = Field(description="the cells a card may go on now (M3)")
    hand_sizes: list[int] = Field(min_length=2, max_length=2)
    line_scores: LineScores
    starter: int | None = Field(ge=0, le=1, description="who started this round")
    match: bool
    four_of_a_kind: Literal["100", "100+face"]
    dragons: list[int] = Field(min_length=2, max_length=2, description="dragons won (M5)")
    placements: list[Placement] = Field(max_length=16,
                                        description="this round's placements, in order")
    rounds: list[RoundModel] = Field(description="the finished rounds")


class MasterPrivate(Strict):
    """What only this seat sees: its hand, and what a perfect memory knows (M6)."""

    hand: Hand
    unseen: Hand = Field(description="20 cards minus this hand minus the grid")
    lines: Literal["columns", "rows"] = Field(description="the lines this seat owns (M4)")


class MasterLegal(Strict):
    """This seat's legal placements (M3): any of ``cards`` on any of ``cells``; the action's
    text is ``form``'s (slots ``card`` and ``cell``, options in the order of ``cards`` and
    ``cells``)."""

    action: Literal["place"]
    cards: list[CardId] = Field(min_length=1)
    cells: list[Cell] = Field(min_length=1)
    form: ActionForm = Field(description="every legal placement and its text")


MasterView = Envelope[MasterPublic, MasterPrivate, MasterLegal]

def view_schema() -> dict[str, Any]:
    """The JSON Schema of Dragon Master views."""
    return envelope_schema("master", MasterPublic, MasterPrivate, MasterLegal)


def schema_text() -> str:
    return views.schema_text(view_schema())


def schema_paths(root: Path | None = None) -> list[Path]:
    return views.schema_paths("master", root)


if __name__ == "__main__":
    sys.exit(views.write_schema("master", view_schema()))
