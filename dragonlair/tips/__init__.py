"""Tips and strategy pages per game (issue 16), written from what the bots and the optimal
policies measured. The words are catalogue entries (``tips.*``, domain ``tips.po``); every
number on a page is a param filled in from the game's figures (:mod:`dragonlair.tips.figures`),
never typed into the text, so regenerated figures change the page and a translation cannot
drift from the data. UI-free: ``dragonlair tips`` and ``GET /api/games/{game}/tips`` render
the same :func:`tips_page`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dragonlair.core.i18n import render
from dragonlair.tips.figures import games_with_tips, load, regenerate, tips_module

__all__ = ["TipsPage", "games_with_tips", "load", "regenerate", "tips_page"]


@dataclass(frozen=True, slots=True)
class TipsPage:
    """A rendered page: its title, the paragraphs of advice, and where the figures came
    from (the command and seed that made them)."""

    game: str
    lang: str
    title: str
    paragraphs: list[str]
    source: str


def tips_page(game: str, lang: str = "en", doc: dict[str, Any] | None = None) -> TipsPage:
    """The tips page of ``game`` in ``lang`` from ``doc`` (default: the committed figures)."""
    data = doc if doc is not None else load(game)
    figures = data["figures"]
    make = tips_module(game).paragraphs
    source = render("tips.source" if data["games"] else "tips.source_exact",
                    {"command": data["command"], "seed": data["seed"], "games": data["games"]},
                    lang)
    return TipsPage(game, lang, render(f"tips.{game}.title", {}, lang),
                    make(figures, lang), source)
