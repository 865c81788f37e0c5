"""PettingZoo environments for the three games.

``fist_env(players=4)``, ``master_env()``, ``farkle_env(players=3)``: AEC environments
(:class:`DragonlairAECEnv`, wrapped in PettingZoo's order-enforcing wrapper) with agents
``player_0`` ... ``player_{n-1}`` (agent ``player_i`` holds seat ``i``). Keyword arguments are
our table options (``players``, ``max_turns``, ...) plus ``render_mode`` (``"ansi"``).

- Observation: ``{"observation": Box(0, high, (size,), float32), "action_mask": Box(0, 1,
  (num_distinct_actions,), int8)}``; the vector comes from the agent's own view
  (:mod:`dragonlair.interop.encoding`), the mask marks its legal action indices (all zeros
  when it is not the agent's move).
- Actions: ``Discrete(num_distinct_actions)``, our stable action indices. An action outside
  the mask raises :class:`~dragonlair.core.errors.IllegalActionError`.
- Chance (shuffles, draws, dice) is resolved inside the environment with a
  ``random.Random`` seeded from ``reset(seed=...)``.
- Fist's sealed bids are taken in seat order: ``agent_selection`` moves through the bidders,
  and each sees its own view, in which the others' bids show only as submitted (F8).
- Rewards: 0 until the end; then the winners share 1 and the others get 0 (a drawn round: 1/n
  each), as in the OpenSpiel adapter. Games end by their own rules (set ``max_turns`` for
  Fist and Farkle to bound them); ``truncations`` stay False.

:func:`fist_parallel_env` (and :func:`parallel_env` for any game) is a Parallel environment:
each step applies the actions of every agent to move at once, which makes Fist's sealed bids
truly simultaneous; agents not to move have an all-zero mask and their action is ignored.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("dragonlair.interop.pettingzoo needs PettingZoo: "
                      "pip install 'dragonlair[pettingzoo]'") from exc

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.game import CHANCE, JSON, Game, State
from dragonlair.games import make_game
from dragonlair.interop import common
from dragonlair.interop.encoding import Encoder, encoder_for

Obs = dict[str, Any]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class _Table:
    """A configured game, its encoder and spaces, and one engine state: what both kinds of
    environment share."""

    def __init__(self, game_id: str, options: Mapping[str, Any]) -> None:
        self.game: Game = make_game(game_id, options)
        self.encoder: Encoder = encoder_for(self.game)
        self.num_actions = self.game.num_distinct_actions
        self.agents = [agent_name(s) for s in range(self.game.num_players)]
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, self.encoder.observation_high,
                                                dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        # one space object per agent, each seedable on its own
        self.observation_spaces = {a: _copy_space(obs_space) for a in self.agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions)
                              for a in self.agents}
        self.state: State = self.game.new_initial_state()
        self.rng = random.Random(0)

    def new_game(self, seed: int | None) -> None:
        self.rng = random.Random(seed) if seed is not None else random.Random()
        self.state = self.game.new_initial_state()
        self.resolve_chance()

    def resolve_chance(self) -> None:
        state = self.state
        while state.current_seats() == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(self.rng))

    def observe(self, seat: int) -> Obs:
        mask = np.zeros(self.num_actions, np.int8)
        for action in self.state.legal_actions(seat):
            mask[action.index] = 1
        return {"observation": self.encoder.observation(self.state.view(seat)),
                "action_mask": mask}

    def play(self, seat: int, action: Any) -> None:
        index = int(action)
        legal = self.state.legal_actions(seat)
        chosen = next((a for a in legal if a.index == index), None)
        if chosen is None:
            if not legal:
                raise IllegalActionError(f"it is not {agent_name(seat)}'s move")
            raise IllegalActionError(
                f"action {index} is not legal for {agent_name(seat)} now: use the action mask "
                f"({len(legal)} legal actions, e.g. {legal[0].index} = '{legal[0]}')")
        self.state.apply(seat, chosen)
        self.resolve_chance()

    def returns(self) -> list[float]:
        return common.returns(self.state.outcome(), self.game.num_players)

    def render(self) -> str:
        state = self.state
        view: JSON = state.view(None)
        history = view.pop("history", [])
        view.pop("events", None)
        view.pop("table", None)
        seats = state.current_seats()
        who = ("game over" if not seats else "chance" if seats == (CHANCE,)
               else "to move: " + ", ".join(agent_name(s) for s in seats))
        lines = [f"{self.game.info.name} ({who})"]
        lines += [f"  {e}" for e in history[-8:]]
        lines.append(json.dumps(view, sort_keys=True))
        return "\n".join(lines)


def _copy_space(space: Any) -> Any:
    return gymnasium.spaces.Dict({k: gymnasium.spaces.Box(v.low, v.high, v.shape, v.dtype)
                                  for k, v in space.spaces.items()})


class DragonlairAECEnv(AECEnv):  # type: ignore[misc]
    """One of our games as a PettingZoo AEC environment (see the module docs)."""

    def __init__(self, game_id: str, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = _Table(game_id, options)
        self.metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False,
                                         "name": f"dragonlair_{game_id}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def engine_state(self) -> State:
        """The engine state (the environment's side; agents get views only)."""
        return self.table.state

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seats = self.table.state.current_seats()
        if seats:
            self.agent_selection = agent_name(min(seats))  # sealed bids in seat order (F8)
            return
        for agent, r in zip(self.possible_agents, self.table.returns(), strict=True):
            if agent in self.agents:
                self.rewards[agent] = r
                self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Obs:
        return self.table.observe(self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.play(self.possible_agents.index(agent), action)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode='ansi'")
            return None
        return self.table.render()

    def close(self) -> None:
        pass


class DragonlairParallelEnv(ParallelEnv):  # type: ignore[misc]
    """One of our games as a PettingZoo Parallel environment: every agent to move acts in the
    same step (all bidders at once in Fist's sealed bids); the others' actions are ignored."""

    def __init__(self, game_id: str, render_mode: str | None = None,
                 **options: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = _Table(game_id, options)
        self.metadata: dict[str, Any] = {"render_modes": ["ansi"],
                                         "name": f"dragonlair_{game_id}_parallel_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.agents: list[str] = []

    @property
    def engine_state(self) -> State:
        return self.table.state

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, Obs]:
        return {a: self.table.observe(self.possible_agents.index(a)) for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        table = self.table
        seats = table.state.current_seats()
        missing = [agent_name(s) for s in seats if agent_name(s) not in actions]
        if missing:
            raise IllegalActionError(f"no action given for {', '.join(missing)}, to move now")
        for seat in seats:  # every seat chooses from the same position (a sealed bid)
            index = int(actions[agent_name(seat)])
            if not any(a.index == index for a in table.state.legal_actions(seat)):
                table.play(seat, index)  # raises with the reason, before anything changes
        for seat in seats:
            table.play(seat, actions[agent_name(seat)])
        over = table.state.is_terminal()
        returns = table.returns()
        rewards = {a: (returns[self.possible_agents.index(a)] if over else 0.0)
                   for a in self.agents}
        observations = self._observations()
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode='ansi'")
            return None
        return self.table.render()

    def close(self) -> None:
        pass


def raw_env(game_id: str, render_mode: str | None = None, **options: Any) -> DragonlairAECEnv:
    """The AEC environment without PettingZoo's wrappers."""
    return DragonlairAECEnv(game_id, render_mode=render_mode, **options)


def env(game_id: str, render_mode: str | None = None, **options: Any) -> Any:
    """The AEC environment in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game_id, render_mode=render_mode, **options))


def fist_env(render_mode: str | None = None, **options: Any) -> Any:
    """Fist of Dragonstones (3-6 players; e.g. ``fist_env(players=4, max_turns=10)``)."""
    return env("fist", render_mode=render_mode, **options)


def master_env(render_mode: str | None = None, **options: Any) -> Any:
    """Dragon Master (2 players)."""
    return env("master", render_mode=render_mode, **options)


def farkle_env(render_mode: str | None = None, **options: Any) -> Any:
    """Dragon Farkle (2-5 players; e.g. ``farkle_env(players=3, max_turns=20)``)."""
    return env("farkle", render_mode=render_mode, **options)


def parallel_env(game_id: str, render_mode: str | None = None,
                 **options: Any) -> DragonlairParallelEnv:
    """Any of the games as a Parallel environment."""
    return DragonlairParallelEnv(game_id, render_mode=render_mode, **options)


def fist_parallel_env(render_mode: str | None = None, **options: Any) -> DragonlairParallelEnv:
    """Fist of Dragonstones with truly simultaneous sealed bids."""
    return parallel_env("fist", render_mode=render_mode, **options)
