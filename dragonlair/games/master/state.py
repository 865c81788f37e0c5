"""The Dragon Master engine (rules M1-M6).

Cells live in a 7 x 7 frame, columns ``a``-``g`` and rows ``1``-``7``; the first card goes on
``d4`` (the origin), so every legal 4 x 4 box fits in the frame. Seat 0 owns the columns,
seat 1 the rows (M2, M4).

Flow of a round: 16 chance deals (``deal CARD``, p0's eight then p1's eight; the four left
are set aside unseen), the start player (chance ``start pN`` in a single round and the first
round of a match; later rounds follow M5), then 16 placements, then scoring.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError, shown
from dragonlair.core.events import Event
from dragonlair.core.game import CHANCE, JSON, Outcome, State, check_seat_range
from dragonlair.core.records import entries_up_to
from dragonlair.core.views import envelope
from dragonlair.games.master.cards import CARDS, COPIES, HAND, compare

if TYPE_CHECKING:
    from dragonlair.games.master.game import MasterGame

SIZE = 7
CELLS = SIZE * SIZE
ORIGIN = 3 * SIZE + 3  # d4
BOX = 4
COLS = "abcdefg"


def cell_name(cell: int) -> str:
    return f"{COLS[cell % SIZE]}{cell // SIZE + 1}"


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
_ORIGIN_MASK = 1 << ORIGIN


def _within(coord: tuple[int, ...]) -> list[list[int]]:
    """``[a][b]``: the cells whose coordinate lies in ``[b - BOX + 1, a + BOX - 1]``, i.e.
    where a card keeps a box spanning ``a..b`` within ``BOX`` (``a <= b``)."""
    return [[sum(1 << c for c in range(CELLS) if b - BOX < coord[c] < a + BOX)
             for b in range(SIZE)] for a in range(SIZE)]


_X_OK = _within(_X)
_Y_OK = _within(_Y)
_POW5 = (1, 5, 25, 125)
_SEAT = ((0,), (1,))


def _cells_of(mask: int) -> list[int]:
    """The cells of a bit mask, in cell order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cell_index(name: str) -> int | None:
    """``"d4"`` -> its cell, or None if it is not a cell of the frame."""
    if len(name) == 2 and name[0] in COLS and name[1] in "1234567":
        return (int(name[1]) - 1) * SIZE + COLS.index(name[0])
    return None


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
PLACE = [[ACTIONS[v * CELLS + c] for c in range(CELLS)] for v in range(4)]
DEAL = [ACTIONS[4 * CELLS + v] for v in range(4)]
START = [ACTIONS[4 * CELLS + 4 + s] for s in range(2)]

#: the placements of value v on the cells of row y given by a 7-bit mask: _ROW_PLACE[v][y][bits]
_ROW_PLACE = [[[tuple(PLACE[v][y * SIZE + x] for x in range(SIZE) if bits >> x & 1)
                for bits in range(1 << SIZE)] for y in range(SIZE)] for v in range(4)]
_ROW = (1 << SIZE) - 1

#: Legal placements by ``legal cells mask << 4 | mask of the values in hand`` (_LEGAL), and
#: by legal cells mask the placements of every value, value by value (_ALL_VALUES, with the
#: number of cells), shared by all states. Each cache has two generations: when the new one
#: is full it becomes the old one (entries found there are promoted), so that memory stays
#: bounded (about 30 MB at most, measured).
_LEGAL: dict[int, tuple[MasterAction, ...]] = {}
_LEGAL_OLD: dict[int, tuple[MasterAction, ...]] = {}
_ALL_VALUES: dict[int, tuple[tuple[MasterAction, ...], int]] = {}
_ALL_VALUES_OLD: dict[int, tuple[tuple[MasterAction, ...], int]] = {}
_CACHE_MAX = 1 << 15
#: deal outcomes by the deck's counts (base 6): (actions, probabilities, running sums)
_DEALS: dict[int, tuple[tuple[MasterAction, ...], tuple[float, ...], tuple[float, ...]]] = {}


