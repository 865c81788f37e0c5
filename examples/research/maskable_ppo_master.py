"""Train sb3-contrib's MaskablePPO on Dragon Master: seat 0 of ``SingleSeatEnv`` against our
random bot, with the legal-action mask, then play it against the same bot.

    python examples/research/maskable_ppo_master.py --steps 20000 --games 500 --seed 0

prints the policy's win rate over ``--games`` whole games against the random bot before
training (the freshly built network) and after ``--steps`` steps of training, with the
masks in both (docs/research.md, "Training MaskablePPO"). Needs
``pip install torch==2.13.0`` (or any PyTorch build of your choice) and then
``pip install -e '.[rl]'``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO

from dragonlair.interop.gym import SingleSeatEnv

Observation = npt.NDArray[np.float32]


class FlatObservation(gymnasium.ObservationWrapper[Observation, Any, dict[str, Any]]):
    """The env's ``observation`` alone, a flat ``Box`` (the mask stays out of the network's
    input). ``action_masks()`` is still reached through the wrapper: sb3-contrib asks for it
    with ``env.get_wrapper_attr("action_masks")``, which looks through every wrapper."""

    def __init__(self, env: SingleSeatEnv) -> None:
        super().__init__(env)
        spaces = env.observation_space
        assert isinstance(spaces, gymnasium.spaces.Dict)
        space = spaces["observation"]
        assert isinstance(space, gymnasium.spaces.Box)
        self.observation_space = space

    def observation(self, observation: dict[str, Any]) -> Observation:
        flat: Observation = observation["observation"]
        return flat


def make_env() -> FlatObservation:
    return FlatObservation(SingleSeatEnv("master", seat=0, opponents=["random"]))


@dataclass
class Evaluation:
    games: int = 0
    #: games that reached the game's own end (an outcome), not an illegal action's stop
    finished: int = 0
    wins: int = 0
    draws: int = 0
    decisions: int = 0
    #: steps the env answered with ``info["illegal_action"]`` (none with the masks)
    illegal: int = 0
    #: the agent's share of the wins (a draw counts 1/2), summed over the games
    score: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    def __str__(self) -> str:
        losses = self.games - self.wins - self.draws
        return (f"win rate {self.win_rate:.1%} over {self.games} games ({self.wins} won, "
                f"{self.draws} drawn, {losses} lost; {self.decisions} decisions, "
                f"{self.illegal} illegal)")


def evaluate(model: MaskablePPO, games: int, seed: int, *, masked: bool = True) -> Evaluation:
    """``games`` whole games of the policy (its most likely legal action at each decision)
    against the random bot; game ``g`` is dealt with seed ``seed + g``. ``masked=False``
    lets the policy choose among all the actions (an illegal one ends the game, lost)."""
    env = make_env()
    result = Evaluation()
    for g in range(games):
        observation, info = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            masks = env.get_wrapper_attr("action_masks")() if masked else None
            action, _ = model.predict(observation, action_masks=masks, deterministic=True)
            observation, reward_, terminated, truncated, info = env.step(int(action))
            reward = float(reward_)
            result.decisions += 1
            result.illegal += bool(info.get("illegal_action", False))
            done = terminated or truncated
        result.games += 1
        result.finished += info.get("outcome") is not None
        result.score += max(reward, 0.0)
        result.wins += reward == 1.0
        result.draws += reward == 0.5
    env.close()
    return result


def build(steps: int, seed: int) -> MaskablePPO:
    # a rollout of at most 512 steps (a Master game is about 8 of the agent's decisions), so
    # that a short run still updates the network several times; minibatches of 64
    n_steps = min(512, max(64, steps // 64 * 64))
    return MaskablePPO("MlpPolicy", make_env(), n_steps=n_steps, batch_size=64, seed=seed,
                       device="cpu", verbose=0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=5000, help="training steps (decisions)")
    parser.add_argument("--games", type=int, default=200, help="evaluation games, each time")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # a small MLP: one thread is as fast, and leaves the other cores
    start = time.perf_counter()
    model = build(args.steps, args.seed)
    # the evaluation games are dealt apart from the training ones, the same before and after
    eval_seed = 1_000_000 + args.seed * args.games
    print(f"before training: {evaluate(model, args.games, eval_seed)}")
    learn_start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    learned = time.perf_counter() - learn_start
    print(f"trained {model.num_timesteps} steps in {learned:.0f}s")
    print(f"after training:  {evaluate(model, args.games, eval_seed)}")
    print(f"({time.perf_counter() - start:.0f}s in all)")


if __name__ == "__main__":
    main()
