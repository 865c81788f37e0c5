"""One seat against our bots, as a Gymnasium environment.

``SingleSeatEnv("fist", seat=0, opponents=["heuristic"], options={"players": 4})``: the agent
holds ``seat``; every other seat is one of our bots (:func:`dragonlair.bots.make_bot`), asked
through :func:`dragonlair.bots.ask_bot` with its own view only. ``reset(seed=...)`` seeds
chance and the bots; ``step(action)`` applies the agent's action, then chance and the bots move
until it is the agent's turn again or the game is over.

- Observation: ``{"observation": Box(0, high, (size,), float32), "action_mask": Box(0, 1,
  (num_distinct_actions,), int8)}`` from the agent's view (:mod:`dragonlair.interop.encoding`).
- Action: ``Discrete(num_distinct_actions)``, our stable indices.
- Reward: 0 until the end, then the agent's share of the win (1 alone, 1/k shared, 0 lost; a
  drawn Dragon Master round 1/2), as in the other adapters. ``terminated`` at the game's end;
  ``truncated`` never (bound Fist and Farkle with ``max_turns``).
- Illegal actions (outside the mask): with ``illegal_action="terminate"`` (the default, as in
  PettingZoo's classic environments and our PettingZoo adapter) the episode ends at once:
  ``terminated`` is True, the reward is ``illegal_reward`` (default -1),
  ``info["illegal_action"]`` is True and the mask is all zeros. With ``"penalize"`` the
  action is ignored, nothing moves, the reward is ``illegal_reward`` and
  ``info["illegal_action"]`` is True; the episode goes on. With ``"raise"`` it raises
  :class:`~dragonlair.core.errors.IllegalActionError`. Gymnasium's ``check_env``, which
  steps with unmasked random actions, passes with ``"terminate"`` and ``"penalize"``.
- Rendering: ``"ansi"``: ``render()`` returns the agent's side of the table (the last record
  entries of its view); ``"human"``: the same text is printed to stdout after ``reset()``,
  after every ``step()`` and by ``render()``, which returns None.
- At a sealed bid (Fist) the bots in the bid submit before the agent; the agent's view shows
  only that they have bid (F8).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("dragonlair.interop.gym needs Gymnasium: "
                      "pip install 'dragonlair[pettingzoo]'") from exc

from dragonlair.bots import Bot, ask_bot, make_bot
from dragonlair.core.errors import IllegalActionError, OptionError, shown
from dragonlair.core.game import CHANCE, Game, State
from dragonlair.core.streams import SeatViews
from dragonlair.games import make_game
from dragonlair.interop import common
from dragonlair.interop.encoding import Encoder, encoder_for

Obs = dict[str, Any]


class SingleSeatEnv(gymnasium.Env[Obs, Any]):
    """One seat of a game against bots (see the module docs)."""

    def __init__(self, game_id: str, seat: int = 0, opponents: Sequence[str] = ("random",),
                 options: Mapping[str, Any] | None = None, *,
                 illegal_action: Literal["terminate", "penalize", "raise"] = "terminate",
                 illegal_reward: float = -1.0, render_mode: str | None = None) -> None:
        self.game: Game = make_game(game_id, options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise OptionError("core.adapter.seat_range", last=n - 1, seat=shown(seat))
        names = list(opponents)
        if len(names) == 1:
            names *= n - 1
        if len(names) != n - 1:
            raise OptionError("core.adapter.opponents", need=n - 1, got=len(names))
        if illegal_action not in ("terminate", "penalize", "raise"):
            raise OptionError("core.adapter.illegal_action_mode", value=shown(illegal_action))
        if render_mode not in (None, "human", "ansi"):
            raise OptionError("core.adapter.render_mode", value=shown(render_mode))
        for name in names:  # fail early on an unknown bot
            make_bot(game_id, name, random.Random(0))
        self.metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}
        self.game_id = game_id
        self.seat = seat
        self.opponent_names = names
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.game)
        self.num_actions = self.game.num_distinct_actions
        self.observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, self.encoder.observation_high,
                                                dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.action_space = gymnasium.spaces.Discrete(self.num_actions)
        self.state: State = self.game.new_initial_state()
        self.bots: dict[int, Bot] = {}
        #: the bots' views, kept current from the events since (issue 24)
        self.bot_views = SeatViews()
        self.rng = random.Random(0)
        #: the episode was ended by an illegal action (``illegal_action="terminate"``)
        self.stopped = False
        #: the agent's legal actions last asked for, by index and as a mask (and that mask
        #: as an array per dtype, copied for each observation)
        self.index = common.LegalIndex(self.num_actions)
        self._masks: dict[Any, Any] = {}
        self._mask_of = self.index.mask

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        seeds = self.np_random.integers(0, 2**63 - 1, size=self.game.num_players + 1)
        self.rng = random.Random(int(seeds[-1]))
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.bots = {s: make_bot(self.game_id, name, random.Random(int(seeds[s])))
                     for s, name in zip(others, self.opponent_names, strict=True)}
        self.state = self.game.new_initial_state()
        self.bot_views = SeatViews()
        self.stopped = False
        self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state.is_terminal() or self.stopped:
            raise IllegalActionError("core.adapter.game_over")
        legal = state.legal_actions(self.seat)
        index = int(action)
        chosen = self.index.of(legal).by_index.get(index)
        if chosen is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    "core.adapter.not_legal", index=index, agent=f"p{self.seat}",
                    n=len(legal), example_index=legal[0].index, example=str(legal[0]))
            self.stopped = self.illegal_action == "terminate"
            info = self._info()
            info["illegal_action"] = True
            if self.render_mode == "human":
                self.render()
            return self._observe(), self.illegal_reward, self.stopped, False, info
        state.apply(self.seat, chosen)
        self._advance()
        over = state.is_terminal()
        reward = common.returns(state.outcome(), self.game.num_players)[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent's seat now, as booleans by action index: the
        method sb3-contrib's ``MaskablePPO`` (and its ``ActionMasker``) call. The same as
        the observation's ``action_mask``; all False once the game is over or stopped."""
        if self.stopped or self.state.is_terminal():
            return np.zeros(self.num_actions, np.bool_)
        mask: npt.NDArray[np.bool_] = self._mask(np.bool_)
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode ('human' or 'ansi')")
            return None
        view = self.state.view(self.seat)
        history = view.get("history", [])
        head = f"{self.game.info.name}, p{self.seat} against {', '.join(self.opponent_names)}"
        if self.stopped:
            head += " (stopped: an illegal action)"
        text = "\n".join([head, *(f"  {e}" for e in history[-10:])])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ internals
    def _advance(self) -> None:
        """Chance and the bots move until the agent must act or the game is over."""
        state = self.state
        while True:
            seats = state.current_seats()
            if not seats:
                return
            if seats == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(self.rng))
                continue
            bots_to_move = [s for s in seats if s != self.seat]
            if not bots_to_move:
                return
            # a sealed bid: every bot chooses from the same position (as the driver does)
            choices = [(s, ask_bot(self.bots[s], state, s, self.bot_views)) for s in bots_to_move]
            for s, a in choices:
                state.apply(s, a)

    def _mask(self, dtype: Any) -> Any:
        """The agent's legal actions now as a new array of 0/1 by index."""
        legal = self.state.legal_actions(self.seat)
        if not legal:
            return np.zeros(self.num_actions, dtype)
        index = self.index.of(legal)
        if index.mask is not self._mask_of:
            self._mask_of = index.mask
            self._masks.clear()
        mask = self._masks.get(dtype)
        if mask is None:
            mask = self._masks[dtype] = np.frombuffer(index.mask, np.int8).astype(dtype)
        return mask.copy()

    def _observe(self) -> Obs:
        mask = np.zeros(self.num_actions, np.int8) if self.stopped else self._mask(np.int8)
        return {"observation": self.encoder.observe_state(self.state, self.seat),
                "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        outcome = self.state.outcome()
        return {"seat": self.seat, "turn": self.state.turn_count(),
                "outcome": outcome.to_json() if outcome else None}
