"""The Share button under a finished daily's board: posts the result card, without a spoiler, to
the channel as the press's public answer (which works where the app is user-installed only, with
no message of the bot's own), once; not where Discord would show it to its player alone."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.checks import posts_publicly
from bot.play.errors import ShareWouldBePrivate
from bot.views.board import ID, PREFIX, player_of
from bot.views.respond import Answer, answer, bot_of, channel_voice
from bot.words import DISCORD, Voice, share_text

SHARE_TEMPLATE = re.compile(rf"{PREFIX}:share:(?P<game>{ID})")


class ShareButton(discord.ui.DynamicItem[discord.ui.Button], template=SHARE_TEMPLATE):
    """Share: the daily's owner posts its result card; the store says whether it was posted before."""

    def __init__(self, game_id: int, voice: Voice | None = None) -> None:
        label = (voice or DISCORD).gettext("Share")  # a button rebuilt from its custom_id is never shown
        super().__init__(discord.ui.Button(label=label, emoji="📣", style=discord.ButtonStyle.primary,
                                           custom_id=f"{PREFIX}:share:{game_id}", row=4))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ShareButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Post the card as a new public message; a refusal (another's daily, shared already) is private."""
        bot = bot_of(interaction)

        async def work() -> Answer:
            if not posts_publicly(interaction):
                raise ShareWouldBePrivate()
            player = player_of(interaction.user)
            card = await bot.daily.share(self.game_id, player)
            voice = await channel_voice(interaction)
            return Answer(share_text(card, voice.mention(player.id), voice))

        await answer(interaction, work(), ephemeral=False)
