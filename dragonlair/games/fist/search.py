"""The Fist of Dragonstones model for the ISMCTS search (:mod:`dragonlair.bots.ismcts`).

Determinization: the position rebuilt from the seat's views by a perfect memory of the
public record (:mod:`memory`); the sealed bids not yet revealed are not in it, so every
seat still to bid bids in the search, decoupled, as the simultaneous move it is (F5.1).
Cards and stones to come are chance nodes (F4.2), drawn afresh in every iteration.
Tree: at a bid node each seat considers a handful of bids the heuristic proposes (its
own choice, outbidding the likeliest rival, a modest bid, the empty fist, going all in,
a curse); power decisions consider every legal option. Rollouts follow the heuristic
for ``horizon`` auctions past the root, then every seat's chance to win is estimated
from its equity (:func:`heuristic.win_chances`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dragonlair.core.game import JSON, Action, State
from dragonlair.games.fist.heuristic import FistHeuristic, win_chances
from dragonlair.games.fist.memory import FistMemory
from dragonlair.games.fist.state import FistState, Phase


class FistSearchModel:
    """Determinize from views; propose, roll out and evaluate with the heuristic."""

    fixed_positions = True  # only the sealed bids are hidden, and they are searched

    def __init__(self, rng: random.Random, horizon: int = 2, my_bids: int = 6,
                 their_bids: int = 4) -> None:
        self.memory = FistMemory()
        self.policy = FistHeuristic(rng)
        self.auctions = horizon
        self.my_bids = my_bids
        self.their_bids = their_bids
        self.me = -1

    def determinize(self, view: JSON, rng: random.Random) -> FistState:
        self.me = view["seat"]
        return self.memory.update(view).clone()

    def candidates(self, state: State, seat: int) -> Sequence[Action]:
        assert isinstance(state, FistState)
        ph = state.phase
        if ph == Phase.BID:
            return self.policy.bid_options(
                state, seat, self.my_bids if seat == self.me else self.their_bids)
        if ph == Phase.TIEBID:
            legal = state.legal_actions(seat)
            if len(legal) <= 6:
                return legal
            mine = self.policy.silver(state, seat)
            picks = {legal[0].index: legal[0], mine.index: mine}
            for a in (legal[-1], legal[len(legal) // 2]):
                picks.setdefault(a.index, a)
            return list(picks.values())
        return state.legal_actions(seat)

    def rollout_actions(self, state: State, seats: Sequence[int]) -> Sequence[Action]:
        assert isinstance(state, FistState)
        if state.phase == Phase.BID:
            return self.policy.bids(state, seats)
        return [self.policy.act(state, s) for s in seats]

    def horizon(self, root: State, state: State) -> bool:
        assert isinstance(root, FistState) and isinstance(state, FistState)
        if state.turn != root.turn:
            return True
        return len(state.auctioned) > len(root.auctioned) + self.auctions - 1 and (
            state.phase == Phase.BID)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, FistState)
        return win_chances(state)
