"""Play in the terminal: `python -m bot play [game]`, through the same play layer as Discord.

Type moves as in Discord; `h` for a hint, `save [file]` writes the board as a PNG, `q` quits.
Games are kept in an in-memory store unless `--db` names a file (then an unfinished game
resumes next time).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from bot.game import describe_game
from bot.game.notation import Word, read_word
from bot.play import Player, PlayError, Reply, SoloPlay
from bot.store import open_store

HELP = """Type moves and press Enter; {examples}.
Piles: s stock, w waste, r reserve (r1-r9 in Patriarchs), f1-f8 foundations, t1-t9 columns.
Words: draw, auto, undo, hint, board, resign, rules, help (or ?); save [file.png] writes the board
as an image; q quits (an unfinished game stays stored)."""
TERMINAL_PLAYER = Player(0, "terminal")


async def terminal_session(solo: SoloPlay, reply: Reply, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
                           player: Player = TERMINAL_PLAYER) -> Reply:
    """Read lines from `stdin` and play them until the game ends, the input ends or `q`;
    return the last reply."""
    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    say(HELP.format(examples=reply.game.examples))
    if reply.message:
        say(reply.message)
    say(f"\n{reply.game}")
    while not reply.finished:
        print("> ", end="", file=stdout, flush=True)
        line = await asyncio.to_thread(stdin.readline)
        text = line.strip()
        if not line or text.lower() in ("q", "quit", "exit"):
            break
        if not text:
            continue
        word = read_word(text)
        if word is Word.HELP:
            say(HELP.format(examples=reply.game.examples))
            continue
        if word is Word.RULES:
            say(describe_game(reply.game.name))
            continue
        if word is Word.BOARD:
            say(f"\n{reply.game}")
            continue
        if text.split()[0].lower() == "save":
            path = Path(text.split(maxsplit=1)[1] if len(text.split()) > 1 else "board.png")
            from render import render, workers

            png = await workers.draw(render, reply.game, highlight=reply.highlight, player=player.name)
            path.write_bytes(png)
            say(f"wrote {path} ({len(png):,} bytes)")
            continue
        try:
            if word is Word.RESIGN:
                reply = await solo.resign(reply.game_id, player)
            else:
                reply = await solo.move(reply.game_id, player, text)
        except PlayError as error:
            say(str(error))
            continue
        if reply.message:
            say(reply.message)
        if reply.ok or reply.played:
            say(f"\n{reply.game}")
    if reply.status == "won":
        say(f"The demon is exorcised! You won. Score {reply.game.score}.")
    elif reply.finished:
        say(f"Game over ({reply.status}). Score {reply.game.score}.")
    else:
        say(f"Stopped. Score {reply.game.score}.")
    return reply


async def play_in_terminal(name: str, deal: int | None, options: dict[str, object], database: str = ":memory:",
                           stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> Reply:
    """Start (or resume) a game in a store and play it from the terminal."""
    store = await open_store(database)
    try:
        solo = SoloPlay(store)
        reply = await solo.start(TERMINAL_PLAYER, guild_id=None, channel_id=None, name=name, deal=deal, **options)
        return await terminal_session(solo, reply, stdin, stdout)
    finally:
        await store.close()


def main(name: str, deal: int | None, options: dict[str, object], database: str = ":memory:") -> int:
    """Command-line entry: play one game."""
    asyncio.run(play_in_terminal(name, deal, options, database))
    return 0
