"""PettingZoo environments for the three games.

``fist_env(players=4)``, ``master_env()``, ``farkle_env(players=3)``: AEC environments
(:class:`DragonlairAECEnv`, wrapped in PettingZoo's order-enforcing wrapper, as a subclass
that skips its ``__getattr__`` on the hot paths) with agents
``player_0`` ... ``player_{n-1}`` (agent ``player_i`` holds seat ``i``). Keyword arguments are
our table options (``players``, ``max_turns``, ...) plus ``render_mode`` (``"human"`` or
``"ansi"``), ``illegal_action`` and ``illegal_reward``.

- Observation: ``{"observation": Box(0, high, (size,), float32), "action_mask": Box(0, 1,
  (num_distinct_actions,), int8)}``; the vector comes from the agent's own view
  (:mod:`dragonlair.interop.encoding`), the mask marks its legal action indices (all zeros
  when it is not the agent's move).
- Actions: ``Discrete(num_distinct_actions)``, our stable action indices.
- Illegal actions (outside the mask), as PettingZoo's classic environments treat them
  (``TerminateIllegalWrapper``): with ``illegal_action="terminate"`` (the default) the game
  ends at once; the mover gets ``illegal_reward`` (default -1), every other agent 0, every
  agent is terminated (``truncations`` stay False) and the mover's info has
  ``illegal_action: True``; the masks are all zeros from then on. With
  ``illegal_action="raise"`` the action raises
  :class:`~dragonlair.core.errors.IllegalActionError` and nothing changes.
- Chance (shuffles, draws, dice) is resolved inside the environment with a
  ``random.Random`` seeded from ``reset(seed=...)``.
- Fist's sealed bids are taken in seat order: ``agent_selection`` moves through the bidders,
  and each sees its own view, in which the others' bids show only as submitted (F8).
- Rewards: 0 until the end; then the winners share 1 and the others get 0 (a drawn round: 1/n
  each), as in the OpenSpiel adapter. Games end by their own rules (set ``max_turns`` for
  Fist and Farkle to bound them) or at an illegal action; ``truncations`` stay False.
- ``state()``: the global state for centralized critics, a fixed-shape float32 vector within
  ``state_space``: every seat's observation vector, seat 0 first (each built from that
  seat's own view, so together they hold every seat's secrets).
- Rendering: ``"ansi"``: ``render()`` returns the text (whose move, the last record entries,
  the spectator's view); ``"human"``: the same text is printed to stdout after ``reset()``,
  after every ``step()`` and by ``render()``, which returns None.

:func:`fist_parallel_env` (and :func:`parallel_env` for any game) is a Parallel environment:
each step applies the actions of every agent to move at once, which makes Fist's sealed bids
truly simultaneous; agents not to move have an all-zero mask and their action is ignored.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers.order_enforcing import (
        AECOrderEnforcingIterable,
        AECOrderEnforcingIterator,
    )
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("dragonlair.interop.pettingzoo needs PettingZoo: "
                      "pip install 'dragonlair[pettingzoo]'") from exc

from dragonlair.core.errors import IllegalActionError
from dragonlair.core.game import CHANCE, JSON, Game, State
from dragonlair.games import make_game
from dragonlair.interop import common
from dragonlair.interop.encoding import Encoder, encoder_for

Obs = dict[str, Any]
IllegalMode = Literal["terminate", "raise"]

#: what ``render_mode`` may be
RENDER_MODES = ["human", "ansi"]
ILLEGAL_MODES = ("terminate", "raise")


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
        self.seat_of = {a: s for s, a in enumerate(self.agents)}
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, self.encoder.observation_high,
                                                dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        # one space object per agent, each seedable on its own
        self.observation_spaces = {a: _copy_space(obs_space) for a in self.agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions)
                              for a in self.agents}
        n = self.game.num_players
        self.state_space = gymnasium.spaces.Box(
            0.0, np.tile(self.encoder.observation_high, n), dtype=np.float32)
        self.state: State = self.game.new_initial_state()
        self.rng = random.Random(0)
        #: why the game was stopped by an illegal action ('' while it was not)
        self.stopped = ""
        #: the legal actions last asked for, by index and as a mask
        self.index = common.LegalIndex(self.num_actions)
        #: the mask of no legal action (copied for an agent not to move), and the mask of
        #: the legal actions last indexed (copied for each observation: a new, aligned array,
        #: which numpy scans faster than one over a bytearray)
        self.no_mask = np.zeros(self.num_actions, np.int8)
        self._mask_of: bytes = self.index.mask
        self._mask = self.no_mask

    def new_game(self, seed: int | None) -> None:
        self.rng = random.Random(seed) if seed is not None else random.Random()
        self.state = self.game.new_initial_state()
        self.stopped = ""
        self.resolve_chance()

    def resolve_chance(self) -> None:
        state = self.state
        while state.current_seats() == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(self.rng))

    def observe(self, seat: int) -> Obs:
        """The agent's observation: a new vector and a new mask (an agent may keep both)."""
        legal = () if self.stopped else self.state.legal_actions(seat)
        if legal:
            index = self.index.of(legal)
            if index.mask is not self._mask_of:
                self._mask_of = index.mask
                self._mask = np.frombuffer(index.mask, np.int8).copy()
            mask = self._mask.copy()
        else:
            mask = self.no_mask.copy()
        return {"observation": self.encoder.observe_state(self.state, seat),
                "action_mask": mask}

    def global_state(self) -> Any:
        """Every seat's observation vector, seat 0 first (``state_space``)."""
        size = self.encoder.observation_size
        out = np.zeros(size * self.game.num_players, np.float32)
        for seat in range(self.game.num_players):
            self.encoder.observe_state(self.state, seat, out[seat * size:(seat + 1) * size])
        return out

    def is_legal(self, seat: int, action: Any) -> bool:
        return int(action) in self.index.of(self.state.legal_actions(seat)).by_index

    def stop(self, seats: Sequence[int], actions: Sequence[Any]) -> None:
        """End the game at an illegal action of each of ``seats``."""
        self.stopped = "; ".join(f"{agent_name(s)} played the illegal action {int(a)}"
                                 for s, a in zip(seats, actions, strict=True))

    def play(self, seat: int, action: Any) -> None:
        """Apply ``seat``'s ``action`` (an index) and then chance; an illegal one raises
        :class:`IllegalActionError` and changes nothing."""
        if not self.try_play(seat, action):
            self.refuse(seat, action)

    def try_play(self, seat: int, action: Any) -> bool:
        """:meth:`play` if ``action`` is legal (True), else nothing (False)."""
        chosen = self.index.of(self.state.legal_actions(seat)).by_index.get(int(action))
        if chosen is None:
            return False
        self.state.apply(seat, chosen)
        self.resolve_chance()
        return True

    def refuse(self, seat: int, action: Any) -> None:
        """Raise the error of ``seat``'s illegal ``action``."""
        index = int(action)
        legal = self.state.legal_actions(seat)
        if not legal:
            raise IllegalActionError("core.adapter.not_your_move", agent=agent_name(seat))
        raise IllegalActionError(
            "core.adapter.not_legal", index=index, agent=agent_name(seat), n=len(legal),
            example_index=legal[0].index, example=str(legal[0]))

    def returns(self) -> list[float]:
        return common.returns(self.state.outcome(), self.game.num_players)

    def render(self) -> str:
        state = self.state
        view: JSON = state.view(None)
        history = view.pop("history", [])
        view.pop("events", None)
        view.pop("table", None)
        seats = state.current_seats()
        who = (f"game over: {self.stopped}" if self.stopped
               else "game over" if not seats else "chance" if seats == (CHANCE,)
               else "to move: " + ", ".join(agent_name(s) for s in seats))
        lines = [f"{self.game.info.name} ({who})"]
        lines += [f"  {e}" for e in history[-8:]]
        lines.append(json.dumps(view, sort_keys=True))
        return "\n".join(lines)


