"""Table clocks: none, real-time (a time bank plus an increment per move, capped) or
turn-based (a fixed time per move), chosen per table at creation (docs/server.md, "Clocks").

A running clock is stored as the bank left when the seat's turn began and the moment it
began; the time left at ``t`` is ``bank - (t - started)``. Only seats held by people whose
move it is run (in a simultaneous sealed step every seat that still has to act runs).
Everything here is pure data and arithmetic; :mod:`dragonlair.server.table` stores the
clocks in the same transaction as the action that changes them.

The time source is a :class:`Clock`: :class:`SystemClock` on a real server,
:class:`FakeClock` in tests (advanced by hand, thread-safe, no sleeping).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

# ------------------------------------------------------------------- time source


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Where the server's clocks read the time and schedule their wake-ups."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` on the running event loop once :meth:`now` reaches ``when`` (at
        once if it has). Must be called from the event loop."""
        ...


class SystemClock:
    """The real time (:func:`time.time`), wake-ups through the event loop."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - self.now()), callback)


class _FakeTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that moves only when told (:meth:`advance`, from any thread): due wake-ups
    are handed to the event loop that scheduled them, in time order."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._t = start
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._due: list[tuple[float, int, _FakeTimer, asyncio.AbstractEventLoop,
                              Callable[[], None]]] = []

    def now(self) -> float:
        with self._lock:
            return self._t

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        loop = asyncio.get_running_loop()
        timer = _FakeTimer()
        with self._lock:
            if when > self._t:
                heapq.heappush(self._due, (when, next(self._order), timer, loop, callback))
                return timer
        loop.call_soon(self._fire, timer, callback)
        return timer

    @staticmethod
    def _fire(timer: _FakeTimer, callback: Callable[[], None]) -> None:
        if not timer.cancelled:
            callback()

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds`` and wake whatever came due."""
        with self._lock:
            self._t += seconds
            due = []
            while self._due and self._due[0][0] <= self._t:
                due.append(heapq.heappop(self._due))
        for _, _, timer, loop, callback in due:
            if not timer.cancelled and not loop.is_closed():
                loop.call_soon_threadsafe(self._fire, timer, callback)


# -------------------------------------------------------------------- settings

#: bounds of the clock settings (seconds unless named otherwise)
MIN_BANK, MAX_BANK = 10.0, 6 * 3600.0
MAX_INCREMENT = 600.0
MIN_HOURS, MAX_HOURS = 0.25, 14 * 24.0


class NoClockIn(BaseModel):
    """No clock: nobody ever runs out of time."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["none"]


class RealTimeIn(BaseModel):
    """A time bank per player: ``initial`` seconds, ``increment`` added after each of the
    player's moves, never more than ``maximum`` (default: ``initial``)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["realtime"]
    initial: float = Field(ge=MIN_BANK, le=MAX_BANK)
    increment: float = Field(default=0.0, ge=0.0, le=MAX_INCREMENT)
    maximum: float | None = Field(default=None, ge=MIN_BANK, le=MAX_BANK)

    @model_validator(mode="after")
    def _cap(self) -> RealTimeIn:
        if self.maximum is not None and self.maximum < self.initial:
            raise ValueError("maximum must be at least initial")
        return self


