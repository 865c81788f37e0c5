"""Request bodies are bounded before anything reads them (dragonlair/server/app.py
``BodyBound``, a plain ASGI middleware): every hostile ``Content-Length`` is refused with a
code, a chunked body without one is refused, everything else passes untouched."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from dragonlair.server.app import BodyBound

LIMIT = 1000


def call(headers: list[tuple[bytes, bytes]], method: str = "POST",
         kind: str = "http") -> tuple[int | None, Any]:
    """The status and JSON body BodyBound answers with, or (None, "passed") when it let the
    request through to the app."""
    sent: list[dict[str, Any]] = []
    passed: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        passed.append(True)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": kind, "method": method, "headers": headers, "path": "/api/tables"}
    asyncio.run(BodyBound(app, LIMIT)(scope, receive, send))
    if passed:
        assert not sent
        return None, "passed"
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


@pytest.mark.parametrize("length", [b"1001", b"99999999999999999999", b"-1", b"1e3", b"",
                                    b" 10", b"\xb2", "\u0663".encode(), b"10, 10"])
def test_a_length_over_the_limit_or_not_a_number_is_too_large(length: bytes) -> None:
    status, body = call([(b"content-length", length)])
    assert status == 413
    assert body == {"code": "server.request.too_large", "params": {"limit": LIMIT},
                    "rule": None}


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_a_chunked_body_without_a_length_is_refused(method: str) -> None:
    status, body = call([(b"transfer-encoding", b"chunked")], method)
    assert status == 411 and body["code"] == "server.request.length_required"


@pytest.mark.parametrize(("headers", "method"), [
    ([(b"content-length", b"1000")], "POST"),
    ([(b"content-length", b"0")], "POST"),
    ([], "POST"),
    ([(b"transfer-encoding", b"chunked")], "GET"),
    ([(b"Content-Length", b"12"), (b"content-length", b"99999")], "POST"),  # the first counts
])
def test_everything_else_passes(headers: list[tuple[bytes, bytes]], method: str) -> None:
    assert call(headers, method) == (None, "passed")


def test_websockets_pass_untouched() -> None:
    assert call([(b"content-length", b"99999")], "GET", kind="websocket") == (None, "passed")
