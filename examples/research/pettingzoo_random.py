"""Random agents that read the action mask, in the PettingZoo AEC environments, and one seat of
the Gymnasium wrapper against our heuristic bots.

    python examples/research/pettingzoo_random.py --game fist --games 20 --players 4 \\
        --max-turns 10

prints each agent's total reward (the winners of a game share 1) and the mean game length,
then the single-seat wrapper's average reward against our bots. Needs
``pip install -e '.[pettingzoo]'``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from dragonlair.interop.gym import SingleSeatEnv
from dragonlair.interop.pettingzoo import env as make_env

OPPONENTS = {"fist": "heuristic", "master": "greedy", "farkle": "cautious"}


def random_aec_games(game: str, games: int, seed: int, **options: Any) -> None:
    env = make_env(game, **options)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                totals[agent] += reward
                action = None
            else:
                mask = observation["action_mask"]  # 1 for every legal action index
                action = int(rng.choice(np.flatnonzero(mask)))
                steps += 1
            env.step(action)
    env.close()
    print(f"PettingZoo {game}: {games} games of random agents, "
          f"{steps / games:.0f} decisions a game")
    for agent, total in totals.items():
        print(f"  {agent}: {total:.1f} wins")


def single_seat_games(game: str, games: int, seed: int, **options: Any) -> None:
    opponent = OPPONENTS[game]
    env = SingleSeatEnv(game, seat=0, opponents=[opponent], options=options)
    rng = np.random.default_rng(seed)
    total = 0.0
    for g in range(games):
        observation, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, done, _, _ = env.step(action)
        total += reward
    print(f"Gymnasium SingleSeatEnv {game}: a random agent against {opponent} won "
          f"{total:.1f} of {games} games")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["fist", "master", "farkle"], default="fist")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--max-turns", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    if args.game != "master":
        options["max_turns"] = args.max_turns
    start = time.time()
    random_aec_games(args.game, args.games, args.seed, **options)
    single_seat_games(args.game, args.games, args.seed, **options)
    print(f"({time.time() - start:.1f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
