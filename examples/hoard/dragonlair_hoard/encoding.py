"""Observation vectors of Dragon's Hoard for learning code, built from a seat's view only."""

from __future__ import annotations

from dragonlair.core.game import JSON
from dragonlair.interop.encoding import Encoder, Vector


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

    def _recall(self, view: JSON, vec: Vector) -> None:
        return None
