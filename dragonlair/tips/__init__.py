"""Tips and strategy pages per game (issue 16), written from what the bots and the optimal
policies measured. The words are catalogue entries (``tips.*``, domain ``tips.po``); every
number on a page is a param filled in from the game's figures (:mod:`dragonlair.tips.figures`),
never typed into the text, so regenerated figures change the page and a translation cannot
drift from the data. A page is paragraphs and, where a game has them, tables whose cells are
rendered here too. UI-free: ``dragonlair tips`` and ``GET /api/games/{game}/tips`` render
the same :func:`tips_page`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dragonlair.core.i18n import render
from dragonlair.tips.figures import games_with_tips, load, regenerate, tips_module
from dragonlair.tips.format import TipsTable

__all__ = ["TipsPage", "TipsTable", "games_with_tips", "load", "regenerate", "tips_page"]


@dataclass(frozen=True, slots=True)
class TipsPage:
    """A rendered page: its title, the paragraphs of advice, the tables of figures (cells
    rendered), and where the figures came from (the command and seed that made them)."""

    game: str
    lang: str
    title: str
    paragraphs: list[str]
    source: str
    tables: list[TipsTable] = field(default_factory=list)


def tips_page(game: str, lang: str = "en", doc: dict[str, Any] | None = None) -> TipsPage:
    """The tips page of ``game`` in ``lang`` from ``doc`` (default: the committed figures)."""
    data = doc if doc is not None else load(game)
    figures = data["figures"]
    module = tips_module(game)
    source = render("tips.source" if data["games"] else "tips.source_exact",
                    {"command": data["command"], "seed": data["seed"], "games": data["games"]},
                    lang)
    make_tables = getattr(module, "tables", None)
    tables: list[TipsTable] = make_tables(figures, lang) if make_tables else []
    return TipsPage(game, lang, render(f"tips.{game}.title", {}, lang),
                    module.paragraphs(figures, lang), source, tables)
