"""Load and faults: `python -m bot` against the fake Discord server, N simulated players each
sending `/move d` (answered with a fresh board image) as fast as the bot answers, for a fixed
time; with `--kill`, the bot is killed with SIGKILL halfway and restarted.

Run from the project root: .venv/bin/python -m benchmarks.load [--players 500] [--seconds 30] [--kill]
Prints interactions per second, the answer time (p50, p99, max) and the errors; then, from the
database file, how many of the moves that got an answer are stored, and whether every game
replays. (SQLite only so far: the PostgreSQL store is still to come.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.game import from_record
from tests.e2e.harness import BotRunner, running_fake


async def player_loop(fake, user, deadline: float, latencies: list[float], errors: list[str],
                      answered: dict[int, int]) -> None:
    """One player: start a game (again, until it is answered), then draw again and again until
    the deadline."""
    started = False
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            if not started:
                await (await fake.slash_command(user, "play", {"deal": 1000 + user.id % 100_000})).wait_response(
                    timeout=30)
                started = True
                latencies.append(time.monotonic() - start)
                continue
            interaction = await fake.slash_command(user, "move", {"moves": "d"})
            message = await interaction.wait_response(timeout=30)
        except Exception as error:  # a dropped answer, a timeout: counted, and the player goes on
            errors.append(type(error).__name__)
            await asyncio.sleep(0.2)
            continue
        latencies.append(time.monotonic() - start)
        if message is not None and message.content.startswith("Played d"):
            answered[user.id] = answered.get(user.id, 0) + 1
        elif message is not None:
            errors.append(message.content[:40])


async def run(players: int, seconds: float, kill: bool) -> None:
    """Drive the load and print the tables."""
    folder = Path(tempfile.mkdtemp(prefix="pe-load-"))
    database = folder / "pe.sqlite3"
    async with running_fake() as fake, BotRunner(fake, folder) as bots:
        bot = await bots.start_bot("bot", env={"DATABASE_URL": f"sqlite:///{database}",
                                                "HEALTH_FILE": str(folder / "alive"), "LOG_LEVEL": "WARNING"})
        users = [fake.add_user(f"player{i}") for i in range(players)]
        latencies: list[float] = []
        errors: list[str] = []
        answered: dict[int, int] = {}
        began = time.monotonic()
        deadline = began + seconds
        loops = [asyncio.create_task(player_loop(fake, user, deadline, latencies, errors, answered))
                 for user in users]
        if kill:
            await asyncio.sleep(seconds / 2)
            await bot.kill()
            await bot.restart()
        await asyncio.gather(*loops)
        elapsed = time.monotonic() - began
    latencies.sort()
    print(f"{players} players, {seconds:g} s, SQLite{', SIGKILL and restart halfway' if kill else ''}")
    print(f"{'interactions/s':>15} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}")
    print(f"{len(latencies) / elapsed:>15.1f} {statistics.median(latencies) * 1000:>8.0f} "
          f"{latencies[int(len(latencies) * 0.99)] * 1000:>8.0f} {latencies[-1] * 1000:>8.0f} {len(errors):>7}")
    if errors:
        print("errors:", ", ".join(f"{count} × {what!r}" for what, count in Counter(errors).most_common(3)))
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT user_id, name, options, deal, cards, moves FROM games").fetchall()
    stored = {user: len(moves.split()) for user, _, _, _, _, moves in rows}
    lost = sum(max(0, count - stored.get(user, 0)) for user, count in answered.items())
    replayed = 0
    for _, name, options, deal, cards, moves in rows:
        from_record({"game": name, "options": json.loads(options), "deal": deal,
                     "cards": None if cards is None else [cards[i:i + 2] for i in range(0, len(cards), 2)],
                     "moves": moves.split()})
        replayed += 1
    print(f"moves answered {sum(answered.values())}, stored {sum(stored.values())}, answered but lost {lost}; "
          f"games replayed {replayed}/{len(rows)}")


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--kill", action="store_true", help="SIGKILL the bot halfway and restart it")
    args = parser.parse_args()
    asyncio.run(run(args.players, args.seconds, args.kill))


if __name__ == "__main__":
    main()
