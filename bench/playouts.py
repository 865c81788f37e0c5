"""Random-playout throughput through the public API (legal actions included), one core.

    python bench/playouts.py [GAME] [--seconds S] [--profile [--sort tottime] [--top N]]

The same figure as `dragonlair bench`; --profile prints where the time goes (cProfile), by
cumulative time or, with --sort tottime, by time spent in each function itself.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from dragonlair.bench import bench_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?", default="fist")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", choices=("cumulative", "tottime"), default="cumulative")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    result = bench_game(args.game, args.seconds)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)
    print(f"{result.game} {result.options}: {result.games} games, {result.actions} actions in "
          f"{result.seconds:.2f} s = {result.games_per_s:,.1f} games/s, "
          f"{result.actions_per_s:,.0f} actions/s")


if __name__ == "__main__":
    main()
