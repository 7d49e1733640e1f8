"""The daily ritual through the real discord.py client against the fake Discord, with the bot's wall
clock moved (tests.e2e.clockbot): the post comes at the hour and not before, once (a restart in the
same hour makes no second one), its Play button starts the pressing member's daily, it is edited
as results come in, and the next day's names yesterday's winner; streak reminders."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.play.settings import change_settings
from bot.store import open_store
from tests.samples import won_game

from .fakediscord import FakeDiscord, StoredMessage
from .harness import BotProcess, BotRunner, said
from .test_bot import SOLVER_WAIT

WON = won_game("canfield")
FIRST = date.today() + timedelta(days=3)  # days of the bot's moved clock: ahead of the real one
SECOND = FIRST + timedelta(days=1)
ROLE = 1_500_000_000_000_000_001


def clock_at(day: date, hour: int, minute: int = 0) -> dict[str, str]:
    """The environment that puts the bot's wall clock at this UTC time (tests.e2e.clockbot)."""
    moment = datetime.combine(day, datetime.min.time(), UTC).replace(hour=hour, minute=minute)
    return {"CLOCK_OFFSET": str(moment.timestamp() - time.time())}


async def start_at(bots: BotRunner, tmp_path: Path, day: date, hour: int, minute: int = 0) -> BotProcess:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'pe.sqlite3'}", "HEALTH_FILE": str(tmp_path / "alive")}
    return await bots.start_bot("tests.e2e.clockbot", env={**env, **clock_at(day, hour, minute)})


async def restart_at(bot: BotProcess, day: date, hour: int, minute: int = 0) -> None:
    await bot.stop()
    bot.env.update(clock_at(day, hour, minute))
    await bot.start()


def posts(fake: FakeDiscord, channel_id: int) -> list[StoredMessage]:
    """The bot's daily posts in a channel."""
    return [m for m in fake.channel_messages(channel_id=channel_id)
            if m.author == fake.bot_user and not m.ephemeral and said(m).startswith("**Daily · ")]


