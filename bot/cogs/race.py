"""/race: a demon race in a channel (docs/games.md). The public board lives in a message of the bot's
own, kept up to date within about a second of each change (edits are coalesced, so a burst of
moves costs one edit); each player plays on a private board."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.checks import check_channel, server_app_only
from bot.cogs.coalesce import CoalescedEdits
from bot.cogs.expiry import ExpiryRound
from bot.game.race import RACE_LAYOUTS, RaceGame
from bot.play import Player
from bot.play.race import Event, RaceListener, RaceReply
from bot.store.base import Race
from bot.views.board import player_of
from bot.views.mentions import pinging
from bot.views.race import lobby_view, private_answer, public_png
from bot.views.respond import Answer, answer, public_post, server_voice, shown, voice_of
from bot.views.translator import kept
from bot.words import race_captions, race_table_alt_text
from bot.words.race import public_text, race_text
from render import workers

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

log = logging.getLogger(__name__)
COALESCE_SECONDS = 1.0
WATCHER = Player(0, "")  # the public board is the race as seen by no player in particular


class PublicBoards(RaceListener):
    """Keeps each race's public message up to date and announces the end."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot
        self._edits = CoalescedEdits(self._edit_race, COALESCE_SECONDS, "public board of race")

    async def race_changed(self, race_id: int) -> None:
        """Schedule one edit of the race's message; further changes meanwhile join it."""
        self._edits.changed(race_id)

    async def _edit_race(self, race_id: int) -> None:
        await self.edit(await self.bot.races.board(race_id, WATCHER))

    async def edit(self, reply: RaceReply) -> None:
        """Show the race in its public message now."""
        race = reply.race
        if race.message_id is None:
            return
        names, voice = await self.bot.races.names(race), await server_voice(self.bot, race.guild_id)
        file = None
        if reply.game is not None:
            png = await workers.draw(public_png, reply, names, race_captions(reply.game, voice))
            file = discord.File(io.BytesIO(png), filename="race.png",
                                description=race_table_alt_text(reply.game, names, voice))
        message = self.bot.get_partial_messageable(race.channel_id).get_partial_message(race.message_id)
        board = shown(Answer(public_text(reply, names, voice), file, lobby_view(reply, voice)), v2=True)
        await message.edit(content=board.content, attachments=board.files, view=board.view)

    async def race_finished(self, race: Race, game: RaceGame, summary: tuple[Event, ...]) -> None:
        """Post the end in the race's channel: "Demon!" when someone went out; in a series, the
        totals and the next hand, or the series' winner."""
        channel = self.bot.get_partial_messageable(race.channel_id)
        try:
            voice = await server_voice(self.bot, race.guild_id)
            text = voice.gettext("Race #{race}: {summary}", race=race.id, summary=race_text(summary, voice))
            await channel.send(text, allowed_mentions=pinging(race.players))
        except discord.HTTPException:
            log.exception("could not announce the end of race %s", race.id)


class RaceCog(commands.Cog):
    """/race open, /race move, /race board; races with no change for a day end."""

    def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Every command here belongs to a server that has added the app (checks.server_app_only)."""
        return server_app_only(interaction)

    race = app_commands.Group(name="race", description="Demon race: everyone races on shared foundations")

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot
        self.boards = PublicBoards(bot)
        bot.races.listeners.append(self.boards)
        self.expiry = ExpiryRound(bot.races.expire_idle, "races")

    async def cog_load(self) -> None:
        """Start the expiry round."""
        self.expiry.start()

    async def cog_unload(self) -> None:
        """Stop the expiry round."""
        self.expiry.stop()

    @race.command(name="open", description="Open a demon race in this channel: 2 to 8 players")
    @app_commands.describe(layout="klondike (default) or demon: the traditional Racing Demon layout",
                           deal="the race's number, which deals every player's deck (default: random)",
                           target="play hands until someone has this many points (default: one hand)")
    @app_commands.choices(layout=[app_commands.Choice(name=kept(name), value=name) for name in RACE_LAYOUTS])
    async def open(self, interaction: discord.Interaction, layout: str = "klondike",
                   deal: app_commands.Range[int, 1, 999_999_999] | None = None,
                   target: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        """Post the race's public board, a message of the bot's own, with its lobby buttons."""
        async def work() -> Answer:
            voice = await voice_of(interaction)
            await check_channel(self.bot, interaction)
            with public_post(interaction):
                reply = await self.bot.races.open(player_of(interaction.user), guild_id=interaction.guild_id,
                                                  channel_id=interaction.channel_id or 0, layout=layout, deal=deal,
                                                  target=target)
                names = await self.bot.races.names(reply.race)
                channel = self.bot.get_partial_messageable(reply.race.channel_id)
                public = await server_voice(self.bot, interaction.guild_id)  # the channel's, not the member's
                board = shown(Answer(public_text(reply, names, public), view=lobby_view(reply, public)), v2=True)
                message = await channel.send(**board.to_send())
            await self.bot.races.attach_message(reply.race.id, message.id)
            return Answer(voice.gettext("Race #{race} is open: its board is in the channel.", race=reply.race.id))

        await answer(interaction, work())

    @race.command(name="move", description="Play moves in your race: t3f, wt2, 7h, d, a")
    @app_commands.describe(moves="one or more moves: t3f (to a foundation), wt2, t1t4:2, 7h, d, a")
    async def move(self, interaction: discord.Interaction, moves: str) -> None:
        """Play typed moves on the player's race in this channel."""
        async def work() -> Answer:
            player = player_of(interaction.user)
            current = await self.bot.races.running(player, interaction.channel_id or 0)
            reply = await self.bot.races.move(current.race.id, player, moves, seen=current.seen)
            return await private_answer(reply, await self.bot.races.names(reply.race), await voice_of(interaction))

        await answer(interaction, work())

    @race.command(name="board", description="Your board in your race here")
    async def board(self, interaction: discord.Interaction) -> None:
        """Show the player's private board."""
        async def work() -> Answer:
            reply = await self.bot.races.running(player_of(interaction.user), interaction.channel_id or 0)
            return await private_answer(reply, await self.bot.races.names(reply.race), await voice_of(interaction))

        await answer(interaction, work())
