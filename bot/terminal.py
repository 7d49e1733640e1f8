"""Play in the terminal: `python -m bot play [game]`, through the same play layer as Discord.

Type moves as in Discord; `h` for a hint, `save [file]` writes the board as a PNG (by default
into ~/patient-exorcism-boards), `analyse` tells where the last finished game was lost (as it
is told by itself when a game is lost) and writes its board there too, `solution [game]` shows a
short winning line for the deal of a finished game (by default the one that ended last), `replay
[file]` writes the last finished game as an animated GIF (by default into the boards' folder too),
`q` or Ctrl-C quits. Games are kept in an in-memory store unless `--db` names a file (then an
unfinished game resumes next time, unless another game is asked for).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from functools import partial
from pathlib import Path
from typing import TextIO

from bot.game import TITLES
from bot.game.notation import Word, read_word
from bot.i18n import N_
from bot.play import GameStatus, Player, PlayError, Reply
from bot.play.events import Analysing
from bot.play.review import ReviewPlay
from bot.play.services import Play, build_play
from bot.play.solution import SolutionPlay
from bot.store import StoredGame, open_store
from bot.words import (
    TERMINAL,
    Voice,
    analysis_text,
    board_captions,
    board_text,
    error_text,
    replay_text,
    reply_text,
    rules_text,
    solution_text,
    status_text,
)

HELP = N_("""Type moves and press Enter; {examples}.
Piles: s stock, w waste, r reserve (r1-r9 in Patriarchs), f1-f8 foundations, t1-t9 columns.
Words: draw, auto, undo, hint, board, resign, rules, help (or ?); save [file.png] writes the board
as an image; analyse tells where your last finished game was lost; solution [game] shows a short
winning line for a finished game's deal; q or Ctrl-C quits (an unfinished game stays stored).""")
ANALYSE_WORDS = ("analyse", "analyze")
REPLAY_WORD = "replay"
AFTER_THE_END = N_("replay [file.gif] writes this game as an animated GIF; q quits.")
TERMINAL_PLAYER = Player(0, "terminal")
DEFAULT_GAME = "canfield"


def boards_folder() -> Path:
    """Where `save` without a file name writes boards: a folder of the player's own."""
    return Path.home() / "patient-exorcism-boards"


async def read_line(stdin: TextIO) -> str:
    """The next line of `stdin` ("" at its end), read in a daemon thread: Ctrl-C stops the
    program at once rather than after the next Enter, and nothing waits for the thread."""
    loop = asyncio.get_running_loop()
    line: asyncio.Future[str] = loop.create_future()

    def deliver(text: str) -> None:
        if not line.done():
            line.set_result(text)

    def read() -> None:
        try:
            text = stdin.readline()
        except (OSError, ValueError):
            text = ""
        with contextlib.suppress(RuntimeError):  # the program stopped meanwhile: nobody is waiting
            loop.call_soon_threadsafe(deliver, text)

    threading.Thread(target=read, name="terminal-input", daemon=True).start()
    return await line


def output_path(named: str | None, default: Path) -> Path:
    """Where to write a file: the path named, or `default` (its folder made when missing)."""
    if named is not None:
        return Path(named).expanduser()
    default.parent.mkdir(parents=True, exist_ok=True)
    return default


async def save_board(reply: Reply, player: Player, named: str | None, folder: Path, voice: Voice = TERMINAL) -> str:
    """Write the board as a PNG: to the file named, or into `folder` as board-<game>-<moves>.png;
    what happened, in a sentence."""
    from render import render, workers

    path = output_path(named, folder / f"board-{reply.game_id}-{len(reply.game.moves)}.png")
    if not path.parent.is_dir():
        return voice.gettext("cannot save to {path}: there is no folder {folder}", path=path, folder=path.parent)
    png = await workers.draw(render, reply.game, highlight=reply.highlight, player=player.name,
                             captions=board_captions(reply.game, voice, reply.label), key=reply.game_id)
    try:
        path.write_bytes(png)
    except OSError as error:
        return voice.gettext("cannot save to {path}: {problem}", path=path, problem=error.strerror or error)
    return voice.gettext("wrote {path} ({size} bytes)", path=path.resolve(), size=f"{len(png):,}")


