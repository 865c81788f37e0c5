"""Players that hold a seat: they receive that seat's view and its legal actions only.

This is the one gate between a state and whoever plays a seat (a bot here, a person
through the terminal or the server): :func:`ask_bot` hands over the view and the legal
actions, never the state, and checks the answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import JSON, Action, ActionT, State
from dragonlair.core.streams import SeatViews


class Bot(Protocol):
    """A bot: given its seat's view and legal actions, returns one of the legal actions.

    A bot that decides from the legal actions alone (the uniform random bot) may say so with a
    class attribute ``reads_view = False``: :func:`ask_bot` then hands it an empty view and
    builds none (a simulation of random bots pays for the engine, not for views nobody
    reads).

    A bot that reads the position but not the event log (``events``: every bot of the
    built-in games, which keep what they need of the record from ``public``) may say so with
    ``reads_events = False``: it is then handed ``view(seat, since=event_count)``, the same
    view without the events, whose cost does not grow with the game (issue 24; a full view
    or a stream copies a log of thousands of events per decision late in a long game)."""

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[random.Random], Bot]


class BotError(DragonlairError):
    """A bot answered with something that is not one of its legal actions."""


def bot_view(reads_view: bool, reads_events: bool, state: State, seat: int,
             views: SeatViews | None = None) -> JSON:
    """The view a bot with these declarations (:class:`Bot`) is handed for ``seat``: none
    (``{}``: it reads none; still only what the seat may know), the position without the
    event log, or the whole view (from ``views``, kept current, where the driver has one).
    :func:`ask_bot` and the server's bot workers (``dragonlair.server.botpool``) use it."""
    if not reads_view:
        return {}
    if not reads_events:
        return state.view(seat, state.event_count)
    if views is None:
        return state.view(seat)
    return views.view(state, seat)


def ask_bot(bot: Bot, state: State[ActionT], seat: int,
            views: SeatViews | None = None) -> ActionT:
    """The one way a driver asks a bot: it is handed ``seat``'s view (fresh, plain JSON data
    built by the engine, holding no reference into the state) and the legal actions, never
    the state itself; its answer must be one of those actions (F8, M6, D9), and the one of
    them with its index is returned (the state's own action value).

    A driver that follows the game passes its :class:`~dragonlair.core.streams.SeatViews`:
    the bot gets the same view, built from the events since its last one. A bot that reads
    no view or no event log gets less (``reads_view``, ``reads_events``: :class:`Bot`)."""
    legal = tuple(state.legal_actions(seat))
    view = bot_view(getattr(bot, "reads_view", True), getattr(bot, "reads_events", True),
                    state, seat, views)
    action = bot.choose(view, legal)
    index = getattr(action, "index", None)
    for a in legal:
        if a.index == index:
            return a
    raise BotError("core.bot.illegal_choice", seat=seat, bot=type(bot).__name__,
                   action=str(action), n=len(legal))
