"""Players that hold a seat: they receive that seat's view and its legal actions only."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.game import JSON, Action, State


class Bot(Protocol):
    """A bot: given its seat's view and legal actions, returns one of the legal actions."""

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[random.Random], Bot]


class BotError(DragonlairError):
    """A bot answered with something that is not one of its legal actions."""


def ask_bot(bot: Bot, state: State, seat: int) -> Action:
    """The one way a driver asks a bot: it is handed ``seat``'s view (fresh, plain JSON data
    built by the engine, holding no reference into the state) and the legal actions, never
    the state itself; its answer must be one of those actions (F8, M6, D9)."""
    legal = tuple(state.legal_actions(seat))
    action = bot.choose(state.view(seat), legal)
    index = getattr(action, "index", None)
    for a in legal:
        if a.index == index:
            return a
    raise BotError(f"the bot in seat p{seat} ({type(bot).__name__}) chose {action!r}, "
                   f"which is not one of its {len(legal)} legal actions")


class RandomBot:
    """Uniform over the legal actions (every game)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def _registry() -> dict[str, dict[str, BotFactory]]:
    from dragonlair.games.farkle.bots import CautiousFarkleBot, OptimalFarkleBot
    from dragonlair.games.fist.bots import GreedyFistBot, HeuristicFistBot, ISMCTSFistBot
    from dragonlair.games.master.bots import ExpertMasterBot, GreedyMasterBot

    return {
        "*": {"random": RandomBot},
        "fist": {"greedy": GreedyFistBot, "heuristic": HeuristicFistBot,
                 "ismcts": ISMCTSFistBot,
                 "ismcts-fast": lambda rng: ISMCTSFistBot(rng, iterations=80),
                 "ismcts-strong": lambda rng: ISMCTSFistBot(rng, iterations=1000)},
        "farkle": {"cautious": CautiousFarkleBot, "optimal": OptimalFarkleBot},
        "master": {"greedy": GreedyMasterBot, "expert": ExpertMasterBot},
    }


def bot_names(game_id: str) -> list[str]:
    reg = _registry()
    return sorted({*reg["*"], *reg.get(game_id, {})})


def make_bot(game_id: str, name: str, rng: random.Random) -> Bot:
    """A bot by name (``random``, ``greedy``...) or by ``module:attr`` (a class or factory
    called with a ``random.Random``)."""
    reg = _registry()
    factory = reg.get(game_id, {}).get(name) or reg["*"].get(name)
    if factory is None and ":" in name:
        mod, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError) as exc:
            raise OptionError(f"cannot load bot {name!r}: {exc}") from None
    if factory is None:
        raise OptionError(f"unknown bot {name!r} for {game_id} "
                          f"(known: {', '.join(bot_names(game_id))}, or module:attr)")
    return factory(rng)
