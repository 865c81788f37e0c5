"""What a decision costs as a game grows: CPU microseconds per step at 100, 1,000 and 5,000
events of a long game, per action applied (chance included), for each way of looking at it
(issue 24):

- engine: the step alone (legal actions and apply, no look);
- bot view: ``view(seat, since=event_count)``, the position without the log, which the
  built-in bots are handed (``reads_events = False``, :func:`dragonlair.core.players.ask_bot`);
- stream: a driver that follows the game (``SeatViews``: the whole view, log included, from
  the events since);
- full view: the whole view built each time (what every consumer did before issue 24);
- observation: an adapter's observation vector (``Encoder.observe_state``).

    python bench/lengths.py [GAME ...] [--window N] [--repeats N] [--marks 100,1000,5000]

(A Dragon Master match ends within about 75 events: it is measured at 10, 35 and 60.)

A step: chance drawn, or each seat to move looked at and a random legal action applied. The
game is the longest (in events) of ten seeded random games on a long table (no turn limit;
Fist at 6 players, Farkle at 5 with the strongest dragon, Master a match); at each mark, the
first position with at least that many events ("-": the game is shorter), the cost is
measured over ``--window`` steps (default 100) played on from a copy of that position,
``--repeats`` times (default 5, each with its own random moves; the median is given), and
divided by the actions those steps applied. Each way has looked at the copy once, for each
seat, before it is timed: a consumer that follows a game has its views (a stream) and the
state its reading of the record already.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from dragonlair.core.game import CHANCE, State
from dragonlair.core.streams import SeatViews
from dragonlair.games import make_game
from dragonlair.interop.encoding import encoder_for

MARKS = (100, 1_000, 5_000)
#: runs of the window from each mark's position (the median is given)
REPEATS = 5
#: a Dragon Master match ends within about 75 events: measured early, midway and late instead
SHORT_MARKS: dict[str, tuple[int, ...]] = {"master": (10, 35, 60)}
TABLES: dict[str, dict[str, Any]] = {
    "fist": {"players": 6, "max_turns": None},
    "farkle": {"players": 5, "max_turns": None, "dragon": 5},
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


def costs(game_id: str, window: int, marks: tuple[int, ...] = MARKS, repeats: int = REPEATS
          ) -> tuple[int, dict[str, list[float | None]]]:
    """The game's length in events, and per way of looking the microseconds per step at each
    mark (None: the game is shorter): the median of ``repeats`` runs of ``window`` steps
    from the same position."""
    game = make_game(game_id, TABLES.get(game_id, {}))
    encoder = encoder_for(game)
    seed, events = longest(game_id)
    state = game.new_initial_state()
    rng = random.Random(seed)
    starts: list[State | None] = []  # the position at each mark, reached once
    for mark in marks:
        while not state.is_terminal() and state.event_count < mark:
            step(state, rng, lambda s, seat: None)
        starts.append(None if state.is_terminal() else state.clone())
    # the repeats outermost: a drift of the machine falls on every way and mark alike
    runs: dict[str, list[list[float]]] = {name: [[] for _ in marks] for name in WAYS}
    for r in range(repeats):
        for name in WAYS:
            for i, start in enumerate(starts):
                if start is None:
                    continue
                views = SeatViews()
                look: Callable[[State, int], Any] = {
                    "engine": lambda s, seat: None,
                    "bot view": lambda s, seat: s.view(seat, s.event_count),
                    "stream": views.view,
                    "full view": lambda s, seat: s.view(seat),
                    "observation": encoder.observe_state,
                }[name]
                here = start.clone()
                # a consumer that follows the game has looked before (a stream keeps its
                # views, a state its reading of the record): a copy looks once untimed
                for seat in range(here.num_players):
                    look(here, seat)
                runs[name][i].append(_timed(here, random.Random(r), look, window))
    out = {name: [statistics.median(cell) if cell else None for cell in cells]
           for name, cells in runs.items()}
    return events, out


def _timed(state: State, rng: random.Random, look: Callable[[State, int], Any],
           window: int) -> float:
    """CPU microseconds per action applied over ``window`` steps (fewer where it ends)."""
    applied = len(state.history)
    start = time.process_time()
    n = 0
    while n < window and not state.is_terminal():
        step(state, rng, look)
        n += 1
    spent = time.process_time() - start
    return spent / max(len(state.history) - applied, 1) * 1e6


WAYS = ("engine", "bot view", "stream", "full view", "observation")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(TABLES))
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=REPEATS,
                        help="runs of the window from each mark's position (the median)")
    parser.add_argument("--marks", default="",
                        help="event counts to measure at, comma-separated (default 100,1000,"
                             "5000; a Master match: 10,35,60)")
    args = parser.parse_args()
    print("| game (events) | way | at | at | at |")
    print("|---|---|---|---|---|")
    for game_id in args.games:
        marks = (tuple(int(m) for m in args.marks.split(",")) if args.marks
                 else SHORT_MARKS.get(game_id, MARKS))
        events, rows = costs(game_id, args.window, marks, args.repeats)
        for name, row in rows.items():
            cells = " | ".join("-" if c is None else f"{c:,.1f} us at {m:,}"
                               for c, m in zip(row, marks, strict=True))
            print(f"| {game_id} ({events:,}) | {name} | {cells} |")


if __name__ == "__main__":
    main()
