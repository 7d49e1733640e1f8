"""Engine speed: random playouts of canfield, timing `legal_moves()` + `play()` on one core.

Run from the project root: .venv/bin/python -m benchmarks.engine [--games N] [--moves M]
Prints a table of moves per second, for each game and for the end-of-game check.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.game import new_game


def playout_rate(name: str, games: int, moves_per_game: int, seed: int = 1, **options: object) -> tuple[float, int]:
    """Moves per second of random legal playouts (legal_moves + play), and the moves timed."""
    rng = random.Random(seed)
    played = 0
    elapsed = 0.0
    for _ in range(games):
        game = new_game(name, deal=rng.randint(1, 10**9), **options)
        start = time.perf_counter()
        for _ in range(moves_per_game):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            played += 1
        elapsed += time.perf_counter() - start
    return played / elapsed, played


def outcome_times(games: int, moves_per_game: int, seed: int = 2) -> list[float]:
    """Milliseconds for `game.outcome` at random points of random playouts."""
    rng = random.Random(seed)
    times = []
    for _ in range(games):
        game = new_game("canfield", deal=rng.randint(1, 10**9))
        for _ in range(moves_per_game):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            start = time.perf_counter()
            _ = game.outcome
            times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    print(f"random playouts: {args.games} games x up to {args.moves} moves, one core")
    print(f"{'game':<34} {'moves timed':>12} {'moves/s':>10}")
    for name, options in [("canfield", {}), ("canfield", {"groups": "any"}), ("superior-canfield", {}),
                          ("storehouse", {}), ("rainbow-canfield", {}), ("canfield", {"die": "pass"})]:
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        rate, played = playout_rate(name, args.games, args.moves, **options)
        print(f"{label:<34} {played:>12} {rate:>10,.0f}")
    times = sorted(outcome_times(max(1, args.games // 4), args.moves))
    p99 = times[int(len(times) * 0.99)]
    print(f"\n`outcome` (end-of-game check) over {len(times)} positions: median {statistics.median(times):.3f} ms, "
          f"p99 {p99:.3f} ms, max {times[-1]:.3f} ms")


if __name__ == "__main__":
    main()
