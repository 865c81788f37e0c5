"""Dragon Farkle in the balance report (:mod:`dragonlair.balance`).

A player gets a companion when it is dealt to them (at setup, or after a wipe-out in the
Lair), and a magic item when it is in their hand at a moment when nobody is over the item
limit: the starting item, and items kept at the end of a turn (items gained and lost to a
farkle, or discarded at once at the limit, never were held).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, cast

from dragonlair.balance import CardStats
from dragonlair.core.game import Action, Game, State
from dragonlair.core.plugin import BalanceObserver

if TYPE_CHECKING:
    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.state import FarkleState


class FarkleBalanceObserver(BalanceObserver):
    """Companions and items for the balance report. Companions: a new value in a seat's
    companion slot. Items: a seat's hand grows, looked at only when no player is over the
    item limit (D8.3)."""

    got_help = "times dealt or kept"
    #: ``optimal`` plays about 9 games/s, ``cautious`` about 250: 500 games stay under a minute
    default_bot = "cautious"

    def __init__(self, game: FarkleGame) -> None:
        self.n = game.num_players
        self.ncomp = len(game.companions)
        self.cards = [CardStats(c.id, c.name_en, c.kind.value)
                      for c in (*game.companions, *game.items)]

    def start(self, state: State) -> None:
        self.holders: list[set[int]] = [set() for _ in self.cards]
        self.companion = [-1] * self.n
        self.hands: list[list[int]] = [[] for _ in range(self.n)]

    def __call__(self, state: State, seat: int, action: Action) -> None:
        from dragonlair.games.farkle.state import Dec, Phase

        s = cast("FarkleState", state)
        for p, k in enumerate(s.companions):
            if k != self.companion[p]:
                self.companion[p] = k
                if k >= 0:
                    self.cards[k].acquisitions += 1
                    self.holders[k].add(p)
        if s.phase == Phase.DECIDE and s.dec == Dec.DISCARD:
            return  # someone is over the limit: wait until they have chosen
        for p, hand in enumerate(s.items):
            old = self.hands[p]
            if hand != old:
                grown = Counter(hand) - Counter(old)
                for i, n in grown.items():
                    self.cards[self.ncomp + i].acquisitions += n
                    self.holders[self.ncomp + i].add(p)
                self.hands[p] = list(hand)

    def got(self, state: State) -> list[set[int]]:
        return self.holders


def observer(game: Game) -> FarkleBalanceObserver:
    """The balance observer of a configured Farkle game."""
    from dragonlair.games.farkle.game import FarkleGame

    assert isinstance(game, FarkleGame)
    return FarkleBalanceObserver(game)
