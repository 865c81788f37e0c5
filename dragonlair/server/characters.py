"""The games' workshops over the server, for the browser's editors (issue 16; rule F9;
docs/custom-characters.md): custom entries such as Fist's characters.

A game with a workshop (:attr:`dragonlair.core.plugin.GamePlugin.workshop`, a
:class:`~dragonlair.core.plugin.Workshop`; Fist's is :mod:`dragonlair.games.fist.workshop`)
gets five stateless routes under ``/api/games/<id>/<kind>/`` (Fist: ``/api/games/fist/
characters/``), no login needed, each answered by the workshop's method of that name, its
models and its description:

- ``GET examples``: what an editor starts from (Fist: the shipped example characters, the
  power primitives with their fields, the limits of a character).
- ``POST check``: one entry checked and written out in full.
- ``POST import``: the entries of a file's text (its base name decides the format).
- ``POST export``: entries as the text of such a file.
- ``POST balance``: the balance report of bot games with the entries at the table, worked out
  in a thread off the event loop, one at a time per process (a second meanwhile: 429
  ``server.characters.busy``).

The routes are the registry's: the games with a workshop when this module is imported. What
is generic is here: every body is bounded (64 KiB; strings, lists, and nesting no deeper than
the workshop's limits: ``server.characters.too_long``, ``too_deep``, ``too_many``) before the
game sees it, every entry is normalized and the set checked, and a refusal of the game
(:class:`~dragonlair.core.errors.DragonlairError`) is answered with 422 and its code, params
and rule (Fist: ``fist.custom.*``, rule F9).
"""

from __future__ import annotations

import inspect
import secrets
import threading
from collections.abc import Callable
from enum import Enum
from pathlib import PurePath
from typing import Any

from fastapi import APIRouter, Depends, Request

from dragonlair.core.errors import DragonlairError
from dragonlair.core.plugin import Workshop, load_path
from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

JSON = dict[str, Any]

#: the largest request body (bytes), whatever the server's own limit
MAX_BODY = 64 * 1024
#: one balance run at a time in this process (each keeps a thread busy for seconds)
BALANCE_LOCK = threading.Lock()


def _bounded(request: Request) -> None:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ServerError("server.request.too_large", 413, limit=MAX_BODY)


Bounded = Depends(_bounded)


class _Refused(ServerError):
    """A game's refusal of an entry: its code, params and rule (Fist: F9)."""

    def __init__(self, exc: DragonlairError) -> None:
        super().__init__(exc.code, 422, **exc.params)
        self.rule = exc.rule

    def to_json(self) -> JSON:
        return {**super().to_json(), "rule": self.rule}