async def analysis_report(review: ReviewPlay, game_id: int | None, player: Player, folder: Path,
                          voice: Voice = TERMINAL) -> str:
    """Where the player's finished game (`game_id`, or the one that ended last) was lost, and,
    when there is such a place, its board with the losing and the better move outlined, written
    into `folder` as analysis-<game>.png; what a PlayError says instead."""
    from render import render, workers

    try:
        analysed = await review.analyse(game_id, player)
    except PlayError as error:
        return error_text(error, voice)
    text = analysis_text(analysed, voice)
    if analysed.board is None:
        return text
    analysis = analysed.analysis
    png = await workers.draw(render, analysed.board, highlight=analysis.better_move, losing=analysis.losing_move,
                             player=player.name, captions=board_captions(analysed.board, voice, analysed.label))
    path = folder / f"analysis-{analysed.game_id}.png"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
    except OSError as error:
        return text + "\n" + voice.gettext("cannot save to {path}: {problem}", path=path,
                                           problem=error.strerror or error)
    return text + "\n" + voice.gettext("wrote {path} (the board then: the move played outlined in pink, the better "
                                       "one in green)", path=path.resolve())


async def solution_report(solutions: SolutionPlay, words: list[str], player: Player,
                          voice: Voice = TERMINAL) -> str:
    """The winning line for the player's finished game: `solution` names the one that ended
    last, `solution N` game N; what a PlayError says instead."""
    if len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
        return voice.gettext("Type solution, or solution and a game's number, such as solution 12.")
    try:
        line = await solutions.solution(int(words[1]) if len(words) == 2 else None, player)
    except PlayError as error:
        return error_text(error, voice)
    return solution_text(line, voice)


async def save_replay(review: ReviewPlay, player: Player, named: str | None, folder: Path,
                      voice: Voice = TERMINAL) -> str:
    """Write the player's last finished game as an animated GIF: to the file named, or into
    `folder` as replay-<game>.gif; what happened, in a sentence (what a PlayError says instead)."""
    from render import workers
    from render.replay import replay_gif

    try:
        replay = await review.replay(player)
    except PlayError as error:
        return error_text(error, voice)
    path = output_path(named, folder / f"replay-{replay.game_id}.gif")
    if not path.parent.is_dir():
        return voice.gettext("cannot save to {path}: there is no folder {folder}", path=path, folder=path.parent)
    gif = await workers.draw(replay_gif, replay.record, player=replay.player.name,
                             captions=partial(board_captions, voice=voice, label=replay.label))
    try:
        path.write_bytes(gif)
    except OSError as error:
        return voice.gettext("cannot save to {path}: {problem}", path=path, problem=error.strerror or error)
    wrote = voice.gettext("wrote {path} ({size} bytes)", path=path.resolve(), size=f"{len(gif):,}")
    return f"{replay_text(replay, voice)} {wrote}"


async def terminal_session(play: Play, reply: Reply, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
                           player: Player = TERMINAL_PLAYER, boards: Path | None = None,
                           voice: Voice = TERMINAL) -> Reply:
    """Read lines from `stdin` and play them (through `play`'s services) until the game ends, the
    input ends or `q`; return the last reply, all said in the voice. `save` without a file name
    writes into `boards` (`boards_folder()`), and so do `analyse` and the analysis that follows a
    lost game; `solution` tells a winning line; `replay` writes the last finished game (once the
    game is over, `replay` is read until `q` or the input's end)."""
    solo, review = play.solo, play.review
    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    help_text = voice.gettext(HELP, examples=voice.engine(reply.game.examples))
    say(help_text)
    if text := reply_text(reply, voice):
        say(text)
    say("\n" + board_text(reply.game, voice))
    while not reply.finished:
        print("> ", end="", file=stdout, flush=True)
        line = await read_line(stdin)
        text = line.strip()
        if not line or text.lower() in ("q", "quit", "exit"):
            break
        if not text:
            continue
        word = read_word(text)
        if word is Word.HELP:
            say(help_text)
            continue
        if word is Word.RULES:
            say(rules_text(reply.game.name, voice))
            continue
        if word is Word.BOARD:
            say("\n" + board_text(reply.game, voice))
            continue
        if text.lower() in ANALYSE_WORDS:
            say(await analysis_report(review, None, player, boards or boards_folder(), voice))
            continue
        if text.split()[0].lower() == "solution":
            say(await solution_report(play.solutions, text.lower().split(), player, voice))
            continue
        if text.split()[0].lower() == "save":
            named = text.split(maxsplit=1)[1] if len(text.split()) > 1 else None
            say(await save_board(reply, player, named, boards or boards_folder(), voice))
            continue
        if text.split()[0].lower() == REPLAY_WORD:
            say(await save_replay(review, player, _file_named(text), boards or boards_folder(), voice))
            continue
        try:
            if word is Word.RESIGN:
                reply = await solo.resign(reply.game_id, player)
            else:
                reply = await solo.move(reply.game_id, player, text)
        except PlayError as error:
            say(error_text(error, voice))
            continue
        if said := reply_text(reply, voice):
            say(said)
        if reply.ok or reply.played:
            say("\n" + board_text(reply.game, voice))
    if reply.status == GameStatus.WON:
        say(voice.gettext("The demon is exorcised! You won. Score {score}.", score=reply.game.score))
    elif reply.finished:
        say(voice.gettext("Game over ({status}). Score {score}.", status=status_text(reply.status, voice),
                          score=reply.game.score))
        if any(isinstance(event, Analysing) for event in reply.events):
            say(await analysis_report(review, reply.game_id, player, boards or boards_folder(), voice))
    else:
        say(voice.gettext("Stopped. Score {score}.", score=reply.game.score))
        return reply
    await _after_the_end(review, stdin, stdout, player, boards or boards_folder(), voice)
    return reply


