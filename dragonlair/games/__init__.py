"""The games, by id: each game package exports one plugin (:mod:`dragonlair.core.plugin`).

Built-in games are found by module path and imported on first use; a game shipped as its own
distribution declares an entry point in the group ``dragonlair.games`` whose name is the game
id and whose object is its :class:`~dragonlair.core.plugin.GamePlugin` (or a module with
``PLUGIN``)::

    [project.entry-points."dragonlair.games"]
    mygame = "mygame.plugin:PLUGIN"
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from dragonlair.core.errors import OptionError
from dragonlair.core.game import Game
from dragonlair.core.plugin import GamePlugin

#: the built-in games: id -> the module that exports ``PLUGIN``
BUILTIN: dict[str, str] = {
    "fist": "dragonlair.games.fist.plugin",
    "master": "dragonlair.games.master.plugin",
    "farkle": "dragonlair.games.farkle.plugin",
}
#: the entry-point group of third-party games
ENTRY_POINT_GROUP = "dragonlair.games"


@cache
def _third_party() -> dict[str, Any]:
    """Entry points of games shipped as their own distributions (built-in ids win)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)
            if ep.name not in BUILTIN}


def game_ids() -> list[str]:
    """Every game's id, sorted."""
    return sorted({*BUILTIN, *_third_party()})


@cache
def plugin(game_id: str) -> GamePlugin:
    """The plugin of ``game_id``; :class:`OptionError` (``core.game.unknown``) if none."""
    if game_id in BUILTIN:
        loaded: Any = importlib.import_module(BUILTIN[game_id])
    elif isinstance(game_id, str) and game_id in _third_party():
        loaded = _third_party()[game_id].load()
    else:
        raise OptionError("core.game.unknown", game=str(game_id), known=game_ids())
    if isinstance(loaded, ModuleType):
        loaded = loaded.PLUGIN
    if not isinstance(loaded, GamePlugin) or loaded.info.id != game_id:
        raise TypeError(f"the plugin of {game_id!r} is not a GamePlugin for that id")
    return loaded


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    """A configured game by id (``"fist"``, ...), options checked."""
    return plugin(game_id).make(dict(options or {}))


class _Factories(Mapping[str, Callable[[Mapping[str, Any]], Game]]):
    """``GAME_FACTORIES[game_id](options)``: the registry as a read-only mapping (kept for
    callers written before plugins; prefer :func:`plugin` and :func:`make_game`)."""

    def __getitem__(self, game_id: str) -> Callable[[Mapping[str, Any]], Game]:
        if game_id not in game_ids():
            raise KeyError(game_id)
        return plugin(game_id).make

    def __iter__(self) -> Iterator[str]:
        return iter(game_ids())

    def __len__(self) -> int:
        return len(game_ids())


GAME_FACTORIES: Mapping[str, Callable[[Mapping[str, Any]], Game]] = _Factories()


def _plugin_module(game_id: str) -> str:
    """The module that declares ``game_id``'s plugin (built-in, or its entry point's)."""
    if game_id in BUILTIN:
        return BUILTIN[game_id]
    module: str = _third_party()[game_id].module
    return module


@cache
def locale_dir(game_id: str) -> Path | None:
    """The folder of ``game_id``'s own message catalogues (``<lang>/LC_MESSAGES/*.po``):
    the plugin's ``locale_dir`` (relative to the plugin module's folder), by default the
    ``locale`` folder next to that module; None where there is none."""
    spec = plugin(game_id)
    file = getattr(importlib.import_module(_plugin_module(game_id)), "__file__", None)
    base = Path(file).resolve().parent if file else None
    named = Path(spec.locale_dir) if spec.locale_dir is not None else Path("locale")
    folder = named if named.is_absolute() or base is None else base / named
    return folder if folder.is_dir() else None


def locale_dirs() -> dict[str, Path]:
    """Every game's catalogue folder, by game id (games without one left out)."""
    found = {game_id: locale_dir(game_id) for game_id in game_ids()}
    return {game_id: folder for game_id, folder in found.items() if folder is not None}
