"""Tournaments over REST (docs/tournaments.md, "API"): list, create, show, join, withdraw.

The client polls ``GET /api/tournaments/{id}`` every few seconds while it shows the page: it
is the standings, the games to watch and, for a player, their table to go to (``me.table``);
a poll also marks the player present (an arena player neither polling nor at a table for a
minute is withdrawn)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field

from dragonlair.server.accounts import CurrentUser, optional_user
from dragonlair.server.clocks import ClockIn
from dragonlair.server.db import User
from dragonlair.server.hub import Hub
from dragonlair.server.tournaments import service

router = APIRouter(prefix="/api", tags=["tournaments"])

TournamentId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
OptionalUser = Annotated[User | None, Depends(optional_user)]


class TournamentIn(BaseModel):
    game: str = Field(min_length=1, max_length=64)
    kind: Literal["arena", "swiss"]
    name: str = Field(min_length=1, max_length=80)
    rated: bool = False
    #: players a table (default: the game's smallest table)
    table_size: int | None = Field(default=None, ge=1, le=16)
    #: bots may fill a table (arena: leftover players after a short wait; Swiss: too few)
    bots: bool = False
    #: the bot that fills tables (default: the game's default bot)
    bot: str | None = Field(default=None, min_length=1, max_length=64)
    #: the tables' game options (size bounded by the request's body limit)
    options: dict[str, Any] = Field(default_factory=dict, max_length=16)
    clock: ClockIn | None = None
    #: seconds from now to the start (people: up to an hour; moderators: 30 days)
    starts_in_s: float = Field(default=0.0, ge=0.0, le=60 * 24 * 3600.0)
    #: an arena's length in minutes (5-180)
    minutes: float | None = Field(default=None, ge=0.0, le=180.0)
    #: a Swiss tournament's rounds (1-11)
    rounds: int | None = Field(default=None, ge=1, le=11)


class TournamentOut(BaseModel):
    """A tournament as lists show it."""

    id: str
    game: str
    kind: Literal["arena", "swiss"]
    name: str
    rated: bool
    status: Literal["scheduled", "running", "finished"]
    starts_at: float
    #: an arena's end
    ends_at: float | None
    #: a Swiss tournament's rounds
    rounds: int | None
    current_round: int
    #: players a table
    size: int
    #: bots may fill tables
    bots: bool
    bot: str | None
    clock: dict[str, Any] | None
    #: players in (not withdrawn)
    players: int
    created_by: int | None
    finished_at: float | None


class TournamentListOut(BaseModel):
    running: list[TournamentOut]
    scheduled: list[TournamentOut]
    finished: list[TournamentOut]


class StandingOut(BaseModel):
    """A row of the standings (tie-breaks: docs/tournaments.md, "Standings")."""

    rank: int
    user_id: int
    name: str
    score: float
    games: int
    wins: int
    #: wins in a row (an arena: ``fire`` from two on, the next games count double)
    streak: int
    fire: bool
    buchholz: float
    sonneborn_berger: float
    withdrawn: bool
    playing: bool
    byes: int


class GamePlayerOut(BaseModel):
    """A seat of a tournament game: its person (``user_id`` null: a bot), and once the game
    is over, their placing and the points it gave."""

    user_id: int | None
    name: str | None
    placing: int | None
    points: float | None


class TournamentGameOut(BaseModel):
    table_id: str
    round: int | None
    players: list[GamePlayerOut]


class TournamentMeOut(BaseModel):
    """The viewer in the tournament: ``table``: the game to go to now."""

    joined: bool
    withdrawn: bool
    table: str | None
    waiting: bool


class TournamentPageOut(TournamentOut):
    """The tournament's page: the server's time, standings, games running (to watch) and
    finished (the newest first), and the viewer (null: not signed in)."""

    now: float
    standings: list[StandingOut]
    running: list[TournamentGameOut]
    finished: list[TournamentGameOut]
    me: TournamentMeOut | None


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.get("/tournaments", response_model=TournamentListOut)
async def list_tournaments(request: Request) -> dict[str, Any]:
    """Tournaments running, scheduled (soonest first) and finished (latest first)."""
    out: dict[str, Any] = await hub_of(request).db(service.list_all)
    return out


@router.post("/tournaments", status_code=201, response_model=TournamentOut)
async def create(body: TournamentIn, request: Request, user: CurrentUser) -> dict[str, Any]:
    """A new tournament (registered people; see the limits in docs/tournaments.md)."""
    hub = hub_of(request)
    at = hub.clock.now()
    clock = None if body.clock is None else body.clock.model_dump()
    out: dict[str, Any] = await hub.db(lambda s: service.create(
        s, user, game=body.game, kind=body.kind, name=body.name, rated=body.rated,
        table_size=body.table_size, bots=body.bots, options=body.options, clock=clock,
        bot=body.bot,
        starts_in_s=body.starts_in_s, minutes=body.minutes, rounds=body.rounds, at=at))
    return out


@router.get("/tournaments/{tournament_id}", response_model=TournamentPageOut)
async def show(tournament_id: TournamentId, request: Request,
               user: OptionalUser) -> dict[str, Any]:
    """Standings, running games (to watch), finished games, and the viewer's status
    (``me.table``: the table to go to)."""
    hub = hub_of(request)
    at = hub.clock.now()
    uid = user.id if user is not None else None
    out: dict[str, Any] = await hub.db(lambda s: service.show(s, tournament_id, uid, at))
    return out


@router.post("/tournaments/{tournament_id}/join", response_model=TournamentPageOut)
async def join(tournament_id: TournamentId, request: Request,
               user: CurrentUser) -> dict[str, Any]:
    """Join (an arena: while it has not ended; Swiss: before it starts); again after a
    withdrawal: back in."""
    hub = hub_of(request)
    at = hub.clock.now()
    await hub.db(lambda s: service.join(s, tournament_id, user, at))
    out: dict[str, Any] = await hub.db(lambda s: service.show(s, tournament_id, user.id, at))
    return out


@router.post("/tournaments/{tournament_id}/withdraw", response_model=TournamentPageOut)
async def withdraw(tournament_id: TournamentId, request: Request,
                   user: CurrentUser) -> dict[str, Any]:
    """Leave: not paired again (a game running goes on by its table's rules)."""
    hub = hub_of(request)
    at = hub.clock.now()
    await hub.db(lambda s: service.withdraw(s, tournament_id, user.id))
    out: dict[str, Any] = await hub.db(lambda s: service.show(s, tournament_id, user.id, at))
    return out
