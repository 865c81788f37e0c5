"""Tournaments (issue 26; dragonlair/server/tournaments): arenas and Swiss tournaments, their
players, pairings and games.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("current_round", sa.Integer, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_owner", "tournaments", ["owner"])
    op.create_table(
        "tournament_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("byes", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("waiting_since", sa.Float, nullable=True),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id"),
    )
    op.create_index("ix_tournament_players_tournament_id", "tournament_players",
                    ["tournament_id"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False, unique=True),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games",
                    ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_tournament_id", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_tournament_id", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_owner", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
