"""The Discord bot: an AutoShardedBot that opens the store, loads the cogs and syncs commands."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import asyncpg
import discord
import yarl
from aiohttp.web import Application as WebApplication
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cogs.checks import SERVER_CONTEXTS, SERVER_INSTALLS, NeedsServerApp
from bot.config import Config, shard_ranges
from bot.game import solver
from bot.languages import choose_language
from bot.play import SoloPlay
from bot.play.bulk import BulkDrawing
from bot.play.daily import DailyPlay
from bot.play.days import today
from bot.play.errors import ServerLacksApp
from bot.play.leaderboards import Leaderboards
from bot.play.matches import MatchPlay, TeamPlay
from bot.play.race import RacePlay
from bot.play.ratings import Ratings
from bot.play.review import ReviewPlay
from bot.play.ritual import Ritual
from bot.play.services import Play, build_play
from bot.play.solo import VERDICT_LIMIT
from bot.play.solution import SolutionPlay
from bot.play.watch import WatchPlay
from bot.play.work import start_processes
from bot.store import Store, StoreError, open_store
from bot.views.mentions import NO_PINGS
from bot.views.respond import pace_members
from bot.views.translator import CommandTranslator
from bot.web.activity import Activity
from bot.web.health import add_routes
from bot.web.server import TableServer
from bot.words import DISCORD, error_text
from render import workers

log = logging.getLogger("bot")
# What the bot does in channels, and nothing more (README, "For the admin", the invite). Slash commands and
# buttons are answered through their interaction, which needs no channel permission; the rest:
PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the messages that mention it (typed moves)
    send_messages=True,  # match and race lobbies, their announcements, answers to typed moves
    send_messages_in_threads=True,  # the same in threads
    attach_files=True,  # board images in answers to typed moves and on the races' public boards
    read_message_history=True,  # answers to typed moves are replies, which Discord allows only with it
)
SCOPES = ("bot", "applications.commands")
# New objects before a young pass of the garbage collector, young passes before an older one.
GC_THRESHOLDS = (10_000, 20, 20)


class CommandTree(app_commands.CommandTree):
    """The slash commands; a command of a server's used where the server has not added the app
    is answered with a short refusal."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """Refuse NeedsServerApp privately; log anything else, as discord.py does."""
        if isinstance(error, NeedsServerApp):
            voice = DISCORD.speaking(choose_language(interaction.locale, None))  # no server settings to read here
            await interaction.response.send_message(error_text(ServerLacksApp(), voice), ephemeral=True)
            return
        await super().on_error(interaction, error)


class PatientExorcismBot(commands.AutoShardedBot):
    """The bot. `setup_hook` opens the store, adds the cogs and button handlers, syncs commands."""

    store: Store
    solo: SoloPlay
    matches: MatchPlay
    teams: TeamPlay
    daily: DailyPlay
    races: RacePlay
    leaderboards: Leaderboards
    review: ReviewPlay
    bulk: BulkDrawing
    solutions: SolutionPlay
    watching: WatchPlay
    ratings: Ratings
    ritual: Ritual
    play: Play
    web: TableServer | None = None  # the web table's server, when WEB_PORT is set

    def __init__(self, config: Config) -> None:
        intents = discord.Intents.default()
        intents.message_content = config.message_content
        # None for either is discord.py's default: ask Discord how many shards, run them all here.
        # Nobody is pinged unless a message names the users it means to (bot.views.mentions).
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=NO_PINGS, shard_count=config.shard_count, tree_cls=CommandTree,
                         allowed_installs=SERVER_INSTALLS, allowed_contexts=SERVER_CONTEXTS,
                         shard_ids=None if config.shard_ids is None else list(config.shard_ids))  # type: ignore[arg-type]
        self.config = config

    def use_play(self, play: Play) -> None:
        """Serve the play layer's services `play` (on the bot's store): the cogs and views reach them
        as the bot's attributes."""
        self.play = play
        self.store, self.solo, self.matches, self.teams, self.daily = (play.store, play.solo, play.matches,
                                                                      play.teams, play.daily)
        self.review, self.bulk, self.races, self.leaderboards = play.review, play.bulk, play.races, play.leaderboards
        self.solutions, self.watching, self.posts, self.ritual = play.solutions, play.watching, play.posts, play.ritual
        self.ratings = play.ratings

    @property
    def runs_shard_zero(self) -> bool:
        """Whether this process runs shard 0 (always, unless SHARD_IDS leaves it to another process)."""
        return self.config.shard_ids is None or 0 in self.config.shard_ids

    def describe_shards(self) -> str:
        """Which shards this process runs, for the log."""
        count, ids = self.config.shard_count, self.config.shard_ids
        if count is None:
            return "every shard, as many as Discord recommends (SHARD_COUNT not set)"
        if ids is None:
            return f"every shard, all {count} of them"
        return f"shard{'s' if len(ids) > 1 else ''} {shard_ranges(ids)} of {count} (SHARD_IDS)"

    async def setup_hook(self) -> None:
        """Open the store, register cogs and the buttons that survive restarts, sync commands."""
        from bot.cogs import cog_classes
        from bot.views import dynamic_items

        if self.config.api_base:
            # Reconnects fall back to DEFAULT_GATEWAY: make that the gateway this API names too.
            _, url, _ = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        workers.use_processes(self.config.render_processes)
        pace_members(self.config.member_pace)
        if self.config.start_processes:
            start_processes()
            workers.start()
        self.store = await open_store(self.config.database_url)
        self.use_play(build_play(self.store))
        await self._rate_what_finished()
        for cog in cog_classes():
            await self.add_cog(cog(self))
        self.add_dynamic_items(*dynamic_items())
        if self.config.web_port is not None and self.config.public_url is not None:
            activity = Activity(self.play, self.config, lambda: self.application_id)

            def more_routes(app: WebApplication) -> None:
                add_routes(app, self)
                activity.add_routes(app)

            self.web = TableServer(self.play, self.config.public_url, more_routes=more_routes, hub=activity.hub)
            try:
                await self.web.start(self.config.web_port)
            except OSError as error:  # the port is taken, or not ours to take: say which, in one line
                raise OSError(error.errno, f"the web table cannot listen on WEB_PORT {self.config.web_port}: "
                                           f"{error.strerror or error}") from None
        await self.tree.set_translator(CommandTranslator())
        log.info("this process runs %s", self.describe_shards())
        await self._sync_commands()
        self._heartbeat_task = asyncio.create_task(self._heartbeat())
        self._warm_task = asyncio.create_task(self._warm_daily())
        tune_garbage_collection()

    async def _sync_commands(self) -> None:
        """Register the slash commands with Discord, from the process that runs shard 0 only.

        Commands belong to the application, not to a shard: one sync speaks for every process.
        Syncing from each would be harmless (it is idempotent) but spends Discord's daily limit on
        command creates once per process, and in a rolling upgrade a not-yet-upgraded process that
        restarts would put its older commands back. Exactly one process runs shard 0. The others
        still build the local command tree, which is what answers the interactions they get."""
        guild = None if self.config.dev_guild_id is None else discord.Object(self.config.dev_guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if not self.runs_shard_zero:
            log.info("not syncing commands: the process running shard 0 does")
            return
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands%s", len(synced), f" to server {guild.id}" if guild else " globally")

    async def _rate_what_finished(self) -> None:
        """Rate the matches and races that finished unrated: those that ended while no process
        rated them, and in a database from before ratings, every one stored."""
        try:
            changes = await self.ratings.catch_up()
        except Exception:  # the next match or race to end rates them
            log.exception("could not rate the finished matches and races")
            return
        if changes:
            log.info("rated %d results of finished matches and races", len(changes))

    async def _warm_daily(self) -> None:
        """Find today's winnable daily deal in the background, so the first /daily is quick."""
        try:
            await self.daily.deal(today(), "canfield")
        except Exception:
            log.exception("could not prepare today's daily deal")

    async def _heartbeat(self) -> None:
        """Touch the health file every 30 seconds while connected (the Docker healthcheck reads it)."""
        path = Path(self.config.health_file)
        await self.wait_until_ready()
        while not self.is_closed():
            if self.is_ready():
                try:
                    write_health_file(path)
                except OSError as error:
                    log.warning("cannot write the health file %s: %s", path, error)
            await asyncio.sleep(30)

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: text moves are read by the solo cog's listener."""

    async def on_ready(self) -> None:
        """Say who we are once connected."""
        log.info("connected as %s (%s) to %d servers on shards %s of %s", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds), shard_ranges(tuple(self.shards)), self.shard_count)
        if self.application_id is not None:
            log.info("invite it with %s", invite_url(self.application_id))

    async def close(self) -> None:
        """Stop the web server, disconnect, then close the store."""
        web = getattr(self, "web", None)
        if web is not None:
            await web.stop()
        await super().close()
        workers.stop()
        bulk = getattr(self, "bulk", None)
        if bulk is not None:
            bulk.stop()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def tune_garbage_collection() -> None:
    """Once set up: the objects made so far (modules, the command tree, the store's tables) are
    set aside from the garbage collector's passes (`gc.freeze`), and a pass waits for GC_THRESHOLDS
    new objects instead of 700. With the default, the collector's passes over the games kept in
    memory took some 15% of the bot's CPU in a 500-player burst (benchmarks/load.py, bot CPU per
    interaction 2.6-2.8 ms with the default, 2.2-2.4 ms with these)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def invite_url(application_id: int) -> str:
    """The URL that adds the bot to a server with exactly the permissions it uses."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def write_health_file(path: Path) -> None:
    """Write the time into the health file safely: a new file of our own, renamed over the old
    one, so that a symbolic link planted at `path` is replaced, never followed. OSError on failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w") as file:
            file.write(f"{time.time():.0f}\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(config: Config) -> int:
    """Run the bot until it stops (SIGTERM and SIGINT stop it cleanly); return the process exit
    code. A failure to start (a rejected token, no network) is one clear line, never a traceback."""
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log.info("%s", describe_solver())
    if config.api_base:
        Route.BASE = config.api_base
    # Boards are drawn in worker threads: hand the GIL between them and the event loop every
    # millisecond instead of every 5, so answers are not held up behind a drawing (benchmarks/load.py:
    # 5-15% more answers a second under load).
    sys.setswitchinterval(0.001)
    # The bot never joins voice: discord.py's warnings about the voice libraries are noise.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    bot = PatientExorcismBot(config)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(serve(bot, config.token))
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN: check the token in the environment or .env.", flush=True)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("MESSAGE_CONTENT is on but the message-content intent is not enabled for this bot in the "
              "Discord developer portal: enable it there or set MESSAGE_CONTENT=false.", flush=True)
        return 2
    except (OSError, aiohttp.ClientError, discord.DiscordException, StoreError, sqlite3.Error,
            asyncpg.PostgresError) as error:  # OSError: TimeoutError too
        print(f"The bot stopped: {describe_failure(error)}", flush=True)
        return 1
    return 0


def describe_solver() -> str:
    """Which search the solver runs, for the start-up log: the C one, with the file it was loaded from,
    or the slower Python one when the C one is not built where the bot was imported from."""
    built = solver.native_file()
    if built is not None:
        return f"the solver searches in C ({built})"
    return (f"the solver searches in Python ({VERDICT_LIMIT:,} positions a verdict): the C search is not built "
            f"in {Path(solver.__file__).parent}")


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (the `speed` extra: less CPU per interaction,
    benchmarks/load.py), else None: asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def serve(bot: PatientExorcismBot, token: str) -> None:
    """Run the bot until it is closed: by SIGTERM (what `docker stop` sends) or SIGINT (Ctrl-C),
    each of which closes it cleanly (the gateway, the drawing processes, the store)."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(signal_name: str) -> None:
        if not closing:
            log.info("%s: shutting down", signal_name)
            closing.append(loop.create_task(bot.close()))

    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop, number.name)
    async with bot:
        await bot.start(token)
    if closing:
        await closing[0]
        log.info("stopped")


def describe_failure(error: BaseException) -> str:
    """A start-up failure in one line, such as `cannot reach discord.com:443 (DNS lookup failed)`."""
    if isinstance(error, aiohttp.ClientConnectorError):
        return f"cannot reach {error.host}:{error.port} ({error.os_error.strerror or error.os_error})"
    text = " ".join(str(error).split()) or type(error).__name__
    return f"{type(error).__name__}: {text}"
