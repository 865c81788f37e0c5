"""Table claims between server processes: which process runs a table's timers and bots,
until when (issue 15; dragonlair/server/claims.py).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_claims",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_table_claims_owner", "table_claims", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_table_claims_owner", table_name="table_claims")
    op.drop_table("table_claims")
