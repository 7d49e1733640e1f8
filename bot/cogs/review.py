"""Looking back on finished games in Discord: /analyse and /replay, thin adapters onto bot.play.review."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import anywhere
from bot.play.bulk import give_back_memory
from bot.views.board import player_of
from bot.views.replay import replay_answer
from bot.views.respond import Answer, answer, voice_of
from bot.views.review import analysis_answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

MAX_ID = 2**53 - 1  # Discord's largest integer option


class ReviewCog(commands.Cog):
    """/analyse, /replay."""

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

    @app_commands.command(name="replay", description="Watch a finished game again, move by move")
    @app_commands.describe(game="a game's number (default: your game that ended last)",
                           player="a player whose last finished daily to watch (once you have played yours)",
                           public="show the replay to the whole channel")
    @anywhere
    async def replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, MAX_ID] | None = None,
                     player: discord.User | None = None, public: bool = False) -> None:
        """Send a finished game as an animated image, within the upload limit the interaction states."""
        async def work() -> Answer:
            voice = await voice_of(interaction)
            with self.bot.bulk.place(interaction.user.id) as ticket:  # refused at once when the line is full
                chosen = await self.bot.review.replay(player_of(interaction.user), game_id=game,
                                                      player_id=None if player is None else player.id)
                result = await replay_answer(chosen, voice, ticket, interaction.filesize_limit)
            if self.bot.web is not None:  # the same game move by move in a browser, any length
                url = await self.bot.web.view_link(interaction.user.id, chosen.game_id, voice.language)
                result.view = discord.ui.View(timeout=None)
                result.view.add_item(discord.ui.Button(label=voice.gettext("Replay in a browser"), emoji="🌐", url=url))
            return result

        await answer(interaction, work(), ephemeral=not public)
        give_back_memory()  # the GIF, sent and let go of: what malloc kept of it goes back
