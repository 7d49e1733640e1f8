"""CPU and wall time per store operation on a SQLite file: the store's typical operations (load a
game, find the one in play, save a move, start a game, read names, a transaction, leaderboard and
stats reads), each run many times on a database filled with players, games and dailies.

CPU is the whole process's (time.process_time: the event loop and the SQLite driver's thread),
so a statement's trip to that thread counts; wall is time.perf_counter. Each operation is timed
`--rounds` times, the rounds taking turns across the operations; the table gives each
operation's median round, per call.

Run from the project root:
    .venv/bin/python -m benchmarks.queries [--players 200] [--calls 400] [--rounds 5]
                                           [--against CHECKOUT [--pairs 3]]
`--against` compares with another checkout's code (before: say, main's). The two run side by side
in two processes on the same core (where the system lets a process choose), each on a database
of its own filled alike, and take turns operation by operation (the first of each pair
alternating), so that both meet the same load on a busy machine: the table gives both medians
and the median of the rounds' differences (after against before, each round's pair measured
seconds apart). As the same work costs one process up to 40% more CPU than another, for the
whole of its life (the heavy reads most: a run against the same code shows it), `--pairs` pairs
of processes run one after the other, and the medians are over all their rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


class Runner:
    """The store filled with players and games, and the operations timed on it."""

    def __init__(self, store: Store, players: int, playing: list[int], calls: int) -> None:
        self.store = store
        self.timed = operations(store, players, playing)
        self.calls = {name: calls // share for name, (share, _) in self.timed.items()}

    @classmethod
    async def filled(cls, folder: str, players: int, calls: int) -> Runner:
        """A new SQLite file in `folder`, filled, with every operation run once (every statement's
        shape compiled)."""
        random.seed(1)
        store = await open_store(str(Path(folder) / "bench.sqlite3"))
        runner = cls(store, players, await fill(store, players), calls)
        for _, call in runner.timed.values():
            await call()
        return runner

    async def time(self, name: str) -> tuple[float, float]:
        """Run an operation's calls: the CPU and wall time per call, in microseconds."""
        calls, (_, call) = self.calls[name], self.timed[name]
        gc.collect()
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            await call()
        return (time.process_time() - cpu) / calls * 1e6, (time.perf_counter() - wall) / calls * 1e6


async def measure(players: int, calls: int, rounds: int) -> dict[str, Timing]:
    """Fill a SQLite file, then time each operation, the rounds taking turns across them."""
    with tempfile.TemporaryDirectory() as folder:
        runner = await Runner.filled(folder, players, calls)
        try:
            found = {name: Timing(count, [], []) for name, count in runner.calls.items()}
            for _ in range(rounds):
                for name, timing in found.items():
                    cpu, wall = await runner.time(name)
                    timing.cpu.append(cpu)
                    timing.wall.append(wall)
        finally:
            await runner.store.close()
    return found


async def serve(players: int, calls: int) -> None:
    """For --against: fill a store, say so, then time each operation named on stdin (one a line)
    and answer on stdout with its CPU and wall time per call, until stdin ends."""
    with tempfile.TemporaryDirectory() as folder:
        runner = await Runner.filled(folder, players, calls)
        try:
            print(json.dumps(runner.calls), flush=True)
            while name := sys.stdin.readline().strip():  # blocks the loop, between timings only
                print(json.dumps(await runner.time(name)), flush=True)
        finally:
            await runner.store.close()


