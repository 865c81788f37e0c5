"""What the research adapters share, with no optional dependency: returns, the chance-id
space, and the length bounds and truncation used where a framework needs a finite game.

Returns
    Every adapter pays the same: the winners share 1 (a sole winner gets 1, two tied winners
    1/2 each), the others get 0; a game with no winner (a drawn Dragon Master round) gives
    every seat 1/n. The sum is always 1 (constant-sum), each return lies in [0, 1].

Chance ids
    Our action indices put every chance outcome (cards, stones, dice, deals, start players)
    after every decision, in one contiguous block. OpenSpiel numbers chance outcomes from 0,
    so a chance outcome's OpenSpiel id is its index minus :func:`chance_offset`.

Observations
    An observation leaves out the record (``history``, ``events``, private ``notes``), so the
    adapters build it from :func:`position_view`: the seat's view asked for the events from
    the current count on, which is the position without the event log (microseconds, where
    the full view of a long game costs the whole log). A perfect-recall observation reads the
    record and takes the full view.

Length bounds
    OpenSpiel wants ``max_game_length``, a bound on the number of decisions. Each game's plugin
    gives one (:attr:`dragonlair.core.plugin.InteropSpec.decision_bound`): Dragon Master has
    one (16 placements a round); Fist and Farkle have none (F5.10 and Farkle's turn limit are
    options, and even a bounded Farkle turn may roll on forever), so theirs derive a bound
    from ``max_turns``; an adapter that enforces it ends the game when the bound is reached,
    and the largest score or army then wins, as at the turn limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from dragonlair.core.game import JSON, Action, Game, Outcome, State

K = TypeVar("K")
V = TypeVar("V")

#: The turn limit the adapters use for games without a natural bound when none is given
#: (each plugin's OpenSpiel parameters carry its own default).
DEFAULT_MAX_TURNS = 30


def is_chance_action(game_id: str, action: Action) -> bool:
    """Whether ``action`` is a chance outcome (it lies in the chance block of the indices)."""
    from dragonlair.games import plugin

    return plugin(game_id).is_chance_action(action)


def chance_offset(game: Game) -> int:
    """The index of the first chance outcome; every index from it on is a chance outcome."""
    from dragonlair.games import plugin

    n = game.num_distinct_actions
    gid = game.info.id
    chance = plugin(gid).is_chance_action
    first = next(i for i in range(n) if chance(game.action_from_index(i)))
    if not all(chance(game.action_from_index(i)) for i in range(first, n)):
        raise AssertionError(f"{gid}: chance outcomes are not one block at the end")
    return first


def position_view(state: State, seat: int | None) -> JSON:
    """``seat``'s view of the position without its event log: ``state.view(seat, since)``
    with ``since`` the event count (the envelope's ``events`` is then empty)."""
    return state.view(seat, state.event_count)


class ByIdentity(Generic[K, V]):
    """Values worked out of immutable objects that an engine hands out again and again (a
    tuple of legal actions, a chance table), kept by the object's identity: the entry holds
    the object, so its id is not reused while it is kept. At most ``size`` entries; then all
    are forgotten at once."""

    __slots__ = ("entries", "size")

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.entries: dict[int, tuple[K, V]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: K, make: Callable[[K], V]) -> V:
        """The value of ``key``: ``make(key)`` the first time, the kept one after."""
        hit = self.entries.get(id(key))
        if hit is None or hit[0] is not key:
            if len(self.entries) >= self.size:
                self.entries.clear()
            hit = self.entries[id(key)] = (key, make(key))
        return hit[1]


def _indexed(legal: Sequence[Action], size: int) -> tuple[dict[int, Action], bytes]:
    by_index = {a.index: a for a in legal}
    mask = bytearray(size)
    for i in by_index:
        mask[i] = 1
    return by_index, bytes(mask)


class LegalIndex:
    """A seat's legal actions by action index, and as a mask (one byte per index: 1 legal),
    for the environments' observation (the mask) and step (the action of an index, and
    whether it is legal) without a scan of the legal actions each.

    It keeps the legal actions it indexed, up to :data:`KEPT` tuples: a state answers
    ``legal_actions`` with the same tuple while nothing changes, and Dragon Master's, Dragon
    Farkle's and Fist's bids share them between positions, so the step after an observation
    finds its index ready, and so does the next position most of the time (the same mask
    object too). Only a tuple (immutable) is kept, by its identity (the entry holds it, so the
    id is not reused); any other sequence is indexed each time."""

    __slots__ = ("by_index", "kept", "legal", "mask", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.legal: Sequence[Action] = ()
        self.by_index: dict[int, Action] = {}
        self.mask = bytes(size)
        self.kept: ByIdentity[Sequence[Action], tuple[dict[int, Action], bytes]] = ByIdentity()

    def _index(self, legal: Sequence[Action]) -> tuple[dict[int, Action], bytes]:
        return _indexed(legal, self.size)

    def of(self, legal: Sequence[Action]) -> LegalIndex:
        """Index ``legal`` (unless it is a tuple indexed before); returns itself."""
        if legal is self.legal and type(legal) is tuple:
            return self
        if type(legal) is tuple:
            self.by_index, self.mask = self.kept.get(legal, self._index)
        else:
            self.by_index, self.mask = _indexed(legal, self.size)
        self.legal = legal
        return self


def returns(outcome: Outcome | None, num_players: int) -> list[float]:
    """Each seat's return: winners share 1; no winner: everybody 1/n; not over: zeros."""
    if outcome is None:
        return [0.0] * num_players
    winners = outcome.winners or tuple(range(num_players))
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(num_players)]


def decision_bound(game: Game) -> int:
    """A bound on the number of decisions (not chance outcomes) in one game: the plugin's
    (:class:`ValueError` where the configured game has none, e.g. without ``max_turns``)."""
    from dragonlair.games import plugin

    spec = plugin(game.info.id).interop
    if spec is None:
        raise ValueError(f"{game.info.id} is not presented to the research adapters")
    return spec.decision_bound(game)


def truncated_outcome(state: State, limit: int) -> Outcome:
    """The outcome of a game stopped after ``limit`` decisions: the engine ends a copy of the
    state as its turn limit would (:meth:`State.stop_at_limit`: the highest score in Fist,
    the largest army in Farkle, ties shared)."""
    stopped = state.clone()
    stopped.stop_at_limit(f"stopped after {limit} decisions (the adapter's length bound)")
    outcome = stopped.outcome()
    assert outcome is not None
    return outcome
