"""Dragon's Hoard, declared to Dragonlair (``dragonlair.core.plugin``).

Found through the entry point in ``pyproject.toml``::

    [project.entry-points."dragonlair.games"]
    hoard = "dragonlair_hoard.plugin:PLUGIN"

It names no terminal or browser screen of its own: Dragonlair draws it from its views (the
generic terminal session and the browser's generic screen). Its messages are in
``locale/<lang>/LC_MESSAGES/hoard.po`` next to this module, found through the plugin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dragonlair.core.game import JSON, Action, Game
from dragonlair.core.players import BotFactory
from dragonlair.core.plugin import Determinizer, GamePlugin, InteropSpec, rules_in
from dragonlair_hoard.game import INFO, HoardAction


def make(options: Mapping[str, Any]) -> Game:
    from dragonlair_hoard.game import HoardGame

    return HoardGame(options)


def bots() -> dict[str, BotFactory]:
    from dragonlair_hoard.bots import CautiousBot

    return {"cautious": CautiousBot}


def is_chance_action(action: Action) -> bool:
    """The die's faces are chance outcomes (indices 2-7, the last block)."""
    return isinstance(action, HoardAction) and action.index >= 2


def decision_bound(game: Game) -> int:
    """Every roll of a turn adds at least 2 gold below the target, so a turn has at most
    ``target / 2 + 1`` decisions, and there are ``max_turns`` rounds of them."""
    target, rounds = game.options["target"], game.options["max_turns"]
    return int(rounds * game.num_players * (target // 2 + 2))


def encoder(game: Game) -> Any:
    from dragonlair_hoard.encoding import HoardEncoder

    return HoardEncoder(game)


def determinizer() -> Determinizer:
    from dragonlair_hoard.determinize import determinize

    return determinize


def view_schema() -> JSON:
    from dragonlair_hoard.views import view_schema as schema

    return schema()


PLUGIN = GamePlugin(
    info=INFO,
    make=make,
    bots=bots,
    default_bot="cautious",
    strongest_bot="cautious",
    is_chance_action=is_chance_action,
    encoder=encoder,
    determinizer=determinizer,
    interop=InteropSpec(
        parameters={"players": 2, "target": 50, "max_turns": 30, "options": ""},
        decision_bound=decision_bound,
    ),
    view_schema=view_schema,
    rules=rules_in("dragonlair_hoard"),
    bench_options={"players": 2},
    conformance="dragonlair_hoard.conformance:CONFORMANCE",
)
