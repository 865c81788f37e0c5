"""The workshop (issue 26; dragonlair/server/workshop): ``users.is_moderator``, and the
published entries, their versions and votes, the table's ``workshop`` reference, and the
full-text index (SQLite: an FTS5 table; PostgreSQL: a GIN expression index; neither is a
model: dragonlair/server/workshop/search.py).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

#: as dragonlair/server/workshop/search.py names them (kept literal: a migration never
#: changes with the code)
FTS = "workshop_fts"
PG_INDEX = "ix_workshop_versions_fts"
PG_DOCUMENT = "to_tsvector('simple', title || ' ' || description || ' ' || tags_text)"


def upgrade() -> None:
    # a plain ADD COLUMN, as 0004 does for ``is_bot``
    op.add_column("users", sa.Column("is_moderator", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("tables", sa.Column("workshop", sa.JSON, nullable=True))
    op.create_table(
        "workshop_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("latest", sa.Integer, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("votes", sa.Integer, nullable=False),
        sa.Column("vote_sum", sa.Integer, nullable=False),
    )
    op.create_index("ix_workshop_entries_game", "workshop_entries", ["game"])
    op.create_index("ix_workshop_entries_author_id", "workshop_entries", ["author_id"])
    op.create_table(
        "workshop_versions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("entry_id", sa.Integer,
                  sa.ForeignKey("workshop_entries.id", ondelete="CASCADE"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("tags", sa.JSON, nullable=False),
        sa.Column("tags_text", sa.String(400), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("content", sa.JSON, nullable=False),
        sa.Column("balance", sa.JSON, nullable=True),
        sa.Column("balance_status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("entry_id", "version"),
    )
    op.create_index("ix_workshop_versions_entry_id", "workshop_versions", ["entry_id"])
    op.create_table(
        "workshop_votes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("entry_id", sa.Integer,
                  sa.ForeignKey("workshop_entries.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("entry_id", "user_id"),
    )
    op.create_index("ix_workshop_votes_entry_id", "workshop_votes", ["entry_id"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute(f"CREATE VIRTUAL TABLE {FTS} USING fts5(title, description, tags, "
                   "tokenize = 'unicode61 remove_diacritics 2')")
    elif dialect == "postgresql":
        op.execute(f"CREATE INDEX {PG_INDEX} ON workshop_versions USING gin ({PG_DOCUMENT})")


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute(f"DROP TABLE IF EXISTS {FTS}")
    elif dialect == "postgresql":
        op.execute(f"DROP INDEX IF EXISTS {PG_INDEX}")
    op.drop_index("ix_workshop_votes_entry_id", table_name="workshop_votes")
    op.drop_table("workshop_votes")
    op.drop_index("ix_workshop_versions_entry_id", table_name="workshop_versions")
    op.drop_table("workshop_versions")
    op.drop_index("ix_workshop_entries_author_id", table_name="workshop_entries")
    op.drop_index("ix_workshop_entries_game", table_name="workshop_entries")
    op.drop_table("workshop_entries")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("workshop")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("is_moderator")
