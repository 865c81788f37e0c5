"""The rules page for the browser (``GET /api/games/{game}/rules``, dragonlair/server/rules.py):
the same page ``dragonlair rules GAME`` prints, as data, with every card of each game in each
language, raw HTML in the rules' Markdown escaped, and clear refusals."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from rich.markdown import Markdown

from dragonlair.core.i18n import languages, term
from dragonlair.games import BUILTIN as BUILTIN_GAMES
from dragonlair.games.farkle.cards import COMPANIONS, ITEMS
from dragonlair.games.fist.cards import BUILTIN
from dragonlair.games.master.cards import CARDS
from dragonlair.server import rules
from tests.server.routers import client_for


@pytest.fixture(scope="module")
def web() -> Iterator[TestClient]:
    with client_for(rules.router) as client:  # one event loop for the module's requests
        yield client


def card_names(game: str, lang: str) -> list[str]:
    """Every card of ``game`` named as the catalogues name it (the engine's own lists)."""
    if game == "fist":
        return [term(f"fist.card.{c.id}.name", lang, fallback=c.name(lang)) for c in BUILTIN]
    if game == "master":
        from dragonlair.games.master.terminal.screen import card_name

        return [card_name(c.id, lang) for c in CARDS]
    return [c.name(lang) for c in (*COMPANIONS, *ITEMS)]


@pytest.mark.parametrize("lang", sorted(languages()))
@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))  # the games with cards
def test_every_card_is_on_the_page_in_each_language(web: TestClient, game: str,
                                                    lang: str) -> None:
    page = web.get(f"/api/games/{game}/rules", params={"lang": lang})
    assert page.status_code == 200
    data = page.json()
    assert data["game"] == game and data["lang"] == lang
    kinds = [p["kind"] for p in data["parts"]]
    assert kinds[0] == "html" and "table" in kinds
    cells = {cell.removesuffix(" *") for p in data["parts"] if p["kind"] == "table"
             for row in p["table"]["rows"] for cell in row}
    missing = [name for name in card_names(game, lang) if name not in cells]
    assert not missing, f"{game}/{lang}: cards missing from the rules page: {missing}"
    for part in data["parts"]:
        if part["kind"] == "table":
            width = len(part["table"]["columns"])
            assert part["table"]["title"] and all(len(r) == width for r in part["table"]["rows"])


def test_the_german_page_is_german(web: TestClient) -> None:
    en = web.get("/api/games/fist/rules", params={"lang": "en"}).json()
    de = web.get("/api/games/fist/rules", params={"lang": "de"}).json()
    assert en["parts"][0]["html"] != de["parts"][0]["html"]
    titles = [p["table"]["title"] for p in de["parts"] if p["kind"] == "table"]
    assert titles == ["Figuren"]


def test_raw_html_in_markdown_is_escaped() -> None:
    part = rules._part(Markdown("**x** <script>alert(1)</script> <img src=x onerror=y>"))
    assert part.html is not None
    assert "<script" not in part.html and "<img" not in part.html
    assert "&lt;script&gt;" in part.html and "<strong>x</strong>" in part.html


def test_unknown_game_and_language_are_refused(web: TestClient) -> None:
    r = web.get("/api/games/chess/rules")
    assert r.status_code == 404 and r.json()["code"] == "server.game.not_found"
    r = web.get("/api/games/fist/rules", params={"lang": "xx"})
    assert r.status_code == 422 and r.json()["code"] == "server.rules.bad_lang"
    assert r.json()["params"]["langs"] == list(languages())
    r = web.get("/api/games/fist/rules", params={"lang": "x" * 500})
    assert r.status_code == 422
