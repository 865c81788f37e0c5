"""A puzzle's position in the terminal (issue 27; ``dragonlair puzzles play farkle``): the
game's own screen drawn from the puzzle's view, the seat's view and nothing more."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSON = dict[str, Any]


def show(console: object, view: JSON, names: Sequence[str], lang: str) -> None:
    """The position as the terminal draws a player's screen (the seat's own view; no log)."""
    from rich.console import Console

    from dragonlair.games import make_game
    from dragonlair.games.farkle.game import FarkleGame
    from dragonlair.games.farkle.terminal.screen import render_screen

    assert isinstance(console, Console)
    game = make_game("farkle", {"players": view["public"]["players"]})
    assert isinstance(game, FarkleGame)
    render_screen(console, game, view, names, lang, [], rows=14)
