"""Help texts the commands share that come from the registry (so an installed game is named
too): the game argument and the ``--option NAME=VALUE`` flag fed by the games' option specs."""

from __future__ import annotations

from dragonlair.games import game_ids

#: the game argument's help: the games of the registry, installed ones included
GAME_HELP = "the game: " + ", ".join(game_ids())

#: the ``--option`` flag of play, simulate and tournament (any option of the game's specs)
OPTION_HELP = ("a table option of the game: NAME=VALUE (repeat the flag); the names are the "
               "game's option specs (the lobby's form), e.g. max_turns=10, target=30")
