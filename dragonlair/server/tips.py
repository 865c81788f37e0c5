"""The tips and strategy page of each game, for the browser (``GET /api/games/{game}/tips``).

The page is the one ``dragonlair tips GAME`` prints (:func:`dragonlair.tips.tips_page`): the
same catalogue words with the same committed figures, so the terminal and the browser give
the same advice with the same numbers, in every language the catalogues have.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel

from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

router = APIRouter(prefix="/api", tags=["lobby"])


class TipsTableOut(BaseModel):
    """A table of figures on a tips page: a caption, the column heads, and the rows, every
    cell already rendered in the page's language (the client draws it as is)."""

    caption: str
    columns: list[str]
    rows: list[list[str]]


class TipsOut(BaseModel):
    """A game's tips: the title, paragraphs of plain text, tables of figures, and where the
    figures came from (the command and seed that measured them)."""

    game: str
    lang: str
    title: str
    paragraphs: list[str]
    tables: list[TipsTableOut]
    source: str


@router.get("/games/{game}/tips", response_model=TipsOut, responses=refusals(404, 422))
def tips(game: Annotated[str, Path(max_length=64)],
         lang: Annotated[str, Query(max_length=16)] = "en") -> TipsOut:
    """Tips and strategy for ``game`` in ``lang`` (as ``dragonlair tips GAME --lang LANG``
    prints them)."""
    from dragonlair.core.i18n import languages
    from dragonlair.games import game_ids
    from dragonlair.tips import games_with_tips, tips_page

    if game not in game_ids():
        raise ServerError("server.game.not_found", 404, game=game[:64])
    if game not in games_with_tips():
        raise ServerError("server.tips.none", 404, game=game)
    if lang not in languages():
        raise ServerError("server.tips.bad_lang", 422, lang=lang[:16], langs=list(languages()))
    page = tips_page(game, lang)
    tables = [TipsTableOut(caption=t.caption, columns=t.columns, rows=t.rows)
              for t in page.tables]
    return TipsOut(game=game, lang=lang, title=page.title, paragraphs=page.paragraphs,
                   tables=tables, source=page.source)
