"""Views as streams: each seat's view of one game, kept current from the events since.

A full view holds every event its viewer may see, so building it on every decision costs
the whole game so far (a Farkle view of 1,300 events: milliseconds). A consumer that follows
one game (a driver asking bots, an environment, the terminal, the server's bot seats) keeps
a :class:`SeatViews` instead: the first view of a seat is built in full, each later one asks
the engine for ``view(seat, since=n)`` (the position now and only the new events) and joins
those events to the ones it kept. The result equals ``state.view(seat)`` key for key
(``tests/test_view_streams.py`` checks it at every step of random games of every game).

The views handed out are plain JSON data, as ``state.view`` gives: they hold no reference
into the state. Consecutive views of a seat share the event dictionaries of the events they
have in common (each view has a list of its own), so treat a view as read-only.

A :class:`SeatViews` follows one game forward: a state whose event count went back (another
game, an earlier position) gets full views again; a consumer that moves to another game of
the same length must call :meth:`SeatViews.reset` (or make a new one).
"""

from __future__ import annotations

from dragonlair.core.game import JSON, State


class SeatViews:
    """The views of one game's seats (``None``: a spectator), kept current (see the module
    docs)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        #: per viewer: the events of the last view handed out (a list of this object's own,
        #: never handed out) and its ``events_total``
        self._kept: dict[int | None, tuple[list[JSON], int]] = {}

    def reset(self) -> None:
        """Forget every view: the next one of each seat is built in full."""
        self._kept.clear()

    def view(self, state: State, seat: int | None) -> JSON:
        """``state.view(seat)``, built from the events since this seat's last view."""
        kept = self._kept.get(seat)
        if kept is None or kept[1] > state.event_count:
            view = state.view(seat)
            events = list(view["events"])
        else:
            view = state.view(seat, kept[1])
            events = kept[0]
            events += view["events"]
            view["events"] = events.copy()
            view["events_since"] = 0
        self._kept[seat] = (events, view["events_total"])
        return view
