"""The daily ritual as data: when a server's post is due, what its recap says, its edits, and the
streak reminders; each claimed once between processes (two stores on one database)."""

from __future__ import annotations

import asyncio
from zoneinfo import ZoneInfo

import pytest

from bot.play import Player, SoloPlay
from bot.play.errors import BadSetting
from bot.play.leaderboards import Leaderboards
from bot.play.ritual import (
    CLAIM_STALE,
    EDIT_EVERY,
    Placing,
    Ritual,
    StreakLine,
    post_due,
    post_time,
    recap,
    remind_now,
    reminder_streak,
)
from bot.play.settings import ServerSettings, change_settings
from bot.store import NewGame, Store, open_store
from bot.store.base import DailyDay, DailyResult
from tests.play.test_daily import ALICE, BOB, CAROL, FakeClock, at, win_daily

PARIS = ZoneInfo("Europe/Paris")
GUILD, CHANNEL = 5, 77


def test_a_post_is_due_from_its_hour_in_the_servers_time_zone_until_the_local_day_ends() -> None:
    paris = ServerSettings(timezone="Europe/Paris", daily_channel=CHANNEL, daily_hour=9)
    assert post_due(paris, at("2026-11-27 07:59")) is None  # 08:59 in Paris
    assert post_due(paris, at("2026-11-27 08:00")) == "2026-11-27"
    assert post_due(paris, at("2026-11-27 22:59")) == "2026-11-27"  # late, the same local day
    assert post_due(paris, at("2026-11-27 23:00")) is None  # 00:00 on the 28th in Paris: not yet that day's
    assert post_due(paris, at("2026-07-01 07:00")) == "2026-07-01"  # summer time: 09:00 is 07:00 UTC
    assert post_due(ServerSettings(daily_channel=CHANNEL, daily_on=False), at("2026-11-27 23:00")) is None
    assert post_due(ServerSettings(), at("2026-11-27 23:00")) is None  # no channel set
    # An hour that the clock change skips (02:00 on 2026-03-29 in Paris) still comes, once.
    assert post_time("2026-03-29", 2, PARIS) == at("2026-03-29 01:00")
    tokyo = ServerSettings(timezone="Asia/Tokyo", daily_channel=CHANNEL, daily_hour=6)
    assert post_due(tokyo, at("2026-11-27 21:00")) == "2026-11-28"  # 06:00 on the 28th in Tokyo


def result(user: Player, day: str, status: str, score: int) -> DailyResult:
    return DailyResult(day=day, user_id=user.id, name=user.name, status=status, score=score, finished_at=None)


def test_a_recap_names_the_winners_the_best_scores_and_the_streaks_kept_and_broken() -> None:
    dave = Player(4, "dave")
    results = [result(ALICE, "2026-11-26", "won", 352), result(BOB, "2026-11-26", "resigned", 40),
               result(dave, "2026-11-26", "playing", 0), result(CAROL, "2026-11-25", "won", 352)]
    played = {ALICE: ["2026-11-24", "2026-11-25", "2026-11-26"], BOB: ["2026-11-26"], dave: ["2026-11-26"],
              CAROL: ["2026-11-23", "2026-11-24", "2026-11-25"]}
    days = [DailyDay(user_id=p.id, name=p.name, day=d, won=False) for p, ds in played.items() for d in ds]
    told = recap("2026-11-26", "canfield", results, days)
    assert (told.players, told.wins) == (3, 1)  # dave is still playing: counted, not placed
    assert told.winners == (Placing(ALICE.id, "alice", 352, True),)
    assert told.best == (Placing(ALICE.id, "alice", 352, True), Placing(BOB.id, "bob", 40, False))
    assert told.kept == (StreakLine(ALICE.id, "alice", 3),)  # bob's and dave's one day is no streak yet
    assert told.broken == (StreakLine(CAROL.id, "carol", 3),)
    assert recap("2026-11-20", "canfield", results, days).players == 0


