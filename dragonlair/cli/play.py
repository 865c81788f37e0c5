"""Interactive terminal play: humans and bots at one table, hot-seat when several humans.

:func:`run_play` calls the game's terminal play, named by its plugin
(:attr:`dragonlair.core.plugin.GamePlugin.terminal`, in the game's folder, e.g.
:mod:`dragonlair.games.fist.terminal.play`), or the generic session
(:mod:`dragonlair.cli.generic_play`) for a game that names none;
what the games' screens share is in :mod:`dragonlair.cli.session`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from dragonlair.core.errors import OptionError
from dragonlair.core.plugin import load_path


def playable() -> list[str]:
    """The games that can be played at the terminal: every game (one whose plugin names no
    terminal screen is played from its views, :mod:`dragonlair.cli.generic_play`)."""
    from dragonlair.games import game_ids

    return game_ids()


def run_play(game_id: str, *, players: int | None, seats: list[str], seed: int | None,
             lang: str, options: dict[str, Any], save: Path | None, console: Console,
             name: str | None = None) -> int:
    """Play one game in the terminal; returns the exit code (0: finished, 1: abandoned).

    Bad table settings raise :class:`OptionError` with a one-line reason."""
    from dragonlair.games import game_ids, plugin

    if game_id not in game_ids():
        raise OptionError("cli.err_game", game=game_id)
    entry = plugin(game_id).terminal
    if entry is None:  # a game without its own screens: drawn from its views
        from dragonlair.cli.generic_play import play_generic

        return play_generic(game_id, players=players, seats=seats, seed=seed, lang=lang,
                            options=options, save=save, console=console, name=name)
    play = load_path(entry)
    code: int = play(players=players, seats=seats, seed=seed, lang=lang, options=options,
                     save=save, console=console, name=name)
    return code
