"""ISMCTS iterations per second for the Fist `ismcts` bot, one core.

    python bench/ismcts.py [--positions N] [--iterations K] [--players P] [--seed S]

Positions are sampled from seeded games of `heuristic` bots (every decision with more than
one legal action, sealed bids and power decisions alike); at each, a fresh search of K
iterations runs from the seat's view, as the bot does in play. Reports iterations per
second, milliseconds per decision at the default budget, and how the time splits between
rebuilding the position from the view and searching.
"""

from __future__ import annotations

import argparse
import random
import time

from dragonlair.bots import make_bot
from dragonlair.bots.ismcts import ISMCTS, Budget
from dragonlair.core.driver import seed_for
from dragonlair.core.game import CHANCE, JSON, Action
from dragonlair.games.fist.bots import ISMCTSFistBot
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.search import FistSearchModel


def positions(players: int, count: int, seed: int) -> list[tuple[JSON, int, list[Action]]]:
    """Views of seats with a real choice, from seeded heuristic games."""
    out: list[tuple[JSON, int, list[Action]]] = []
    game_index = 0
    while len(out) < count:
        rng = random.Random(seed_for(seed, game_index))
        bots = [make_bot("fist", "heuristic", random.Random(seed_for(seed, game_index, s + 1)))
                for s in range(players)]
        state = FistGame({"players": players}).new_initial_state()
        while not state.is_terminal() and len(out) < count:
            seats = state.current_seats()
            if seats[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            chosen = []
            for seat in seats:
                legal = list(state.legal_actions(seat))
                view = state.view(seat)
                if len(legal) > 1 and rng.random() < 0.25:
                    out.append((view, seat, legal))
                chosen.append((seat, bots[seat].choose(view, legal)))
            for seat, action in chosen:
                state.apply(seat, action)
        game_index += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=ISMCTSFistBot(random.Random(0))
                        .search.budget.iterations)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sample = positions(args.players, args.positions, args.seed)
    total_iterations = 0
    search_s = rebuild_s = 0.0
    for i, (view, seat, legal) in enumerate(sample):
        model = FistSearchModel(random.Random(i))
        t0 = time.perf_counter()
        model.determinize(view, random.Random(i))  # the first rebuild of a fresh bot
        t1 = time.perf_counter()
        search = ISMCTS(model, random.Random(i), Budget(args.iterations))
        result = search.search(view, seat, legal)
        t2 = time.perf_counter()
        rebuild_s += t1 - t0
        search_s += t2 - t1
        total_iterations += result.iterations
    n = len(sample)
    print(f"fist {args.players} players, {n} positions, {args.iterations} iterations each:")
    print(f"  {total_iterations / search_s:,.0f} iterations/s, "
          f"{1000 * search_s / n:.1f} ms per decision "
          f"(+ {1000 * rebuild_s / n:.1f} ms to rebuild a position from scratch; "
          f"a bot in play rebuilds incrementally)")


if __name__ == "__main__":
    main()
