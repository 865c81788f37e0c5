"""A hint: every legal option of one decision, valued by the strongest bot, from one view.

The ``best`` option is the one the game's strongest bot chooses from that view (with the
same seed where it samples), so a hint never recommends what the bot would not play; the
values say how much the choice matters. ``loss`` is the value of the best option minus the
option's value (never below zero; ``None`` where the bot does not value that option, e.g. an
item it weighs with a rule of thumb rather than a computed value).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from dragonlair.core.game import JSON, Action, Game

#: the units a value can be in (docs/analysis.md)
UNITS = ("soldiers", "win_chance")


@dataclass(frozen=True, slots=True)
class Option:
    """One legal option: its canonical text, value, whether it is the bot's choice, and the
    cost of choosing it instead."""

    action: str
    value: float | None
    best: bool
    loss: float | None
    visits: int | None = None  # search bots: how often the root tried it

    def to_json(self) -> JSON:
        out: JSON = {"action": self.action, "value": self.value, "best": self.best,
                     "loss": self.loss}
        if self.visits is not None:
            out["visits"] = self.visits
        return out


@dataclass(frozen=True, slots=True)
class Hint:
    """The options of one decision, best first, in one ``unit``; ``exact``: the values are
    the exact optimum (no sampling, no model); ``win_chance``: the seat's estimated chance
    to win the game here, when the game can estimate it (``None`` otherwise)."""

    unit: str
    exact: bool
    options: tuple[Option, ...]
    win_chance: float | None = None

    @property
    def best(self) -> Option:
        return next(o for o in self.options if o.best)

    def option(self, action: str) -> Option | None:
        return next((o for o in self.options if o.action == action), None)

    def to_json(self) -> JSON:
        return {"unit": self.unit, "exact": self.exact, "win_chance": self.win_chance,
                "options": [o.to_json() for o in self.options]}


class Analyser(Protocol):
    """A game's analyser (``GamePlugin.analysis()``): a hint from a view and its legal
    actions. ``effort`` scales sampled searches (1.0: the bot's own budget); ``rng`` seeds
    them, so a seed gives the same hint."""

    def hint(self, view: JSON, legal: Sequence[Action], rng: random.Random,
             effort: float = 1.0) -> Hint: ...


def ranked(unit: str, exact: bool, legal: Sequence[Action], values: Mapping[str, float | None],
           choice: Action, *, win_chance: float | None = None,
           visits: Mapping[str, int] | None = None) -> Hint:
    """A hint from per-option values (by action text) and the bot's choice: the choice
    first, then by value (unvalued options last, in legal order)."""
    chosen = str(choice)
    top = values.get(chosen)
    options = []
    for a in legal:
        text = str(a)
        v = values.get(text)
        loss = None if v is None or top is None else max(0.0, top - v)
        options.append(Option(text, v, text == chosen, loss,
                              None if visits is None else visits.get(text, 0)))
    order = {o.action: i for i, o in enumerate(options)}
    options.sort(key=lambda o: (not o.best, o.value is None,
                                -(o.value or 0.0), order[o.action]))
    return Hint(unit, exact, tuple(options), win_chance)


class NoAnalyser(Exception):
    """The game declares no analyser."""


def analyser_for(game: Game) -> Analyser:
    """The analyser the game's plugin declares (:class:`NoAnalyser` without one)."""
    from dragonlair.games import plugin

    factory = plugin(game.info.id).analysis
    if factory is None:
        raise NoAnalyser(game.info.id)
    made: Analyser = factory()
    return made


def hint_for(game: Game, view: JSON, legal: Sequence[Action], seed: int | str = 0,
             effort: float = 1.0) -> Hint:
    """The hint for one seat's decision, from its view and legal actions only."""
    return analyser_for(game).hint(view, legal, random.Random(str(seed)), effort)
