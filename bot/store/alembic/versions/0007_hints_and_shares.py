"""Hints a game used (games.hints) and whether a daily's result was shared (daily_attempts.shared),
for the daily's share card: "no undo, no hints", posted once."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two counters, zero for every row there is."""
    op.add_column("games", sa.Column("hints", sa.BigInteger(), server_default=sa.text("0"), nullable=False))
    op.add_column("daily_attempts", sa.Column("shared", sa.BigInteger(), server_default=sa.text("0"),
                                              nullable=False))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("daily_attempts") as table:
        table.drop_column("shared")
    with op.batch_alter_table("games") as table:
        table.drop_column("hints")
