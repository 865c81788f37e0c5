"""Dragon's Hoard in Dragonlair's conformance suite (``tests/test_contract.py`` finds it
through the plugin once this package is installed)."""

from __future__ import annotations

from typing import Any

from dragonlair.core.conformance import Conformance
from dragonlair_hoard.views import HoardView


def varied(seed: int) -> dict[str, Any]:
    """2 to 4 players, targets from 20 to 100, round limits from 2 to 30."""
    return {"players": 2 + seed % 3, "target": (20, 50, 100)[seed % 3 if seed % 5 else 0],
            "max_turns": (2, 10, 30)[seed // 3 % 3]}


CONFORMANCE = Conformance(
    tables=({"players": 2}, {"players": 4, "target": 30}), model=HoardView, varied=varied,
    secrets_changed=None, cut=(0, 60), cuts=2, follow=None)
