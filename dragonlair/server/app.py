"""The application: settings, database (migrated on start), routes, error answers."""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import os
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from dragonlair.core.errors import DragonlairError
from dragonlair.server import accounts, coach, history, invites, learn, lobby, profiles, rules, ws
from dragonlair.server import characters as characters_api
from dragonlair.server import option_files as option_files_api
from dragonlair.server import push as push_api
from dragonlair.server import rematch as rematch_api
from dragonlair.server import tips as tips_api
from dragonlair.server.botpool import BotPool, processes_available
from dragonlair.server.bus import make_bus
from dragonlair.server.db import make_engine, make_sessionmaker
from dragonlair.server.errors import ServerError
from dragonlair.server.forum import api as forum_api
from dragonlair.server.hub import Hub
from dragonlair.server.migrate import upgrade
from dragonlair.server.openapi import ERROR_RESPONSES, http_error
from dragonlair.server.puzzles import api as puzzles_api
from dragonlair.server.puzzles.miner import Miner as PuzzleMiner
from dragonlair.server.responses import HealthOut
from dragonlair.server.security import CrossSiteGuard
from dragonlair.server.settings import Settings
from dragonlair.server.table.viewers import PROTOCOL
from dragonlair.server.throttle import Throttle
from dragonlair.server.tournaments import api as tournaments_api
from dragonlair.server.tournaments.runner import Runner as TournamentRunner
from dragonlair.server.workshop import api as workshop_api
from dragonlair.web import GZIP_MINIMUM, mount_client

log = logging.getLogger("dragonlair.server")


