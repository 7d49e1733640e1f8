"""Solo games in Discord: slash commands and text moves, thin adapters onto bot.play."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.cogs.checks import anywhere, check_channel, check_play_channel, game_choices, server_command
from bot.cogs.matches import DIE_CHOICES
from bot.game import GAMES
from bot.game.notation import Word, read_word
from bot.game.patience import Game
from bot.i18n import N_, OPTION
from bot.play import Player, PlayError, Reply
from bot.play.errors import ManageServerNeeded, TableOff, UnknownGame
from bot.play.settings import change_settings, load_settings
from bot.views import answers_custom_id
from bot.views.board import board_answer, kept_off_the_channel, player_of
from bot.views.respond import (
    ERROR_LIMIT,
    Answer,
    answer,
    channel_voice,
    error_text,
    fit_to_show,
    in_turn,
    server_voice,
    shown,
    voice_of,
)
from bot.views.review import reply_with_analysis
from bot.views.watch import watch_answer
from bot.words import DISCORD, Voice, rules_text
from bot.words.table import table_link_text

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

log = logging.getLogger(__name__)

HELP = N_("""**Patient Exorcism**: your own game of Canfield (Demon), right here.
• `{play} [{game}] [{deal}]` starts a game (or shows yours); `{board}` shows it again.
• Move with the buttons: tap a pile to send its top card to its best place, or pick cards in the menu and then tap \
where they go. Draw, Auto (all to the foundations), Undo, Hint, Resign.
• Or type: `{move} rt2 wf d`, or mention me: `@Patient Exorcism t1t3:2`. Canfield's {examples}.
• Words work too, on their own: `draw`, `auto`, `undo`, `hint`, `board`, `resign`, `rules`, `help`, and `play [game]`.
• Piles: `s` stock, `w` waste, `r` reserve (`r1`-`r9` in Patriarchs), `f1`-`f8` foundations, `t1`-`t9` columns. \
`{rules}` explains a game: Canfield and its family, Demons and Thieves, Demonthief, Patriarchs, Picture Patience.
• `{match_open}` plays rounds to a target score; `{daily}` is the day's deal; `{race_open}` starts a demon race, \
everyone at once on shared foundations (`{race_move} t3f`); `{watch} @member` shows a member's game here to all.
Boards are private unless you ask for `{public}`. Install the app to your own account to play solo games and \
the daily in DMs and on any server.""")

# Discord takes integer options between -(2**53 - 1) and 2**53 - 1 (and the store's integers
# end at 2**63 - 1), though PySolFC numbers deals up to 10**20.
MAX_DEAL = 2**53 - 1
# The answer to a typed move (a message in the channel) in a game whose deal is live.
LIVE_HERE = N_("Done: this game's deal is still being played by others, so its board is not posted here. {board} "
               "shows it to you alone.")
NO_LONGER = N_("That button is no longer in use: ask for a new board ({board}), match or race message.")



def help_text(voice: Voice) -> str:
    """The help, with the commands as the voice names them."""
    names = ("play", "board", "move", "rules", "match open", "daily", "race open", "race move", "watch")
    options = {option: voice.pgettext(OPTION, option) for option in ("game", "deal", "public")}
    return voice.gettext(HELP, examples=voice.engine(Game.examples), **options,
                         **{name.replace(" ", "_"): voice.command(name) for name in names})


# Words that start a game, with an optional game name after them (`play storehouse`).
START_WORDS = ("play", "new")


class SoloCog(commands.Cog):
    """/play, /move, /board, /undo, /hint, /resign, /rules, /help, /watch, and moves by mention or prefix."""

    def __init__(self, bot: PatientExorcismBot) -> None:
        self.bot = bot

    @property
    def solo(self):
        """The play layer."""
        return self.bot.solo

    # --- slash commands ----------------------------------------------------------------

    @app_commands.command(name="play", description="Start a game of patience here (or show the one you have)")
    @app_commands.describe(game="which game (default canfield)", deal="a PySolFC game number (default: random)",
                           draw="cards turned by each draw, 1-6", die="the Die of Justice",
                           public="show the board to the whole channel")
    @app_commands.choices(die=DIE_CHOICES)
    @anywhere
    async def play(self, interaction: discord.Interaction, game: str = "canfield",
                   deal: app_commands.Range[int, 1, MAX_DEAL] | None = None,
                   draw: app_commands.Range[int, 1, 6] | None = None, die: str | None = None,
                   public: bool = False) -> None:
        """Start a game."""
        options = {key: value for key, value in (("draw", draw), ("die", die)) if value is not None}

        async def work() -> Answer:
            voice = await voice_of(interaction)
            await check_channel(self.bot, interaction)
            player = player_of(interaction.user)
            reply = await self.solo.start(player, guild_id=interaction.guild_id,
                                          channel_id=interaction.channel_id, name=game, deal=deal, **options)
            return await self._board(reply, player, voice, public)

        await answer(interaction, work(), ephemeral=not public)

    @app_commands.command(name="move", description="Play moves as text, such as rt2 wf d")
    @app_commands.describe(moves="one or more moves: rt2, wf, t1t3:2, 7h, d, a, u", public="show the board to all")
    @anywhere
    async def move(self, interaction: discord.Interaction, moves: str, public: bool = False) -> None:
        """Play typed moves, or one of the words (board, resign, rules, help, play)."""
        async def work() -> Answer:
            return await self._text_command(player_of(interaction.user), interaction.guild_id,
                                            interaction.channel_id, moves, await voice_of(interaction), public=public)

        await answer(interaction, work(), ephemeral=not public)

    @app_commands.command(name="board", description="Show your game's board again")
    @app_commands.describe(public="show the board to all")
    @anywhere
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        """Show the board."""
        await self._on_running(interaction, None, public)

    @app_commands.command(name="table", description="Your game here on a table in your browser: a private link")
    @anywhere
    async def table(self, interaction: discord.Interaction) -> None:
        """A private link to the member's game in this channel on the web table."""
        async def work() -> Answer:
            voice = await voice_of(interaction)
            if self.bot.web is None:
                raise TableOff()
            player = player_of(interaction.user)
            game_id = await self.solo.running_id(player, interaction.channel_id)
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label=voice.gettext("Open table"), emoji="🌐",
                                            url=await self.bot.web.link(player.id, game_id, voice.language)))
            return Answer(text=table_link_text(voice), view=view)

        await answer(interaction, work())

    @app_commands.command(name="undo", description="Take back your last move")
    @anywhere
    async def undo(self, interaction: discord.Interaction) -> None:
        """Undo."""
        await self._on_running(interaction, lambda reply, player: self.solo.undo(reply.game_id, player))

    @app_commands.command(name="hint", description="Suggest a move")
    @anywhere
    async def hint(self, interaction: discord.Interaction) -> None:
        """Hint."""
        await self._on_running(interaction, lambda reply, player: self.solo.hint(reply.game_id, player))

    @app_commands.command(name="resign", description="End your game now; its score stands")
    @anywhere
    async def resign(self, interaction: discord.Interaction) -> None:
        """Resign; a game damaged in storage is set aside instead, so that its player can play on."""
        set_aside = await self._set_aside_damaged(player_of(interaction.user), interaction.channel_id,
                                                  await voice_of(interaction))
        if set_aside is not None:
            await interaction.response.send_message(set_aside.text, ephemeral=True)
            return
        await self._on_running(interaction, lambda reply, player: self.solo.resign(reply.game_id, player))

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.describe(game="which game (default canfield)")
    @anywhere
    async def rules(self, interaction: discord.Interaction, game: str = "canfield") -> None:
        """Explain the rules."""
        voice = await voice_of(interaction)
        text = (rules_text(game, voice) if game in GAMES
                else fit_to_show(error_text(UnknownGame(game), voice), ERROR_LIMIT))
        await interaction.response.send_message(text, ephemeral=True)

    play.autocomplete("game")(game_choices)
    rules.autocomplete("game")(game_choices)

    @app_commands.command(name="watch", description="Show a member's game here to the channel, read-only")
    @app_commands.describe(member="whose game in this channel to show")
    @anywhere
    async def watch(self, interaction: discord.Interaction, member: discord.User) -> None:
        """Post a read-only board of the member's game with a Refresh button; refused privately."""
        async def work() -> Answer:
            reply = await self.bot.watching.watch(player_of(interaction.user), member.id, interaction.channel_id)
            voice = await channel_voice(interaction)
            result = await watch_answer(reply, voice)
            if self.bot.web is not None and result.view is not None:  # move by move, live, in a browser
                url = await self.bot.web.watch_link(interaction.user.id, reply.game_id, interaction.channel_id,
                                                    voice.language)
                result.view.add_item(discord.ui.Button(label=voice.gettext("Watch in a browser"), emoji="🌐", url=url))
            return result

        await answer(interaction, work(), ephemeral=False)

    @app_commands.command(name="help", description="How to play with Patient Exorcism")
    @anywhere
    async def help(self, interaction: discord.Interaction) -> None:
        """Explain the bot."""
        await interaction.response.send_message(help_text(await voice_of(interaction)), ephemeral=True)

    async def _on_running(self, interaction: discord.Interaction, action, public: bool = False) -> None:
        """Do `action` on the player's running game here and show the board."""
        async def work() -> Answer:
            player = player_of(interaction.user)
            reply: Reply = await self.solo.running(player, interaction.channel_id)
            if action is not None:
                reply = await action(reply, player)
            return await self._board(reply, player, await voice_of(interaction), public)

        await answer(interaction, work(), ephemeral=not public)

    # --- buttons that no handler takes ----------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a click whose custom_id none of the bot's buttons and menus takes (one made by an
        older version of the bot, say), rather than leave "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        if not answers_custom_id(str((interaction.data or {}).get("custom_id", ""))):
            voice = await voice_of(interaction)
            text = voice.gettext(NO_LONGER, board=voice.command("board"))
            await interaction.response.send_message(text, ephemeral=True)

    # --- text: by mention, or by prefix with the message-content intent -----------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Moves and a few words in a message that mentions the bot or starts with the prefix."""
        if message.author.bot or self.bot.user is None:
            return
        text = await self._text_for_us(message)
        if text is None:
            return
        start, outcome = time.perf_counter(), "failed"
        try:
            outcome = await self._answer_text(message, text)
        finally:
            metrics.handled("typed", outcome, time.perf_counter() - start)

    async def _answer_text(self, message: discord.Message, text: str) -> metrics.Outcome:
        """Answer a message's text (for us) with a reply; how it went, for the metrics."""
        player, guild_id = player_of(message.author), message.guild.id if message.guild else None
        voice = DISCORD
        try:
            voice = await server_voice(self.bot, guild_id)  # a message has no locale: the server's language
            result = await in_turn(player.id, self._text_command(
                player, guild_id, message.channel.id, text or Word.HELP.value, voice, public=True))
        except PlayError as error:
            await message.reply(fit_to_show(error_text(error, voice), ERROR_LIMIT), mention_author=False)
            return "refused"
        except Exception:
            log.exception("message %s failed", message.id)
            await message.reply(voice.gettext("Something went wrong on our side; your game is safe."),
                                mention_author=False)
            return "failed"
        if result.private:  # a live deal's board: a message's answer cannot be private, so none is posted
            await message.reply(voice.gettext(LIVE_HERE, board=voice.command("board")), mention_author=False)
            return "refused"
        reply = shown(result)
        await message.reply(**reply.to_send(), mention_author=False)
        if result.analysing is not None:
            reply_with_analysis(self.bot.review, message, result.analysing, voice)
        return "refused" if result.unchanged else "answered"

    async def _text_for_us(self, message: discord.Message) -> str | None:
        content = message.content.strip()
        assert self.bot.user is not None
        for mention in (f"<@{self.bot.user.id}>", f"<@!{self.bot.user.id}>"):
            if content.startswith(mention):
                return content[len(mention):].strip()
        if self.bot.config.message_content:
            prefix = await self._prefix(message.guild)
            if content.startswith(prefix) and len(content) > len(prefix):
                return content[len(prefix):].strip()
        return None

    async def _prefix(self, guild: discord.Guild | None) -> str:
        if guild is None:
            return self.bot.config.prefix
        return (await load_settings(self.bot.store, guild.id)).prefix or self.bot.config.prefix

    async def _board(self, reply: Reply, player: Player, voice: Voice, public: bool) -> Answer:
        """The board answer; one meant for the channel (`public`) kept to its member while its deal is live."""
        result = await board_answer(reply, player, voice)
        return await kept_off_the_channel(result, reply, self.solo.secrecy, voice) if public else result

    async def _text_command(self, player: Player, guild_id: int | None, channel_id: int | None,
                            text: str, voice: Voice, *, public: bool = False) -> Answer:
        """What a typed message (or /move) says, in the voice: a word on its own, `play [game]`,
        `rules [game]`, or moves, read whole (undo and hint among them) by the play layer; a
        board meant for the channel (`public`) kept to its member while its deal is live."""
        words = text.split()
        first = words[0].lower() if words else ""
        word = read_word(text)
        if word is Word.HELP:
            return Answer(help_text(voice))
        if first == Word.RULES.value and len(words) <= 2:
            name = words[1].lower() if len(words) == 2 else await self._game_name(player, channel_id)
            if name not in GAMES:
                raise UnknownGame(name)
            return Answer(rules_text(name, voice))
        if first in START_WORDS and len(words) <= 2:
            name = words[1].lower() if len(words) == 2 else "canfield"
            await check_play_channel(self.bot, guild_id, channel_id)
            reply = await self.solo.start(player, guild_id=guild_id, channel_id=channel_id, name=name)
            return await self._board(reply, player, voice, public)
        if word is Word.RESIGN and (set_aside := await self._set_aside_damaged(player, channel_id, voice)):
            return set_aside
        game_id = await self.solo.running_id(player, channel_id)  # a move needs no copy of the board before it
        if word is Word.RESIGN:
            reply = await self.solo.resign(game_id, player)
        elif word is Word.BOARD:
            reply = await self.solo.board(game_id, player)
        else:
            reply = await self.solo.move(game_id, player, text)
        return await self._board(reply, player, voice, public)

    async def _set_aside_damaged(self, player: Player, channel_id: int | None, voice: Voice) -> Answer | None:
        """The answer when the player's game here is damaged in storage and resigning set it aside."""
        abandoned = await self.solo.abandon_damaged(player, channel_id)
        if abandoned is None:
            return None
        return Answer(voice.gettext("Game {game} was damaged in storage: it is set aside. {play} starts a new one.",
                                    game=abandoned, play=voice.command("play")))

    async def _game_name(self, player: Player, channel_id: int | None) -> str:
        """The name of the player's game in play here, else canfield."""
        try:
            return (await self.solo.running(player, channel_id)).game.name
        except PlayError:
            return "canfield"

    # --- settings ------------------------------------------------------------------------

    @app_commands.command(name="prefix", description="Set this server's prefix for typed moves (default !)")
    @app_commands.describe(prefix="the new prefix: 1 to 5 characters, such as ! or ?")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @server_command
    async def prefix(self, interaction: discord.Interaction, prefix: app_commands.Range[str, 1, 5]) -> None:
        """Change the prefix (it needs the message-content intent to work)."""
        async def work() -> Answer:
            voice = await voice_of(interaction)
            if not (interaction.permissions and interaction.permissions.manage_guild):
                raise ManageServerNeeded("prefix")
            await change_settings(self.bot.store, interaction.guild_id or 0, prefix=prefix)
            if self.bot.config.message_content:
                return Answer(voice.gettext("Prefix set to `{prefix}`.", prefix=prefix.strip()))
            return Answer(voice.gettext("Prefix set to `{prefix}` (typed moves need the message-content intent; until "
                                        "then, mention me).", prefix=prefix.strip()))

        await answer(interaction, work())