async def eventually(check, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    for _ in range(int(timeout / 0.1)):
        if check():
            return True
        await asyncio.sleep(0.1)
    return bool(check())


def give_daily_a_known_winning_deck(database: Path, user_id: int) -> None:
    """Turn a player's daily in play into a deal whose winning line we know (the bot is down)."""
    with sqlite3.connect(database) as db:
        changed = db.execute("UPDATE games SET deal = NULL, cards = ?, snapshot = NULL, moves = '' "
                             "WHERE user_id = ? AND kind = 'daily' AND status = 'playing'",
                             ("".join(str(card) for card in WON.cards), user_id)).rowcount
    assert changed == 1


async def test_the_daily_post_comes_at_the_hour_once_and_the_next_names_yesterdays_winner(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    dailies = fake.add_channel("daily")
    bot = await start_at(bots, tmp_path, FIRST, 8, 50)
    set_up = await (await fake.slash_command("alice", "settings", {"daily_channel": dailies.id, "daily_hour": 9})
                    ).wait_response()
    assert "The daily of **Canfield** is posted in" in said(set_up)
    assert "at **09:00**, mentioning nobody" in said(set_up)
    refused = await (await fake.slash_command("alice", "settings", {"timezone": "Mars/Olympus"})).wait_response()
    assert said(refused).startswith("Unknown time zone 'Mars/Olympus'")

    await restart_at(bot, FIRST, 8, 59)  # a minute before the hour: nothing
    await asyncio.sleep(1.5)
    assert posts(fake, dailies.id) == []

    await restart_at(bot, FIRST, 9, 1)
    assert await eventually(lambda: len(posts(fake, dailies.id)) == 1)
    [post] = posts(fake, dailies.id)
    assert said(post).startswith(f"**Daily · {FIRST}** · Canfield\nToday's daily of **Canfield** is here")
    assert "Nobody has played it yet." in said(post) and "Nobody played yesterday's daily." in said(post)
    sent = [r for r in fake.requests if r.method == "POST" and r.path.endswith(f"/channels/{dailies.id}/messages")]
    assert sent[0].payload["allowed_mentions"] == {"parse": []}  # nobody is pinged

    # Play starts the pressing member's own daily, privately.
    alices = await (await fake.click("alice", post, label="Play")).wait_response(timeout=SOLVER_WAIT)
    assert alices.ephemeral and f"Daily · {FIRST}" in alices.text() and alices.attachment("board.png")
    bobs = await (await fake.click("bob", post, label="Play")).wait_response(timeout=SOLVER_WAIT)
    await (await fake.click("bob", bobs, label="Resign")).wait_response(timeout=SOLVER_WAIT)

    # A restart in the same hour makes no second post; alice wins hers meanwhile.
    await bot.stop()
    give_daily_a_known_winning_deck(tmp_path / "pe.sqlite3", fake.alice.id)
    bot.env.update(clock_at(FIRST, 9, 3))
    await bot.start()
    line = " ".join(str(move) for move in WON.moves)
    won = await (await fake.slash_command("alice", "move", {"moves": line}, channel_id=dailies.id)
                 ).wait_response(timeout=SOLVER_WAIT)
    assert "You won! Score 352." in said(won)
    await asyncio.sleep(1)
    assert len(posts(fake, dailies.id)) == 1

    # The next round, a minute on, shows the results so far in the post.
    await restart_at(bot, FIRST, 9, 5)
    assert await eventually(lambda: "So far 2 players, 1 win." in said(post))
    assert len(posts(fake, dailies.id)) == 1

    # The next day's post, with a role to mention, names yesterday's winner.
    role = await (await fake.slash_command("alice", "settings", {"daily_role": ROLE})).wait_response()
    assert f"mentioning <@&{ROLE}>" in said(role)
    everyone = await (await fake.slash_command("alice", "settings", {"daily_role": fake.guild_id})).wait_response()
    assert said(everyone) == "The daily post mentions a role members chose to take, not @everyone."
    await restart_at(bot, SECOND, 9, 0)
    assert await eventually(lambda: len(posts(fake, dailies.id)) == 2)
    news = posts(fake, dailies.id)[1]
    text = said(news)
    assert text.startswith(f"**Daily · {SECOND}** · Canfield\n<@&{ROLE}>\n")
    assert f"**Yesterday · {FIRST}**\n2 players, 1 won.\nWon by <@{fake.alice.id}>." in text
    assert f"Best scores: <@{fake.alice.id}> 352 · <@{fake.bob.id}> " in text
    sent = [r for r in fake.requests if r.method == "POST" and r.path.endswith(f"/channels/{dailies.id}/messages")
            and r.payload.get("components")]  # the daily posts (a season that ended may be posted there too)
    assert sent[-1].payload["allowed_mentions"]["parse"] == []  # the role, and nobody else
    assert [int(role) for role in sent[-1].payload["allowed_mentions"]["roles"]] == [ROLE]
    assert not fake.failed_interactions


def add_daily_days(database: Path, user_id: int, days: list[date], guild_id: int) -> None:
    """Resigned daily attempts of a player on these days, as if played then (the bot is down)."""
    with sqlite3.connect(database) as db:
        for day in days:
            moment = datetime.combine(day, datetime.min.time(), UTC).timestamp() + 3600
            game_id = db.execute(
                "INSERT INTO games (guild_id, channel_id, user_id, name, options, deal, status, score, created_at, "
                "updated_at, kind, undo_allowed, finished_at) VALUES (?, 1, ?, 'canfield', '{}', 1, 'resigned', -12, "
                "?, ?, 'daily', 0, ?)", (guild_id, user_id, moment, moment, moment)).lastrowid
            db.execute("INSERT INTO daily_attempts (day, game, user_id, guild_id, game_id) "
                       "VALUES (?, 'canfield', ?, ?, ?)", (day.isoformat(), user_id, guild_id, game_id))


async def test_a_streak_reminder_comes_once_late_in_the_day_and_closed_dms_change_nothing(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    carol = fake.add_user("carol")
    bot = await start_at(bots, tmp_path, SECOND, 12)
    for who in ("alice", "bob", "carol"):
        on = await (await fake.slash_command(who, "remind daily", {"state": "on"})).wait_response()
        assert on.ephemeral and said(on).startswith("Streak reminders on:")
    await bot.stop()
    for who in (fake.alice, fake.bob):
        add_daily_days(tmp_path / "pe.sqlite3", who.id, [FIRST - timedelta(days=1), FIRST], fake.guild_id)
    add_daily_days(tmp_path / "pe.sqlite3", carol.id, [FIRST], fake.guild_id)  # one day: no streak to save
    fake.closed_dms.add(fake.bob.id)
    bot.env.update(clock_at(SECOND, 19, 30))  # too early
    await bot.start()
    await asyncio.sleep(1.5)
    assert fake.channel_messages(channel_id=fake.dm_channel("alice").id) == []
    await restart_at(bot, SECOND, 20, 30)
    to_alice = fake.dm_channel("alice").id
    assert await eventually(lambda: len(fake.channel_messages(channel_id=to_alice)) == 1)
    [reminder] = fake.channel_messages(channel_id=to_alice)
    assert said(reminder).startswith("Your daily streak is 2 days long: play today's daily before **00:00** (UTC)")
    await restart_at(bot, SECOND, 21, 0)
    await asyncio.sleep(1.5)
    assert len(fake.channel_messages(channel_id=to_alice)) == 1  # once a day
    assert fake.channel_messages(channel_id=fake.dm_channel("carol").id) == []
    refused = [r for r in fake.requests if r.status == 403 and "/channels/" in r.path]
    assert len(refused) == 1  # bob's closed DMs: tried once, nothing else
    assert [m for m in fake.channel_messages() if not m.ephemeral and "streak" in said(m)] == []  # nothing public


async def test_a_season_end_posts_its_final_standings_once(fake: FakeDiscord, bots: BotRunner,
                                                           tmp_path: Path) -> None:
    dailies = fake.add_channel("daily")
    first_of_next = (FIRST.replace(day=28) + timedelta(days=4)).replace(day=1)
    month = FIRST.strftime("%Y-%m")
    bot = await start_at(bots, tmp_path, FIRST, 12)
    await (await fake.slash_command("alice", "settings", {"daily_channel": dailies.id, "daily_hour": 23})
           ).wait_response()
    board = await (await fake.slash_command("bob", "play", {"deal": 7})).wait_response(timeout=SOLVER_WAIT)
    await (await fake.click("bob", board, label="Resign")).wait_response(timeout=SOLVER_WAIT)

    def season_posts() -> list[StoredMessage]:
        return [m for m in fake.channel_messages(channel_id=dailies.id) if m.content.startswith("**Season ")]

    await restart_at(bot, first_of_next, 0, 5)
    assert await eventually(lambda: len(season_posts()) == 1)
    [post] = season_posts()
    assert post.content.startswith(f"**Season {month} is over: the final standings**\n\n"
                                   "**Players**\n1. Bob: -12 points, 0 wins\n")
    assert "**Rating**\nNobody played." in post.content and "**Daily Canfield**\nNobody played." in post.content
    sent = [r for r in fake.requests if r.method == "POST" and r.path.endswith(f"/channels/{dailies.id}/messages")]
    assert sent[-1].payload["allowed_mentions"] == {"parse": []}
    await restart_at(bot, first_of_next, 0, 10)
    await asyncio.sleep(1.5)
    assert len(season_posts()) == 1 and posts(fake, dailies.id) == []  # once; the daily's hour is 23:00
    past = await (await fake.slash_command("alice", "leaderboard", {"season": month})).wait_response()
    assert f"Players · season {month} · this server" in said(past) and "Bob" in said(past)


async def test_each_servers_post_is_made_once_by_whichever_shard_process_is_up(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path, database_url: str) -> None:
    home = fake.guilds[fake.guild_id]
    away = fake.add_guild("Second Guild", fake.guild_id + (1 << 22))  # on shard 1 of 2
    store = await open_store(database_url)
    try:
        for guild in (home, away):
            await change_settings(store, guild.id, daily_channel=guild.channel_id, daily_hour=9)
    finally:
        await store.close()

    async def shard(shard_id: int) -> BotProcess:
        env = {"DATABASE_URL": database_url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard_id),
               "HEALTH_FILE": str(tmp_path / f"alive-{shard_id}"), **clock_at(FIRST, 9, 1)}
        return await bots.start_bot("tests.e2e.clockbot", env=env, ready_line="has connected to Gateway")

    first = await shard(0)  # shard 1's process is down: shard 0's posts for both servers
    for guild in (home, away):
        assert await eventually(lambda guild=guild: len(posts(fake, guild.channel_id)) == 1), guild.name
    second = await shard(1)
    await first.stop()
    await first.start(ready_line="has connected to Gateway")
    await asyncio.sleep(1.5)
    assert [len(posts(fake, guild.channel_id)) for guild in (home, away)] == [1, 1]
    assert second.running and "Traceback" not in bots.logs()
