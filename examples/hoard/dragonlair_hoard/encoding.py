"""Observation vectors of Dragon's Hoard for learning code, built from a seat's view only."""

from __future__ import annotations

from typing import Any

from dragonlair.core.game import JSON, State
from dragonlair.interop.encoding import Encoder, Vector, scalar_writer


class HoardEncoder(Encoder):
    """The observing seat, who rolls, the hoards and the turn's gold (scaled by the target),
    the last face; the recall block is empty (the position is all there is to know)."""

    game_id = "hoard"

    def _build(self) -> None:
        n = self.num_players
        self.target = float(self.game.options["target"])
        o = self.obs
        o.add("seat", n, "one-hot: the observing seat")
        o.add("roller", n, "one-hot: whose turn it is")
        o.add("rolling", 1, "the die is due")
        o.add("hoards", n, "each seat's hoard / target", high=2.0)
        o.add("turn_gold", 1, "the turn's gold / target", high=2.0)
        o.add("last_roll", 6, "one-hot: the die's last face")
        o.add("result", n, "winners once the game is over")
        self.recall.add("none", 0, "nothing: the game has no hidden past")
        # the fast path's type and offsets (_observe_state)
        from dragonlair_hoard.game import HoardState

        self._state_type = HoardState
        at = o.at
        self._roller_at = at["roller"].start
        self._rolling_at = at["rolling"].start
        self._hoards_at = at["hoards"].start
        self._gold_at = at["turn_gold"].start
        self._roll_at = at["last_roll"].start - 1
        self._result_at = at["result"].start

    def _observe(self, view: JSON, vec: Vector) -> None:
        at = self.obs.at
        public = view["public"]
        self._one_hot(vec, at["seat"], view.get("seat"))
        self._one_hot(vec, at["roller"], public["roller"])
        vec[at["rolling"].start] = 1.0 if view["chance"] else 0.0
        for s, gold in enumerate(public["hoards"]):
            vec[at["hoards"].start + s] = gold / self.target
        vec[at["turn_gold"].start] = public["turn_gold"] / self.target
        if public["last_roll"] is not None:
            self._one_hot(vec, at["last_roll"], public["last_roll"] - 1)
        if view["result"] is not None:
            self._mask(vec, at["result"], view["result"]["winners"])

    def _observe_state(self, state: State, seat: int | None, vec: Vector) -> bool:
        """:meth:`_observe` of the position view, read from the state's fields (all public:
        the game has no secrets). A seat the view would refuse goes the view's way."""
        n = self.num_players
        if type(state) is not self._state_type or not (
                seat is None or (type(seat) is int and 0 <= seat < n)):
            return False
        st: Any = state
        out = scalar_writer(vec)  # a scalar write there costs half a numpy one
        if seat is not None:
            out[seat] = 1.0
        out[self._roller_at + st.roller] = 1.0
        winners = st.winners
        if st.rolling and not winners:
            out[self._rolling_at] = 1.0
        target = self.target
        h = self._hoards_at
        for s, gold in enumerate(st.hoards):
            out[h + s] = gold / target
        out[self._gold_at] = st.turn_gold / target
        last = st.last_roll
        if last is not None and last >= 1:
            out[self._roll_at + last] = 1.0
        for w in winners:
            out[self._result_at + w] = 1.0
        return True

    def _recall(self, view: JSON, vec: Vector) -> None:
        return None
