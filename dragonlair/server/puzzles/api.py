"""Puzzles over REST (docs/puzzles.md, "On the server").

``GET /api/puzzles?game=&theme=``: the next puzzle for the caller (one they have not tried,
nearest their puzzle rating; guests and strangers too, unrated); ``GET /api/puzzles/daily``:
the day's puzzle (UTC); ``GET /api/puzzles/themes``: per game, the themes and their counts;
``GET /api/puzzles/{id}``: one puzzle. None of these shows the solution, the options' values,
the explanation or the themes: ``POST /api/puzzles/{id}/answer`` does, after the answer.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field

from dragonlair.server.accounts import CurrentUser, optional_user
from dragonlair.server.buckets import Bucket
from dragonlair.server.db import User
from dragonlair.server.errors import ServerError
from dragonlair.server.hub import Hub
from dragonlair.server.profiles import PuzzleRatingOut
from dragonlair.server.puzzles import service

router = APIRouter(prefix="/api", tags=["puzzles"])

PuzzleId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
OptionalUser = Annotated[User | None, Depends(optional_user)]
GameQuery = Annotated[str | None, Query(min_length=1, max_length=64)]
ThemeQuery = Annotated[str | None, Query(min_length=1, max_length=128)]

#: the most answer buckets kept (one per account that answered lately)
MAX_BUCKETS = 10_000


class PuzzleOut(BaseModel):
    """A puzzle as the solver sees it before answering: the seat's view and legal options,
    the question (a catalogue key) and the unit of the values the answer will show."""

    id: str
    game: str
    game_version: int
    seat: int
    view: dict[str, Any]
    legal: list[str]
    question: str
    unit: str
    #: the puzzle's rating (Glicko-2), and its rated attempts
    rating: int
    plays: int
    #: the daily puzzle's date (UTC, ``YYYY-MM-DD``)
    day: str | None = None


class PuzzleAnswerIn(BaseModel):
    #: one of the puzzle's legal options, in record notation
    action: str = Field(min_length=1, max_length=200)


class PuzzleOptionOut(BaseModel):
    action: str
    value: float
    best: bool


class PuzzleRatingChangeOut(BaseModel):
    before: int
    after: int
    rd: int
    puzzle_before: int
    puzzle_after: int


class PuzzleAnswerOut(BaseModel):
    """The verdict and its proof: every option with its value (``unit``), best first."""

    id: str
    correct: bool
    answer: str
    solution: list[str]
    unit: str
    options: list[PuzzleOptionOut]
    margin: float
    question: str
    #: why: a catalogue key and its params
    explanation: dict[str, Any]
    themes: list[str]
    #: where it came from (a server table, the decision's index in its record)
    source: dict[str, Any]
    #: the first answer of a registered account is rated; ``rating``: the change
    rated: bool
    rating: PuzzleRatingChangeOut | None
    puzzle_rating: int


class PuzzleThemeCountOut(BaseModel):
    theme: str
    count: int


class PuzzleGameOut(BaseModel):
    game: str
    count: int
    themes: list[PuzzleThemeCountOut]


class PuzzleThemesOut(BaseModel):
    games: list[PuzzleGameOut]
    #: the caller's puzzle rating (``None``: a guest, a stranger, or no attempt yet)
    me: PuzzleRatingOut | None


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _throttle(request: Request, user: User) -> None:
    """At most ``puzzle_answers_per_minute`` answers a minute per account (per process)."""
    settings = request.app.state.settings
    buckets: dict[int, Bucket] | None = getattr(request.app.state, "puzzle_buckets", None)
    if buckets is None:
        buckets = request.app.state.puzzle_buckets = {}
    bucket = buckets.get(user.id)
    if bucket is None:
        if len(buckets) >= MAX_BUCKETS:
            buckets.clear()
        per_minute = float(settings.limits.puzzle_answers_per_minute)
        bucket = buckets[user.id] = Bucket(per_minute / 60.0, max(1, int(per_minute)))
    if not bucket.take():
        raise ServerError("server.puzzles.too_many", 429, retry_after=5,
                          limit=settings.limits.puzzle_answers_per_minute)


@router.get("/puzzles", response_model=PuzzleOut)
async def next_puzzle(request: Request, user: OptionalUser, game: GameQuery = None,
                      theme: ThemeQuery = None) -> dict[str, Any]:
    """The next puzzle (of ``game``, with ``theme``) for the caller."""
    hub = hub_of(request)
    at = service.wall()
    out: dict[str, Any] = await hub.db(lambda s: service.next_for(s, user, game, theme, at))
    return out


@router.get("/puzzles/daily", response_model=PuzzleOut)
async def daily(request: Request) -> dict[str, Any]:
    """The day's puzzle (UTC), the same for everyone."""
    at = service.wall()
    out: dict[str, Any] = await hub_of(request).db(lambda s: service.daily(s, at))
    return out


@router.get("/puzzles/themes", response_model=PuzzleThemesOut)
async def themes(request: Request, user: OptionalUser) -> dict[str, Any]:
    """Per game: its puzzles and each theme's count; and the caller's puzzle rating."""
    def work(s: Any) -> dict[str, Any]:
        return {"games": service.themes(s), "me": service.rating_json(s, user)}

    out: dict[str, Any] = await hub_of(request).db(work)
    return out


@router.get("/puzzles/{puzzle_id}", response_model=PuzzleOut)
async def show(puzzle_id: PuzzleId, request: Request) -> dict[str, Any]:
    """One puzzle, without its answer."""
    out: dict[str, Any] = await hub_of(request).db(
        lambda s: service.question_json(service.get(s, puzzle_id)))
    return out


@router.post("/puzzles/{puzzle_id}/answer", response_model=PuzzleAnswerOut)
async def answer(puzzle_id: PuzzleId, body: PuzzleAnswerIn, request: Request,
                 user: CurrentUser) -> dict[str, Any]:
    """Answer with one of the legal options: right or wrong, the solution, every option's
    value, the explanation, the themes, and the rating change of a rated attempt."""
    _throttle(request, user)
    at = service.wall()
    out: dict[str, Any] = await hub_of(request).db(
        lambda s: service.answer(s, puzzle_id, user, body.action, at))
    return out
