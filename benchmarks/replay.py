"""The size of a replay (an animated GIF) and the time to make it, in a drawing process as the bot
does, for 300-move games and for the longest line the solver gives among the deals tried.

The games are winning lines of the solver cut at 300 moves (draws included): lines that build long
columns, so their boards are among the tallest, and every move changes the board.

Its process runs at the bot's priority; the figures are the median of `--runs`, the time waited
for a replay made in a drawing process and the CPU time of one made in this process.

Run from the project root: .venv/bin/python -m benchmarks.replay [--deals 17 22 26] [--runs 3]
Budget: a few seconds and well under Discord's 10 MiB upload limit for a 300-move game.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import time

from PIL import Image

from bot.game import new_game, to_record
from bot.game.solver import solve
from render import workers
from render.replay import replay_frames, replay_gif

UPLOAD_LIMIT = 10 * 1024 * 1024


def line_record(deal: int, moves: int | None) -> dict:
    """Canfield deal `deal` after the first `moves` moves of the solver's winning line (all of it: None)."""
    line = solve(new_game("canfield", deal=deal), limit=2_000_000).moves
    game = new_game("canfield", deal=deal)
    for move in line[:moves]:
        game.play(move)
    record = to_record(game)
    record["moves"] = [str(move) for move in record["moves"]]
    return record


async def measure(record: dict, runs: int) -> tuple[float, float, bytes]:
    """The median seconds of `runs` replays made in a drawing process (as the bot waits for them),
    the median CPU seconds of `runs` made here (what one costs, however busy the machine), and the GIF."""
    waits, costs, gif = [], [], b""
    for _ in range(runs):
        start = time.perf_counter()
        gif = await workers.draw(replay_gif, record, player="benchmark")
        waits.append(time.perf_counter() - start)
        start = time.process_time()
        replay_gif(record, player="benchmark")
        costs.append(time.process_time() - start)
    return statistics.median(waits), statistics.median(costs), gif


async def main() -> None:
    """Print one line a game: moves, draws, frames, canvas, bytes, median seconds (waited, CPU)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, nargs="+", default=[17, 22, 26])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    workers.use_processes(1)
    await workers.draw(replay_gif, line_record(1, 2))  # the process starts and imports, once
    print(f"{'deal':>5} {'moves':>6} {'draws':>6} {'frames':>7} {'canvas':>10} {'bytes':>11} "
          f"{'seconds':>8} {'cpu s':>6}")
    try:
        for deal in args.deals:
            for moves in (300, None):
                record = line_record(deal, moves)
                seconds, cpu, gif = await measure(record, args.runs)
                image = Image.open(io.BytesIO(gif))
                assert image.n_frames <= len(replay_frames(record["moves"])) and len(gif) < UPLOAD_LIMIT
                draws = sum(move == "d" for move in record["moves"])
                canvas = f"{image.width}x{image.height}"
                print(f"{deal:>5} {len(record['moves']):>6} {draws:>6} {image.n_frames:>7} {canvas:>10} "
                      f"{len(gif):>11,} {seconds:>8.2f} {cpu:>6.2f}")
    finally:
        workers.stop()


if __name__ == "__main__":
    asyncio.run(main())
