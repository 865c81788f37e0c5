"""The forum (issue 26; dragonlair/server/forum): threads, posts, reports and the moderators' log.

``forum_threads.entry_id`` is a plain integer (unique: one thread per workshop entry), not a
foreign key to ``workshop_entries`` (docs/forum.md).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "forum_threads",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("entry_id", sa.Integer, nullable=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_post_at", sa.Float, nullable=False),
        sa.Column("posts", sa.Integer, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("locked", sa.Boolean, nullable=False),
    )
    op.create_index("ix_forum_threads_game", "forum_threads", ["game"])
    op.create_index("ix_forum_threads_entry_id", "forum_threads", ["entry_id"], unique=True)
    op.create_index("ix_forum_threads_author_id", "forum_threads", ["author_id"])
    op.create_index("ix_forum_threads_last_post_at", "forum_threads", ["last_post_at"])
    op.create_table(
        "forum_posts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("thread_id", sa.Integer,
                  sa.ForeignKey("forum_threads.id", ondelete="CASCADE"), nullable=False),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("body_html", sa.Text, nullable=False),
        sa.Column("quote_of", sa.Integer, nullable=True),
        sa.Column("reply_to", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("edited_at", sa.Float, nullable=True),
        sa.Column("deleted", sa.Boolean, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
    )
    op.create_index("ix_forum_posts_thread_id", "forum_posts", ["thread_id"])
    op.create_index("ix_forum_posts_author_created", "forum_posts", ["author_id", "created_at"])
    op.create_table(
        "forum_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.Integer, nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("resolved_by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
    )
    op.create_index("ix_forum_reports_target", "forum_reports", ["target_kind", "target_id"])
    op.create_index("ix_forum_reports_reporter_id", "forum_reports", ["reporter_id"])
    op.create_index("ix_forum_reports_resolved_at", "forum_reports", ["resolved_at"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("moderator_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.Integer, nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_moderation_log_created_at", "moderation_log", ["created_at"])


def downgrade() -> None:
    op.drop_table("moderation_log")
    op.drop_table("forum_reports")
    op.drop_table("forum_posts")
    op.drop_table("forum_threads")
