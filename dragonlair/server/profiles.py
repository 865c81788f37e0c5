"""Leaderboards and player profiles (REST): openskill ratings per game, each player's rating
history and recent finished tables (docs/server.md, "Ratings")."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.accounts import DB
from dragonlair.server.db import GameTable, Rating, RatingPoint, Seat, SeatChange, User
from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

router = APIRouter(prefix="/api", tags=["ratings"])

#: the most history points and recent tables a profile lists
HISTORY = 100
RECENT = 20


class PlayerOut(BaseModel):
    """A rated player: a person (``user``: username, display name) or a server bot
    (``bot``: its name, which is its strength)."""

    kind: Literal["user", "bot"]
    name: str
    display_name: str
    #: a person's profile address (``/api/users/{profile}``): the username of an account,
    #: ``@<id>`` for a guest (whose username is an internal handle nobody is shown)
    profile: str | None = None


def user_player(user: User) -> PlayerOut:
    return PlayerOut(kind="user", name=user.username, display_name=user.display_name,
                     profile=profile_key(user))


def profile_key(user: User) -> str:
    """Where a person's profile is: their username, or ``@<id>`` for a guest."""
    return f"@{user.id}" if user.is_guest else user.username


class LeaderOut(BaseModel):
    rank: int
    player: PlayerOut
    mu: float
    sigma: float
    #: ``mu - 3 sigma``: what the board is sorted by
    ordinal: float
    games: int


class LeaderboardOut(BaseModel):
    game: str
    players: list[LeaderOut]


class PointOut(BaseModel):
    """The rating after one rated game."""

    table_id: str
    at: float
    placing: int
    mu: float
    sigma: float
    ordinal: float


class GameRatingOut(BaseModel):
    game: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    #: oldest first (the newest 100)
    history: list[PointOut]


class RecentOut(BaseModel):
    """A finished table the player sat at."""

    table_id: str
    game: str
    rated: bool
    finished_at: float | None
    seat: int
    #: the engine's placing (1 = first); ``None`` if unknown
    placing: int | None
    #: whether a bot took the seat (timed out, left, resigned)
    taken_over: bool


class PuzzleRatingOut(BaseModel):
    """A registered player's puzzle rating (Glicko-2; docs/puzzles.md, "On the server")."""

    rating: int
    rd: int
    attempts: int
    solved: int


class ProfileOut(BaseModel):
    #: the login name of an account (a guest's is an internal handle: show ``display_name``)
    username: str
    #: where this profile is (:func:`profile_key`)
    profile: str
    display_name: str
    guest: bool
    created_at: float
    ratings: list[GameRatingOut]
    recent: list[RecentOut]
    #: the puzzle rating (``None``: a guest, or no rated puzzle yet)
    puzzles: PuzzleRatingOut | None = None


class RatingChangeOut(BaseModel):
    """One seat's rating change from a rated table: its rated player, the place the rating
    used, and the ordinal before and after (before: the player's previous point, or a fresh
    rating for a first game)."""

    seat: int
    player: PlayerOut
    placing: int
    before: float
    after: float


class TableRatingsOut(BaseModel):
    """What a finished table did to ratings: nothing for a friendly one (``rated`` false,
    no changes) or one that is not finished yet."""

    table_id: str
    rated: bool
    #: who sat at each seat, by seat (``None``: nobody, or a bot of a friendly table), so that
    #: names can lead to profiles
    players: list[PlayerOut | None]
    changes: list[RatingChangeOut]


def _known_game(game: str) -> None:
    from dragonlair.games import game_ids

    if game not in game_ids():
        raise ServerError("server.game.not_found", 404, game=game[:64])


def player_of(s: OrmSession, rating: Rating) -> PlayerOut:
    if rating.user_id is not None:
        user = s.get(User, rating.user_id)
        if user is not None:
            return user_player(user)
    bot = rating.bot or rating.player
    return PlayerOut(kind="bot", name=bot, display_name=f"bot {bot}")


@router.get("/leaderboard/{game}", response_model=LeaderboardOut)
def leaderboard(game: Annotated[str, Path(max_length=64)], s: DB,
                limit: Annotated[int, Query(ge=1, le=200)] = 50,
                offset: Annotated[int, Query(ge=0, le=100_000)] = 0) -> LeaderboardOut:
    """A game's rated players (people and server bots, on one scale), best ordinal first."""
    _known_game(game)
    rows = s.scalars(select(Rating).where(Rating.game == game)
                     .order_by(Rating.ordinal.desc(), Rating.mu.desc(), Rating.id)
                     .offset(offset).limit(limit)).all()
    return LeaderboardOut(game=game, players=[
        LeaderOut(rank=offset + i + 1, player=player_of(s, r), mu=r.mu, sigma=r.sigma,
                  ordinal=r.ordinal, games=r.games) for i, r in enumerate(rows)])


