"""The three games as OpenSpiel Python games.

``import dragonlair.interop.openspiel`` registers ``dragonlair_fist``,
``dragonlair_fist_turn_based``, ``dragonlair_master`` and ``dragonlair_farkle``; then
``pyspiel.load_game("dragonlair_fist", {"players": 4})``.

Game type (all): EXPLICIT_STOCHASTIC chance, IMPERFECT_INFORMATION, CONSTANT_SUM utility
(winners share 1, others 0, a drawn round 1/n each: min 0, max 1, sum 1), TERMINAL rewards.
Dynamics: ``dragonlair_fist`` is SIMULTANEOUS, as the game is: every sealed bid (F5.1) and
every Silver tie-break (F5.7) is one joint move. As OpenSpiel's simultaneous games do, every
decision node is a joint node (``PlayerId.SIMULTANEOUS``, ``apply_actions``): at a
tie-break and at a power's decisions the seats not to move have the single action ``pass``;
only chance nodes have no joint move.
``dragonlair_fist_turn_based`` is the same game, SEQUENTIAL: the sealed bids are taken in
seat order and the views of later bidders show only that earlier seats have bid
(``pN: sealed``, F8), so a seat knows exactly what it knows at the simultaneous move. Python
ISMCTS needs it (it plays sequential games, and OpenSpiel's ``convert_to_turn_based`` wrapper
has no ``resample_from_infostate``). Dragon Master and Dragon Farkle are SEQUENTIAL.
docs/research.md gives the reasoning.

Parameters: ``players`` (all), ``max_turns`` (Fist, Farkle; default 30: they have no natural
length bound, see :func:`dragonlair.interop.common.decision_bound`), ``dragon`` (Farkle),
``four_of_a_kind_face`` (Master: True for the '100+face' scoring of M4), and ``options``: a
JSON object string with any further table options (Fist ``custom`` characters, Farkle
``table`` and ``decks``; a game string cannot hold JSON, so such a game does not serialize).

Actions: decisions use our stable indices (``num_distinct_actions`` is the game's);
chance outcomes are numbered from 0 (our index minus the chance block's start). Action
strings are our canonical notation (``bid f3 c1``, ``place ruby d4``, ``dice 234445 blank``).
Observations and information states come from :mod:`dragonlair.interop.encoding`, built from
the seat's view only; ``private_info=NONE`` observers see the spectator's view.
``resample_from_infostate`` uses :mod:`dragonlair.interop.resample`.
:class:`EngineRolloutEvaluator` gives MCTS and ISMCTS fast random rollouts.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, cast

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("dragonlair.interop.openspiel needs OpenSpiel: "
                      "pip install 'dragonlair[openspiel]'") from exc

from dragonlair.core.game import CHANCE, Action, ChanceTable, Game, State
from dragonlair.core.plugin import InteropSpec
from dragonlair.games import game_ids, make_game, plugin
from dragonlair.interop import common
from dragonlair.interop.encoding import (
    Encoder,
    encoder_for,
    information_state_string,
    observation_string,
)
from dragonlair.interop.resample import sample_history


def _spec(game_id: str) -> InteropSpec:
    """The game's research presentation (its plugin's); ``ValueError`` if it has none."""
    spec = plugin(game_id).interop
    if spec is None:
        raise ValueError(f"{game_id} is not presented to the research adapters")
    return spec


def parameters(game_id: str) -> dict[str, Any]:
    """OpenSpiel's parameters of the game, with their defaults (its plugin's)."""
    return dict(_spec(game_id).parameters)


def is_simultaneous(game_id: str) -> bool:
    """Whether the game has simultaneous moves (and so also a turn-based form)."""
    return _spec(game_id).simultaneous


def short_name(game_id: str, turn_based: bool = False) -> str:
    """The registered name: ``dragonlair_<game_id>`` (``_turn_based`` for the sequential form
    of a game with simultaneous moves; the others are sequential already)."""
    if turn_based and not is_simultaneous(game_id):
        raise ValueError(f"dragonlair_{game_id} is sequential already; it has no turn-based form")
    return f"dragonlair_{game_id}_turn_based" if turn_based else f"dragonlair_{game_id}"


def engine_options(game_id: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Our table options from OpenSpiel parameters (``options`` is a JSON object string; the
    plugin turns the rest into engine options)."""
    spec = _spec(game_id)
    merged = {**spec.parameters, **params}
    extra = merged.pop("options", "") or "{}"
    try:
        more = json.loads(extra)
    except json.JSONDecodeError as exc:
        raise ValueError(f"options must be a JSON object: {exc}") from None
    if not isinstance(more, dict):
        raise ValueError("options must be a JSON object")
    return {**more, **spec.to_options(merged)}