class BodyBound:
    """ASGI middleware: ``413 server.request.too_large`` for a request whose
    ``Content-Length`` is not a number or over ``limit`` bytes, ``411
    server.request.length_required`` for a POST, PUT or PATCH sent in chunks without one;
    everything else (WebSockets too) passes untouched."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length: str | None = None
            chunked = False
            for name, value in scope.get("headers", ()):
                key = name.lower()
                if key == b"content-length" and length is None:
                    length = value.decode("latin-1")
                elif key == b"transfer-encoding":
                    chunked = chunked or bool(value)
            refusal: tuple[int, str, dict[str, Any]] | None = None
            if length is not None and not (length.isascii() and length.isdigit()
                                           and int(length) <= self.limit):
                refusal = (413, "server.request.too_large", {"limit": self.limit})
            elif length is None and scope.get("method") in ("POST", "PUT", "PATCH") and chunked:
                refusal = (411, "server.request.length_required", {})
            if refusal is not None:
                status, code, params = refusal
                response = JSONResponse({"code": code, "params": params, "rule": None},
                                        status_code=status)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: the collector's thresholds in a server (``DRAGONLAIR_GC``: three numbers, or ``default``
#: for Python's 700, 10, 10): with the defaults, a server under load (bench --server, 300
#: actions/s) paused 450 ms in each full collection, nine times in a minute, and those
#: pauses were its p99; a young generation of 10,000 objects and rare older passes keep each
#: pause short, and the start's objects are frozen out of every pass (docs/server.md,
#: "Performance")
GC_THRESHOLDS = (10_000, 20, 100)


def gc_thresholds() -> tuple[int, int, int] | None:
    """The collector's thresholds for a long-running server: ``DRAGONLAIR_GC``'s three
    numbers, :data:`GC_THRESHOLDS` where it is unset, None for ``default`` (Python's own);
    a :class:`DragonlairError` for anything else."""
    given = os.environ.get("DRAGONLAIR_GC", "").strip()
    if given == "default":
        return None
    if not given:
        return GC_THRESHOLDS
    try:
        parsed = tuple(int(x) for x in given.split(","))
    except ValueError:
        parsed = ()
    if len(parsed) != 3 or min(parsed) < 1:
        raise DragonlairError("server.bad_gc", given=given,
                              default=",".join(str(x) for x in GC_THRESHOLDS))
    return parsed[0], parsed[1], parsed[2]


def tune_gc() -> bool:
    """Set :func:`gc_thresholds`; whether they were changed (then the caller freezes what the
    start made, once it listens)."""
    thresholds = gc_thresholds()
    if thresholds is None:
        return False
    gc.set_threshold(*thresholds)
    return True


def warm_ups() -> list[Callable[[], None]]:
    """Each registry game's start-up work (its plugin's ``warm_up``), as jobs for a bot thread
    that log how long they took and never stop the server (a failure is logged)."""
    from dragonlair.core.plugin import load_path
    from dragonlair.games import game_ids, plugin

    jobs: list[Callable[[], None]] = []
    for game_id in game_ids():
        path = plugin(game_id).warm_up
        if path is None:
            continue

        def job(game_id: str = game_id, path: str = path) -> None:
            start = time.process_time()
            try:
                load_path(path)()
            except Exception:
                log.exception("the start-up work of %s (%s) failed", game_id, path)
                return
            log.info("%s warmed up in %.2f CPU s", game_id, time.process_time() - start)

        jobs.append(job)
    return jobs


async def start_bots(pool: BotPool) -> None:
    start = time.perf_counter()
    pids = await pool.start()
    log.info("%d bot worker process(es) ready in %.1f s: %s", len(pids),
             time.perf_counter() - start, pids)


#: FastAPI's own OpenTelemetry hooks off (FastAPI 0.165 on: ``telemetry``): the server logs
#: and measures itself (docs/server.md), and the hooks asked OpenTelemetry's providers on
#: every request whether anybody listens
NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters else {})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server as an ASGI application. On start it creates and migrates the database
    (Alembic, to the newest revision) and resumes every running table."""
    settings = settings or Settings()
    if settings.redis_url is not None and settings.url().startswith("sqlite"):
        raise ServerError("server.config.redis_sqlite", 500)
    engine = make_engine(settings.url(), settings.sqlite_synchronous)
    sessions = make_sessionmaker(engine)
    # Web Push (docs/server.md, "Turn alerts and Web Push"): a bad key stops the start here
    pusher = push_api.make_pusher(settings, sessions)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(upgrade, engine)
        executor = ThreadPoolExecutor(max(1, settings.bot_workers),
                                      thread_name_prefix="dragonlair-bot")
        hub = Hub(settings, sessions, executor, bus=make_bus(settings.redis_url))
        hub.pusher = pusher
        if settings.bot_processes > 0:  # bots think off the loop's lock (botpool.py)
            if processes_available():
                hub.bots = BotPool(settings.bot_processes, warm=settings.warm_up)
            else:
                log.warning("no worker processes here: the bots think in threads")
        app.state.hub = hub
        await hub.bus.start()  # many processes: Redis must answer at start
        resumed = await hub.resume_all()
        log.info("dragonlair server ready; %d running table(s) resumed", resumed)
        if settings.warm_up:
            for work in warm_ups():
                executor.submit(work)
            if hub.bots is not None:  # the workers start now and warm up (in background)
                hub.spawn(start_bots(hub.bots))
        expiry = lobby.Expiry(hub)  # open tables never started expire (lobby.py)
        expiry.start()
        tournaments = TournamentRunner(hub)  # tournaments/runner.py
        tournaments.start()
        app.state.tournaments = tournaments
        puzzles = PuzzleMiner(hub)  # shipped puzzles, then mining (puzzles/miner.py)
        puzzles.start()
        app.state.puzzles = puzzles
        try:
            yield
        finally:
            expiry.stop()
            await tournaments.stop()
            await puzzles.stop()
            await hub.close()
            executor.shutdown(wait=False, cancel_futures=True)
            if pusher is not None:
                pusher.close()
            engine.dispose()

    app = FastAPI(title="Dragonlair", version=str(PROTOCOL), lifespan=lifespan,
                  description="Lobby (REST) and play (WebSocket /ws/tables/{id}); "
                              "see docs/protocol.md.", responses=ERROR_RESPONSES,
                  **NO_TELEMETRY)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.state.settings = settings
    app.state.sessions = sessions
    app.state.engine = engine
    app.state.pusher = pusher

    @app.exception_handler(ServerError)
    async def server_error(_request: Request, exc: ServerError) -> JSONResponse:
        wait = exc.params.get("retry_after") if exc.status == 429 else None
        headers = {"Retry-After": str(wait)} if isinstance(wait, int) else None
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # never echo the input: it may be a password
        problems = [{"field": ".".join(str(x) for x in e.get("loc", ())),
                     "problem": e.get("type", "invalid")} for e in exc.errors()][:20]
        return JSONResponse({"code": "server.request.invalid", "params": {"errors": problems},
                             "rule": None}, status_code=422)

    # JSON answers gzipped when asked, from GZIP_MINIMUM bytes; the client's files are
    # precompressed (dragonlair/web: already encoded, left alone); WebSockets untouched.
    # Added first, so the innermost: it sees each answer whole (docs/server.md)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=6)
    # request bodies bounded before anything reads them (a plain ASGI middleware: no task
    # and no stream per request, as a BaseHTTPMiddleware would add)
    app.add_middleware(BodyBound, limit=settings.limits.max_body_bytes)

    @app.get("/api/health", tags=["server"], response_model=HealthOut)
    def health(request: Request) -> dict[str, Any]:
        """Alive; the protocol version; and which server process answered (many processes
        behind a load balancer: the id that claims of tables name)."""
        hub: Hub | None = getattr(request.app.state, "hub", None)
        return {"ok": True, "protocol": PROTOCOL,
                "process": hub.process_id if hub is not None else None}

    app.include_router(accounts.router)
    app.include_router(lobby.router)
    app.include_router(rematch_api.router)
    app.include_router(invites.router)
    app.include_router(history.router)
    app.include_router(profiles.router)
    app.include_router(rules.router)
    app.include_router(tips_api.router)
    app.include_router(coach.router)
    app.include_router(learn.router)
    app.include_router(characters_api.router)
    app.include_router(option_files_api.router)
    app.include_router(push_api.router)
    app.include_router(workshop_api.router)
    app.include_router(tournaments_api.router)
    app.include_router(forum_api.router)
    app.include_router(puzzles_api.router)
    app.include_router(ws.router)
    # the browser client (dragonlair/web/dist, built from web/): / and its routes, /assets
    mount_client(app)
    # below the routes (the last added runs first): the proxy's word on scheme and client
    # address, then cross-site refusals (dragonlair/server/security.py)
    app.add_middleware(CrossSiteGuard, allowed=settings.allowed_origins)
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.forwarded_allow_ips))
    app.state.throttle = Throttle.of(settings)
    return app


