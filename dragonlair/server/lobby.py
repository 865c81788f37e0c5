"""The lobby (REST, described by the OpenAPI document at ``/openapi.json``): the games and
their option specs, tables (create, list, show, join, leave, start) and finished records.

The routes read the request, call :mod:`dragonlair.server.lobby_service` (the database
work) and shape the typed answer; a running table's changes go through its runtime
(:mod:`dragonlair.server.table`), and :meth:`Hub.changed
<dragonlair.server.hub.Hub.changed>` tells its viewers and the other processes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from dragonlair.server import chat, invites
from dragonlair.server import lobby_service as service
from dragonlair.server.accounts import DB, CurrentUser
from dragonlair.server.clocks import ClockIn
from dragonlair.server.hub import Hub
from dragonlair.server.presence import AwayIn
from dragonlair.server.responses import NewTableOut, RecordOut, TableInfoOut

router = APIRouter(prefix="/api", tags=["lobby"])

STATUSES = ("open", "running", "finished", "expired")


class OptionPresetOut(BaseModel):
    """A built-in value of an option, offered by name (:class:`dragonlair.core.game.
    OptionPreset`): ``label`` is a catalogue code."""

    id: str
    label: str
    value: Any


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
    #: built-in values offered by name (a Farkle scoring table, a deck)
    presets: list[OptionPresetOut] | None = None
    #: the value may come from a file, checked by ``POST /api/games/{id}/options/{name}/file``
    upload: bool = False


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
    #: the table option each further kind of workshop entry sets (``deck``, ``scoring``)
    workshop_options: dict[str, str] = {}


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
            options=[OptionSpecOut(**spec.to_json(), upload=spec.name in p.option_uploads)
                     for spec in info.options],
            bots=bot_names(game_id), default_bot=p.default_bot, strongest_bot=p.strongest_bot,
            rules=p.rules is not None, tips=p.tips is not None,
            analysis=p.analysis is not None,
            characters_option=p.characters_option,
            workshop_options=dict(p.workshop_options)))
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


@router.post("/tables", status_code=201, response_model=NewTableOut,
             response_model_exclude_unset=True)
def create_table(body: TableIn, request: Request, user: CurrentUser, s: DB) -> dict[str, Any]:
    """A new table, open for players: options are checked by the game (an
    :class:`~dragonlair.core.errors.OptionError` comes back as 422 with its code)."""
    seats = None if body.seats is None else [(seat.kind, seat.bot) for seat in body.seats]
    out, tokens = service.create_table(
        s, user.id, body.game, body.options, seats, body.rated, body.clock, body.away,
        body.takeover_bot, request.app.state.settings, hub_of(request).clock)
    out["invites"] = [invites.invite_json(request, out["id"], i, t) for i, t in tokens]
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
    return service.list_tables(s, status or ["open", "running"], hub_of(request).clock, game,
                               limit, offset)


@router.get("/tables/{table_id}", response_model=TableInfoOut, response_model_exclude_unset=True)
def show_table(table_id: str, request: Request, s: DB) -> dict[str, Any]:
    """The table, its seats, ``seq`` and ``spectators`` (viewers without a seat, counted
    in this process)."""
    out = service.show_table(s, table_id)
    out["spectators"] = chat.spectators(hub_of(request).tables.get(table_id))
    return out


@router.post("/tables/{table_id}/join", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def join(table_id: str, body: JoinIn, request: Request,
               user: CurrentUser) -> dict[str, Any]:
    """Take an open seat (the one named, or the first) of a table not yet started."""
    at = hub_of(request).clock.now()
    out = await hub_of(request).db(
        lambda s: service.join(s, table_id, user.id, body.seat, body.invite, at))
    await hub_of(request).changed(table_id)
    return out


@router.post("/tables/{table_id}/leave", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def leave(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Give up one's seat: at a table not yet started it becomes open; in a running game a
    bot takes it (the leaver is ranked last if the table is rated)."""
    if await hub_of(request).db(lambda s: service.status_of(s, table_id)) == "running":
        return await take_over(table_id, request, user, "left")
    out = await hub_of(request).db(lambda s: service.vacate(s, table_id, user.id))
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
    await hub.db(lambda s: service.get_table(s, table_id))  # 404 for an unknown table
    runtime = await hub.table(table_id)
    await runtime.takeover.leave(user.id, reason)
    return await hub.db(lambda s: service.show_table(s, table_id))


@router.post("/tables/{table_id}/start", response_model=TableInfoOut,
             response_model_exclude_unset=True)
async def start(table_id: str, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Start a table whose seats are all taken (by its creator or a seated player)."""
    at = hub_of(request).clock.now()
    out = await hub_of(request).db(lambda s: service.start(s, table_id, user.id, at))
    await hub_of(request).changed(table_id)
    return out


@router.get("/tables/{table_id}/record", response_model=RecordOut,
            response_model_exclude_unset=True)
def record(table_id: str, s: DB) -> dict[str, Any]:
    """A finished table as a record ``dragonlair replay`` accepts (docs/records.md). A table
    still being played has none: its record would tell the chance outcomes to come."""
    return service.record(s, table_id)


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


# ------------------------------------------------------------ open tables expire
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
            ids = await hub.db(lambda s: service.expire_open(s, at))
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
