"""A drawing process's work per board, counted in instructions (valgrind's callgrind), which a
shared machine's load does not sway: its timings vary by a fifth from run to run, and changes of
a few percent are lost in them (benchmarks/load.py measures the whole bot).

The workload is what a drawing process gets while players draw (render.workers): `--games`
Canfield deals drawn from `--draws` times in turn (a move where no draw is left), each board's
request as the bot sends it (the game copied with its last move only, its captions, the call
pickled; benchmarks.handoff `boards`), unpickled and drawn with the
game's key, so that each board is drawn from that game's last (render.redraw). Each game's first
board is drawn once before counting, and the boards kept are let go before the counted round, so
that each game's first counted board starts from another game's, as a new game's does. The
count is the difference of two runs under callgrind (one round, none), divided by the boards:
imports, sprites and the requests' making are left out.

Run from the project root (valgrind installed):
    .venv/bin/python -m benchmarks.drawing [--games 5] [--draws 20]
Prints the instructions a board, split into unpickling the request and drawing it (from a second
pair of runs that only unpickle), and the CPU time a board in one run outside valgrind.
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from render import redraw
from render.board import render


def requests(games: int, draws: int) -> list[tuple[int, bytes]]:
    """Each board's request as the bot pickles it for a drawing process (the boards of
    benchmarks.handoff, as board_file asks for them), with the game's key."""
    from benchmarks.handoff import boards  # imported here: the runs under callgrind need none of it

    return [(key, pickle.dumps((render, (game,), {"highlight": None, "player": "Alice", "captions": captions,
                                                  "key": key}), pickle.HIGHEST_PROTOCOL))
            for boards_of_a_round in boards(games, draws) for game, captions, key in boards_of_a_round]


def work(path: Path, rounds: int, draw: bool) -> float:
    """Draw the requests stored at `path` as a drawing process would, `rounds` times after a
    first board of each game; or, with `draw` false, only unpickle them. The CPU seconds a board."""
    made: list[tuple[int, bytes]] = pickle.loads(path.read_bytes())
    for key, request in made:  # each game's first board, and every sprite drawn once
        function, args, kwargs = pickle.loads(request)
        function(*args, **{**kwargs, "key": -1 - key})
    start = time.process_time()
    for _ in range(rounds):
        redraw.forget()
        for _, request in made:
            function, args, kwargs = pickle.loads(request)
            if draw:
                function(*args, **kwargs)
    return (time.process_time() - start) / max(1, rounds * len(made))


def counted(path: Path, rounds: int, draw: bool) -> int:
    """The instructions callgrind counts in a run of `work`."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
               "benchmarks.drawing", "--work", str(path), "--rounds", str(rounds)] + ([] if draw else ["--no-draw"])
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
                            check=True)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if found is None:
        raise SystemExit(f"callgrind counted nothing:\n{result.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)  # a run under callgrind
    parser.add_argument("--rounds", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--no-draw", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.work is not None:
        work(args.work, args.rounds, not args.no_draw)
        return
    made = requests(args.games, args.draws)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "requests.pickle"
        path.write_bytes(pickle.dumps(made))
        seconds = work(path, 3, True)
        whole = (counted(path, 1, True) - counted(path, 0, True)) / len(made)
        unpickled = (counted(path, 1, False) - counted(path, 0, False)) / len(made)
    print(f"{len(made)} boards ({args.games} Canfield games, {args.draws} draws each), "
          f"a drawing process's work per board")
    print(f"{'':28}{'instructions':>14}")
    print(f"{'unpickling the request':28}{unpickled:>14,.0f}")
    print(f"{'drawing the board':28}{whole - unpickled:>14,.0f}")
    print(f"{'both':28}{whole:>14,.0f}")
    print(f"CPU time a board, outside valgrind (3 rounds): {seconds * 1000:.2f} ms")


if __name__ == "__main__":
    main()
