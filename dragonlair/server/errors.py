"""Refusals as data: a ``server.*`` code with params, like the engine's own errors.

The lobby answers a refusal with an HTTP status and ``{"code", "params", "rule"}``; the
WebSocket with ``{"type": "error", "code", "params", "rule"}``. An engine's refusal keeps the
engine's code (``fist.bid.exceeds_unspent``) and params; the server's own codes are listed in
docs/protocol.md.
"""

from __future__ import annotations

from typing import Any


class ServerError(Exception):
    """A refusal by the server (not the engine): ``code``, ``params`` and an HTTP status."""

    def __init__(self, code: str, status: int = 400, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.params = params

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params), "rule": None}
