"""Rematch offers; the spectators' chat channel (issue 22).

``chat_messages.channel``: ``table`` (every viewer) or ``spectators`` (written by a spectator
while the game runs: sent to the players only once it has ended). ``rematches``: the offer
to play a finished table again (dragonlair/server/rematch.py).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("channel", sa.String(16), nullable=False,
                                   server_default="table"))
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("offered_by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("accepted", sa.JSON, nullable=False),
        sa.Column("declined_by", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("new_table", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("channel")
