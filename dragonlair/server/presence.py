"""Presence and the away policy (docs/server.md, "Away players and abandoned tables").

Each table knows, per seat held by a person, whether any WebSocket of that person is open
on it (here, or in another process that said so over the bus), and since when none is.
Every viewer gets it in ``welcome`` and, whenever it changes, in a ``presence`` message
(docs/protocol.md): the seats' entries ``{seat, connected, since, takeover_at}``, the
server's ``now`` and the table's ``away`` policy.

The away policy is chosen when a table is created: ``{"kind": "bot", "seconds": S}`` (the
default, ``S`` = ``Settings.away_seconds``: the table's takeover bot takes the seat of a
person disconnected for ``S`` seconds while the game runs) or ``{"kind": "wait"}`` (never).
Turn-based tables always wait: their per-move clock is what ends a long absence. The
countdown reads the hub's injectable clock; the process that runs the table's timers and
bots (``Hub.runs``) sets the wake-up and takes the seat through
:meth:`~dragonlair.server.table.takeover.Takeover.take_over` (reason ``away``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dragonlair.server.clocks import ClockSpec, Timer
from dragonlair.server.errors import ServerError

if TYPE_CHECKING:
    from dragonlair.server.bus import TableEvent
    from dragonlair.server.settings import Settings
    from dragonlair.server.table.runtime import TableRuntime
    from dragonlair.server.table.viewers import Viewer

JSON = dict[str, Any]

#: the longest away time a table may choose (seconds)
AWAY_MAX_S = 3600.0


# --------------------------------------------------------------------- the option
class BotAwayIn(BaseModel):
    """A bot takes the seat of a person away for ``seconds`` (default: the server's)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["bot"]
    seconds: float | None = Field(default=None, gt=0, le=AWAY_MAX_S)


class WaitAwayIn(BaseModel):
    """Wait for the away person, however long."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["wait"]


AwayIn = Annotated[BotAwayIn | WaitAwayIn, Field(discriminator="kind")]


@dataclass(frozen=True, slots=True)
class AwayPolicy:
    """A table's away policy (stored as JSON in ``tables.away``)."""

    kind: str = "bot"  # bot, wait
    seconds: float = 180.0

    @property
    def takes_over(self) -> bool:
        return self.kind == "bot"

    def to_json(self) -> JSON:
        if self.kind == "bot":
            return {"kind": "bot", "seconds": self.seconds}
        return {"kind": "wait"}

    @classmethod
    def from_json(cls, data: Any, spec: ClockSpec, default_seconds: float) -> AwayPolicy:
        """The policy stored (``None``: the default one); turn-based tables wait."""
        if spec.kind == "turn":
            return cls("wait", 0.0)
        if isinstance(data, dict) and data.get("kind") == "wait":
            return cls("wait", 0.0)
        if isinstance(data, dict) and isinstance(data.get("seconds"), int | float):
            return cls("bot", float(data["seconds"]))
        return cls("bot", default_seconds)


def away_policy(body: BotAwayIn | WaitAwayIn | None, spec: ClockSpec,
                settings: Settings) -> AwayPolicy:
    """The policy a new table asked for, checked: a bot's seconds within the server's bounds
    (``server.table.away_seconds``), and no bot on a turn-based table, whose clock decides
    (``server.table.away_turn_based``). Nothing asked: the default for the clock."""
    if isinstance(body, WaitAwayIn):
        return AwayPolicy("wait", 0.0)
    if spec.kind == "turn":
        if body is not None:
            raise ServerError("server.table.away_turn_based", 422)
        return AwayPolicy("wait", 0.0)
    seconds = settings.away_seconds if body is None or body.seconds is None else body.seconds
    if not settings.away_min_s <= seconds <= AWAY_MAX_S:
        raise ServerError("server.table.away_seconds", 422, seconds=seconds,
                          min=settings.away_min_s, max=AWAY_MAX_S)
    return AwayPolicy("bot", float(seconds))


# ---------------------------------------------------------------------- presence
class TablePresence:
    """Who of a table's people is connected, since when not, and the away countdowns."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.runtime = runtime
        settings = runtime.hub.settings
        self.policy = AwayPolicy("bot", settings.away_seconds)
        #: this process's sockets per user id
        self.here: dict[int, int] = {}
        #: the users other processes said they have sockets of (many processes)
        self.elsewhere: dict[str, frozenset[int]] = {}
        #: since when (the hub's clock) a user has no socket on the table
        self.away_since: dict[int, float] = {}
        #: since when this process has seen the table running (the countdown never starts
        #: before the game does)
        self.running_since: float | None = None
        self.sent: JSON | None = None
        self.timer: Timer | None = None
        self.due_at: float | None = None

    # -------------------------------------------------------------- connections
    def connected(self, user_id: int) -> bool:
        return self.here.get(user_id, 0) > 0 or any(
            user_id in users for users in self.elsewhere.values())

    def joined(self, viewer: Viewer) -> None:
        """A socket of ``viewer.user_id`` opened on the table (ws.py)."""
        if viewer.user_id is None:
            return
        count = self.here.get(viewer.user_id, 0)
        self.here[viewer.user_id] = count + 1
        if count == 0:
            self.away_since.pop(viewer.user_id, None)
            self.tell_others()
            self.refresh()

    def left(self, viewer: Viewer) -> None:
        """A socket of ``viewer.user_id`` closed (ws.py)."""
        user_id = viewer.user_id
        if user_id is None or user_id not in self.here:
            return
        self.here[user_id] -= 1
        if self.here[user_id] <= 0:
            del self.here[user_id]
            self.tell_others()
            if not self.connected(user_id):
                self.away_since[user_id] = self.runtime.hub.clock.now()
            self.refresh()

    def tell_others(self, ask: bool = False) -> None:
        """Many processes: say which users have sockets here (``ask``: and ask the others
        to say theirs, when this process loads the table)."""
        self.runtime.hub.announce(self.runtime.id, {"k": "presence", "users": sorted(self.here),
                                                    "ask": ask}, None, None)

    def notice(self, event: TableEvent) -> None:
        """Another process's ``presence`` notice."""
        payload = event.payload
        process, users = payload.get("p"), payload.get("users")
        if not isinstance(process, str) or not isinstance(users, list):
            return
        before = {u for u in self.runtime_users() if self.connected(u)}
        self.elsewhere[process] = frozenset(u for u in users if isinstance(u, int))
        if not self.elsewhere[process]:
            del self.elsewhere[process]
        at = self.runtime.hub.clock.now()
        for user_id in self.runtime_users():
            if user_id in before and not self.connected(user_id):
                self.away_since[user_id] = at
            elif self.connected(user_id):
                self.away_since.pop(user_id, None)
        if payload.get("ask") is True and self.here:
            self.tell_others()
        self.refresh()

    def runtime_users(self) -> list[int]:
        return [s.user_id for s in self.runtime.seats
                if s.kind == "human" and s.user_id is not None]

    # ------------------------------------------------------------- what is shown
    def entries(self) -> list[JSON]:
        """One entry per seat held by a person: connected, since when not (``None``:
        connected), and when the takeover bot takes it (``None``: it will not)."""
        runtime, at = self.runtime, self.runtime.hub.clock.now()
        running = runtime.status == "running" and not runtime.state.is_terminal()
        if running and self.running_since is None:
            self.running_since = at
        out: list[JSON] = []
        for info in runtime.seats:
            if info.kind != "human" or info.user_id is None:
                continue
            if self.connected(info.user_id):
                out.append({"seat": info.seat, "connected": True, "since": None,
                            "takeover_at": None})
                continue
            since = self.away_since.setdefault(info.user_id, at)
            takeover_at = None
            if running and self.policy.takes_over:
                takeover_at = max(since, self.running_since or at) + self.policy.seconds
            out.append({"seat": info.seat, "connected": False, "since": since,
                        "takeover_at": takeover_at})
        return out

    def message(self) -> JSON:
        """The ``presence`` message (and the ``presence`` part of ``welcome``)."""
        return {"type": "presence", "now": self.runtime.hub.clock.now(),
                "away": self.policy.to_json(), "seats": self.entries()}

    def refresh(self) -> None:
        """Tell every viewer what changed, and set the wake-up of the next takeover (only
        the process that runs the table's timers sets one)."""
        message = self.message()
        shown = {"away": message["away"], "seats": message["seats"]}
        if shown != self.sent:
            self.sent = shown
            self.runtime.audience.tell(message)
        due = [e["takeover_at"] for e in message["seats"] if e["takeover_at"] is not None]
        when = min(due) if due and self.runtime.hub.runs(self.runtime.id) else None
        if when == self.due_at and (when is None or self.timer is not None):
            return
        self.cancel()
        if when is not None:
            self.due_at = when
            self.timer = self.runtime.hub.clock.call_at(when, self.wake)

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.due_at = None, None

    def wake(self) -> None:
        self.timer = None
        self.due_at = None
        if not self.runtime.hub.closing:
            self.runtime.hub.spawn(self.take_over_away())

    async def take_over_away(self) -> None:
        """The countdown of one or more seats ran out: the takeover bot takes each seat
        whose person is still away (the database decides, read under the table's lock)."""
        runtime = self.runtime
        async with runtime.lock:
            await runtime.sync()
            at = runtime.hub.clock.now()
            for entry in self.entries():
                when = entry["takeover_at"]
                if when is not None and when <= at and runtime.hub.runs(runtime.id):
                    await runtime.takeover.take_over(entry["seat"], "away")
            await runtime.timekeeper.tick()  # the clocks follow; schedule() refreshes presence
        runtime.driver.kick()


def welcome_part(runtime: TableRuntime) -> JSON:
    """The ``presence`` field of a ``welcome`` (the ``presence`` message less its type)."""
    message = runtime.presence.message()
    message.pop("type")
    return message