def _legal_placements(key: int) -> tuple[MasterAction, ...]:
    """Every placement of a value in hand (bits 0-3 of ``key``) on a legal cell (bits 4 and
    up), by value then cell: a miss of MasterState.legal_actions' cache."""
    global _LEGAL, _LEGAL_OLD, _ALL_VALUES, _ALL_VALUES_OLD
    legal = _LEGAL_OLD.get(key)
    if legal is None:
        cells = key >> 4
        entry = _ALL_VALUES.get(cells)
        if entry is None:
            entry = _ALL_VALUES_OLD.get(cells)
            if entry is None:
                rows = [(y, bits) for y in range(SIZE) if (bits := cells >> y * SIZE & _ROW)]
                every: tuple[MasterAction, ...] = ()
                for v in range(4):
                    row_place = _ROW_PLACE[v]
                    for y, bits in rows:
                        every += row_place[y][bits]
                entry = (every, len(every) // 4)
            if len(_ALL_VALUES) >= _CACHE_MAX:
                _ALL_VALUES_OLD, _ALL_VALUES = _ALL_VALUES, {}
            _ALL_VALUES[cells] = entry
        every, n = entry
        hand = key & 15
        if hand == 15:
            legal = every
        else:
            legal = ()
            for v in range(4):
                if hand >> v & 1:
                    legal += every[v * n:v * n + n]
    if len(_LEGAL) >= _CACHE_MAX:
        _LEGAL_OLD, _LEGAL = _LEGAL, {}
    _LEGAL[key] = legal
    return legal


def _deal_outcomes(deck: list[int]
                   ) -> tuple[tuple[MasterAction, ...], tuple[float, ...], tuple[float, ...]]:
    key = ((deck[0] * 6 + deck[1]) * 6 + deck[2]) * 6 + deck[3]
    got = _DEALS.get(key)
    if got is None:
        total = sum(deck)
        pairs = [(DEAL[v], n / total) for v, n in enumerate(deck) if n]
        sums = []
        acc = 0.0
        for _, p in pairs:  # the running sums of State.sample_chance, in its order
            acc += p
            sums.append(acc)
        got = (tuple(a for a, _ in pairs), tuple(p for _, p in pairs), tuple(sums))
        _DEALS[key] = got
    return got


class Phase(IntEnum):
    DEAL = 0
    START = 1
    PLACE = 2
    OVER = 3


@dataclass(slots=True)
class RoundResult:
    """A finished round: both players' line scores, the winner (None: drawn).
    ``decided_at``: where the lists, each sorted lowest first, first differ (M4): 0 when
    the lowest lines decide, 1 the second-lowest, ...; None for a drawn round."""

    columns: list[int]
    rows: list[int]
    winner: int | None
    starter: int
    set_aside: list[int]
    decided_at: int | None = None
    #: the history entry where the round began
    start: int = 0

    def to_json(self) -> JSON:
        return {"columns": self.columns[:], "rows": self.rows[:], "winner": self.winner,
                "starter": self.starter,
                "set_aside": sorted(CARDS[v].id for v in self.set_aside),
                "decided_at": self.decided_at}


# enum members as module globals: a global is read several times faster than a member
_DEAL, _START, _PLACE = Phase.DEAL, Phase.START, Phase.PLACE
_K_PLACE, _K_DEAL, _K_START = Kind.PLACE, Kind.DEAL, Kind.START


class MasterState(State[MasterAction]):
    """A Dragon Master position (a single round, or a match of rounds, M5)."""

    num_players = 2

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
        # events follow from the history and are written on demand (_sync_events): the
        # history entries already told, and the round (number, first entry) they are in
        self._ev_at = 0
        self._ev_round = (0, 0)
        self._new_round()

    def _new_round(self) -> None:
        self.grid = [-1] * CELLS
        self.hands = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.hand_masks = [0, 0]  # bit v: the seat holds a card of value v
        self.occupied = 0  # cells holding a card, as bits
        self.frontier = 0  # empty cells next to a card, as bits
        self.legal_mask = _ORIGIN_MASK  # the legal cells (M3), as bits
        self.deck = [COPIES] * 4
        self.dealt = 0
        self.placed = 0
        self.box = (SIZE, -1, SIZE, -1)  # min x, max x, min y, max y
        self.col_codes = [0] * SIZE
        self.row_codes = [0] * SIZE
        self.player = 0
        self.starter = -1
        self.round_start = len(self._history)
        self.phase = Phase.DEAL
        self.to_move: tuple[int, ...] = (CHANCE,)

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

    def legal_cells(self) -> list[int]:
        """Empty cells a card may go on now (M3), in cell order."""
        return _cells_of(self.legal_mask)

    def legal_actions(self, seat: int) -> Sequence[MasterAction]:
        if seat != self.player or self.phase != _PLACE or type(seat) is not int:
            check_seat_range(seat, 2, chance=True)  # SeatError if no seat
            return ()
        key = self.legal_mask << 4 | self.hand_masks[seat]
        got = _LEGAL.get(key)
        return got if got is not None else _legal_placements(key)

    def chance_outcomes(self) -> list[tuple[MasterAction, float]]:
        if self.phase == Phase.DEAL:
            actions, probs, _ = _deal_outcomes(self.deck)
            return list(zip(actions, probs, strict=True))
        if self.phase == Phase.START:
            return [(START[0], 0.5), (START[1], 0.5)]
        return []

    def sample_chance(self, rng: random.Random) -> MasterAction:
        """As :meth:`State.sample_chance` (the same draw from ``rng``), from cached sums."""
        if self.phase == _DEAL:
            d = self.deck
            got = _DEALS.get(((d[0] * 6 + d[1]) * 6 + d[2]) * 6 + d[3])
            actions, _, sums = got if got is not None else _deal_outcomes(d)
            i = bisect_right(sums, rng.random())  # the first running sum above the draw
            return actions[i] if i < len(actions) else actions[-1]
        return super().sample_chance(rng)

    def apply(self, seat: int, action: MasterAction) -> None:
        if seat not in self.to_move or type(seat) is not int:
            self.check_seat(seat)
        if seat == CHANCE:
            self._apply_chance(action)
        else:
            self._place(seat, action)
        self._history.append((seat, action))
        if self.placed == 16 and self.phase == _PLACE:
            self._score_round()

    def _apply_chance(self, action: MasterAction) -> None:
        phase = self.phase
        if phase == _DEAL:
            if action.kind != _K_DEAL or not self.deck[action.value]:
                raise IllegalActionError("master.chance.deal_expected", rule="M2",
                                         action=str(action))
            v = action.value
            self.deck[v] -= 1
            seat = 0 if self.dealt < HAND else 1
            self.hands[seat][v] += 1
            self.hand_masks[seat] |= 1 << v
            self.dealt += 1
            if self.dealt == 2 * HAND:
                self._after_deal()
        elif phase == _START:
            if action.kind != _K_START:
                raise IllegalActionError("master.chance.start_expected", rule="M2",
                                         action=str(action))
            self._begin(action.value)
        else:
            raise IllegalActionError("master.chance.not_due", rule="M2", action=str(action))

    def _after_deal(self) -> None:
        if not self.rounds:
            self.phase = Phase.START  # random start player (M2)
            self.to_move = (CHANCE,)
            return
        last = self.rounds[-1]
        # M5: the loser starts; after a drawn round, the player who did not start it
        starter = 1 - last.winner if last.winner is not None else 1 - last.starter
        self._begin(starter)

    def _begin(self, starter: int) -> None:
        self.starter = starter
        self.player = starter
        self.phase = Phase.PLACE
        self.to_move = (starter,)

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

    def _place(self, seat: int, action: MasterAction) -> None:
        if (action.kind != _K_PLACE or not self.hands[seat][action.value]
                or not self.legal_mask >> action.cell & 1):
            refusal = self.refusal(seat, action)
            assert refusal is not None
            raise refusal
        v, cell = action.value, action.cell
        hand = self.hands[seat]
        hand[v] -= 1
        if not hand[v]:
            self.hand_masks[seat] &= ~(1 << v)
        self.grid[cell] = v
        occupied = self.occupied | 1 << cell
        self.occupied = occupied
        frontier = (self.frontier | _NEIGHBOUR_MASK[cell]) & ~occupied
        self.frontier = frontier
        x, y = _X[cell], _Y[cell]
        x0, x1, y0, y1 = self.box
        if x < x0:
            x0 = x
        if x > x1:
            x1 = x
        if y < y0:
            y0 = y
        if y > y1:
            y1 = y
        self.box = (x0, x1, y0, y1)
        self.legal_mask = frontier & _X_OK[x0][x1] & _Y_OK[y0][y1]
        self.col_codes[x] += _POW5[v]
        self.row_codes[y] += _POW5[v]
        self.placed += 1
        self.player = 1 - seat
        self.to_move = _SEAT[1 - seat]

    # ------------------------------------------------------------------ scoring (M4, M5)
    def line_scores(self) -> tuple[list[int], list[int]]:
        """Current scores of seat 0's columns and seat 1's rows, within the box (partial
        lines score what they hold)."""
        x0, _, y0, _ = self.box
        if self.placed == 0:
            return [0] * BOX, [0] * BOX
        t = self.table
        xs = range(x0, x0 + BOX) if x0 + BOX <= SIZE else range(SIZE - BOX, SIZE)
        ys = range(y0, y0 + BOX) if y0 + BOX <= SIZE else range(SIZE - BOX, SIZE)
        return [t[self.col_codes[x]] for x in xs], [t[self.row_codes[y]] for y in ys]

    def _score_round(self) -> None:
        cols, rows = self.line_scores()
        result = compare(cols, rows)
        winner = 0 if result > 0 else 1 if result < 0 else None
        set_aside = [v for v in range(4) for _ in range(self.deck[v])]
        lowest_first = list(zip(sorted(cols), sorted(rows), strict=True))
        decided_at = next((i for i, (a, b) in enumerate(lowest_first) if a != b), None)
        self.rounds.append(RoundResult(cols, rows, winner, self.starter, set_aside,
                                       decided_at, self.round_start))
        if not self.game.match:
            if winner is None:
                self._game_over((), "master.end.drawn", {})
            else:
                self._game_over((winner,), "master.end.lowest_lines",
                                {"seat": winner, "at": decided_at})
            return
        if winner is not None:
            self.dragons[winner] += 1
            if self.dragons[winner] == 2:
                self._game_over((winner,), "master.end.second_dragon", {"seat": winner})
                return
        self._new_round()

    def _game_over(self, winners: tuple[int, ...], reason: str, params: JSON) -> None:
        self.phase = Phase.OVER
        self.to_move = ()
        self.winners = winners
        self.end_reason = reason
        self.end_params = params

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

    # ------------------------------------------------------------------ events (M6)
    @property
    def event_count(self) -> int:
        self._sync_events()
        return self._nev

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        self._sync_events()
        return super().events_for(seat, since)

    def all_events(self) -> list[Event]:
        self._sync_events()
        return super().all_events()

    def _sync_events(self) -> None:
        """Write the events of the history entries not told yet.

        Events follow from the actions (and the rounds they finished), so they are written
        when someone reads them, not on every action: play and search pay nothing for them.
        What they tell follows M6: each seat learns its own hand (``master.deal.hand``, to
        that seat only), everyone that the deal is done; placements, round results, the set
        aside cards (revealed when the round ends) and the end are public."""
        history = self._history
        at = self._ev_at
        if at == len(history):
            return
        rnd, start = self._ev_round
        ev, nev = self._ev, self._nev

        def add(code: str, to: int | None = None, **params: object) -> None:
            nonlocal ev, nev
            ev = (Event(code, params, to), ev)
            nev += 1

        deals = 2 * HAND
        while at < len(history):
            seat, action = history[at]
            step = at - start
            if step == 0:
                add("master.round.begin", round=rnd + 1)
            if action.kind == _K_DEAL and step == deals - 1:
                dealt = [a.value for _, a in history[start:start + deals]]
                for owner in (0, 1):
                    cards = sorted(dealt[owner * HAND:(owner + 1) * HAND])
                    add("master.deal.hand", to=owner, seat=owner,
                        cards=[CARDS[v].id for v in cards])
                add("master.deal.done", n=HAND, aside=len(CARDS) * COPIES - deals)
                if rnd:  # M5: who starts a later round of a match follows from the last one
                    last = self.rounds[rnd - 1]
                    if last.winner is not None:
                        add("master.start.loser", seat=1 - last.winner)
                    else:
                        add("master.start.after_draw", seat=1 - last.starter)
            elif action.kind == _K_START:
                add("master.start.lot", seat=action.value)
            elif action.kind == _K_PLACE:
                add("master.move.placed", seat=seat, card=CARDS[action.value].id,
                    cell=cell_name(action.cell))
                if step == 2 * deals - (0 if rnd else -1) - 1:  # the 16th card: scored (M4)
                    self._round_events(rnd, add)
                    rnd += 1
                    start = at + 1
            at += 1
        self._ev, self._nev = ev, nev
        self._ev_at = at
        self._ev_round = (rnd, start)

    def _round_events(self, rnd: int, add: Callable[..., None]) -> None:
        r = self.rounds[rnd]
        if r.winner is None or r.decided_at is None:
            add("master.round.drawn", round=rnd + 1, columns=r.columns, rows=r.rows)
        else:
            at = r.decided_at
            add("master.round.won", round=rnd + 1, seat=r.winner, at=at,
                a=sorted(r.columns)[at], b=sorted(r.rows)[at], columns=r.columns, rows=r.rows)
        add("master.round.set_aside", cards=sorted(CARDS[v].id for v in r.set_aside))
        if self.game.match and r.winner is not None:
            won = sum(1 for x in self.rounds[:rnd + 1] if x.winner == r.winner)
            add("master.match.dragon", seat=r.winner, n=won)
        if rnd == len(self.rounds) - 1 and self.phase == Phase.OVER:
            add(self.end_reason, **self.end_params)

    # ------------------------------------------------------------------ views (M6)
    def _placements(self, start: int) -> list[JSON]:
        """The placements of the round whose first history entry is ``start``, in order."""
        out: list[JSON] = []
        for seat, a in self._history[start:]:
            if seat != CHANCE:
                out.append({"seat": seat, "card": CARDS[a.value].id, "cell": cell_name(a.cell)})
                if len(out) == 2 * HAND:
                    break
        return out

    def _round_json(self, r: RoundResult) -> JSON:
        out = r.to_json()
        out["placements"] = self._placements(r.start)
        return out

    def _public(self) -> JSON:
        """What everyone may see (M6): the grid, the turn, each hand's size, past rounds."""
        cols, rows = self.line_scores()
        over = self.phase == Phase.OVER
        return {
            "round": len(self.rounds) + (0 if over else 1),
            "grid": {cell_name(c): CARDS[v].id for c, v in enumerate(self.grid) if v >= 0},
            "box": self._box_json(),
            "legal_cells": ([cell_name(c) for c in self.legal_cells()]
                            if self.phase == Phase.PLACE else []),
            "hand_sizes": [sum(h) for h in self.hands],
            "line_scores": {"columns": cols, "rows": rows},
            "starter": self.starter if self.starter >= 0 else None,
            "match": self.game.match,
            "four_of_a_kind": self.game.four_of_a_kind,
            "dragons": self.dragons[:],
            "placements": self._placements(self.round_start),
            "rounds": [self._round_json(r) for r in self.rounds],
        }

    def _box_json(self) -> JSON | None:
        if not self.placed:
            return None
        x0, x1, y0, y1 = self.box
        return {"columns": COLS[x0:x1 + 1], "rows": list(range(y0 + 1, y1 + 2))}

    def unseen(self, seat: int) -> list[int]:
        """Counts per value that ``seat`` has not seen: 20 - own hand - grid (M6)."""
        out = [COPIES] * 4
        for v in self.grid:
            if v >= 0:
                out[v] -= 1
        for v in range(4):
            out[v] -= self.hands[seat][v]
        return out

    def _legal_json(self, seat: int) -> JSON | None:
        """Compactly, what ``seat`` may do now (M3: any card of its hand on any legal cell)."""
        if seat != self.player or self.phase != Phase.PLACE:
            return None
        return {"action": "place",
                "cards": [CARDS[v].id for v in range(4) if self.hands[seat][v]],
                "cells": [cell_name(c) for c in self.legal_cells()]}

    def view(self, seat: int | None, since: int = 0) -> JSON:
        if seat is not None:
            check_seat_range(seat, 2)
        if type(since) is not int or since < 0:
            raise IllegalActionError("master.view.bad_since", since=shown(since))
        private = None
        legal = None
        if seat is not None:
            private = {
                "hand": {CARDS[i].id: n for i, n in enumerate(self.hands[seat])},
                "unseen": {CARDS[i].id: n for i, n in enumerate(self.unseen(seat))},
                "lines": "columns" if seat == 0 else "rows",
            }
            legal = self._legal_json(seat)
        outcome = self.outcome()
        events = [e.to_json(seq) for seq, e in self.events_for(seat, since)]
        return envelope(
            game="master", game_version=self.game.info.version, seat=seat,
            to_move=[s for s in self.to_move if s != CHANCE],
            chance=self.to_move == (CHANCE,), phase=self.phase.name.lower(),
            turn=self.turn_count(), public=self._public(), private=private, legal=legal,
            events=events, since=since, total=self._nev,
            result=outcome.to_json() if outcome else None)

    def full_state(self) -> JSON:
        v = self._public()
        v["game"] = "master"
        v["phase"] = self.phase.name.lower()
        v["to_move"] = ["chance" if s == CHANCE else s for s in self.to_move]
        outcome = self.outcome()
        v["result"] = outcome.to_json() if outcome else None
        v["history"] = self._log[:]
        v["hands"] = [{CARDS[i].id: n for i, n in enumerate(h)} for h in self.hands]
        v["set_aside"] = {CARDS[i].id: n for i, n in enumerate(self.deck)}
        return v

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> JSON:
        """Everything, as JSON (:func:`dragonlair.games.master.snapshot.restore` reads it)."""
        from dragonlair.games.master.snapshot import snapshot

        return snapshot(self)
