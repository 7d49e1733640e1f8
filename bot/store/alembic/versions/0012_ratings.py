"""Players' ratings (bot/play/ratings.py): the finished matches and races the ratings have taken
in, and each change of a player's rating. Both start empty: the bot rates the matches and races
already stored, in the order they finished, when it starts."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_ratings"
down_revision = "0011_ritual"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the two tables and their indexes."""
    op.create_table(
        "rated_events",
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("event_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("rated", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("kind IN ('match', 'race')"),
        sa.PrimaryKeyConstraint("kind", "event_id"),
        sa.UniqueConstraint("seq"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("event_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("rated_at", sa.Double(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.CheckConstraint("kind IN ('match', 'race')"),
        sa.PrimaryKeyConstraint("kind", "event_id", "user_id"),
    )
    op.create_index("rating_changes_by_user", "rating_changes", ["user_id", "seq"])
    op.create_index("rating_changes_by_time", "rating_changes", ["rated_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("rating_changes_by_time", table_name="rating_changes")
    op.drop_index("rating_changes_by_user", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_events")
