"""The browser client, served by ``dragonlair serve`` (web/README.md).

The client is built by Vite from ``web/`` into ``dragonlair/web/dist/`` (package data, so a
wheel carries it and ``pip install dragonlair`` needs no Node). :func:`mount_client` serves
it: hashed assets under ``/assets`` (cached for a year, immutable), the catalogues under
``/i18n`` (revalidated), and ``index.html`` at ``/`` and at every client route (a single-page
application: the client reads the path). The API (``/api``), the WebSocket (``/ws``) and the
OpenAPI pages are untouched. Without a built bundle the routes answer a short page saying
how to build it, so the server still starts.

Every file of the bundle is precompressed at build time (``web/scripts/compress.mjs`` writes
``NAME.br`` and ``NAME.gz`` beside ``NAME`` where that is smaller): a request whose
``Accept-Encoding`` takes brotli (else gzip) is answered the precompressed file with
``Content-Encoding``; every answer of a file that has a variant says ``Vary:
Accept-Encoding``. JSON answers of the API are gzipped on the fly by the application's
``GZipMiddleware`` from :data:`GZIP_MINIMUM` bytes (docs/server.md, "Compression").

``python -m dragonlair.web openapi`` prints the server's OpenAPI document and
``python -m dragonlair.web catalogues DIR`` writes every language's catalogue as JSON
(``DIR/<lang>.json``); ``web/scripts`` call both.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

# DRAGONLAIR_WEB_DIST serves a client built elsewhere (a development checkout that builds into
# its own folder with DRAGONLAIR_WEB_OUT, web/vite.config.ts); the package's own by default
DIST = Path(os.environ.get("DRAGONLAIR_WEB_DIST") or Path(__file__).resolve().parent / "dist")

#: the client's own routes (the path after ``/``): each answers ``index.html``
CLIENT_ROUTES = ("/", "/settings", "/tables/{table_id}", "/tables/{table_id}/replay",
                 "/leaderboards", "/leaderboards/{game}", "/users/{username}",
                 "/rules", "/rules/{game}", "/replays", "/learn/{game}",
                 "/tips/{game}", "/characters",
                 # the community (issue 26)
                 "/workshop", "/workshop/new", "/workshop/{entry_id}", "/forum", "/forum/{game}",
                 "/forum/threads/{thread_id}", "/tournaments", "/tournaments/{tournament_id}",
                 "/puzzles", "/puzzles/{puzzle_id}")

#: the paths that are never a page of the client: their 404 stays the API's JSON refusal
NOT_PAGES = ("/api/", "/ws/", "/assets/", "/i18n/", "/docs", "/redoc", "/openapi")

#: hashed file names never change content: cache for a year
IMMUTABLE = "public, max-age=31536000, immutable"

#: answers smaller than this are not worth compressing (a TCP packet carries them anyway)
GZIP_MINIMUM = 1024

#: the precompressed variants, best first: (suffix, Content-Encoding)
ENCODINGS = ((".br", "br"), (".gz", "gzip"))


def accepted(header: str | None) -> set[str]:
    """The codings an ``Accept-Encoding`` header accepts (``q=0`` refuses one; ``*``: any)."""
    out: set[str] = set()
    for part in (header or "").lower().split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name and q > 0:
            out.add(name.strip())
    if "*" in out:
        out |= {coding for _, coding in ENCODINGS}
    return out


def variant(file: Path, header: str | None) -> tuple[Path, str | None]:
    """The file to send for ``file`` and its ``Content-Encoding`` (``None``: as it is)."""
    codings = accepted(header)
    for suffix, coding in ENCODINGS:
        if coding in codings:
            candidate = file.with_name(file.name + suffix)
            if candidate.is_file():
                return candidate, coding
    return file, None


def has_variant(file: Path) -> bool:
    return any(file.with_name(file.name + suffix).is_file() for suffix, _ in ENCODINGS)

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
    from fastapi.responses import FileResponse, HTMLResponse, Response
    from fastapi.staticfiles import StaticFiles
    from starlette.datastructures import Headers
    from starlette.requests import Request
    from starlette.types import Scope

    folder = dist or DIST

    class Assets(StaticFiles):
        """Static files with a Cache-Control header (``cache``), precompressed variants
        served to whoever accepts them (see the module docs)."""

        def __init__(self, directory: Path, cache: str) -> None:
            super().__init__(directory=directory, check_dir=False)
            self.cache = cache
            self.root = directory

        async def get_response(self, path: str, scope: Scope) -> Any:
            plain = (self.root / path).resolve()
            compressed = None
            if plain.is_relative_to(self.root.resolve()) and plain.is_file() \
                    and has_variant(plain):
                chosen, coding = variant(plain, Headers(scope=scope).get("accept-encoding"))
                if coding is not None:
                    compressed = (str(chosen.relative_to(self.root.resolve())), coding)
            if compressed is None:
                response = await super().get_response(path, scope)
            else:
                response = await super().get_response(compressed[0], scope)
                if response.status_code in (200, 304):
                    response.headers["Content-Encoding"] = compressed[1]
                    response.headers["Content-Type"] = self.media_type(path)
            if response.status_code in (200, 304):
                response.headers["Cache-Control"] = self.cache
                if has_variant(plain):
                    response.headers["Vary"] = "Accept-Encoding"
            return response

        @staticmethod
        def media_type(path: str) -> str:
            import mimetypes

            kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
            return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind in (
                "application/javascript", "application/json", "image/svg+xml") else kind

    def send_file(request: Request, file: Path, media_type: str, cache: str) -> Response:
        """``file`` (index.html, the favicon), precompressed when the request accepts it."""
        chosen, coding = variant(file, request.headers.get("accept-encoding"))
        headers = {"Cache-Control": cache}
        if has_variant(file):
            headers["Vary"] = "Accept-Encoding"
        if coding is not None:
            headers["Content-Encoding"] = coding
        return FileResponse(chosen, media_type=media_type, headers=headers)

    # mounted only when built: a missing folder would be a 500 on each request
    if (folder / "assets").is_dir():
        app.mount("/assets", Assets(folder / "assets", IMMUTABLE), name="client-assets")
    if (folder / "i18n").is_dir() and not catalogues_lack_a_game(folder / "i18n"):
        app.mount("/i18n", Assets(folder / "i18n", "no-cache"), name="client-i18n")
    elif (folder / "i18n").is_dir():
        # a game installed after the client was built (its own package, docs/new-game.md):
        # the catalogues are exported from the .po files of every installed game now, once
        # per process, and compressed on the fly like the API's JSON
        def catalogue_file(request: Request) -> Response:
            from dragonlair.core.i18n import languages

            name = request.path_params["name"]
            if name == "index":
                return Response(json.dumps(list(languages())), media_type="application/json",
                                headers={"Cache-Control": "no-cache"})
            if name not in languages():
                return Response(status_code=404)
            return Response(runtime_catalogue(name), media_type="application/json",
                            headers={"Cache-Control": "no-cache"})

        app.add_route("/i18n/{name}.json", catalogue_file, methods=["GET"],
                      include_in_schema=False)

    def index(request: Request) -> Response:
        page = folder / "index.html"
        if not page.is_file():
            return HTMLResponse(NOT_BUILT, status_code=200,
                                headers={"Cache-Control": "no-cache"})
        if has_variant(page):
            return send_file(request, page, "text/html; charset=utf-8", "no-cache")
        return HTMLResponse(page.read_text("utf-8"), headers={"Cache-Control": "no-cache"})

    # plain Starlette routes (the request is the argument: no dependency injection)
    for route in CLIENT_ROUTES:
        app.add_route(route, index, methods=["GET"], include_in_schema=False)

    favicon = folder / "favicon.svg"

    def icon(request: Request) -> Response:
        if not favicon.is_file():
            return Response(status_code=404)
        if has_variant(favicon):
            return send_file(request, favicon, "image/svg+xml", "public, max-age=86400")
        return Response(favicon.read_bytes(), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    app.add_route("/favicon.svg", icon, methods=["GET"], include_in_schema=False)

    worker = folder / "sw.js"

    def service_worker(request: Request) -> Response:
        """The service worker (web/public/sw.js: Web Push turn alerts), at the root so that
        its scope is the whole client; revalidated, so a new one reaches browsers."""
        if not worker.is_file():
            return Response(status_code=404)
        return send_file(request, worker, "text/javascript; charset=utf-8", "no-cache")

    app.add_route("/sw.js", service_worker, methods=["GET"], include_in_schema=False)


    async def not_found(request: Any, exc: Exception) -> Any:
        """An address nothing answers: a browser opening a page (GET or HEAD, accepting
        HTML, outside the API, the socket and the bundle's folders) gets the client with
        status 404, which shows its page for what does not exist in the reader's language
        (web/src/screens/NotFound.svelte); anything else gets the app's JSON refusal."""
        from fastapi.exception_handlers import http_exception_handler
        from fastapi.responses import HTMLResponse as Page
        from starlette.exceptions import HTTPException

        path = request.url.path
        if (request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")
                and not path.startswith(NOT_PAGES)):
            page = folder / "index.html"
            text = page.read_text("utf-8") if page.is_file() else NOT_BUILT
            return Page(text, status_code=404, headers={"Cache-Control": "no-cache"})
        handler = app.exception_handlers.get(HTTPException, http_exception_handler)
        return await handler(request, exc)

    app.add_exception_handler(404, not_found)


def catalogues_lack_a_game(folder: Path) -> bool:
    """Whether the built catalogues (``folder/en.json``) miss an installed game's messages:
    a game installed as its own package after the client was built."""
    from dragonlair.games import game_ids

    try:
        messages = json.loads((folder / "en.json").read_text("utf-8"))["messages"]
    except (OSError, ValueError, KeyError, TypeError):
        return True
    namespaces = {code.partition(".")[0] for code in messages}
    return any(game not in namespaces for game in game_ids())


def runtime_catalogue(lang: str) -> str:
    """One language's catalogue as the build writes it, from every installed game's .po files
    (cached per language)."""
    cached = _RUNTIME.get(lang)
    if cached is None:
        from dragonlair.core.i18n import export_json

        cached = _RUNTIME[lang] = json.dumps(export_json(lang, CLIENT_OMITS), ensure_ascii=False,
                                             sort_keys=True, separators=(",", ":"))
    return cached


_RUNTIME: dict[str, str] = {}

#: the codes the browser never shows, left out of its catalogues (the first page loads one):
#: the terminal's and the command line's words (``cli.*``: a sixth of a catalogue)
CLIENT_OMITS = ("cli.",)


def write_catalogues(folder: Path) -> list[Path]:
    """Every language's catalogue as ``folder/<lang>.json`` (the client loads them)."""
    from dragonlair.core.i18n import export_json, languages

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in languages():
        path = folder / f"{lang}.json"
        path.write_text(json.dumps(export_json(lang, CLIENT_OMITS), ensure_ascii=False,
                                   sort_keys=True, separators=(",", ":")), encoding="utf-8")
        written.append(path)
    index = folder / "index.json"
    index.write_text(json.dumps(list(languages())), encoding="utf-8")
    return [*written, index]


def openapi_text() -> str:
    """The server's OpenAPI document, as ``/openapi.json`` serves it (sorted keys)."""
    from dragonlair.server.app import create_app

    return json.dumps(create_app().openapi(), indent=2, sort_keys=True) + "\n"


def view_schemas() -> list[dict[str, str]]:
    """The view schemas the client's types are generated from (web/scripts/gen.mjs): each
    registry game that publishes one inside this source tree, as ``{"game", "path"}`` with
    the path relative to the tree. A game installed from elsewhere is left out: the build
    renders it with the generic screen, from its views as they come."""
    from dragonlair.core.plugin import load_path
    from dragonlair.games import game_ids, plugin

    root = Path(__file__).resolve().parents[2]
    out = []
    for game_id in game_ids():
        spec = plugin(game_id).conformance
        path = load_path(spec).published_schema if spec else None
        if path is not None and path.resolve().is_relative_to(root):
            out.append({"game": game_id, "path": path.resolve().relative_to(root).as_posix()})
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["openapi"]:
        sys.stdout.write(openapi_text())
        return 0
    if args[:1] == ["catalogues"] and len(args) == 2:
        for path in write_catalogues(Path(args[1])):
            print(f"wrote {path}", file=sys.stderr)
        return 0
    if args[:1] == ["view-schemas"]:
        sys.stdout.write(json.dumps(view_schemas()) + "\n")
        return 0
    print("usage: python -m dragonlair.web openapi | catalogues DIR | view-schemas",
          file=sys.stderr)
    return 2
