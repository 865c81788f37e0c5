"""Determinization for Dragon Master (M6), from a seat's view alone.

What the seat knows: the finished rounds (their placements and set-aside cards are public),
the current round's placements, its own hand, and each hand's size. What is hidden: the
other hand of the current round. Its cards are the ones that player has placed this round,
plus a uniform sample, without replacement, of the cards the seat has not seen (``unseen``:
20 minus its own hand minus the grid); the cards left are the set-aside ones. Within a hand
the order of the deal is not known and does not matter: each hand is dealt in a fixed order
(the cards placed, in placement order, then the cards held, by value), so the position is one
the seat cannot tell apart from the real one. The generic loop is
:func:`dragonlair.interop.resample.sample_history`.
"""

from __future__ import annotations

import random
from typing import Any

from dragonlair.core.game import CHANCE, JSON, Action, Game, State
from dragonlair.interop.resample import History, ResampleError, apply_or_refuse


def _values(cards: dict[str, int]) -> list[int]:
    from dragonlair.games.master.cards import CARDS

    return [c.value for c in CARDS for _ in range(cards[c.id])]


def determinize(game: Game, view: JSON, seat: int,
                rng: random.Random) -> tuple[State, History] | None:
    from dragonlair.games.master.actions import DEAL, PLACE, START, cell_index
    from dragonlair.games.master.cards import BY_ID, HAND

    try:
        public: dict[str, Any] = view["public"]
        private: dict[str, Any] = view["private"]
        rounds = public["rounds"]
        current = public["placements"] if view["phase"] != "over" else []
        sizes = public["hand_sizes"]
        own = _values(private["hand"])
        unseen = _values(private["unseen"])
    except (KeyError, TypeError) as exc:
        raise ResampleError("master.determinize.not_a_view", why=str(exc)) from None

    def place(entry: dict[str, Any]) -> tuple[int, Action]:
        cell = cell_index(entry["cell"])
        if cell is None:
            raise ResampleError("master.determinize.not_a_view", why=entry["cell"])
        return entry["seat"], PLACE[BY_ID[entry["card"]].value][cell]

    script: list[tuple[int, Action]] = []
    for k, r in enumerate(rounds):  # finished rounds: everything in them is public
        placed = [BY_ID[e["card"]].value for e in r["placements"]]
        seats = [e["seat"] for e in r["placements"]]
        for owner in (0, 1):
            script += [(CHANCE, DEAL[v]) for v, s in zip(placed, seats, strict=True)
                       if s == owner]
        if k == 0:
            script.append((CHANCE, START[r["starter"]]))
        script += [place(e) for e in r["placements"]]
    if view["phase"] != "over":
        other = 1 - seat
        mine_placed = [BY_ID[e["card"]].value for e in current if e["seat"] == seat]
        their_placed = [BY_ID[e["card"]].value for e in current if e["seat"] == other]
        rest = sorted(unseen)  # 20 - own hand - grid: the other hand and the set-aside
        count = sizes[other] + len(their_placed)  # the other seat's cards dealt so far
        if count - len(their_placed) > len(rest):
            raise ResampleError("master.determinize.not_a_view", why="hand sizes")
        hidden = their_placed + rng.sample(rest, count - len(their_placed))
        rng.shuffle(hidden)
        hands = {seat: mine_placed + own, other: hidden}
        for owner in (0, 1):
            script += [(CHANCE, DEAL[v]) for v in hands[owner][:HAND]]
        if not rounds and public["starter"] is not None:
            script.append((CHANCE, START[public["starter"]]))
        script += [place(e) for e in current]
    state = game.new_initial_state()
    history: History = []
    for who, action in script:
        if not apply_or_refuse(state, history, who, action):
            raise ResampleError("master.determinize.no_replay", action=str(action))
    return state, history
