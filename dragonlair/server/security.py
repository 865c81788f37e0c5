"""Request security below the routes: which proxy is believed, and which sites may change
anything (docs/server.md, "Security notes").

* **Trusted proxies.** ``X-Forwarded-Proto`` and ``X-Forwarded-For`` are believed only from
  a peer in ``Settings.forwarded_allow_ips`` (``dragonlair serve --forwarded-allow-ips``, or
  ``FORWARDED_ALLOW_IPS`` as for uvicorn; default ``127.0.0.1,::1``, uvicorn's default). The
  check is uvicorn's own middleware, run inside the application (uvicorn's is switched off
  in :func:`dragonlair.server.app.serve`), so that tests and every server agree: behind a
  trusted proxy the request's scheme is the one the browser used (a ``Secure`` session
  cookie over TLS) and its client address is the browser's (the throttles of
  :mod:`dragonlair.server.throttle`).
* **Cross-site requests.** A state-changing request (``POST``, ``PUT``, ``PATCH``,
  ``DELETE``, with or without a body) whose ``Origin`` names another site than the server's
  own (the ``Host`` it was sent to) or one of ``Settings.allowed_origins`` (``--origin``, the
  same list the WebSocket accepts) is refused with ``403 server.request.cross_site`` before
  any route runs. Without ``Origin``, ``Sec-Fetch-Site: cross-site`` or ``same-site`` refuses
  it too. A request with neither header (the terminal client, curl, a remote bot) is not a
  browser's cross-site request and passes: its credentials are what it shows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the methods that change something (a cross-site one is refused)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: the default of ``--forwarded-allow-ips``: uvicorn's (the machine itself)
DEFAULT_FORWARDED_ALLOW_IPS = ("127.0.0.1", "::1")


def parse_ips(text: str | None) -> tuple[str, ...]:
    """A comma list of addresses, networks or ``*`` (uvicorn's ``--forwarded-allow-ips``)."""
    return tuple(part.strip() for part in (text or "").split(",") if part.strip())


def origin_allowed(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a browser's ``Origin`` is the server's own (its ``scheme://host`` is the
    ``Host`` the request went to) or one of ``allowed``. ``null`` (a sandboxed page, a file)
    is never."""
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return (parts.scheme in ("http", "https") and bool(host)
            and parts.netloc.lower() == (host or "").lower())


def cross_site(method: str, headers: dict[str, str], allowed: tuple[str, ...]) -> bool:
    """Whether a request is a browser's state-changing request from another site."""
    if method.upper() not in UNSAFE_METHODS:
        return False
    origin = headers.get("origin")
    if origin is not None:
        return not origin_allowed(origin.strip(), headers.get("host"), allowed)
    return headers.get("sec-fetch-site", "").strip().lower() in ("cross-site", "same-site")


class CrossSiteGuard:
    """ASGI middleware: ``403 server.request.cross_site`` for a cross-site state-changing
    request (module docs); everything else passes untouched (a WebSocket upgrade checks its
    ``Origin`` with the same :func:`origin_allowed`: dragonlair/server/ws.py)."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers: dict[str, str] = {}
            for name, value in scope.get("headers", ()):
                key = name.decode("latin-1").lower()
                if key in ("origin", "host", "sec-fetch-site") and key not in headers:
                    headers[key] = value.decode("latin-1")
            if cross_site(str(scope.get("method", "GET")), headers, self.allowed):
                response = JSONResponse({"code": "server.request.cross_site", "params": {},
                                         "rule": None}, status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
