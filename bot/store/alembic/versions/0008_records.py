"""Records worth chasing: the moves a game's player took back (games.undos: a win without any,
and without a hint (games.hints, revision 0007), is clean), the cards it put on the foundations
(games.foundation_cards: averages and the casino bankroll), and where finished games were lost
(analyses)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_records"
down_revision = "0007"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Add the counter (zero for every game there is; its cards on the foundations unknown) and
    the analyses table."""
    op.add_column("games", sa.Column("undos", sa.BigInteger(), server_default=sa.text("0"), nullable=False))
    op.add_column("games", sa.Column("foundation_cards", sa.BigInteger(), nullable=True))
    op.create_table(
        "analyses",
        sa.Column("game_id", Id, autoincrement=False, nullable=False),
        sa.Column("verdict", sa.Text(), nullable=False),
        sa.Column("lost_after", sa.BigInteger(), nullable=True),
        sa.Column("losing_move", sa.Text(), nullable=True),
        sa.Column("better_move", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.CheckConstraint("verdict IN ('lost', 'never', 'won', 'unknown')"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("analyses")
    with op.batch_alter_table("games") as table:
        table.drop_column("foundation_cards")
        table.drop_column("undos")
