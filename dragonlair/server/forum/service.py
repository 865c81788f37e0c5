"""The forum's work on the database, as plain functions (the routes are
:mod:`dragonlair.server.forum.api`).

Each takes an ORM session (the caller's transaction: a route's ``DB`` dependency) and plain
arguments, and returns rows or values; none commits. Who may see what is decided here only
as far as a query needs it (:func:`visible_posts`, :func:`board_threads`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, and_, false, func, or_, select, true
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.db import User, now
from dragonlair.server.forum.models import ForumPost, ForumReport, ForumThread, ModerationLog
from dragonlair.server.workshop.models import WorkshopVersion


def is_mod(user: User | None) -> bool:
    return user is not None and bool(user.is_moderator)


def users_by_id(s: OrmSession, ids: Iterable[int | None]) -> dict[int, User]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {u.id: u for u in s.scalars(select(User).where(User.id.in_(wanted)))}


def recent_stamps(s: OrmSession, stamps: Any, owner: Any, user_id: int, since: float,
                  most: int) -> list[float]:
    """The newest ``most`` values of the column ``stamps`` after ``since`` of the rows whose
    ``owner`` is ``user_id``, newest first."""
    return list(s.scalars(select(stamps).where(owner == user_id, stamps > since)
                          .order_by(stamps.desc()).limit(most)).all())


def visible_posts(viewer: User | None) -> ColumnElement[bool]:
    if is_mod(viewer):
        return true()
    if viewer is None:
        return ForumPost.hidden == false()
    return or_(ForumPost.hidden == false(), ForumPost.author_id == viewer.id)


def posts_by_id(s: OrmSession, ids: set[int]) -> dict[int, ForumPost]:
    """The posts of ``ids`` (those that exist) by their id."""
    if not ids:
        return {}
    return {q.id: q for q in s.scalars(select(ForumPost).where(ForumPost.id.in_(ids)))}


def thread_posts(s: OrmSession, thread_id: int, viewer: User | None, page: int,
                 per_page: int) -> tuple[list[ForumPost], int]:
    """One page of a thread's posts ``viewer`` sees, oldest first, and how many they see."""
    where = and_(ForumPost.thread_id == thread_id, visible_posts(viewer))
    total = s.scalar(select(func.count()).select_from(ForumPost).where(where)) or 0
    rows = list(s.scalars(select(ForumPost).where(where).order_by(ForumPost.id)
                          .offset((page - 1) * per_page).limit(per_page)))
    return rows, total


def board_threads(s: OrmSession, game: str, viewer: User | None, page: int,
                  per_page: int) -> tuple[list[ForumThread], int]:
    """One page of a game's board (the threads ``viewer`` sees, not the workshop entries'),
    newest activity first, and how many threads they see there."""
    where: ColumnElement[bool] = and_(ForumThread.game == game, ForumThread.entry_id.is_(None))
    if not is_mod(viewer):
        where = and_(where, ForumThread.hidden == false()) if viewer is None else and_(
            where, or_(ForumThread.hidden == false(), ForumThread.author_id == viewer.id))
    total = s.scalar(select(func.count()).select_from(ForumThread).where(where)) or 0
    rows = list(s.scalars(select(ForumThread).where(where)
                          .order_by(ForumThread.last_post_at.desc(), ForumThread.id.desc())
                          .offset((page - 1) * per_page).limit(per_page)))
    return rows, total


def entry_thread(s: OrmSession, entry_id: int) -> ForumThread | None:
    """A workshop entry's thread (``None`` until its first post)."""
    return s.scalar(select(ForumThread).where(ForumThread.entry_id == entry_id))


def entry_title(s: OrmSession, entry_id: int, version: int) -> str | None:
    """The title of a workshop entry's version."""
    return s.scalar(select(WorkshopVersion.title).where(
        WorkshopVersion.entry_id == entry_id, WorkshopVersion.version == version))


def open_report(s: OrmSession, reporter_id: int, kind: str, target: int) -> int | None:
    """The id of ``reporter_id``'s open report of the target, if any."""
    return s.scalar(select(ForumReport.id).where(
        ForumReport.reporter_id == reporter_id, ForumReport.target_kind == kind,
        ForumReport.target_id == target, ForumReport.resolved_at.is_(None)))


def report_rows(s: OrmSession, resolved: bool, limit: int) -> list[ForumReport]:
    """The open reports, oldest first (``resolved``: the newest resolved ones)."""
    query = select(ForumReport)
    query = (query.where(ForumReport.resolved_at.is_not(None))
             .order_by(ForumReport.resolved_at.desc()) if resolved
             else query.where(ForumReport.resolved_at.is_(None)).order_by(ForumReport.id))
    return list(s.scalars(query.limit(limit)))


def resolve_reports(s: OrmSession, mod: User, kind: str, target: int) -> None:
    """The open reports of the target resolved by ``mod``."""
    for r in s.scalars(select(ForumReport).where(
            ForumReport.target_kind == kind, ForumReport.target_id == target,
            ForumReport.resolved_at.is_(None))):
        r.resolved_at, r.resolved_by = now(), mod.id


def log_rows(s: OrmSession, before: int | None, limit: int) -> list[ModerationLog]:
    """The moderators' log, newest first (``before``: older than that id)."""
    query = select(ModerationLog).order_by(ModerationLog.id.desc()).limit(limit)
    if before is not None:
        query = query.where(ModerationLog.id < before)
    return list(s.scalars(query))
