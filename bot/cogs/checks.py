"""Checks shared by the cogs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.play import settings

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot


async def check_channel(bot: PatientExorcismBot, interaction: discord.Interaction) -> None:
    """NotAPlayChannel when the server's settings do not allow play in the interaction's channel."""
    await check_play_channel(bot, interaction.guild_id, interaction.channel_id)


async def check_play_channel(bot: PatientExorcismBot, guild_id: int | None, channel_id: int | None) -> None:
    """NotAPlayChannel when the server's settings do not allow play in this channel."""
    await settings.check_play_channel(bot.store, guild_id, channel_id)