class TurnBasedIn(BaseModel):
    """``hours`` for each move (the deadline starts again with every turn)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["turn"]
    hours: float = Field(ge=MIN_HOURS, le=MAX_HOURS)


ClockIn = Annotated[NoClockIn | RealTimeIn | TurnBasedIn, Field(discriminator="kind")]


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A table's clock settings (stored as JSON in ``tables.clock``)."""

    kind: str = "none"  # none, realtime, turn
    initial: float = 0.0
    increment: float = 0.0
    maximum: float = 0.0

    @property
    def active(self) -> bool:
        return self.kind != "none"

    @classmethod
    def from_input(cls, data: NoClockIn | RealTimeIn | TurnBasedIn | None) -> ClockSpec:
        if isinstance(data, RealTimeIn):
            return cls("realtime", data.initial, data.increment,
                       data.maximum if data.maximum is not None else data.initial)
        if isinstance(data, TurnBasedIn):
            per_move = data.hours * 3600.0
            return cls("turn", per_move, 0.0, per_move)
        return cls()

    @classmethod
    def from_json(cls, data: Any) -> ClockSpec:
        if not isinstance(data, dict) or data.get("kind") not in ("realtime", "turn"):
            return cls()
        if data["kind"] == "turn":
            per_move = float(data["hours"]) * 3600.0
            return cls("turn", per_move, 0.0, per_move)
        return cls("realtime", float(data["initial"]), float(data["increment"]),
                   float(data["maximum"]))

    def to_json(self) -> dict[str, Any] | None:
        if self.kind == "realtime":
            return {"kind": "realtime", "initial": self.initial, "increment": self.increment,
                    "maximum": self.maximum}
        if self.kind == "turn":
            return {"kind": "turn", "hours": self.initial / 3600.0}
        return None


# ------------------------------------------------------------------ seat clocks
@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock: the bank left when its turn began, and when that was (``None``:
    not running)."""

    seat: int
    bank: float
    started: float | None = None

    @property
    def running(self) -> bool:
        return self.started is not None

    def remaining(self, now: float) -> float:
        if self.started is None:
            return self.bank
        return self.bank - max(0.0, now - self.started)

    def deadline(self) -> float | None:
        return None if self.started is None else self.started + self.bank

    def to_json(self, now: float) -> dict[str, Any]:
        return {"seat": self.seat, "remaining": round(max(0.0, self.remaining(now)), 3),
                "running": self.running, "deadline": self.deadline()}


def new_clock(spec: ClockSpec, seat: int) -> SeatClock:
    return SeatClock(seat, spec.initial)


def start(spec: ClockSpec, clock: SeatClock, now: float) -> SeatClock:
    """The seat's turn begins (turn-based: with a fresh time per move)."""
    if clock.running:
        return clock
    bank = spec.initial if spec.kind == "turn" else clock.bank
    return replace(clock, bank=bank, started=now)


def moved(spec: ClockSpec, clock: SeatClock, now: float) -> SeatClock:
    """The seat moved: charge the time it took, add the increment, cap (real-time); a
    turn-based clock starts afresh with the next turn."""
    if spec.kind == "turn":
        return replace(clock, bank=spec.initial, started=None)
    left = clock.remaining(now)
    return replace(clock, bank=max(0.0, min(spec.maximum, left + spec.increment)),
                   started=None)


def stopped(clock: SeatClock, now: float) -> SeatClock:
    """The seat's clock stops without a move (the seat was taken over, the game ended)."""
    if not clock.running:
        return clock
    return replace(clock, bank=max(0.0, clock.remaining(now)), started=None)


def plan(spec: ClockSpec, clocks: dict[int, SeatClock], should_run: set[int] | None,
         num_seats: int, now: float) -> dict[int, SeatClock]:
    """The clocks at ``now`` when seats ``should_run`` (people's seats only) are to move:
    a running seat that is no longer to move has ended its turn (:func:`moved`), a seat to
    move that is not running starts. ``None`` (chance is to move: its outcomes are drawn at
    once) leaves every clock as it is, so a turn interrupted by dice runs on. Only the
    clocks that change (or are new) are returned."""
    out: dict[int, SeatClock] = {}
    for seat in range(num_seats):
        before = clocks.get(seat) or new_clock(spec, seat)
        after = before
        if should_run is not None:
            if seat in should_run:
                after = start(spec, after, now)
            elif after.running:
                after = moved(spec, after, now)
        if after != before or seat not in clocks:
            out[seat] = after
    return out


def clock_json(spec: ClockSpec, clocks: dict[int, SeatClock], num_seats: int,
               now: float) -> dict[str, Any]:
    """The clock part of ``welcome`` and ``update`` (docs/protocol.md)."""
    seats = [(clocks.get(seat) or new_clock(spec, seat)).to_json(now)
             for seat in range(num_seats)]
    return {**(spec.to_json() or {}), "now": now, "seats": seats}
