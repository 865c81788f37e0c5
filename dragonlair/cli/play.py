"""Interactive terminal play: humans and bots at one table, hot-seat when several humans.

:func:`run_play` picks the game's terminal play: :mod:`dragonlair.cli.fist_play`,
:mod:`dragonlair.cli.master_play` or :mod:`dragonlair.cli.farkle_play`; what they share is in
:mod:`dragonlair.cli.session`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from dragonlair.cli.i18n import tr
from dragonlair.core.errors import OptionError

#: the games that can be played at the terminal
PLAYABLE = ("fist", "master", "farkle")


def run_play(game_id: str, *, players: int | None, seats: list[str], seed: int | None,
             lang: str, options: dict[str, Any], save: Path | None, console: Console) -> int:
    """Play one game in the terminal; returns the exit code (0: finished, 1: abandoned).

    Bad table settings raise :class:`OptionError` with a one-line reason."""
    if game_id == "fist":
        from dragonlair.cli.fist_play import play_fist

        return play_fist(players=players, seats=seats, seed=seed, lang=lang, options=options,
                         save=save, console=console)
    if game_id == "master":
        from dragonlair.cli.master_play import play_master

        return play_master(players=players, seats=seats, seed=seed, lang=lang,
                           options=options, save=save, console=console)
    if game_id == "farkle":
        from dragonlair.cli.farkle_play import play_farkle

        return play_farkle(players=players, seats=seats, seed=seed, lang=lang,
                           options=options, save=save, console=console)
    raise OptionError(tr(lang, "err_game", game=game_id))
