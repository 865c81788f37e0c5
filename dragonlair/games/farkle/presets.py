"""Built-in values of Farkle's data options, offered by name in a lobby form
(:class:`~dragonlair.core.game.OptionPreset`): a form never asks a player for data.

- ``table`` (D2): ``classic``, a classic Farkle table (four of a kind 1000, three pairs and
  the straight 1500 each; the rest as D2), which D2 names as the kind of table the option
  may hold.
- ``decks`` (D8.5): ``example``, the shipped example deck file (``examples/decks.toml``).

Each label is a catalogue code of the client (``web.option.farkle.<option>.preset.<id>``).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from dragonlair.core.game import OptionPreset
from dragonlair.games.farkle.scoring import ScoringTable


def _example_decks() -> dict[str, Any]:
    import tomllib

    text = resources.files("dragonlair.games.farkle").joinpath("examples/decks.toml").read_text(
        encoding="utf-8")
    return dict(tomllib.loads(text))


CLASSIC_TABLE = ScoringTable(four=1000, three_pairs=1500, straight=1500)

TABLE_PRESETS = (
    OptionPreset("classic", "web.option.farkle.table.preset.classic", CLASSIC_TABLE.to_json()),
)
DECK_PRESETS = (
    OptionPreset("example", "web.option.farkle.decks.preset.example", _example_decks()),
)
