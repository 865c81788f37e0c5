"""Post-game analysis of a record: every decision of one seat, priced by the strongest bot.

The record is replayed; before each of the seat's own moves that seat's VIEW is taken (only
what it could know then, even at a sealed simultaneous move) with its legal actions, the
game's analyser gives the hint, and the move made is looked up in it: its ``loss`` is the
value the bot's choice had over it. Decisions with a single legal action are not decisions
and are skipped. Mistakes are the decisions with the largest loss, listed per unit (losses
compare within one unit only: a Farkle game mixes soldiers and win chances). The win chance
series is each hint's ``win_chance`` in order.

The work is counted in search iterations (each game's analyser: ``effort`` times its bot's
own), never in time, so the same record and seed give the same analysis on a busy machine and
on a quiet one. ``budget`` is only a safety net in wall-clock seconds: decisions past it are
left out and ``complete`` is false. ``progress(done, total)`` is told after each decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from dragonlair.analysis.hints import Analyser, Hint, analyser_for
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import JSON
from dragonlair.core.records import Record, parse_entry, replay

FORMAT = "dragonlair-analysis"
FORMAT_VERSION = 1


class AnalysisError(DragonlairError):
    """The record cannot be analysed for that seat (a code and its fields)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: where it was (record index, turn), the move made, the
    hint and the cost of the move."""

    index: int
    turn: int
    played: str
    hint: Hint

    @property
    def loss(self) -> float | None:
        option = self.hint.option(self.played)
        return None if option is None else option.loss

    def to_json(self) -> JSON:
        return {"index": self.index, "turn": self.turn, "played": self.played,
                "best": self.hint.best.action, "loss": self.loss, **self.hint.to_json()}


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every decision analysed, and what was left out for the time budget."""

    game: str
    seat: int
    decisions: tuple[Decision, ...]
    total: int  # the seat's decisions in the record
    complete: bool
    seconds: float

    def mistakes(self, top: int | None = None) -> list[Decision]:
        """Decisions whose move lost something, the largest loss first, up to ``top`` per
        unit (losses in different units do not compare): expected soldiers, then win
        chances."""
        out: list[Decision] = []
        for unit in ("soldiers", "win_chance"):
            lost = [d for d in self.decisions
                    if d.hint.unit == unit and d.loss is not None and d.loss > 1e-9]
            lost.sort(key=lambda d: (-(d.loss or 0.0), d.index))
            out.extend(lost if top is None else lost[:top])
        return out

    def win_series(self) -> list[tuple[int, float]]:
        """(record index, win chance) per analysed decision where the game estimates it."""
        return [(d.index, d.hint.win_chance) for d in self.decisions
                if d.hint.win_chance is not None]

    def totals(self) -> dict[str, float]:
        """The summed loss per unit."""
        out: dict[str, float] = {}
        for d in self.decisions:
            if d.loss is not None:
                out[d.hint.unit] = out.get(d.hint.unit, 0.0) + d.loss
        return out

    def to_json(self, top: int | None = None) -> JSON:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "game": self.game,
                "seat": self.seat, "complete": self.complete, "decisions_total": self.total,
                "seconds": round(self.seconds, 3),
                "loss_totals": self.totals(),
                "mistakes": [d.index for d in self.mistakes(top)],
                "win_chance": [{"index": i, "value": v} for i, v in self.win_series()],
                "decisions": [d.to_json() for d in self.decisions]}


def analyse_record(record: Record, seat: int, *, budget: float | None = None, seed: int = 0,
                   effort: float = 1.0, analyser: Analyser | None = None,
                   progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse ``seat``'s decisions in ``record`` (see the module docs). Raises
    :class:`~dragonlair.core.errors.RecordError` for a record that does not replay and
    :class:`AnalysisError` for a seat not at the table, one with no decision, or a game with
    no analyser."""
    game, _ = replay(record, check_result=False)
    n = game.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise AnalysisError("cli.analyse_no_seat", seat=seat, players=n)
    if analyser is None:
        from dragonlair.analysis.hints import NoAnalyser

        try:
            analyser = analyser_for(game)
        except NoAnalyser:
            raise AnalysisError("cli.analyse_no_analyser", game=game.info.id) from None
    start = time.perf_counter()
    moves = [(who, game.parse_action(text))
             for who, text in (parse_entry(entry, n) for entry in record.actions)]
    # the seat's decisions (more than one legal action), counted first for ``progress``
    state = game.new_initial_state()
    asked: set[int] = set()
    for i, (who, action) in enumerate(moves):
        if who == seat and len(state.legal_actions(seat)) > 1:
            asked.add(i)
        state.apply(who, action)
    total = len(asked)
    if total == 0:
        raise AnalysisError("cli.analyse_no_decisions", seat=seat)
    state = game.new_initial_state()
    decisions: list[Decision] = []
    complete = True
    for i, (who, action) in enumerate(moves):
        if i in asked:
            if budget is not None and time.perf_counter() - start > budget:
                complete = False  # the safety net: the rest is left out
            else:
                legal = list(state.legal_actions(seat))
                view = state.view(seat)
                hint = analyser.hint(view, legal, random.Random(f"{seed}:{i}"), effort)
                decisions.append(Decision(i, state.turn_count(), str(action), hint))
            if progress is not None:
                progress(len(decisions), total)
        state.apply(who, action)
    return Analysis(game.info.id, seat, tuple(decisions), total, complete,
                    time.perf_counter() - start)
