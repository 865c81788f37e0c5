"""Seat management before the start, and invite links.

The creator of a table that is still open may set any seat nobody holds to ``open``, to a
bot of a chosen strength (one of the game's bot names, ``/api/games``) or to ``invite``: a
seat reserved for whoever holds the invite link. An invite token is 192 random bits
(``secrets.token_urlsafe``); the database keeps only its SHA-256; it works once (it is
deleted in the same transaction that seats its holder); setting the seat again issues a new
token and the old one stops working; ``DELETE .../invites/{seat}`` revokes it (the seat
opens). The link puts the token in the URL's fragment (``/tables/{id}#invite=...``), which
browsers never send to a server, so it stays out of access logs.

Every refusal is a code with params and changes nothing (the transaction is not committed).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.accounts import CurrentUser
from dragonlair.server.db import GameTable, Invite, Seat
from dragonlair.server.errors import ServerError
from dragonlair.server.hub import Hub
from dragonlair.server.responses import SetSeatOut, TableInfoOut

router = APIRouter(prefix="/api", tags=["seats"])

#: what a token looks like (``secrets.token_urlsafe(24)`` gives 32 of these characters)
TOKEN_PATTERN = r"^[A-Za-z0-9_-]+$"
TOKEN_BYTES = 24

SeatNumber = Annotated[int, Path(ge=0, le=15)]


class Refusal(BaseModel):
    """A refusal: a ``server.*`` (or engine) code with its params (docs/protocol.md)."""

    code: str
    params: dict[str, Any]
    rule: str | None = None


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for routes that refuse with :class:`Refusal` bodies."""
    return {status: {"model": Refusal, "description": "refused: a code with params"}
            for status in statuses}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def invite_url(request: Request, table_id: str, token: str) -> str:
    """The link to hand out: the token rides in the fragment (never sent to a server)."""
    return f"{str(request.base_url).rstrip('/')}/tables/{table_id}#invite={token}"


def issue(s: OrmSession, table_id: str, seat: int, user_id: int | None) -> str:
    """A new invite token for ``seat`` (replacing any earlier one); the caller commits."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    s.execute(delete(Invite).where(Invite.table_id == table_id, Invite.seat == seat))
    s.add(Invite(table_id=table_id, seat=seat, token_hash=token_hash(token),
                 created_by=user_id))
    return token


def invite_json(request: Request, table_id: str, seat: int, token: str) -> dict[str, Any]:
    return {"seat": seat, "token": token, "url": invite_url(request, table_id, token)}


def redeem(s: OrmSession, table_id: str, user_id: int, token: str, seat: int | None) -> int:
    """Seat ``user_id`` on the seat ``token`` reserves (``seat``, if given, must be that
    one) and spend the token; the caller commits. A wrong, used or revoked token gets the
    same answer (``server.invite.invalid``), so an answer tells nothing about tokens."""
    invite = s.scalar(select(Invite).where(Invite.table_id == table_id,
                                           Invite.token_hash == token_hash(token)))
    if invite is None or (seat is not None and seat != invite.seat):
        raise ServerError("server.invite.invalid", 403)
    spent = s.execute(delete(Invite).where(Invite.id == invite.id))
    taken = s.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == invite.seat,
                                         Seat.kind == "invite")
                      .values(kind="human", user_id=user_id, bot=None))
    if spent.rowcount != 1 or taken.rowcount != 1:  # type: ignore[attr-defined]
        raise ServerError("server.invite.invalid", 403)
    return invite.seat


class SeatSet(BaseModel):
    """What the creator makes of a seat nobody holds: ``open``, ``bot`` (``bot``: one of
    the game's bot names; none: the game's default bot) or ``invite`` (a new link)."""

    kind: Literal["open", "bot", "invite"]
    bot: str | None = Field(default=None, min_length=1, max_length=64)


def _creators_open_table(s: OrmSession, table_id: str, user_id: int) -> GameTable:
    from dragonlair.server.lobby_service import get_table

    table = get_table(s, table_id)
    if table.created_by != user_id:
        raise ServerError("server.seat.creator_only", 403)
    if table.status != "open":
        raise ServerError("server.table.not_open", 409, status=table.status)
    return table


def _seat_row(s: OrmSession, table_id: str, seat: int) -> Seat:
    row = s.scalar(select(Seat).where(Seat.table_id == table_id, Seat.seat == seat))
    if row is None:
        raise ServerError("server.seat.not_found", 404, seat=seat, number=seat + 1)
    if row.kind == "human":
        raise ServerError("server.seat.taken", 409, seat=seat, number=seat + 1)
    return row


@router.put("/tables/{table_id}/seats/{seat}",
            responses=refusals(401, 403, 404, 409, 413, 422), response_model=SetSeatOut,
            response_model_exclude_unset=True)
async def set_seat(table_id: str, seat: SeatNumber, body: SeatSet, request: Request,
                   user: CurrentUser) -> dict[str, Any]:
    """The creator sets a seat nobody holds (before the start) to open, a bot, or an invite
    (the answer's ``invite`` holds the new token and link; an earlier token of that seat
    stops working)."""
    from dragonlair.bots import bot_names
    from dragonlair.games import plugin
    from dragonlair.server.lobby_service import table_json

    def work(s: OrmSession) -> dict[str, Any]:
        table = _creators_open_table(s, table_id, user.id)
        row = _seat_row(s, table_id, seat)
        bot: str | None = None
        if body.kind == "bot":
            bot = body.bot or plugin(table.game).default_bot
            known = bot_names(table.game)
            if bot not in known:
                raise ServerError("server.table.unknown_bot", 422, bot=body.bot, known=known)
        token = None
        if body.kind == "invite":
            token = issue(s, table_id, seat, user.id)
        else:
            s.execute(delete(Invite).where(Invite.table_id == table_id, Invite.seat == seat))
        done = s.execute(update(Seat).where(Seat.id == row.id, Seat.kind != "human")
                         .values(kind=body.kind, bot=bot, user_id=None))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise ServerError("server.seat.taken", 409, seat=seat, number=seat + 1)
        s.commit()
        out = table_json(s, table, detail=True)
        if token is not None:
            out["invite"] = invite_json(request, table_id, seat, token)
        return out

    hub: Hub = request.app.state.hub
    out = await hub.db(work)
    await hub.changed(table_id)
    return out


@router.delete("/tables/{table_id}/invites/{seat}",
               responses=refusals(401, 403, 404, 409, 422), response_model=TableInfoOut,
               response_model_exclude_unset=True)
async def revoke(table_id: str, seat: SeatNumber, request: Request,
                 user: CurrentUser) -> dict[str, Any]:
    """The creator revokes a seat's invite: its token stops working and the seat opens."""
    from dragonlair.server.lobby_service import table_json

    def work(s: OrmSession) -> dict[str, Any]:
        table = _creators_open_table(s, table_id, user.id)
        row = _seat_row(s, table_id, seat)
        if row.kind != "invite":
            raise ServerError("server.invite.none", 409, seat=seat, number=seat + 1)
        s.execute(delete(Invite).where(Invite.table_id == table_id, Invite.seat == seat))
        row.kind, row.bot, row.user_id = "open", None, None
        s.commit()
        return table_json(s, table, detail=True)

    hub: Hub = request.app.state.hub
    out = await hub.db(work)
    await hub.changed(table_id)
    return out
