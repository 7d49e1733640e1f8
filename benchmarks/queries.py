"""CPU and wall time per store operation on a SQLite file: the store's typical operations (load a
game, find the one in play, save a move, start a game, read names, a transaction, leaderboard and
stats reads), each run many times on a database filled with players, games and dailies.

CPU is the whole process's (time.process_time: the event loop and the SQLite driver's thread),
so a statement's trip to that thread counts; wall is time.perf_counter. Each operation is timed
`--rounds` times, the rounds taking turns across the operations; the table gives each operation's
least time per call of its rounds, the one a busy machine disturbed least (other processes on
the same cores slow even the CPU time of a call down, by as much as half).

Run from the project root:
    .venv/bin/python -m benchmarks.queries [--players 200] [--calls 400] [--rounds 5]
                                           [--against CHECKOUT [--pairs 3]]
`--against` compares with another checkout's code (before: say, main's), run `--pairs` times
each in processes taking turns, so that both meet the same load: both tables, and the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from bot.store import Store, open_store
from bot.store.base import NewGame

GUILD = 1
CHANNEL = 2
DAY = "2024-05-01"
MOVES = ["d", "1f", "d", "2f", "3f", "d", "w4", "w5", "d", "6f"]  # a game's moves (their text is all the store sees)
HEAVY = 10  # the leaderboard and stats reads make this many times fewer calls: each reads every game


@dataclass
class Timing:
    """An operation's figures: its calls, and its CPU and wall time per call (microseconds), per round."""

    calls: int
    cpu: list[float]
    wall: list[float]


def new_game(user_id: int, *, kind: str = "solo") -> NewGame:
    """A new game of Canfield for this player, as /play stores it."""
    return NewGame(guild_id=GUILD, channel_id=CHANNEL, user_id=user_id, name="canfield",
                   options={"draw": 3, "redeals": -1}, deal=random.randrange(10**9), cards=None,
                   snapshot="x" * 200, score=0, kind=kind, foundation_cards=0)


async def fill(store: Store, players: int) -> list[int]:
    """Players with names, finished games, a daily each and a game in play each; the ids of those in play."""
    playing = []
    for user_id in range(1000, 1000 + players):
        await store.games.upsert_player(user_id, f"player {user_id}")
        for status in ("won", "blocked", "resigned", "won", "blocked"):
            game = await store.games.create_game(new_game(user_id))
            await store.games.save_game(game.id, expected_version=0, moves=MOVES, snapshot="y" * 200, status=status,
                                        score=random.randrange(100), foundation_cards=random.randrange(53))
        daily = await store.games.create_game(new_game(user_id, kind="daily"))
        await store.stats.claim_daily(DAY, "canfield", user_id, GUILD, daily.id)
        await store.games.save_game(daily.id, expected_version=0, moves=MOVES, snapshot=None, status="won", score=50)
        playing.append((await store.games.create_game(new_game(user_id))).id)
    return playing


Operation = Callable[[], Awaitable[object]]


def operations(store: Store, players: int, playing: list[int]) -> dict[str, tuple[int, Operation]]:
    """Each operation timed, by name: how many calls a round makes of it, over `calls` (1) or
    `calls // HEAVY` (HEAVY), and one call of it."""
    users = itertools.cycle(range(1000, 1000 + players))
    games = itertools.cycle(playing)
    versions = dict.fromkeys(playing, 0)
    newcomers = itertools.count(10**6)

    async def save_move() -> None:
        game_id = next(games)
        await store.games.save_game(game_id, expected_version=versions[game_id], moves=MOVES, snapshot="z" * 200,
                                    status="playing", score=7, foundation_cards=4)
        versions[game_id] += 1

    async def team() -> None:
        user_id = next(newcomers)
        await store.matches.create_team(GUILD, f"team {user_id}", user_id)
        await store.matches.leave_team(GUILD, user_id)

    async def stats() -> None:
        user_id = next(users)
        await store.stats.player_totals(user_id, GUILD)
        await store.stats.game_records(user_id, GUILD)

    some = list(range(1000, 1000 + min(players, 10)))
    return {
        "load a game": (1, lambda: store.games.get_game(next(games))),
        "find the game in play": (1, lambda: store.games.running_version(next(users), CHANNEL)),
        "save a move": (1, save_move),
        "start a game": (1, lambda: store.games.create_game(new_game(next(users)))),
        "players' names (IN)": (1, lambda: store.games.player_names(some)),
        "a team (2 transactions)": (1, team),
        "leaderboard": (HEAVY, lambda: store.stats.player_standings(GUILD, None)),
        "player stats": (HEAVY, stats),
        "daily results": (HEAVY, lambda: store.stats.daily_results("canfield", GUILD, None, DAY)),
    }


