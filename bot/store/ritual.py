"""The store of the daily ritual (bot/play/ritual.py): the servers that post their daily, the posts
each made once whichever process comes first, and the members' streak reminders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import case, func, or_, select, update

from bot.store.databases import Database, Row, total
from bot.store.tables import daily_attempts, games, guild_settings, reminders, ritual_posts


@dataclass(frozen=True, slots=True)
class RitualPost:
    """A post of a server's: its daily of a day (kind daily, key the server's local date) or a
    season's standings (kind season, key the season's name); `message_id` None until it is sent,
    0 when it could not be (the channel gone, or closed to the bot); `shown` what it last showed."""

    guild_id: int
    kind: str
    key: str
    channel_id: int
    message_id: int | None
    claimed_at: float
    shown: str
    starts: float | None = None  # a season's edges
    ends: float | None = None


class RitualStore:
    """Daily posts, season posts and reminders."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def posting_servers(self) -> dict[int, dict[str, str]]:
        """The settings of every server that has a daily channel set."""
        posting = select(guild_settings.c.guild_id).where(guild_settings.c.key == "daily_channel",
                                                          guild_settings.c.value != "")
        rows = await self.db.fetch_mappings(
            select(guild_settings.c.guild_id, guild_settings.c.key, guild_settings.c.value)
            .where(guild_settings.c.guild_id.in_(posting.scalar_subquery())))
        servers: dict[int, dict[str, str]] = {}
        for row in rows:
            servers.setdefault(row["guild_id"], {})[row["key"]] = row["value"]
        return servers

    async def posts_claimed_since(self, since: float) -> list[RitualPost]:
        """Every post claimed since this Unix time."""
        rows = await self.db.fetch_all(select(ritual_posts).where(ritual_posts.c.claimed_at >= since))
        return [_post(row) for row in rows]

    async def post(self, guild_id: int, kind: str, key: str) -> RitualPost | None:
        """A server's post of this kind and key, if one was claimed."""
        row = await self.db.fetch_one(select(ritual_posts).where(
            ritual_posts.c.guild_id == guild_id, ritual_posts.c.kind == kind, ritual_posts.c.key == key))
        return None if row is None else _post(row)

    async def claim_post(self, guild_id: int, kind: str, key: str, channel_id: int, *, stale_after: float,
                         shown: str = "", starts: float | None = None, ends: float | None = None) -> bool:
        """Take on a post: True for the one caller that gets it, between processes too. A post
        claimed before but never sent may be taken again once its claim is `stale_after` seconds old
        (its process died between the two)."""
        now = self.clock()
        inserted = await self.db.execute(
            self.db.upsert(ritual_posts).values(guild_id=guild_id, kind=kind, key=key, channel_id=channel_id,
                                                claimed_at=now, shown=shown, starts=starts, ends=ends)
            .on_conflict_do_nothing(index_elements=[ritual_posts.c.guild_id, ritual_posts.c.kind,
                                                    ritual_posts.c.key]))
        if inserted:
            return True
        retaken = await self.db.execute(
            update(ritual_posts)
            .where(ritual_posts.c.guild_id == guild_id, ritual_posts.c.kind == kind, ritual_posts.c.key == key,
                   ritual_posts.c.message_id.is_(None), ritual_posts.c.claimed_at < now - stale_after)
            .values(claimed_at=now, channel_id=channel_id, shown=shown))
        return retaken == 1

    async def set_message(self, guild_id: int, kind: str, key: str, message_id: int) -> None:
        """The post was sent as this message (0: it could not be, and is given up)."""
        await self.db.execute(update(ritual_posts).where(
            ritual_posts.c.guild_id == guild_id, ritual_posts.c.kind == kind, ritual_posts.c.key == key)
            .values(message_id=message_id))

    async def claim_edit(self, post: RitualPost, shown: str) -> bool:
        """Take on showing `shown` in a sent post that showed `post.shown`: True for the one caller
        that gets it (the post then counts as showing it)."""
        changed = await self.db.execute(update(ritual_posts).where(
            ritual_posts.c.guild_id == post.guild_id, ritual_posts.c.kind == post.kind,
            ritual_posts.c.key == post.key, ritual_posts.c.shown == post.shown).values(shown=shown))
        return changed == 1

    async def daily_counts(self, days: list[str]) -> dict[tuple[int, str, str], tuple[int, int]]:
        """(players, wins) at each server's dailies of these days, by (server, day, game): one
        statement for every server."""
        if not days:
            return {}
        won = total(case((games.c.status == "won", 1), else_=0))
        rows = await self.db.fetch_all(
            select(daily_attempts.c.guild_id, daily_attempts.c.day, daily_attempts.c.game,
                   func.count(daily_attempts.c.user_id).label("players"), won.label("wins"))
            .select_from(daily_attempts.join(games, games.c.id == daily_attempts.c.game_id))
            .where(daily_attempts.c.day.in_(days), daily_attempts.c.guild_id.is_not(None))
            .group_by(daily_attempts.c.guild_id, daily_attempts.c.day, daily_attempts.c.game))
        return {(row.guild_id, row.day, row.game): (row.players, row.wins or 0) for row in rows}

    # --- reminders ------------------------------------------------------------------------------

    async def set_reminder(self, user_id: int, on: bool, guild_id: int | None) -> None:
        """Turn a member's daily streak reminder on or off (where they did it: whose time zone it speaks in)."""
        insert = self.db.upsert(reminders).values(user_id=user_id, daily=int(on), guild_id=guild_id)
        await self.db.execute(insert.on_conflict_do_update(
            index_elements=[reminders.c.user_id], set_={"daily": insert.excluded.daily,
                                                        "guild_id": insert.excluded.guild_id}))

    async def reminder(self, user_id: int) -> tuple[bool, int | None]:
        """Whether a member's daily reminder is on, and the server they turned it on in."""
        row = await self.db.fetch_one(select(reminders.c.daily, reminders.c.guild_id)
                                      .where(reminders.c.user_id == user_id))
        return (False, None) if row is None else (bool(row.daily), row.guild_id)

    async def reminders_due(self, day: str) -> list[tuple[int, int | None]]:
        """(member, server) of every reminder that is on and not yet sent (or tried) on this UTC day."""
        rows = await self.db.fetch_all(select(reminders.c.user_id, reminders.c.guild_id).where(
            reminders.c.daily == 1, or_(reminders.c.last_day.is_(None), reminders.c.last_day != day)))
        return [(row.user_id, row.guild_id) for row in rows]

    async def claim_reminder(self, user_id: int, day: str) -> bool:
        """Take on a member's reminder of this UTC day: True for the one caller that gets it."""
        changed = await self.db.execute(update(reminders).where(
            reminders.c.user_id == user_id, reminders.c.daily == 1,
            or_(reminders.c.last_day.is_(None), reminders.c.last_day != day)).values(last_day=day))
        return changed == 1


def _post(row: Row) -> RitualPost:
    return RitualPost(guild_id=row.guild_id, kind=row.kind, key=row.key, channel_id=row.channel_id,
                      message_id=row.message_id, claimed_at=row.claimed_at, shown=row.shown, starts=row.starts,
                      ends=row.ends)

