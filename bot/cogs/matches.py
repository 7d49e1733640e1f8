"""Matches, teams and server settings in Discord: thin adapters onto bot.play.

The scoreboard message of a match is edited at most once a second however fast scores change
(changes are coalesced), and the win is announced in the channel once.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import check_channel, game_choices, server_app_only, timezone_choices
from bot.cogs.coalesce import CoalescedEdits
from bot.cogs.expiry import ExpiryRound
from bot.languages import LANGUAGE_NAMES
from bot.play.errors import ManageServerNeeded
from bot.play.matches import MatchListener, Scoreboard
from bot.play.settings import SEASONS, change_settings, load_settings
from bot.views.board import player_of
from bot.views.matches import scoreboard_layout
from bot.views.mentions import pinging
from bot.views.respond import Answer, answer, public_post, server_voice, voice_of
from bot.views.translator import kept
from bot.words.matches import match_won_text, team_done_text, team_list_text
from bot.words.settings import settings_text

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

log = logging.getLogger(__name__)
COALESCE_SECONDS = 1.0
DIE_CHOICES = [app_commands.Choice(name=name, value=name) for name in ("off", "game", "pass")]
# /settings language: each language named as its speakers name it.
LANGUAGE_CHOICES = [app_commands.Choice(name=kept(name), value=code) for code, name in LANGUAGE_NAMES.items()]
SEASON_CHOICES = [app_commands.Choice(name=name, value=name) for name in SEASONS]
DAILY_POST_CHOICES = [app_commands.Choice(name=name, value=name) for name in ("on", "off", "quiet")]


class ScoreboardMessages(MatchListener):
    """Keeps each match's public message up to date and announces winners."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot
        self._edits = CoalescedEdits(self._edit_match, COALESCE_SECONDS, "scoreboard of match")

    async def scoreboard_changed(self, match_id: int) -> None:
        """Schedule one edit of the match's message; further changes meanwhile join it."""
        self._edits.changed(match_id)

    async def _edit_match(self, match_id: int) -> None:
        await self.edit(await self.bot.matches.scoreboard(match_id))

    async def edit(self, board: Scoreboard) -> None:
        """Show the scoreboard in the match's message now."""
        match = board.match
        if match.message_id is None:
            return
        message = self.bot.get_partial_messageable(match.channel_id).get_partial_message(match.message_id)
        voice = await server_voice(self.bot, match.guild_id)
        # content None: an old plain scoreboard turns V2
        await message.edit(content=None, view=scoreboard_layout(board, voice))

    async def match_won(self, scoreboard: Scoreboard) -> None:
        """Post the announcement in the match's channel."""
        winner, match = scoreboard.winner, scoreboard.match
        if winner is None:
            return
        channel = self.bot.get_partial_messageable(match.channel_id)
        try:
            voice = await server_voice(self.bot, match.guild_id)
            pinged = [] if match.teams else [winner.key]  # a player's win pings them; a team's, nobody
            await channel.send(match_won_text(scoreboard, voice), allowed_mentions=pinging(pinged))
        except discord.HTTPException:
            log.exception("could not announce the winner of match %s", match.id)


