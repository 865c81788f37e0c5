"""An index on ``lower(display_name)``: a new guest's friendly name, a rename and a
registration ask whether an account already has the name (letter case aside), and without
it every such question read the whole ``users`` table (the load bench's table replacement
spent a tenth of the server's CPU there after a minute).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_users_display_name_lower", "users", [sa.text("lower(display_name)")])


def downgrade() -> None:
    op.drop_index("ix_users_display_name_lower", table_name="users")
