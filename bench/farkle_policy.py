"""Soldiers per Recruit turn of the optimal Recruit policy, measured with the engine.

    python bench/farkle_policy.py [--turns N] [--seed S] [--policy bot|dp] [--no-event]

Plays N single Recruit turns (D4) from a fresh position and averages the soldiers banked
(a farkle banks 0), next to the value the dynamic programme predicts (docs/farkle-
optimal.md). Each turn starts from the same staged position (a clone): two players, p0 to
move, who chooses Recruit; every roll is drawn by the engine (``sample_chance``) and every
decision is taken by the policy from p0's view and legal actions.

The table uses a deck file that has no effect on a Recruit, so the turns measure the dice
policy alone: both players' companion is a Scout (a Skirmish attack bonus) and their item a
Healing Potion (it acts only in a Final Battle). Holding an item, the bot values a further
one at nothing (D8.3: one item is kept), so on an alliance it always doubles, as the DP
without items does; no item is ever drawn.

``--policy bot`` (default) lets the registered ``optimal`` bot decide; ``--policy dp`` takes
the decisions straight from the DP tables (the same policy, without the bot's view parsing).
``--no-event`` plays plain Farkle under the same table: the engine rolls the dice, the
event die is forced blank (a staged chance outcome), and the policy is the DP without the
event die (``--policy dp`` only).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from dragonlair.core.game import CHANCE
from dragonlair.games.farkle.actions import BLANK, DICE_CODE, DICE_SETS, FarkleAction, Kind
from dragonlair.games.farkle.bots import OptimalFarkleBot
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.policy import RecruitDP, RecruitParams, recruit_dp
from dragonlair.games.farkle.state import FarkleState

NO_EFFECT_DECKS: dict[str, Any] = {
    "companions": [{"id": "scout", "effect": "attack_bonus", "amount": 200, "count": 2,
                    "name": {"en": "Scout"}, "text": {"en": "Skirmish attack +200."}}],
    "items": [{"id": "healing-potion", "effect": "battle_shield", "count": 2,
               "name": {"en": "Healing Potion"},
               "text": {"en": "The first loss of a Final Battle turn is cancelled."}}],
}


def staged_turn() -> FarkleState:
    """Two players, no card with an effect on a Recruit; p0 has chosen Recruit."""
    game = FarkleGame({"players": 2, "decks": NO_EFFECT_DECKS})
    state = game.new_initial_state()
    for entry in ("companion scout", "companion scout", "item healing-potion",
                  "item healing-potion", "start p0"):
        state.apply(CHANCE, game.parse_action(entry))
    state.apply(0, game.parse_action("recruit"))
    return state


def dp_choice(dp: RecruitDP, state: FarkleState, legal: list[FarkleAction]) -> FarkleAction:
    """The DP policy's decision in a Recruit (no items or companions)."""
    n, p = state.hand_dice, state.pending
    kinds = {a.kind: a for a in legal}
    if Kind.KEEP in kinds:
        values = dict(state.scorer.selections(state.roll))
        mult = 2 if state.event != BLANK else 1  # an alliance will be doubled

        def after(a: FarkleAction) -> float:
            sel = DICE_SETS[a.dice]
            return dp.value(n - sum(sel), p + mult * values[sel])

        return max((a for a in legal if a.kind == Kind.KEEP), key=after)
    if Kind.DOUBLE in kinds:
        return kinds[Kind.DOUBLE]
    if Kind.ROLL in kinds:
        return kinds[Kind.ROLL] if dp.should_roll(n, p) else kinds[Kind.BANK]
    return legal[0]  # a farkle: accept it


def run(turns: int, seed: int, policy: str, event: bool) -> tuple[list[int], float]:
    start = staged_turn()
    rng = random.Random(seed)
    dp = recruit_dp(start.game.table, RecruitParams(event=event))
    bot = OptimalFarkleBot(random.Random(seed + 1))
    results = []
    for _ in range(turns):
        state = start.clone()
        while state.turn == 1:
            seats = state.current_seats()
            if seats[0] == CHANCE:
                action = state.sample_chance(rng)
                if not event and action.kind == Kind.DICE:
                    action = state.space.dice[DICE_CODE[DICE_SETS[action.dice]]][BLANK]
                state.apply(CHANCE, action)
                continue
            legal = list(state.legal_actions(0))
            if policy == "bot":
                choice = bot.choose(state.view(0), legal)
                assert isinstance(choice, FarkleAction)
            else:
                choice = dp_choice(dp, state, legal)
            state.apply(0, choice)
        results.append(state.armies[0])
    return results, dp.value(6, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=("bot", "dp"), default="bot")
    parser.add_argument("--no-event", action="store_true")
    args = parser.parse_args()
    if args.no_event and args.policy == "bot":
        parser.error("--no-event plays the DP policy: add --policy dp")
    began = time.perf_counter()
    results, predicted = run(args.turns, args.seed, args.policy, not args.no_event)
    seconds = time.perf_counter() - began
    mean = statistics.fmean(results)
    err = statistics.stdev(results) / len(results) ** 0.5
    farkles = sum(1 for r in results if r == 0) / len(results)
    print(f"{'plain Farkle' if args.no_event else 'Dragon Farkle'} (D2 table), policy "
          f"{args.policy}, {len(results):,} Recruit turns, seed {args.seed}")
    print(f"  measured: {mean:.2f} soldiers per turn (standard error {err:.2f}; "
          f"{farkles:.1%} of turns bank nothing)")
    print(f"  DP value: {predicted:.2f}; difference {100 * (mean - predicted) / predicted:+.2f}% "
          f"({(mean - predicted) / err:+.2f} standard errors)")
    print(f"  {seconds:.1f} s")


if __name__ == "__main__":
    main()
