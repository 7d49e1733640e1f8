"""A move through the whole stack: parse, apply, store commit (SQLite file), render, as the bot
does it, with 1,000 games stored and more games than the play layer's cache holds.

Run from the project root: .venv/bin/python -m benchmarks.moves [--games 1000] [--moves 2000]
[--postgres postgresql://user@host/database] (there, in a schema of its own, dropped at the end)
Budget (docs/design.md): median at most 25 ms, 99th percentile at most 60 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.play import Player, SoloPlay
from bot.store import open_store
from render import render


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


@asynccontextmanager
async def database(postgres: str | None) -> AsyncIterator[str]:
    """A new, empty database's URL: a SQLite file in a temporary folder, or a schema of its own
    on the PostgreSQL server `postgres` names (dropped at the end)."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "bench.sqlite3")
        return
    import asyncpg

    schema = f"bench_moves_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(postgres)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield f"{postgres}{'&' if '?' in postgres else '?'}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


async def run(games: int, moves: int, seed: int = 1, postgres: str | None = None) -> None:
    """Fill a store (SQLite, or PostgreSQL at `postgres`), then time random legal moves on random games."""
    rng = random.Random(seed)
    async with database(postgres) as url:
        store = await open_store(url)
        solo = SoloPlay(store)
        players = [Player(1000 + i, f"player{i}") for i in range(games)]
        game_ids = []
        for player in players:
            reply = await solo.start(player, guild_id=1, channel_id=2, deal=rng.randint(1, 10**9))
            game_ids.append(reply.game_id)
        print(f"{await store.games.count_games():,} games stored; cache holds {solo.cache_size}")
        parts: dict[str, list[float]] = {"move + commit": [], "render": [], "total": []}
        for _ in range(moves):
            index = rng.randrange(games)
            player, game_id = players[index], game_ids[index]
            board = await solo.board(game_id, player)
            if board.finished:
                continue
            legal = board.game.legal_moves()
            text = str(rng.choice(legal))
            start = time.perf_counter()
            reply = await solo.move(game_id, player, text)
            moved = time.perf_counter()
            await asyncio.to_thread(render, reply.game, player=player.name)
            done = time.perf_counter()
            parts["move + commit"].append((moved - start) * 1000)
            parts["render"].append((done - moved) * 1000)
            parts["total"].append((done - start) * 1000)
        print(f"{'part (ms)':<16} {'median':>8} {'p99':>8} {'max':>8}")
        for name, values in parts.items():
            print(f"{name:<16} {statistics.median(values):>8.2f} {percentile(values, 0.99):>8.2f} {max(values):>8.2f}")
        print(f"{len(parts['total']):,} moves timed")
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        sample = SoloPlay(store, cache_size=200)
        for index in rng.sample(range(games), 200):
            await sample.board(game_ids[index], players[index])
        grown = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(before, "filename"))
        tracemalloc.stop()
        print(f"memory per cached game (200 rebuilt games held): {grown / 200 / 1024:.1f} KiB")
        await store.close()


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server to use instead of a SQLite file")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.moves, postgres=args.postgres))


if __name__ == "__main__":
    main()
