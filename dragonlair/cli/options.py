"""Help texts of the game arguments, which come from the registry (so an installed game is
named too): the games a command serves, worded by the catalogue in the language of the help
(the other help texts: :mod:`dragonlair.cli.help_lang`)."""

from __future__ import annotations

from collections import UserString
from collections.abc import Callable
from typing import cast

from dragonlair.games import game_ids


class LazyText(UserString):
    """A help text worked out whenever it is read: the games that have a capability are
    known only once their plugins are loaded, which the help screen alone should pay for,
    not every command (a typer argument's help is read only when help is shown; options'
    helps are read as the command line is built, so they take plain text)."""

    def __init__(self, make: Callable[[], str] | str) -> None:
        self._make = make

    @property
    def data(self) -> str:
        made = self._make
        return made if isinstance(made, str) else made()

    @data.setter
    def data(self, value: str) -> None:
        self._make = value


def games_help(key: str, games: Callable[[], list[str] | tuple[str, ...]]) -> str:
    """The help of a command's game argument: the catalogue's ``cli.<key>`` (a template with
    the field ``games``) in the language of the help (:func:`~dragonlair.cli.help_lang.
    current_lang`), filled with the registry's games the command serves (``games()``, read
    when help is shown), e.g. ``the game to learn: farkle, fist, master``."""
    from dragonlair.core.i18n import render

    def made() -> str:
        from dragonlair.cli.help_lang import current_lang

        return render(f"cli.{key}", {"games": ", ".join(games())}, current_lang())

    return cast(str, LazyText(made))


def tutorial_games() -> list[str]:
    """The registry's games with a tutorial (their plugin's ``tutorial``)."""
    from dragonlair.tutorials.loader import available

    return available()


def tips_games() -> list[str]:
    """The registry's games with a tips page (their plugin's ``tips``), without importing
    the pages."""
    from dragonlair.games import plugin

    return [g for g in game_ids() if plugin(g).tips is not None]


def balance_games() -> list[str]:
    """The registry's games with a balance report (their plugin's ``balance``)."""
    from dragonlair.balance import balance_games as games

    return list(games())


#: the game argument's help: the games of the registry, installed ones included
GAME_HELP = games_help("cmdhelp__game", game_ids)