def _copy_space(space: Any) -> Any:
    return gymnasium.spaces.Dict({k: gymnasium.spaces.Box(v.low, v.high, v.shape, v.dtype)
                                  for k, v in space.spaces.items()})


def _check_settings(render_mode: str | None, illegal_action: str) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
    if illegal_action not in ILLEGAL_MODES:
        raise ValueError(f"illegal_action must be 'terminate' or 'raise', "
                         f"not {illegal_action!r}")


def _render(env: Any) -> str | None:
    """``render()`` of both environments: the text ("ansi"), or printed ("human")."""
    if env.render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode ('human' or 'ansi')")
        return None
    text: str = env.table.render()
    if env.render_mode == "human":
        print(text)
        return None
    return text


class DragonlairAECEnv(AECEnv):  # type: ignore[misc]
    """One of our games as a PettingZoo AEC environment (see the module docs)."""

    def __init__(self, game_id: str, render_mode: str | None = None, *,
                 illegal_action: IllegalMode = "terminate", illegal_reward: float = -1.0,
                 **options: Any) -> None:
        super().__init__()
        _check_settings(render_mode, illegal_action)
        self.table = _Table(game_id, options)
        self.metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES),
                                         "render_fps": 1, "is_parallelizable": False,
                                         "name": f"dragonlair_{game_id}_v0"}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = list(self.table.agents)
        #: each agent's seat (``possible_agents.index``, as a lookup)
        self.seat_of = dict(self.table.seat_of)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.state_space = self.table.state_space
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
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        seats = self.table.state.current_seats()
        if seats:
            # sealed bids in seat order (F8)
            self.agent_selection = self.possible_agents[min(seats)]
            return
        for agent, r in zip(self.possible_agents, self.table.returns(), strict=True):
            if agent in self.agents:
                self.rewards[agent] = r
                self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def _seat(self, agent: str) -> int:
        seat = self.seat_of.get(agent)
        return self.possible_agents.index(agent) if seat is None else seat  # ValueError

    def observe(self, agent: str) -> Obs:
        return self.table.observe(self._seat(agent))

    def state(self) -> Any:
        """The global state: every seat's observation vector, seat 0 first."""
        return self.table.global_state()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        if self.table.try_play(seat, action):
            for a in self.agents:
                self.rewards[a] = 0.0
            self._select()
        elif self.illegal_action == "terminate":
            # as PettingZoo's TerminateIllegalWrapper: the mover loses, everybody stops
            EnvLogger.warn_on_illegal_move()
            self.table.stop([seat], [action])
            self.rewards = {a: 0.0 for a in self.agents}
            self.rewards[agent] = self.illegal_reward
            self.terminations = {a: True for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.infos[agent] = {"illegal_action": True}
            self.agent_selection = self.agents[0]
        else:
            self.table.refuse(seat, action)  # illegal_action="raise": nothing changed
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return _render(self)

    def close(self) -> None:
        pass


class DragonlairParallelEnv(ParallelEnv):  # type: ignore[misc]
    """One of our games as a PettingZoo Parallel environment: every agent to move acts in the
    same step (all bidders at once in Fist's sealed bids); the others' actions are ignored."""

    def __init__(self, game_id: str, render_mode: str | None = None, *,
                 illegal_action: IllegalMode = "terminate", illegal_reward: float = -1.0,
                 **options: Any) -> None:
        _check_settings(render_mode, illegal_action)
        self.table = _Table(game_id, options)
        self.metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1,
                                         "name": f"dragonlair_{game_id}_parallel_v0"}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = list(self.table.agents)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.state_space = self.table.state_space
        self.agents: list[str] = []

    @property
    def engine_state(self) -> State:
        return self.table.state

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, Obs]:
        seats = self.table.seat_of
        return {a: self.table.observe(seats[a]) for a in self.agents}

    def state(self) -> Any:
        """The global state: every seat's observation vector, seat 0 first."""
        return self.table.global_state()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        if self.render_mode == "human":
            self.render()
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        table = self.table
        if not self.agents:  # the game is over: nothing moves (call reset())
            return {}, {}, {}, {}, {}
        seats = table.state.current_seats()
        missing = [agent_name(s) for s in seats if agent_name(s) not in actions]
        if missing:
            raise IllegalActionError("core.adapter.missing_actions", agents=missing)
        # every seat chooses from the same position (a sealed bid): check all, then apply
        bad = [s for s in seats if not table.is_legal(s, actions[agent_name(s)])]
        if bad and self.illegal_action == "raise":
            table.play(bad[0], actions[agent_name(bad[0])])  # raises with the reason
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if bad:  # the game ends; each illegal mover gets illegal_reward, the others 0
            EnvLogger.warn_on_illegal_move()
            table.stop(bad, [actions[agent_name(s)] for s in bad])
            over = True
            rewards = {a: 0.0 for a in self.agents}
            for seat in bad:
                rewards[agent_name(seat)] = self.illegal_reward
                infos[agent_name(seat)] = {"illegal_action": True}
        else:
            for seat in seats:
                table.play(seat, actions[agent_name(seat)])
            over = table.state.is_terminal()
            returns = table.returns()
            rewards = {a: (returns[table.seat_of[a]] if over else 0.0) for a in self.agents}
        observations = self._observations()
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return _render(self)

    def close(self) -> None:
        pass


