"""Fist of Dragonstones' puzzle rules (issue 27; docs/puzzles.md): none are published.

Fist's only analyser is a sampled search (ISMCTS from determinized views, docs/analysis.md):
its values are estimates whose order changes from seed to seed where options are close, and
a stable answer would need the search repeated over many seeds at several times its budget
for every decision of every game, and even then agreement between seeds shows only that the
search is consistent, not that its model of the other seats' hidden items is right.
The issue allows leaving Fist out rather than publishing a puzzle whose answer is doubtful,
so every decision is declined before the analyser is asked: mining a Fist record costs only
its replay and yields nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from dragonlair.analysis.hints import Hint
from dragonlair.core.game import JSON
from dragonlair.puzzles.mine import Judged, MineSettings


class FistPuzzles:
    def position(self, view: JSON) -> JSON:
        return {k: v for k, v in view.items() if k not in ("events", "events_since",
                                                              "events_total")}

    def identity(self, view: JSON) -> JSON:
        return view

    def candidate(self, view: JSON, legal: Sequence[str], settings: MineSettings) -> bool:
        return False

    def judge(self, view: JSON, hint: Hint, settings: MineSettings) -> Judged | None:
        return None


RULES = FistPuzzles()

