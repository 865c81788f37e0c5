"""Dragon Master's actions and their notation: ``place ruby d4``, chance ``deal egg`` and
``start p1`` (M2, M3), interned once in index order (:data:`ACTIONS`).

Cells are named as on a chess board: columns ``a``-``g``, rows ``1``-``7`` of the 7 x 7
frame (:mod:`.grid` has the rules of placing).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from dragonlair.core.views import form_part
from dragonlair.games.master.cards import CARDS

SIZE = 7
CELLS = SIZE * SIZE
COLS = "abcdefg"


def cell_name(cell: int) -> str:
    return f"{COLS[cell % SIZE]}{cell // SIZE + 1}"


#: every cell's name, by cell (views read names from here)
CELL_NAMES = tuple(cell_name(cell) for cell in range(CELLS))


def cell_index(name: str) -> int | None:
    """``"d4"`` -> its cell, or None if it is not a cell of the frame."""
    if len(name) == 2 and name[0] in COLS and name[1] in "1234567":
        return (int(name[1]) - 1) * SIZE + COLS.index(name[0])
    return None


class Kind(IntEnum):
    PLACE = 0
    DEAL = 1
    START = 2


@dataclass(frozen=True, slots=True)
class MasterAction:
    """``place ruby d4``, or chance ``deal egg`` / ``start p1``.

    ``kind``: what it does; ``value``: the card's value (``CARDS[value]``) placed or dealt,
    or for ``start`` the seat that starts; ``cell``: where a card is placed (0 otherwise);
    ``index``: its place in the action space; ``text``: its canonical text."""

    kind: Kind
    value: int = 0
    cell: int = 0
    index: int = field(default=-1, compare=False)
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"MasterAction({self.text!r})"


#: the parts a placement's text is written of (M3): ``place`` + ``CARD_TEXT[value]`` +
#: ``CELL_TEXT[cell]``; the action texts and the views' action form (:func:`place_form`)
#: are both written from them
PLACE_WORD = "place"
CARD_TEXT = tuple(f" {card.id}" for card in CARDS)
CELL_TEXT = tuple(f" {cell_name(cell)}" for cell in range(CELLS))


def place_form(values: Iterable[int], cells: Iterable[int]) -> dict[str, Any]:
    """Any of these cards (values) on any of these cells, as an action form
    (:class:`dragonlair.core.views.ActionForm`): slots ``card`` and ``cell``, whose options
    are the legal part's ``cards`` and ``cells`` in their order."""
    return {"parts": [form_part(None, (PLACE_WORD,)),
                      form_part("card", (CARD_TEXT[v] for v in values)),
                      form_part("cell", (CELL_TEXT[c] for c in cells))]}


def _build_actions() -> tuple[list[MasterAction], dict[str, MasterAction]]:
    actions: list[MasterAction] = []
    for card in CARDS:
        for cell in range(CELLS):
            actions.append(MasterAction(Kind.PLACE, card.value, cell, len(actions),
                                        PLACE_WORD + CARD_TEXT[card.value] + CELL_TEXT[cell]))
    for card in CARDS:
        actions.append(MasterAction(Kind.DEAL, card.value, 0, len(actions), f"deal {card.id}"))
    for seat in (0, 1):
        actions.append(MasterAction(Kind.START, seat, 0, len(actions), f"start p{seat}"))
    return actions, {a.text: a for a in actions}


ACTIONS, BY_TEXT = _build_actions()
#: ``PLACE[value][cell]``, ``DEAL[value]``, ``START[seat]``: the interned actions
PLACE = [[ACTIONS[v * CELLS + c] for c in range(CELLS)] for v in range(4)]
DEAL = [ACTIONS[4 * CELLS + v] for v in range(4)]
START = [ACTIONS[4 * CELLS + 4 + s] for s in range(2)]