def _shape(value: Any, where: str, ws: Workshop) -> None:
    """Refuse data nested deeper than the workshop's ``max_depth`` or holding a string longer
    than its ``max_string`` (``server.characters.too_deep`` / ``too_long``), without
    recursion."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            if depth > ws.max_depth:
                raise ServerError("server.characters.too_deep", 422, field=where,
                                  max=ws.max_depth)
            children = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
            for key, child in children:
                if isinstance(key, str) and len(key) > ws.max_string:
                    raise ServerError("server.characters.too_long", 422, field=where,
                                      max=ws.max_string)
                todo.append((child, depth + 1))
        elif isinstance(item, str) and len(item) > ws.max_string:
            raise ServerError("server.characters.too_long", 422, field=where,
                              max=ws.max_string)


def _normalized(ws: Workshop, data: Any) -> JSON:
    _shape(data, ws.entry, ws)
    try:
        return ws.normalize(data)
    except DragonlairError as exc:
        raise _Refused(exc) from None


def _all_normalized(ws: Workshop, entries: list[Any]) -> list[JSON]:
    """Each entry normalized, and the set checked as a table checks it (Fist: ids unique)."""
    if len(entries) > ws.max_entries:
        raise ServerError("server.characters.too_many", 422, max=ws.max_entries,
                          value=len(entries))
    out = [_normalized(ws, e) for e in entries]
    try:
        ws.check_set(out)
    except DragonlairError as exc:
        raise _Refused(exc) from None
    return out


def _described(method: Callable[..., Any]) -> str:
    """A workshop method's docstring, as the route's description."""
    return inspect.cleandoc(inspect.getdoc(method) or "")


def _typed(route: Callable[..., Any], body: Any) -> Callable[..., Any]:
    """``route`` with its body's model as the annotation FastAPI reads (the game's)."""
    route.__annotations__ = {**route.__annotations__, "body": body, "return": Any}
    return route


def add_workshop(router: APIRouter, game_id: str, ws: Workshop) -> None:
    """The five routes of ``game_id``'s workshop ``ws`` on ``router`` (see the module docs);
    the routes' names (``examples``, ``check``, ``import_file``, ``export``, ``balance``) and
    paths make their OpenAPI operation ids."""
    base = f"/games/{game_id}/{ws.kind}"
    tags: list[str | Enum] = [ws.kind]

    def examples() -> JSON:
        return ws.examples()

    def check(body: Any) -> JSON:
        return ws.check(_normalized(ws, getattr(body, ws.entry)))

    def import_file(body: Any) -> JSON:
        name = PurePath(body.filename.replace("\\", "/")).name or "?"
        try:
            entries = ws.import_file(name, body.text)
        except DragonlairError as exc:
            raise _Refused(exc) from None
        return {ws.kind: [ws.editable(e) for e in _all_normalized(ws, entries)]}

    def export(body: Any) -> JSON:
        return ws.export(_all_normalized(ws, list(getattr(body, ws.kind))), body.format)

    async def balance(body: Any) -> JSON:
        import anyio

        entries = _all_normalized(ws, list(getattr(body, ws.kind)))
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        try:
            run = ws.balance(entries, body.games, body.players, seed)
        except DragonlairError as exc:
            raise _Refused(exc) from None
        if not BALANCE_LOCK.acquire(blocking=False):
            raise ServerError("server.characters.busy", 429)
        try:
            report: JSON = await anyio.to_thread.run_sync(run)
        finally:
            BALANCE_LOCK.release()
        return report

    router.add_api_route(f"{base}/examples", examples, methods=["GET"], tags=tags,
                         response_model=ws.examples_out, response_model_exclude_none=True,
                         description=_described(ws.examples))
    router.add_api_route(f"{base}/check", _typed(check, ws.check_in), methods=["POST"],
                         tags=tags, response_model=ws.check_out,
                         responses=refusals(413, 422), dependencies=[Bounded],
                         description=_described(ws.check))
    router.add_api_route(f"{base}/import", _typed(import_file, ws.import_in), methods=["POST"],
                         tags=tags, response_model=ws.import_out,
                         response_model_exclude_none=True, responses=refusals(413, 422),
                         dependencies=[Bounded], description=_described(ws.import_file))
    router.add_api_route(f"{base}/export", _typed(export, ws.export_in), methods=["POST"],
                         tags=tags, response_model=ws.export_out,
                         responses=refusals(413, 422), dependencies=[Bounded],
                         description=_described(ws.export))
    router.add_api_route(f"{base}/balance", _typed(balance, ws.balance_in), methods=["POST"],
                         tags=tags, response_model=ws.balance_out,
                         responses=refusals(413, 422, 429), dependencies=[Bounded],
                         description=_described(ws.balance))


def workshops() -> dict[str, Workshop]:
    """The registry's games with a workshop, by id."""
    from dragonlair.games import game_ids, plugin

    found: dict[str, Workshop] = {}
    for game_id in game_ids():
        path = plugin(game_id).workshop
        if path is not None:
            found[game_id] = load_path(path)
    return found


def workshops_router() -> APIRouter:
    """A router with the routes of every game's workshop."""
    out = APIRouter(prefix="/api")
    for game_id, ws in workshops().items():
        add_workshop(out, game_id, ws)
    return out


router = workshops_router()
