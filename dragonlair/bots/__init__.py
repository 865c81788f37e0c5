"""Players that hold a seat: they receive that seat's view and its legal actions only."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence

from dragonlair.core.errors import OptionError
from dragonlair.core.game import JSON, Action
from dragonlair.core.players import Bot, BotError, BotFactory, ask_bot

__all__ = ["Bot", "BotError", "BotFactory", "RandomBot", "ask_bot", "bot_names", "make_bot"]


class RandomBot:
    """Uniform over the legal actions (every game). It reads no view, so it is given none
    (``reads_view``, :class:`~dragonlair.core.players.Bot`)."""

    reads_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


#: the bots every game has
COMMON: dict[str, BotFactory] = {"random": RandomBot}


def _factories(game_id: str) -> dict[str, BotFactory]:
    from dragonlair.games import plugin

    return {**COMMON, **plugin(game_id).bots()}


def bot_names(game_id: str) -> list[str]:
    """The bots of ``game_id``: its plugin's and the common ones."""
    return sorted(_factories(game_id))


def make_bot(game_id: str, name: str, rng: random.Random) -> Bot:
    """A bot by name (``random``, ``greedy``...) or by ``module:attr`` (a class or factory
    called with a ``random.Random``)."""
    factories = _factories(game_id)
    factory = factories.get(name)
    if factory is None and ":" in name:
        mod, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError) as exc:
            raise OptionError("core.bot.cannot_load", name=name, why=str(exc)) from None
    if factory is None:
        raise OptionError("core.bot.unknown", name=name, game=game_id,
                          known=sorted(factories))
    return factory(rng)
