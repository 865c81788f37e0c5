"""PettingZoo AEC and Parallel environments and the Gymnasium single-seat wrapper: the
libraries' own API checks, seeding, masks, rewards and illegal actions."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

from dragonlair.core.errors import IllegalActionError, OptionError
from dragonlair.interop.gym import SingleSeatEnv
from dragonlair.interop.pettingzoo import (
    farkle_env,
    fist_env,
    fist_parallel_env,
    master_env,
    parallel_env,
    raw_env,
)

ENVS: list[tuple[str, Callable[[], Any]]] = [
    ("master", lambda: master_env()),
    ("farkle", lambda: farkle_env(players=3, max_turns=10)),
    ("fist", lambda: fist_env(players=4, max_turns=3)),
]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # PettingZoo's checks warn that Dict observations (with masks) are not plain arrays
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("name", "make"), ENVS, ids=[e[0] for e in ENVS])
def test_pettingzoo_api_test(name: str, make: Callable[[], Any]) -> None:
    api_test(make(), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize(("name", "make"), ENVS, ids=[e[0] for e in ENVS])
def test_pettingzoo_seed_test(name: str, make: Callable[[], Any]) -> None:
    seed_test(make, num_cycles=200)


def test_pettingzoo_parallel_api_test() -> None:
    parallel_api_test(fist_parallel_env(players=4, max_turns=3), num_cycles=300)
    parallel_api_test(fist_parallel_env(players=6, max_turns=1), num_cycles=300)
    parallel_api_test(parallel_env("master"), num_cycles=100)
    parallel_api_test(parallel_env("farkle", players=2, max_turns=5), num_cycles=300)


def _random_game(env: Any, seed: int) -> tuple[dict[str, float], int]:
    """A random agent that reads the mask; returns the final rewards and the steps taken."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    final: dict[str, float] = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert env.observation_space(agent)["observation"].contains(obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return final, steps


@pytest.mark.parametrize(("name", "make"), ENVS, ids=[e[0] for e in ENVS])
def test_random_agents_with_masks_play_to_the_end(name: str, make: Callable[[], Any]) -> None:
    env = make()
    for seed in range(3):
        final, steps = _random_game(env, seed)
        assert set(final) == set(env.possible_agents) and steps > 0
        assert sum(final.values()) == pytest.approx(1.0)
        assert all(0.0 <= r <= 1.0 for r in final.values())
        assert env.agents == []


def test_the_same_seed_replays_the_same_game() -> None:
    env = raw_env("farkle", players=2, max_turns=6)
    _random_game(env, 11)
    first = list(env.engine_state.history)
    _random_game(env, 11)
    assert list(env.engine_state.history) == first


def test_fist_sealed_bids_move_through_the_bidders_in_seat_order() -> None:
    env = raw_env("fist", players=4, max_turns=2)
    env.reset(seed=0)
    assert env.engine_state.current_seats() == (0, 1, 2, 3)
    order = []
    for _ in range(4):
        agent = env.agent_selection
        order.append(agent)
        obs = env.observe(agent)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2", "player_3"]


def test_an_illegal_action_is_refused() -> None:
    env = raw_env("master")
    env.reset(seed=1)
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    illegal = next(i for i in range(env.action_space(agent).n) if i not in legal)
    with pytest.raises(IllegalActionError, match="action mask"):
        env.step(illegal)
    other = next(a for a in env.possible_agents if a != agent)
    assert not env.observe(other)["action_mask"].any()


def test_render_ansi_describes_the_table() -> None:
    env = raw_env("fist", render_mode="ansi", players=3, max_turns=2)
    env.reset(seed=2)
    text = env.render()
    assert "Fist of Dragonstones" in text and "player_0" in text
    par = parallel_env("master", render_mode="ansi")
    par.reset(seed=0)
    assert "Dragon Master" in par.render()


# ---------------------------------------------------------------------- Gymnasium
GYM_CASES = [
    ("master", ["greedy"], {}),
    ("farkle", ["cautious"], {"players": 3, "max_turns": 6}),
    ("fist", ["heuristic"], {"players": 3, "max_turns": 2}),
]


@pytest.mark.parametrize(("game_id", "opponents", "options"), GYM_CASES,
                         ids=[c[0] for c in GYM_CASES])
def test_gymnasium_check_env(game_id: str, opponents: list[str],
                             options: dict[str, Any]) -> None:
    env = SingleSeatEnv(game_id, seat=1, opponents=opponents, options=options,
                        illegal_action="penalize", render_mode="ansi")
    check_env(env, skip_render_check=False)


@pytest.mark.parametrize(("game_id", "opponents", "options"), GYM_CASES,
                         ids=[c[0] for c in GYM_CASES])
def test_single_seat_episodes(game_id: str, opponents: list[str],
                              options: dict[str, Any]) -> None:
    env = SingleSeatEnv(game_id, seat=0, opponents=opponents, options=options)
    rng = np.random.default_rng(0)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        assert info["seat"] == 0
        done, reward = False, 0.0
        while not done:
            assert obs["action_mask"].any()
            obs, reward, done, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            assert not truncated
        assert 0.0 <= reward <= 1.0 and info["outcome"] is not None
        assert not obs["action_mask"].any()
        with pytest.raises(IllegalActionError, match="reset"):
            env.step(0)


def test_single_seat_illegal_actions_raise_or_are_penalized() -> None:
    env = SingleSeatEnv("master", opponents=["random"])
    obs, _ = env.reset(seed=5)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="action mask"):
        env.step(illegal)
    soft = SingleSeatEnv("master", opponents=["random"], illegal_action="penalize",
                         illegal_reward=-0.5)
    obs, _ = soft.reset(seed=5)
    again, reward, done, _, info = soft.step(illegal)
    assert reward == -0.5 and not done and info["illegal_action"]
    assert np.array_equal(again["observation"], obs["observation"])


def test_single_seat_options_are_checked() -> None:
    with pytest.raises(OptionError):
        SingleSeatEnv("fist", seat=4, options={"players": 4})
    with pytest.raises(OptionError):
        SingleSeatEnv("fist", opponents=["heuristic", "greedy"], options={"players": 4})
    with pytest.raises(OptionError):
        SingleSeatEnv("fist", opponents=["no-such-bot"])
    env = SingleSeatEnv("fist", seat=2, opponents=["heuristic", "greedy", "random"],
                        options={"players": 4, "max_turns": 1})
    env.reset(seed=0)
    assert [type(env.bots[s]).__name__ for s in (0, 1, 3)] == [
        "HeuristicFistBot", "GreedyFistBot", "RandomBot"]


def test_a_helpful_import_error_without_pettingzoo() -> None:
    import subprocess
    import sys

    code = ("import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
            "for name in ('pettingzoo', 'gym'):\n"
            "    try:\n        __import__('dragonlair.interop.' + name)\n"
            "    except ImportError as e:\n        print(e)\n"
            "import dragonlair.cli.main\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.count("pip install 'dragonlair[pettingzoo]'") == 2
