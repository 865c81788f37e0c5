"""The lobby (REST, described by the OpenAPI document at ``/openapi.json``): the games and
their option specs, tables (create, list, show, join, leave, start) and finished records."""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core.errors import DragonlairError
from dragonlair.server import chat, invites
from dragonlair.server.accounts import DB, CurrentUser
from dragonlair.server.clocks import ClockIn, ClockSpec
from dragonlair.server.db import ActionRow, GameTable, Seat, SeatChange, now
from dragonlair.server.errors import ServerError
from dragonlair.server.presence import AwayIn, away_policy
from dragonlair.server.responses import NewTableOut, RecordOut, TableInfoOut
from dragonlair.server.tables import Hub, action_count, entry, read_seats

router = APIRouter(prefix="/api", tags=["lobby"])

STATUSES = ("open", "running", "finished", "expired")


class OptionSpecOut(BaseModel):
    """One option of a game, as a lobby form field (:meth:`dragonlair.core.game.OptionSpec`)."""

    name: str
    kind: str
    default: Any
    nullable: bool
    help: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: list[Any] | None = None


class GameOut(BaseModel):
    """A game of the registry: everything a client needs to list it and build its forms,
    read from its plugin, so that no client names a game id (a new game appears everywhere)."""

    id: str
    name: str
    min_players: int
    max_players: int
    version: int
    options: list[OptionSpecOut]
    bots: list[str]
    default_bot: str
    strongest_bot: str
    #: the game has a rules page (``GET /api/games/{id}/rules``)
    rules: bool
    #: the game has a tips page (``GET /api/games/{id}/tips``)
    tips: bool
    #: the game has hints and post-game analysis (``/api/tables/{id}/hint``, ``/analysis``)
    analysis: bool = False
    #: the option holding a table's custom characters (the character workshop), or null
    characters_option: str | None


@router.get("/games", response_model_exclude_unset=True)
def games() -> list[GameOut]:
    """Every game of the registry, in its order: id, name, players, version, its option specs
    (a form), its bots, and which pages and tools it has (rules, tips, characters)."""
    from dragonlair.bots import bot_names
    from dragonlair.games import game_ids, plugin

    out = []
    for game_id in game_ids():
        p = plugin(game_id)
        info = p.info
        out.append(GameOut(
            id=info.id, name=info.name, min_players=info.min_players,
            max_players=info.max_players, version=info.version,
            options=[OptionSpecOut(**spec.to_json()) for spec in info.options],
            bots=bot_names(game_id), default_bot=p.default_bot, strongest_bot=p.strongest_bot,
            rules=p.rules is not None, tips=p.tips is not None,
            analysis=p.analysis is not None,
            characters_option=p.characters_option))
    return out


class SeatIn(BaseModel):
    """A seat of a new table: ``me`` (the creator), ``open`` (anyone may join), ``bot``
    (``bot``: one of the game's bot names; none: the game's default bot) or ``invite``
    (reserved for whoever holds its invite link: the answer's ``invites``)."""

    kind: Literal["me", "open", "bot", "invite"]
    bot: str | None = Field(default=None, min_length=1, max_length=64)


