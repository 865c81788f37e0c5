"""Hints for Fist of Dragonstones: the ``ismcts`` bot's root estimates (F8).

The search starts from the seat's view (the position its perfect memory of the public record
rebuilds, :mod:`.memory`; sealed bids not yet revealed are searched, never read) and tries
the candidate bids the heuristic proposes, or every legal option of a power's decision. Each
candidate's value is the mean estimated win chance of the iterations that tried it, with
how often it was tried (``visits``); options the search did not consider get no value. The
best option is the search's choice (the most visited), so a hint names what the bot plays
with that seed. Sampled: ``exact`` is false; ``effort`` scales the iterations (1.0: the
bot's 250).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dragonlair.analysis.hints import Hint, ranked
from dragonlair.core.game import JSON, Action

ITERATIONS = 250  # the ismcts bot's default


class FistAnalyser:
    """The ISMCTS root statistics as a hint (see the module docs)."""

    def hint(self, view: JSON, legal: Sequence[Action], rng: random.Random,
             effort: float = 1.0) -> Hint:
        from dragonlair.games.fist.bots import ISMCTSFistBot

        bot = ISMCTSFistBot(rng, iterations=max(1, round(ITERATIONS * effort)))
        if len(legal) == 1:
            return ranked("win_chance", False, legal, {}, legal[0])
        result = bot.search.search(view, view["seat"], legal)
        values: dict[str, float | None] = dict(result.values)
        return ranked("win_chance", False, legal, values, result.action,
                      win_chance=values.get(str(result.action)), visits=result.visits)


def analyser() -> FistAnalyser:
    return FistAnalyser()
