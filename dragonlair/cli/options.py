"""Help texts the commands share that come from the registry (so an installed game is named
too): the game argument, the games a command serves, and the ``--option NAME=VALUE`` flag
fed by the games' option specs."""

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


def games_help(head: str, games: Callable[[], list[str] | tuple[str, ...]]) -> str:
    """``head`` and the registry's games that a command serves (``games()``, read when help is
    shown), e.g. ``the game to learn: farkle, fist, master``."""
    return cast(str, LazyText(lambda: head + ", ".join(games())))


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
GAME_HELP = "the game: " + ", ".join(game_ids())

#: the ``--option`` flag of play, simulate and tournament (any option of the game's specs)
OPTION_HELP = ("a table option of the game: NAME=VALUE (repeat the flag); the names are the "
               "game's option specs (the lobby's form), e.g. max_turns=10, target=30")

#: the ``--players`` flag of the commands that make a table of one game
PLAYERS_HELP = "number of players (default: the game's; a number outside its range is refused)"
