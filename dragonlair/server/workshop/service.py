"""The workshop's queries, as plain functions (the routes are
:mod:`dragonlair.server.workshop.api`).

Each takes an ORM session (the caller's transaction: a route's ``DB`` dependency) and plain
arguments, and returns rows or values; none commits.
"""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.db import User
from dragonlair.server.workshop import search
from dragonlair.server.workshop.models import WorkshopEntry, WorkshopVersion, WorkshopVote

Sort = Literal["newest", "played", "rated"]


def visible(query: Any, user: User | None) -> Any:
    """``query`` narrowed to the entries ``user`` sees (a hidden one: its author and the
    moderators only)."""
    if user is not None and user.is_moderator:
        return query
    if user is None:
        return query.where(WorkshopEntry.hidden.is_(False))
    return query.where((WorkshopEntry.hidden.is_(False)) | (WorkshopEntry.author_id == user.id))


def list_entries(s: OrmSession, user: User | None, game: str | None, kind: str | None,
                 tag: str | None, q: str | None, sort: Sort, offset: int, limit: int
                 ) -> list[tuple[WorkshopEntry, WorkshopVersion, str]]:
    """A page of the entries ``user`` sees, each with its newest version and its author's
    name: of one ``game``, ``kind`` or ``tag``, matching the words of ``q``, in the order of
    ``sort`` (``rated``: the mean of the stars as if every entry had two more votes of 3)."""
    query = visible(select(WorkshopEntry, WorkshopVersion, User.display_name)
                    .join(WorkshopVersion, (WorkshopVersion.entry_id == WorkshopEntry.id)
                          & (WorkshopVersion.version == WorkshopEntry.latest))
                    .join(User, User.id == WorkshopEntry.author_id), user)
    if game is not None:
        query = query.where(WorkshopEntry.game == game)
    if kind is not None:
        query = query.where(WorkshopEntry.kind == kind)
    if tag is not None:
        query = query.where(WorkshopVersion.tags_text.contains(f" {tag.strip().lower()} ",
                                                               autoescape=True))
    if q:
        found = search.matches(s, q)
        if found is not None:
            query = query.where(found)
    orders: dict[str, list[Any]] = {
        "newest": [WorkshopEntry.updated_at.desc()],
        "played": [WorkshopEntry.plays.desc(), WorkshopEntry.updated_at.desc()],
        "rated": [((WorkshopEntry.vote_sum + 6.0) / (WorkshopEntry.votes + 2)).desc(),
                  WorkshopEntry.votes.desc(), WorkshopEntry.updated_at.desc()],
    }
    order = orders[sort]
    rows = s.execute(query.order_by(*order, WorkshopEntry.id.desc())
                     .offset(offset).limit(limit)).all()
    return [(e, v, name) for e, v, name in rows]


def vote_of(s: OrmSession, entry_id: int, user_id: int) -> WorkshopVote | None:
    """``user_id``'s vote for the entry, if any."""
    return s.scalar(select(WorkshopVote).where(WorkshopVote.entry_id == entry_id,
                                               WorkshopVote.user_id == user_id))


def vote_totals(s: OrmSession, entry_id: int) -> tuple[int, int]:
    """The entry's votes: how many, and the sum of their stars."""
    count, total = s.execute(select(func.count(), func.coalesce(func.sum(WorkshopVote.stars), 0))
                             .where(WorkshopVote.entry_id == entry_id)).one()
    return int(count), int(total)
