"""The solver's yardstick and budgets: Jan Wolter's 100 reference deals and PySolFC's games.

Run from the project root: .venv/bin/python -m benchmarks.solver [--seconds 10] [--games 1000]
Prints, in turn:

- on Wolter's 100 deals with any group moving, under his rule for foundation moves and ours,
  the search without and with its pruning of partial group moves (docs/games.md, "How the
  solver searches"): deals decided, agreement with Wolter, total time and the worst deal
  (`--pruning-only` prints that table alone);
- the short winning lines (bot.game.lines, as /solution makes them) on Wolter's 70 won deals
  against his lines: moves besides draws (his fills of an empty column from the reserve count
  as moves, as he prints them; our engine makes them by itself), each line replayed to a win in
  the engine (`--lines-only` prints that table alone);
- for each set and rule set (the 100 reference deals also with a long limit, to show that every
  verdict agrees): the share of deals decided within the time limit, the winnable share among
  the decided with its 95% confidence interval (Wilson), agreement with the reference, and the
  time per deal (median, 90th percentile, max);
- the time of is_dead and hint on positions along random playouts (budgets, docs/design.md:
  median 100 ms, worst 1 s).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from bot.game import Outcome, new_game
from bot.game.lines import non_draw_count, short_line
from bot.game.solver import NATIVE, hint, is_dead, solve
from bot.play.solution import SOLUTION_LIMIT
from tests.game.wolter import read_deals


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% confidence interval of a share (Wilson's score interval)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return centre - spread, centre + spread


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run(label: str, games: list, seconds: float, expected: list[str] | None = None, *,
        reference: bool = False) -> None:
    """Solve each game and print one row of the table."""
    statuses, times, agree = [], [], 0
    for index, game in enumerate(games):
        solution = solve(game, limit=10**9, seconds=seconds, reference=reference)
        statuses.append(solution.status)
        times.append(solution.seconds)
        if expected is not None and solution.status == expected[index]:
            agree += 1
    decided = [s for s in statuses if s != "gave-up"]
    winnable = statuses.count("winnable")
    low, high = wilson(winnable, len(decided))
    agreement = f"{agree}/{len(games)}" if expected is not None else "-"
    print(f"{label:<44} {len(decided) / len(games):>8.1%} {winnable / max(1, len(decided)):>9.1%} "
          f"{low:>6.1%}-{high:<6.1%} {agreement:>7} {statistics.median(times):>7.2f} {percentile(times, 0.9):>7.2f} "
          f"{max(times):>7.2f}", flush=True)


def before_after(deals: list, seconds: float) -> None:
    """Print, for each rule for foundation moves, Wolter's deals solved without the pruning of
    partial group moves (before) and with it (after): deals decided, agreement with Wolter's
    verdicts, total seconds, and the slowest deal."""
    print(f"Wolter's {len(deals)} deals, any group, {seconds:g} s a deal: before and after the pruning of partial "
          "group moves")
    print(f"{'rule, search':<38} {'decided':>8} {'agrees':>8} {'total s':>8}  worst deal")
    for reference in (True, False):
        for prune in (False, True):
            decided = agree = 0
            total, worst, worst_seed = 0.0, -1.0, -1
            for deal in deals:
                game = new_game("canfield", cards=deal.cards(), groups="any")
                solution = solve(game, limit=10**10, seconds=seconds, reference=reference, prune=prune)
                decided += solution.status != "gave-up"
                agree += solution.status == ("winnable" if deal.verdict == "won" else "unwinnable")
                total += solution.seconds
                if solution.seconds > worst:
                    worst, worst_seed = solution.seconds, deal.seed
            label = f"{'reference' if reference else 'exact'}, {'after (pruned)' if prune else 'before (unpruned)'}"
            print(f"{label:<38} {decided:>4}/{len(deals):<3} {agree:>4}/{len(deals):<3} {total:>8.2f}  "
                  f"{worst_seed} ({worst:.2f} s)", flush=True)
    print()


def line_lengths(deals: list) -> None:
    """Print the short lines' lengths against Wolter's on his won deals, with the solver's raw
    depth-first lines for comparison, whether each replays to a win, and the time per deal."""
    won = [deal for deal in deals if deal.verdict == "won"]
    raw, ours, his, ratios, seconds, wins, found = [], [], [], [], [], 0, 0
    for deal in won:
        game = new_game("canfield", cards=deal.cards(), groups="any")
        raw.append(non_draw_count(solve(game, limit=10**9).moves))
        start = time.perf_counter()
        line = short_line(game, limit=SOLUTION_LIMIT)
        seconds.append(time.perf_counter() - start)
        if line.status != "winnable":
            print(f"  deal {deal.seed}: {line.status}")
            continue
        found += 1
        for move in line.moves:
            game.play(move)
        wins += game.outcome is Outcome.WON
        ours.append(non_draw_count(line.moves))
        his.append(len(deal.moves))
        ratios.append(ours[-1] / his[-1])

    def row(label: str, values: list) -> str:
        return f"{label:<42} {statistics.median(values):>7g} {percentile(values, 0.9):>7g} {max(values):>8g}"

    print(f"Short winning lines on Wolter's {len(won)} won deals (moves besides draws), limit {SOLUTION_LIMIT:,} "
          "positions a search")
    print(f"{'':<42} {'median':>7} {'p90':>7} {'max':>8}")
    print(row("the solver's depth-first lines (no limit)", raw))
    print(row("short lines (bot.game.lines)", ours))
    print(row("Wolter's lines", his))
    print(f"found {found}/{len(won)}, replayed to a win {wins}/{found}; ours over his by more than 20%: "
          f"{sum(r > 1.2 for r in ratios)}, worst {max(ratios):.2f} of his; over 200 moves: "
          f"{sum(n > 200 for n in ours)}")
    print(f"time a deal (solve and shorten): median {statistics.median(seconds):.2f} s, "
          f"p90 {percentile(seconds, 0.9):.2f} s, max {max(seconds):.2f} s\n", flush=True)


def visible_times(games: list, seed: int = 1, moves: int = 60) -> tuple[list[float], list[float]]:
    """Milliseconds of is_dead and of hint at each position of random playouts."""
    rng = random.Random(seed)
    dead_ms, hint_ms = [], []
    for game in games:
        for _ in range(moves):
            start = time.perf_counter()
            dead = is_dead(game)
            middle = time.perf_counter()
            hint(game)
            dead_ms.append((middle - start) * 1000)
            hint_ms.append((time.perf_counter() - middle) * 1000)
            legal = game.legal_moves()
            if dead or not legal or game.foundation_cards == 52:
                break
            game.play(rng.choice(legal))
    return dead_ms, hint_ms


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit per deal")
    parser.add_argument("--games", type=int, default=1000, help="PySolFC games 1..N")
    parser.add_argument("--skip-reference", action="store_true", help="leave out Wolter's 100 deals")
    parser.add_argument("--reference-seconds", type=float, default=300.0,
                        help="the long time limit per reference deal (0: leave that row out)")
    parser.add_argument("--groups", default="top-or-whole,any", help="rule sets for PySolFC's games")
    parser.add_argument("--lines-only", action="store_true", help="print the short lines' table alone")
    parser.add_argument("--pruning-only", action="store_true",
                        help="print the table before and after the pruning alone")
    args = parser.parse_args()
    deals = read_deals()
    if not args.lines_only:
        before_after(deals, args.seconds)
    if args.pruning_only:
        return
    line_lengths(deals)
    if args.lines_only:
        return
    expected = ["winnable" if deal.verdict == "won" else "unwinnable" for deal in deals]

    def reference(groups: str) -> list:
        return [new_game("canfield", cards=deal.cards(), groups=groups) for deal in deals]

    search = "C search (bot/game/_solver_core.c)" if NATIVE else "Python search (the C search is not built)"
    print(f"time limit {args.seconds:g} s a deal, one core, {search}")
    print(f"{'deals, rules':<44} {'decided':>8} {'winnable':>9} {'95% CI':>13} {'agrees':>7} {'median':>7} "
          f"{'p90':>7} {'max':>7}")
    if not args.skip_reference:
        run("Wolter's 100, any group, reference autoplay", reference("any"), args.seconds, expected, reference=True)
        if args.reference_seconds:
            run(f"  the same, {args.reference_seconds:g} s a deal", reference("any"), args.reference_seconds, expected,
                reference=True)
        run("Wolter's 100, any group, exact", reference("any"), args.seconds, expected)
        run("Wolter's 100, top-or-whole, exact", reference("top-or-whole"), args.seconds)
    pysol = range(1, args.games + 1)
    for groups in args.groups.split(","):
        label = "top-or-whole (default)" if groups == "top-or-whole" else "any group"
        run(f"PySolFC 1..{args.games}, {label}, exact", [new_game("canfield", deal=n, groups=groups) for n in pysol],
            args.seconds)
    dead_ms, hint_ms = visible_times(reference("top-or-whole"))
    print(f"\nis_dead over {len(dead_ms)} positions: median {statistics.median(dead_ms):.1f} ms, "
          f"p99 {percentile(dead_ms, 0.99):.1f} ms, max {max(dead_ms):.1f} ms")
    print(f"hint over {len(hint_ms)} positions: median {statistics.median(hint_ms):.1f} ms, "
          f"p99 {percentile(hint_ms, 0.99):.1f} ms, max {max(hint_ms):.1f} ms")


if __name__ == "__main__":
    main()