class Side:
    """A process serving the timings of one checkout's code."""

    def __init__(self, checkout: Path, players: int, calls: int) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--serve", "--players", str(players),
                   "--calls", str(calls)]
        self.process = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(checkout)}, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def answer(self) -> Any:
        """The next line it writes, read as JSON."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the benchmark process ended ({self.process.wait()})")
        return json.loads(line)

    def time(self, name: str) -> tuple[float, float]:
        """Its CPU and wall time per call of an operation."""
        assert self.process.stdin is not None
        self.process.stdin.write(name + "\n")
        self.process.stdin.flush()
        cpu, wall = self.answer()
        return cpu, wall

    def close(self) -> None:
        """Let it end."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def against(before_checkout: Path, players: int, calls: int, rounds: int, pairs: int) -> None:
    """Time this checkout's code against another's, side by side (`pairs` pairs of processes in
    turn, `rounds` rounds each), and print both and the difference."""
    here = Path(__file__).resolve().parent.parent
    if hasattr(os, "sched_setaffinity"):  # both sides (they inherit it) on one core: they meet the same load
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    found: dict[str, tuple[Timing, Timing]] = {}
    for _ in range(pairs):
        before, after = Side(before_checkout, players, calls), Side(here, players, calls)
        try:
            counts = before.answer()
            assert after.answer() == counts
            for name, count in counts.items():
                found.setdefault(name, (Timing(count, [], []), Timing(count, [], [])))
            for turn in range(rounds):
                for index, (name, (then, now)) in enumerate(found.items()):
                    pair = [(before, then), (after, now)]
                    for side, timing in pair if (turn + index) % 2 == 0 else reversed(pair):
                        cpu, wall = side.time(name)
                        timing.cpu.append(cpu)
                        timing.wall.append(wall)
        finally:
            before.close()
            after.close()
    rounds *= pairs
    print(f"before: {before_checkout}, after: {here}; medians of {rounds} rounds, microseconds per call; "
          "the difference: the median of the rounds' own")
    print(f"{'operation':<26} {'calls':>6} {'CPU before':>10} {'CPU after':>10} {'CPU':>8}   {'wall before':>11} "
          f"{'wall after':>10} {'wall':>8}")
    for name, (then, now) in found.items():
        cpu = statistics.median(b / a - 1 for a, b in zip(then.cpu, now.cpu, strict=True)) * 100
        wall = statistics.median(b / a - 1 for a, b in zip(then.wall, now.wall, strict=True)) * 100
        print(f"{name:<26} {then.calls:>6} {statistics.median(then.cpu):>10.0f} {statistics.median(now.cpu):>10.0f} "
              f"{cpu:>+7.1f}%   {statistics.median(then.wall):>11.0f} {statistics.median(now.wall):>10.0f} "
              f"{wall:>+7.1f}%")
    every = [sum(timing.cpu[turn] for timing, _ in found.values()) for turn in range(rounds)]
    every_after = [sum(timing.cpu[turn] for _, timing in found.values()) for turn in range(rounds)]
    change = statistics.median(b / a - 1 for a, b in zip(every, every_after, strict=True)) * 100
    print(f"{'every operation, one call':<26} {'':>6} {statistics.median(every):>10.0f} "
          f"{statistics.median(every_after):>10.0f} {change:>+7.1f}%")


def report(found: dict[str, Timing]) -> None:
    """Print the table: each operation's median CPU and wall time per call, of its rounds."""
    print(f"{'operation':<26} {'calls':>6} {'CPU us':>9} {'wall us':>9}")
    for name, timing in found.items():
        print(f"{name:<26} {timing.calls:>6} {statistics.median(timing.cpu):>9.0f} "
              f"{statistics.median(timing.wall):>9.0f}")


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200, help="players, each with 7 games (default 200)")
    parser.add_argument("--calls", type=int, default=400, help="calls of each operation a round (default 400)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every operation (default 5)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT", help="compare with the code of this checkout")
    parser.add_argument("--pairs", type=int, default=3,
                        help="with --against: pairs of processes, one after the other, each running every round "
                             "(a process's CPU for the same work varies by up to 40%% from the next's; default 3)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # one side of --against
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.players, args.calls))
    elif args.against:
        against(args.against.resolve(), args.players, args.calls, args.rounds, args.pairs)
    else:
        report(asyncio.run(measure(args.players, args.calls, args.rounds)))


if __name__ == "__main__":
    main()
