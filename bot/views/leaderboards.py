"""Leaderboard pages with Prev/Next buttons (DynamicItems: the custom_id says which page), and a
player's stats: the tables bot.words.leaderboards writes, in code blocks."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.play.leaderboards import LeaderboardPage, PlayerStats
from bot.views.respond import Answer, answer, bot_of, voice_of
from bot.words import DISCORD, Voice
from bot.words.leaderboards import all_stats_text, page_text, stats_notes

# A season's page names its season (bot.play.seasons), so that its pages stay on it.
PAGE_TEMPLATE = re.compile(
    r"pl:(?P<ranking>players|teams|daily|streaks|clean|casino|rating):(?P<period>all|week|today|season):(?P<scope>server|all)"
    r":(?P<page>[0-9]{1,4}):(?P<step>prev|next)(?::(?P<season>[0-9]{4}-(?:[0-9]{2}|W[0-9]{2}|Q[1-4])))?")


def stats_answer(stats: PlayerStats, voice: Voice) -> Answer:
    """A player's stats as a message, in a code block: the totals, then game by game as many as
    fit (the rest named, with the command that shows one); and what they count."""
    return Answer(f"{code_block(all_stats_text(stats, voice))}\n{stats_notes(voice)}")


def leaderboard_answer(page: LeaderboardPage, scope: str, voice: Voice) -> Answer:
    """A page as a message: the table in a code block, and buttons to turn pages (of its season,
    for a season's)."""
    view = discord.ui.View(timeout=None)
    season = page.season.name if page.season is not None else None
    for step, disabled in (("prev", page.page == 0), ("next", page.page >= page.pages - 1)):
        view.add_item(PageButton(page.ranking, page.period, scope, page.page, step, voice, disabled=disabled,
                                 season=season))
    return Answer(code_block(page_text(page, voice)), view=view)


def code_block(text: str) -> str:
    """Text in a Discord code block, so that its columns line up."""
    return f"```\n{text}\n```"


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """◀ or ▶ under a leaderboard page."""

    def __init__(self, ranking: str, period: str, scope: str, page: int, step: str, voice: Voice | None = None, *,
                 disabled: bool = False, season: str | None = None) -> None:
        _ = (voice or DISCORD).gettext  # a button rebuilt from its custom_id is never shown again
        label = _("◀ Prev") if step == "prev" else _("Next ▶")
        custom_id = f"pl:{ranking}:{period}:{scope}:{page}:{step}" + (f":{season}" if season else "")
        super().__init__(discord.ui.Button(label=label, disabled=disabled, custom_id=custom_id))
        self.ranking, self.period, self.scope, self.page, self.step = ranking, period, scope, page, step
        self.season = season

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PageButton:
        """Rebuild the button from its custom_id."""
        return cls(match["ranking"], match["period"], match["scope"], int(match["page"]), match["step"],
                   season=match["season"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Show the previous or next page in place."""
        bot = bot_of(interaction)
        target = self.page + (1 if self.step == "next" else -1)
        guild_id = interaction.guild_id if self.scope == "server" else None

        async def work() -> Answer:
            page = await bot.leaderboards.page(self.ranking, self.period, guild_id, target, season=self.season)
            return leaderboard_answer(page, self.scope, await voice_of(interaction))

        await answer(interaction, work(), edit=True)
