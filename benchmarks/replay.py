"""The size of a replay (an animated GIF) and the time to make it, in bulk drawing's process as
the bot does (bot.play.bulk: niced, one at a time), within an upload limit, for the longest games
of each kind and for 300-move games.

The games: winning lines of the solver (lines that build long columns, so their boards are among
the tallest, and every move changes the board), cut at 300 moves or whole (the longest, deal 22's,
802 moves); a 1,995-move game of Demons and Thieves (tests.samples `long_game`: the largest groups
shifted between columns, its columns tall, the costliest replay we know); Patriarchs played by its
hints to the end.

The figures are the median of `--runs`: the seconds waited for a replay made in bulk drawing's
process, and the CPU seconds of one made in this process (what one costs, however busy the
machine is: a busy machine slows the niced process down much more).

Run from the project root:
    .venv/bin/python -m benchmarks.replay [--deals 17 26] [--runs 3] [--limits 10 25]
Budget: every replay within UPLOAD_SHARE (80%) of the limit (in MiB; Discord's is 10 on most servers)
and at most MAX_BYTES (4 MiB) whatever the limit; made in at most 1.5 CPU seconds (issue 30).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import time
from typing import Any

from PIL import Image

from bot.game import Game, from_record, new_game, to_record
from bot.game.solver import solve
from bot.play.bulk import BulkDrawing, Ticket
from render.replay import MAX_BYTES, UPLOAD_SHARE, replay_gif
from tests.samples import blocked_game, long_game

MIB = 1024 * 1024
LONGEST_DEAL = 22  # the longest of the solver's Canfield lines among the deals tried (802 moves)


def line_record(deal: int, moves: int | None) -> dict[str, Any]:
    """Canfield deal `deal` after the first `moves` moves of the solver's winning line (all of it: None)."""
    line = solve(new_game("canfield", deal=deal), limit=2_000_000).moves
    game = new_game("canfield", deal=deal)
    for move in line[:moves]:
        game.play(move)
    return record_of(game)


def record_of(game: Game) -> dict[str, Any]:
    """The game as the store gives it to a replay: `to_record`, its moves as text."""
    record = to_record(game)
    record["moves"] = [str(move) for move in record["moves"]]
    return record


def longest_games() -> dict[str, Game]:
    """The longest games of each kind we replay: a Canfield win of 802 moves, a Demons and Thieves
    game of 1,995 (the move cap is 2,000)."""
    return {"canfield": from_record(line_record(LONGEST_DEAL, None)), "demons-and-thieves": long_game(moves=1995)}


async def measure(ticket: Ticket, record: dict[str, Any], limit: int, runs: int) -> tuple[float, float, bytes]:
    """The median seconds of `runs` replays made in bulk drawing's process (as the bot waits for
    them), the median CPU seconds of `runs` made here, and the GIF."""
    waits, costs, gif = [], [], b""
    for _ in range(runs):
        start = time.perf_counter()
        gif = await ticket.draw(replay_gif, record, player="benchmark", upload_limit=limit)
        waits.append(time.perf_counter() - start)
        start = time.process_time()
        replay_gif(record, player="benchmark", upload_limit=limit)
        costs.append(time.process_time() - start)
    return statistics.median(waits), statistics.median(costs), gif


async def main() -> None:
    """Print one line a game and limit: moves, draws, frames, canvas, bytes, share of the limit,
    median seconds (waited, CPU)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, nargs="+", default=[17, 26], help="Canfield deals cut at 300 moves")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limits", type=float, nargs="+", default=[10.0], help="upload limits, MiB")
    args = parser.parse_args()
    games = {f"canfield {deal}, 300": line_record(deal, 300) for deal in args.deals}
    games.update({f"canfield {LONGEST_DEAL}, won": line_record(LONGEST_DEAL, None),
                  "demons-and-thieves": record_of(long_game(moves=1995)),
                  "patriarchs, hints": record_of(blocked_game("patriarchs"))})
    bulk = BulkDrawing(preload=("render", "bot.game"))
    print(f"{'game':>20} {'limit':>6} {'moves':>6} {'draws':>6} {'frames':>7} {'canvas':>10} {'bytes':>11} "
          f"{'limit %':>8} {'seconds':>8} {'cpu s':>6}")
    try:
        with bulk.place(0) as ticket:
            await ticket.draw(replay_gif, line_record(1, 2))  # the process starts and imports, once
            for limit in args.limits:
                for name, record in games.items():
                    seconds, cpu, gif = await measure(ticket, record, int(limit * MIB), args.runs)
                    image = Image.open(io.BytesIO(gif))
                    share = len(gif) / (limit * MIB)
                    assert share <= UPLOAD_SHARE and len(gif) <= MAX_BYTES, (name, len(gif))
                    draws = sum(move == "d" for move in record["moves"])
                    canvas = f"{image.width}x{image.height}"
                    print(f"{name:>20} {limit:>6g} {len(record['moves']):>6} {draws:>6} {image.n_frames:>7} "
                          f"{canvas:>10} {len(gif):>11,} {share:>8.0%} {seconds:>8.2f} {cpu:>6.2f}", flush=True)
    finally:
        bulk.stop()


if __name__ == "__main__":
    asyncio.run(main())