@router.get("/users/{name}", response_model=ProfileOut)
def profile(name: Annotated[str, Path(max_length=64)], s: DB) -> ProfileOut:
    """A player's profile: ratings per game with their history, and recent finished tables.
    ``name`` is a username, or ``@<id>`` (how a guest's profile is addressed)."""
    if name.startswith("@") and name[1:].isdigit() and len(name) < 20:
        user = s.get(User, int(name[1:]))
    else:
        user = s.scalar(select(User).where(User.username == name))
    if user is None:
        raise ServerError("server.user.not_found", 404, user=name[:64])
    ratings = []
    for r in s.scalars(select(Rating).where(Rating.user_id == user.id).order_by(Rating.game)):
        points = s.scalars(select(RatingPoint).where(RatingPoint.rating_id == r.id)
                           .order_by(RatingPoint.id.desc()).limit(HISTORY)).all()
        ratings.append(GameRatingOut(
            game=r.game, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, games=r.games,
            history=[PointOut(table_id=p.table_id, at=p.created_at, placing=p.placing,
                              mu=p.mu, sigma=p.sigma, ordinal=p.ordinal)
                     for p in reversed(points)]))
    rows = s.execute(select(GameTable, Seat.seat).join(Seat, Seat.table_id == GameTable.id)
                     .where(Seat.user_id == user.id, GameTable.status == "finished")
                     .order_by(GameTable.finished_at.desc()).limit(RECENT)).all()
    taken = {(t, seat) for t, seat in s.execute(
        select(SeatChange.table_id, SeatChange.seat).where(SeatChange.user_id == user.id))}
    recent = []
    for table, seat in rows:
        placings = (table.result or {}).get("placings")
        placing = (placings[seat] if isinstance(placings, list) and seat < len(placings)
                   and isinstance(placings[seat], int) else None)
        recent.append(RecentOut(table_id=table.id, game=table.game, rated=table.rated,
                                finished_at=table.finished_at, seat=seat, placing=placing,
                                taken_over=(table.id, seat) in taken))
    return ProfileOut(username=user.username, profile=profile_key(user),
                      display_name=user.display_name,
                      guest=user.is_guest, created_at=user.created_at, ratings=ratings,
                      recent=recent, puzzles=_puzzle_rating(s, user))


def _puzzle_rating(s: OrmSession, user: User) -> PuzzleRatingOut | None:
    from dragonlair.server.puzzles.service import rating_json

    out = rating_json(s, user)
    return None if out is None else PuzzleRatingOut(**out)


@router.get("/tables/{table_id}/ratings", response_model=TableRatingsOut,
            responses=refusals(404))
def table_ratings(table_id: Annotated[str, Path(max_length=64)], s: DB) -> TableRatingsOut:
    """Each seat's rating change from a rated table (the end of game screen's "before ->
    after"); public, as leaderboards and profiles are."""
    from dragonlair.server.lobby_service import get_table
    from dragonlair.server.ratings import MODEL, ordinal

    table = get_table(s, table_id)
    fresh = MODEL.rating()
    start = ordinal(float(fresh.mu), float(fresh.sigma))
    changes = []
    for point in s.scalars(select(RatingPoint).where(RatingPoint.table_id == table.id)
                           .order_by(RatingPoint.seat)):
        rating = s.get(Rating, point.rating_id)
        if rating is None:
            continue
        before = s.scalar(select(RatingPoint.ordinal)
                          .where(RatingPoint.rating_id == rating.id,
                                 RatingPoint.id < point.id,
                                 RatingPoint.table_id != table.id)
                          .order_by(RatingPoint.id.desc()).limit(1))
        changes.append(RatingChangeOut(seat=point.seat, player=player_of(s, rating),
                                       placing=point.placing,
                                       before=start if before is None else before,
                                       after=point.ordinal))
    players: list[PlayerOut | None] = []
    for seat in s.scalars(select(Seat).where(Seat.table_id == table.id).order_by(Seat.seat)):
        user = s.get(User, seat.user_id) if seat.user_id is not None else None
        players.append(user_player(user) if user is not None
                       else PlayerOut(kind="bot", name=seat.bot, display_name=f"bot {seat.bot}")
                       if seat.kind == "bot" and seat.bot else None)
    return TableRatingsOut(table_id=table.id, rated=table.rated, players=players,
                           changes=changes)
