"""The workshop (issue 26; dragonlair/server/workshop): ``users.is_moderator``, and the
published entries, their versions and votes.

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


def upgrade() -> None:
    # a plain ADD COLUMN, as 0004 does for ``is_bot``
    op.add_column("users", sa.Column("is_moderator", sa.Boolean, nullable=False,
                                     server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("is_moderator")
