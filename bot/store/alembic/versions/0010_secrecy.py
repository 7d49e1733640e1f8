"""Fair play (bot/play/secrecy.py): the deployment's secrets (the daily's deals are derived from one,
made at first start and the same in every process), and games found by their deal, so that a copy of
a live deal (a solo game of today's daily or of an open match's round) is known for one."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_secrecy"
down_revision = "0009_records"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the secrets table and the index of games by deal."""
    op.create_table(
        "secrets",
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_index("games_by_deal", "games", ["deal"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("games_by_deal", table_name="games")
    op.drop_table("secrets")
