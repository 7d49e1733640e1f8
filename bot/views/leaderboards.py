"""Leaderboard pages with Prev/Next buttons (DynamicItems: the custom_id says which page)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.play.leaderboards import LeaderboardPage
from bot.views.respond import Answer, answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

PAGE_TEMPLATE = re.compile(
    r"pl:(?P<board>players|teams|daily|streaks):(?P<period>all|week|today):(?P<scope>server|all):(?P<page>[0-9]{1,4})"
    r":(?P<step>prev|next)")


# How the players' board and /stats count, in one sentence (the store's _RESULTS and _MATCH_WINS).
COUNTING = ("Games: finished games of patience (solo, match rounds, dailies) and race hands. Wins: games won "
            "and race hands gone out. Matches won: alone or with your team.")


def stats_answer(text: str) -> Answer:
    """A player's stats as a message: the lines in a code block, and what they count."""
    return Answer(f"{code_block(text)}\n{COUNTING}")


def leaderboard_answer(page: LeaderboardPage, board: str, period: str, scope: str) -> Answer:
    """A page as a message: the table in a code block, and buttons to turn pages."""
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(board, period, scope, page.page, "prev", disabled=page.page == 0))
    view.add_item(PageButton(board, period, scope, page.page, "next", disabled=page.page >= page.pages - 1))
    return Answer(code_block(page.as_text()), view=view)


def code_block(text: str) -> str:
    """Text in a Discord code block, so that its columns line up."""
    return f"```\n{text}\n```"


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """◀ or ▶ under a leaderboard page."""

    def __init__(self, board: str, period: str, scope: str, page: int, step: str, *, disabled: bool = False) -> None:
        label = "◀ Prev" if step == "prev" else "Next ▶"
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=f"pl:{board}:{period}:{scope}:{page}:{step}"))
        self.board, self.period, self.scope, self.page, self.step = board, period, scope, page, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> PageButton:
        """Rebuild the button from its custom_id."""
        return cls(match["board"], match["period"], match["scope"], int(match["page"]), match["step"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Show the previous or next page in place."""
        bot: PatientExorcismBot = interaction.client  # type: ignore[assignment]
        target = self.page + (1 if self.step == "next" else -1)
        guild_id = interaction.guild_id if self.scope == "server" else None

        async def work() -> Answer:
            page = await bot.leaderboards.page(self.board, self.period, guild_id, target)
            return leaderboard_answer(page, self.board, self.period, self.scope)

        await answer(interaction, work(), edit=True)
