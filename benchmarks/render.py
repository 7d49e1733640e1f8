"""Board render speed: render + PNG encode of fresh, mid-game and won canfield boards, one core.

Run from the project root: .venv/bin/python -m benchmarks.render [--runs N]
Prints median and 99th percentile milliseconds (drawing, encoding, both) and PNG bytes.
Budget (DESIGN.md section 7): mid-game median at most 15 ms, PNG at most 150 KB.
"""

from __future__ import annotations

import argparse
import statistics
import time

from render import render_image
from render.board import PNG_COMPRESS_LEVEL, encode_png
from tests.samples import sample_game


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def measure(state: str, theme: str, runs: int) -> tuple[list[float], list[float], int]:
    """Milliseconds to draw and to encode each run, and the PNG's size."""
    game = sample_game("canfield", state)
    render_image(game, theme=theme)  # sprites are drawn once per theme and size: not timed
    draw_ms, encode_ms, size = [], [], 0
    for _ in range(runs):
        start = time.perf_counter()
        image = render_image(game, theme=theme)
        drawn = time.perf_counter()
        png = encode_png(image)  # what `render` does after drawing
        done = time.perf_counter()
        draw_ms.append((drawn - start) * 1000)
        encode_ms.append((done - drawn) * 1000)
        size = len(png)
    return draw_ms, encode_ms, size


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--theme", default="classic")
    args = parser.parse_args()
    print(f"canfield boards, theme {args.theme}, {args.runs} runs each, PNG zlib level {PNG_COMPRESS_LEVEL}")
    print(f"{'board':<8} {'draw p50':>9} {'encode p50':>11} {'total p50':>10} {'total p99':>10} {'PNG bytes':>10}")
    for state in ("fresh", "mid", "won"):
        draw_ms, encode_ms, size = measure(state, args.theme, args.runs)
        total = [d + e for d, e in zip(draw_ms, encode_ms, strict=True)]
        print(f"{state:<8} {statistics.median(draw_ms):>9.2f} {statistics.median(encode_ms):>11.2f} "
              f"{statistics.median(total):>10.2f} {percentile(total, 0.99):>10.2f} {size:>10,}")


if __name__ == "__main__":
    main()
