"""The game contract (after OpenSpiel's, with pgx's explicitness).

A :class:`Game` declares what it is (:class:`GameInfo`) and makes initial states.
A :class:`State` says who moves (one seat, several seats for a sealed simultaneous
move, :data:`CHANCE` or nobody once terminal), lists legal actions per seat in a
stable order, applies actions, reports the :class:`Outcome` and builds views.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar

from dragonlair.core.errors import IllegalActionError, OptionError, SeatError, shown
from dragonlair.core.events import Event, EventChain, chain_from_list, chain_to_list

#: The pseudo-seat that resolves chance nodes.
CHANCE = -1

JSON = dict[str, Any]


class Action(Protocol):
    """An immutable action value with a canonical text form and a stable index."""

    @property
    def index(self) -> int: ...

    def __str__(self) -> str: ...


#: the kinds of option value a lobby form can offer
OPTION_KINDS = ("int", "bool", "str", "choice", "list", "object")


@dataclass(frozen=True, slots=True)
class OptionPreset:
    """A built-in value of an option (a Farkle scoring table, a deck), so that a lobby form
    offers it by name instead of asking for data: ``id``, ``label`` (a catalogue code naming
    it) and the ``value`` it stands for (checked as any value of the option is)."""

    id: str
    label: str
    value: Any


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: name, default, a help line, and its type, so that
    :func:`resolve_options` checks it and a lobby can build a form from it.

    ``kind``: ``int`` (a whole number, not a bool; ``minimum``/``maximum`` bound it),
    ``bool``, ``str``, ``choice`` (one of ``choices``), ``list`` (a JSON array) or ``object``
    (a JSON object); ``nullable``: ``None`` is allowed too (``default`` may be ``None``).
    ``refuse``: the game's own refusal of a bad value (a code citing its rule), raised instead
    of the generic ``core.option.*`` code; the game's deeper checks stay in the game."""

    name: str
    default: Any
    help: str
    kind: str = "object"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    nullable: bool = False
    refuse: Callable[[Any], OptionError] | None = field(default=None, compare=False,
                                                         repr=False)
    #: built-in values a form offers by name (besides the default)
    presets: tuple[OptionPreset, ...] = field(default=(), compare=False, repr=False)

    def problem(self, value: Any) -> OptionError | None:
        """Why ``value`` is no value of this option (``None`` when it is one)."""
        if value is None:
            return None if self.nullable else self._refused(value, "core.option.wrong_type",
                                                            type=self.kind)
        kind = self.kind
        ok = {"int": type(value) is int, "bool": isinstance(value, bool),
              "str": isinstance(value, str), "list": isinstance(value, list),
              "object": isinstance(value, Mapping), "choice": True}.get(kind, True)
        if not ok:
            return self._refused(value, "core.option.wrong_type", type=kind)
        if kind == "choice" and value not in self.choices:
            return self._refused(value, "core.option.not_a_choice",
                                 choices=[str(c) for c in self.choices])
        if kind == "int" and ((self.minimum is not None and value < self.minimum)
                              or (self.maximum is not None and value > self.maximum)):
            return self._refused(value, "core.option.out_of_range",
                                 min=self.minimum, max=self.maximum)
        return None

    def _refused(self, value: Any, code: str, **params: Any) -> OptionError:
        if self.refuse is not None:
            return self.refuse(value)
        return OptionError(code, name=self.name, value=shown(value), **params)

    def to_json(self) -> JSON:
        """The option as a lobby form field (JSON-ready)."""
        out: JSON = {"name": self.name, "kind": self.kind, "default": self.default,
                     "nullable": self.nullable, "help": self.help}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.choices:
            out["choices"] = list(self.choices)
        if self.presets:
            out["presets"] = [{"id": p.id, "label": p.label, "value": p.value}
                              for p in self.presets]
        return out


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is: stamped into every record (id and version)."""

    id: str
    name: str
    min_players: int
    max_players: int
    version: int
    options: tuple[OptionSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: winners (seats), placing per seat (1 = first), and why."""

    winners: tuple[int, ...]
    placings: tuple[int, ...]
    #: a catalogue code (``fist.end.points_reached``), rendered with ``reason_params``
    reason: str
    scores: tuple[float, ...] = field(default=())
    reason_params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "placings": list(self.placings),
            "reason": self.reason,
            "reason_params": dict(self.reason_params),
            "scores": list(self.scores),
        }

    def message(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """Why the game ended, in ``lang``."""
        from dragonlair.core.i18n import render

        return render(self.reason, self.reason_params, lang, names)


def placings_from_scores(scores: Sequence[float], winners: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking: winners place 1, the rest by score (ties share a place)."""
    order = sorted(range(len(scores)), key=lambda s: (s not in winners, -scores[s]))
    places = [0] * len(scores)
    for rank, seat in enumerate(order):
        prev = order[rank - 1] if rank else None
        same = (
            prev is not None
            and (prev in winners) == (seat in winners)
            and scores[prev] == scores[seat]
        )
        places[seat] = places[prev] if same and prev is not None else rank + 1
    return tuple(places)


def seat_error(seat: object, num_players: int, *, chance: bool = False) -> SeatError:
    """Why ``seat`` is no seat of a ``num_players`` table (``chance``: nor :data:`CHANCE`).
    Codes ``core.seat.*``, params ``last`` (the highest seat) and what was given."""
    if type(seat) is not int:
        return SeatError("core.seat.not_a_number_or_chance" if chance
                         else "core.seat.not_a_number", value=shown(seat),
                         type=type(seat).__name__, last=num_players - 1)
    if seat == CHANCE:
        return SeatError("core.seat.chance_has_no_seat")
    who = f"p{seat}" if -10**6 < seat < 10**6 else shown(seat)
    return SeatError("core.seat.not_at_table_or_chance" if chance else "core.seat.not_at_table",
                     who=who, players=num_players, last=num_players - 1)


def check_seat_range(seat: object, num_players: int, *, chance: bool = False) -> None:
    """Raise :class:`SeatError` unless ``seat`` is a seat of a ``num_players`` table (an
    ``int``, not a ``bool``), or :data:`CHANCE` where ``chance``. One type test and one range
    comparison: cheap enough for the engines to call on their hot paths."""
    if type(seat) is not int or not (CHANCE if chance else 0) <= seat < num_players:
        raise seat_error(seat, num_players, chance=chance)


#: the most digits a number in action or record notation may have (int() never sees more)
MAX_DIGITS = 6


def ascii_number(text: str) -> int | None:
    """``text`` as a number if it is 1 to :data:`MAX_DIGITS` ASCII digits, else ``None``.
    (``str.isdigit()`` alone also accepts ``'²'``, which ``int()`` refuses, and any number
    of digits, which ``int()`` refuses past 4,300.)"""
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


T = TypeVar("T")


class ChanceTable(tuple[tuple[T, float], ...]):
    """The chance outcomes of a situation that recurs, listed once: ``(outcome,
    probability)`` pairs, immutable, so that an engine's ``chance_outcomes`` may hand out the
    same table every time (a caller cannot change it), and ``sums``, the running sums of the
    probabilities in order, added as :func:`weighted_pick`'s loop adds them, so that it draws
    from a table by bisection: the same draw, the same choice."""

    sums: tuple[float, ...]

    def __new__(cls, pairs: Iterable[tuple[T, float]]) -> ChanceTable[T]:
        table = super().__new__(cls, pairs)
        acc = 0.0
        sums = []
        for _, p in table:
            acc += p
            sums.append(acc)
        table.sums = tuple(sums)
        return table


def weighted_pick(outcomes: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One of ``outcomes`` (``(outcome, probability)`` pairs), drawn with one
    ``rng.random()`` against the running sums of the probabilities, in order: the first
    whose running sum exceeds the draw (the last if none does). From a :class:`ChanceTable`,
    by bisecting its sums (the same sums, so the same choice)."""
    pairs = outcomes
    if type(outcomes) is ChanceTable:
        sums: tuple[float, ...] = outcomes.sums
        i = bisect_right(sums, rng.random())
        return pairs[i][0] if i < len(sums) else pairs[-1][0]
    r = rng.random()
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if r < acc:
            return outcome
    return outcomes[-1][0]


#: A game's action type: a game's state is ``State[ThatAction]`` (``class
#: FistState(State[FistAction])``). Covariant, so that ``State[FistAction]`` is a ``State``
#: (``State[Action]``): the shared layers (players, records, drivers, sessions, interop, bots)
#: take any game's state and read its actions as :class:`Action`, while a game's own code
#: sees its own action type.
A = TypeVar("A", bound=Action, default=Action, covariant=True)


class State(ABC, Generic[A]):
    """A position of a game. Mutable; :meth:`clone` copies it.

    Events: each applied action appends events (:meth:`emit`) to a persistent chain that
    :meth:`clone` shares in O(1) (an engine's ``clone`` copies ``_ev`` and ``_nev``)."""

    num_players: int
    #: the events so far, newest first (:data:`dragonlair.core.events.EventChain`)
    _ev: EventChain = None
    #: how many events there are
    _nev: int = 0

    def emit(self, code: str, to: int | None = None, **params: Any) -> None:
        """Record that something happened: ``code`` with ``params``, for everyone
        (``to=None``) or for seat ``to`` only."""
        self._ev = (Event(code, params, to), self._ev)
        self._nev += 1

    @property
    def event_count(self) -> int:
        """How many events the game has had (the next event's sequence number)."""
        return self._nev

    def events_for(self, seat: int | None, since: int = 0) -> list[tuple[int, Event]]:
        """``(seq, event)`` of the events ``seat`` (``None``: a spectator) may see, from
        sequence number ``since`` on, oldest first."""
        events = chain_to_list(self._ev, self._nev, since)
        start = self._nev - len(events)
        return [(start + i, e) for i, e in enumerate(events)
                if e.to is None or e.to == seat]

    def all_events(self) -> list[Event]:
        """Every event, secrets included (snapshots, tests)."""
        return chain_to_list(self._ev, self._nev)

    def _set_events(self, events: Sequence[Event]) -> None:
        self._ev = chain_from_list(events)
        self._nev = len(events)

    def snapshot(self) -> JSON:
        """The whole state as JSON that :meth:`Game.restore` turns back into an equal state
        (same legal actions, views, events and future) without replaying the history."""
        raise NotImplementedError(f"{type(self).__name__} has no snapshot yet")

    @abstractmethod
    def current_seats(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, several for a sealed simultaneous move,
        ``(CHANCE,)`` at a chance node, ``()`` when the game is over."""

    def is_terminal(self) -> bool:
        return not self.current_seats()

    def is_chance(self) -> bool:
        return self.current_seats() == (CHANCE,)

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[A]:
        """Legal actions of ``seat`` now, in a stable order (by index); empty if it may not act
        (``CHANCE`` included). A seat that is not at the table raises :class:`SeatError`."""

    @abstractmethod
    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """At a chance node: every outcome with its probability (they sum to 1). The outcomes
        of a situation that recurs may come as a :class:`ChanceTable`, listed once and the
        same object every time (immutable: copy it to change it)."""

    @abstractmethod
    def apply(self, seat: int, action: A) -> None:  # type: ignore[misc]
        """Apply ``action`` for ``seat`` (``CHANCE`` at chance nodes).

        (``A`` is covariant, so a caller holding a ``State`` may hand any game's action: the
        engine is the judge, and refuses what is not one of its legal actions.)

        Raises :class:`IllegalActionError` (naming the rule) and changes nothing
        if the action is not legal now; :class:`SeatError` (an :class:`IllegalActionError`
        too) if ``seat`` is not at the table.
        """

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once terminal, else ``None``."""

    @abstractmethod
    def view(self, seat: int | None, since: int = 0) -> JSON:
        """What ``seat`` may know (``None``: a spectator), as JSON-ready data. Any other
        value than a seat of the table (``CHANCE`` too) raises :class:`SeatError`.

        The envelope of :mod:`dragonlair.core.views`; its ``events`` are those this viewer
        may see with a sequence number from ``since`` on."""

    @abstractmethod
    def clone(self) -> State[A]:
        """An independent copy."""

    @property
    @abstractmethod
    def history(self) -> Sequence[tuple[int, A]]:
        """Every applied (seat, action), chance outcomes included, in order."""

    def turn_count(self) -> int:
        """Rounds played so far (the game's own notion of a turn)."""
        return 0

    @abstractmethod
    def full_state(self) -> JSON:
        """Everything, secrets included (for replays, debugging and tests)."""

    def sample_chance(self, rng: random.Random) -> A:
        """Pick a chance outcome with ``rng``, weighted by its probability."""
        return weighted_pick(self.chance_outcomes(), rng)

    def stop_at_limit(self, reason: str) -> None:
        """End the game now as its turn limit would (the leaders win, ties shared), for
        callers that bound a game's length. A game without a turn limit refuses."""
        raise NotImplementedError(f"{type(self).__name__} has no turn limit to stop at")

    def check_seat(self, seat: int) -> None:
        """Raise :class:`SeatError` if ``seat`` is not at the table (nor ``CHANCE``), and
        :class:`IllegalActionError` if it may not act now."""
        check_seat_range(seat, self.num_players, chance=True)
        if seat not in self.current_seats():
            raise IllegalActionError("core.turn.not_your_move", seat=seat)


#: For functions generic in a game's action type (``ask_bot(bot, state: State[ActionT], seat)
#: -> ActionT``) and in its state type (``play_out(state: StateT, ...) -> StateT``).
ActionT = TypeVar("ActionT", bound=Action)
StateT = TypeVar("StateT", bound=State)


class Game(ABC):
    """A configured game: its info, options, and its action space."""

    info: GameInfo
    num_players: int
    options: Mapping[str, Any]

    @abstractmethod
    def new_initial_state(self) -> State: ...

    def restore(self, snapshot: JSON) -> State:
        """A state from :meth:`State.snapshot` (checked; :class:`RecordError` if malformed)."""
        raise NotImplementedError(f"{type(self).__name__} cannot restore snapshots yet")

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Action from canonical text; raises :class:`MalformedActionError`."""

    @abstractmethod
    def action_from_index(self, index: int) -> Action: ...

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int: ...

    def record_options(self) -> JSON:
        """Options as stored in a record (JSON-ready)."""
        return dict(self.options)


#: What every game's ``State.snapshot()`` says it is (the games check it on restore).
SNAPSHOT_FORMAT = "dragonlair-snapshot"
SNAPSHOT_VERSION = 1


def snapshot_header(game: Game) -> JSON:
    """The fields every snapshot starts with: format, version, game id and version, options."""
    return {"format": SNAPSHOT_FORMAT, "format_version": SNAPSHOT_VERSION,
            "game": game.info.id, "game_version": game.info.version,
            "options": game.record_options()}


def resolve_options(info: GameInfo, given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults merged with ``given``, each given value checked against its spec (type,
    range, choices): :class:`OptionError` with code ``core.option.unknown`` (params ``game``,
    ``names``, ``known``), ``core.option.wrong_type`` (``name``, ``type``, ``value``),
    ``core.option.out_of_range`` (``name``, ``min``, ``max``, ``value``) or
    ``core.option.not_a_choice`` (``name``, ``choices``, ``value``), or the spec's own
    refusal."""
    specs = {spec.name: spec for spec in info.options}
    unknown = sorted(str(k) for k in set(given) - set(specs))
    if unknown:
        raise OptionError("core.option.unknown", game=info.id, names=unknown,
                          known=sorted(specs) or ["-"])
    for name, value in given.items():
        problem = specs[name].problem(value)
        if problem is not None:
            raise problem
    return {**{name: spec.default for name, spec in specs.items()}, **given}
