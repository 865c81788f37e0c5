"""What the OpenAPI document says about refusals: every ``4xx`` the lobby answers is the same
object, ``{"code", "params", "rule"}`` (:class:`ErrorOut`), declared on every operation, and
errors raised below the routes (a body that is no JSON, an unknown path, a wrong method)
come back in that shape too (:func:`http_error`). tests/server/test_openapi.py checks the
document against the server with schemathesis."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException


class ErrorOut(BaseModel):
    """A refusal: a ``server.*`` code (or an engine's, for options), its params, and the rule
    it names (engine codes only)."""

    code: str = Field(description="the error code (docs/protocol.md)")
    params: dict[str, Any] = Field(description="the code's parameters")
    rule: str | None = Field(default=None, description="the rule section, if any")


_WHY = {
    400: "a body that is not JSON",
    401: "no session, or an expired one",
    403: "not allowed for this user",
    404: "no such resource",
    405: "a method the path does not have",
    409: "a conflict with the resource's state",
    411: "a body without a length",
    413: "a body over the limit",
    422: "a request that fails validation (values never echoed)",
    429: "too many at once",
}

#: every refusal the lobby may answer, declared on every operation
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": why} for status, why in _WHY.items()
}

#: the codes of refusals raised below the routes, by HTTP status
HTTP_CODES = {400: "server.request.bad_body", 404: "server.request.no_route",
              405: "server.request.method_not_allowed"}


async def http_error(_request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (unparsable body, unknown path, wrong method) as an
    :class:`ErrorOut` (``server.request.refused`` with the status for any other)."""
    assert isinstance(exc, HTTPException)
    code = HTTP_CODES.get(exc.status_code, "server.request.refused")
    params = {} if exc.status_code in HTTP_CODES else {"status": exc.status_code}
    return JSONResponse({"code": code, "params": params, "rule": None},
                        status_code=exc.status_code, headers=exc.headers)