def uvicorn_config(app: FastAPI, settings: Settings, host: str, port: int,
                   **kwargs: Any) -> Any:
    """The ``uvicorn.Config`` of ``dragonlair serve`` (tests run the same): a WebSocket
    frame over ``ws_max_size`` (64 KiB) closes the socket with 1009 (docs/protocol.md)."""
    import uvicorn

    return uvicorn.Config(
        app, host=host, port=port, ws_max_size=max(65536, settings.limits.max_message_chars * 8),
        # views are small; compressing each one for each viewer cost more CPU than
        # anything else on the event loop
        ws_per_message_deflate=kwargs.pop("ws_per_message_deflate", False),
        # the application believes X-Forwarded-* itself, from settings.forwarded_allow_ips
        proxy_headers=False,
        log_level=kwargs.pop("log_level", "info"), **kwargs)


def bound_port(server: Any, default: int = 0) -> int:
    """The TCP port a started ``uvicorn.Server`` listens on: the one the system chose where
    it was asked for port 0 (tests and ``dragonlair serve --port 0`` read it, never guess a
    free one first, which another process may take in between)."""
    for listener in getattr(server, "servers", ()):
        for sock in listener.sockets:
            name = sock.getsockname()
            if isinstance(name, tuple) and len(name) >= 2:
                return int(name[1])
    return default


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000,
          on_ready: Callable[[int], None] | None = None, **kwargs: Any) -> None:
    """Run the server under uvicorn (``dragonlair serve``); ``on_ready`` is called with the
    port it listens on (the one chosen for port 0) once the database is migrated and the
    running tables are resumed."""
    import uvicorn

    app = create_app(settings)
    # the database thread waits for the interpreter lock after each statement: hand it over
    # sooner than the default 5 ms (docs/server.md, "Performance")
    sys.setswitchinterval(0.0005)
    gc_tuning = tune_gc()
    config = uvicorn_config(app, settings, host, port, **kwargs)

    class Server(uvicorn.Server):
        """Calls ``on_ready`` once the socket listens: the lifespan's startup (migrations,
        resumed tables) runs before uvicorn binds, so an address printed there would refuse
        the first browser that opens it (tests/server/test_serve_ready.py)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if gc_tuning:  # what the start made (modules, tables, caches) lives to the end
                gc.collect()
                gc.freeze()
            if on_ready is not None and self.started and not self.should_exit:
                on_ready(bound_port(self, port))

    Server(config).run()
