"""/replay in Discord: a thin adapter onto bot.play.review and bot.views.replay."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import anywhere, check_channel
from bot.views.board import player_of
from bot.views.replay import replay_answer
from bot.views.respond import Answer, answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

MAX_GAME_ID = 2**53 - 1  # Discord's largest integer option


class ReplayCog(commands.Cog):
    """/replay."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description="Watch a finished game again, move by move")
    @app_commands.describe(game="a game's number (default: your game that ended last)",
                           player="a player whose last finished daily to watch (once you have played yours)",
                           public="show the replay to the whole channel")
    @anywhere
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
                     player: discord.User | None = None, public: bool = False) -> None:
        """Send a finished game as an animated image."""
        async def work() -> Answer:
            if public:
                await check_channel(self.bot, interaction)
            chosen = await self.bot.reviews.replay(player_of(interaction.user), game_id=game,
                                                   player_id=None if player is None else player.id)
            return await replay_answer(chosen)

        await answer(interaction, work(), ephemeral=not public)
