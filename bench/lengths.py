"""What a decision costs as a game grows: CPU microseconds per step early, midway and late
in a long game, for a driver that follows the game (``SeatViews``), for one that builds the
full view each time (what every consumer did before issue 24), and for an adapter's
observation (the position view, encoded).

    python bench/lengths.py [GAME ...] [--window N]

A step: chance drawn, or each seat to move asked its view and legal actions and a random
legal action applied. The game is the longest (in events) of ten seeded random games on a
long table (no turn limit; Fist at 6 players, Farkle at 5, Master a match); the cost is
measured over ``--window`` steps (default 100) from where the game first has 10%, 50% and
90% of its events (the counts are printed).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from dragonlair.core.game import CHANCE, State
from dragonlair.core.streams import SeatViews
from dragonlair.games import make_game
from dragonlair.interop import common
from dragonlair.interop.encoding import encoder_for

SHARES = (0.1, 0.5, 0.9)
TABLES: dict[str, dict[str, Any]] = {
    "fist": {"players": 6, "max_turns": None},
    "farkle": {"players": 5, "max_turns": None},
    "master": {"match": True},
}


def step(state: State, rng: random.Random, look: Callable[[State, int], Any]) -> None:
    seats = state.current_seats()
    if seats == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
        return
    chosen = []
    for seat in seats:
        look(state, seat)
        legal = state.legal_actions(seat)
        chosen.append((seat, legal[rng.randrange(len(legal))]))
    for seat, action in chosen:
        state.apply(seat, action)


def longest(game_id: str) -> tuple[int, int]:
    """The seed of the longest of ten random games, and its number of events."""
    game = make_game(game_id, TABLES.get(game_id, {}))
    lengths = []
    for seed in range(10):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            step(state, rng, lambda s, seat: None)
        lengths.append((state.event_count, seed))
    events, seed = max(lengths)
    return seed, events


def costs(game_id: str, window: int) -> tuple[list[int], dict[str, list[float | None]]]:
    """The marks (event counts), and per way of looking the microseconds per step at each
    (None: no step left there)."""
    game = make_game(game_id, TABLES.get(game_id, {}))
    encoder = encoder_for(game)
    seed, events = longest(game_id)
    marks = [int(events * share) for share in SHARES]
    out: dict[str, list[float | None]] = {}
    for name in ("stream", "full view", "observation"):
        views = SeatViews()
        look: Callable[[State, int], Any] = {
            "stream": views.view,
            "full view": lambda s, seat: s.view(seat),
            "observation": lambda s, seat: encoder.observation(common.position_view(s, seat)),
        }[name]
        state = game.new_initial_state()
        rng = random.Random(seed)
        found: list[float | None] = []
        for mark in marks:
            while not state.is_terminal() and state.event_count < mark:
                step(state, rng, look)
            if state.is_terminal():
                found.append(None)
                continue
            start = time.process_time()
            n = 0
            while n < window and not state.is_terminal():
                step(state, rng, look)
                n += 1
            found.append((time.process_time() - start) / max(n, 1) * 1e6)
        out[name] = found
    return marks, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(TABLES))
    parser.add_argument("--window", type=int, default=100)
    args = parser.parse_args()
    print("| game | way | early | midway | late |")
    print("|---|---|---|---|---|")
    for game_id in args.games:
        marks, rows = costs(game_id, args.window)
        for name, row in rows.items():
            cells = " | ".join("-" if c is None else f"{c:,.0f} us at {m:,}"
                               for c, m in zip(row, marks, strict=True))
            print(f"| {game_id} | {name} | {cells} |")


if __name__ == "__main__":
    main()
