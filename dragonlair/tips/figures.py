"""The measured figures behind the tips pages, one JSON document per game in the game's
package (``dragonlair/games/<game>/tips.json``; made by ``dragonlair tips GAME --regenerate``).

Why measured and stored: the advice on the pages is only as good as its numbers, so every
number comes from the engines and bots (the Farkle optimal policy, seeded Fist bot games
through the balance code, seeded expert Master games) and is kept with the command and
seed that made it, so anyone can make it again and see the same thing.

The document::

    {"format": "dragonlair-tips", "format_version": 1, "game": "farkle",
     "command": "dragonlair tips farkle --regenerate --games 0 --seed 0",
     "seed": 0, "games": 0, "figures": {...}}
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

FORMAT = "dragonlair-tips"
FORMAT_VERSION = 1


def tips_module(game: str) -> Any:
    """The game's tips module (its plugin's ``tips``: ``measure(games, seed)``,
    ``paragraphs(figures, lang)``, ``DEFAULT_GAMES``); ``None`` for a game without tips."""
    from dragonlair.games import plugin

    path = plugin(game).tips
    return None if path is None else importlib.import_module(path)


def games_with_tips() -> tuple[str, ...]:
    from dragonlair.games import game_ids

    return tuple(g for g in game_ids() if tips_module(g) is not None)


def regenerate(game: str, games: int | None = None, seed: int = 0) -> dict[str, Any]:
    """Measure ``game``'s figures anew (``games`` bot games, seeded from ``seed``)."""
    module = tips_module(game)
    n = int(module.DEFAULT_GAMES) if games is None else games
    if not module.DEFAULT_GAMES:  # exact figures: no games to play
        n = 0
    figures = module.measure(n, seed)
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "game": game,
            "command": f"dragonlair tips {game} --regenerate --games {n} --seed {seed}",
            "seed": seed, "games": n, "figures": figures}


def data_path(game: str) -> Path:
    """Where ``game``'s committed figures lie: ``tips.json`` beside its tips module, in the
    game's own package (``dragonlair/games/<game>/tips.json`` for a built-in game)."""
    module = tips_module(game)
    if module is None:
        raise ValueError(f"{game} has no tips")
    return Path(module.__file__).resolve().parent / "tips.json"


def save(doc: dict[str, Any], path: Path | None = None) -> Path:
    target = path or data_path(str(doc["game"]))
    target.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def load(game: str) -> dict[str, Any]:
    """The committed figures of ``game``."""
    doc: dict[str, Any] = json.loads(data_path(game).read_text(encoding="utf-8"))
    return doc
