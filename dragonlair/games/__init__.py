"""The games, by id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dragonlair.core.errors import OptionError
from dragonlair.core.game import Game


def _fist(options: Mapping[str, Any]) -> Game:
    from dragonlair.games.fist.game import FistGame

    return FistGame(options)


def _master(options: Mapping[str, Any]) -> Game:
    from dragonlair.games.master.game import MasterGame

    return MasterGame(options)


def _farkle(options: Mapping[str, Any]) -> Game:
    from dragonlair.games.farkle.game import FarkleGame

    return FarkleGame(options)


GAME_FACTORIES: dict[str, Callable[[Mapping[str, Any]], Game]] = {
    "fist": _fist,
    "master": _master,
    "farkle": _farkle,
}


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    """A configured game by id (``"fist"``, ...), options checked."""
    try:
        factory = GAME_FACTORIES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAME_FACTORIES))
        raise OptionError(f"unknown game {game_id!r} (known: {known})") from None
    return factory(dict(options or {}))
