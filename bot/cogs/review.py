"""Looking back on finished games in Discord: /analyse, a thin adapter onto bot.play.review."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import anywhere
from bot.views.board import player_of
from bot.views.respond import Answer, answer, voice_of
from bot.views.review import analysis_answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

MAX_ID = 2**53 - 1  # Discord's largest integer option


class ReviewCog(commands.Cog):
    """/analyse."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot

    @app_commands.command(name="analyse", description="Where your finished game was lost, and a move that still won")
    @app_commands.describe(game="the game's number (default: your game that ended last)",
                           public="show it to the whole channel")
    @anywhere
    async def analyse(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, MAX_ID] | None = None,
                      public: bool = False) -> None:
        """Where the game was lost."""
        async def work() -> Answer:
            voice = await voice_of(interaction)
            return await analysis_answer(self.bot.review, game, player_of(interaction.user), voice)

        await answer(interaction, work(), ephemeral=not public)
