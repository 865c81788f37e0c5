"""Dragon Master bots. They see only their seat's view (M6) and the legal actions.

``greedy``: the placement with the best immediate line-score change: what the card adds to
its own line through the cell minus what it adds to the opponent's line there (M4 scores;
ties broken at random).

``expert``: determinized search from its view (docs/master-expert.md). With more than
``exact`` cards still to place it samples the opponent's hand from the unseen cards and,
in every sample, plays each candidate move out: greedy placements for both players until
``tail`` cards remain, then exact minimax. With ``exact`` cards or fewer to place it solves
the rest exactly: every possible opponent hand, weighted by its probability, minimax over
the placements with the M4 comparison (draws included) and the table's ``four_of_a_kind``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from dragonlair.core.game import JSON, Action
from dragonlair.games.master.actions import CELLS, SIZE, Kind, MasterAction, cell_name
from dragonlair.games.master.cards import BY_ID, CARDS, score_table
from dragonlair.games.master.grid import NEIGHBOURS, ORIGIN

TABLES = {k: score_table(k) for k in ("100", "100+face")}
P5 = (1, 5, 25, 125)
XS = tuple(c % SIZE for c in range(CELLS))
YS = tuple(c // SIZE for c in range(CELLS))
CELL_INDEX = {cell_name(c): c for c in range(CELLS)}
KEYW = tuple(5**c for c in range(CELLS))  # transposition key: sum of (value + 1) * 5**cell
_WINDOWS: dict[int, tuple[int, ...]] = {}
BOXES = tuple(tuple(y * SIZE + x for y in range(y0, y0 + 4) for x in range(x0, x0 + 4))
              if x0 <= SIZE - 4 and y0 <= SIZE - 4 else () for y0 in range(SIZE)
              for x0 in range(SIZE))  # the 16 cells of the box at (x0, y0), by y0 * 7 + x0


def _window(x0: int, x1: int, y0: int, y1: int) -> tuple[int, ...]:
    """The cells the 4 x 4 box rule allows (M3) while the box spans x0..x1, y0..y1."""
    k = ((x0 * 8 + x1) * 8 + y0) * 8 + y1
    got = _WINDOWS.get(k)
    if got is None:
        got = tuple(y * SIZE + x for y in range(y1 - 3, y0 + 4) for x in range(x1 - 3, x0 + 4))
        _WINDOWS[k] = got
    return got


class Board:
    """A compact position: the 7 x 7 frame, base-5 line codes per column and row, the
    number of placed neighbours of every cell, the box and a transposition key."""

    __slots__ = ("adj", "box", "cols", "grid", "key", "placed", "rows")

    def __init__(self) -> None:
        self.grid = [-1] * CELLS
        self.cols = [0] * SIZE
        self.rows = [0] * SIZE
        self.adj = [0] * CELLS
        self.box = [SIZE, -1, SIZE, -1]
        self.placed = 0
        self.key = 0

    @classmethod
    def from_view(cls, view: JSON) -> Board:
        """The grid of a view's public part."""
        b = cls()
        for name, card in view["grid"].items():
            b.place(BY_ID[card].value, CELL_INDEX[name])
        return b

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.grid = self.grid[:]
        b.cols = self.cols[:]
        b.rows = self.rows[:]
        b.adj = self.adj[:]
        b.box = self.box[:]
        b.placed = self.placed
        b.key = self.key
        return b

    def place(self, v: int, cell: int) -> None:
        self.grid[cell] = v
        x, y = XS[cell], YS[cell]
        self.cols[x] += P5[v]
        self.rows[y] += P5[v]
        adj = self.adj
        for n in NEIGHBOURS[cell]:
            adj[n] += 1
        box = self.box
        if x < box[0]:
            box[0] = x
        if x > box[1]:
            box[1] = x
        if y < box[2]:
            box[2] = y
        if y > box[3]:
            box[3] = y
        self.placed += 1
        self.key += (v + 1) * KEYW[cell]

    def cells(self) -> list[int]:
        """Legal cells now (M3)."""
        if not self.placed:
            return [ORIGIN]
        grid, adj = self.grid, self.adj
        x0, x1, y0, y1 = self.box
        return [c for c in _window(x0, x1, y0, y1) if grid[c] < 0 and adj[c]]

    def lines(self, table: list[int]) -> tuple[list[int], list[int]]:
        """Scores of the columns and rows inside the (final) box."""
        x0 = min(self.box[0], SIZE - 4)
        y0 = min(self.box[2], SIZE - 4)
        return ([table[c] for c in self.cols[x0:x0 + 4]],
                [table[r] for r in self.rows[y0:y0 + 4]])

    def result(self, table: list[int]) -> int:
        """M4 on a full grid, from seat 0's side: 2 win, 1 draw, 0 loss."""
        cols, rows = self.lines(table)
        a, b = sorted(cols), sorted(rows)
        return 2 if a > b else 0 if a < b else 1