async def _after_the_end(review: ReviewPlay, stdin: TextIO, stdout: TextIO, player: Player, folder: Path,
                         voice: Voice) -> None:
    """Once the game is over: `replay [file]` writes it, until `q` or the input's end."""
    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    say(voice.gettext(AFTER_THE_END))
    while True:
        print("> ", end="", file=stdout, flush=True)
        line = await read_line(stdin)
        text = line.strip()
        if not line or text.lower() in ("q", "quit", "exit"):
            return
        if text and text.split()[0].lower() == REPLAY_WORD:
            say(await save_replay(review, player, _file_named(text), folder, voice))
        elif text:
            say(voice.gettext(AFTER_THE_END))


def _file_named(text: str) -> str | None:
    """The file named after a word (`save board.png`), or None."""
    words = text.split(maxsplit=1)
    return words[1] if len(words) > 1 else None


async def play_in_terminal(name: str | None, deal: int | None, options: dict[str, object],
                           database: str = ":memory:", stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
                           boards: Path | None = None, voice: Voice = TERMINAL) -> Reply:
    """Start (or resume) a game in a store and play it from the terminal, speaking in the voice. `name` None: the
    unfinished game in the store, else canfield. When the store holds an unfinished game other
    than the one asked for, the player chooses: set it aside (resigned) and start the new one, or
    resume it."""
    store = await open_store(database)
    try:
        play = build_play(store)
        solo = play.solo
        damaged = await solo.abandon_damaged(TERMINAL_PLAYER, None)
        if damaged is not None:
            print(voice.gettext("{database} held game #{game}, damaged and impossible to rebuild: it is set aside.",
                                database=database, game=damaged), file=stdout, flush=True)
        running = await store.games.running_game(TERMINAL_PLAYER.id, None, kind="solo")
        if running is not None and _another_game(running, name, deal):
            question = voice.gettext(
                "{database} holds an unfinished game of {title}, deal #{deal}. Set it aside (resign it) and start "
                "{new} instead? [y/N] ", database=database, title=TITLES.get(running.name, running.name),
                deal=running.deal, new=TITLES[name or DEFAULT_GAME])
            print(question, end="", file=stdout, flush=True)
            if (await read_line(stdin)).strip().lower() in ("y", "yes", voice.gettext("y"), voice.gettext("yes")):
                await solo.resign(running.id, TERMINAL_PLAYER)
                print(voice.gettext("Game #{game} set aside.", game=running.id), file=stdout, flush=True)
            else:
                name, deal = running.name, running.deal
        reply = await solo.start(TERMINAL_PLAYER, guild_id=None, channel_id=None, name=name or DEFAULT_GAME,
                                 deal=deal, **options)
        return await terminal_session(play, reply, stdin, stdout, boards=boards, voice=voice)
    finally:
        await store.close()


def _another_game(running: StoredGame, name: str | None, deal: int | None) -> bool:
    """Whether the player asked for a game other than the unfinished one."""
    return (name is not None and name != running.name) or (deal is not None and deal != running.deal)


def main(name: str | None, deal: int | None, options: dict[str, object], database: str = ":memory:",
         voice: Voice = TERMINAL) -> int:
    """Command-line entry: play one game in the voice's language. Ctrl-C stops it (every move
    played is already stored)."""
    try:
        asyncio.run(play_in_terminal(name, deal, options, database, voice=voice))
    except KeyboardInterrupt:
        print("\n" + voice.gettext("Stopped."), flush=True)
        return 130
    return 0
