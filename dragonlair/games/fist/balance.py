"""Fist of Dragonstones in the balance report (:mod:`dragonlair.balance`).

A player gets a character when they use its power from the card itself: by winning its
auction (cursed and passed auctions give it to nobody), or by playing it with the Goblin or
the Imp. A Ghost copying a character counts for the Ghost only; a Doppelganger doubling a
power counts once. A Goblin or Imp revealed last, and so never auctioned, counts for nobody.
One more row: holding the Doppelganger when the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from dragonlair.balance import CardStats
from dragonlair.core.game import CHANCE, Action, Game, State
from dragonlair.core.plugin import BalanceObserver

if TYPE_CHECKING:
    from dragonlair.games.fist.actions import FistAction
    from dragonlair.games.fist.game import FistGame
    from dragonlair.games.fist.state import FistState

#: the id of the extra row: the Doppelganger held when the game ends
DOPPEL_END = "doppelganger@end"


class FistBalanceObserver(BalanceObserver):
    """Characters (and the Doppelganger held at the end) for the balance report. Replays
    each auction's resolution (F5.2-F5.7) from the revealed bids, and sees Goblin and Imp
    plays as cards entering the turn's ``auctioned`` list without a reveal."""

    got_help = "times a player got it (auction won, or played by the Goblin / Imp)"
    default_bot = "greedy"

    def __init__(self, game: FistGame) -> None:
        self.n = game.num_players
        self.cards = [CardStats(c.id, c.name_en, "character",
                                counts=dict.fromkeys(("auctioned", "won", "played", "cursed",
                                                      "passed", "doubled"), 0))
                      for c in game.cards]
        if game.doppelganger is not None:
            self.cards.append(CardStats(DOPPEL_END, "Doppelganger at game end",
                                        "held at end"))

    def start(self, state: State) -> None:
        from dragonlair.games.fist.state import Phase

        self.holders: list[set[int]] = [set() for _ in self.cards]
        self.bids: list[Any] = []
        self.silver: list[tuple[int, Any]] = []
        self.tied: tuple[int, ...] = ()
        self.card = 0
        self.winner: int | None = None
        self.auctioned_list: list[int] | None = None
        self.seen = 0
        self.prev_phase = Phase.SETUP

    def __call__(self, state: State, seat: int, action: Action) -> None:
        from dragonlair.games.fist.actions import Kind
        from dragonlair.games.fist.state import Phase

        s = cast("FistState", state)
        kind = cast("FistAction", action).kind
        if seat >= 0 and kind == Kind.BID:
            if not self.bids:  # the first sealed bid: the card is up for auction
                assert s.current is not None
                self.card = s.current
                self.winner = None
                self.cards[self.card].counts["auctioned"] += 1
            self.bids.append(action)
            if len(self.bids) == self.n:
                self._reveal(s)
        elif seat >= 0 and kind == Kind.SILVER:
            self.silver.append((seat, action))
            if len(self.silver) == len(self.tied):
                self._reveal_silver(s)
        elif seat >= 0 and kind == Kind.DOUBLE:
            self.cards[self.card].counts["doubled"] += 1
        self._scan(s, revealed=seat == CHANCE and self.prev_phase == Phase.REVEAL)
        self.prev_phase = s.phase

    def _reveal(self, s: FistState) -> None:
        bids = self.bids
        self.bids = []
        counts = self.cards[self.card].counts
        if any(b.black for b in bids):  # F5.4: cursed
            counts["cursed"] += 1
            return
        values = [b.value for b in bids]  # F5.2
        top = max(values)
        tied = tuple(i for i, v in enumerate(values) if v == top)
        if top == 0:  # F5.5
            counts["passed"] += 1
        elif len(tied) == 1:  # F5.6
            self._win(s, tied[0])
        else:  # F5.7
            self.tied = tied
            self.silver = []

    def _reveal_silver(self, s: FistState) -> None:
        vals = {seat: b.value for seat, b in self.silver}  # F5.7
        self.silver = []
        self.tied = ()
        top = max(vals.values())
        best = [seat for seat, v in vals.items() if v == top]
        if len(best) == 1:
            self._win(s, best[0])
        else:
            self.cards[self.card].counts["passed"] += 1

    def _win(self, s: FistState, winner: int) -> None:
        # the engine keeps its winner while it waits (or when the game ended): agree with it
        if s.winner is not None and s.current == self.card and s.winner != winner:
            raise AssertionError(f"balance: auction winner p{winner}, engine says p{s.winner}")
        self.winner = winner
        self.cards[self.card].counts["won"] += 1
        self.cards[self.card].acquisitions += 1
        self.holders[self.card].add(winner)

    def _scan(self, s: FistState, revealed: bool) -> None:
        """Cards that entered this turn's ``auctioned`` list: a reveal (chance, REVEAL) or a
        Goblin / Imp play by the winner of the auction being resolved."""
        new: list[int] = []
        if s.auctioned is not self.auctioned_list:
            if self.auctioned_list is not None:
                new.extend(self.auctioned_list[self.seen:])
            self.auctioned_list = s.auctioned
            self.seen = 1  # entry 0, the Witch, is auctioned without a reveal
        new.extend(s.auctioned[self.seen:])
        self.seen = max(self.seen, len(s.auctioned))
        if revealed and new:
            new = new[1:]
        for k in new:
            assert self.winner is not None, "a card was played outside a won auction"
            self.cards[k].counts["played"] += 1
            self.cards[k].acquisitions += 1
            self.holders[k].add(self.winner)

    def got(self, state: State) -> list[set[int]]:
        s = cast("FistState", state)
        if s.game.doppelganger is not None and s.doppel_holder is not None:
            self.holders[-1].add(s.doppel_holder)
            self.cards[-1].acquisitions += 1
        return self.holders


def observer(game: Game) -> FistBalanceObserver:
    """The balance observer of a configured Fist game."""
    from dragonlair.games.fist.game import FistGame

    assert isinstance(game, FistGame)
    return FistBalanceObserver(game)
