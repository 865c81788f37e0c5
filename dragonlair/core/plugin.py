"""One plugin per game: everything the rest of the system needs to know about a game.

Each game package exports one :class:`GamePlugin` (``dragonlair/games/<id>/plugin.py``,
``PLUGIN``). The registry (:mod:`dragonlair.games`) finds them; the CLI, the research
adapters, tournaments, balance reports, the server and its lobby form read them. Nothing
outside a game's own package names a game id in a branch, and ``core`` imports no game and
no bot: adding a game is adding a package and one line to the registry (or an entry point in
the ``dragonlair.games`` group for a game shipped as its own distribution).

Heavy parts (bots, numpy encoders, determinizers, terminal screens) are given as factories
so that loading a plugin imports only the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dragonlair.core.game import JSON, Action, Game, GameInfo, State

if TYPE_CHECKING:
    from dragonlair.core.players import BotFactory

#: A determinizer: from ``(game, view, seat, rng)``, one complete history (``(seat, action)``
#: pairs from the initial state, chance included) whose position that seat cannot tell from
#: the real one, or ``None`` when this attempt did not fit (the caller draws again).
Determinizer = Callable[[Game, JSON, int, random.Random], "list[tuple[int, Action]] | None"]


class BalanceObserver:
    """Watches bot games for the balance report: which seats got which card.

    ``cards`` lists what is counted (:class:`dragonlair.balance.CardStats`); after a game,
    :meth:`got` gives, per card, the set of seats that got it."""

    cards: list[Any]

    def start(self, state: State) -> None:
        raise NotImplementedError

    def __call__(self, state: State, seat: int, action: Action) -> None:
        raise NotImplementedError

    def got(self, state: State) -> list[set[int]]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class InteropSpec:
    """How the research adapters present the game (OpenSpiel and PettingZoo).

    ``parameters``: OpenSpiel's parameter specification with its defaults; ``to_options``
    turns given OpenSpiel parameters into engine options; ``simultaneous``: the game has
    sealed simultaneous moves; ``decisions_per_game``: a bound on decisions for an engine
    game (OpenSpiel's ``max_game_length``)."""

    parameters: Mapping[str, Any]
    to_options: Callable[[Mapping[str, Any]], dict[str, Any]]
    simultaneous: bool
    decisions_per_game: Callable[[Game], int]


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """A game, declared whole (see the module docs)."""

    #: id, names, players, version and option specs (types, ranges, choices)
    info: GameInfo
    #: a configured game from options (checked; bad ones raise OptionError)
    make: Callable[[Mapping[str, Any]], Game]
    #: the game's own bots by name (the registry adds the game-independent ones)
    bots: Callable[[], Mapping[str, BotFactory]]
    #: the bot that fills a seat when none is named, and the strongest one
    default_bot: str
    strongest_bot: str
    #: whether an action is a chance outcome (they lie in one block at the end of the indices)
    is_chance_action: Callable[[Action], bool]
    #: the observation encoder for learning code (imports numpy): ``encoder(game)``
    encoder: Callable[[Game], Any] | None = None
    #: determinization for search bots (one per game)
    determinizer: Callable[[], Determinizer] | None = None
    #: the balance report's observer, or None when the game has nothing to report on
    balance: Callable[[Game], BalanceObserver] | None = None
    #: how the research adapters present the game
    interop: InteropSpec | None = None
    #: the JSON Schema of this game's views (:mod:`dragonlair.core.views`)
    view_schema: Callable[[], JSON] | None = None
    #: terminal play: a ``module:function`` path, called as the CLI's ``play`` does
    terminal: str | None = None
    #: the benchmark's table (options) for playout rates
    bench_options: Mapping[str, Any] = field(default_factory=dict)
    #: the rules in brief and the card list, as Markdown per language (``rules/*.md``)
    rules: Callable[[str], str] | None = None


def bot_names(plugin: GamePlugin, common: Sequence[str]) -> list[str]:
    return sorted({*common, *plugin.bots()})
