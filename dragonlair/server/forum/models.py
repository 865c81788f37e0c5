"""The forum's tables (issue 26); its migration is dragonlair/server/migrations/versions/
0010_forum.py. docs/forum.md describes them.

``forum_threads.entry_id`` is a plain indexed integer, not a foreign key to
``workshop_entries``: the workshop's table is the workshop's, and a thread whose entry is gone
is simply never shown through it (the API checks the entry on every request).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from dragonlair.server.db import Base, now

__all__ = ["Base", "ForumPost", "ForumReport", "ForumThread", "ModerationLog"]


class ForumThread(Base):
    """A thread: on a game's board (``entry_id`` ``None``) or about one workshop entry
    (at most one thread per entry: ``entry_id`` unique)."""

    __tablename__ = "forum_threads"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    entry_id: Mapped[int | None] = mapped_column(Integer, nullable=True, unique=True,
                                                    index=True)
    title: Mapped[str] = mapped_column(String(200))
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    last_post_at: Mapped[float] = mapped_column(Float, default=now, index=True)
    #: posts shown in the thread (deleted ones included: they leave a placeholder)
    posts: Mapped[int] = mapped_column(Integer, default=0)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    locked: Mapped[bool] = mapped_column(Boolean, default=False)


class ForumPost(Base):
    """A post: its Markdown and the safe HTML rendered from it when written
    (:func:`dragonlair.server.markdown.render`)."""

    __tablename__ = "forum_posts"
    __table_args__ = (Index("ix_forum_posts_author_created", "author_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("forum_threads.id", ondelete="CASCADE"),
                                           index=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    body: Mapped[str] = mapped_column(Text)
    body_html: Mapped[str] = mapped_column(Text)
    #: the post this one quotes, and the one it answers (plain ids: a post is never removed
    #: from the table, only marked deleted or hidden)
    quote_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reply_to: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    edited_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: deleted by its author: a placeholder without its text
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    #: hidden by a moderator: only moderators and the author see it
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


class ForumReport(Base):
    """A report of a post, a thread or a workshop entry, until a moderator resolves it."""

    __tablename__ = "forum_reports"
    __table_args__ = (Index("ix_forum_reports_target", "target_kind", "target_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``post``, ``thread`` or ``entry``
    target_kind: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[int] = mapped_column(Integer)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float, default=now)
    resolved_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)


class ModerationLog(Base):
    """One moderator action: ``hide``, ``restore``, ``resolve`` (a report), ``grant`` or
    ``revoke`` (the moderator right; ``moderator_id`` ``None``: the command line)."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    moderator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    action: Mapped[str] = mapped_column(String(16))
    #: ``post``, ``thread``, ``entry``, ``report`` or ``user``
    target_kind: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[int] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, default=now, index=True)
