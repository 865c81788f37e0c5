"""Dragon Farkle, declared for the rest of the system (:mod:`dragonlair.core.plugin`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.core.game import JSON, Action, Game
from dragonlair.core.players import BotFactory
from dragonlair.core.plugin import BenchReference, Determinizer, GamePlugin, InteropSpec, rules_in
from dragonlair.games.farkle.actions import Kind
from dragonlair.games.farkle.game import INFO

#: decisions allowed per turn on average before the research adapters truncate (random play
#: measures at most about 30 in one turn)
DECISIONS_PER_TURN = 100
#: the turn limit the research adapters use when none is given (a Farkle turn may roll on)
DEFAULT_MAX_TURNS = 30


def make(options: Mapping[str, Any]) -> Game:
    from dragonlair.games.farkle.game import FarkleGame

    return FarkleGame(options)


def bots() -> dict[str, BotFactory]:
    from dragonlair.games.farkle.bots import CautiousFarkleBot, OptimalFarkleBot

    return {"cautious": CautiousFarkleBot, "optimal": OptimalFarkleBot}


def is_chance_action(action: Action) -> bool:
    """Dice rolls, item draws and companion deals (every kind from ``DICE`` on)."""
    return int(getattr(action, "kind", -1)) >= Kind.DICE


def decision_bound(game: Game) -> int:
    """``max_turns`` x 100: Farkle needs ``max_turns`` for a bound."""
    max_turns = game.options.get("max_turns")
    if not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"{game.info.id} has no natural length bound; give max_turns")
    return max_turns * DECISIONS_PER_TURN


def encoder(game: Game) -> Any:
    from dragonlair.games.farkle.encoding import FarkleEncoder

    return FarkleEncoder(game)


def determinizer() -> Determinizer:
    from dragonlair.games.farkle.determinize import determinize

    return determinize


def balance(game: Game) -> Any:
    from dragonlair.games.farkle.balance import observer

    return observer(game)


def analysis() -> Any:
    from dragonlair.games.farkle.analysis import analyser

    return analyser()


def view_schema() -> JSON:
    import importlib

    result: JSON = importlib.import_module("dragonlair.games.farkle.views").view_schema()
    return result


PLUGIN = GamePlugin(
    info=INFO,
    make=make,
    bots=bots,
    default_bot="optimal",
    strongest_bot="optimal",
    is_chance_action=is_chance_action,
    encoder=encoder,
    determinizer=determinizer,
    balance=balance,
    interop=InteropSpec(
        parameters={"players": 2, "max_turns": DEFAULT_MAX_TURNS, "dragon": 3, "options": ""},
        decision_bound=decision_bound,
        references=(
            BenchReference("pig", {"players": 2}, False,
                           "push-your-luck dice, 2 players: roll again or bank the turn total"),
        ),
    ),
    view_schema=view_schema,
    terminal="dragonlair.games.farkle.terminal.play:play_farkle",
    terminal_online="dragonlair.cli.online:OnlineFarkle",
    tips="dragonlair.games.farkle.tips",
    tutorial="dragonlair.games.farkle:tutorial.json",
    terminal_rules="dragonlair.games.farkle.terminal.screen:render_rules",
    option_files={"decks": "dragonlair.games.farkle.cards:load_deck_file"},
    workshop_options={"deck": "decks", "scoring": "table"},
    option_uploads={"decks": "dragonlair.games.farkle.optionfiles:check_decks",
                    "table": "dragonlair.games.farkle.optionfiles:check_table"},
    bench_options={"players": 2},
    rules=rules_in("dragonlair.games.farkle"),
    analysis=analysis,
    puzzles="dragonlair.games.farkle.puzzles:RULES",
    terminal_puzzle="dragonlair.games.farkle.terminal.puzzle:show",
    conformance="dragonlair.games.farkle.conformance:CONFORMANCE",
    warm_up="dragonlair.games.farkle.bots:warm_up",
)
