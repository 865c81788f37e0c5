"""PettingZoo AEC and Parallel environments and the Gymnasium single-seat wrapper: the
libraries' own checks (PettingZoo's api, seed, parallel api, parallel seed, render and state
tests, Gymnasium's check_env) on the default settings, masks, rewards, illegal actions,
rendering and the global state."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)

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

# every environment on its default settings (only the table options kept small); each
# constructor takes render_mode, as PettingZoo's render_test wants
ENVS: list[tuple[str, Callable[..., Any]]] = [
    ("master", lambda render_mode=None: master_env(render_mode=render_mode)),
    ("farkle", lambda render_mode=None: farkle_env(render_mode=render_mode, players=3,
                                                   max_turns=10)),
    ("fist", lambda render_mode=None: fist_env(render_mode=render_mode, players=4,
                                               max_turns=3)),
]
PARALLEL: list[tuple[str, Callable[..., Any]]] = [
    ("master", lambda render_mode=None: parallel_env("master", render_mode=render_mode)),
    ("farkle", lambda render_mode=None: parallel_env("farkle", render_mode=render_mode,
                                                     players=3, max_turns=10)),
    ("fist", lambda render_mode=None: fist_parallel_env(render_mode=render_mode, players=4,
                                                        max_turns=3)),
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
    for _, make in PARALLEL:
        parallel_api_test(make(), num_cycles=300)
    parallel_api_test(fist_parallel_env(players=6, max_turns=1), num_cycles=300)
    parallel_api_test(parallel_env("farkle", players=2, max_turns=5), num_cycles=300)


@pytest.mark.parametrize(("name", "make"), PARALLEL, ids=[e[0] for e in PARALLEL])
def test_pettingzoo_parallel_seed_test(name: str, make: Callable[..., Any]) -> None:
    """It samples actions without the mask: the first illegal one ends the game."""
    parallel_seed_test(make, num_cycles=200)


@pytest.mark.parametrize(("name", "make"), ENVS, ids=[e[0] for e in ENVS])
def test_pettingzoo_render_test(name: str, make: Callable[..., Any],
                                capsys: pytest.CaptureFixture[str]) -> None:
    render_test(make)
    assert make().metadata["render_modes"] == ["human", "ansi"]
    assert "to move: player_" in capsys.readouterr().out  # "human" prints the table


@pytest.mark.parametrize("index", range(len(ENVS)), ids=[e[0] for e in ENVS])
def test_pettingzoo_state_test(index: int) -> None:
    state_test(ENVS[index][1](), PARALLEL[index][1](), num_cycles=10)


@pytest.mark.parametrize(("name", "make"), PARALLEL, ids=[e[0] for e in PARALLEL])
def test_the_global_state_is_every_seat_observation(name: str,
                                                    make: Callable[..., Any]) -> None:
    """state(): a fixed-shape float32 vector within state_space along a whole game of
    masked random agents: every seat's observation vector, seat 0 first."""
    par = make()
    observations, _ = par.reset(seed=3)
    space = par.state_space
    size = par.observation_space("player_0")["observation"].shape[0]
    assert space.shape == (size * len(par.possible_agents),) and space.dtype == np.float32
    rng = np.random.default_rng(3)
    states = 0
    while par.agents:
        state = par.state()
        assert state.shape == space.shape and space.contains(state)
        assert np.array_equal(state, np.concatenate(
            [observations[a]["observation"] for a in par.possible_agents]))
        actions = {a: (int(rng.choice(np.flatnonzero(o["action_mask"])))
                       if o["action_mask"].any() else 0) for a, o in observations.items()}
        observations, *_ = par.step(actions)
        states += 1
    assert states > 3 and space.contains(par.state())


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


def test_observations_are_new_arrays_and_masks_are_the_legal_actions() -> None:
    """The environments build each observation's vector and mask afresh (issue 24: the masks
    come from an index of the legal actions kept between steps): an agent may keep or change
    the arrays it was given, and every mask marks exactly the legal actions' indices (none
    for an agent not to move)."""
    from dragonlair.interop import common

    env = raw_env("farkle", players=3, max_turns=4)
    env.reset(seed=5)
    rng = np.random.RandomState(5)
    kept = []
    steps = 0
    while env.agents:
        state = env.engine_state
        for seat, agent in enumerate(env.possible_agents):
            obs = env.observe(agent)
            legal = {a.index for a in state.legal_actions(seat)} if agent in env.agents else set()
            assert set(np.flatnonzero(obs["action_mask"])) == legal
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].flags.writeable
            want = env.table.encoder.observation(common.position_view(state, seat))
            assert np.array_equal(obs["observation"], want)
            again = env.observe(agent)
            assert not np.shares_memory(again["action_mask"], obs["action_mask"])
            assert not np.shares_memory(again["observation"], obs["observation"])
            obs["action_mask"][:] = 1  # an agent's scribbling reaches no later observation
            obs["observation"][:] = 0.5
            assert np.array_equal(env.observe(agent)["observation"], want)
            kept.append((again, np.array(again["action_mask"])))
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 10
    assert all(np.array_equal(obs["action_mask"], copy) for obs, copy in kept)


