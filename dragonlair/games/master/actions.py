"""Dragon Master's actions and their notation: ``place ruby d4``, chance ``deal egg`` and
``start p1`` (M2, M3), interned once in index order (:data:`ACTIONS`).

Cells are named as on a chess board: columns ``a``-``g``, rows ``1``-``7`` of the 7 x 7
frame (:mod:`.grid` has the rules of placing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from dragonlair.games.master.cards import CARDS

SIZE = 7
CELLS = SIZE * SIZE
COLS = "abcdefg"


def cell_name(cell: int) -> str:
    return f"{COLS[cell % SIZE]}{cell // SIZE + 1}"


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


def _build_actions() -> tuple[list[MasterAction], dict[str, MasterAction]]:
    actions: list[MasterAction] = []
    for card in CARDS:
        for cell in range(CELLS):
            actions.append(MasterAction(Kind.PLACE, card.value, cell, len(actions),
                                        f"place {card.id} {cell_name(cell)}"))
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
