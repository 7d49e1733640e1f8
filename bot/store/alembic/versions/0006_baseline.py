"""The baseline: the schema of migration 0006, the last of the hand-written SQL migrations, as it
stood then (the tables in bot/store/tables.py may move on; this revision must not).

A database made by those migrations (its schema_migrations table at 0006, or brought there by
them: bot/store/old_migrations.py) is stamped with this revision without running it
(bot/store/migrate.py); an empty one gets every table here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = None
branch_labels = None
depends_on = None

TABLES = ("daily_attempts", "race_players", "match_players", "games", "team_members", "matches", "teams", "races",
          "guild_settings", "players")


def upgrade() -> None:
    """Create every table of migration 0006's schema."""
    op.create_table('guild_settings',
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('key', sa.Text(), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('guild_id', 'key')
    )
    op.create_table('players',
    sa.Column('user_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('name', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('user_id')
    )
    op.create_table('races',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=True),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('host_id', sa.BigInteger(), nullable=False),
    sa.Column('layout', sa.Text(), server_default=sa.text("'klondike'"), nullable=False),
    sa.Column('deal', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.Text(), server_default=sa.text("'lobby'"), nullable=False),
    sa.Column('moves', sa.Text(), server_default=sa.text("''"), nullable=False),
    sa.Column('version', sa.BigInteger(), server_default=sa.text('0'), nullable=False),
    sa.Column('message_id', sa.BigInteger(), nullable=True),
    sa.Column('demon_user_id', sa.BigInteger(), nullable=True),
    sa.Column('target', sa.BigInteger(), nullable=True),
    sa.Column('series_id', sa.BigInteger(), nullable=True),
    sa.Column('hand', sa.BigInteger(), server_default=sa.text('1'), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.Column('started_at', sa.Double(), nullable=True),
    sa.Column('finished_at', sa.Double(), nullable=True),
    sa.Column('last_activity', sa.Double(), nullable=True),
    sa.CheckConstraint("layout IN ('klondike', 'demon')"),
    sa.CheckConstraint("status IN ('lobby', 'running', 'finished', 'cancelled')"),
    sa.PrimaryKeyConstraint('id'),
    sqlite_autoincrement=True
    )
    op.create_table('teams',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.Text().with_variant(sa.Text(collation='NOCASE'), 'sqlite'), nullable=False),
    sa.Column('created_by', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('guild_id', 'name'),
    sqlite_autoincrement=True
    )
    op.create_table('matches',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=True),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('host_id', sa.BigInteger(), nullable=False),
    sa.Column('game', sa.Text(), nullable=False),
    sa.Column('options', sa.Text(), nullable=False),
    sa.Column('target', sa.BigInteger(), nullable=False),
    sa.Column('teams', sa.BigInteger(), server_default=sa.text('0'), nullable=False),
    sa.Column('undo', sa.BigInteger(), server_default=sa.text('0'), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.Text(), server_default=sa.text("'lobby'"), nullable=False),
    sa.Column('message_id', sa.BigInteger(), nullable=True),
    sa.Column('winner_user_id', sa.BigInteger(), nullable=True),
    sa.Column('winner_team_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.Column('started_at', sa.Double(), nullable=True),
    sa.Column('finished_at', sa.Double(), nullable=True),
    sa.Column('last_activity', sa.Double(), nullable=False),
    sa.CheckConstraint("status IN ('lobby', 'running', 'finished', 'cancelled', 'expired')"),
    sa.ForeignKeyConstraint(['winner_team_id'], ['teams.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sqlite_autoincrement=True
    )
    op.create_index('teams_by_name', 'teams', ['guild_id', sa.text('lower(name)')], unique=True)
    op.create_index('matches_by_status', 'matches', ['status', 'last_activity'], unique=False)
    op.create_table('race_players',
    sa.Column('race_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seat', sa.BigInteger(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('joined_at', sa.Double(), nullable=False),
    sa.Column('score', sa.BigInteger(), nullable=True),
    sa.ForeignKeyConstraint(['race_id'], ['races.id'], ),
    sa.PrimaryKeyConstraint('race_id', 'seat'),
    sa.UniqueConstraint('race_id', 'user_id')
    )
    op.create_table('team_members',
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('team_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('joined_at', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('guild_id', 'user_id')
    )
    op.create_table('games',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=True),
    sa.Column('channel_id', sa.BigInteger(), nullable=True),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.Text(), nullable=False),
    sa.Column('options', sa.Text(), nullable=False),
    sa.Column('deal', sa.BigInteger(), nullable=True),
    sa.Column('cards', sa.Text(), nullable=True),
    sa.Column('moves', sa.Text(), server_default=sa.text("''"), nullable=False),
    sa.Column('snapshot', sa.Text(), nullable=True),
    sa.Column('version', sa.BigInteger(), server_default=sa.text('0'), nullable=False),
    sa.Column('status', sa.Text(), server_default=sa.text("'playing'"), nullable=False),
    sa.Column('score', sa.BigInteger(), server_default=sa.text('0'), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.Column('updated_at', sa.Double(), nullable=False),
    sa.Column('kind', sa.Text(), server_default=sa.text("'solo'"), nullable=False),
    sa.Column('match_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('round', sa.BigInteger(), nullable=True),
    sa.Column('undo_allowed', sa.BigInteger(), server_default=sa.text('1'), nullable=False),
    sa.Column('finished_at', sa.Double(), nullable=True),
    sa.Column('closed', sa.BigInteger(), server_default=sa.text('0'), nullable=False),
    sa.CheckConstraint("kind IN ('solo', 'match', 'daily')"),
    sa.CheckConstraint("status IN ('playing', 'won', 'blocked', 'resigned')"),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sqlite_autoincrement=True
    )
    op.create_index('games_by_match', 'games', ['match_id', 'user_id'], unique=False)
    op.create_index('games_finished', 'games', ['guild_id', 'status', 'finished_at'], unique=False)
    op.create_index('games_running', 'games', ['user_id', 'channel_id', 'status'], unique=False)
    op.create_table('match_players',
    sa.Column('match_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('team_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('joined_at', sa.Double(), nullable=False),
    sa.Column('left_at', sa.Double(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'user_id')
    )
    op.create_table('daily_attempts',
    sa.Column('day', sa.Text(), nullable=False),
    sa.Column('game', sa.Text(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=True),
    sa.Column('game_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('day', 'game', 'user_id')
    )
    op.create_index('daily_by_user', 'daily_attempts', ['user_id', 'day'], unique=False)


def downgrade() -> None:
    """Drop every table."""
    for table in TABLES:
        op.drop_table(table)
