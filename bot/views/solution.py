"""A short winning line in pages, with Prev/Next buttons (DynamicItems: the custom_id says
which game and page). The line is shown to the asker alone: it spoils the deal for no one."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.play.solution import NoWinningLine, WinningLine
from bot.views.board import player_of
from bot.views.respond import Answer, answer, bot_of, voice_of
from bot.words import DISCORD, Voice, solution_pages, solution_text

PAGE_TEMPLATE = re.compile(r"sol:(?P<game>[0-9]{1,16}):(?P<page>[0-9]{1,4}):(?P<step>prev|next)")


def solution_answer(line: WinningLine | NoWinningLine, page: int = 0, voice: Voice = DISCORD) -> Answer:
    """Page `page` of a winning line in a code block, with buttons to turn pages; or why there
    is no line."""
    if isinstance(line, NoWinningLine):
        return Answer(solution_text(line, voice))
    pages = solution_pages(line)
    page = min(max(page, 0), pages - 1)
    text = f"```\n{solution_text(line, voice, page)}\n```"
    view = discord.ui.View(timeout=None)
    view.add_item(SolutionPageButton(line.game_id, page, "prev", disabled=page == 0, voice=voice))
    view.add_item(SolutionPageButton(line.game_id, page, "next", disabled=page >= pages - 1, voice=voice))
    return Answer(text, view=view)


class SolutionPageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """◀ or ▶ under a page of a winning line."""

    def __init__(self, game_id: int, page: int, step: str, *, disabled: bool = False,
                 voice: Voice = DISCORD) -> None:
        label = voice.gettext("◀ Prev") if step == "prev" else voice.gettext("Next ▶")
        super().__init__(discord.ui.Button(label=label, disabled=disabled, custom_id=f"sol:{game_id}:{page}:{step}"))
        self.game_id, self.page, self.step = game_id, page, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SolutionPageButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["page"]), match["step"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Show the previous or next page in place (the line is asked for again, under the same
        rule as /solution: it is kept, so that costs nothing)."""
        bot = bot_of(interaction)
        target = self.page + (1 if self.step == "next" else -1)

        async def work() -> Answer:
            line = await bot.solutions.winning_line(self.game_id, player_of(interaction.user))
            return solution_answer(line, target, await voice_of(interaction))

        await answer(interaction, work(), edit=True)
