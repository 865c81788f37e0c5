"""A perfect memory of the public record: the position a seat can reconstruct from its views.

Everything in Fist of Dragonstones that changes a hidden coin count is announced in the
public record (F8): the starting coins, every gain from the bank, every revealed bid, every
power and its choices (a Thief's or Brigand's take follows from counts a perfect memory
already knows). The engine draws cards and stones at the moment they are revealed (F4.2),
so no hidden order lives in the state either. Replaying the record a seat sees therefore
rebuilds the whole position, except the sealed bids not yet revealed, which a view shows
only as ``pN: sealed`` (F8). The rebuilt state has those seats still to bid: a bot that
searches it treats the sealed bid as the simultaneous move it is.

Bots use this instead of the engine's state, which they never receive.
"""

from __future__ import annotations

from typing import Any

from dragonlair.core.game import JSON
from dragonlair.core.records import parse_entry
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.state import FistState

SEALED = "sealed"


class MemoryMismatch(Exception):
    """The views do not fit together (a bot was handed views of different games)."""


class FistMemory:
    """Rebuilds a seat's position from its views, incrementally (one entry per new action)."""

    def __init__(self) -> None:
        self.game: FistGame | None = None
        self.state: FistState | None = None
        self.options: dict[str, Any] = {}
        self.applied: list[str] = []  # entries replayed so far

    def update(self, view: JSON) -> FistState:
        """The position as ``view``'s seat knows it (shared: clone it before changing it)."""
        public = view["public"]
        options = {**public["options"], "players": public["players"]}
        history: list[str] = public["history"]
        if (self.state is None or options != self.options or len(history) < len(self.applied)
                or (self.applied and history[len(self.applied) - 1] != self.applied[-1])):
            self._reset(options)
        assert self.state is not None and self.game is not None
        state, game, n = self.state, self.game, self.game.num_players
        for entry in history[len(self.applied):]:
            seat, text = parse_entry(entry, n)
            if text == SEALED:
                break  # a sealed bid not yet revealed, and everything after it
            state.apply(seat, game.parse_action(text))
            self.applied.append(entry)
        me = view.get("private")
        if me is not None:
            p = state.players[view["seat"]]
            if (p.fairy, p.common, p.silver) != (me["fairy"], me["common"], me["silver"]):
                raise MemoryMismatch("the public record does not explain this seat's coins")
        return state

    def _reset(self, options: dict[str, Any]) -> None:
        self.options = options
        self.game = FistGame(options)
        self.state = self.game.new_initial_state()
        self.applied = []
