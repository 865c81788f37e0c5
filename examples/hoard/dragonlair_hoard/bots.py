"""Bots for Dragon's Hoard. They see their seat's view and the legal actions, nothing else.

``cautious``: the classic "hold at 20" of Pig: roll until the turn's gold reaches 20 (or
would win the game), then bank. Against random play it wins nearly every game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dragonlair.core.game import JSON, Action

HOLD_AT = 20


class CautiousBot:
    """Banks at ``HOLD_AT`` gold in a turn, or as soon as banking wins."""

    def __init__(self, rng: random.Random, hold_at: int = HOLD_AT) -> None:
        self.rng = rng
        self.hold_at = hold_at

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        by_text = {str(a): a for a in legal}
        if "bank" not in by_text:
            return by_text["roll"]
        public = view["public"]
        gold = public["turn_gold"]
        mine = public["hoards"][view["seat"]]
        if gold >= self.hold_at or mine + gold >= public["target"]:
            return by_text["bank"]
        return by_text["roll"]
