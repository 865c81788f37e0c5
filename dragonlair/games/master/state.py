"""The Dragon Master engine: one authoritative, mutable state (rules M1-M6).

This module keeps the state's fields and the contract of :class:`dragonlair.core.game.State`
(seats to move, legal actions, chance, ``apply`` dispatching to the rules, the outcome,
clones); the rules live by concern:

* :mod:`.actions` -- the action space and the cells' names (``place ruby d4``);
* :mod:`.grid` -- placing a card: the frame, adjacency, the 4 x 4 box (M3);
* :mod:`.rounds` -- the deal and the start player (M2), scoring a round (M4), the match (M5);
* :mod:`.viewing` -- the events and what each seat may know (M6); :mod:`.snapshot` -- the
  state as JSON.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import chain
from operator import getitem
from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE, JSON, Outcome, State, check_seat_range
from dragonlair.core.records import entries_up_to
from dragonlair.games.master import rounds, viewing
from dragonlair.games.master.actions import (
    ACTIONS,
    BY_TEXT,
    CELL_NAMES,
    CELLS,
    COLS,
    DEAL,
    PLACE,
    SIZE,
    START,
    Kind,
    MasterAction,
    cell_index,
    cell_name,
)
from dragonlair.games.master.cards import CARDS, HAND
from dragonlair.games.master.grid import (
    BOX,
    NEIGHBOURS,
    ORIGIN,
    cells_of,
    place,
    placement_problem,
    placement_refusal,
)
from dragonlair.games.master.rounds import (
    DEAL_OUTCOMES,
    START_OUTCOMES,
    Phase,
    RoundResult,
    apply_chance,
    deal_outcomes,
    score_round,
)

if TYPE_CHECKING:
    from dragonlair.games.master.game import MasterGame

# the names other modules and tests import from here
__all__ = ["ACTIONS", "BOX", "BY_TEXT", "CELLS", "COLS", "DEAL", "HAND", "NEIGHBOURS",
           "ORIGIN", "PLACE", "SIZE", "START", "Kind", "MasterAction", "MasterState",
           "Phase", "RoundResult", "cell_index", "cell_name", "placement_problem",
           "placement_refusal"]

#: a mask of cells read a byte at a time (cells 8j to 8j + 7: byte j, little-endian)
_BYTES = (CELLS + 7) // 8


def _byte_places(v: int, j: int, byte: int) -> tuple[MasterAction, ...]:
    """The placements of value ``v`` on the cells of ``byte``, byte ``j`` of a mask of
    cells, in cell order."""
    cells = [8 * j + b for b in range(8) if byte >> b & 1]
    return tuple(PLACE[v][c] for c in cells if c < CELLS)


#: _BYTE_PLACES[v][j][byte]: :func:`_byte_places`, tabulated once
_BYTE_PLACES = tuple(tuple(tuple(_byte_places(v, j, byte) for byte in range(256))
                           for j in range(_BYTES)) for v in range(4))
#: by mask of the values in hand: the tables of _BYTE_PLACES to read, value by value, and how
#: many values (the mask's bytes are read once per value)
_HAND_TABLES = tuple(tuple(t for v in range(4) if hand >> v & 1 for t in _BYTE_PLACES[v])
                     for hand in range(16))
_HAND_VALUES = tuple(hand.bit_count() for hand in range(16))

#: Legal placements by ``legal cells mask << 4 | mask of the values in hand`` (_LEGAL), and
#: by legal cells mask the cells any value may go on and their names (_ALL_VALUES), shared
#: by all states. Each cache has two generations: when the new one is full it becomes the
#: old one (entries found there are promoted), so that memory stays bounded (about 30 MB at
#: most, measured). They live here, next to legal_actions, which reads _LEGAL as a global
#: of this module (a generation swap rebinds it).
_LEGAL: dict[int, tuple[MasterAction, ...]] = {}
_LEGAL_OLD: dict[int, tuple[MasterAction, ...]] = {}
_ALL_VALUES: dict[int, tuple[tuple[int, ...], tuple[str, ...]]] = {}
_ALL_VALUES_OLD: dict[int, tuple[tuple[int, ...], tuple[str, ...]]] = {}
_CACHE_MAX = 1 << 15


def legal_cells_named(mask: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The cells of a mask of legal cells, in cell order, and their names (cached)."""
    global _ALL_VALUES, _ALL_VALUES_OLD
    entry = _ALL_VALUES.get(mask)
    if entry is None:
        entry = _ALL_VALUES_OLD.get(mask)
        if entry is None:
            cells = tuple(cells_of(mask))
            entry = (cells, tuple([CELL_NAMES[c] for c in cells]))
        if len(_ALL_VALUES) >= _CACHE_MAX:
            _ALL_VALUES_OLD, _ALL_VALUES = _ALL_VALUES, {}
        _ALL_VALUES[mask] = entry
    return entry


