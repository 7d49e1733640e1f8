"""The daily post, the streak reminder and /remind's answer as members read them."""

from __future__ import annotations

from bot.play.ritual import DailyPost, DayCount, Placing, Recap, Reminder, StreakLine
from bot.words import DISCORD
from bot.words.ritual import daily_post_text, reminder_answer_text, reminder_text
from tests.play.test_daily import at

RECAP = Recap(day="2026-11-26", game="canfield", players=3, wins=1, winners=(Placing(1, "alice", 352, True),),
              best=(Placing(1, "alice", 352, True), Placing(2, "bob", 40, False)),
              kept=(StreakLine(1, "alice", 3),), broken=(StreakLine(3, "carol", 4),))
POST = DailyPost(guild_id=5, channel_id=7, key="2026-11-27", game="canfield", role_id=None,
                 today=DayCount("2026-11-27", 2, 1), recap=RECAP)


def test_the_daily_post_names_todays_daily_and_yesterdays_results_by_mention() -> None:
    assert daily_post_text(POST, DISCORD) == (
        "**Daily · 2026-11-27** · Canfield\n"
        "Today's daily of **Canfield** is here: one deal for everyone, one attempt each. Press Play to start yours "
        "privately (or /daily).\n"
        "So far 2 players, 1 win.\n"
        "\n"
        "**Yesterday · 2026-11-26**\n"
        "3 players, 1 won.\n"
        "Won by <@1>.\n"
        "Best scores: <@1> 352 · <@2> 40.\n"
        "Longest streaks: <@1> 3 days.\n"
        "Streaks broken: <@3> 4 days.")


def test_a_quiet_day_and_a_role_read_plainly() -> None:
    empty = Recap(day="2026-11-26", game="canfield", players=0, wins=0, winners=(), best=(), kept=(), broken=())
    quiet = DailyPost(guild_id=5, channel_id=7, key="2026-11-27", game="patriarchs", role_id=9,
                      today=DayCount("2026-11-27", 0, 0), recap=empty)
    text = daily_post_text(quiet, DISCORD)
    assert text.splitlines()[1] == "<@&9>"
    assert "Nobody has played it yet." in text and "Nobody played yesterday's daily." in text
    assert "@everyone" not in text and "@here" not in text
    assert "Die heutige Tagesaufgabe" in daily_post_text(quiet, DISCORD.speaking("de"))


def test_the_reminder_says_when_the_daily_closes_in_the_servers_time_zone() -> None:
    reminder = Reminder(user_id=1, streak=5, ends_at=at("2026-11-28 00:00"), timezone="Europe/Paris")
    assert reminder_text(reminder, DISCORD) == (
        "Your daily streak is 5 days long: play today's daily before **01:00** (Europe/Paris) to keep it. /daily\n"
        "(You asked for this reminder; /remind daily off turns it off.)")
    assert reminder_answer_text(True, DISCORD).startswith("Streak reminders on: when you have a daily streak of 2 days")
    assert reminder_answer_text(False, DISCORD) == "Streak reminders off."