def test_a_reminder_is_for_a_streak_of_two_days_not_yet_played_today_late_in_the_utc_day() -> None:
    assert reminder_streak(["2026-11-25", "2026-11-26"], "2026-11-27") == 2
    assert reminder_streak(["2026-11-25", "2026-11-26", "2026-11-27"], "2026-11-27") is None  # played today
    assert reminder_streak(["2026-11-26"], "2026-11-27") is None  # one day is not worth a reminder
    assert reminder_streak(["2026-11-24", "2026-11-25"], "2026-11-27") is None  # already broken
    assert not remind_now(at("2026-11-27 19:59")) and remind_now(at("2026-11-27 20:00"))
    assert remind_now(at("2026-11-27 23:59")) and not remind_now(at("2026-11-28 00:00"))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at("2026-11-27 07:30"))  # 08:30 in Paris


async def lose_daily(store: Store, solo: SoloPlay, player: Player, day: str) -> int:
    """A resigned daily attempt of `day` on the server (score -12 or so): its game id."""
    await store.games.upsert_player(player.id, player.name)
    stored = await store.games.create_game(NewGame(
        guild_id=GUILD, channel_id=10, user_id=player.id, name="canfield", options={}, deal=1, cards=None,
        snapshot=None, score=0, kind="daily", undo_allowed=False))
    assert await store.stats.claim_daily(day, "canfield", player.id, GUILD, stored.id) == stored.id
    await solo.resign(stored.id, player)
    return stored.id


async def test_each_days_post_is_claimed_once_between_processes_and_late_when_none_was_up(
        database_url: str, clock: FakeClock) -> None:
    one, two = await open_store(database_url, clock), await open_store(database_url, clock)
    try:
        await change_settings(one, GUILD, timezone="Europe/Paris", daily_channel=CHANNEL, daily_hour=9, daily_role=8)
        rituals = Ritual(one, Leaderboards(one, clock), clock), Ritual(two, Leaderboards(two, clock), clock)
        solo = SoloPlay(one, clock=clock)
        await win_daily(one, solo, ALICE, "2026-11-26")
        await lose_daily(one, solo, BOB, "2026-11-26")
        assert await rituals[0].posts_due() == []  # 08:30 in Paris: not yet
        clock.set("2026-11-27 10:00")  # no process was up at 09:00: the post comes late, once
        first, second = await asyncio.gather(rituals[0].posts_due(), rituals[1].posts_due())
        assert len(first + second) == 1
        post = (first + second)[0]
        assert (post.guild_id, post.channel_id, post.key, post.day, post.game, post.role_id) == (
            GUILD, CHANNEL, "2026-11-27", "2026-11-27", "canfield", 8)
        assert (post.recap.day, post.recap.players, post.recap.wins) == ("2026-11-26", 2, 1)
        assert post.recap.winners[0].name == "alice" and (post.today.players, post.today.wins) == (0, 0)
        # Its process died before sending it: after a while another takes it on, once.
        clock.advance(CLAIM_STALE - 1)
        assert await rituals[1].posts_due() == []
        clock.advance(2)
        again = await rituals[1].posts_due()
        assert [p.key for p in again] == ["2026-11-27"]
        await rituals[1].sent(again[0], 1234)
        clock.advance(CLAIM_STALE * 10)
        assert await rituals[0].posts_due() == [] and await rituals[1].posts_due() == []
        clock.set("2026-11-28 08:00")  # the next day in Paris, at 09:00
        tomorrow = await rituals[0].posts_due()
        assert [(p.key, p.recap.day) for p in tomorrow] == [("2026-11-28", "2026-11-27")]
    finally:
        await one.close()
        await two.close()


async def test_a_sent_post_is_edited_as_results_come_in_at_most_once_a_minute(
        database_url: str, clock: FakeClock) -> None:
    store = await open_store(database_url, clock)
    try:
        await change_settings(store, GUILD, daily_channel=CHANNEL, daily_hour=7)
        ritual, solo = Ritual(store, Leaderboards(store, clock), clock), SoloPlay(store, clock=clock)
        [post] = await ritual.posts_due()
        await ritual.sent(post, 99)
        clock.advance(EDIT_EVERY)
        assert await ritual.edits_due() == []  # nothing changed
        await win_daily(store, solo, ALICE, "2026-11-27")
        clock.advance(1)
        [edit] = await ritual.edits_due()
        assert edit.message_id == 99 and (edit.post.today.players, edit.post.today.wins) == (1, 1)
        await lose_daily(store, solo, BOB, "2026-11-27")
        clock.advance(EDIT_EVERY - 1)
        assert await ritual.edits_due() == []  # within a minute of the last edit
        clock.advance(1)
        other_store = await open_store(database_url, clock)
        other = Ritual(other_store, Leaderboards(other_store, clock), clock)
        try:
            both = await asyncio.gather(ritual.edits_due(), other.edits_due())
        finally:
            await other.store.close()
        assert [(e.post.today.players, e.post.today.wins) for e in both[0] + both[1]] == [(2, 1)]
        clock.set("2026-11-28 01:00")  # the day's attempts are over: no more edits
        await lose_daily(store, solo, CAROL, "2026-11-27")
        clock.advance(EDIT_EVERY)
        assert await ritual.edits_due() == []
    finally:
        await store.close()


