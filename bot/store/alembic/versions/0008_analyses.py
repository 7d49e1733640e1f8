"""The analyses table: where each analysed game was lost (bot.game.analysis)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_analyses"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the analyses table."""
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=False,
                  nullable=False),
        sa.Column("verdict", sa.Text(), nullable=False),
        sa.Column("lost_after", sa.Integer(), nullable=True),
        sa.Column("losing_move", sa.Text(), nullable=True),
        sa.Column("better_move", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.CheckConstraint("verdict IN ('lost', 'never', 'won', 'unknown')"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    """Drop the analyses table."""
    op.drop_table("analyses")
