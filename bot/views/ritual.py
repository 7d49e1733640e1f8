"""A server's daily post in Components V2, with its Play button (a DynamicItem naming the game, so
it works after a restart and on any day: it starts the pressing member's daily of that day)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.checks import check_channel
from bot.play.ritual import DailyPost
from bot.views.board import board_answer, player_of
from bot.views.layout import layout_view
from bot.views.respond import Answer, answer, bot_of, voice_of
from bot.words import DISCORD, Voice
from bot.words.ritual import daily_post_text

PLAY_TEMPLATE = re.compile(r"pd:play:(?P<game>[a-z_]{1,40})")


def daily_post_layout(post: DailyPost, voice: Voice) -> discord.ui.LayoutView:
    """The daily post: its text and the Play button."""
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(PlayDailyButton(post.game, voice))
    return layout_view("", daily_post_text(post, voice), None, buttons)


async def daily_answer(interaction: discord.Interaction, game: str) -> Answer:
    """The member's daily of `game` today, started or resumed, as /daily answers it."""
    bot = bot_of(interaction)
    voice = await voice_of(interaction)
    await check_channel(bot, interaction)
    player = player_of(interaction.user)
    reply = await bot.daily.start(player, guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game)
    return await board_answer(reply, player, voice)


class PlayDailyButton(discord.ui.DynamicItem[discord.ui.Button], template=PLAY_TEMPLATE):
    """Play: the pressing member's own daily, privately, as /daily gives it."""

    def __init__(self, game: str, voice: Voice | None = None) -> None:
        label = (voice or DISCORD).gettext("Play")  # a button rebuilt from its custom_id is never shown
        super().__init__(discord.ui.Button(label=label, emoji="🃏", style=discord.ButtonStyle.success,
                                           custom_id=f"pd:play:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PlayDailyButton:
        """Rebuild the button from its custom_id."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Start (or resume) the member's daily, in a message only they see."""
        await answer(interaction, daily_answer(interaction, self.game))
