"""A watched board (/watch): a member's board shown read-only in the channel, with a Refresh
button that anyone may press, as a DynamicItem that works after restarts."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.play import Reply
from bot.play.events import Watching
from bot.views.board import ID, PREFIX, board_file, player_of
from bot.views.respond import Answer, answer, bot_of, channel_voice
from bot.words import DISCORD, Voice, board_status, kept_private_text, watched_text

REFRESH_TEMPLATE = re.compile(rf"{PREFIX}:watch:(?P<game>{ID})")


async def watch_answer(reply: Reply, voice: Voice) -> Answer:
    """A watched board in the voice's language: its status line, whose it is and how it stands
    (naming, never pinging, its player), its picture with alt text, and the Refresh button."""
    watching = next((event for event in reply.events if isinstance(event, Watching)), Watching(""))
    file = await board_file(reply, watching.name, voice)
    view = discord.ui.View(timeout=None)
    view.add_item(RefreshButton(reply.game_id, voice))
    text = watched_text(reply, voice.mention(reply.user_id), voice)
    if watching.live is not None:  # shown to the watcher alone: say why
        text += "\n" + kept_private_text(watching.live, voice)
    return Answer(text=text, file=file, view=view, status=board_status(reply.game, reply.label, voice),
                  private=watching.private)


class RefreshButton(discord.ui.DynamicItem[discord.ui.Button], template=REFRESH_TEMPLATE):
    """Refresh: shows the watched game as it stands now, in place, to whoever may see it."""

    def __init__(self, game_id: int, voice: Voice | None = None) -> None:
        label = (voice or DISCORD).gettext("Refresh ↻")  # a button rebuilt from its custom_id is never shown
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"{PREFIX}:watch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RefreshButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Show the watched board as it stands (a refusal is private, and the board stays): in the
        channel where the game is played only."""
        bot = bot_of(interaction)

        async def work() -> Answer:
            reply = await bot.watching.refresh(player_of(interaction.user), self.game_id, interaction.channel_id)
            return await watch_answer(reply, await channel_voice(interaction))

        await answer(interaction, work(), edit=True)
