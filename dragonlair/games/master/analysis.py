"""Hints for Dragon Master: the ``expert`` bot's evaluation of each legal placement (M6).

From the seat's view only (its hand and the cards it has not seen). With at most the
expert's ``exact`` cards left to place, every placement is solved exactly: every possible
opponent hand, weighted by its probability, minimax to the end with :func:`.bots.solve`
(``exact``; unlike the bot, no placement is cut short once it cannot be the best, so every
value is the true one). With more cards left, the bot's sampled search gives the values
(seeded; ``effort`` scales its samples). Values are the expected result for the seat: a
win counts 1, a draw 1/2 (M4); the best option is the expert's own choice, decided by the
bot's code (its tie-breaks included).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dragonlair.analysis.hints import Hint, ranked
from dragonlair.core.game import JSON, Action
from dragonlair.games.master.actions import MasterAction
from dragonlair.games.master.bots import (
    Board,
    ExpertMasterBot,
    _net_gain,
    _place_moves,
    opponent_hands,
    position,
    solve,
)


def exact_values(board: Board, seat: int, mine: list[int], unseen: list[int], opp_size: int,
                 moves: Sequence[MasterAction], table: list[int]) -> list[float]:
    """Every move's expected result (win 1, draw 1/2) over all opponent hands, exactly."""
    totals = [0.0] * len(moves)
    tt: dict[int, tuple[int, int]] = {}
    for opp, w in opponent_hands(unseen, opp_size):
        hands = [mine[:], opp[:]] if seat == 0 else [opp[:], mine[:]]
        for i, a in enumerate(moves):
            b = board.copy()
            hands[seat][a.value] -= 1
            b.place(a.value, a.cell)
            val = solve(b, hands, 1 - seat, table, tt)
            hands[seat][a.value] += 1
            totals[i] += w * (val if seat == 0 else 2 - val) / 2
    return totals


class MasterAnalyser:
    """The expert's values of each placement (see the module docs)."""

    def hint(self, view: JSON, legal: Sequence[Action], rng: random.Random,
             effort: float = 1.0) -> Hint:
        moves = _place_moves(legal)
        probe = ExpertMasterBot(rng)
        bot = ExpertMasterBot(rng, samples=max(1, round(probe.samples * effort)))
        if len(moves) < 2:
            return ranked("win_chance", True, legal, {}, bot.choose(view, legal))
        seat, table, board, mine, unseen, opp_size = position(view)
        gains = [_net_gain(table, board.cols, board.rows, a.value, a.cell, seat) for a in moves]
        exact = 16 - board.placed <= bot.exact
        if exact:
            values = exact_values(board, seat, mine, unseen, opp_size, moves, table)
            choice_totals = bot._exact(board, seat, mine, unseen, opp_size, moves, table)
        else:
            sums = bot._sampled(board, seat, mine, unseen, opp_size, moves, table)
            values = [s / (2 * bot.samples) for s in sums]
            choice_totals = sums
        # the bot's own choice, by its own rule (ExpertMasterBot.choose)
        best = max(range(len(moves)), key=lambda i: (choice_totals[i], gains[i], -i))
        by_text: dict[str, float | None] = {str(a): v for a, v in zip(moves, values, strict=True)}
        return ranked("win_chance", exact, legal, by_text, moves[best],
                      win_chance=values[best])


def analyser() -> MasterAnalyser:
    return MasterAnalyser()
