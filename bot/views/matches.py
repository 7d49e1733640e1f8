"""A match's public message: the lobby, then the scoreboard, with its buttons (DynamicItems whose
custom_id carries the match id, so they work after a restart)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.play.matches import Scoreboard
from bot.views.board import ID, board_answer, player_of
from bot.views.layout import layout_view
from bot.views.respond import Answer, answer, as_button, bot_of, voice_of
from bot.words import DISCORD, Voice
from bot.words.matches import (
    cancelled_text,
    joined_for_team_text,
    joined_text,
    left_text,
    scoreboard_text,
    started_text,
)

MATCH_TEMPLATE = re.compile(rf"pm:(?P<match>{ID}):(?P<action>join|leave|start|cancel|board|next)")
TEAM_TEMPLATE = re.compile(rf"pm:(?P<match>{ID}):team")


def scoreboard_layout(board: Scoreboard, voice: Voice) -> discord.ui.LayoutView:
    """The match's public message in Components V2: the scoreboard's text and its buttons."""
    return layout_view("", scoreboard_text(board, voice), None, match_view(board, voice))


def match_view(board: Scoreboard, voice: Voice) -> discord.ui.View | None:
    """The lobby's or scoreboard's buttons; none once the match is over."""
    match, _ = board.match, voice.gettext
    if match.status not in ("lobby", "running"):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(MatchButton(match.id, "join", _("Join"), discord.ButtonStyle.success))
    if match.status == "running":
        view.add_item(MatchButton(match.id, "board", _("My board"), discord.ButtonStyle.primary))
    else:
        view.add_item(MatchButton(match.id, "start", _("Start"), discord.ButtonStyle.primary))
    view.add_item(MatchButton(match.id, "leave", _("Leave")))
    view.add_item(MatchButton(match.id, "cancel", _("Cancel match"), discord.ButtonStyle.danger))
    if match.teams and board.server_teams:
        view.add_item(TeamSelect(match.id, [team.name for team in board.server_teams[:25]], voice))
    return view


def next_round_button(match_id: int, voice: Voice) -> MatchButton:
    """The button under a finished round's board that deals the player's next round."""
    return MatchButton(match_id, "next", voice.gettext("Next round ▶"), discord.ButtonStyle.success, row=4)


class MatchButton(discord.ui.DynamicItem[discord.ui.Button], template=MATCH_TEMPLATE):
    """Join, Leave, Start, Cancel, My board (a new private message) and Next round (in place)."""

    def __init__(self, match_id: int, action: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"pm:{match_id}:{action}", row=row))
        self.match_id, self.action = match_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MatchButton:
        """Rebuild the button from its custom_id."""
        button = as_button(item)
        return cls(int(match["match"]), match["action"], button.label or "…", button.style)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Carry out the button's action through the play layer."""
        await answer(interaction, self._work(interaction), edit=self.action == "next")

    async def _work(self, interaction: discord.Interaction) -> Answer:
        bot = bot_of(interaction)
        player, match_id = player_of(interaction.user), self.match_id
        voice = await voice_of(interaction)
        await bot.matches.check_place(match_id, interaction.guild_id, interaction.channel_id)
        can_manage = bool(interaction.permissions and interaction.permissions.manage_guild)
        if self.action in ("board", "next"):
            return await board_answer(await bot.matches.my_board(match_id, player), player, voice)
        if self.action == "join":
            board = await bot.matches.join(match_id, player)
            if board.match.status == "running":
                return await board_answer(await bot.matches.my_board(match_id, player), player, voice,
                                          message=joined_text(match_id, voice, playing=True))
            return Answer(joined_text(match_id, voice, playing=False))
        if self.action == "leave":
            await bot.matches.leave(match_id, player)
            return Answer(left_text(match_id, voice))
        if self.action == "start":
            board = await bot.matches.start(match_id, player, can_manage=can_manage)
            if any(p.user_id == player.id for p in board.players):
                return await board_answer(await bot.matches.my_board(match_id, player), player, voice,
                                          message=started_text(match_id, voice, playing=True))
            return Answer(started_text(match_id, voice, playing=False))
        await bot.matches.cancel(match_id, player, can_manage=can_manage)
        return Answer(cancelled_text(match_id, voice))


class TeamSelect(discord.ui.DynamicItem[discord.ui.Select], template=TEAM_TEMPLATE):
    """In a team match's lobby: join the match for the chosen team."""

    def __init__(self, match_id: int, names: list[str] | None = None, voice: Voice | None = None) -> None:
        options = [discord.SelectOption(label=name, value=name) for name in (names or ["…"])]
        placeholder = (voice or DISCORD).gettext("Join for a team…")  # a menu rebuilt from its custom_id is never shown
        super().__init__(discord.ui.Select(custom_id=f"pm:{match_id}:team", placeholder=placeholder,
                                           options=options))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TeamSelect:
        """Rebuild the menu from its custom_id."""
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Join the match for the chosen team."""
        await answer(interaction, self._work(interaction))

    async def _work(self, interaction: discord.Interaction) -> Answer:
        bot = bot_of(interaction)
        values = self.item.values  # discord.py sets them from the interaction before the callback
        name = values[0] if values else ""
        await bot.matches.check_place(self.match_id, interaction.guild_id, interaction.channel_id)
        await bot.matches.join(self.match_id, player_of(interaction.user), team_name=name)
        voice = await voice_of(interaction)
        return Answer(joined_for_team_text(self.match_id, name, voice))
