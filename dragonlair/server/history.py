"""Finished games: the replay of a table, as its viewer may see it.

``GET /api/tables/{id}/replay`` answers only once a table is finished. It holds the record
(every action and chance outcome: what ``dragonlair replay`` checks; once the game is over it
is public, docs/server.md "Finished games") and, for a viewer, the replay as that viewer saw
the game: the events of each logged action that the viewer may see, and the engine's view at
a chosen point. A viewer who held a seat of the table gets that seat's perspective (its own
secrets too, as it was shown them); anybody else gets a spectator's (public information
only). Another seat's private events never appear in a perspective, after the end either.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.accounts import request_token, user_from_token
from dragonlair.server.db import ActionRow
from dragonlair.server.errors import ServerError
from dragonlair.server.hub import Hub
from dragonlair.server.invites import refusals
from dragonlair.server.responses import ReplayOut
from dragonlair.server.table.storage import read_seats

router = APIRouter(prefix="/api", tags=["history"])

JSON = dict[str, Any]


def perspective_of(s: OrmSession, table_id: str, user_id: int | None) -> int | None:
    """The seat ``user_id`` held at the table, also one a bot took over from them
    (``None``: a spectator's perspective)."""
    if user_id is None:
        return None
    for seat in read_seats(s, table_id):
        if seat.user_id == user_id:
            return seat.seat
    return None


def replay_steps(game_id: str, options: JSON, actions: list[tuple[int, str]],
                 seat: int | None, at: int) -> tuple[list[JSON], JSON]:
    """Replay ``actions`` (seat, canonical text): for each, the events ``seat`` may see
    (``None``: a spectator), and the engine's view for ``seat`` after the first ``at``."""
    from dragonlair.games import make_game

    game = make_game(game_id, options)
    state = game.new_initial_state()
    steps: list[JSON] = []
    view: JSON | None = state.view(seat) if at == 0 else None
    for n, (actor, text) in enumerate(actions):
        before = state.event_count
        action = game.parse_action(text)
        state.apply(actor, action)
        step: JSON = {"seq": n, "seat": actor,
                      "events": [event.to_json(i)
                                 for i, event in state.events_for(seat, before)]}
        if seat is not None and actor == seat:
            step["action"] = str(action)  # one's own moves; others' show as their events
        steps.append(step)
        if n + 1 == at:
            view = state.view(seat)
    assert view is not None
    return steps, view


@router.get("/tables/{table_id}/replay", responses=refusals(404, 409, 422),
            response_model=ReplayOut, response_model_exclude_unset=True)
async def replay(table_id: str, request: Request,
                 at: Annotated[int | None, Query(ge=0, le=10**7)] = None,
                 as_: Annotated[Literal["seat", "spectator"], Query(alias="as")] = "seat",
                 with_record: Annotated[bool, Query(alias="record")] = True,
                 ) -> JSON:
    """A finished table: its record, and the replay from the caller's perspective (their
    seat if they held one, else a spectator's; ``as=spectator``: a spectator's, whoever
    asks): ``steps`` (per logged action, its ``seq``, the acting ``seat`` (-1: chance) and the
    events this viewer may see), ``view`` (the engine's view for this viewer after ``at``
    actions; default: the end) and ``seat`` (the seat the caller held, if any: the
    perspectives open to them are that seat's and a spectator's)."""
    from dragonlair.server.lobby import record
    from dragonlair.server.lobby_service import get_table, table_json

    token = request_token(request.cookies, request.headers)  # a cookie or a bearer token

    def work(s: OrmSession) -> JSON:
        table = get_table(s, table_id)
        if table.status != "finished":
            raise ServerError("server.table.not_finished", 409, status=table.status)
        user = user_from_token(s, token)
        held = perspective_of(s, table_id, user.id if user is not None else None)
        seat = held if as_ == "seat" else None
        rows = s.execute(select(ActionRow.seat, ActionRow.action)
                         .where(ActionRow.table_id == table_id)
                         .order_by(ActionRow.seq)).all()
        actions = [(int(r[0]), str(r[1])) for r in rows]
        point = len(actions) if at is None else at
        if point > len(actions):
            raise ServerError("server.replay.bad_point", 422, at=point, actions=len(actions))
        steps, view = replay_steps(table.game, dict(table.options), actions, seat, point)
        out: JSON = {"table": table_json(s, table, detail=True), "perspective": seat,
                     "seat": held, "steps": steps, "at": point, "view": view}
        if with_record:  # the whole record (public once the game is over); ``record=false``
            out["record"] = record(table_id, s)  # leaves it out: a client stepping through
        done: JSON = json.loads(json.dumps(out))
        return done

    hub: Hub = request.app.state.hub
    return await hub.db(work)
