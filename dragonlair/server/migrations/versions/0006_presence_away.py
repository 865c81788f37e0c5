"""Presence and the away policy; open tables that expire (issue 22).

``tables.away``: the table's away policy (JSON; ``NULL``: the default one);
``tables.expires_at``: when an open table that was never started expires. Tables open at
the upgrade expire an hour after they were created.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("away", sa.JSON, nullable=True))
        batch.add_column(sa.Column("expires_at", sa.Float, nullable=True))
    op.execute("UPDATE tables SET expires_at = created_at + 3600 WHERE status = 'open'")


def downgrade() -> None:
    op.execute("UPDATE tables SET status = 'finished', finished_at = expires_at "
               "WHERE status = 'expired'")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("expires_at")
        batch.drop_column("away")
