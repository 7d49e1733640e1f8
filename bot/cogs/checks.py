"""Checks shared by the cogs."""

from __future__ import annotations

import functools
import zoneinfo
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands

from bot.game import GAMES, TITLES
from bot.play import settings

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

T = TypeVar("T")
# Where the commands are offered. Unless a command says otherwise (`anywhere`), it belongs to a
# server that has added the app (the command tree's default, bot.app): matches, teams, races,
# settings, leaderboards and stats.
SERVER_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
SERVER_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The games whose name or title holds what is typed so far: every command's `game` option."""
    typed = current.lower()
    return [app_commands.Choice(name=f"{TITLES[name]} ({name})", value=name)
            for name in GAMES if typed in name or typed in TITLES[name].lower()][:25]


@functools.cache
def _time_zones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


async def timezone_choices(_interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The IANA time zones whose name holds what is typed so far (/settings timezone)."""
    typed = current.lower().replace(" ", "_")
    return [app_commands.Choice(name=zone, value=zone) for zone in _time_zones() if typed in zone.lower()][:25]


def anywhere(command: T) -> T:
    """Offer a command (solo games, the daily, /watch) wherever a member may use it: installed to a
    server or to the member's own account, in a server, the bot's DM, or a group DM."""
    installs = app_commands.allowed_installs(guilds=True, users=True)
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    return installs(contexts(command))


class NeedsServerApp(app_commands.CheckFailure):
    """A command of a server's was used where the server has not added the app."""


def server_app_only(interaction: discord.Interaction) -> bool:
    """A check: True where the server has added the app (the interaction's authorizing owners
    include this server); NeedsServerApp elsewhere: in a DM, or where the app is only a member's
    own install. The command tree answers it (bot.app)."""
    if interaction.is_guild_integration():
        return True
    raise NeedsServerApp()


def posts_publicly(interaction: discord.Interaction) -> bool:
    """Whether a public answer to this interaction is public: not where the app is only the
    member's own, in a server that took Use External Apps from them (Discord then shows every
    answer to the member alone)."""
    if interaction.guild_id is None or interaction.is_guild_integration():
        return True
    return interaction.permissions.use_external_apps


# The check `server_app_only` on one command of a cog whose other commands work anywhere.
server_command = app_commands.check(server_app_only)


async def check_channel(bot: PatientExorcismBot, interaction: discord.Interaction) -> None:
    """NotAPlayChannel when the server's settings do not allow play in the interaction's channel."""
    await check_play_channel(bot, interaction.guild_id, interaction.channel_id)


async def check_play_channel(bot: PatientExorcismBot, guild_id: int | None, channel_id: int | None) -> None:
    """NotAPlayChannel when the server's settings do not allow play in this channel."""
    await settings.check_play_channel(bot.store, guild_id, channel_id)
