"""Finished games written straight into a running bot's database, as if played to their end
(a replay of a 2,000-move game without sending 2,000 moves first)."""

from __future__ import annotations

from bot.game import Game, to_record
from bot.store import NewGame, open_store


async def store_finished_games(database_url: str, games: list[tuple[int, str, Game]], *, status: str = "resigned",
                               guild_id: int | None = None, channel_id: int | None = None) -> list[int]:
    """Store each (user id, name, game) as that user's solo game, ended `status` with its
    moves; their ids, in order."""
    store = await open_store(database_url)
    ids = []
    try:
        for user_id, name, game in games:
            record = to_record(game)
            await store.games.upsert_player(user_id, name)
            stored = await store.games.create_game(NewGame(
                guild_id=guild_id, channel_id=channel_id, user_id=user_id, name=record["game"],
                options=record["options"], deal=record["deal"], cards=None, snapshot=None, score=game.score))
            await store.games.save_game(stored.id, expected_version=0, moves=[str(move) for move in record["moves"]],
                                        snapshot=None, status=status, score=game.score)
            ids.append(stored.id)
    finally:
        await store.close()
    return ids
