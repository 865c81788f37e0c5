"""Events: what an applied action did, as data.

Each applied action yields events (a code, its params, and who may see it: everyone, or one
seat). The terminal log, the server's messages and replays are all fed by them, and each
reader renders them in its language with :func:`dragonlair.core.i18n.render`.

Visibility is the engine's decision (F8, M6, D9): a secret goes in an event ``to`` its owner
only, with a public twin that says what the others may know ("p2 drew an item").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: ``Event.to`` of an event every viewer (spectators too) may see.
PUBLIC: int | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: ``code`` (e.g. ``fist.auction.won``), JSON-ready ``params``,
    and ``to``: the one seat that may see it, or ``None`` for everyone."""

    code: str
    params: Mapping[str, Any]
    to: int | None = PUBLIC

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.to is None or self.to == seat

    def to_json(self, seq: int) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": seq, "code": self.code, "params": dict(self.params)}
        if self.to is not None:
            out["to"] = self.to
        return out


def visible_events(events: Sequence[Event], seat: int | None,
                   since: int = 0) -> Iterator[tuple[int, Event]]:
    """``(seq, event)`` of the events ``seat`` may see, from sequence number ``since`` on
    (the sequence number is the event's place among all events, so a client that holds
    everything up to N asks for ``since=N``)."""
    for seq in range(max(since, 0), len(events)):
        event = events[seq]
        if event.to is None or event.to == seat:
            yield seq, event


def events_json(events: Sequence[Event], seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    return [event.to_json(seq) for seq, event in visible_events(events, seat, since)]


#: The events of a game as a persistent chain, newest first: ``(event, older)`` or ``None``.
#: States share it on ``clone()`` (O(1)); appending builds a new head.
EventChain = tuple[Event, "EventChain"] | None


def chain_to_list(chain: EventChain, count: int, since: int = 0) -> list[Event]:
    """The events with ``seq >= since`` of a chain holding ``count`` events, oldest first."""
    out: list[Event] = []
    for _ in range(max(count - max(since, 0), 0)):
        assert chain is not None
        event, chain = chain
        out.append(event)
    out.reverse()
    return out


def chain_from_list(events: Sequence[Event]) -> EventChain:
    chain: EventChain = None
    for event in events:
        chain = (event, chain)
    return chain