def game_type(game_id: str, turn_based: bool = False) -> Any:
    info = plugin(game_id).info
    low, high = info.min_players, info.max_players
    simultaneous = is_simultaneous(game_id) and not turn_based
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name(game_id, turn_based),
        long_name=f"Dragonlair {info.name}" + (" (turn-based)" if turn_based else ""),
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game_id),
    )


#: chance outcomes as the adapter gives them: (OpenSpiel action id, probability) pairs, by
#: id; a new list, or for a recurring chance situation (a Farkle roll, a Master deal) one
#: read-only tuple shared by every state in it, with the running sums of the probabilities
#: (:class:`ChanceTable`: :func:`dragonlair.core.game.weighted_pick` bisects them)
Outcomes = Sequence[tuple[int, float]]

# OpenSpiel's pseudo-players as plain ints: comparing an int with a pybind11 enum member, or
# reading the member, costs far more than the comparison (the hot paths below do it per step)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


def _farkle_chance_key() -> Callable[[State], Hashable | None]:
    """What the chance outcomes of a Dragon Farkle state depend on, where they are many or
    asked for often: a roll (``Phase.ROLL``: up to 1,386 outcomes) depends only on the
    number of dice in hand (``FarkleState.chance_outcomes``: ``roll_outcomes(hand_dice)``;
    the event die always rolls with them); a rerolled die (``Phase.DIE``) on nothing. The
    other chance nodes (draws from the piles, the setup) are listed each time (None)."""
    from dragonlair.games.farkle.enums import Phase
    from dragonlair.games.farkle.state import FarkleState

    roll, die = Phase.ROLL, Phase.DIE

    def key(state: State) -> Hashable | None:
        phase = cast(FarkleState, state).phase
        if phase is roll:
            return (roll, cast(FarkleState, state).hand_dice)
        return (die,) if phase is die else None

    return key


#: per game: a function giving a state's chance situation, a key that determines its chance
#: outcomes entirely (None: not cached, listed each time); made once per loaded game. Fist
#: and Master have none: their chance nodes draw from piles of a few kinds, listed in
#: microseconds.
CHANCE_KEYS: dict[str, Callable[[], Callable[[State], Hashable | None]]] = {
    "farkle": _farkle_chance_key}


class _Context:
    """What every state of one loaded game shares (never copied by ``clone``)."""

    def __init__(self, pygame: DragonlairGame, engine: Game, simultaneous: bool) -> None:
        self.pygame = pygame
        self.engine = engine
        self.game_id = engine.info.id
        self.num_players = engine.num_players
        self.simultaneous = simultaneous
        self.offset = common.chance_offset(engine)
        #: at a joint move, the one action of a seat that does not move (a tie-break it is
        #: not in): the first id after the decisions, never a decision itself
        self.pass_id = self.offset
        #: every action by index (``engine.action_from_index``), for ``apply_action``
        self.actions = tuple(engine.action_from_index(i)
                             for i in range(engine.num_distinct_actions))
        self.bound = common.decision_bound(engine)
        self.encoder: Encoder = encoder_for(engine)
        make_key = CHANCE_KEYS.get(self.game_id)
        self.chance_key = make_key() if make_key is not None else None
        #: the sorted outcomes per chance situation (a few keys: see :data:`CHANCE_KEYS`)
        self.chance_cache: dict[Hashable, ChanceTable[int]] = {}
        #: the outcomes of the engine's shared chance tables, by the table
        self.table_cache: common.ByIdentity[ChanceTable[Action], ChanceTable[int]] = \
            common.ByIdentity()
        #: the ids of the engine's shared tuples of legal actions, by the tuple
        self.legal_cache: common.ByIdentity[Sequence[Action], list[int]] = common.ByIdentity()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Context:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its game's string, not as its parts
        return (_context_of, (str(self.pygame),))

    def action(self, index: int) -> Action:
        """Our action of an index (``Game.action_from_index``, from a table of them)."""
        actions = self.actions
        return actions[index] if 0 <= index < len(actions) else self.engine.action_from_index(index)

    def action_id(self, seat: int, action: Action) -> int:
        return action.index - self.offset if seat == CHANCE else action.index

    def listed_outcomes(self, state: State) -> list[tuple[int, float]]:
        """The engine state's chance outcomes as OpenSpiel ids, sorted by id: listed now."""
        return self._converted(state.chance_outcomes())

    def _converted(self, outcomes: Sequence[tuple[Action, float]]) -> list[tuple[int, float]]:
        off = self.offset
        listed = [(a.index - off, p) for a, p in outcomes]
        listed.sort()
        return listed

    def _table(self, outcomes: Sequence[tuple[Action, float]]) -> ChanceTable[int]:
        return ChanceTable(self._converted(outcomes))

    def legal_ids(self, state: State, seat: int) -> list[int]:
        """The ids of ``seat``'s legal actions, a new list: from the cache where the engine
        hands out one tuple for a recurring situation (Master's placements, Fist's bids by
        purse), by the tuple's identity (the entry keeps it alive, so the id is not reused)."""
        legal = state.legal_actions(seat)
        if type(legal) is not tuple:
            return _indices(legal)
        return self.legal_cache.get(legal, _indices)[:]

    def chance_outcomes(self, state: State) -> Outcomes:
        """:meth:`listed_outcomes`, from the cache where the game keys its chance situation
        (a Farkle roll: listed once per number of dice in hand), or where the engine hands
        out one :class:`ChanceTable` for a recurring situation (a Master deal: converted once
        per table). Read-only: the same table for every state in that situation."""
        key = self.chance_key(state) if self.chance_key is not None else None
        if key is None:
            listed = state.chance_outcomes()
            if type(listed) is not ChanceTable:
                return self._converted(listed)
            return self.table_cache.get(listed, self._table)
        got = self.chance_cache.get(key)
        if got is None:
            got = self.chance_cache[key] = ChanceTable(self.listed_outcomes(state))
        return got


