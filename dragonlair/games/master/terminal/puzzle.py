"""A puzzle's position in the terminal (issue 27; ``dragonlair puzzles play master``): the
game's own screen drawn from the puzzle's view, the seat's view and nothing more."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSON = dict[str, Any]


def show(console: object, view: JSON, names: Sequence[str], lang: str) -> None:
    """The position as the terminal draws a player's screen (the seat's own view)."""
    from rich.console import Console

    from dragonlair.games.master.terminal.screen import render_screen

    assert isinstance(console, Console)
    render_screen(console, view, names, lang, rows=14)
