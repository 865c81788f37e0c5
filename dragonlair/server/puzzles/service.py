"""Puzzles on the server (docs/puzzles.md, "On the server"): store, choose, answer, rate.

Every function takes an ORM session (the hub's database thread runs them). What a client may
see before it answers is :func:`question_json`: the seat's view, the legal options, the
question, the puzzle's rating; never the solution, the options' values, the explanation or
the themes (themes can give the answer away; lichess too shows them after). The answer
(:func:`answer`) returns all of it, the proof included.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession

from dragonlair.core import glicko2
from dragonlair.puzzles.model import Puzzle as PuzzleData
from dragonlair.server.db import User, now
from dragonlair.server.errors import ServerError
from dragonlair.server.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleTheme

log = logging.getLogger("dragonlair.server")

JSON = dict[str, Any]

#: the shipped puzzles (dragonlair/puzzles/data/<game>/*.json)
DATA = Path(__file__).resolve().parents[2] / "puzzles" / "data"
#: a rating period for the deviation's growth while a solver is away (a day)
PERIOD_S = 86400.0
#: the longest puzzle JSON the server stores (characters): a mined or shipped puzzle is far
#: smaller; a bigger one is refused, not stored
MAX_PUZZLE_CHARS = 200_000
#: rows a statement inserts
CHUNK = 100


# ------------------------------------------------------------------------- storing
def _insert_ignoring(s: OrmSession, table: Any, rows: list[JSON]) -> int:
    """Insert ``rows`` into ``table``; rows whose key exists are skipped (``INSERT ... ON
    CONFLICT DO NOTHING`` on SQLite and PostgreSQL). The number inserted (counted from
    ``RETURNING``: a driver's rowcount of such a statement is not to be trusted)."""
    if not rows:
        return 0
    if s.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        pg = pg_insert(table).values(rows).on_conflict_do_nothing()
        return len(s.execute(pg.returning(*table.primary_key.columns)).all())
    from sqlalchemy.dialects.sqlite import insert as lite_insert

    lite = lite_insert(table).values(rows).on_conflict_do_nothing()
    return len(s.execute(lite.returning(*table.primary_key.columns)).all())


def store(s: OrmSession, puzzles: Iterable[PuzzleData], table_id: str | None = None,
          at: float | None = None) -> int:
    """Insert ``puzzles`` (each at its difficulty estimate, a newcomer's deviation); one
    already stored (the same position, from another game) is left as it is. Not committed;
    the number new."""
    stamp = now() if at is None else at
    rows: list[JSON] = []
    themed: list[JSON] = []
    for p in puzzles:
        data = p.to_json()
        if len(json.dumps(data)) > MAX_PUZZLE_CHARS:
            log.warning("puzzle %s: too big to store, skipped", p.id)
            continue
        rows.append({
            "id": p.id, "game": p.game, "game_version": p.game_version, "data": data,
            "themes": list(p.themes), "rating": float(p.difficulty),
            "rd": glicko2.DEFAULT_RD, "volatility": glicko2.DEFAULT_VOLATILITY,
            "plays": 0, "solved": 0, "created_at": stamp, "table_id": table_id})
        themed.extend({"puzzle_id": p.id, "theme": t, "game": p.game}
                      for t in dict.fromkeys(p.themes))
    added = 0
    for i in range(0, len(rows), CHUNK):
        added += _insert_ignoring(s, Puzzle.__table__, rows[i:i + CHUNK])
    for i in range(0, len(themed), CHUNK):  # a stored puzzle's themes are the same ones
        _insert_ignoring(s, PuzzleTheme.__table__, themed[i:i + CHUNK])
    return added


def shipped(root: Path | None = None) -> list[PuzzleData]:
    """The puzzles shipped with Dragonlair (a file that is not a puzzle is logged, skipped)."""
    out: list[PuzzleData] = []
    root = DATA if root is None else root
    if not root.is_dir():
        return out
    for path in sorted(root.glob("*/*.json")):
        try:
            out.append(PuzzleData.from_json(json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError) as exc:
            log.warning("shipped puzzle %s skipped: %s", path, exc)
    return out


def load_shipped(s: OrmSession, root: Path | None = None) -> int:
    """A server without puzzles gets the shipped ones (committed); the number added."""
    if s.scalar(select(Puzzle.id).limit(1)) is not None:
        return 0
    added = store(s, shipped(root), at=0.0)
    s.commit()
    return added


# ------------------------------------------------------------------------- reading
def _known_game(game: str) -> None:
    from dragonlair.games import game_ids

    if game not in game_ids():
        raise ServerError("server.puzzles.unknown_game", 404, game=game[:64])


def get(s: OrmSession, puzzle_id: str) -> Puzzle:
    row = s.get(Puzzle, puzzle_id) if len(puzzle_id) <= 64 else None
    if row is None:
        raise ServerError("server.puzzles.not_found", 404, id=puzzle_id[:64])
    return row


def question_json(row: Puzzle) -> JSON:
    """What the solver sees before answering: never the solution, the values, the
    explanation or the themes."""
    data = row.data
    return {"id": row.id, "game": row.game, "game_version": row.game_version,
            "seat": data["seat"], "view": data["view"], "legal": list(data["legal"]),
            "question": data["question"], "unit": data["unit"],
            "rating": round(row.rating), "plays": row.plays}


def rating_of(s: OrmSession, user: User | None, at: float) -> glicko2.Rating:
    """The solver's puzzle rating now (grown deviation for the days away); a newcomer's
    for a guest or someone without attempts."""
    if user is None or user.is_guest:
        return glicko2.Rating()
    row = s.get(PuzzleRating, user.id)
    if row is None:
        return glicko2.Rating()
    r = glicko2.Rating(row.rating, row.rd, row.volatility)
    return glicko2.idle(r, max(0.0, at - row.updated_at) // PERIOD_S)


def rating_json(s: OrmSession, user: User | None) -> JSON | None:
    """A registered solver's puzzle rating (``None``: a guest, or no attempt yet)."""
    if user is None or user.is_guest:
        return None
    row = s.get(PuzzleRating, user.id)
    if row is None:
        return None
    return {"rating": round(row.rating), "rd": round(row.rd), "attempts": row.attempts,
            "solved": row.solved}


def _current() -> Any:
    """Puzzles of the games' versions installed now (an older version's view may not be
    drawn by today's screen: such a puzzle is shown by its id only)."""
    from dragonlair.games import game_ids, plugin

    return or_(*(and_(Puzzle.game == g, Puzzle.game_version == plugin(g).info.version)
                 for g in game_ids()))


def _filtered(game: str | None, theme: str | None) -> Any:
    query = select(Puzzle).where(_current())
    if game is not None:
        _known_game(game)
        query = query.where(Puzzle.game == game)
    if theme is not None:
        themed = select(PuzzleTheme.puzzle_id).where(PuzzleTheme.theme == theme)
        if game is not None:
            themed = themed.where(PuzzleTheme.game == game)
        query = query.where(Puzzle.id.in_(themed))
    return query


def next_for(s: OrmSession, user: User | None, game: str | None, theme: str | None,
             at: float) -> JSON:
    """The next puzzle for ``user``: one they have not tried, nearest their rating (then by
    id); when they have tried every one, the nearest all the same."""
    target = rating_of(s, user, at).rating
    base = _filtered(game, theme)
    distance = func.abs(Puzzle.rating - target)
    row = None
    if user is not None:
        tried = select(PuzzleAttempt.puzzle_id).where(PuzzleAttempt.user_id == user.id)
        row = s.scalar(base.where(Puzzle.id.not_in(tried)).order_by(distance, Puzzle.id)
                       .limit(1))
    if row is None:
        row = s.scalar(base.order_by(distance, Puzzle.id).limit(1))
    if row is None:
        raise ServerError("server.puzzles.none", 404, game=game or "", theme=theme or "")
    return question_json(row)


def day_of(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d")


def daily(s: OrmSession, at: float) -> JSON:
    """The day's puzzle (UTC), the same for everyone all day: of the puzzles stored before
    the day began (ordered by time and id), the one a hash of the date picks; puzzles added
    during the day do not move it. A server whose puzzles are all from today picks among
    them."""
    day = day_of(at)
    start = datetime.datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=datetime.UTC)
    before = start.timestamp()
    pick = int(hashlib.sha256(f"dragonlair-daily:{day}".encode()).hexdigest()[:12], 16)
    for cutoff in (before, at + 1.0):
        query = select(Puzzle.id).where(Puzzle.created_at < cutoff, _current())
        count = s.scalar(select(func.count()).select_from(query.subquery())) or 0
        if count:
            pid = s.scalar(query.order_by(Puzzle.created_at, Puzzle.id)
                           .offset(pick % count).limit(1))
            if pid is not None:
                out = question_json(get(s, pid))
                out["day"] = day
                return out
    raise ServerError("server.puzzles.none", 404, game="", theme="")


def themes(s: OrmSession) -> list[JSON]:
    """Per game: its puzzles and each theme's count (most first)."""
    totals = dict(s.execute(select(Puzzle.game, func.count()).group_by(Puzzle.game)).all())
    per: dict[str, list[JSON]] = {g: [] for g in totals}
    rows = s.execute(select(PuzzleTheme.game, PuzzleTheme.theme, func.count())
                     .group_by(PuzzleTheme.game, PuzzleTheme.theme)).all()
    for game, theme, count in sorted(rows, key=lambda r: (r[0], -r[2], r[1])):
        per.setdefault(game, []).append({"theme": theme, "count": int(count)})
    return [{"game": g, "count": int(totals.get(g, 0)), "themes": per[g]}
            for g in sorted(per)]


# ------------------------------------------------------------------------- answering
def answer(s: OrmSession, puzzle_id: str, user: User, action: str, at: float) -> JSON:
    """``user`` answers with ``action`` (one of the legal options, record notation; another
    is refused and changes nothing). The first answer of a registered account is rated
    (Glicko-2 for the solver and the puzzle, one rating period each); guests and later
    answers are not. The result carries the proof: every option with its value."""
    row = get(s, puzzle_id)
    data = row.data
    legal = [str(a) for a in data["legal"]]
    if action not in legal:
        raise ServerError("server.puzzles.illegal", 422, action=action[:64])
    solution = [str(a) for a in data["solution"]]
    correct = action in solution
    change: JSON | None = None
    attempt = s.scalar(select(PuzzleAttempt).where(PuzzleAttempt.user_id == user.id,
                                                   PuzzleAttempt.puzzle_id == row.id))
    if attempt is not None:
        attempt.tries += 1
        s.commit()
    else:
        rated = not user.is_guest
        attempt = PuzzleAttempt(user_id=user.id, puzzle_id=row.id, correct=correct,
                                answer=action[:200], rated=rated, tries=1, created_at=at)
        if rated:
            change = _rate(s, row, user, correct, at, attempt)
        s.add(attempt)
        try:
            s.commit()
        except IntegrityError:  # a second answer raced the first: that one was rated
            s.rollback()
            change = None
    return {"id": row.id, "correct": correct, "answer": action, "solution": solution,
            "unit": data["unit"], "options": data["options"], "margin": data["margin"],
            "explanation": data["explanation"], "themes": list(data["themes"]),
            "question": data["question"], "source": _public_source(data.get("source")),
            "rated": change is not None, "rating": change,
            "puzzle_rating": round(row.rating)}


def _public_source(source: Any) -> JSON:
    if not isinstance(source, dict):
        return {}
    return {k: source[k] for k in ("table", "index") if k in source}


def _rate(s: OrmSession, row: Puzzle, user: User, correct: bool, at: float,
          attempt: PuzzleAttempt) -> JSON:
    solver = rating_of(s, user, at)
    puzzle = glicko2.Rating(row.rating, row.rd, row.volatility)
    score = 1.0 if correct else 0.0
    solver_after = glicko2.update(solver, [(puzzle, score)])
    puzzle_after = glicko2.update(puzzle, [(solver, 1.0 - score)])
    mine = s.get(PuzzleRating, user.id)
    if mine is None:
        mine = PuzzleRating(user_id=user.id, attempts=0, solved=0)
        s.add(mine)
    mine.rating, mine.rd, mine.volatility = (solver_after.rating, solver_after.rd,
                                             solver_after.volatility)
    mine.attempts = (mine.attempts or 0) + 1
    mine.solved = (mine.solved or 0) + (1 if correct else 0)
    mine.updated_at = at
    row.rating, row.rd, row.volatility = (puzzle_after.rating, puzzle_after.rd,
                                          puzzle_after.volatility)
    row.plays = (row.plays or 0) + 1
    row.solved = (row.solved or 0) + (1 if correct else 0)
    attempt.user_before, attempt.user_after = solver.rating, solver_after.rating
    attempt.puzzle_before, attempt.puzzle_after = puzzle.rating, puzzle_after.rating
    return {"before": round(solver.rating), "after": round(solver_after.rating),
            "rd": round(solver_after.rd),
            "puzzle_before": round(puzzle.rating), "puzzle_after": round(puzzle_after.rating)}


def wall() -> float:
    return time.time()
