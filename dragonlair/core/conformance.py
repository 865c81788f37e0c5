"""What the cross-game conformance tests (``tests/test_contract.py``) need to know of a game
beyond its plugin: its plugin names a :class:`Conformance` (``GamePlugin.conformance``, a
``module:attribute`` path), so a game shipped as its own package is tested like the built-in
ones without a line changed outside its folder (docs/new-game.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dragonlair.core.game import Action, Game, State

#: a copy of a state in which every secret the seat (``None``: a spectator) may not know is
#: changed: views of that seat must not change
SecretsChanged = Callable[[Any, "int | None", random.Random], Any]


@dataclass(frozen=True)
class Conformance:
    """A game's part of the conformance suite."""

    #: the tables every check runs on in a plain run (options; two are plenty)
    tables: tuple[Mapping[str, Any], ...]
    #: the view envelope's pydantic model (``Envelope[Public, Private, Legal]``)
    model: Any
    #: varied tables for the long runs (views, snapshots), by seed
    varied: Callable[[int], dict[str, Any]]
    #: how to change every secret a seat may not know; None: the game has no secrets
    secrets_changed: SecretsChanged | None = None
    #: snapshots: cut somewhere in ``range(*cut)`` steps, ``cuts`` times a game; then go on
    #: ``follow`` steps (None: to the end)
    cut: tuple[int, int] = (0, 100)
    cuts: int = 1
    follow: int | None = None
    #: the tables of the snapshot runs, by seed (None: ``varied``)
    snapshot_tables: Callable[[int], dict[str, Any]] | None = None
    #: the published JSON Schema file of the views, compared with the plugin's (None: the
    #: game publishes it only through its plugin)
    published_schema: Path | None = field(default=None)


def replayed(game: Game, history: Iterable[tuple[int, Action]]) -> State:
    """A new state of ``game`` with ``history`` applied."""
    state = game.new_initial_state()
    for seat, action in history:
        state.apply(seat, action)
    return state


def builtin_schema(game_id: str) -> Path:
    """Where a built-in game's view schema is published (in its package:
    ``dragonlair/games/<game>/schemas/``)."""
    from dragonlair.core.views import schema_paths

    return schema_paths(game_id)[0]