def _indices(legal: Sequence[Action]) -> list[int]:
    return [a.index for a in legal]


class _Core:
    """The engine state of one OpenSpiel state; ``clone`` copies it with ``State.clone``."""

    __slots__ = ("ctx", "decisions", "player", "state", "truncated")

    def __init__(self, ctx: _Context, state: State) -> None:
        self.ctx = ctx
        self.state = state
        self.decisions = 0
        self.truncated = False
        #: the current player of this position, once asked (None: not yet): a step asks it
        #: three or four times (the loop's node kind, ``legal_actions``, pyspiel's
        #: ``ApplyAction``, ``_apply_action``); every apply resets it
        self.player: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core(self.ctx, self.state.clone())
        c.decisions = self.decisions
        c.truncated = self.truncated
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and so serialised by ``pyspiel.serialize_game_and_state``, which pickles
        the Python state's ``__dict__``) as the engine's snapshot, a JSON text: restoring it
        does not replay the history (docs/architecture.md, Snapshots)."""
        snapshot = json.dumps(self.state.snapshot(), separators=(",", ":"))
        return (_core_from_snapshot, (self.ctx, snapshot, self.decisions, self.truncated))


@functools.lru_cache(maxsize=16)
def _context_of(game_string: str) -> _Context:
    """The context of the game a game string loads (one per string: its states share it)."""
    ctx: _Context = pyspiel.load_game(game_string).ctx
    return ctx


def _core_from_snapshot(ctx: _Context, snapshot: str, decisions: int,
                        truncated: bool) -> _Core:
    core = _Core(ctx, ctx.engine.restore(json.loads(snapshot)))
    core.decisions = decisions
    core.truncated = truncated
    return core


class DragonlairGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games, configured by OpenSpiel parameters."""

    game_id = ""
    turn_based = False  # Fist's sequential form (sealed bids in seat order)

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        engine = make_game(self.game_id, engine_options(self.game_id, given))
        simultaneous = is_simultaneous(self.game_id) and not self.turn_based
        self.ctx = _Context(self, engine, simultaneous)
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_distinct_actions,
            max_chance_outcomes=engine.num_distinct_actions - self.ctx.offset,
            num_players=engine.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.ctx.bound,
        )
        super().__init__(game_type(self.game_id, self.turn_based), info,
                         {**parameters(self.game_id), **given})

    @property
    def engine(self) -> Game:
        """Our configured game."""
        return self.ctx.engine

    def new_initial_state(self) -> DragonlairState:
        return DragonlairState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> DragonlairObserver:
        return DragonlairObserver(
            self.ctx, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class DragonlairState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one engine state."""

    def __init__(self, game: DragonlairGame) -> None:
        super().__init__(game)
        self._core = _Core(game.ctx, game.ctx.engine.new_initial_state())

    @property
    def engine_state(self) -> State:
        """The engine state (for the environment's side: tests, debugging), to read: the
        adapter keeps what it has worked out of a position (the current player), so move it
        on with ``apply_action``, not through this."""
        return self._core.state

    def current_player(self) -> int:
        core = self._core
        player = core.player
        if player is None:
            player = core.player = self._current_player()
        return player

    def _current_player(self) -> int:
        core = self._core
        if core.truncated:
            return _TERMINAL
        seats = core.state.current_seats()
        if not seats:
            return _TERMINAL
        first = seats[0]
        if first == CHANCE:
            return _CHANCE
        if core.ctx.simultaneous:  # every decision is a joint move; seats not to move pass
            return _SIMULTANEOUS
        # turn-based: sealed bids in seat order; views hide them (F8)
        return first if len(seats) == 1 else min(seats)

    # The methods below answer from Python what pyspiel's C++ State answers by calling back
    # into Python several times (``legal_actions()`` asks ``current_player`` three times and
    # ``is_terminal`` once before ``_legal_actions``; ``observation_tensor`` builds a new
    # initial state and its tensor to learn the size, then the tensor asked for). Each gives
    # what the C++ method gives, and hands every other case (chance nodes, pseudo-players,
    # errors) to it; tests/test_interop_openspiel.py compares both at every step. C++ callers
    # (and the algorithms written in C++) still take the C++ way.
    def is_chance_node(self) -> bool:
        return self.current_player() == _CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == _SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, *args: Any) -> list[int]:
        """``legal_actions([player])``: as pyspiel's (default: the player to move)."""
        current = self.current_player()
        player = args[0] if args else current
        if current >= 0 and player == current and type(player) is int and len(args) <= 1:
            return self._core.ctx.legal_ids(self._core.state, player)
        return cast(list[int], pyspiel.State.legal_actions(self, *args))

    def observation_tensor(self, *args: Any) -> list[float]:
        """``observation_tensor([player])``: as pyspiel's (default: the player to move), the
        encoder's vector of the seat's position (:meth:`DragonlairObserver.set_from`)."""
        ctx = self._core.ctx
        player = args[0] if args else self.current_player()
        if len(args) > 1 or type(player) is not int or not 0 <= player < ctx.num_players:
            return cast(list[float], pyspiel.State.observation_tensor(self, *args))
        # a new vector each call: states of one game may be asked from several threads; the
        # same floats as ndarray.tolist(), a third quicker through its buffer (a memoryview)
        return cast(list[float], ctx.encoder.observe_state(self._core.state, player).data.tolist())

    def information_state_tensor(self, *args: Any) -> list[float]:
        """``information_state_tensor([player])``: as pyspiel's (default: the player to move),
        the encoder's information state of the seat's view."""
        ctx = self._core.ctx
        player = args[0] if args else self.current_player()
        if len(args) > 1 or type(player) is not int or not 0 <= player < ctx.num_players:
            return cast(list[float], pyspiel.State.information_state_tensor(self, *args))
        vec: list[float] = ctx.encoder.information_state(self._core.state.view(player)).tolist()
        return vec

    def _legal_actions(self, player: int) -> list[int]:
        current = self.current_player()
        core = self._core
        if current == _SIMULTANEOUS:
            if player in core.state.current_seats():
                return core.ctx.legal_ids(core.state, player)
            return [core.ctx.pass_id] if 0 <= player < core.ctx.num_players else []
        if player < 0 or player != current:
            return []
        return core.ctx.legal_ids(core.state, player)

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """As pyspiel's, ``(action, probability)`` pairs by action; where the situation recurs
        (a Farkle roll, a Master deal) a read-only tuple that states in it share, with the
        running sums of the probabilities (a draw may bisect them): ``list()`` it to change
        it."""
        core = self._core
        return core.ctx.chance_outcomes(core.state)

    def _apply_action(self, action: int) -> None:
        core = self._core
        ctx = core.ctx
        state = core.state
        player = self.current_player()
        core.player = None  # the position changes
        if player == _CHANCE:
            state.apply(CHANCE, ctx.action(action + ctx.offset))
            return
        if player == _SIMULTANEOUS:
            raise ValueError("every decision of dragonlair_fist is a joint move: use "
                             "apply_actions([...]) with one action per seat (pass for the "
                             "seats not to move), or load dragonlair_fist_turn_based")
        state.apply(player, ctx.action(action))
        core.decisions += 1  # _count_decisions(1), inline: once a step
        if core.decisions >= ctx.bound and not state.is_terminal():
            core.truncated = True

    def _apply_actions(self, actions: list[int]) -> None:
        """A joint move: every sealed bid at once, in seat order (each is checked first, so
        that a bad one changes nothing); the seats that do not move must pass. At a node of
        one seat (a power's decision) the joint move is that seat's action and the others'
        passes."""
        core = self._core
        state = core.state
        seats = state.current_seats()
        if len(actions) != core.ctx.num_players:
            raise ValueError(f"a joint move needs {core.ctx.num_players} actions, "
                             f"got {len(actions)}")
        for seat, action in enumerate(actions):
            if action not in self._legal_actions(seat):
                wanted = "a legal bid" if seat in seats else f"pass ({core.ctx.pass_id})"
                raise ValueError(f"p{seat} cannot play {action} now; it must play {wanted}")
        engine = core.ctx.engine
        for seat in seats:
            state.apply(seat, engine.action_from_index(actions[seat]))
        self._count_decisions(len(seats))

    def _count_decisions(self, n: int) -> None:
        core = self._core
        core.player = None
        core.decisions += n
        if core.decisions >= core.ctx.bound and not core.state.is_terminal():
            core.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        engine = self._core.ctx.engine
        if player == _CHANCE:
            return str(engine.action_from_index(action + self._core.ctx.offset))
        if self._core.ctx.simultaneous and action == self._core.ctx.pass_id:
            return "pass"
        return str(engine.action_from_index(action))

    def string_to_action(self, *args: Any) -> int:
        """``string_to_action([player,] text)``: the action whose string (``action_to_string``)
        is ``text`` among ``player``'s legal actions (default: the current player). At a joint
        node give the seat (``pass`` is the id of a seat not to move); OpenSpiel's own version
        searches the flat joint actions there and finds no bid."""
        if len(args) == 1:
            player, text = self.current_player(), args[0]
        elif len(args) == 2:
            player, text = args
        else:
            raise TypeError("string_to_action([player,] action_string)")
        player = int(player)
        if player == pyspiel.PlayerId.CHANCE:
            candidates = [a for a, _ in self.chance_outcomes()]
        elif player == pyspiel.PlayerId.SIMULTANEOUS:
            raise ValueError("at a joint node give the seat: string_to_action(seat, text)")
        else:
            candidates = self._legal_actions(player)
        for action in candidates:
            if self._action_to_string(player, action) == text:
                return action
        raise ValueError(f"no legal action of player {player} matches {text!r}")

    def is_terminal(self) -> bool:
        # the engine's game is over when no seat is to move (State.is_terminal), and the
        # adapter's also when it stopped the game at its bound: the pseudo-player TERMINAL
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        core = self._core
        n = core.ctx.num_players
        if core.truncated:
            return common.returns(common.truncated_outcome(core.state, core.ctx.bound), n)
        return common.returns(core.state.outcome(), n)

    def outcome_reason(self) -> str:
        """Why the game ended, in English ('' while it goes on); a game the adapter stopped
        at its length bound says so. (The engine's code: ``engine_state.outcome().reason``.)"""
        core = self._core
        if core.truncated:
            stopped = common.truncated_outcome(core.state, core.ctx.bound)
            return (f"stopped after {core.ctx.bound} decisions (the adapter's length bound): "
                    f"{stopped.message()}")
        outcome = core.state.outcome()
        return outcome.message() if outcome else ""

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> DragonlairState:
        """A state ``player_id`` cannot tell from this one, hidden parts sampled
        (:func:`dragonlair.interop.resample.sample_history`), replayed move by move."""
        ctx = self._core.ctx
        rng = random.Random(int(probability_sampler() * 2**53))
        view = self._core.state.view(player_id)
        history = sample_history(ctx.engine, view, player_id, rng)
        new = ctx.pygame.new_initial_state()
        k = 0
        while k < len(history):
            if new.is_simultaneous_node():  # the seats to move: recorded in seat order
                joint = [ctx.pass_id] * ctx.num_players
                for seat in new._core.state.current_seats():
                    joint[seat] = ctx.action_id(*history[k])
                    k += 1
                new.apply_actions(joint)
            else:
                new.apply_action(ctx.action_id(*history[k]))
                k += 1
        return new

    def __str__(self) -> str:
        full = self._core.state.full_state()
        full["history"] = len(full["history"])  # the record is long; its length suffices
        full.pop("events", None)
        return json.dumps(full, sort_keys=True, separators=(",", ":"))


class DragonlairObserver:
    """The PyObserver for our games: tensors and strings from a seat's view."""

    def __init__(self, ctx: _Context, iig_obs_type: Any,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("supported observations: a seat's own (private_info="
                             "SINGLE_PLAYER) or the spectator's (private_info=NONE), both with "
                             "public information")
        self.ctx = ctx
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        enc = ctx.encoder
        size = enc.information_state_size if self.perfect_recall else enc.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {name: self.tensor[sl] for name, sl, _ in enc.layout(self.perfect_recall)}

    def _view(self, state: DragonlairState, player: int) -> dict[str, Any]:
        seat = None if self.spectator else player
        if self.perfect_recall:  # the record too
            return state.engine_state.view(seat)
        return common.position_view(state.engine_state, seat)

    def set_from(self, state: DragonlairState, player: int) -> None:
        if self.perfect_recall:
            self.ctx.encoder.information_state(self._view(state, player), self.tensor)
        else:
            self.ctx.encoder.observe_state(state.engine_state,
                                           None if self.spectator else player, self.tensor)

    def string_from(self, state: DragonlairState, player: int) -> str:
        view = self._view(state, player)
        return information_state_string(view) if self.perfect_recall else observation_string(view)


class EngineRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """MCTS/ISMCTS evaluator: uniform random rollouts played in our engine directly (an order of
    magnitude faster than OpenSpiel's ``RandomRolloutEvaluator``, which applies every move
    through pyspiel). Rollouts respect the game's decision bound; the prior is uniform."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self.rng = random.Random(seed)

    def evaluate(self, state: DragonlairState) -> Any:
        core = state._core
        ctx = core.ctx
        total = np.zeros(ctx.num_players)
        for _ in range(self.n_rollouts):
            engine = core.state.clone()
            left = ctx.bound - core.decisions
            while not core.truncated and left > 0:
                seats = engine.current_seats()
                if not seats:
                    break
                if seats[0] == CHANCE:
                    engine.apply(CHANCE, engine.sample_chance(self.rng))
                    continue
                seat = min(seats)
                legal = engine.legal_actions(seat)
                engine.apply(seat, legal[self.rng.randrange(len(legal))])
                left -= 1
            outcome = engine.outcome()
            if outcome is None:
                outcome = common.truncated_outcome(engine, ctx.bound)
            total += common.returns(outcome, ctx.num_players)
        return total / self.n_rollouts

    def prior(self, state: DragonlairState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())  # MCTS shuffles the list it is given
        if state.is_simultaneous_node():
            raise ValueError("MCTS searches sequential games: load dragonlair_fist_turn_based, "
                             "or wrap the game in pyspiel.convert_to_turn_based")
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _game_classes() -> dict[str, type[DragonlairGame]]:
    """One :class:`DragonlairGame` subclass per game the plugins present (and a turn-based one
    for a game with simultaneous moves), by registered name."""
    out: dict[str, type[DragonlairGame]] = {}
    for gid in game_ids():
        if plugin(gid).interop is None:
            continue
        forms = (False, True) if is_simultaneous(gid) else (False,)
        for turn_based in forms:
            name = short_name(gid, turn_based)
            cls_name = f"{gid.title()}{'TurnBased' if turn_based else ''}Game"
            cls = type(cls_name, (DragonlairGame,), {
                "game_id": gid, "turn_based": turn_based, "__doc__": f"``{name}``.",
                "__module__": __name__, "__qualname__": cls_name})
            globals()[cls_name] = cls  # importable by name (pickling finds it)
            out[name] = cls
    return out


#: every registered game class, by registered name
GAME_CLASSES: dict[str, type[DragonlairGame]] = _game_classes()


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name, cls in GAME_CLASSES.items():
        if name not in registered:
            pyspiel.register_game(game_type(cls.game_id, cls.turn_based), cls)


def load(game_id: str, turn_based: bool = False, **params: Any) -> Any:
    """``pyspiel.load_game("dragonlair_<game_id>[_turn_based]", params)``."""
    return pyspiel.load_game(short_name(game_id, turn_based), params)


_register()
