"""The SQLite store on a real file: migrations from empty, games, versions, settings."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import NewGame, SqliteStore, StoreError, VersionConflict, open_store, store_for
from bot.store.sqlite import migrations


def new(user_id: int = 1, channel_id: int | None = 10) -> NewGame:
    return NewGame(guild_id=5, channel_id=channel_id, user_id=user_id, name="canfield",
                   options={"draw": 3, "redeals": None, "groups": "top-or-whole", "die": "off"},
                   deal=1, cards=None, snapshot=None, score=-12)


async def test_migrations_apply_from_an_empty_file_and_only_once(tmp_path) -> None:
    path = tmp_path / "sub" / "pe.sqlite3"
    store = await open_store(f"sqlite:///{path}")
    assert await store.schema_version() == migrations()[-1][0] >= 1
    await store.close()
    store = SqliteStore(path)
    await store.open()  # again: nothing to apply, nothing breaks
    assert await store.schema_version() == migrations()[-1][0]
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "players", "guild_settings", "schema_migrations"} <= tables


async def test_games_are_stored_and_versions_guard_every_change(tmp_path) -> None:
    store = await open_store(str(tmp_path / "pe.sqlite3"))
    game = await store.create_game(new())
    assert (game.version, game.status, game.moves, game.options["draw"]) == (0, "playing", [], 3)
    saved = await store.save_game(game.id, expected_version=0, moves=["d", "rt4"], snapshot="{}", status="playing",
                                  score=-11)
    assert (saved.version, saved.moves, saved.score) == (1, ["d", "rt4"], -11)
    with pytest.raises(VersionConflict):
        await store.save_game(game.id, expected_version=0, moves=["d"], snapshot=None, status="playing", score=0)
    assert (await store.get_game(game.id)).moves == ["d", "rt4"]
    assert (await store.running_game(1, 10)).id == game.id
    assert await store.running_game(1, 11) is None and await store.running_game(2, 10) is None
    await store.save_game(game.id, expected_version=1, moves=["d"], snapshot=None, status="resigned", score=-12)
    assert await store.running_game(1, 10) is None
    with pytest.raises(StoreError, match="'lost'"):
        await store.save_game(game.id, expected_version=2, moves=[], snapshot=None, status="lost", score=0)
    assert await store.count_games() == 1
    await store.close()


async def test_a_game_in_a_dm_has_no_channel_and_is_still_found(tmp_path) -> None:
    store = await open_store(str(tmp_path / "pe.sqlite3"))
    game = await store.create_game(new(channel_id=None))
    assert (await store.running_game(1, None)).id == game.id
    await store.close()


async def test_concurrent_saves_on_one_version_land_exactly_once(tmp_path) -> None:
    store = await open_store(str(tmp_path / "pe.sqlite3"))
    game = await store.create_game(new())
    results = await asyncio.gather(*(
        store.save_game(game.id, expected_version=0, moves=[f"m{i}"], snapshot=None, status="playing", score=0)
        for i in range(5)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, VersionConflict) for r in results if isinstance(r, Exception))
    assert (await store.get_game(game.id)).version == 1
    await store.close()


async def test_players_and_settings(tmp_path) -> None:
    store = await open_store(str(tmp_path / "pe.sqlite3"))
    await store.upsert_player(1, "alice")
    await store.upsert_player(1, "Alice")
    await store.set_setting(5, "prefix", "?")
    await store.set_setting(5, "prefix", "$")
    assert await store.get_settings(5) == {"prefix": "$"} and await store.get_settings(6) == {}
    await store.close()


async def test_a_corrupt_options_row_is_read_without_crashing(tmp_path) -> None:
    path = tmp_path / "pe.sqlite3"
    store = await open_store(str(path))
    game = await store.create_game(new())
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET options = 'not json' WHERE id = ?", (game.id,))
    store = await open_store(str(path))
    assert (await store.get_game(game.id)).options == {"corrupt": "not json"}
    await store.close()


def test_database_urls() -> None:
    assert str(store_for("sqlite:///data/x.sqlite3").path) == "data/x.sqlite3"
    assert str(store_for("sqlite:////tmp/x.sqlite3").path) == "/tmp/x.sqlite3"
    assert str(store_for("plain/file.db").path) == "plain/file.db"
    with pytest.raises(StoreError, match="postgresql://"):
        store_for("postgresql://localhost/db")
