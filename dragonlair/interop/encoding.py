"""Observations for learning code, built from a seat's view only (F8, M6, D9).

Every encoder turns ``state.view(seat)`` (the JSON a seat is handed) into

- an **observation vector**: ``float32``, one fixed length per configured game (it depends
  on options such as the player count or the card set, never on the position). It describes
  the position as the seat sees it now;
- an **information-state vector**: the observation vector followed by a *recall block*: what
  a perfect memory of the seat's record adds (see each encoder);
- an **observation string**: canonical JSON of the view (sorted keys) without its record
  (``history``, Farkle's ``events``, Fist's private ``notes``);
- an **information-state string**: canonical JSON of the whole view. A view's record holds
  every public action and the seat's own actions and secrets (its bids, its deals, its item
  draws), so this string is perfect recall for the seat.

The definition reads no engine state: an encoder is given a view (a dict) and the configured
:class:`~dragonlair.core.game.Game` (for option-dependent sizes such as the card list), so a
change to another seat's hidden data cannot reach an observation unless the view leaks it.

**The fast path** (:meth:`Encoder.observe_state`): the adapters step millions of times, and
building a JSON view per step costs more than the step. An encoder may read the same
seat-visible fields straight from the engine state (``_observe_state``); it must give exactly
the vector its view encoding gives. ``tests/test_interop_observe_state.py`` checks that at
every decision of seeded random games for every seat and the spectator, and the planted-secret
scans run on both paths, so the view stays the definition of what a seat may know.

Scalars are scaled to roughly [0, 1] by fixed constants (documented per field); one-hot
blocks are 0/1; counts are divided by the most there can be. ``encoder.layout()`` lists
``(field, slice, description)``; ``docs/research.md`` prints it for each game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from dragonlair.core.game import JSON, Game, State

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("dragonlair.interop needs numpy: pip install 'dragonlair[openspiel]' "
                      "or 'dragonlair[pettingzoo]'") from exc

Vector = npt.NDArray[np.float32]

#: Names the view uses for the record (and where its events start): left out of observation
#: strings, which then read the same from a full view and from a position view
#: (:func:`dragonlair.interop.common.position_view`).
RECALL_KEYS = ("history", "events", "events_since")


def canonical(data: Any) -> str:
    """Canonical JSON: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def observation_string(view: JSON) -> str:
    """The view without its record (``history``, ``events``, private ``notes``)."""
    v = {k: val for k, val in view.items() if k not in RECALL_KEYS}
    me = v.get("me")
    if isinstance(me, dict) and "notes" in me:
        v["me"] = {k: val for k, val in me.items() if k != "notes"}
    return canonical(v)


def information_state_string(view: JSON) -> str:
    """The whole view: the seat's record of public actions and its own actions and secrets."""
    return canonical(view)