class MatchesCog(commands.Cog):
    """/match open, /team ..., /settings, and the matches' scoreboards."""

    def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Every command here belongs to a server that has added the app (checks.server_app_only)."""
        return server_app_only(interaction)

    team = app_commands.Group(name="team", description="Teams on this server", guild_only=True)
    match = app_commands.Group(name="match", description="Matches to a target score")

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot
        self.scoreboards = ScoreboardMessages(bot)
        bot.matches.listeners.append(self.scoreboards)
        self.expiry = ExpiryRound(bot.matches.expire_idle, "matches")

    async def cog_load(self) -> None:
        """Start the expiry round."""
        self.expiry.start()

    async def cog_unload(self) -> None:
        """Stop the expiry round."""
        self.expiry.stop()

    # --- matches -----------------------------------------------------------------------

    @match.command(name="open", description="Open a match in this channel: first to the target wins")
    @app_commands.describe(target="points to reach (default 200, a team's default twice that)",
                           game="which game (default canfield)", teams="a team match",
                           die="the Die of Justice", undo="allow undo (default off: fair play)")
    @app_commands.choices(die=DIE_CHOICES)
    async def open(self, interaction: discord.Interaction, target: app_commands.Range[int, 1, 100_000] | None = None,
                   game: str = "canfield", teams: bool = False, die: str | None = None,
                   undo: bool | None = None) -> None:
        """Post a lobby: a message of the bot's own in the channel (interaction replies can only be
        edited for 15 minutes; a match's scoreboard lives longer)."""
        async def work() -> Answer:
            voice = await voice_of(interaction)
            await check_channel(self.bot, interaction)
            with public_post(interaction):
                board = await self.bot.matches.open(
                    player_of(interaction.user), guild_id=interaction.guild_id,
                    channel_id=interaction.channel_id or 0, game=game, target=target, teams=teams, die=die,
                    undo=undo)
                channel = self.bot.get_partial_messageable(board.match.channel_id)
                public = await server_voice(self.bot, interaction.guild_id)  # the channel's, not the member's
                message = await channel.send(view=scoreboard_layout(board, public))
            await self.bot.matches.attach_message(board.match.id, message.id)
            return Answer(voice.gettext("Match #{match} is open: its lobby is in the channel.", match=board.match.id))

        await answer(interaction, work())

    open.autocomplete("game")(game_choices)

    # --- teams -----------------------------------------------------------------------------

    @team.command(name="create", description="Create a team and join it")
    @app_commands.describe(name="a name for the new team")
    async def team_create(self, interaction: discord.Interaction, name: str) -> None:
        """Create a team."""
        await self._team(interaction, lambda guild, player: self.bot.teams.create(guild, player, name),
                         "create")

    @team.command(name="join", description="Join a team (one team per member per server)")
    @app_commands.describe(name="the team to join")
    async def team_join(self, interaction: discord.Interaction, name: str) -> None:
        """Join a team."""
        await self._team(interaction, lambda guild, player: self.bot.teams.join(guild, player, name),
                         "join")

    @team_join.autocomplete("name")
    async def team_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """This server's team names matching what is typed so far."""
        if interaction.guild_id is None:
            return []
        teams = await self.bot.teams.teams(interaction.guild_id)
        return [app_commands.Choice(name=t.name, value=t.name) for t in teams if current.lower() in t.name.lower()][
            :25]

    @team.command(name="leave", description="Leave your team")
    async def team_leave(self, interaction: discord.Interaction) -> None:
        """Leave your team."""
        await self._team(interaction, lambda guild, player: self.bot.teams.leave(guild, player),
                         "leave")

    @team.command(name="list", description="This server's teams")
    async def team_list(self, interaction: discord.Interaction) -> None:
        """List the teams."""
        async def work() -> Answer:
            rosters = await self.bot.teams.rosters(interaction.guild_id or 0)
            return Answer(team_list_text(rosters, await voice_of(interaction)))

        await answer(interaction, work())

    async def _team(self, interaction: discord.Interaction, action, done: str) -> None:
        """Carry out a team command (`done`: which, for its answer, bot.words.matches.TEAM_DONE)."""
        async def work() -> Answer:
            team = await action(interaction.guild_id or 0, player_of(interaction.user))
            return Answer(team_done_text(done, team.name, await voice_of(interaction)))

        await answer(interaction, work())

    # --- settings ----------------------------------------------------------------------------

    @app_commands.command(name="settings",
                          description="This server's match defaults, play channels, language, time zone and daily post")
    @app_commands.describe(target="default match target", team_target="default team target (default: twice)",
                           die="default Die of Justice", undo="allow undo in matches",
                           channel="a channel to allow play in (or disallow, with allow: False)",
                           allow="allow (default) or disallow play in that channel",
                           language="the language for members whose Discord language the bot does not speak",
                           timezone="this server's time zone, such as Europe/Paris (default UTC)",
                           season="how long a season of the leaderboards lasts (default a month)",
                           daily_channel="post the daily there every day",
                           daily_hour="the hour of the daily post, 0 to 23, in the server's time zone",
                           daily_game="which game's daily is posted (default canfield)",
                           daily_role="a role the daily post mentions (default: nobody)",
                           daily_post="turn the daily post on or off, or stop mentioning a role (quiet)")
    @app_commands.choices(die=DIE_CHOICES, language=LANGUAGE_CHOICES, season=SEASON_CHOICES,
                          daily_post=DAILY_POST_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction,
                       target: app_commands.Range[int, 1, 100_000] | None = None,
                       team_target: app_commands.Range[int, 1, 100_000] | None = None, die: str | None = None,
                       undo: bool | None = None, channel: discord.TextChannel | None = None,
                       allow: bool | None = None, language: str | None = None, timezone: str | None = None,
                       season: str | None = None, daily_channel: discord.TextChannel | None = None,
                       daily_hour: app_commands.Range[int, 0, 23] | None = None, daily_game: str | None = None,
                       daily_role: discord.Role | None = None, daily_post: str | None = None) -> None:
        """Show or change the settings (Manage Server only)."""
        async def work() -> Answer:
            guild_id = interaction.guild_id or 0
            given = (target, team_target, die, undo, channel, language, timezone, season, daily_channel, daily_hour,
                     daily_game, daily_role, daily_post)
            if all(value is None for value in given):
                voice = await voice_of(interaction)
                return Answer(settings_text(await load_settings(self.bot.store, guild_id), voice))
            if not (interaction.permissions and interaction.permissions.manage_guild):
                raise ManageServerNeeded("settings")
            new = await change_settings(
                self.bot.store, guild_id, target=target, team_target=team_target, die=die, match_undo=undo,
                channel=channel.id if channel else None, allow=allow, language=language, timezone=timezone,
                season=season, daily_channel=daily_channel.id if daily_channel else None, daily_hour=daily_hour,
                daily_game=daily_game, daily_role=daily_role.id if daily_role else None, daily_post=daily_post)
            voice = await voice_of(interaction)  # in the new language, when the member's is not shipped
            return Answer(voice.gettext("Settings changed.") + " " + settings_text(new, voice))

        await answer(interaction, work())

    settings.autocomplete("daily_game")(game_choices)
    settings.autocomplete("timezone")(timezone_choices)
