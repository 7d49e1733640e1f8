"""A minimal discord.py bot used to test the fake Discord (run as ``python -m tests.e2e.minibot``).

Environment:
    DISCORD_TOKEN            the bot token
    DISCORD_API_BASE         e.g. http://127.0.0.1:PORT/api/v10 (put into discord.http.Route.BASE)
    DISCORD_GATEWAY_URL      optional: the fake's websocket URL, used if discord.py falls back to its
                             default gateway (after an invalid session)
    MINIBOT_SYNC_GUILD       optional guild id: sync the commands to that guild instead of globally
    MINIBOT_MESSAGE_CONTENT  "1" to ask for the privileged message_content intent
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import struct
import sys
import zlib

import discord
import yarl
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("minibot")

FRUITS = ["apple", "apricot", "banana", "blueberry", "cherry", "grape", "lemon", "lime", "mango", "melon"]


def tiny_png(width: int = 4, height: int = 4) -> bytes:
    """A small valid RGB PNG, built by hand (no imaging library needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xff\x80\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"mini:(?P<n>\d+)"):
    """A persistent button whose state (n) lives in its custom_id, so it works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(label=f"Count {n}", style=discord.ButtonStyle.primary, custom_id=f"mini:{n}")
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Counter:
        """Rebuild the button from its custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the message: count one more, and replace the picture."""
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        image = discord.File(io.BytesIO(tiny_png(self.n + 1, 2)), filename=f"pong-{self.n + 1}.png")
        await interaction.response.edit_message(content=f"pong {self.n + 1}", view=view, attachments=[image])


class FruitView(discord.ui.View):
    """A regular (non-persistent) view with a string select; its callback defers, then edits."""

    def __init__(self) -> None:
        super().__init__(timeout=300)

    @discord.ui.select(
        custom_id="fruit-select",
        placeholder="Choose a fruit",
        options=[discord.SelectOption(label=f.title(), value=f) for f in FRUITS[:5]],
    )
    async def choose(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        """Acknowledge with a deferred update (type 6), then edit the message through @original."""
        await interaction.response.defer()
        select.disabled = True
        await interaction.edit_original_response(content=f"you chose {select.values[0]}", view=self)


class MiniBot(commands.AutoShardedBot):
    """The test bot."""

    def __init__(self, sync_guild: int | None, message_content: bool) -> None:
        intents = discord.Intents.default()
        intents.message_content = message_content
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, guild_ready_timeout=0.1)
        self.sync_guild = sync_guild

    async def setup_hook(self) -> None:
        """Register the persistent button and sync the slash commands."""
        self.add_dynamic_items(Counter)
        self.tree.add_command(ping)
        self.tree.add_command(pick)
        self.tree.add_command(slow)
        self.tree.add_command(late)
        self.tree.add_command(choose)
        self.tree.add_command(where)
        if self.sync_guild:
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %s", [c.name for c in synced])

    async def on_ready(self) -> None:
        """Say so in the log (the e2e harness can wait for this line)."""
        print(f"MINIBOT READY as {self.user}", flush=True)

    async def on_message(self, message: discord.Message) -> None:
        """Log every message seen; answer the ones that mention the bot."""
        log.info("message from %s: %r", message.author.name, message.content)
        if message.author.bot or self.user is None or self.user not in message.mentions:
            return
        text = message.content.replace(self.user.mention, "").strip()
        await message.reply(f"hello {message.author.name}, you said: {text}")


@app_commands.command(description="Reply privately with a picture and a counter button")
async def ping(interaction: discord.Interaction) -> None:
    """Ephemeral "pong" with a PNG and a persistent button."""
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(1))
    image = discord.File(io.BytesIO(tiny_png()), filename="pong.png")
    await interaction.response.send_message("pong 1", ephemeral=True, file=image, view=view)


@app_commands.command(description="Choose a fruit from a menu")
async def choose(interaction: discord.Interaction) -> None:
    """A public message with a select menu."""
    await interaction.response.send_message("choose a fruit", view=FruitView())


@app_commands.command(description="Pick a fruit")
@app_commands.describe(fruit="The fruit")
async def pick(interaction: discord.Interaction, fruit: str) -> None:
    """Say which fruit was picked."""
    await interaction.response.send_message(f"you picked {fruit}")


@pick.autocomplete("fruit")
async def pick_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Fruits that start with what the user typed."""
    return [app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current.lower())][:25]


@app_commands.command(description="Think for a second, then answer")
async def slow(interaction: discord.Interaction) -> None:
    """Defer, sleep 1 s, edit the original response, then send a followup."""
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(1.0)
    notes = discord.File(io.BytesIO(b"thought for 1 s"), filename="notes.txt")
    await interaction.edit_original_response(content="slow done", attachments=[notes])
    await interaction.followup.send("and a followup")


@app_commands.command(description="Answer too late (after 3.5 s, without deferring)")
async def late(interaction: discord.Interaction) -> None:
    """Miss Discord's 3 second deadline."""
    await asyncio.sleep(3.5)
    await interaction.response.send_message("too late")


@app_commands.command(description="Say where this is and how the app got here; then some follow-ups")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def where(interaction: discord.Interaction, followups: int = 0) -> None:
    """Answer publicly with the interaction's context and installs, then send `followups` follow-ups
    (each refusal logged, none raised)."""
    context = [value for value, on in (("guild", interaction.context.guild), ("dm", interaction.context.dm_channel),
                                       ("private", interaction.context.private_channel)) if on]
    await interaction.response.send_message(
        f"context={','.join(context)} guild_install={interaction.is_guild_integration()} "
        f"user_install={interaction.is_user_integration()}")
    for number in range(1, followups + 1):
        try:
            await interaction.followup.send(f"follow-up {number}")
        except discord.HTTPException as error:
            log.info("follow-up %s refused: %s %s", number, error.status, error.code)


def use_discord_from_environment() -> None:
    """Point discord.py at the Discord the environment names (DISCORD_API_BASE,
    DISCORD_GATEWAY_URL: the fake's), if it names one."""
    api_base = os.environ.get("DISCORD_API_BASE")
    if api_base:
        discord.http.Route.BASE = api_base
    gateway = os.environ.get("DISCORD_GATEWAY_URL")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def main() -> int:
    """Run the bot against the Discord given by the environment."""
    token = os.environ["DISCORD_TOKEN"]
    use_discord_from_environment()
    sync_guild = int(os.environ["MINIBOT_SYNC_GUILD"]) if os.environ.get("MINIBOT_SYNC_GUILD") else None
    bot = MiniBot(sync_guild, os.environ.get("MINIBOT_MESSAGE_CONTENT") == "1")
    bot.run(token, log_level=logging.INFO, root_logger=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
