"""Hints and post-game analysis over the server (issue 16; dragonlair/analysis, docs/analysis.md).

- ``POST /api/tables/{id}/hint``: what the strongest bot would do at the caller's decision,
  and how much each option matters. Only at a **friendly** table (never a rated one), only
  for the caller's own seat while it is to move, and computed from that seat's **view** and
  legal actions alone (the analysers never see a state). One hint at a time per user; the
  work runs in the bots' thread pool, off the event loop.
- ``GET /api/tables/{id}/analysis?seat=N``: the analysis of one seat's decisions in a
  finished game (its record is public once the game is over: docs/server.md), the biggest
  mistakes first and the win chance over the game, bounded in time and kept for the next
  asker.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.errors import DragonlairError
from dragonlair.server.accounts import CurrentUser
from dragonlair.server.errors import ServerError
from dragonlair.server.hub import Hub
from dragonlair.server.invites import refusals
from dragonlair.server.responses import AnalysisOut, TableHintOut

router = APIRouter(prefix="/api", tags=["coach"])

JSON = dict[str, Any]

#: seconds one analysis may take (the decisions after that are left out and said so)
ANALYSIS_BUDGET = 20.0
#: finished analyses kept in memory (table, seat)
ANALYSIS_CACHE = 64

_busy: set[int] = set()
_analyses: OrderedDict[tuple[str, int], JSON] = OrderedDict()
#: analyses being computed in this process (each may take ANALYSIS_BUDGET seconds of a bot
#: thread): more at once are refused, so that nobody can keep the bots' threads busy
MAX_ANALYSES = 1
_running: set[tuple[str, int]] = set()


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.post("/tables/{table_id}/hint", responses=refusals(403, 404, 409, 429),
             response_model=TableHintOut, response_model_exclude_unset=True)
async def hint(table_id: str, request: Request, user: CurrentUser) -> JSON:
    """The caller's hint at a friendly table where their seat is to move: each option's
    value in ``unit`` (expected soldiers or win chance), the bot's choice marked ``best``,
    and what choosing another costs (``loss``)."""
    from dragonlair.analysis import hint_for
    from dragonlair.analysis.hints import NoAnalyser

    hub = _hub(request)
    runtime = await hub.table(table_id[:32])
    rated = await hub.db(lambda s: _rated(s, runtime.id))
    if rated:
        raise ServerError("server.hint.rated", 403)
    # one hint at a time per user, and no more at once than there are bot threads (guests
    # are free to make: the bound is the server's, not the user's)
    if user.id in _busy or len(_busy) >= max(1, hub.settings.bot_workers):
        raise ServerError("server.hint.busy", 429)
    _busy.add(user.id)  # before the first await: a second request meanwhile is refused
    try:
        async with runtime.lock:
            await runtime.sync()
            seat = runtime.seat_of(user.id)
            if seat is None:
                raise ServerError("server.act.not_seated", 409)
            if runtime.status != "running":
                raise ServerError("server.act.not_running", 409, status=runtime.status)
            if seat not in runtime.state.current_seats():
                raise ServerError("server.hint.not_to_move", 409, seat=seat)
            view, legal = runtime.state.view(seat), runtime.state.legal_actions(seat)
            seq = runtime.seq
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(
            hub.executor, lambda: hint_for(runtime.game, view, legal, seed=f"{table_id}:{seq}"))
    except NoAnalyser:
        raise ServerError("server.hint.none", 404, game=runtime.game.info.id) from None
    finally:
        _busy.discard(user.id)
    return {"table": runtime.id, "seat": seat, "seq": seq, "hint": result.to_json()}


def _rated(s: OrmSession, table_id: str) -> bool:
    from dragonlair.server.db import GameTable

    table = s.get(GameTable, table_id)
    return bool(table is not None and table.rated)


@router.get("/tables/{table_id}/analysis", responses=refusals(404, 409, 422, 429),
            response_model=AnalysisOut, response_model_exclude_unset=True)
async def analysis(table_id: str, request: Request,
                   seat: Annotated[int, Query(ge=0, le=15)]) -> JSON:
    """The analysis of ``seat``'s decisions in a finished game (docs/analysis.md; the same
    data as ``dragonlair analyse RECORD --seat N --json``)."""
    from dragonlair.analysis import analyse_record
    from dragonlair.core.records import Record
    from dragonlair.server.lobby import record

    hub = _hub(request)
    key = (table_id[:32], seat)
    cached = _analyses.get(key)
    if cached is not None:
        _analyses.move_to_end(key)
        return cached
    data = await hub.db(lambda s: record(key[0], s))
    if len(_running) >= MAX_ANALYSES:
        raise ServerError("server.analysis.busy", 429)
    _running.add(key)
    loop = asyncio.get_running_loop()
    try:
        done = await loop.run_in_executor(hub.executor, lambda: analyse_record(
            Record.from_json(data), seat, budget=ANALYSIS_BUDGET, seed=0))
    except DragonlairError as exc:  # a seat not at the table, one with no decision
        raise ServerError(exc.code, 422, **exc.params) from None
    finally:
        _running.discard(key)
    out: JSON = {"table": key[0], **done.to_json(top=10)}
    _analyses[key] = out
    while len(_analyses) > ANALYSIS_CACHE:
        _analyses.popitem(last=False)
    return out
