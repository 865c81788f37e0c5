"""A round of Dragon Master and a match of rounds (M2, M4, M5): the deal, who starts, the
scoring of a finished round and the end of the game.

Flow of a round: 16 chance deals (``deal CARD``, p0's eight then p1's eight; the four left
are set aside unseen), the start player (chance ``start pN`` in a single round and the first
round of a match; later rounds follow M5), then 16 placements (:mod:`.grid`), then scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.game import CHANCE, JSON, ChanceTable
from dragonlair.games.master import grid
from dragonlair.games.master.actions import DEAL, SIZE, START, Kind, MasterAction
from dragonlair.games.master.cards import CARDS, COPIES, HAND, compare
from dragonlair.games.master.grid import BOX

if TYPE_CHECKING:
    from dragonlair.games.master.state import MasterState


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
_DEAL, _START = Phase.DEAL, Phase.START
_K_DEAL, _K_START = Kind.DEAL, Kind.START

#: deal outcomes by the deck's counts (base 6): (actions, probabilities, running sums, the
#: outcomes as a table)
DEAL_OUTCOMES: dict[int, tuple[tuple[MasterAction, ...], tuple[float, ...],
                               tuple[float, ...], ChanceTable[MasterAction]]] = {}
#: the start player's draw (M2): either seat, evenly
START_OUTCOMES = ChanceTable([(START[0], 0.5), (START[1], 0.5)])


def deal_outcomes(deck: list[int]
                  ) -> tuple[tuple[MasterAction, ...], tuple[float, ...], tuple[float, ...],
                             ChanceTable[MasterAction]]:
    """The next deal (M2): each value still in the deck, with its probability, the running
    sums of those, and the pairs as a :class:`ChanceTable` (cached in
    :data:`DEAL_OUTCOMES`)."""
    key = ((deck[0] * 6 + deck[1]) * 6 + deck[2]) * 6 + deck[3]
    got = DEAL_OUTCOMES.get(key)
    if got is None:
        total = sum(deck)
        table = ChanceTable([(DEAL[v], n / total) for v, n in enumerate(deck) if n])
        # table.sums: the running sums of State.sample_chance, in its order
        got = (tuple(a for a, _ in table), tuple(p for _, p in table), table.sums, table)
        DEAL_OUTCOMES[key] = got
    return got


def new_round(state: MasterState) -> None:
    """A round begins (M2): an empty grid, empty hands, the full deck, chance to deal."""
    grid.clear(state)
    state.hands = [[0, 0, 0, 0], [0, 0, 0, 0]]
    state.hand_masks = [0, 0]  # bit v: the seat holds a card of value v
    state.deck = [COPIES] * 4
    state.dealt = 0
    state.player = 0
    state.starter = -1
    state.round_start = len(state._history)
    state.phase = Phase.DEAL
    state.to_move = (CHANCE,)


def apply_chance(state: MasterState, action: MasterAction) -> None:
    """A deal (M2: p0's eight cards, then p1's) or the drawn start player."""
    phase = state.phase
    if phase == _DEAL:
        if action.kind != _K_DEAL or not state.deck[action.value]:
            raise IllegalActionError("master.chance.deal_expected", rule="M2",
                                     action=str(action))
        v = action.value
        state.deck[v] -= 1
        seat = 0 if state.dealt < HAND else 1
        state.hands[seat][v] += 1
        state.hand_masks[seat] |= 1 << v
        state.dealt += 1
        if state.dealt == 2 * HAND:
            _after_deal(state)
    elif phase == _START:
        if action.kind != _K_START:
            raise IllegalActionError("master.chance.start_expected", rule="M2",
                                     action=str(action))
        _begin(state, action.value)
    else:
        raise IllegalActionError("master.chance.not_due", rule="M2", action=str(action))


def _after_deal(state: MasterState) -> None:
    if not state.rounds:
        state.phase = Phase.START  # random start player (M2)
        state.to_move = (CHANCE,)
        return
    last = state.rounds[-1]
    # M5: the loser starts; after a drawn round, the player who did not start it
    starter = 1 - last.winner if last.winner is not None else 1 - last.starter
    _begin(state, starter)


def _begin(state: MasterState, starter: int) -> None:
    state.starter = starter
    state.player = starter
    state.phase = Phase.PLACE
    state.to_move = (starter,)


# ------------------------------------------------------------------ scoring (M4, M5)
def line_scores(state: MasterState) -> tuple[list[int], list[int]]:
    """Current scores of seat 0's columns and seat 1's rows, within the box (partial
    lines score what they hold)."""
    x0, _, y0, _ = state.box
    if state.placed == 0:
        return [0] * BOX, [0] * BOX
    t = state.table
    xs = range(x0, x0 + BOX) if x0 + BOX <= SIZE else range(SIZE - BOX, SIZE)
    ys = range(y0, y0 + BOX) if y0 + BOX <= SIZE else range(SIZE - BOX, SIZE)
    return [t[state.col_codes[x]] for x in xs], [t[state.row_codes[y]] for y in ys]


def score_round(state: MasterState) -> None:
    """The 16th card is down: the lowest lines decide (M4); a single round ends the game,
    a match goes on until a second dragon (M5)."""
    cols, rows = line_scores(state)
    result = compare(cols, rows)
    winner = 0 if result > 0 else 1 if result < 0 else None
    set_aside = [v for v in range(4) for _ in range(state.deck[v])]
    lowest_first = list(zip(sorted(cols), sorted(rows), strict=True))
    decided_at = next((i for i, (a, b) in enumerate(lowest_first) if a != b), None)
    state.rounds.append(RoundResult(cols, rows, winner, state.starter, set_aside,
                                    decided_at, state.round_start))
    if not state.game.match:
        if winner is None:
            _game_over(state, (), "master.end.drawn", {})
        else:
            _game_over(state, (winner,), "master.end.lowest_lines",
                       {"seat": winner, "at": decided_at})
        return
    if winner is not None:
        state.dragons[winner] += 1
        if state.dragons[winner] == 2:
            _game_over(state, (winner,), "master.end.second_dragon", {"seat": winner})
            return
    new_round(state)


def _game_over(state: MasterState, winners: tuple[int, ...], reason: str,
               params: JSON) -> None:
    state.phase = Phase.OVER
    state.to_move = ()
    state.winners = winners
    state.end_reason = reason
    state.end_params = params