async def measure(players: int, calls: int, rounds: int) -> dict[str, Timing]:
    """Fill a SQLite file, then time each operation, the rounds taking turns across them."""
    random.seed(1)
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(str(Path(folder) / "bench.sqlite3"))
        try:
            playing = await fill(store, players)
            timed = operations(store, players, playing)
            found = {name: Timing(calls // share, [], []) for name, (share, _) in timed.items()}
            for _, call in timed.values():  # a warm-up: every statement's shape compiled once
                await call()
            for _ in range(rounds):
                for name, (_, call) in timed.items():
                    timing = found[name]
                    gc.collect()
                    cpu, wall = time.process_time(), time.perf_counter()
                    for _ in range(timing.calls):
                        await call()
                    timing.cpu.append((time.process_time() - cpu) / timing.calls * 1e6)
                    timing.wall.append((time.perf_counter() - wall) / timing.calls * 1e6)
        finally:
            await store.close()
    return found


def run_in(checkout: Path, players: int, calls: int, rounds: int) -> dict[str, Timing]:
    """This benchmark run in another process on the code of `checkout` (a project root): its timings."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--json", "--players", str(players),
                          "--calls", str(calls), "--rounds", str(rounds)],
                         env={**os.environ, "PYTHONPATH": str(checkout)}, check=True, capture_output=True, text=True)
    return {name: Timing(**timing) for name, timing in json.loads(out.stdout).items()}


def merged(runs: list[dict[str, Timing]]) -> dict[str, Timing]:
    """The rounds of several runs together, by operation."""
    return {name: Timing(timing.calls, [cpu for run in runs for cpu in run[name].cpu],
                         [wall for run in runs for wall in run[name].wall]) for name, timing in runs[0].items()}


def percent(after: float, before: float) -> str:
    """`after` against `before`, in percent."""
    return f"{(after / before - 1) * 100:+.1f}%"


def report(found: dict[str, Timing]) -> None:
    """Print the table: each operation's least CPU and wall time per call, of its rounds."""
    print(f"{'operation':<26} {'calls':>6} {'CPU us':>9} {'wall us':>9}")
    for name, timing in found.items():
        print(f"{name:<26} {timing.calls:>6} {min(timing.cpu):>9.0f} {min(timing.wall):>9.0f}")


def compare(before: dict[str, Timing], after: dict[str, Timing]) -> None:
    """Print both tables side by side, each operation's least CPU and wall time per call, and the difference."""
    print(f"{'operation':<26} {'CPU before':>10} {'CPU after':>10} {'CPU':>8}   {'wall before':>11} "
          f"{'wall after':>10} {'wall':>8}")
    for name, then in before.items():
        now = after[name]
        print(f"{name:<26} {min(then.cpu):>10.0f} {min(now.cpu):>10.0f} {percent(min(now.cpu), min(then.cpu)):>8}   "
              f"{min(then.wall):>11.0f} {min(now.wall):>10.0f} {percent(min(now.wall), min(then.wall)):>8}")
    cpu_before = sum(min(timing.cpu) for timing in before.values())
    cpu_after = sum(min(timing.cpu) for timing in after.values())
    total = percent(cpu_after, cpu_before)
    print(f"{'every operation, one call':<26} {cpu_before:>10.0f} {cpu_after:>10.0f} {total:>8}")


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200, help="players, each with 7 games (default 200)")
    parser.add_argument("--calls", type=int, default=400, help="calls of each operation a round (default 400)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every operation a run (default 5)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="compare with the code of this checkout (before), in runs taking turns with this one's")
    parser.add_argument("--pairs", type=int, default=3, help="with --against: runs of each (default 3)")
    parser.add_argument("--json", action="store_true", help="print the timings of every round as JSON")
    args = parser.parse_args()
    if args.against is None:
        found = asyncio.run(measure(args.players, args.calls, args.rounds))
        if args.json:
            print(json.dumps({name: asdict(timing) for name, timing in found.items()}))
        else:
            report(found)
        return
    here = Path(__file__).resolve().parent.parent
    before: list[dict[str, Timing]] = []
    after: list[dict[str, Timing]] = []
    for _ in range(args.pairs):
        before.append(run_in(args.against.resolve(), args.players, args.calls, args.rounds))
        after.append(run_in(here, args.players, args.calls, args.rounds))
    print(f"before: {args.against}, after: {here}; each the least of {args.pairs * args.rounds} rounds, "
          "in microseconds per call")
    compare(merged(before), merged(after))


if __name__ == "__main__":
    main()
