"""The daily ritual (bot/play/ritual.py): the daily posts and season standings each server's
channel gets once, and the members' streak reminders."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_ritual"
down_revision = "0010_secrecy"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the posts' and the reminders' tables."""
    op.create_table(
        "ritual_posts",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("claimed_at", sa.Double(), nullable=False),
        sa.Column("shown", sa.Text(), server_default=sa.text("''"), nullable=False),
        sa.Column("starts", sa.Double(), nullable=True),
        sa.Column("ends", sa.Double(), nullable=True),
        sa.CheckConstraint("kind IN ('daily', 'season')"),
        sa.PrimaryKeyConstraint("guild_id", "kind", "key"),
    )
    op.create_table(
        "reminders",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("daily", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("last_day", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_index("reminders_on", "reminders", ["daily", "last_day"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("reminders_on", table_name="reminders")
    op.drop_table("reminders")
    op.drop_table("ritual_posts")
