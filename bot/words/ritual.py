"""What a server's daily channel reads every day (today's daily, so far, yesterday's recap), what a
member reads of their streak reminder, and the answer to `/remind`. Members are named by mention,
which pings nobody: the message's allowed mentions decide (only the role a server chose)."""

from __future__ import annotations

from datetime import datetime

from bot.game import TITLES
from bot.play.ritual import REMIND_BEFORE, REMIND_STREAK, DailyPost, Placing, Recap, Reminder, StreakLine
from bot.play.settings import time_zone
from bot.words.voice import Voice

POST_LIMIT = 3800  # what the post's text may take of the 4,000 characters of a V2 message


def daily_post_text(post: DailyPost, voice: Voice) -> str:
    """The daily post: a heading, today's daily and how it goes so far, then yesterday's recap."""
    _ = voice.gettext
    title = TITLES.get(post.game, post.game)
    lines = [voice.bold(_("Daily · {day}", day=post.day)) + f" · {title}"]
    if post.role_id is not None:
        lines.append(voice.role(post.role_id))
    lines.append(_("Today's daily of {game} is here: one deal for everyone, one attempt each. Press Play to start "
                   "yours privately (or {daily}).", game=voice.bold(title), daily=voice.command("daily")))
    lines.append(so_far_text(post, voice))
    lines.append("")
    lines.extend(recap_lines(post.recap, voice))
    text = "\n".join(lines)
    return text if len(text) <= POST_LIMIT else text[:POST_LIMIT - 1] + "…"


def so_far_text(post: DailyPost, voice: Voice) -> str:
    """How today's daily goes on this server so far."""
    today = post.today
    if not today.players:
        return voice.gettext("Nobody has played it yet.")
    played = voice.ngettext("So far {count} player", "So far {count} players", today.players)
    won = voice.ngettext("{count} win", "{count} wins", today.wins)
    return f"{played}, {won}."


def recap_lines(recap: Recap, voice: Voice) -> list[str]:
    """Yesterday's daily on this server, in a few lines."""
    _ = voice.gettext
    heading = voice.bold(_("Yesterday · {day}", day=recap.day))
    if not recap.players:
        lines = [heading, _("Nobody played yesterday's daily.")]
    else:
        played = voice.ngettext("{count} player", "{count} players", recap.players)
        won = voice.ngettext("{count} won", "{count} won", recap.wins)
        lines = [heading, f"{played}, {won}."]
        if recap.winners:
            names = ", ".join(voice.mention(p.user_id) for p in recap.winners)
            more = recap.wins - len(recap.winners)
            if more:
                names += " " + voice.ngettext("and {count} more", "and {count} more", more)
            lines.append(_("Won by {names}.", names=names))
        if recap.best:
            lines.append(_("Best scores: {scores}.", scores=" · ".join(_placing(p, voice) for p in recap.best)))
    if recap.kept:
        lines.append(_("Longest streaks: {streaks}.", streaks=" · ".join(_streak(s, voice) for s in recap.kept)))
    if recap.broken:
        lines.append(_("Streaks broken: {streaks}.", streaks=" · ".join(_streak(s, voice) for s in recap.broken)))
    return lines


def _placing(placing: Placing, voice: Voice) -> str:
    return f"{voice.mention(placing.user_id)} {placing.score}"


def _streak(line: StreakLine, voice: Voice) -> str:
    return voice.mention(line.user_id) + " " + voice.ngettext("{count} day", "{count} days", line.days)


def reminder_text(reminder: Reminder, voice: Voice) -> str:
    """A member's streak reminder, in a private message."""
    ends = datetime.fromtimestamp(reminder.ends_at, time_zone(reminder.timezone))
    return voice.ngettext(
        "Your daily streak is {count} day long: play today's daily before {time} ({timezone}) to keep it. {daily}",
        "Your daily streak is {count} days long: play today's daily before {time} ({timezone}) to keep it. {daily}",
        reminder.streak, time=voice.bold(ends.strftime("%H:%M")), timezone=reminder.timezone,
        daily=voice.command("daily")) + "\n" + voice.gettext(
        "(You asked for this reminder; {off} turns it off.)", off=voice.command("remind daily") + " off")


def reminder_answer_text(on: bool, voice: Voice) -> str:
    """The answer to `/remind daily on|off`."""
    if on:
        return voice.gettext(
            "Streak reminders on: when you have a daily streak of {days} days or more and have not played today, "
            "I send you a private message {hours} hours before the day's daily closes (00:00 UTC).",
            days=REMIND_STREAK, hours=REMIND_BEFORE // 3600)
    return voice.gettext("Streak reminders off.")
