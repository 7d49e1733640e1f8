"""/solution in Discord: a thin adapter onto bot.play.solution."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import anywhere
from bot.cogs.review import MAX_ID
from bot.views.board import player_of
from bot.views.respond import Answer, answer, voice_of
from bot.views.solution import solution_answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot



class SolutionCog(commands.Cog):
    """/solution."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot

    @app_commands.command(name="solution", description="A short winning line for your finished game's deal")
    @app_commands.describe(game="the game's number (default: your game that ended last)")
    @anywhere
    async def solution(self, interaction: discord.Interaction,
                       game: app_commands.Range[int, 1, MAX_ID] | None = None) -> None:
        """Show the first page of the line, to the asker alone."""
        async def work() -> Answer:
            line = await self.bot.solutions.solution(game, player_of(interaction.user))
            return solution_answer(line, voice=await voice_of(interaction))

        await answer(interaction, work())
