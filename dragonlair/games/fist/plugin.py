"""Fist of Dragonstones, declared for the rest of the system (:mod:`dragonlair.core.plugin`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dragonlair.core.game import JSON, Action, Game
from dragonlair.core.players import BotFactory
from dragonlair.core.plugin import BenchReference, Determinizer, GamePlugin, InteropSpec, rules_in
from dragonlair.games.fist.actions import Kind
from dragonlair.games.fist.game import INFO

#: decisions of one auction's winner inside a power, bounded generously: a Merchant buys at
#: most the 36 stones, a Rainbow Dragon draws at most 36, a Doppelganger doubles, a Ghost
#: copies one more power (measured worst case over random games: well under 40)
POWER_DECISIONS = 200
#: auctions in a turn: the Witch, the other 7 standard characters and 2 specials (F4)
AUCTIONS_PER_TURN = 10
#: the turn limit the research adapters use when none is given (Fist has no natural bound)
DEFAULT_MAX_TURNS = 30


def make(options: Mapping[str, Any]) -> Game:
    from dragonlair.games.fist.game import FistGame

    return FistGame(options)


def bots() -> dict[str, BotFactory]:
    from dragonlair.games.fist.bots import GreedyFistBot, HeuristicFistBot, ISMCTSFistBot

    def fast(rng: random.Random) -> ISMCTSFistBot:
        return ISMCTSFistBot(rng, iterations=80)

    def strong(rng: random.Random) -> ISMCTSFistBot:
        return ISMCTSFistBot(rng, iterations=1000)

    return {"greedy": GreedyFistBot, "heuristic": HeuristicFistBot, "ismcts": ISMCTSFistBot,
            "ismcts-fast": fast, "ismcts-strong": strong}


def is_chance_action(action: Action) -> bool:
    """Cards revealed and stones drawn are chance outcomes."""
    return int(getattr(action, "kind", -1)) in (Kind.CARD, Kind.STONE)


def decision_bound(game: Game) -> int:
    """``max_turns`` x 10 auctions x (2 bids a seat, the sealed bid and a Silver tie-break,
    + 200 power decisions); Fist needs ``max_turns`` (F5.10) for a bound."""
    max_turns = game.options.get("max_turns")
    if not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"{game.info.id} has no natural length bound; give max_turns")
    return max_turns * AUCTIONS_PER_TURN * (2 * game.num_players + POWER_DECISIONS)


def encoder(game: Game) -> Any:
    from dragonlair.games.fist.encoding import FistEncoder

    return FistEncoder(game)


def determinizer() -> Determinizer:
    from dragonlair.games.fist.determinize import determinize

    return determinize


def balance(game: Game) -> Any:
    from dragonlair.games.fist.balance import observer

    return observer(game)


def analysis() -> Any:
    from dragonlair.games.fist.analysis import analyser

    return analyser()


def view_schema() -> JSON:
    import importlib

    result: JSON = importlib.import_module("dragonlair.games.fist.views").view_schema()
    return result


PLUGIN = GamePlugin(
    info=INFO,
    make=make,
    bots=bots,
    default_bot="ismcts",
    strongest_bot="ismcts-strong",
    is_chance_action=is_chance_action,
    encoder=encoder,
    determinizer=determinizer,
    balance=balance,
    interop=InteropSpec(
        parameters={"players": 4, "max_turns": DEFAULT_MAX_TURNS, "options": ""},
        decision_bound=decision_bound,
        simultaneous=True,
        references=(
            BenchReference("goofspiel", {"players": 4}, True,
                           "sealed simultaneous bids for a revealed prize, 4 players; as the "
                           "turn-based transformation, so that each seat's sealed bid is one "
                           "action, as in fist"),
            BenchReference("first_sealed_auction", {"players": 4}, False,
                           "a sealed-bid auction, 4 players: chance draws the valuations, then "
                           "one bid per seat"),
        ),
    ),
    view_schema=view_schema,
    terminal="dragonlair.games.fist.terminal.play:play_fist",
    terminal_online="dragonlair.cli.online:OnlineFist",
    tips="dragonlair.games.fist.tips",
    tutorial="dragonlair.games.fist:tutorial.json",
    terminal_rules="dragonlair.games.fist.terminal.rules:render_rules",
    option_files={"custom": "dragonlair.games.fist.custom:load_file"},
    characters_option="custom",
    workshop="dragonlair.games.fist.workshop:WORKSHOP",
    bench_options={"players": 4},
    rules=rules_in("dragonlair.games.fist"),
    analysis=analysis,
    puzzles="dragonlair.games.fist.puzzles:RULES",
    conformance="dragonlair.games.fist.conformance:CONFORMANCE",
)
