"""The tips page for the browser (``GET /api/games/{game}/tips``, dragonlair/server/tips.py):
the page ``dragonlair tips GAME`` prints, in each language, and clear refusals."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dragonlair.core.i18n import languages
from dragonlair.server import tips
from dragonlair.tips import games_with_tips, tips_page
from tests.server.routers import client_for


@pytest.fixture(scope="module")
def web() -> TestClient:
    return client_for(tips.router)


@pytest.mark.parametrize("lang", sorted(languages()))
@pytest.mark.parametrize("game", games_with_tips())
def test_the_page_is_the_terminal_page(web: TestClient, game: str, lang: str) -> None:
    r = web.get(f"/api/games/{game}/tips", params={"lang": lang})
    assert r.status_code == 200
    page = tips_page(game, lang)
    tables = [{"caption": t.caption, "columns": t.columns, "rows": t.rows} for t in page.tables]
    assert r.json() == {"game": game, "lang": lang, "title": page.title,
                        "paragraphs": page.paragraphs, "tables": tables, "source": page.source}
    assert len(page.paragraphs) >= 3
    cells = [c for t in page.tables
             for c in [t.caption, *t.columns, *(cell for row in t.rows for cell in row)]]
    assert not any("tips." in p for p in [*page.paragraphs, *cells])  # every code has words
    # a table of figures for the games measured in bot games (each Fist character's worth,
    # the kinds of line that decide Master rounds, M4); a cell under every column head
    assert bool(page.tables) == (game in ("fist", "master"))
    assert all(len(row) == len(t.columns) for t in page.tables for row in t.rows)


def test_the_german_page_is_german(web: TestClient) -> None:
    en = web.get("/api/games/farkle/tips").json()
    de = web.get("/api/games/farkle/tips", params={"lang": "de"}).json()
    assert de["title"] == "Dragon Farkle: Tipps und Strategie" and en["title"] != de["title"]


def test_unknown_game_and_language_are_refused(web: TestClient) -> None:
    r = web.get("/api/games/chess/tips")
    assert r.status_code == 404 and r.json()["code"] == "server.game.not_found"
    r = web.get("/api/games/fist/tips", params={"lang": "xx"})
    assert r.status_code == 422 and r.json()["code"] == "server.tips.bad_lang"
    assert r.json()["params"]["langs"] == list(languages())
    r = web.get("/api/games/fist/tips", params={"lang": "x" * 500})
    assert r.status_code == 422
