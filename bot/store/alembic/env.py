"""Alembic's environment: run by bot/store/migrate.py on a connection it has already locked."""

from __future__ import annotations

from alembic import context

from bot.store.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
