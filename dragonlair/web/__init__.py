"""The browser client, served by ``dragonlair serve`` (web/README.md).

The client is built by Vite from ``web/`` into ``dragonlair/web/dist/`` (package data, so a
wheel carries it and ``pip install dragonlair`` needs no Node). :func:`mount_client` serves
it: hashed assets under ``/assets`` (cached for a year, immutable), the catalogues under
``/i18n`` (revalidated), and ``index.html`` at ``/`` and at every client route (a single-page
application: the client reads the path). The API (``/api``), the WebSocket (``/ws``) and the
OpenAPI pages are untouched. Without a built bundle the routes answer a short page saying
how to build it, so the server still starts.

``python -m dragonlair.web openapi`` prints the server's OpenAPI document and
``python -m dragonlair.web catalogues DIR`` writes every language's catalogue as JSON
(``DIR/<lang>.json``); ``web/scripts`` call both.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DIST = Path(__file__).resolve().parent / "dist"

#: the client's own routes (the path after ``/``): each answers ``index.html``
CLIENT_ROUTES = ("/", "/settings", "/tables/{table_id}", "/tables/{table_id}/replay",
                 "/leaderboards", "/leaderboards/{game}", "/users/{username}",
                 "/rules/{game}", "/replays", "/learn/{game}",
                 "/tips/{game}", "/characters")

#: hashed file names never change content: cache for a year
IMMUTABLE = "public, max-age=31536000, immutable"

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dragonlair</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Dragonlair</h1>
<p>The game server is running, but the browser client is not built.</p>
<p>Build it from a clone with Node 20 or newer: <code>bash scripts/build_web.sh</code>
(or <code>pip install .</code>, which builds it when Node is on the PATH), then restart
<code>dragonlair serve</code>.</p>
<p>The API is at <a href="/docs">/docs</a>.</p></body></html>
"""


def dist_dir() -> Path:
    """Where the built client lives (it may be missing)."""
    return DIST


def is_built(dist: Path | None = None) -> bool:
    return ((dist or DIST) / "index.html").is_file()


def mount_client(app: Any, dist: Path | None = None) -> None:
    """Serve the client on ``app`` (a FastAPI application)."""
    from fastapi.responses import HTMLResponse, Response
    from fastapi.staticfiles import StaticFiles
    from starlette.types import Scope

    folder = dist or DIST

    class Assets(StaticFiles):
        """Static files with a Cache-Control header (``cache``)."""

        def __init__(self, directory: Path, cache: str) -> None:
            super().__init__(directory=directory, check_dir=False)
            self.cache = cache

        async def get_response(self, path: str, scope: Scope) -> Any:
            response = await super().get_response(path, scope)
            if response.status_code in (200, 304):
                response.headers["Cache-Control"] = self.cache
            return response

    # mounted only when built: a missing folder would be a 500 on each request
    if (folder / "assets").is_dir():
        app.mount("/assets", Assets(folder / "assets", IMMUTABLE), name="client-assets")
    if (folder / "i18n").is_dir():
        app.mount("/i18n", Assets(folder / "i18n", "no-cache"), name="client-i18n")

    def index() -> Response:
        page = folder / "index.html"
        if not page.is_file():
            return HTMLResponse(NOT_BUILT, status_code=200,
                                headers={"Cache-Control": "no-cache"})
        return HTMLResponse(page.read_text("utf-8"), headers={"Cache-Control": "no-cache"})

    for route in CLIENT_ROUTES:
        app.add_api_route(route, index, methods=["GET"], include_in_schema=False,
                          response_class=HTMLResponse)

    favicon = folder / "favicon.svg"

    def icon() -> Response:
        if not favicon.is_file():
            return Response(status_code=404)
        return Response(favicon.read_bytes(), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    app.add_api_route("/favicon.svg", icon, methods=["GET"], include_in_schema=False)


def write_catalogues(folder: Path) -> list[Path]:
    """Every language's catalogue as ``folder/<lang>.json`` (the client loads them)."""
    from dragonlair.core.i18n import export_json, languages

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in languages():
        path = folder / f"{lang}.json"
        path.write_text(json.dumps(export_json(lang), ensure_ascii=False, sort_keys=True,
                                   separators=(",", ":")), encoding="utf-8")
        written.append(path)
    index = folder / "index.json"
    index.write_text(json.dumps(list(languages())), encoding="utf-8")
    return [*written, index]


def openapi_text() -> str:
    """The server's OpenAPI document, as ``/openapi.json`` serves it (sorted keys)."""
    from dragonlair.server.app import create_app

    return json.dumps(create_app().openapi(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["openapi"]:
        sys.stdout.write(openapi_text())
        return 0
    if args[:1] == ["catalogues"] and len(args) == 2:
        for path in write_catalogues(Path(args[1])):
            print(f"wrote {path}", file=sys.stderr)
        return 0
    print("usage: python -m dragonlair.web openapi | catalogues DIR", file=sys.stderr)
    return 2