class TableIn(BaseModel):
    game: str = Field(min_length=1, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    #: one entry per seat; none: the creator and open seats
    seats: list[SeatIn] | None = Field(default=None, min_length=1, max_length=16)
    rated: bool = False
    #: none, real-time or turn-based (docs/server.md, "Clocks"); none given: no clock
    clock: ClockIn | None = None
    #: the bot that takes the seat of a player who times out or leaves (default: the
    #: game's default bot)
    takeover_bot: str | None = Field(default=None, min_length=1, max_length=64)
    #: when a player is away (docs/server.md, "Away players and abandoned tables"):
    #: ``{"kind": "bot", "seconds": S}`` or ``{"kind": "wait"}``; none given: a bot after
    #: the server's away time, or waiting on a turn-based table (its clock decides)
    away: AwayIn | None = None


class JoinIn(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=15)
    #: an invite token (dragonlair/server/invites.py): takes the seat it reserves
    invite: str | None = Field(default=None, min_length=16, max_length=128,
                               pattern=r"^[A-Za-z0-9_-]+$")


def table_json(s: OrmSession, table: GameTable, detail: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": table.id, "game": table.game, "game_version": table.game_version,
        "status": table.status, "rated": table.rated, "options": table.options,
        "created_by": table.created_by, "created_at": table.created_at,
        "started_at": table.started_at, "finished_at": table.finished_at,
        "seats": [seat.to_json() for seat in read_seats(s, table.id)],
        "result": table.result,
        "clock": table.clock, "takeover_bot": table.takeover_bot,
        "away": table.away, "expires_at": table.expires_at,
    }
    if detail:
        out["seq"] = action_count(s, table.id)
    return out


def new_table_id() -> str:
    """A fresh table id: 72 random bits, URL-safe, never starting with ``-`` or ``_`` (so
    that it can follow a command-line option such as ``--table`` without being read as one)."""
    while True:
        table_id = secrets.token_urlsafe(9)
        if table_id[0].isalnum():
            return table_id


def get_table(s: OrmSession, table_id: str) -> GameTable:
    table = s.get(GameTable, table_id) if len(table_id) <= 32 else None
    if table is None:
        raise ServerError("server.table.not_found", 404, table=table_id[:32])
    return table


@router.post("/tables", status_code=201, response_model=NewTableOut,
             response_model_exclude_unset=True)
def create_table(body: TableIn, request: Request, user: CurrentUser, s: DB) -> dict[str, Any]:
    """A new table, open for players: options are checked by the game (an
    :class:`~dragonlair.core.errors.OptionError` comes back as 422 with its code)."""
    from dragonlair.bots import bot_names
    from dragonlair.games import game_ids, make_game, plugin

    if body.game not in game_ids():
        raise ServerError("core.game.unknown", 422, game=body.game, known=game_ids())
    p = plugin(body.game)
    options = dict(body.options)
    seats = body.seats or [SeatIn(kind="me")]
    if body.seats is not None and "players" not in options and any(
            spec.name == "players" for spec in p.info.options):
        options["players"] = len(body.seats)
    try:
        game = make_game(body.game, options)
    except DragonlairError as exc:
        raise ServerError(exc.code, 422, **exc.params) from None
    if body.seats is None:
        seats = [SeatIn(kind="me")] + [SeatIn(kind="open")] * (game.num_players - 1)
    if len(seats) != game.num_players:
        raise ServerError("server.table.seat_count", 422, seats=len(seats),
                          players=game.num_players)
    if sum(seat.kind == "me" for seat in seats) > 1:
        raise ServerError("server.table.one_seat_each", 422)
    known = bot_names(body.game)
    for seat in seats:
        if seat.kind == "bot" and (seat.bot or p.default_bot) not in known:
            raise ServerError("server.table.unknown_bot", 422, bot=seat.bot, known=known)
    if body.takeover_bot is not None and body.takeover_bot not in known:
        raise ServerError("server.table.unknown_bot", 422, bot=body.takeover_bot, known=known)
    settings = request.app.state.settings
    spec = ClockSpec.from_input(body.clock)
    away = away_policy(body.away, spec, settings)
    opened = s.scalar(select(func.count()).select_from(GameTable).where(
        GameTable.created_by == user.id, GameTable.status == "open")) or 0
    limit = request.app.state.settings.limits.max_open_tables_per_user
    if opened >= limit:
        raise ServerError("server.table.too_many_open", 429, limit=limit)
    table = GameTable(id=new_table_id(), game=body.game,
                      game_version=game.info.version, options=game.record_options(),
                      status="open", rated=body.rated, created_by=user.id,
                      clock=spec.to_json(), away=away.to_json(),
                      expires_at=hub_of(request).clock.now() + settings.open_table_ttl_s,
                      takeover_bot=body.takeover_bot or p.default_bot)
    s.add(table)
    s.flush()
    for i, seat in enumerate(seats):
        s.add(Seat(table_id=table.id, seat=i,
                   kind={"me": "human", "open": "open", "bot": "bot",
                         "invite": "invite"}[seat.kind],
                   user_id=user.id if seat.kind == "me" else None,
                   bot=(seat.bot or p.default_bot) if seat.kind == "bot" else None))
    tokens = [(i, invites.issue(s, table.id, i, user.id))
              for i, seat in enumerate(seats) if seat.kind == "invite"]
    s.commit()
    out = table_json(s, table, detail=True)
    out["invites"] = [invites.invite_json(request, table.id, i, t) for i, t in tokens]
    return out


@router.get("/tables", response_model=list[TableInfoOut], response_model_exclude_unset=True)
def list_tables(s: DB, request: Request,
                status: Annotated[list[Literal["open", "running", "finished", "expired"]] | None,
                                  Query()] = None,
                limit: Annotated[int, Query(ge=1, le=200)] = 100,
                offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
                game: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
                ) -> list[dict[str, Any]]:
    """Tables by status (default: open and running: those one can still join or watch),
    newest first; a page of ``limit`` from ``offset`` on (a shorter page is the last), of
    one ``game`` if given. An open table past its expiry is not listed as open even before
    the sweep marks it ``expired``."""
    wanted = status or ["open", "running"]
    query = select(GameTable).where(GameTable.status.in_(wanted))
    if "open" in wanted:
        at = hub_of(request).clock.now()
        query = query.where((GameTable.status != "open") | GameTable.expires_at.is_(None)
                            | (GameTable.expires_at > at))
    if game is not None:
        query = query.where(GameTable.game == game)
    tables = s.scalars(query.order_by(GameTable.created_at.desc(), GameTable.id.desc())
                       .limit(limit).offset(offset)).all()
    return [table_json(s, t) for t in tables]


@router.get("/tables/{table_id}", response_model=TableInfoOut, response_model_exclude_unset=True)
def show_table(table_id: str, request: Request, s: DB) -> dict[str, Any]:
    """The table, its seats, ``seq`` and ``spectators`` (viewers without a seat, counted
    in this process)."""
    out = table_json(s, get_table(s, table_id), detail=True)
    out["spectators"] = chat.spectators(hub_of(request).tables.get(table_id))
    return out


@router.post("/tables/{table_id}/join", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def join(table_id: str, body: JoinIn, request: Request,
               user: CurrentUser) -> dict[str, Any]:
    """Take an open seat (the one named, or the first) of a table not yet started."""
    at = hub_of(request).clock.now()

    def work(s: OrmSession) -> dict[str, Any]:
        table = get_table(s, table_id)
        expire_if_due(s, table, at)
        if table.status != "open":
            raise ServerError("server.table.not_open", 409, status=table.status)
        if s.scalar(select(Seat.seat).where(Seat.table_id == table_id,
                                            Seat.user_id == user.id)) is not None:
            raise ServerError("server.table.already_seated", 409)
        if body.invite is not None:  # the seat its invite reserves (invites.py)
            invites.redeem(s, table_id, user.id, body.invite, body.seat)
            s.commit()
            return table_json(s, table, detail=True)
        query = select(Seat.seat).where(Seat.table_id == table_id, Seat.kind == "open")
        if body.seat is not None:
            query = query.where(Seat.seat == body.seat)
        seat = s.scalar(query.order_by(Seat.seat).limit(1))
        if seat is None:
            raise ServerError("server.table.no_open_seat", 409, seat=body.seat)
        done = s.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat,
                                            Seat.kind == "open")
                         .values(kind="human", user_id=user.id))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise ServerError("server.table.no_open_seat", 409, seat=seat)
        s.commit()
        return table_json(s, table, detail=True)

    out = await hub_of(request).db(work)
    await hub_of(request).changed(table_id)
    return out


