"""Information-Set Monte Carlo Tree Search, for any game of the contract.

After Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search":
every iteration samples a full state consistent with the searching seat's view (a
*determinization*), then walks one shared tree whose nodes are the seats' decisions, so
statistics gather over every hidden state the seat thinks possible. Actions available in
only some determinizations are handled with availability counts (SO-ISMCTS).

Simultaneous moves (a sealed bid) are decoupled (decoupled UCT, Lanctot et al. 2013):
at such a node every bidding seat keeps its own statistics and picks its own action by
UCB against its own reward, and the joint action leads to the child. Chance nodes branch
on the outcome drawn. Rollouts follow a game-specific policy up to a horizon and are
scored by an evaluation function that estimates each seat's chance to win.

The game supplies a :class:`SearchModel`; the search itself knows only the contract.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from dragonlair.core.game import CHANCE, JSON, Action, State


class SearchModel(Protocol):
    """What a game gives the search."""

    #: True when a tree node stands for the same position in every determinization (only
    #: simultaneous moves are hidden), so its candidates never need re-checking.
    fixed_positions: bool

    def determinize(self, view: JSON, rng: random.Random) -> State:
        """A full state consistent with ``view`` (the searching seat's knowledge)."""

    def candidates(self, state: State, seat: int) -> Sequence[Action]:
        """The actions the tree considers for ``seat`` here (all legal ones, or a pruned set)."""

    def rollout_actions(self, state: State, seats: Sequence[int]) -> Sequence[Action]:
        """The rollout policy's actions for ``seats`` (several at a simultaneous move), all
        chosen from the same position."""

    def horizon(self, root: State, state: State) -> bool:
        """True when a rollout from ``root`` has gone far enough to be evaluated."""

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's reward in [0, 1] (exact at a terminal state)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long to think: iterations (reproducible) and/or seconds (whichever ends first)."""

    iterations: int = 300
    seconds: float | None = None


class _Stat:
    __slots__ = ("avail", "n", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 0


class _Node:
    __slots__ = ("candidates", "children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[int, ...], _Node] = {}
        self.stats: dict[tuple[int, int], _Stat] = {}
        # candidates per seat, proposed once: with chance branched, a node's positions
        # differ only in what the determinizations differ in
        self.candidates: dict[int, Sequence[Action]] = {}


@dataclass(slots=True)
class SearchResult:
    """The chosen action, how many iterations ran, and the root statistics of the seat."""

    action: Action
    iterations: int
    visits: dict[str, int]
    values: dict[str, float]


class ISMCTS:
    """The search. ``exploration``: the UCB constant, in units of reward."""

    def __init__(self, model: SearchModel, rng: random.Random, budget: Budget,
                 exploration: float = 0.35) -> None:
        self.model = model
        self.rng = rng
        self.budget = budget
        self.c = exploration

    def search(self, view: JSON, seat: int, legal: Sequence[Action]) -> SearchResult:
        """Choose among ``legal`` for ``seat`` by searching from ``view``."""
        model, rng = self.model, self.rng
        root = _Node()
        budget = self.budget
        deadline = (time.perf_counter() + budget.seconds) if budget.seconds else None
        done = 0
        base = model.determinize(view, rng)
        while done < budget.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, base.clone(), base)
            done += 1
        legal_ix = {a.index: a for a in legal}
        mine = {ai: st for (s, ai), st in root.stats.items() if s == seat and ai in legal_ix}
        if not mine:
            return SearchResult(legal[0], done, {}, {})
        best = max(mine, key=lambda ai: (mine[ai].n, mine[ai].w))
        return SearchResult(
            legal_ix[best], done,
            {str(legal_ix[ai]): st.n for ai, st in mine.items()},
            {str(legal_ix[ai]): st.w / st.n for ai, st in mine.items() if st.n})

    def _iterate(self, root: _Node, st: State, start: State) -> None:
        model, rng = self.model, self.rng
        node = root
        path: list[tuple[_Node, list[tuple[int, int]]]] = []
        expanded = False
        while True:
            seats = st.current_seats()
            if not seats or model.horizon(start, st):
                break
            if seats[0] == CHANCE:
                outcome = st.sample_chance(rng)
                st.apply(CHANCE, outcome)
                if not expanded:
                    edge = (-1, outcome.index)
                    nxt = node.children.get(edge)
                    if nxt is None:
                        nxt = node.children[edge] = _Node()
                    node = nxt
                continue
            if expanded:  # rollout
                for s, a in zip(seats, model.rollout_actions(st, seats), strict=True):
                    st.apply(s, a)
                continue
            choices = [(s, self._select(node, st, s)) for s in seats]
            for s, a in choices:
                st.apply(s, a)
            picked = [(s, a.index) for s, a in choices]
            path.append((node, picked))
            key = tuple(ai for _, ai in picked)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                expanded = True
            node = child
        rewards = model.evaluate(st)
        for n, picked in path:
            for s, ai in picked:
                stat = n.stats[(s, ai)]
                stat.n += 1
                stat.w += rewards[s]

    def _select(self, node: _Node, st: State, seat: int) -> Action:
        cands = node.candidates.get(seat)
        if cands is None:
            cands = node.candidates[seat] = self.model.candidates(st, seat)
        if not self.model.fixed_positions:
            legal = {a.index for a in st.legal_actions(seat)}
            if any(a.index not in legal for a in cands):
                cands = self.model.candidates(st, seat)  # some are not available here
        stats = node.stats
        best: Action | None = None
        best_score = -math.inf
        for a in cands:
            key = (seat, a.index)
            stat = stats.get(key)
            if stat is None:
                stat = stats[key] = _Stat()
            stat.avail += 1
            if stat.n == 0:
                score = 1e9 + self.rng.random()
            else:
                score = stat.w / stat.n + self.c * math.sqrt(math.log(stat.avail) / stat.n)
            if score > best_score:
                best_score, best = score, a
        assert best is not None
        return best
