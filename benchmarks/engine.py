"""Engine speed: random playouts of canfield, timing `legal_moves()` + `play()` on one core.

Run from the project root: .venv/bin/python -m benchmarks.engine [--games N] [--moves M]
Prints a table of moves per second, for each game, and the times of the end-of-game check: in
full (`outcome`) and as the bot makes it after every move (`outcome_within(QUICK_SEARCH)`).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Iterator

from bot.game import Game, new_game
from bot.game.solver import GaveUp
from bot.play.solo import QUICK_SEARCH


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


def random_playouts(games: int, moves_per_game: int, seed: int, *, draw_share: float = 0.0) -> Iterator[Game]:
    """Random canfield playouts: the game after each move (a draw, where there is one, in
    `draw_share` of the moves; else any legal move)."""
    rng = random.Random(seed)
    for _ in range(games):
        game = new_game("canfield", deal=rng.randint(1, 10**9))
        for _ in range(moves_per_game):
            moves = game.legal_moves()
            if not moves:
                break
            draws = [move for move in moves if move.is_draw]
            game.play(draws[0] if draws and draw_share and rng.random() < draw_share else rng.choice(moves))
            yield game


def outcome_times(games: int, moves_per_game: int, seed: int = 2) -> list[float]:
    """Milliseconds for `game.outcome` at random points of random playouts."""
    times = []
    for game in random_playouts(games, moves_per_game, seed):
        start = time.perf_counter()
        _ = game.outcome
        times.append((time.perf_counter() - start) * 1000)
    return times


def outcome_after_move_times(games: int, moves_per_game: int, seed: int = 3) -> list[float]:
    """CPU microseconds of the outcome search the bot makes after every move
    (`outcome_within(QUICK_SEARCH)`, see bot.play.solo), after each move of random canfield
    playouts that draw two moves in three (the load benchmark's players only draw)."""
    times = []
    for game in random_playouts(games, moves_per_game, seed, draw_share=2 / 3):
        start = time.process_time()
        with contextlib.suppress(GaveUp):  # the bot then asks a search process: not timed here
            game.outcome_within(QUICK_SEARCH)
        times.append((time.process_time() - start) * 1e6)
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
    quick = sorted(outcome_after_move_times(max(1, args.games // 4), args.moves))
    print(f"outcome after a move (`outcome_within(QUICK_SEARCH)`) over {len(quick)} positions: "
          f"mean {statistics.mean(quick):.1f} us CPU, median {statistics.median(quick):.1f} us, "
          f"p99 {quick[int(len(quick) * 0.99)]:.1f} us")


if __name__ == "__main__":
    main()
