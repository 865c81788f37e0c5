"""Drive a game: chance from a seeded ``random.Random``, seats from bots (views only)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dragonlair.core.game import CHANCE, Action, State, StateT
from dragonlair.core.players import Bot, ask_bot
from dragonlair.core.streams import SeatViews


def seed_for(seed: int, game_index: int, stream: int = 0) -> int:
    """A reproducible seed for game ``game_index`` of a run (stream 0: chance, 1+: seats)."""
    return (seed * 1_000_003 + game_index) * 17 + stream


def play_out(
    state: StateT,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    on_action: Callable[[StateT, int, Action], None] | None = None,
    max_actions: int = 1_000_000,
) -> StateT:
    """Play ``state`` to the end (and return it). Each bot sees only its seat's view (F8, M6,
    D9), kept current from the events since its last one (:mod:`dragonlair.core.streams`)."""
    views = SeatViews()
    for _ in range(max_actions):
        seats = state.current_seats()
        if not seats:
            return state
        if seats[0] == CHANCE:
            action = state.sample_chance(rng)
            state.apply(CHANCE, action)
            if on_action:
                on_action(state, CHANCE, action)
            continue
        # sealed simultaneous moves: every seat chooses from the same position
        choices = [(seat, ask_bot(bots[seat], state, seat, views)) for seat in seats]
        for seat, action in choices:
            state.apply(seat, action)
            if on_action:
                on_action(state, seat, action)
    raise RuntimeError(f"game did not end within {max_actions} actions")


def random_playout(state: State, rng: random.Random) -> int:
    """Uniform random playout through the public API; returns the number of actions."""
    n = 0
    while True:
        seats = state.current_seats()
        if not seats:
            return n
        if seats[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            n += 1
            continue
        for seat in seats:
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            n += 1
