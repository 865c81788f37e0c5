"""Bot accounts: ``users.is_bot`` and personal API tokens (stored as SHA-256).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (no table rebuild: on SQLite a rebuild of ``users`` would cascade
    # through the foreign keys of sessions and seats)
    op.add_column("users", sa.Column("is_bot", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("api_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("is_bot")
