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


class ProfileOut(BaseModel):
    username: str
    display_name: str
    guest: bool
    created_at: float
    ratings: list[GameRatingOut]
    recent: list[RecentOut]


def _known_game(game: str) -> None:
    from dragonlair.games import game_ids

    if game not in game_ids():
        raise ServerError("server.game.not_found", 404, game=game[:64])


def player_of(s: OrmSession, rating: Rating) -> PlayerOut:
    if rating.user_id is not None:
        user = s.get(User, rating.user_id)
        if user is not None:
            return PlayerOut(kind="user", name=user.username, display_name=user.display_name)
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
    """A player's profile: ratings per game with their history, and recent finished tables."""
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
    return ProfileOut(username=user.username, display_name=user.display_name,
                      guest=user.is_guest, created_at=user.created_at, ratings=ratings,
                      recent=recent)