async def test_a_reminder_goes_once_a_day_to_whoever_asked_with_a_streak_to_save(
        database_url: str, clock: FakeClock) -> None:
    store = await open_store(database_url, clock)
    try:
        await change_settings(store, GUILD, timezone="Europe/Paris")
        ritual, solo = Ritual(store, Leaderboards(store, clock), clock), SoloPlay(store, clock=clock)
        for day in ("2026-11-25", "2026-11-26"):
            for player in (ALICE, BOB, CAROL):
                await lose_daily(store, solo, player, day)
        await lose_daily(store, solo, CAROL, "2026-11-27")  # carol played today already
        assert await ritual.set_reminder(ALICE.id, "on", GUILD)
        await ritual.set_reminder(CAROL.id, "on", None)
        await ritual.set_reminder(BOB.id, "on", GUILD)
        assert not await ritual.set_reminder(BOB.id, "off", GUILD)  # bob changed his mind
        with pytest.raises(BadSetting):
            await ritual.set_reminder(BOB.id, "sometimes", GUILD)
        assert await ritual.reminders_due() == []  # 07:30 UTC: too early
        clock.set("2026-11-27 20:30")
        [reminder] = await ritual.reminders_due()
        assert (reminder.user_id, reminder.streak, reminder.ends_at, reminder.timezone) == (
            ALICE.id, 2, at("2026-11-28 00:00"), "Europe/Paris")
        assert await ritual.reminders_due() == []  # once a day
        clock.set("2026-11-28 21:00")  # alice missed the 27th: her streak is gone; carol's is 3 days
        assert [(r.user_id, r.streak, r.timezone) for r in await ritual.reminders_due()] == [(CAROL.id, 3, "UTC")]
    finally:
        await store.close()


async def test_a_seasons_standings_are_posted_once_when_it_ends_and_keep_its_edges(
        database_url: str, clock: FakeClock) -> None:
    one, two = await open_store(database_url, clock), await open_store(database_url, clock)
    try:
        await change_settings(one, GUILD, timezone="Europe/Paris", daily_channel=CHANNEL)
        boards = Leaderboards(one, clock)
        rituals = Ritual(one, boards, clock), Ritual(two, Leaderboards(two, clock), clock)
        solo = SoloPlay(one, clock=clock)
        await lose_daily(one, solo, ALICE, "2026-11-27")
        assert await rituals[0].season_posts_due() == []  # October ended weeks ago: not posted now
        clock.set("2026-11-30 23:30")  # 00:30 on December 1st in Paris: November is over
        first, second = await asyncio.gather(rituals[0].season_posts_due(), rituals[1].season_posts_due())
        [post] = first + second
        assert (post.guild_id, post.channel_id, post.key) == (GUILD, CHANNEL, "2026-11")
        players = post.standings.boards[0]
        assert [row[1] for row in players.rows] == ["alice"]
        await rituals[0].sent(post, 55)
        clock.advance(CLAIM_STALE * 10)
        assert await rituals[0].season_posts_due() == [] and await rituals[1].season_posts_due() == []
        # The season keeps the edges it had when it was posted, whatever the settings become.
        await change_settings(one, GUILD, timezone="Asia/Tokyo", season="week")
        kept = await boards.season(GUILD, "2026-11")
        assert (kept.starts, kept.ends) == (at("2026-10-31 23:00"), at("2026-11-30 23:00"))
        assert (await boards.season(GUILD, "2026-10")).starts == at("2026-09-30 15:00")  # Tokyo's, never posted
        clock.set("2026-12-03 00:01")  # more than two days after: a channel set now would not get November's
        await change_settings(one, 6, daily_channel=CHANNEL)
        assert await rituals[0].season_posts_due() == []
    finally:
        await one.close()
        await two.close()
