"""The daily challenge, leaderboards and stats in Discord: thin adapters onto bot.play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import anywhere, game_choices, server_command
from bot.cogs.expiry import ExpiryRound
from bot.play.leaderboards import RANKINGS
from bot.views.leaderboards import leaderboard_answer, stats_answer
from bot.views.respond import Answer, answer, voice_of
from bot.views.ritual import daily_answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

BOARD_CHOICES = [app_commands.Choice(name=n, value=n) for n in RANKINGS]
PERIOD_CHOICES = [app_commands.Choice(name=n, value=n) for n in ("all", "week", "today")]
SCOPE_CHOICES = [app_commands.Choice(name="this server", value="server"),
                 app_commands.Choice(name="every server", value="all")]


class CompetitionCog(commands.Cog):
    """/daily, /leaderboard, /stats."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot
        # Attempts past 01:00 UTC the day after their day end within a minute (bot.play.daily).
        self.expiry = ExpiryRound(bot.daily.end_overdue, "daily attempts", minutes=1)

    async def cog_load(self) -> None:
        """Start the round that ends overdue daily attempts."""
        self.expiry.start()

    async def cog_unload(self) -> None:
        """Stop it."""
        self.expiry.stop()

    @app_commands.command(name="daily", description="Today's daily challenge: one deal for everyone, one attempt")
    @app_commands.describe(game="which game's daily (default canfield)")
    @anywhere
    async def daily(self, interaction: discord.Interaction, game: str = "canfield") -> None:
        """Start or resume today's daily game."""
        await answer(interaction, daily_answer(interaction, game))

    @app_commands.command(
        name="leaderboard",
        description="Players, teams, today's daily, streaks, clean wins, the casino bankroll or ratings")
    @app_commands.describe(board="which leaderboard (players: as /stats counts; clean: wins with no undo and no hint)",
                           period="all time, this week or today",
                           scope="this server or every server")
    @app_commands.choices(board=BOARD_CHOICES, period=PERIOD_CHOICES, scope=SCOPE_CHOICES)
    @server_command
    async def leaderboard(self, interaction: discord.Interaction, board: str = "players", period: str = "all",
                          scope: str = "server") -> None:
        """Show the first page of a leaderboard."""
        async def work() -> Answer:
            guild_id = interaction.guild_id if scope == "server" else None
            page = await self.bot.leaderboards.page(board, period, guild_id)  # the option names the ranking
            return leaderboard_answer(page, board, period, scope, await voice_of(interaction))

        await answer(interaction, work(), ephemeral=False)

    @app_commands.command(name="stats",
                          description="A player's games (patience and race hands), wins, matches and streaks")
    @server_command
    @app_commands.describe(member="whose stats (default: yours)", game="one game only (every game played, without it)")
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None,
                    game: str | None = None) -> None:
        """Show a player's stats on this server: the totals and game by game."""
        async def work() -> Answer:
            who = member or interaction.user
            stats = await self.bot.leaderboards.stats(who.id, interaction.guild_id, game)
            return stats_answer(stats, await voice_of(interaction))

        await answer(interaction, work())

    daily.autocomplete("game")(game_choices)
    stats.autocomplete("game")(game_choices)
