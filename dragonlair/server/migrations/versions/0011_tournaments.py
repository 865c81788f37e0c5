"""Tournaments (issue 26; dragonlair/server/tournaments): arenas and Swiss tournaments, their
players, pairings and games.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
