"""The evidence that the solver's pruning of partial group moves loses no win: the pruned and the
unpruned search, deal by deal, must give the same verdict (docs/games.md, "How the solver searches").

Run from the project root: .venv/bin/python -m benchmarks.solver_pruning [--seconds 60] [--games 1000]
For Jan Wolter's 100 deals and PySolFC's deals 1..N, all with any group moving, under the
reference rule for foundation moves and the exact one, it prints how many deals the two
searches decide both and agree on, how many only one of them decides within the time limit, the
seconds each took in all, and every disagreement (there must be none: one would show the rule wrong).
"""

from __future__ import annotations

import argparse
import time

from bot.game import new_game
from bot.game.solver import NATIVE, solve
from tests.game.wolter import read_deals


def compare(label: str, games: list, names: list[str], seconds: float, *, reference: bool) -> int:
    """Solve each game pruned and unpruned, print one row, and each disagreement; return how
    many disagreements there were."""
    both = agree = 0
    pruned_seconds = unpruned_seconds = 0.0
    disagreements: list[str] = []
    pruned_only: list[str] = []
    unpruned_only: list[str] = []
    neither: list[str] = []
    for game, name in zip(games, names, strict=True):
        pruned = solve(game, limit=10**10, seconds=seconds, reference=reference)
        unpruned = solve(game, limit=10**10, seconds=seconds, reference=reference, prune=False)
        pruned_seconds += pruned.seconds
        unpruned_seconds += unpruned.seconds
        decided = pruned.status != "gave-up", unpruned.status != "gave-up"
        if all(decided):
            both += 1
            if pruned.status == unpruned.status:
                agree += 1
            else:
                disagreements.append(f"  DISAGREEMENT {name}: pruned {pruned.status}, unpruned {unpruned.status}")
                print(disagreements[-1], flush=True)
        elif decided[0]:
            pruned_only.append(f"{name} ({pruned.status})")
        elif decided[1]:
            unpruned_only.append(f"{name} ({unpruned.status})")
        else:
            neither.append(name)
    print(f"{label:<40} {len(games):>6} {both:>6} {agree:>6} {len(disagreements):>9} {len(pruned_only):>8} "
          f"{len(unpruned_only):>10} {len(neither):>8} {pruned_seconds:>9.1f} {unpruned_seconds:>9.1f}", flush=True)
    for what, names in (("only the pruned search decides", pruned_only),
                        ("only the unpruned search decides", unpruned_only), ("neither decides", neither)):
        if names:
            print(f"  {what}: {', '.join(names)}", flush=True)
    return len(disagreements)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per deal and search")
    parser.add_argument("--games", type=int, default=1000, help="PySolFC games 1..N")
    parser.add_argument("--modes", default="reference,exact", help="foundation rules to compare under")
    args = parser.parse_args()
    deals = read_deals()
    wolter = [new_game("canfield", cards=deal.cards(), groups="any") for deal in deals]
    wolter_names = [f"Wolter's deal {deal.seed}" for deal in deals]
    pysol = [new_game("canfield", deal=n, groups="any") for n in range(1, args.games + 1)]
    pysol_names = [f"PySolFC deal {n}" for n in range(1, args.games + 1)]
    search = "C search" if NATIVE else "Python search (the C search is not built)"
    print(f"pruned against unpruned, any group, time limit {args.seconds:g} s a deal and search, {search}")
    print(f"{'deals, foundation rule':<40} {'deals':>6} {'both':>6} {'agree':>6} {'disagree':>9} "
          f"{'pruned':>8} {'unpruned':>10} {'neither':>8} {'s pruned':>9} {'s unpr.':>9}")
    print(f"{'':<40} {'':>6} {'decide':>6} {'':>6} {'':>9} {'only':>8} {'only':>10} {'decides':>8}")
    start = time.perf_counter()
    wrong = 0
    for mode in args.modes.split(","):
        reference = mode == "reference"
        wrong += compare(f"Wolter's 100, {mode}", wolter, wolter_names, args.seconds, reference=reference)
        wrong += compare(f"PySolFC 1..{args.games}, {mode}", pysol, pysol_names, args.seconds, reference=reference)
    print(f"disagreements: {wrong}; {time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
