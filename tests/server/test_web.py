"""The browser client served by the server (dragonlair/web): index.html at / and at the
client's routes, hashed assets cached for good, the API untouched, and a page saying how to
build the client when it is not built (the server still starts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dragonlair.games import BUILTIN, game_ids
from dragonlair.web import CLIENT_ROUTES, IMMUTABLE, mount_client, openapi_text, write_catalogues


def client_for(dist: Path) -> TestClient:
    app = FastAPI()

    @app.get("/api/ping")
    def ping() -> dict[str, bool]:
        return {"ok": True}

    mount_client(app, dist)
    return TestClient(app)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text('<script src="/assets/index-abc123.js"></script>')
    (dist / "assets" / "index-abc123.js").write_text("console.log(1)")
    write_catalogues(dist / "i18n")
    return dist


def test_index_at_root_and_at_every_client_route(built: Path) -> None:
    web = client_for(built)
    for route in CLIENT_ROUTES:
        path = route.replace("{table_id}", "Ab3x").replace("{game}", "master") \
            .replace("{username}", "ann")
        answer = web.get(path)
        assert answer.status_code == 200, path
        assert "/assets/index-abc123.js" in answer.text
        assert answer.headers["cache-control"] == "no-cache"


def test_hashed_assets_are_cached_for_good_and_catalogues_revalidated(built: Path) -> None:
    web = client_for(built)
    asset = web.get("/assets/index-abc123.js")
    assert asset.status_code == 200 and asset.headers["cache-control"] == IMMUTABLE
    de = web.get("/i18n/de.json")
    assert de.status_code == 200 and de.headers["cache-control"] == "no-cache"
    assert de.json()["messages"]["web.home.title"] == "Spielen"
    assert web.get("/assets/missing.js").status_code == 404


def test_the_api_is_untouched(built: Path) -> None:
    web = client_for(built)
    assert web.get("/api/ping").json() == {"ok": True}
    assert web.get("/api/nothing").status_code == 404
    assert web.get("/not-a-client-route").status_code == 404


def test_without_a_bundle_the_server_says_how_to_build_it(tmp_path: Path) -> None:
    web = client_for(tmp_path / "missing")
    answer = web.get("/")
    assert answer.status_code == 200
    assert "scripts/build_web.sh" in answer.text
    assert web.get("/assets/index.js").status_code == 404


def test_the_openapi_dump_is_the_apps_document() -> None:
    text = openapi_text()
    assert '"/api/tables"' in text and '"/ws/' not in text
    # the client's routes are not part of the API's description
    assert '"/settings"' not in text


def test_every_bot_of_every_game_has_a_name_and_a_description_in_each_language() -> None:
    """The browser names bots from the catalogues (web/src/lib/names.ts): each bot the
    server offers (``/api/games``) has ``web.bot.<id>`` and ``web.bot.<id>.help``, and the
    German differs from the English."""
    from dragonlair.bots import bot_names
    from dragonlair.core.i18n import term
    from dragonlair.games import game_ids

    for game in game_ids():
        for bot in bot_names(game):
            # a game installed as its own package names its bots itself: <game>.ui.bot.<id>
            keys = (f"web.bot.{bot}", f"web.bot.{bot}.help") if game in BUILTIN or \
                term(f"web.bot.{bot}", "en", fallback="") else (f"{game}.ui.bot.{bot}",)
            for key in keys:
                en, de = term(key, "en", fallback=""), term(key, "de", fallback="")
                assert en and de, f"{key} is missing"
                assert en != de, f"{key} is not German"


def test_a_game_installed_after_the_build_gets_its_messages_served(tmp_path: Path) -> None:
    """Built catalogues that lack a game (one installed as its own package after the client
    was built) are replaced by catalogues exported from every installed game's .po files;
    complete ones are served as built."""
    from dragonlair.core.i18n import languages

    dist = tmp_path / "dist"
    (dist / "i18n").mkdir(parents=True)
    (dist / "index.html").write_text("<p>client</p>")
    lacking = {"lang": "en", "plural": "(n != 1)", "messages": {"web.home.title": "Play"}}
    (dist / "i18n" / "en.json").write_text(json.dumps(lacking))
    web = client_for(dist)
    served = web.get("/i18n/de.json")
    assert served.status_code == 200
    messages = served.json()["messages"]
    assert {code.partition(".")[0] for code in messages} >= {*game_ids(), "web", "core"}
    assert messages["master.place.cell_taken"] != "" and served.json()["lang"] == "de"
    assert web.get("/i18n/index.json").json() == list(languages())
    assert web.get("/i18n/xx.json").status_code == 404
    complete = built_catalogues(tmp_path / "complete")
    assert client_for(complete).get("/i18n/en.json").content == (
        complete / "i18n" / "en.json").read_bytes()


def built_catalogues(dist: Path) -> Path:
    (dist / "i18n").mkdir(parents=True)
    (dist / "index.html").write_text("<p>client</p>")
    write_catalogues(dist / "i18n")
    return dist
