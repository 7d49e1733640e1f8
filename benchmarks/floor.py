"""The floor of `benchmarks/load.py --floor`: a minimal discord.py bot that answers `/play` and
`/move` with a fixed PNG and a board message of the same shape as ours, and does nothing else.

Its CPU per interaction is what discord.py and aiohttp cost to receive a slash command and send
that message: whatever our bot spends above it is our own code's. It answers in the message our
boards use (a Components V2 container: a status line, a line of text, the image in a media
gallery, then Canfield's buttons: five actions, the waste and reserve, four columns, and a pick
menu), and its Draw button carries a `pe:GAME:VERSION:draw` custom_id, so the load driver reads
its answers as boards. Nothing is stored, nothing is drawn, every answer is sent at once.

Run by `benchmarks/load.py --floor` (as `python -m benchmarks.floor`), with the environment of
`tests.e2e.harness.BotProcess`: DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL; and
FLOOR_PNG_BYTES, about how large the fixed image is (default 60,000 bytes).
"""

from __future__ import annotations

import io
import logging
import os
import random
import struct
import sys
import zlib

import discord
from discord import app_commands
from discord.ext import commands

from tests.e2e.minibot import use_discord_from_environment

PNG_BYTES = 60_000
PNG_WIDTH = 256  # pixels; the height follows from the size asked for
PILES = ("w", "r", "t1", "t2", "t3", "t4")  # Canfield's tap buttons, as bot.views.board lays them out
ACTIONS = ("draw", "auto", "undo", "hint", "resign")
PICKS = ("w.1", "t1.1", "t3.2")  # the pick menu's options: a few, as in a game under way


def fixed_png(size: int) -> bytes:
    """An RGB PNG of about `size` bytes: noise stored without compression (no imaging library)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    height = max(1, size // (3 * PNG_WIDTH + 1))
    noise = random.Random(0)
    rows = b"".join(b"\x00" + noise.randbytes(3 * PNG_WIDTH) for _ in range(height))
    header = struct.pack(">IIBBBBB", PNG_WIDTH, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b"")


class FloorBot(commands.AutoShardedBot):
    """The minimal bot: two slash commands, one fixed image, a counter per player."""

    def __init__(self, png: bytes) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.png = png
        self.games: dict[int, tuple[int, int]] = {}  # player id -> (game id, version)

    async def setup_hook(self) -> None:
        """Register /play and /move and sync them."""
        self.tree.add_command(play)
        self.tree.add_command(move)
        await self.tree.sync()

    def board(self, player_id: int, *, new: bool) -> tuple[discord.File, discord.ui.LayoutView]:
        """The player's next board: the fixed image and the buttons of a new version of their game."""
        game_id, version = self.games.get(player_id, (0, 0))
        if new or not game_id:
            game_id, version = len(self.games) + 1, 0
        else:
            version += 1
        self.games[player_id] = (game_id, version)
        file = discord.File(io.BytesIO(self.png), filename="board.png", description="A board")
        container = discord.ui.Container(
            discord.ui.TextDisplay(f"Canfield · game {game_id} · move {version}"),
            discord.ui.TextDisplay("You drew."),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png", description="A board")))

        def button(action: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> discord.ui.Button:
            return discord.ui.Button(label=action, style=style, custom_id=f"pe:{game_id}:{version}:{action}")

        container.add_item(discord.ui.ActionRow(*(button(action) for action in ACTIONS)))
        container.add_item(discord.ui.ActionRow(*(button(pile) for pile in PILES[:2])))
        container.add_item(discord.ui.ActionRow(*(button(pile) for pile in PILES[2:])))
        container.add_item(discord.ui.ActionRow(discord.ui.Select(
            custom_id=f"pe:{game_id}:{version}:pick", placeholder="Pick cards to move, then a pile…",
            options=[discord.SelectOption(label=pick, value=pick) for pick in PICKS])))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        return file, view


async def answer(interaction: discord.Interaction, *, new: bool) -> None:
    """Send the player's next board as the interaction's response."""
    bot: FloorBot = interaction.client  # type: ignore[assignment]
    file, view = bot.board(interaction.user.id, new=new)
    await interaction.response.send_message(file=file, view=view, ephemeral=True)


@app_commands.command(description="Start a game")
async def play(interaction: discord.Interaction, deal: int | None = None) -> None:
    """A new game's board."""
    await answer(interaction, new=True)


@app_commands.command(description="Play moves")
async def move(interaction: discord.Interaction, moves: str, public: bool = False) -> None:
    """The game's next board, whatever the moves."""
    await answer(interaction, new=False)


def main() -> int:
    """Run the floor bot against the Discord the environment names."""
    use_discord_from_environment()
    bot = FloorBot(fixed_png(int(os.environ.get("FLOOR_PNG_BYTES") or PNG_BYTES)))
    bot.run(os.environ["DISCORD_TOKEN"], log_level=logging.WARNING, root_logger=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
