"""Puzzles (issue 27; dragonlair/server/puzzles): puzzles and their themes, attempts and the
solvers' puzzle ratings.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("game_version", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("themes", sa.JSON, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_puzzles_game_rating", "puzzles", ["game", "rating"])
    op.create_index("ix_puzzles_created_at", "puzzles", ["created_at"])
    op.create_table(
        "puzzle_themes",
        sa.Column("puzzle_id", sa.String(64), sa.ForeignKey("puzzles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("theme", sa.String(128), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
    )
    op.create_index("ix_puzzle_themes_game_theme", "puzzle_themes", ["game", "theme"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("puzzle_id", sa.String(64), sa.ForeignKey("puzzles.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("answer", sa.String(200), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("user_before", sa.Float, nullable=True),
        sa.Column("user_after", sa.Float, nullable=True),
        sa.Column("puzzle_before", sa.Float, nullable=True),
        sa.Column("puzzle_after", sa.Float, nullable=True),
        sa.UniqueConstraint("user_id", "puzzle_id"),
    )
    op.create_index("ix_puzzle_attempts_user_id", "puzzle_attempts", ["user_id"])
    op.create_index("ix_puzzle_attempts_puzzle_id", "puzzle_attempts", ["puzzle_id"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzle_attempts_puzzle_id", table_name="puzzle_attempts")
    op.drop_index("ix_puzzle_attempts_user_id", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzle_themes_game_theme", table_name="puzzle_themes")
    op.drop_table("puzzle_themes")
    op.drop_index("ix_puzzles_created_at", table_name="puzzles")
    op.drop_index("ix_puzzles_game_rating", table_name="puzzles")
    op.drop_table("puzzles")
