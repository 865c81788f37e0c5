"""Dragon Master's observation encoder (M6), built from a seat's view only
(:mod:`dragonlair.interop.encoding` describes the vectors).
"""

from __future__ import annotations

from typing import Any

from dragonlair.core.game import CHANCE, JSON, State
from dragonlair.interop.encoding import Encoder, Vector, scalar_writer


class MasterEncoder(Encoder):
    """Dragon Master (M6: public grid and hand sizes, one's own hand).

    Cells are numbered ``row * 7 + column`` (a1 = 0, b1 = 1, ..., g7 = 48); card values are
    egg, emerald, sapphire, ruby (0-3). The recall block is the current round's placements in
    order: with the seat's own hand it is the seat's whole record of the round.
    """

    game_id = "master"

    def _build(self) -> None:
        from dragonlair.games.master.actions import CELLS
        from dragonlair.games.master.rounds import Phase

        self.phases = [p.name.lower() for p in Phase]
        o = self.obs
        o.add("seat", 2, "one-hot: the observing seat (0 owns the columns, 1 the rows)")
        o.add("phase", len(self.phases), "one-hot: deal, start, place, over")
        o.add("to_move", 3, "p0, p1, chance")
        o.add("grid", CELLS * 4, "cell x value one-hot (49 x 4): the placed cards")
        o.add("legal_cells", CELLS, "cells a card may go on now (M3)")
        o.add("hand_sizes", 2, "cards in each hand / 8")
        o.add("line_scores", 8, "seat 0's four column scores, then seat 1's four row scores, "
              "/ 100", high=2.0)
        o.add("starter", 2, "one-hot: who started the round")
        o.add("match", 3, "match play flag, then each seat's dragons / 2")
        o.add("hand", 4, "own hand: count per value / 8 (zeros for a spectator)")
        o.add("unseen", 4, "cards the seat has not seen, per value / 5 (M6)")
        o.add("result", 2, "winners once the game is over")
        self.slots = 16
        self.recall.add("placements", self.slots * (2 + 4 + CELLS),
                        "16 slots in placement order: placer one-hot (2), value one-hot (4), "
                        "cell one-hot (49)")
        self._fast_tables()

    def _fast_tables(self) -> None:
        """What the fast path (:meth:`_observe_state`) reads with: the state's type, each
        block's start, each phase's place, the rules' line scores (M4)."""
        from dragonlair.games.master.cards import COPIES
        from dragonlair.games.master.rounds import Phase, line_scores
        from dragonlair.games.master.state import MasterState

        at = self.obs.at
        self._state_type = MasterState
        self._copies = COPIES
        self._line_scores = line_scores
        self._phase_at = {p: at["phase"].start + self.phases.index(p.name.lower())
                          for p in Phase}
        self._placing = Phase.PLACE
        self._over = Phase.OVER
        self._to_move_at = at["to_move"].start
        self._grid_at = at["grid"].start
        self._legal_at = at["legal_cells"].start
        self._sizes_at = at["hand_sizes"].start
        self._lines_at = at["line_scores"].start
        self._starter_at = at["starter"].start
        self._match_at = at["match"].start
        self._hand_at = at["hand"].start
        self._unseen_at = at["unseen"].start
        self._result_at = at["result"].start

    def _observe(self, view: JSON, vec: Vector) -> None:
        from dragonlair.games.master.actions import cell_index
        from dragonlair.games.master.cards import BY_ID, CARDS

        at = self.obs.at
        public, private = view["public"], view["private"]
        self._one_hot(vec, at["seat"], view.get("seat"))
        self._one_hot(vec, at["phase"], self.phases.index(view["phase"]))
        self._to_move(vec, at["to_move"], [*view["to_move"], *(["chance"] if view["chance"]
                                                                else [])])
        g = at["grid"].start
        for name, card in public["grid"].items():
            cell = cell_index(name)
            assert cell is not None
            vec[g + cell * 4 + BY_ID[card].value] = 1.0
        self._mask(vec, at["legal_cells"],
                   (cell_index(c) or 0 for c in public["legal_cells"]))
        sl = at["hand_sizes"]
        vec[sl] = [n / 8 for n in public["hand_sizes"]]
        scores = public["line_scores"]
        lines = list(scores["columns"]) + list(scores["rows"])
        vec[at["line_scores"]] = [x / 100 for x in lines]
        self._one_hot(vec, at["starter"], public["starter"])
        m = at["match"].start
        vec[m] = 1.0 if public["match"] else 0.0
        vec[m + 1] = public["dragons"][0] / 2
        vec[m + 2] = public["dragons"][1] / 2
        if private is not None:
            vec[at["hand"]] = [private["hand"][c.id] / 8 for c in CARDS]
            vec[at["unseen"]] = [private["unseen"][c.id] / 5 for c in CARDS]
        result = view.get("result")
        if result:
            self._mask(vec, at["result"], result["winners"])

    def _observe_state(self, state: State, seat: int | None, vec: Vector) -> bool:
        """:meth:`_observe` of ``seat``'s position view, read from the public fields of the
        state and the seat's own hand only (M6; never the other hand nor the set-aside
        cards). A seat the view would refuse goes the view's way (and is refused there)."""
        if type(state) is not self._state_type or not (
                seat is None or (type(seat) is int and 0 <= seat < 2)):
            return False
        st: Any = state
        out = scalar_writer(vec)  # a scalar write there costs half a numpy one
        if seat is not None:
            out[seat] = 1.0
        phase = st.phase
        out[self._phase_at[phase]] = 1.0
        to_move = st.to_move
        if to_move == (CHANCE,):
            out[self._to_move_at + 2] = 1.0
        else:
            for s in to_move:
                if s != CHANCE:
                    out[self._to_move_at + s] = 1.0
        g = self._grid_at
        grid = st.grid
        on_grid = [0, 0, 0, 0]  # the cards of each value on the grid
        occupied = st.occupied  # the cells holding a card, as bits (those of grid >= 0)
        while occupied:
            low = occupied & -occupied
            cell = low.bit_length() - 1
            occupied ^= low
            v = grid[cell]
            out[g + cell * 4 + v] = 1.0
            on_grid[v] += 1
        if phase == self._placing:  # the legal cells: the bits of the mask (M3)
            lc = self._legal_at
            mask = st.legal_mask
            while mask:
                low = mask & -mask
                out[lc + low.bit_length() - 1] = 1.0
                mask ^= low
        hands = st.hands
        h = self._sizes_at
        out[h] = sum(hands[0]) / 8
        out[h + 1] = sum(hands[1]) / 8
        cols, rows = self._line_scores(st)
        ls = self._lines_at
        for i, x in enumerate(cols):
            out[ls + i] = x / 100
        for i, x in enumerate(rows):
            out[ls + 4 + i] = x / 100
        if st.starter >= 0:
            out[self._starter_at + st.starter] = 1.0
        m = self._match_at
        if st.game.match:
            out[m] = 1.0
        dragons = st.dragons
        out[m + 1] = dragons[0] / 2
        out[m + 2] = dragons[1] / 2
        if seat is not None:
            hand = hands[seat]  # the seat's own hand, no other (M6)
            ha, un, copies = self._hand_at, self._unseen_at, self._copies
            for v in range(4):
                n = hand[v]
                out[ha + v] = n / 8
                out[un + v] = (copies - on_grid[v] - n) / 5
        if phase == self._over:
            r = self._result_at
            for w in st.winners:
                out[r + w] = 1.0
        return True

    def _recall(self, view: JSON, vec: Vector) -> None:
        from dragonlair.games.master.actions import CELLS, cell_index
        from dragonlair.games.master.cards import BY_ID

        public = view["public"]
        # the placements of the round on the grid (none between a match's rounds)
        placed = public["placements"] if public["grid"] else []
        width = 2 + 4 + CELLS
        for slot, entry in enumerate(placed):
            base = slot * width
            vec[base + entry["seat"]] = 1.0
            vec[base + 2 + BY_ID[entry["card"]].value] = 1.0
            c = cell_index(entry["cell"])
            assert c is not None
            vec[base + 6 + c] = 1.0
