"""Slash commands and text moves: thin adapters onto bot.play, a cog per feature."""

from __future__ import annotations

from discord.ext import commands


def cog_classes() -> tuple[type[commands.Cog], ...]:
    """Every cog of the bot, in the order the app adds them (bot.catalog reads their commands)."""
    from bot.cogs.competition import CompetitionCog
    from bot.cogs.matches import MatchesCog
    from bot.cogs.race import RaceCog
    from bot.cogs.review import ReviewCog
    from bot.cogs.ritual import RitualCog
    from bot.cogs.solo import SoloCog
    from bot.cogs.solution import SolutionCog

    return SoloCog, MatchesCog, CompetitionCog, RaceCog, ReviewCog, SolutionCog, RitualCog