def test_the_order_enforcing_wrapper_is_pettingzoos() -> None:
    """``master_env()`` is PettingZoo's order-enforcing wrapper (a subclass that reaches the
    environment's hot attributes without its ``__getattr__``): the same errors before
    ``reset()``, the same name, the same check that a loop over ``agent_iter`` steps."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = master_env()
    assert isinstance(env, OrderEnforcingWrapper) and str(env) == "dragonlair_master_v0"
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.last()
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = env.agent_selection
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.agent_iter):
        with pytest.raises(AssertionError, match="reset"):
            call()
    env.reset(seed=1)
    agents = iter(env.agent_iter())
    agent = next(agents)
    assert agent == env.agent_selection == env.unwrapped.agent_selection
    obs, reward, term, trunc, info = env.last()
    assert np.array_equal(obs["observation"], env.unwrapped.observe(agent)["observation"])
    assert (reward, term, trunc, info) == (0.0, False, False, {})
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)  # no step() since the last agent
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert next(agents) == env.agent_selection
    strict = master_env(illegal_action="raise")  # through the wrapper's step, too
    strict.reset(seed=1)
    mask = strict.last()[0]["action_mask"]
    before = list(strict.unwrapped.engine_state.history)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(mask == 0)[0]))
    assert list(strict.unwrapped.engine_state.history) == before


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


def test_an_illegal_action_ends_the_game_with_a_penalty_by_default() -> None:
    """As PettingZoo's classic games (TerminateIllegalWrapper): the mover gets -1, the others
    0, and every agent is terminated; nothing moves in the engine."""
    env = fist_env(players=4, max_turns=2)
    env.reset(seed=4)
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))  # a sealed bid
    agent = env.agent_selection
    assert agent == "player_1"
    mask = env.observe(agent)["action_mask"]
    history = list(env.unwrapped.engine_state.history)
    env.step(int(np.flatnonzero(mask == 0)[-1]))
    assert list(env.unwrapped.engine_state.history) == history
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0, "player_3": 0.0}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos["player_1"] == {"illegal_action": True} and env.infos["player_0"] == {}
    final = {}
    for a in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        assert term and not trunc and not obs["action_mask"].any()
        final[a] = reward
        env.step(None)
    assert final == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0, "player_3": 0.0}
    assert env.agents == []
    soft = raw_env("master", illegal_reward=-5)
    soft.reset(seed=0)
    soft.step(soft.action_space(soft.agent_selection).n - 1)  # a chance index: never legal
    assert sorted(soft.rewards.values()) == [-5.0, 0.0]
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env("master", illegal_action="ignore")


def test_parallel_illegal_actions_end_the_game() -> None:
    """At a sealed bid every illegal bidder gets -1, the others 0; nothing is applied.
    With illegal_action="raise" the step raises and changes nothing."""
    par = fist_parallel_env(players=4, max_turns=2)
    observations, _ = par.reset(seed=1)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    history = list(par.engine_state.history)
    actions = {**legal, "player_2": int(np.flatnonzero(observations["player_2"]["action_mask"]
                                                       == 0)[-1])}
    observations, rewards, terms, truncs, infos = par.step(actions)
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0, "player_3": 0.0}
    assert all(terms.values()) and not any(truncs.values()) and par.agents == []
    assert infos["player_2"] == {"illegal_action": True} and infos["player_0"] == {}
    assert not any(o["action_mask"].any() for o in observations.values())
    assert list(par.engine_state.history) == history
    assert par.step({}) == ({}, {}, {}, {}, {})
    strict = fist_parallel_env(players=4, max_turns=2, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="player_2"):
        strict.step(actions)
    assert list(strict.engine_state.history) == history and strict.agents


def test_an_illegal_action_raises_on_request() -> None:
    env = raw_env("master", illegal_action="raise")
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
    assert text is not None and "Fist of Dragonstones" in text and "player_0" in text
    par = parallel_env("master", render_mode="ansi")
    par.reset(seed=0)
    shown = par.render()
    assert shown is not None and "Dragon Master" in shown
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("master", render_mode="rgb_array")


def test_render_human_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    par = parallel_env("master", render_mode="human")
    observations, _ = par.reset(seed=0)
    assert "Dragon Master" in capsys.readouterr().out  # printed by reset()
    assert par.render() is None
    assert "Dragon Master" in capsys.readouterr().out
    par.step({a: int(np.flatnonzero(o["action_mask"])[0]) if o["action_mask"].any() else 0
              for a, o in observations.items()})
    assert "Dragon Master" in capsys.readouterr().out  # and by step()
    env = raw_env("master", render_mode="human")
    env.reset(seed=0)
    env.step(0)  # illegal: the game stops, and the printed table says why
    assert "illegal action 0" in capsys.readouterr().out


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
    """check_env steps with unmasked random actions: it passes on the default settings
    (an illegal action ends the episode); the slow twin adds every render mode and
    "penalize"."""
    check_env(SingleSeatEnv(game_id, options=options))
    check_env(SingleSeatEnv(game_id, seat=1, opponents=opponents, options=options))


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "opponents", "options"), GYM_CASES,
                         ids=[c[0] for c in GYM_CASES])
def test_gymnasium_check_env_render_modes_and_penalize(game_id: str, opponents: list[str],
                                                       options: dict[str, Any]) -> None:
    for mode in ("ansi", "human"):
        check_env(SingleSeatEnv(game_id, seat=1, opponents=opponents, options=options,
                                render_mode=mode))
    check_env(SingleSeatEnv(game_id, seat=1, opponents=opponents, options=options,
                            illegal_action="penalize"))


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
            # sb3-contrib's MaskablePPO asks the environment for the same mask
            assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
            obs, reward, done, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            assert not truncated
        assert 0.0 <= reward <= 1.0 and info["outcome"] is not None
        assert not obs["action_mask"].any() and not env.action_masks().any()
        with pytest.raises(IllegalActionError, match="reset"):
            env.step(0)


def _vector_steps(envs: Any, steps: int) -> int:
    """Masked random steps through a Gymnasium vector env; the episodes it finished."""
    rng = np.random.default_rng(3)
    obs, _ = envs.reset(seed=11)
    assert obs["observation"].shape[0] == envs.num_envs
    finished = 0
    for _ in range(steps):
        masks = obs["action_mask"]
        assert all(np.array_equal(m, mask.astype(bool))
                   for m, mask in zip(envs.call("action_masks"), masks, strict=True)
                   if mask.any())
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        obs, rewards, terminated, truncated, _ = envs.step(np.array(actions))
        assert ((rewards >= 0.0) & (rewards <= 1.0)).all() and not truncated.any()
        finished += int(terminated.sum())
    return finished


def test_gymnasium_sync_vector_env_plays_episodes_and_resets_them() -> None:
    """Gymnasium's vector API over the single-seat env (docs/research.md): three Master
    tables stepped together, each reset by itself when its round ends."""
    from gymnasium.vector import SyncVectorEnv

    envs = SyncVectorEnv([lambda: SingleSeatEnv("master", opponents=["random"])] * 3)
    try:
        assert _vector_steps(envs, 30) >= 3  # a round is 8 placements for the agent
    finally:
        envs.close()


def test_gymnasium_async_vector_env_plays_episodes_in_worker_processes() -> None:
    """The same with each table in a worker process (AsyncVectorEnv)."""
    from gymnasium.vector import AsyncVectorEnv

    envs = AsyncVectorEnv([lambda: SingleSeatEnv("master", opponents=["random"])] * 2)
    try:
        assert _vector_steps(envs, 20) >= 2
    finally:
        envs.close()


def test_single_seat_illegal_actions_end_raise_or_are_penalized() -> None:
    env = SingleSeatEnv("master", opponents=["random"])
    obs, _ = env.reset(seed=5)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    history = list(env.state.history)
    last, reward, done, truncated, info = env.step(illegal)  # the default: the episode ends
    assert (reward, done, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not last["action_mask"].any() and list(env.state.history) == history
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, _ = env.reset(seed=5)
    assert obs["action_mask"].any()
    strict = SingleSeatEnv("master", opponents=["random"], illegal_action="raise")
    strict.reset(seed=5)
    with pytest.raises(IllegalActionError, match="action mask"):
        strict.step(illegal)
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