def _legal_placements(key: int) -> tuple[MasterAction, ...]:
    """Every placement of a value in hand (bits 0-3 of ``key``) on a legal cell (bits 4 and
    up), by value then cell: a miss of MasterState.legal_actions' cache."""
    global _LEGAL, _LEGAL_OLD
    legal = _LEGAL_OLD.get(key)
    if legal is None:  # each value in hand, then each byte of the legal cells' mask
        hand = key & 15
        legal = tuple(chain.from_iterable(map(
            getitem, _HAND_TABLES[hand],
            (key >> 4).to_bytes(_BYTES, "little") * _HAND_VALUES[hand])))
    if len(_LEGAL) >= _CACHE_MAX:
        _LEGAL_OLD, _LEGAL = _LEGAL, {}
    _LEGAL[key] = legal
    return legal


# enum members as module globals: a global is read several times faster than a member
_DEAL, _START, _PLACE = Phase.DEAL, Phase.START, Phase.PLACE
_K_PLACE = Kind.PLACE
#: rounds.DEAL_OUTCOMES under a name bound here: Python 3.11 compiles ``name.get(...)`` as an
#: attribute load and a call (a bound method made each time) when ``name`` is imported
_DEALS = DEAL_OUTCOMES


class MasterState(State[MasterAction]):
    """A Dragon Master position (a single round, or a match of rounds, M5)."""

    num_players = 2

    # the round in play (set by rounds.new_round, grid.clear and the rules)
    #: the value on each cell (-1: empty)
    grid: list[int]
    #: per seat, the count of each value in hand, and the values held as bits
    hands: list[list[int]]
    hand_masks: list[int]
    #: cells holding a card, empty cells next to one, the legal cells (M3): bits of an int
    occupied: int
    frontier: int
    legal_mask: int
    #: the count of each value not dealt yet (set aside once the deal is over)
    deck: list[int]
    dealt: int
    placed: int
    #: the box of the cards placed: min x, max x, min y, max y
    box: tuple[int, int, int, int]
    #: each column's and row's content as ``cards.line_code``
    col_codes: list[int]
    row_codes: list[int]
    player: int
    starter: int
    phase: Phase
    to_move: tuple[int, ...]

    def __init__(self, game: MasterGame) -> None:
        self.game = game
        self.table = game.table
        self.dragons = [0, 0]
        self.rounds: list[RoundResult] = []
        self._history: list[tuple[int, MasterAction]] = []
        self._log_list: list[str] = []  # the record entries of _history, written on demand
        self.round_start = 0  # index in history where this round began
        self.winners: tuple[int, ...] = ()
        #: why the game ended: a catalogue code and its params (master.end.*)
        self.end_reason = ""
        self.end_params: JSON = {}
        # events follow from the history and are written on demand (viewing.sync_events):
        # the history entries already told, and the round (number, first entry) they are in
        self._ev_at = 0
        self._ev_round = (0, 0)
        rounds.new_round(self)

    # ------------------------------------------------------------------ contract
    def current_seats(self) -> tuple[int, ...]:
        return self.to_move

    @property
    def history(self) -> Sequence[tuple[int, MasterAction]]:
        return self._history

    def turn_count(self) -> int:
        return len(self.rounds) + (1 if self.phase != Phase.OVER else 0)

    @property
    def _log(self) -> list[str]:
        """The history as record entries (``p0: place ruby d4``, ``chance: deal egg``)."""
        return entries_up_to(self._log_list, self._history)

    def legal_actions(self, seat: int) -> Sequence[MasterAction]:
        if seat != self.player or self.phase != _PLACE or type(seat) is not int:
            check_seat_range(seat, 2, chance=True)  # SeatError if no seat
            return ()
        key = self.legal_mask << 4 | self.hand_masks[seat]
        got = _LEGAL.get(key)
        return got if got is not None else _legal_placements(key)

    def chance_outcomes(self) -> Sequence[tuple[MasterAction, float]]:
        phase = self.phase
        if phase == _DEAL:  # a table listed once per deck (immutable: the same every time)
            d = self.deck
            got = _DEALS.get(((d[0] * 6 + d[1]) * 6 + d[2]) * 6 + d[3])
            return (got if got is not None else deal_outcomes(d))[3]
        if phase == _START:
            return START_OUTCOMES
        return []

    def sample_chance(self, rng: random.Random) -> MasterAction:
        """As :meth:`State.sample_chance` (the same draw from ``rng``), from cached sums."""
        if self.phase == _DEAL:
            d = self.deck
            got = _DEALS.get(((d[0] * 6 + d[1]) * 6 + d[2]) * 6 + d[3])
            actions, _, sums, _ = got if got is not None else deal_outcomes(d)
            i = bisect_right(sums, rng.random())  # the first running sum above the draw
            return actions[i] if i < len(actions) else actions[-1]
        return super().sample_chance(rng)

    def apply(self, seat: int, action: MasterAction) -> None:
        if seat not in self.to_move or type(seat) is not int:
            self.check_seat(seat)
        if seat == CHANCE:
            apply_chance(self, action)  # a deal or the start player (M2)
        else:
            place(self, seat, action)  # M3
        self._history.append((seat, action))
        if self.placed == 16 and self.phase == _PLACE:
            score_round(self)  # M4, M5

    def refusal(self, seat: int, action: MasterAction) -> IllegalActionError | None:
        """Why ``seat`` may not place ``action`` now (M3), as a coded error; None if it may.
        The one judge of a placement: :meth:`apply` and the interfaces ask it."""
        if action.kind != _K_PLACE:
            return IllegalActionError("master.place.not_a_placement", rule="M3", seat=seat,
                                      action=str(action))
        if seat != self.player or self.phase != _PLACE:
            return IllegalActionError("master.turn.not_to_move", rule="M3", seat=seat)
        v, cell = action.value, action.cell
        if not self.hands[seat][v]:
            return IllegalActionError("master.place.card_not_in_hand", rule="M3", seat=seat,
                                      card=CARDS[v].id)
        if not (0 <= cell < CELLS and self.legal_mask >> cell & 1):
            return placement_refusal(self.grid, cell, self.legal_cells())
        return None

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.OVER:
            return None
        if self.game.match:
            scores = (float(self.dragons[0]), float(self.dragons[1]))
        else:
            last = self.rounds[-1]
            scores = (float(min(last.columns)), float(min(last.rows)))
        if self.winners:
            w = self.winners[0]
            placings = (1, 2) if w == 0 else (2, 1)
        else:
            placings = (1, 1)
        return Outcome(self.winners, placings, self.end_reason, scores,
                       dict(self.end_params))

    def clone(self) -> MasterState:
        s = copy.copy(self)
        s.grid = self.grid[:]
        s.hands = [h[:] for h in self.hands]
        s.hand_masks = self.hand_masks[:]
        s.deck = self.deck[:]
        s.col_codes = self.col_codes[:]
        s.row_codes = self.row_codes[:]
        s.dragons = self.dragons[:]
        s.rounds = self.rounds[:]
        s._history = self._history[:]
        s._log_list = self._log_list[:]
        return s

    # ------------------------------------------------------------------ queries
    def legal_cells(self) -> list[int]:
        """Empty cells a card may go on now (M3), in cell order."""
        return list(legal_cells_named(self.legal_mask)[0])

    def legal_cells_named(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The legal cells now (M3), in cell order, and their names (cached per shape:
        treat them as read-only)."""
        return legal_cells_named(self.legal_mask)

    def line_scores(self) -> tuple[list[int], list[int]]:
        """Current scores of seat 0's columns and seat 1's rows, within the box
        (:func:`.rounds.line_scores`)."""
        return rounds.line_scores(self)

    def unseen(self, seat: int) -> list[int]:
        """Counts per value that ``seat`` has not seen (M6, :func:`.viewing.unseen`)."""
        return viewing.unseen(self, seat)

    # ------------------------------------------------------------------ events, views (M6)
    @property
    def event_count(self) -> int:
        viewing.sync_events(self)
        return self._nev

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        viewing.sync_events(self)
        return super().events_for(seat, since)

    def all_events(self) -> list[Event]:
        viewing.sync_events(self)
        return super().all_events()

    def view(self, seat: int | None, since: int = 0) -> JSON:
        """What ``seat`` may know (M6); ``None`` for a spectator (:func:`.viewing.view`)."""
        return viewing.view(self, seat, since)

    def full_state(self) -> JSON:
        return viewing.full_state(self)

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> JSON:
        """Everything, as JSON (:func:`dragonlair.games.master.snapshot.restore` reads it)."""
        from dragonlair.games.master.snapshot import snapshot

        return snapshot(self)
