"""The hand-off to the drawing processes (render.workers `draw`): the CPU the bot's process spends
sending a game to a drawing process and getting its PNG back, and the drawing processes' own CPU
per board beyond the drawing.

Run from the project root:
    .venv/bin/python -m benchmarks.handoff [--boards 4000] [--processes 2] [--at-once 100] [--render]

Boards are asked for as board_file asks (a game's copy with its last move, its captions, the
player's name, the game's id as key), `--at-once` of them together (a burst; 1: one after
another). The drawing function is a stand-in that draws nothing and returns bytes the size of a
board's PNG, so the CPU counted is the hand-off's alone: pickling, the sockets, the event loop's
reading, unpickling. `--render` draws the boards for real (each game's next board drawn from its
last), and prints beside it the CPU the same drawings take in this process, without a hand-off.
Prints microseconds of CPU per board: this process (all its threads), the drawing processes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import Any

from bot.game import DRAW, Game, new_game
from bot.play.replies import DealLabel
from bot.words import DISCORD, board_captions
from render import redraw, render, workers
from render.board import BoardCaptions

PNG_BYTES = 37_000  # a board's PNG, about (benchmarks/load.py prints the mean)
_PNG = bytes(PNG_BYTES)


def stand_in(game: Game, *, player: str, captions: BoardCaptions, key: object) -> bytes:
    """What a drawing returns, without drawing."""
    return _PNG


Board = tuple[Game, BoardCaptions, int]


def boards(games: int, rounds: int) -> list[list[Board]]:
    """`rounds` lists of one board for each of `games` games: each game's next board after a draw."""
    played = [new_game("canfield", deal=deal) for deal in range(1, games + 1)]
    rounds_of_boards = []
    for _ in range(rounds):
        for game in played:
            game.play(DRAW if game.can_move(DRAW) else game.legal_moves()[0])
            _ = game.outcome  # worked out before the board is drawn, as the bot does (bot/play/solo.py)
        rounds_of_boards.append([(game.copy(last_move_only=True), board_captions(game, DISCORD, DealLabel(number=key)),
                                  key) for key, game in enumerate(played)])
    return rounds_of_boards


def drawing_cpu() -> float:
    """CPU seconds the processes under this one have used so far."""
    from benchmarks.load import cpu_seconds

    return cpu_seconds(os.getpid()).drawing


async def hand_off(rounds: list[list[Board]], function: Any) -> tuple[float, float]:
    """Each round's boards drawn together by the drawing processes: the CPU seconds of this
    process and of the drawing processes."""
    own, drawing = time.process_time(), drawing_cpu()
    for round_boards in rounds:
        await asyncio.gather(*(workers.draw(function, game, player="Benchmark", captions=captions, key=key)
                               for game, captions, key in round_boards))
    return time.process_time() - own, drawing_cpu() - drawing


def in_process(rounds: list[list[Board]]) -> float:
    """CPU seconds the same drawings take in this thread (the first round's untimed, as in `run`)."""
    redraw.forget()
    for game, captions, key in rounds[0]:
        render(game, player="Benchmark", captions=captions, key=key)
    start = time.thread_time()
    for round_boards in rounds[1:]:
        for game, captions, key in round_boards:
            render(game, player="Benchmark", captions=captions, key=key)
    return time.thread_time() - start


async def run(count: int, processes: int, at_once: int, real: bool) -> None:
    """Print the CPU per board of the hand-off (and of the drawings with `real`)."""
    function = render if real else stand_in
    rounds = boards(at_once, 1 + max(1, count // at_once))
    workers.use_processes(processes)
    try:
        await hand_off(rounds[:1], function)  # the processes start and import, their first boards
        own, drawing = await hand_off(rounds[1:], function)
    finally:
        workers.stop()
    drawn = sum(len(round_boards) for round_boards in rounds[1:])
    print(f"{drawn} boards, {at_once} at once, {processes} drawing processes, "
          f"{'drawn' if real else 'a stand-in that draws nothing'}: CPU per board, "
          f"this process {1e6 * own / drawn:.0f} us, drawing processes {1e6 * drawing / drawn:.0f} us")
    if real:
        print(f"the same drawings in this process: {1e6 * in_process(rounds) / drawn:.0f} us per board")


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=4000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--at-once", type=int, default=100)
    parser.add_argument("--render", action="store_true", help="draw the boards for real")
    options = parser.parse_args()
    asyncio.run(run(options.boards, options.processes, options.at_once, options.render))


if __name__ == "__main__":
    main()
