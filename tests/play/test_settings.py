"""A server's settings kept in memory: read once, forgotten when this process changes them."""

from __future__ import annotations

import asyncio

import pytest

from bot.play import settings
from bot.play.errors import BadSetting
from bot.play.settings import DEFAULT_DAILY_HOUR, ServerSettings, change_settings, load_settings
from bot.store import open_store

GUILD = 5


async def test_settings_are_read_once_and_forgotten_when_changed(database_url: str) -> None:
    store, elsewhere = await open_store(database_url), await open_store(database_url)
    try:
        assert (await load_settings(store, GUILD)).language is None
        # Another process's change (straight into the database) is not seen while they are kept...
        await change_settings(elsewhere, GUILD, language="fr")
        assert (await load_settings(store, GUILD)).language is None
        # ...but this process's own change is, at once.
        assert (await change_settings(store, GUILD, target=150)).language == "fr"
        kept = await load_settings(store, GUILD)
        assert (kept.language, kept.target) == ("fr", 150)
    finally:
        await store.close()
        await elsewhere.close()


async def test_kept_settings_are_read_again_after_a_while(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store, elsewhere = await open_store(database_url), await open_store(database_url)
    try:
        await load_settings(store, GUILD)
        await change_settings(elsewhere, GUILD, language="de")
        monkeypatch.setattr(settings, "SETTINGS_KEPT", 0.0)
        assert (await load_settings(store, GUILD)).language == "de"
    finally:
        await store.close()
        await elsewhere.close()


async def test_a_read_overtaken_by_a_change_is_not_kept(database_url: str) -> None:
    store = await open_store(database_url)
    try:
        reading, changed = asyncio.Event(), asyncio.Event()
        read = store.stats.get_settings

        async def slow_read(guild_id: int) -> dict[str, str]:
            values = await read(guild_id)  # the values before the change...
            reading.set()
            await changed.wait()  # ...arrive after it
            return values

        store.stats.get_settings = slow_read  # type: ignore[method-assign]
        old = asyncio.ensure_future(load_settings(store, GUILD))
        await reading.wait()
        store.stats.get_settings = read  # type: ignore[method-assign]
        await change_settings(store, GUILD, prefix="?")
        changed.set()
        assert (await old).prefix is None  # the read in progress saw the old value
        assert (await load_settings(store, GUILD)).prefix == "?"  # and it was not kept
    finally:
        await store.close()


async def test_the_time_zone_season_and_daily_post_settings_refuse_bad_input_and_change_nothing(
        database_url: str) -> None:
    store = await open_store(database_url)
    try:
        assert (await load_settings(store, GUILD)) == ServerSettings()
        for bad in ({"timezone": "Mars/Olympus"}, {"timezone": "../../etc/passwd"}, {"timezone": ""},
                    {"timezone": "Europe/Paris "}, {"season": "decade"}, {"daily_hour": 24}, {"daily_hour": -1},
                    {"daily_game": "chess"}, {"daily_post": "sometimes"}, {"daily_role": GUILD},
                    {"daily_channel": 5, "target": 0}):
            with pytest.raises(BadSetting):
                await change_settings(store, GUILD, **bad)  # type: ignore[arg-type]
        assert await store.stats.get_settings(GUILD) == {}  # nothing was written, not even the good values

        changed = await change_settings(store, GUILD, timezone="America/New_York", season="week", daily_channel=5,
                                        daily_hour=20, daily_game="patriarchs", daily_role=7)
        assert (changed.timezone, changed.season, changed.daily_channel, changed.daily_hour, changed.daily_game,
                changed.daily_role, changed.posts_daily) == ("America/New_York", "week", 5, 20, "patriarchs", 7, True)
        assert changed.zone.key == "America/New_York"
        off = await change_settings(store, GUILD, daily_post="off")
        assert not off.posts_daily and off.daily_channel == 5  # the channel is kept for when it is on again
        quiet = await change_settings(store, GUILD, daily_post="quiet")
        assert quiet.posts_daily and quiet.daily_role is None
        assert (await change_settings(store, GUILD, daily_channel=6)).daily_channel == 6
    finally:
        await store.close()


async def test_a_damaged_time_zone_setting_reads_as_utc(database_url: str) -> None:
    store = await open_store(database_url)
    try:
        await store.stats.set_setting(GUILD, "timezone", "Nowhere/Atall")
        await store.stats.set_setting(GUILD, "daily_hour", "25")
        settings = await load_settings(store, GUILD)
        assert (settings.timezone, settings.zone.key, settings.daily_hour) == ("UTC", "UTC", DEFAULT_DAILY_HOUR)
    finally:
        await store.close()