@dataclass(frozen=True, slots=True)
class Field:
    """One block of a vector."""

    name: str
    start: int
    size: int
    doc: str
    high: float = 1.0

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class _Layout:
    """Named consecutive blocks."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0
        self.at: dict[str, slice] = {}

    def add(self, name: str, size: int, doc: str, high: float = 1.0) -> None:
        """A block of ``size`` values in [0, ``high``] (encoders clip at ``high``)."""
        f = Field(name, self.size, size, doc, high)
        self.fields.append(f)
        self.at[name] = f.slice
        self.size += size

    def highs(self) -> Vector:
        out = np.zeros(self.size, np.float32)
        for f in self.fields:
            out[f.slice] = f.high
        return out


class Encoder:
    """Base class: a game's observation and information-state vectors."""

    game_id = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = game.num_players
        self.obs = _Layout()
        self.recall = _Layout()
        self._build()
        self.observation_high: Vector = self.obs.highs()
        self.information_state_high: Vector = np.concatenate(
            [self.observation_high, self.recall.highs()])

    def _build(self) -> None:
        raise NotImplementedError

    @property
    def observation_size(self) -> int:
        return self.obs.size

    @property
    def information_state_size(self) -> int:
        return self.obs.size + self.recall.size

    def layout(self, information_state: bool = False) -> list[tuple[str, slice, str]]:
        """``(field, slice, description)`` for every block, in order."""
        return [(f.name, sl, f.doc) for f, sl in self._fields(information_state)]

    def _fields(self, information_state: bool) -> list[tuple[Field, slice]]:
        out = [(f, f.slice) for f in self.obs.fields]
        if information_state:
            off = self.obs.size
            out += [(f, slice(f.start + off, f.start + off + f.size)) for f in self.recall.fields]
        return out

    def describe(self, information_state: bool = False) -> str:
        """The layout as a Markdown table (docs/research.md prints these)."""
        rows = ["| field | slice | size | range | contents |", "|---|---|---|---|---|"]
        for f, sl in self._fields(information_state):
            rows.append(f"| `{f.name}` | {sl.start}:{sl.stop} | {f.size} | 0-{f.high:g} "
                        f"| {f.doc} |")
        return "\n".join(rows)

    def observation(self, view: JSON, out: Vector | None = None) -> Vector:
        """The observation vector of ``view`` (written into ``out`` when given)."""
        vec = np.zeros(self.obs.size, np.float32) if out is None else out
        vec[:] = 0.0
        self._observe(view, vec)
        np.minimum(vec, self.observation_high, out=vec)
        return vec

    def information_state(self, view: JSON, out: Vector | None = None) -> Vector:
        """The observation vector followed by the recall block."""
        vec = np.zeros(self.information_state_size, np.float32) if out is None else out
        vec[:] = 0.0
        self._observe(view, vec[:self.obs.size])
        self._recall(view, vec[self.obs.size:])
        np.minimum(vec, self.information_state_high, out=vec)
        return vec

    def observe_state(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """``seat``'s observation vector of the position of ``state`` (``None``: the
        spectator's): the same vector as ``observation(position_view(state, seat))``, read
        from the engine's seat-visible fields where the encoder has a fast path."""
        if out is None or not _plain(out):  # the fast paths write a plain float32 vector
            vec = np.zeros(self.obs.size, np.float32)
        else:
            vec = out
            vec.fill(0.0)
        if not self._observe_state(state, seat, vec):
            self._observe(state.view(seat, state.event_count), vec)
        np.minimum(vec, self.observation_high, out=vec)
        if out is not None and vec is not out:
            out[:] = vec
            return out
        return vec

    def _observe(self, view: JSON, vec: Vector) -> None:
        raise NotImplementedError

    def _observe_state(self, state: State, seat: int | None, vec: Vector) -> bool:
        """Write ``seat``'s observation of ``state`` into ``vec`` (zeros on entry) from the
        engine's seat-visible fields and return True; False (the default): no fast path, the
        caller encodes the position view. An override must equal :meth:`_observe` of the
        position view, value for value. ``vec`` is a one-dimensional, C-contiguous ``float32``
        array in native byte order, so an override may write through ``memoryview(vec)`` (a
        scalar write there costs about half a numpy one, and rounds a Python float to float32
        as numpy does)."""
        return False

    def _recall(self, view: JSON, vec: Vector) -> None:
        raise NotImplementedError

    # helpers
    def _seat_block(self, name: str, doc: str, chance: bool = False) -> None:
        self.obs.add(name, self.num_players + (1 if chance else 0), doc)

    @staticmethod
    def _one_hot(vec: Vector, sl: slice, index: int | None) -> None:
        if index is not None and index >= 0:
            vec[sl.start + index] = 1.0

    @staticmethod
    def _mask(vec: Vector, sl: slice, indices: Iterable[int]) -> None:
        for i in indices:
            vec[sl.start + i] = 1.0

    def _to_move(self, vec: Vector, sl: slice, to_move: Sequence[Any]) -> None:
        for s in to_move:
            vec[sl.start + (self.num_players if s == "chance" else int(s))] = 1.0


def scalar_writer(vec: Vector) -> Any:
    """``vec`` (as :meth:`Encoder._observe_state` is given it: one-dimensional, C-contiguous,
    native ``float32``) as a memoryview, for a fast path's scalar writes: ``out[i] = x``
    there costs about half of numpy's and rounds ``x`` to ``float32`` as numpy does."""
    return memoryview(cast(Any, vec))


def _plain(vec: Vector) -> bool:
    """Whether ``vec`` is a one-dimensional, C-contiguous, native ``float32`` numpy array."""
    return (type(vec) is np.ndarray and vec.dtype == _FLOAT32 and vec.ndim == 1
            and vec.flags.c_contiguous)


_FLOAT32 = np.dtype(np.float32)


def encoder_for(game: Game) -> Encoder:
    """The encoder of a configured game (its plugin's)."""
    from dragonlair.games import plugin

    make = plugin(game.info.id).encoder
    if make is None:
        raise ValueError(f"{game.info.id} has no observation encoder")
    enc: Encoder = make(game)
    return enc
