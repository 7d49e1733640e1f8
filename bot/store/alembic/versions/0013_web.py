"""The web table (bot/web): the links opened, each once (bot/play/links.py)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_web"
down_revision = "0012_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table of links opened."""
    op.create_table(
        "web_links",
        sa.Column("nonce", sa.Text(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("opened_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("nonce"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("web_links")
