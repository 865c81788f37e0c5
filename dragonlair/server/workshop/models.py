"""The workshop's tables (issue 26); its migration is 0009 (dragonlair/server/migrations/
versions/0009_workshop.py), which also makes the full-text index (:mod:`.search`).

An entry (:class:`WorkshopEntry`) is one published thing of one game and one kind; each edit
adds a version (:class:`WorkshopVersion`) and never changes an old one, so that a table made
from version 1 replays with version 1 forever. Votes (:class:`WorkshopVote`) are one per
account and entry: 1 to 5 stars, a second vote replaces the first."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from dragonlair.server.db import Base, now

__all__ = ["Base", "WorkshopEntry", "WorkshopVersion", "WorkshopVote"]


class WorkshopEntry(Base):
    """A published entry: its game, kind (``characters``, ``deck``, ``scoring``,
    ``variant``), author, newest version, whether a moderator hid it, how often tables made
    from it were finished (``plays``) and won by a person (``wins``), and its votes."""

    __tablename__ = "workshop_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                           index=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    #: when the newest version was published
    updated_at: Mapped[float] = mapped_column(Float, default=now)
    #: the newest version's number (1, 2, ...)
    latest: Mapped[int] = mapped_column(Integer, default=1)
    #: hidden by a moderator (the forum's moderation API): seen only by its author and
    #: moderators
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    votes: Mapped[int] = mapped_column(Integer, default=0)
    vote_sum: Mapped[int] = mapped_column(Integer, default=0)


class WorkshopVersion(Base):
    """One version of an entry, never changed once written except for its balance report
    (``balance_status``: ``pending``, ``done``, ``failed``)."""

    __tablename__ = "workshop_versions"
    __table_args__ = (UniqueConstraint("entry_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("workshop_entries.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(200))
    #: Markdown, as written (rendered and sanitised when read: dragonlair/server/markdown.py)
    description: Mapped[str] = mapped_column(Text)
    tags: Mapped[list[str]] = mapped_column(JSON)
    #: the tags as `` a b c `` (a space before and after each): the tag filter and the
    #: full-text index read it
    tags_text: Mapped[str] = mapped_column(String(400))
    lang: Mapped[str] = mapped_column(String(8))
    #: the option values this entry sets (Fist characters: ``{"custom": [...]}``)
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    balance: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    balance_status: Mapped[str] = mapped_column(String(16), default="pending")
    created_at: Mapped[float] = mapped_column(Float, default=now)


class WorkshopVote(Base):
    """One account's stars (1-5) for one entry."""

    __tablename__ = "workshop_votes"
    __table_args__ = (UniqueConstraint("entry_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("workshop_entries.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    stars: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float, default=now)