def raw_env(game_id: str, render_mode: str | None = None, **options: Any) -> DragonlairAECEnv:
    """The AEC environment without PettingZoo's wrappers (``options``: our table options and
    ``illegal_action``, ``illegal_reward``)."""
    return DragonlairAECEnv(game_id, render_mode=render_mode, **options)


class DragonlairOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with its checks, its errors and its name, that
    reaches the environment's hot attributes directly: the wrapper reads ``agents``,
    ``agent_selection``, the reward, termination and info dicts through ``__getattr__`` (two
    Python calls and a string test each, about eight times a step), which cost as much as a
    step of the game. Before ``reset()`` every call goes PettingZoo's way and fails as
    there."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return cast(tuple[Any, float, bool, bool, dict[str, Any]], super().last(observe))
        out: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return out

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return super().observe(agent)
        return self.env.observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's wrapper names itself: the environment's name


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's iterator (the agent to step, until no agent is left; an assertion when a
    loop did not step), reading the environment under the wrapper directly."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = raw.agent_selection
        return agent


def env(game_id: str, render_mode: str | None = None, **options: Any) -> Any:
    """The AEC environment in PettingZoo's order-enforcing wrapper (a subclass of it:
    :class:`DragonlairOrderEnforcingWrapper`)."""
    return DragonlairOrderEnforcingWrapper(raw_env(game_id, render_mode=render_mode, **options))


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
