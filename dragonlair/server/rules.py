"""The rules of each game, with every card, for the browser (``GET /api/games/{game}/rules``).

The page is the one ``dragonlair rules GAME`` prints: the plugin's terminal rules page is
rendered into a collecting console, and what it prints becomes data: the rules' Markdown as
HTML (markdown-it, raw HTML in the source escaped, never passed through), each table (every
card, the scoring tables) as a title, column headers and rows of plain text, and the notes
as paragraphs. One source for both interfaces: a card added to a game appears in the terminal
and in the browser, in every language its catalogues have.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

router = APIRouter(prefix="/api", tags=["lobby"])


class RulesTableOut(BaseModel):
    title: str
    columns: list[str]
    rows: list[list[str]]


class RulesPartOut(BaseModel):
    """One part of the page, in order: ``html`` (rendered Markdown), a ``table``, or a
    ``note`` (plain text)."""

    kind: Literal["html", "table", "note"]
    html: str | None = None
    table: RulesTableOut | None = None
    text: str | None = None


class RulesOut(BaseModel):
    game: str
    lang: str
    parts: list[RulesPartOut]


class _Collector(Console):
    """A console that keeps what is printed instead of drawing it."""

    def __init__(self) -> None:
        super().__init__(width=100, record=False, color_system=None)
        self.items: list[Any] = []

    def print(self, *objects: Any, **_kwargs: Any) -> None:
        self.items.extend(objects)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _part(item: Any) -> RulesPartOut:
    from markdown_it import MarkdownIt

    if isinstance(item, Markdown):
        html = MarkdownIt("commonmark", {"html": False}).enable("table").render(item.markup)
        return RulesPartOut(kind="html", html=html)
    if isinstance(item, Table):
        columns = list(item.columns)
        rows = [list(r) for r in zip(*(list(c.cells) for c in columns), strict=True)]
        return RulesPartOut(kind="table", table=RulesTableOut(
            title=_plain(item.title or ""), columns=[_plain(c.header) for c in columns],
            rows=[[_plain(x) for x in row] for row in rows]))
    return RulesPartOut(kind="note", text=_plain(item))


@cache
def rules_page(game: str, lang: str) -> RulesOut:
    """The rules page of ``game`` in ``lang`` as data (see the module docs)."""
    from dragonlair.core.plugin import load_path
    from dragonlair.games import plugin

    p = plugin(game)
    console = _Collector()
    if p.terminal_rules is not None:
        load_path(p.terminal_rules)(console, lang)
    elif p.rules is not None:
        console.print(Markdown(p.rules(lang)))
    else:
        raise ServerError("server.rules.none", 404, game=game)
    return RulesOut(game=game, lang=lang, parts=[_part(x) for x in console.items])


@router.get("/games/{game}/rules", response_model=RulesOut, responses=refusals(404, 422))
def rules(game: Annotated[str, Path(max_length=64)],
          lang: Annotated[str, Query(max_length=16)] = "en") -> RulesOut:
    """The rules in brief and every card of ``game``, in ``lang`` (as
    ``dragonlair rules GAME --lang LANG`` prints them)."""
    from dragonlair.core.i18n import languages
    from dragonlair.games import game_ids

    if game not in game_ids():
        raise ServerError("server.game.not_found", 404, game=game[:64])
    if lang not in languages():
        raise ServerError("server.rules.bad_lang", 422, lang=lang[:16], langs=list(languages()))
    return rules_page(game, lang)