def _counts(d: JSON) -> list[int]:
    return [int(d.get(c.id, 0)) for c in CARDS]


def _net_gain(table: list[int], cols: list[int], rows: list[int], v: int, cell: int,
              seat: int) -> int:
    """What placing ``v`` on ``cell`` adds to ``seat``'s line minus the opponent's line."""
    c, r = cols[XS[cell]], rows[YS[cell]]
    p = P5[v]
    dc = table[c + p] - table[c]
    dr = table[r + p] - table[r]
    return dc - dr if seat == 0 else dr - dc


def position(view: JSON) -> tuple[int, list[int], Board, list[int], list[int], int]:
    """What a seat's view tells a search: the seat, the line-score table, the grid, its
    hand and the unseen cards by value, and how many cards the other seat holds."""
    seat: int = view["seat"]
    public, private = view["public"], view["private"]
    return (seat, TABLES[public["four_of_a_kind"]], Board.from_view(public),
            _counts(private["hand"]), _counts(private["unseen"]),
            public["hand_sizes"][1 - seat])


def _place_moves(legal: Sequence[Action]) -> list[MasterAction]:
    return [a for a in legal if isinstance(a, MasterAction) and a.kind == Kind.PLACE]


class GreedyMasterBot:
    """Best immediate line-score change: own line gain minus the opponent's line gain."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        moves = _place_moves(legal)
        if not moves:
            return legal[0]
        seat: int = view["seat"]
        public = view["public"]
        table = TABLES[public["four_of_a_kind"]]
        board = Board.from_view(public)
        best: list[MasterAction] = []
        top = -10**9
        for a in moves:
            g = _net_gain(table, board.cols, board.rows, a.value, a.cell, seat)
            if g > top:
                top, best = g, [a]
            elif g == top:
                best.append(a)
        return best[self.rng.randrange(len(best))]


# ---------------------------------------------------------------------- the expert


def opponent_hands(unseen: list[int], size: int) -> list[tuple[list[int], float]]:
    """Every sub-multiset of ``unseen`` of ``size`` cards with its hypergeometric
    probability, most likely first."""
    total = comb(sum(unseen), size)
    out: list[tuple[list[int], float]] = []

    def rec(v: int, left: int, acc: list[int], w: int) -> None:
        if v == 3:
            if left <= unseen[3]:
                out.append(([*acc, left], w * comb(unseen[3], left) / total))
            return
        for k in range(min(left, unseen[v]) + 1):
            rec(v + 1, left - k, [*acc, k], w * comb(unseen[v], k))

    rec(0, size, [], 1)
    out.sort(key=lambda hw: -hw[1])
    return out


HKEY = tuple(tuple(9 ** (4 * s + v) for v in range(4)) for s in (0, 1))
HSPAN = 9**8
ORDER_UNTIL = 12  # order the moves by immediate gain while this few cards are placed


def hand_key(hands: list[list[int]]) -> int:
    """The remaining hands as base-9 digits (part of the transposition key)."""
    return sum(n * HKEY[s][v] for s in (0, 1) for v, n in enumerate(hands[s]))


def solve(board: Board, hands: list[list[int]], mover: int, table: list[int],
          tt: dict[int, tuple[int, int]], alpha: int = 0, beta: int = 2) -> int:
    """Exact minimax over the placements of a fully known deal (alpha-beta with the
    transposition table ``tt``, keyed by grid and remaining hands, so one table serves every
    deal of a search). Values from seat 0's side: 2 win, 1 draw, 0 loss. ``board`` and
    ``hands`` are restored on return."""
    grid, cols, rows, adj, box = board.grid, board.cols, board.rows, board.adj, board.box
    neighbours = NEIGHBOURS

    def final() -> int:
        x0, y0 = box[0], box[2]
        a = sorted((table[cols[x0]], table[cols[x0 + 1]], table[cols[x0 + 2]],
                    table[cols[x0 + 3]]))
        c = sorted((table[rows[y0]], table[rows[y0 + 1]], table[rows[y0 + 2]],
                    table[rows[y0 + 3]]))
        return 2 if a > c else 0 if a < c else 1

    def fin2(ca: int, pa: int, cb: int, pb: int) -> int:
        xa, ya, xb, yb = XS[ca], YS[ca], XS[cb], YS[cb]
        cols[xa] += pa
        rows[ya] += pa
        cols[xb] += pb
        rows[yb] += pb
        r = final()
        cols[xa] -= pa
        rows[ya] -= pa
        cols[xb] -= pb
        rows[yb] -= pb
        return r

    def three(mover: int) -> int:
        # 13 cards fill all but three cells of the 4 x 4 box; the mover holds two cards,
        # the other player one. After the next card both empty cells are legal (M3).
        empties = [c for c in BOXES[box[2] * SIZE + box[0]] if grid[c] < 0]
        hand = hands[mover]
        if 2 in hand:
            a = b = hand.index(2)
        else:
            a = hand.index(1)
            b = hand.index(1, a + 1)
        po = P5[hands[1 - mover].index(1)]
        best = -1 if mover == 0 else 3
        for first, last in ((a, b), (b, a)) if a != b else ((a, b),):
            pf, pl = P5[first], P5[last]
            for i in (0, 1, 2):
                c = empties[i]
                if not adj[c]:
                    continue
                e1, e2 = empties[i - 1], empties[i - 2]
                x, y = XS[c], YS[c]
                cols[x] += pf
                rows[y] += pf
                r = fin2(e1, po, e2, pl)
                if po != pl:
                    r2 = fin2(e2, po, e1, pl)
                    r = (r if r < r2 else r2) if mover == 0 else (r if r > r2 else r2)
                cols[x] -= pf
                rows[y] -= pf
                if mover == 0:
                    if r > best:
                        best = r
                        if r == 2:
                            return 2
                elif r < best:
                    best = r
                    if r == 0:
                        return 0
        return best

    def ab(mover: int, placed: int, key: int, alpha: int, beta: int) -> int:
        entry = tt.get(key)
        if placed == 13:
            if entry is None:
                r = three(mover)
                tt[key] = (r, r)
                return r
            return entry[0]
        if entry is not None:
            lo, hi = entry
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0, b0 = alpha, beta
        x0, x1, y0, y1 = box
        cells = [c for c in _window(x0, x1, y0, y1) if grid[c] < 0 and adj[c]]
        hand = hands[mover]
        hk = HKEY[mover]
        best = -1 if mover == 0 else 3
        nxt = 1 - mover
        if placed < ORDER_UNTIL:
            moves = []
            sign = 1 if mover == 0 else -1
            for v in (3, 2, 1, 0):
                if hand[v]:
                    p = P5[v]
                    for cell in cells:
                        c, r = cols[XS[cell]], rows[YS[cell]]
                        g = table[c + p] - table[c] - table[r + p] + table[r]
                        moves.append((g * sign, v, cell))
            moves.sort(reverse=True)
        else:
            moves = [(0, v, cell) for v in (3, 2, 1, 0) if hand[v] for cell in cells]
        for _, v, cell in moves:
            p = P5[v]
            hand[v] -= 1
            x, y = XS[cell], YS[cell]
            grid[cell] = v
            cols[x] += p
            rows[y] += p
            for n in neighbours[cell]:
                adj[n] += 1
            if x < x0:
                box[0] = x
            elif x > x1:
                box[1] = x
            if y < y0:
                box[2] = y
            elif y > y1:
                box[3] = y
            val = ab(nxt, placed + 1, key - hk[v] + (v + 1) * HSPAN * KEYW[cell], alpha, beta)
            box[0], box[1], box[2], box[3] = x0, x1, y0, y1
            for n in neighbours[cell]:
                adj[n] -= 1
            cols[x] -= p
            rows[y] -= p
            grid[cell] = -1
            hand[v] += 1
            if mover == 0:
                if val > best:
                    best = val
                    if val > alpha:
                        alpha = val
                        if alpha >= beta:
                            break
            elif val < best:
                best = val
                if val < beta:
                    beta = val
                    if alpha >= beta:
                        break
        if best <= a0:
            tt[key] = (entry[0] if entry else 0, best)
        elif best >= b0:
            tt[key] = (best, entry[1] if entry else 2)
        else:
            tt[key] = (best, best)
        return best

    if board.placed >= 14:
        rest = [c for c in range(CELLS) if grid[c] < 0 and adj[c]
                and box[0] <= XS[c] <= box[0] + 3 and box[2] <= YS[c] <= box[2] + 3]
        if not rest:
            return final()
        mine = P5[hands[mover].index(1)]
        if len(rest) == 1:
            return fin2(rest[0], mine, rest[0], 0)
        theirs = P5[hands[1 - mover].index(1)]
        r1, r2 = fin2(rest[0], mine, rest[1], theirs), fin2(rest[1], mine, rest[0], theirs)
        return max(r1, r2) if mover == 0 else min(r1, r2)
    if board.placed == 13:
        return three(mover)
    return ab(mover, board.placed, board.key * HSPAN + hand_key(hands), alpha, beta)


class ExpertMasterBot:
    """Determinized search from the view; exact over all deals in the endgame.

    ``samples``: opponent hands sampled per move while more than ``exact`` cards remain to
    be placed; ``tail``: cards at the end of each sampled playout solved by minimax;
    ``exact_nodes``: the transposition-table size after which the exact endgame stops taking
    further (less likely) opponent hands into account. All budgets count work, not time, so
    a seed gives the same moves on any machine."""

    #: it reads the position, not the event log (:class:`dragonlair.core.players.Bot`)
    reads_events = False

    def __init__(self, rng: random.Random, samples: int = 24, exact: int = 8, tail: int = 6,
                 exact_nodes: int = 60_000) -> None:
        self.rng = rng
        self.samples = samples
        self.exact = exact
        self.tail = tail
        self.exact_nodes = exact_nodes

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        moves = _place_moves(legal)
        if not moves:
            return legal[0]
        if len(moves) == 1:
            return moves[0]
        seat, table, board, mine, unseen, opp_size = position(view)
        gains = [_net_gain(table, board.cols, board.rows, a.value, a.cell, seat) for a in moves]
        if 16 - board.placed <= self.exact:
            totals = self._exact(board, seat, mine, unseen, opp_size, moves, table)
        else:
            totals = self._sampled(board, seat, mine, unseen, opp_size, moves, table)
        # the best expected result; among equals, the best immediate gain, then legal order
        best = max(range(len(moves)), key=lambda i: (totals[i], gains[i], -i))
        return moves[best]

    def _hands(self, seat: int, mine: list[int], opp: list[int]) -> list[list[int]]:
        return [mine[:], opp[:]] if seat == 0 else [opp[:], mine[:]]

    # ------------------------------------------------------------------ exact endgame
    def _exact(self, board: Board, seat: int, mine: list[int], unseen: list[int],
               opp_size: int, moves: list[MasterAction], table: list[int]) -> list[float]:
        """Expected result (win 1, draw 1/2) of every move over all opponent hands, most
        likely first; a move that can no longer catch up with the best is dropped (its
        total is then a lower bound, below the best's)."""
        totals = [0.0] * len(moves)
        alive = list(range(len(moves)))
        rest = 1.0
        tt: dict[int, tuple[int, int]] = {}
        for opp, w in opponent_hands(unseen, opp_size):
            hands = self._hands(seat, mine, opp)
            for i in alive:
                a = moves[i]
                b = board.copy()
                hands[seat][a.value] -= 1
                b.place(a.value, a.cell)
                val = solve(b, hands, 1 - seat, table, tt)
                hands[seat][a.value] += 1
                totals[i] += w * (val if seat == 0 else 2 - val) / 2
            rest -= w
            top = max(totals[i] for i in alive)
            alive = [i for i in alive if totals[i] + rest >= top - 1e-9]
            if len(alive) == 1 or len(tt) > self.exact_nodes:
                break
        for i in range(len(moves)):
            if i not in alive:
                totals[i] = -1.0
        return totals

    # ------------------------------------------------------------------ sampled search
    def _sampled(self, board: Board, seat: int, mine: list[int], unseen: list[int],
                 opp_size: int, moves: list[MasterAction], table: list[int]) -> list[float]:
        """Results summed over sampled opponent hands (the same samples for every move)."""
        pool = [v for v in range(4) for _ in range(unseen[v])]
        totals = [0.0] * len(moves)
        tt: dict[int, tuple[int, int]] = {}
        for _ in range(self.samples):
            self.rng.shuffle(pool)
            opp = [0, 0, 0, 0]
            for v in pool[:opp_size]:
                opp[v] += 1
            for i, a in enumerate(moves):
                hands = self._hands(seat, mine, opp)
                hands[seat][a.value] -= 1
                b = board.copy()
                b.place(a.value, a.cell)
                r = _rollout(b, hands, 1 - seat, table, self.tail, tt)
                totals[i] += r if seat == 0 else 2 - r
        return totals


def _rollout(b: Board, hands: list[list[int]], mover: int, table: list[int], tail: int,
             tt: dict[int, tuple[int, int]]) -> int:
    """Play a known deal out: greedy placements for both seats until ``tail`` cards are
    left, then exact minimax. M4 result from seat 0's side (2 win, 1 draw, 0 loss)."""
    cols, rows = b.cols, b.rows
    while 16 - b.placed > tail:
        hand = hands[mover]
        best_v, best_c, top = -1, -1, -1000
        own, opp = (cols, rows) if mover == 0 else (rows, cols)
        oix, pix = (XS, YS) if mover == 0 else (YS, XS)
        for cell in b.cells():
            c, r = own[oix[cell]], opp[pix[cell]]
            tc, tr = table[c], table[r]
            for v in (0, 1, 2, 3):
                if hand[v]:
                    p = P5[v]
                    g = table[c + p] - tc - table[r + p] + tr
                    if g > top:
                        top, best_v, best_c = g, v, cell
        hand[best_v] -= 1
        b.place(best_v, best_c)
        mover = 1 - mover
    return solve(b, hands, mover, table, tt)


def expert_quick(rng: random.Random) -> ExpertMasterBot:
    """A lighter expert (about a quarter of the default's time)."""
    return ExpertMasterBot(rng, samples=16, exact=7, tail=4)