@router.post("/tables/{table_id}/leave", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def leave(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Give up one's seat: at a table not yet started it becomes open; in a running game a
    bot takes it (the leaver is ranked last if the table is rated)."""
    if await hub_of(request).db(lambda s: get_table(s, table_id).status) == "running":
        return await take_over(table_id, request, user, "left")

    def work(s: OrmSession) -> dict[str, Any]:
        table = get_table(s, table_id)
        if table.status != "open":
            raise ServerError("server.table.not_open", 409, status=table.status)
        done = s.execute(update(Seat).where(Seat.table_id == table_id,
                                            Seat.user_id == user.id)
                         .values(kind="open", user_id=None))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise ServerError("server.table.not_seated", 409)
        s.commit()
        return table_json(s, table, detail=True)

    out = await hub_of(request).db(work)
    await hub_of(request).changed(table_id)
    return out


@router.post("/tables/{table_id}/resign", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def resign(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Resign a running game: the table's ``takeover_bot`` finishes it for you and you are
    ranked last if the table is rated."""
    return await take_over(table_id, request, user, "resigned")


async def take_over(table_id: str, request: Request, user: Any,
                    reason: str) -> dict[str, Any]:
    """A bot takes ``user``'s seat of a running table (``reason``: left, resigned)."""
    hub = hub_of(request)
    await hub.db(lambda s: get_table(s, table_id))  # 404 for an unknown table
    runtime = await hub.table(table_id)
    await runtime.leave(user.id, reason)
    return await hub.db(lambda s: table_json(s, get_table(s, table_id), detail=True))


@router.post("/tables/{table_id}/start", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def start(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Start a table whose seats are all taken (by its creator or a seated player)."""
    at = hub_of(request).clock.now()

    def work(s: OrmSession) -> dict[str, Any]:
        table = get_table(s, table_id)
        expire_if_due(s, table, at)
        if table.status != "open":
            raise ServerError("server.table.not_open", 409, status=table.status)
        seats = read_seats(s, table_id)
        if table.created_by != user.id and all(x.user_id != user.id for x in seats):
            raise ServerError("server.table.not_yours", 403)
        still = [x.seat for x in seats if x.kind in ("open", "invite")]
        if still:
            raise ServerError("server.table.seats_open", 409, seats=still)
        done = s.execute(update(GameTable).where(GameTable.id == table_id,
                                                 GameTable.status == "open")
                         .values(status="running", started_at=now()))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise ServerError("server.table.not_open", 409, status="running")
        s.commit()
        s.refresh(table)
        return table_json(s, table, detail=True)

    out = await hub_of(request).db(work)
    await hub_of(request).changed(table_id)
    return out


@router.get("/tables/{table_id}/record", response_model=RecordOut,
            response_model_exclude_unset=True)
def record(table_id: str, s: DB) -> dict[str, Any]:
    """A finished table as a record ``dragonlair replay`` accepts (docs/records.md). A table
    still being played has none: its record would tell the chance outcomes to come."""
    from dragonlair.core.records import Record

    table = get_table(s, table_id)
    if table.status != "finished":
        raise ServerError("server.table.not_finished", 409, status=table.status)
    seats = []
    for seat in read_seats(s, table_id):
        if seat.kind == "bot":
            seats.append({"name": seat.name or f"bot {seat.bot}", "player": f"bot:{seat.bot}"})
        else:
            seats.append({"name": seat.name or f"p{seat.seat}", "player": "human"})
    rows = s.execute(select(ActionRow.seat, ActionRow.action)
                     .where(ActionRow.table_id == table_id).order_by(ActionRow.seq)).all()
    changes = list(s.scalars(select(SeatChange).where(SeatChange.table_id == table_id)
                             .order_by(SeatChange.id)))
    for change in changes:  # the seat's player is the person; a bot finished for them
        seats[change.seat]["player"] = "human"
    takeovers = [{"seat": c.seat, "seq": c.seq, "reason": c.reason, "bot": c.bot}
                 for c in changes]
    rec = Record(table.game, table.game_version, dict(table.options), seats,
                 [entry(r[0], r[1]) for r in rows], table.result,
                 meta={"server_table": table.id, "started_at": table.started_at,
                       "finished_at": table.finished_at,
                       **({"takeovers": takeovers} if takeovers else {})})
    out: dict[str, Any] = json.loads(json.dumps(rec.to_json()))
    return out


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub



# ------------------------------------------------------------ open tables expire
def expire_if_due(s: OrmSession, table: GameTable, at: float) -> None:
    """An open table past its ``expires_at`` becomes ``expired`` now (committed), before a
    join or a start is judged on it (the sweep may not have come yet)."""
    if table.status == "open" and table.expires_at is not None and table.expires_at <= at:
        expire_open(s, at, table.id)
        s.refresh(table)


def expire_open(s: OrmSession, at: float, table_id: str | None = None) -> list[str]:
    """Mark every open table whose ``expires_at`` has passed (or only ``table_id``)
    ``expired``, with ``finished_at`` the moment; the ids (docs/server.md, "Away players
    and abandoned tables"). Many processes may run it at once: the update decides."""
    query = select(GameTable.id).where(GameTable.status == "open",
                                       GameTable.expires_at.is_not(None),
                                       GameTable.expires_at <= at)
    if table_id is not None:
        query = query.where(GameTable.id == table_id)
    ids = list(s.scalars(query))
    if ids:
        s.execute(update(GameTable).where(GameTable.id.in_(ids), GameTable.status == "open")
                  .values(status="expired", finished_at=now()))
        s.commit()
    return ids


class Expiry:
    """Every ``Settings.expiry_sweep_s`` seconds (of the hub's clock), open tables past
    their expiry become ``expired``; their viewers here are told (an ``update`` with the
    status) and so are the other processes."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.timer: Any = None

    def start(self) -> None:
        def due() -> None:
            self.timer = None
            if not self.hub.closing:
                self.hub.spawn(self.sweep())

        self.timer = self.hub.clock.call_at(
            self.hub.clock.now() + self.hub.settings.expiry_sweep_s, due)

    async def sweep(self) -> None:
        hub = self.hub
        try:
            at = hub.clock.now()
            ids = await hub.db(lambda s: expire_open(s, at))
            for table_id in ids:
                if table_id in hub.tables:
                    await hub.changed(table_id)
                else:
                    hub.announce(table_id, {"k": "lobby"}, None, None)
        finally:
            if not hub.closing and self.timer is None:
                self.start()

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
