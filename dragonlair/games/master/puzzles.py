"""Dragon Master's puzzle rules (issue 27; docs/puzzles.md): which placements make puzzles.

A decision is a candidate with at most ``master_left`` cards still to place (the analyser
solves those exactly, over every opponent hand the seat's view allows, weighted by its
probability: docs/analysis.md). It is kept where the best placement is unique and beats every
other by at least ``master_margin`` of win chance (a draw counts 1/2, M4).

Themes (from the view and the answer only): ``endgame`` (at most 4 cards left),
``three_of_a_kind`` / ``four_of_a_kind`` (the answer makes three or four of its value in the
seat's own line, M4), ``block_line`` (the answer fills the last empty cell of an opponent's
line that held a pair or three of another value: that line can no longer make three or four
of it), ``pair`` (the answer makes a pair in the seat's own line).

The stored view is the bot's (no event log); its identity (the puzzle's id) also drops what
differs between games but not between positions: the order the cards were placed in
(``placements``), the turn count and the match's past rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from dragonlair.analysis.hints import Hint
from dragonlair.core.game import JSON
from dragonlair.puzzles.mine import Judged, MineSettings

#: public fields that differ between games but not between positions
_DROP_PUBLIC = ("placements", "rounds")
_DROP_TOP = ("turn", "events", "events_since", "events_total")


def _line_cards(grid: JSON, cell: str, columns: bool) -> list[str]:
    """The cards on the line through ``cell`` (a column for the columns' owner)."""
    return [card for name, card in grid.items()
            if (name[0] == cell[0] if columns else name[1:] == cell[1:]) and name != cell]


class MasterPuzzles:
    def position(self, view: JSON) -> JSON:
        return {k: v for k, v in view.items() if k not in _DROP_TOP[1:]}

    def identity(self, view: JSON) -> JSON:
        out = {k: v for k, v in view.items() if k not in _DROP_TOP}
        out["public"] = {k: v for k, v in view["public"].items() if k not in _DROP_PUBLIC}
        return out

    def left(self, view: JSON) -> int:
        return 16 - len(view["public"]["grid"])

    def candidate(self, view: JSON, legal: Sequence[str], settings: MineSettings) -> bool:
        return self.left(view) <= settings.master_left and any(
            a.startswith("place ") for a in legal)

    def judge(self, view: JSON, hint: Hint, settings: MineSettings) -> Judged | None:
        if not hint.exact or hint.unit != "win_chance":
            return None
        valued = [o for o in hint.options if o.value is not None]
        if len(valued) != len(hint.options) or len(valued) < 2:
            return None
        ranked = sorted(valued, key=lambda o: -(o.value or 0.0))
        best, second = ranked[0], ranked[1]
        assert best.value is not None and second.value is not None
        margin = best.value - second.value
        if margin < settings.master_margin or not best.best:
            return None
        return Judged("puzzle.question.place", (best.action,), margin,
                      self.themes(view, best.action),
                      {"key": "puzzle.why.master",
                       "params": {"best": best.action, "value": round(100 * best.value),
                                  "second": second.action,
                                  "next": round(100 * second.value)}})

    def themes(self, view: JSON, action: str) -> tuple[str, ...]:
        _, card, cell = action.split()
        grid: JSON = view["public"]["grid"]
        mine_columns = view["seat"] == 0
        own = _line_cards(grid, cell, mine_columns)
        other = _line_cards(grid, cell, not mine_columns)
        out: list[str] = []
        same = own.count(card) + 1
        if same == 4:
            out.append("puzzle.theme.master.four_of_a_kind")
        elif same == 3:
            out.append("puzzle.theme.master.three_of_a_kind")
        elif same == 2:
            out.append("puzzle.theme.master.pair")
        if len(other) == 3 and any(other.count(v) >= 2 and v != card for v in set(other)):
            out.append("puzzle.theme.master.block_line")
        if self.left(view) <= 4:
            out.append("puzzle.theme.master.endgame")
        return tuple(out)


RULES = MasterPuzzles()

