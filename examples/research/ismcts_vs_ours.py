"""OpenSpiel's ISMCTS bot against one of our Fist of Dragonstones bots.

One seat is OpenSpiel's ``ISMCTSBot`` (it searches positions resampled from its information
state, with fast random rollouts in our engine) in ``dragonlair_fist_turn_based``; every
other seat is our bot, handed only its view through ``ask_bot``. The ISMCTS seat rotates
from game to game.

    python examples/research/ismcts_vs_ours.py --games 12 --players 3 --max-turns 4 \\
        --simulations 40 --opponent heuristic

prints each side's wins (a shared win counts its share) and the share a seat would expect by
chance (1 / players). Needs ``pip install -e '.[openspiel]'``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from open_spiel.python.algorithms import ismcts

import dragonlair.interop.openspiel as dos
from dragonlair.bots import ask_bot, make_bot
from dragonlair.core.driver import seed_for


def play_one(game: object, seat_of_ismcts: int, opponent: str, simulations: int,
             seed: int) -> list[float]:
    """One game; returns each seat's share of the win."""
    os_game: dos.DragonlairGame = game  # type: ignore[assignment]
    n = os_game.num_players()
    rng = np.random.RandomState(seed)
    searcher = ismcts.ISMCTSBot(os_game, dos.EngineRolloutEvaluator(1, seed), 2.0,
                                simulations, random_state=rng)
    ours = {s: make_bot("fist", opponent, random.Random(seed_for(seed, 0, s + 1)))
            for s in range(n) if s != seat_of_ismcts}
    state = os_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rng.choice([a for a, _ in outcomes],
                                              p=[p for _, p in outcomes])))
        elif state.current_player() == seat_of_ismcts:
            state.apply_action(int(searcher.step(state)))
        else:
            seat = state.current_player()
            state.apply_action(ask_bot(ours[seat], state.engine_state, seat).index)
    returns: list[float] = state.returns()
    return returns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--opponent", default="heuristic",
                        help="our bot: heuristic, ismcts, ismcts-fast, greedy, random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    # ISMCTS plays sequential games: the sealed bids in seat order, hidden from later bidders
    game = dos.load("fist", turn_based=True, players=args.players, max_turns=args.max_turns)
    start = time.time()
    ismcts_share = ours_share = 0.0
    for g in range(args.games):
        seat = g % args.players
        returns = play_one(game, seat, args.opponent, args.simulations,
                           seed_for(args.seed, g))
        ismcts_share += returns[seat]
        ours_share += sum(returns) - returns[seat]
        print(f"game {g + 1}: ISMCTS in p{seat}, shares "
              + " ".join(f"{r:.2f}" for r in returns), flush=True)
    per_seat_ours = ours_share / (args.players - 1)
    print(f"\nFist, {args.players} players, {args.max_turns} turns, {args.games} games, "
          f"ISMCTS {args.simulations} simulations vs {args.opponent} "
          f"({time.time() - start:.0f}s)")
    print(f"  OpenSpiel ISMCTS: {ismcts_share:.1f} wins ({ismcts_share / args.games:.0%})")
    print(f"  our {args.opponent}, per seat: {per_seat_ours:.1f} wins "
          f"({per_seat_ours / args.games:.0%})")
    print(f"  a seat's share by chance: {1 / args.players:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
