"""The daily challenge, leaderboards and stats in Discord: thin adapters onto bot.play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import anywhere, game_choices, server_command
from bot.cogs.expiry import ExpiryRound
from bot.play.leaderboards import PERIODS, RANKINGS
from bot.views.leaderboards import leaderboard_answer, stats_answer
from bot.views.respond import Answer, answer, bot_of, voice_of
from bot.views.ritual import daily_answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

BOARD_CHOICES = [app_commands.Choice(name=n, value=n) for n in RANKINGS]
PERIOD_CHOICES = [app_commands.Choice(name=n, value=n) for n in PERIODS]
SCOPE_CHOICES = [app_commands.Choice(name="this server", value="server"),
                 app_commands.Choice(name="every server", value="all")]
SEASONS_OFFERED = 12  # the current season and the ones before it, offered as /leaderboard season
SEASON_NAME_LENGTH = 20  # the longest season name taken (the longest real one has 8 characters)


async def season_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's current season and the ones before it (over every server with scope all)
    whose name holds what is typed so far: /leaderboard season."""
    guild_id = None if getattr(interaction.namespace, "scope", "server") == "all" else interaction.guild_id
    typed = current.strip().upper()
    seasons = await bot_of(interaction).leaderboards.recent_seasons(guild_id, SEASONS_OFFERED)
    return [app_commands.Choice(name=season.name, value=season.name) for season in seasons if typed in season.name]


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
                           period="all time, this week, today or this season (a month, week or quarter)",
                           scope="this server or every server",
                           season="a past or current season by its name, such as 2026-10 (it sets the period)")
    @app_commands.choices(board=BOARD_CHOICES, period=PERIOD_CHOICES, scope=SCOPE_CHOICES)
    @server_command
    async def leaderboard(self, interaction: discord.Interaction, board: str = "players", period: str = "all",
                          scope: str = "server",
                          season: app_commands.Range[str, 1, SEASON_NAME_LENGTH] | None = None) -> None:
        """Show the first page of a leaderboard."""
        async def work() -> Answer:
            guild_id = interaction.guild_id if scope == "server" else None
            # The option names the ranking; a season's name is read (or refused) by the play layer.
            page = await self.bot.leaderboards.page(board, period, guild_id, season=season)
            return leaderboard_answer(page, scope, await voice_of(interaction))

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
    leaderboard.autocomplete("season")(season_choices)
    stats.autocomplete("game")(game_choices)
