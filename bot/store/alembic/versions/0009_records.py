"""Records worth chasing: the moves a game's player took back (games.undos: a win without any,
and without a hint (games.hints, revision 0007), is clean), the cards it put on the foundations
(games.foundation_cards: averages and the casino bankroll)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_records"
down_revision = "0008_analyses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the counter (zero for every game there is) and the cards on the foundations (unknown for
    every game there is)."""
    op.add_column("games", sa.Column("undos", sa.BigInteger(), server_default=sa.text("0"), nullable=False))
    op.add_column("games", sa.Column("foundation_cards", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("games") as table:
        table.drop_column("foundation_cards")
        table.drop_column("undos")
