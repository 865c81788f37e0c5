"""Placing a card on the grid (M3): the frame, adjacency and the 4 x 4 box.

Cells live in a 7 x 7 frame (:mod:`.actions` names them: columns ``a``-``g``, rows
``1``-``7``); the first card goes on ``d4`` (the origin), so every legal 4 x 4 box fits in
the frame. Seat 0 owns the columns, seat 1 the rows (M2, M4). The state keeps the legal
cells incrementally, as bits of an int (bit c: cell c): :func:`place` updates them with each
card, :func:`clear` empties the grid for a round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError
from dragonlair.games.master.actions import CELLS, SIZE, Kind, MasterAction, cell_name
from dragonlair.games.master.cards import CARDS

if TYPE_CHECKING:
    from dragonlair.games.master.state import MasterState

ORIGIN = 3 * SIZE + 3  # d4
BOX = 4


def _neighbours(cell: int) -> tuple[int, ...]:
    x, y = cell % SIZE, cell // SIZE
    out = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
            out.append((y + dy) * SIZE + x + dx)
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(c) for c in range(CELLS))

# Cells as bits of an int (bit c: cell c), for the incremental set of legal cells.
_X = tuple(c % SIZE for c in range(CELLS))
_Y = tuple(c // SIZE for c in range(CELLS))
_NEIGHBOUR_MASK = tuple(sum(1 << n for n in NEIGHBOURS[c]) for c in range(CELLS))
ORIGIN_MASK = 1 << ORIGIN


def _within(coord: tuple[int, ...]) -> list[list[int]]:
    """``[a][b]``: the cells whose coordinate lies in ``[b - BOX + 1, a + BOX - 1]``, i.e.
    where a card keeps a box spanning ``a..b`` within ``BOX`` (``a <= b``)."""
    return [[sum(1 << c for c in range(CELLS) if b - BOX < coord[c] < a + BOX)
             for b in range(SIZE)] for a in range(SIZE)]


_X_OK = _within(_X)
_Y_OK = _within(_Y)
#: a card of value v adds 5 ** v to its column's and its row's code (``cards.line_code``)
_POW5 = (1, 5, 25, 125)
_SEAT = ((0,), (1,))
_K_PLACE = Kind.PLACE


def cells_of(mask: int) -> list[int]:
    """The cells of a bit mask, in cell order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def placement_problem(occupied: set[int], cell: int) -> str | None:
    """Why a card may not go on ``cell`` (M3) given the occupied cells, which are public:
    ``"taken"``, ``"origin"`` (the first card goes on d4), ``"not_adjacent"``,
    ``"outside_box"``, or None when it may."""
    if cell in occupied:
        return "taken"
    if not occupied:
        return None if cell == ORIGIN else "origin"
    if not any(n in occupied for n in NEIGHBOURS[cell]):
        return "not_adjacent"
    xs = [c % SIZE for c in occupied] + [cell % SIZE]
    ys = [c // SIZE for c in occupied] + [cell // SIZE]
    if max(xs) - min(xs) >= BOX or max(ys) - min(ys) >= BOX:
        return "outside_box"
    return None


def placement_refusal(grid: Sequence[int], cell: int, legal: Sequence[int]) -> IllegalActionError:
    """The refusal of a card on ``cell`` (not a legal cell now, M3), with its reason as a code:
    ``master.place.cell_taken``, ``master.place.first_on_origin``, ``master.place.not_adjacent``
    or ``master.place.outside_box``; ``grid``: the value on each cell (-1: empty)."""
    occupied = {c for c, v in enumerate(grid) if v >= 0}
    problem = placement_problem(occupied, cell) or "outside_box"
    name = cell_name(cell)
    where = [cell_name(c) for c in legal]
    if problem == "taken":
        return IllegalActionError("master.place.cell_taken", rule="M3", cell=name,
                                  card=CARDS[grid[cell]].id, legal=where)
    if problem == "origin":
        return IllegalActionError("master.place.first_on_origin", rule="M3", cell=name,
                                  origin=cell_name(ORIGIN))
    if problem == "not_adjacent":
        return IllegalActionError("master.place.not_adjacent", rule="M3", cell=name, legal=where)
    return IllegalActionError("master.place.outside_box", rule="M3", cell=name, legal=where)


def clear(state: MasterState) -> None:
    """An empty grid (a new round): only the origin is legal (M3)."""
    state.grid = [-1] * CELLS
    state.occupied = 0  # cells holding a card, as bits
    state.frontier = 0  # empty cells next to a card, as bits
    state.legal_mask = ORIGIN_MASK  # the legal cells (M3), as bits
    state.placed = 0
    state.box = (SIZE, -1, SIZE, -1)  # min x, max x, min y, max y
    state.col_codes = [0] * SIZE
    state.row_codes = [0] * SIZE


def legal_cells(state: MasterState) -> list[int]:
    """Empty cells a card may go on now (M3), in cell order."""
    return cells_of(state.legal_mask)


def place(state: MasterState, seat: int, action: MasterAction) -> None:
    """``seat`` places a card of its hand on a legal cell (M3); the turn passes. A card it
    does not hold, or an illegal cell, is refused (:meth:`MasterState.refusal`)."""
    if (action.kind != _K_PLACE or not state.hands[seat][action.value]
            or not state.legal_mask >> action.cell & 1):
        refusal = state.refusal(seat, action)
        assert refusal is not None
        raise refusal
    v, cell = action.value, action.cell
    hand = state.hands[seat]
    hand[v] -= 1
    if not hand[v]:
        state.hand_masks[seat] &= ~(1 << v)
    state.grid[cell] = v
    occupied = state.occupied | 1 << cell
    state.occupied = occupied
    frontier = (state.frontier | _NEIGHBOUR_MASK[cell]) & ~occupied
    state.frontier = frontier
    x, y = _X[cell], _Y[cell]
    x0, x1, y0, y1 = state.box
    if x < x0:
        x0 = x
    if x > x1:
        x1 = x
    if y < y0:
        y0 = y
    if y > y1:
        y1 = y
    state.box = (x0, x1, y0, y1)
    state.legal_mask = frontier & _X_OK[x0][x1] & _Y_OK[y0][y1]
    state.col_codes[x] += _POW5[v]
    state.row_codes[y] += _POW5[v]
    state.placed += 1
    state.player = 1 - seat
    state.to_move = _SEAT[1 - seat]
