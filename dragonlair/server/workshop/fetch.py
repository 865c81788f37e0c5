"""The terminal's side of the workshop: ``dragonlair play fist --custom workshop:ID --server
URL`` fetches entry ``ID`` (its newest version, or ``workshop:ID@N`` for version ``N``) from
the server and plays it locally (docs/workshop.md, "In the terminal").

A refusal is a :class:`FetchError` with a catalogue code and params: the command prints it as
one line and exits with 2, never a traceback."""

from __future__ import annotations

import re
from typing import Any

JSON = dict[str, Any]
PREFIX = "workshop:"
REF = re.compile(r"^workshop:([1-9][0-9]{0,9})(?:@([1-9][0-9]{0,5}))?$")


class FetchError(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def is_ref(text: str) -> bool:
    return text.startswith(PREFIX)


def parse_ref(text: str) -> tuple[int, int | None]:
    """The entry id and version (``None``: the newest) of ``workshop:ID[@N]``."""
    match = REF.match(text.strip())
    if match is None:
        raise FetchError("cli.workshop.bad_ref", ref=text[:80])
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def fetch_entry(server: str, ref: str, timeout: float = 15.0) -> JSON:
    """The entry ``ref`` names, as ``GET /api/workshop/entries/{id}`` answers it."""
    import httpx

    entry_id, version = parse_ref(ref)
    url = f"{server.rstrip('/')}/api/workshop/entries/{entry_id}"
    try:
        r = httpx.get(url, params={"version": version} if version else None, timeout=timeout)
    except httpx.HTTPError as exc:
        raise FetchError("cli.workshop.unreachable", url=server, why=type(exc).__name__) \
            from None
    try:
        body = r.json()
    except ValueError:
        body = None
    if r.status_code != 200 or not isinstance(body, dict):
        if isinstance(body, dict) and isinstance(body.get("code"), str):
            raise FetchError(body["code"], **dict(body.get("params") or {}))
        raise FetchError("cli.workshop.unreachable", url=server, why=f"HTTP {r.status_code}")
    return body


def fetch_options(game: str, server: str, refs: list[str]) -> JSON:
    """The options the entries ``refs`` set for a game of ``game`` (characters of several
    entries join)."""
    options: JSON = {}
    for ref in refs:
        entry = fetch_entry(server, ref)
        if entry.get("game") != game:
            raise FetchError("cli.workshop.wrong_game", ref=ref, game=game,
                             entry_game=str(entry.get("game")))
        content = entry.get("content")
        if not isinstance(content, dict):
            raise FetchError("cli.workshop.unreachable", url=server, why="content")
        for name, value in content.items():
            if isinstance(value, list) and isinstance(options.get(name), list):
                options[name] = [*options[name], *value]
            else:
                options[name] = value
    return options
