"""Checks shared by the cogs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.play import PlayError
from bot.play.settings import load_settings
from bot.words import Voice

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot


async def check_channel(bot: PatientExorcismBot, interaction: discord.Interaction, voice: Voice) -> None:
    """PlayError when the server's settings do not allow play in the interaction's channel."""
    await check_play_channel(bot, interaction.guild_id, interaction.channel_id, voice)


async def check_play_channel(bot: PatientExorcismBot, guild_id: int | None, channel_id: int | None,
                             voice: Voice) -> None:
    """PlayError (worded in the voice) when the server's settings do not allow play in this channel."""
    settings = await load_settings(bot.store, guild_id)
    if not settings.allows(channel_id):
        places = ", ".join(f"<#{channel}>" for channel in sorted(settings.play_channels))
        raise PlayError(voice._("Games are played in {channels} on this server.", channels=places))
