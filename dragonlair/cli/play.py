"""Interactive terminal play: humans and bots at one table, hot-seat when several humans.

:func:`run_play` calls the game's terminal play, named by its plugin
(:attr:`dragonlair.core.plugin.GamePlugin.terminal`, e.g. :mod:`dragonlair.cli.fist_play`);
what the games' screens share is in :mod:`dragonlair.cli.session`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from dragonlair.core.errors import OptionError
from dragonlair.core.plugin import load_path


def playable() -> list[str]:
    """The games that can be played at the terminal: those whose plugin names a terminal."""
    from dragonlair.games import game_ids, plugin

    return [g for g in game_ids() if plugin(g).terminal]


def run_play(game_id: str, *, players: int | None, seats: list[str], seed: int | None,
             lang: str, options: dict[str, Any], save: Path | None, console: Console,
             name: str | None = None) -> int:
    """Play one game in the terminal; returns the exit code (0: finished, 1: abandoned).

    Bad table settings raise :class:`OptionError` with a one-line reason."""
    from dragonlair.games import game_ids, plugin

    entry = plugin(game_id).terminal if game_id in game_ids() else None
    if entry is None:
        raise OptionError("cli.err_game", game=game_id)
    play = load_path(entry)
    code: int = play(players=players, seats=seats, seed=seed, lang=lang, options=options,
                     save=save, console=console, name=name)
    return code
