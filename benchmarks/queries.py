"""CPU and wall time per store operation on a SQLite file: the store's typical operations (load a
game, find the one in play, save a move, start a game, read names, a transaction, leaderboard and
stats reads), each run many times on a database filled with players, games and dailies.

CPU is the whole process's (time.process_time: the event loop and the SQLite driver's thread),
so a statement's trip to that thread counts; wall is time.perf_counter. Each operation is timed
`--rounds` times, the rounds taking turns across the operations so that a busy machine slows
them alike; the table gives each operation's median round, per call.

Run from the project root:
    .venv/bin/python -m benchmarks.queries [--players 200] [--calls 400] [--rounds 5]
                                           [--save FILE] [--baseline FILE]
`--save` writes the figures as JSON; `--baseline` reads such a file (the same run on other code:
PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/queries.py --save FILE) and adds
each operation's CPU and wall time against it, in percent.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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


def percent(after: float, before: float) -> str:
    """`after` against `before`, in percent."""
    return f"{(after / before - 1) * 100:+.1f}%"


def report(found: dict[str, Timing], baseline: dict[str, dict[str, float]] | None) -> None:
    """Print the table: per call, the median round's CPU and wall time (and against the baseline)."""
    header = f"{'operation':<26} {'calls':>6} {'CPU us':>9} {'wall us':>9}"
    print(header + (f" {'CPU vs base':>12} {'wall vs base':>13}" if baseline else ""))
    cpu_total = base_total = 0.0
    for name, timing in found.items():
        cpu, wall = statistics.median(timing.cpu), statistics.median(timing.wall)
        line = f"{name:<26} {timing.calls:>6} {cpu:>9.0f} {wall:>9.0f}"
        if baseline and name in baseline:
            line += f" {percent(cpu, baseline[name]['cpu']):>12} {percent(wall, baseline[name]['wall']):>13}"
            cpu_total += cpu
            base_total += baseline[name]["cpu"]
        print(line)
    if base_total:
        print(f"CPU over every operation (one call each) against the baseline: {percent(cpu_total, base_total)}")


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200, help="players, each with 7 games (default 200)")
    parser.add_argument("--calls", type=int, default=400, help="calls of each operation a round (default 400)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--save", type=Path, help="write the figures to this JSON file")
    parser.add_argument("--baseline", type=Path, help="a file --save wrote: show the difference from it")
    args = parser.parse_args()
    found = asyncio.run(measure(args.players, args.calls, args.rounds))
    baseline = json.loads(args.baseline.read_text()) if args.baseline else None
    report(found, baseline)
    if args.save:
        args.save.write_text(json.dumps({name: {"cpu": statistics.median(timing.cpu),
                                                "wall": statistics.median(timing.wall)}
                                         for name, timing in found.items()}, indent=1))


if __name__ == "__main__":
    main()
