"""The daily ritual in Discord: every minute a round posts the daily in the servers whose hour has
come and the final standings of a season that ended, edits the posts whose counts changed, and
sends the streak reminders due (bot/play/ritual.py
decides what is due and which process does it); `/remind daily on|off`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.expiry import ExpiryRound
from bot.play.ritual import DailyPost, Reminder, SeasonPost
from bot.views.mentions import NO_PINGS
from bot.views.respond import Answer, answer, server_voice, voice_of
from bot.views.ritual import daily_post_layout
from bot.words.leaderboards import season_standings_text
from bot.words.ritual import reminder_answer_text, reminder_text

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

log = logging.getLogger(__name__)
STATE_CHOICES = [app_commands.Choice(name=name, value=name) for name in ("on", "off")]


def _mentions(post: DailyPost) -> discord.AllowedMentions:
    """The post pings the role its server chose, and nobody else."""
    roles = [discord.Object(post.role_id)] if post.role_id is not None else False
    return discord.AllowedMentions(everyone=False, users=False, roles=roles, replied_user=False)


class RitualCog(commands.Cog):
    """/remind, and the round of daily posts, their edits and the reminders."""

    remind = app_commands.Group(
        name="remind", description="Reminders in a private message",
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True))

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot
        self.round = ExpiryRound(self.ritual_round, "the daily ritual", minutes=1)

    async def cog_load(self) -> None:
        """Start the round."""
        self.round.start()

    async def cog_unload(self) -> None:
        """Stop it."""
        self.round.stop()

    async def ritual_round(self) -> None:
        """Send the posts due, edit the posts whose counts changed, send the reminders due."""
        for post in await self.bot.ritual.posts_due():
            voice = await server_voice(self.bot, post.guild_id)
            await self._send(post, view=daily_post_layout(post, voice), mentions=_mentions(post))
        for season in await self.bot.ritual.season_posts_due():
            voice = await server_voice(self.bot, season.guild_id)
            await self._send(season, content=season_standings_text(season.standings, voice), mentions=NO_PINGS)
        for edit in await self.bot.ritual.edits_due():
            voice = await server_voice(self.bot, edit.post.guild_id)
            message = self.bot.get_partial_messageable(edit.post.channel_id).get_partial_message(edit.message_id)
            try:
                await message.edit(view=daily_post_layout(edit.post, voice), allowed_mentions=_mentions(edit.post))
            except discord.HTTPException as error:  # deleted, or the channel closed to the bot
                log.info("daily post %s of server %s was not edited: %s", edit.message_id, edit.post.guild_id, error)
        for reminder in await self.bot.ritual.reminders_due():
            await self._remind(reminder)

    async def _send(self, post: DailyPost | SeasonPost, *, view: discord.ui.LayoutView | None = None,
                    content: str | None = None, mentions: discord.AllowedMentions) -> None:
        """Send a post in its server's daily channel and say so to the ritual (or that it could not be)."""
        channel = self.bot.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        try:
            if view is not None:
                message = await channel.send(view=view, allowed_mentions=mentions)
            else:
                message = await channel.send(content, allowed_mentions=mentions)
        except (discord.Forbidden, discord.NotFound) as error:  # the channel is gone or closed to the bot
            log.warning("the %s post of server %s could not be sent to channel %s: %s", post.kind, post.guild_id,
                        post.channel_id, error)
            await self.bot.ritual.not_sent(post)
            return
        except discord.HTTPException as error:  # Discord's trouble: the claim goes stale, the next round tries again
            log.warning("the %s post of server %s failed: %s", post.kind, post.guild_id, error)
            return
        await self.bot.ritual.sent(post, message.id)
        log.info("posted the %s post %s in server %s", post.kind, post.key, post.guild_id)

    async def _remind(self, reminder: Reminder) -> None:
        try:
            user = self.bot.get_user(reminder.user_id) or await self.bot.fetch_user(reminder.user_id)
            voice = await server_voice(self.bot, None)
            await user.send(reminder_text(reminder, voice))
        except discord.HTTPException as error:  # DMs closed (50007), or the user is gone: nothing else happens
            log.info("no streak reminder for %s: %s", reminder.user_id, error)

    @remind.command(name="daily", description="A private message when your daily streak is about to break")
    @app_commands.describe(state="on or off (off by default)")
    @app_commands.choices(state=STATE_CHOICES)
    async def remind_daily(self, interaction: discord.Interaction, state: str) -> None:
        """Turn the member's streak reminder on or off."""
        async def work() -> Answer:
            on = await self.bot.ritual.set_reminder(interaction.user.id, state, interaction.guild_id)
            return Answer(reminder_answer_text(on, await voice_of(interaction)))

        await answer(interaction, work())
