"""Where it was lost: how many searches, and how long, the analysis of a lost line takes.

Run from the project root: .venv/bin/python -m benchmarks.analysis [--deals 6]
For lines of 100 and 300 moves on PySolFC's Canfield deals 1.. (winnable ones), of two kinds:
random legal moves from the deal ("random"), and our winning line's first two thirds followed
by random legal moves ("late": the deal stays winnable far into the line). Prints per line the
verdict, where it was lost, the searches and the seconds (each search within ANALYSIS_LIMIT
positions, as the bot does, in this process), then the median and max per length.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.game import new_game
from bot.game.analysis import analyse
from bot.game.solver import NATIVE, solve
from bot.play.review import ANALYSIS_LIMIT


def random_line(game, length: int, rng: random.Random) -> None:
    """Play random legal moves on the game until it has `length` moves (draws one time in four),
    or no move is left (the game won)."""
    while len(game.moves) < length:
        moves = game.legal_moves()
        if not moves:
            return
        others = [move for move in moves if not move.is_draw]
        draws = [move for move in moves if move.is_draw]
        pick = rng.choice(draws if draws and (not others or rng.random() < 0.25) else others)
        game.play(pick)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    args = parser.parse_args()
    print(f"C search: {NATIVE}; each search within {ANALYSIS_LIMIT:,} positions")
    results: dict[int, list[tuple[int, float]]] = {100: [], 300: []}
    deal, done = 0, 0
    while done < args.deals:
        deal += 1
        line = solve(new_game("canfield", deal=deal), limit=ANALYSIS_LIMIT)
        if line.status != "winnable":
            continue
        done += 1
        for length in (100, 300):
            for kind in ("random", "late"):
                rng = random.Random(deal * 1000 + length)
                game = new_game("canfield", deal=deal)
                if kind == "late":
                    for move in line.moves[:len(line.moves) * 2 // 3][:length * 2 // 3]:
                        game.play(move)
                random_line(game, length, rng)
                searches = 0

                def counted(position, *, limit: int):
                    nonlocal searches
                    searches += 1
                    return solve(position, limit=limit)

                start = time.perf_counter()
                analysis = analyse(game, limit=ANALYSIS_LIMIT, search=counted)
                seconds = time.perf_counter() - start
                results[length].append((searches, seconds))
                print(f"deal {deal:3} {kind:6} {len(game.moves)} moves: {analysis.verdict:7} lost after "
                      f"{analysis.lost_after} ({analysis.losing_move}; better {analysis.better_move}): "
                      f"{searches} searches, {seconds:.2f} s", flush=True)
    for length, found in results.items():
        searches = [s for s, _ in found]
        seconds = [t for _, t in found]
        print(f"{length} moves, {len(found)} lines: searches median {statistics.median(searches)}, "
              f"max {max(searches)}; seconds median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")


if __name__ == "__main__":
    main()
