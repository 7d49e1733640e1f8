"""Board render speed: render + PNG encode of fresh, mid-game and won canfield boards, one core;
and a mid-game board drawn again from the game's last (render.redraw) after a draw and after a move.

Run from the project root: .venv/bin/python -m benchmarks.render [--runs N] [--theme T] [--plain-felt] [--cpu]
Prints median milliseconds of each step and PNG bytes: drawing; the board as 8-bit RGB
(encoding, bytes); the board in the theme's palette, as `render` sends it (quantizing, encoding,
bytes); and the total of what `render` does (drawing, quantizing, encoding), median and 99th
percentile. The boards drawn again (`render(..., key=...)`: only what changed since the last board
of the game) are timed as the same steps: drawing (laying out, comparing), painting the rectangles
that changed and quantizing them (one step: the paint core, render/_paint_core.c, does both where
it is built), encoding (putting them into the rows, deflating the bands they touch, the PNG).
`--plain-felt` draws on felt without its weave, to see what the weave costs; `--cpu` times with
this thread's CPU time instead of the wall clock, which other programs on a shared machine sway less.
Budget (docs/design.md): mid-game median at most 15 ms, PNG at most 50 KB.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PIL import Image

from bot.game import DRAW, Game, new_game
from render import board, redraw, render, render_image
from render.board import PNG_COMPRESS_LEVEL, Painter, encode_png
from render.palette import board_palette, quantize
from render.themes import get_theme
from tests.samples import sample_game

STEPS = ("draw", "rgb", "quantize", "indexed")


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def measure(state: str, theme: str, runs: int, clock: Callable[[], float] = time.perf_counter,
            ) -> tuple[dict[str, list[float]], int, int]:
    """Milliseconds of each step in each run (by `clock`, in seconds), and the RGB and the
    indexed PNG's sizes."""
    game = sample_game("canfield", state)
    palette = board_palette(get_theme(theme))  # made once per theme, as sprites are: not timed
    render_image(game, theme=theme)
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    rgb_size = indexed_size = 0
    for _ in range(runs):
        start = clock()
        image = render_image(game, theme=theme)
        drawn = clock()
        rgb = encode_png(image)  # the RGB encoding, as boards were sent before the palette
        encoded = clock()
        indexed = quantize(image, palette)
        quantized = clock()
        png = encode_png(indexed)  # what `render` does after drawing: quantize, encode
        done = clock()
        for step, (begin, end) in zip(STEPS, ((start, drawn), (drawn, encoded), (encoded, quantized),
                                               (quantized, done)), strict=True):
            times[step].append((end - begin) * 1000)
        rgb_size, indexed_size = len(rgb), len(png)
    return times, rgb_size, indexed_size


def redrawn_after(change: str) -> tuple[Game, Game]:
    """A mid-game Canfield board and the next after `change`: "a draw" or "a move" (not a draw),
    both in play."""
    game = new_game("canfield", deal=12345)
    rng = random.Random(3)
    while True:
        real = [move for move in game.legal_moves() if not move.is_draw]
        following = copy.deepcopy(game)
        if len(game.moves) >= 20 and (real if change == "a move" else following.can_move(DRAW)):
            following.play(rng.choice(real) if change == "a move" else DRAW)
            if following.outcome is None:
                return game, following
        game.play(rng.choice(real) if real and rng.random() < 0.5 else DRAW)


@contextmanager
def timing(module: Any, name: str, spent: list[float], clock: Callable[[], float]) -> Iterator[None]:
    """Add the time each call of `module.name` takes to spent[0]."""
    function = getattr(module, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += clock() - start

    setattr(module, name, timed)
    try:
        yield
    finally:
        setattr(module, name, function)


def measure_again(change: str, theme: str, runs: int, clock: Callable[[], float] = time.perf_counter,
                  ) -> tuple[dict[str, list[float]], int]:
    """Milliseconds of each step of drawing a board again from the last after `change`, in each
    run (the two boards in turn, each drawn from the other), and the PNG's size."""
    boards = redrawn_after(change)
    redraw.forget()
    render(boards[0], theme=theme, key="benchmark")
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    size = 0
    for run in range(runs):
        quantizing, encoding = [0.0], [0.0]
        with (timing(Painter, "indices", quantizing, clock), timing(redraw, "put_indices", encoding, clock),
              timing(redraw, "_deflated", encoding, clock), timing(redraw, "_png", encoding, clock)):
            start = clock()
            png = render(boards[(run + 1) % 2], theme=theme, key="benchmark")
            total = clock() - start
        times["draw"].append((total - quantizing[0] - encoding[0]) * 1000)
        times["quantize"].append(quantizing[0] * 1000)
        times["indexed"].append(encoding[0] * 1000)
        size = len(png)
    return times, size


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--theme", default="classic")
    parser.add_argument("--plain-felt", action="store_true", help="draw on felt without its weave")
    parser.add_argument("--cpu", action="store_true", help="time with the thread's CPU time")
    args = parser.parse_args()
    if args.plain_felt:
        board.felt = lambda theme, size: Image.new("RGB", size, theme.felt)
    felt = "plain felt" if args.plain_felt else "woven felt"
    clock = "thread CPU ms" if args.cpu else "wall ms"
    print(f"canfield boards, theme {args.theme}, {felt}, {args.runs} runs each, {clock}, "
          f"PNG deflate level {PNG_COMPRESS_LEVEL}")
    print(f"{'':<12} {'':>6} {'--- RGB PNG ---':>19} {'--- indexed PNG (sent) ---':>28} {'--- render total ---':>21}")
    print(f"{'board':<12} {'draw':>6} {'encode':>7} {'bytes':>11} {'quantize':>9} {'encode':>7} {'bytes':>10} "
          f"{'p50':>10} {'p99':>10}")
    for state in ("fresh", "mid", "won"):
        times, rgb_size, indexed_size = measure(state, args.theme, args.runs,
                                                time.thread_time if args.cpu else time.perf_counter)
        total = [sum(step) for step in zip(times["draw"], times["quantize"], times["indexed"], strict=True)]
        draw, rgb, quantizing, indexed = (statistics.median(times[step]) for step in STEPS)
        print(f"{state:<12} {draw:>6.2f} {rgb:>7.2f} {rgb_size:>11,} {quantizing:>9.2f} {indexed:>7.2f} "
              f"{indexed_size:>10,} {statistics.median(total):>10.2f} {percentile(total, 0.99):>10.2f}")
    print("drawn again from the game's last board (render.redraw), mid-game (quantize: the rectangles that changed "
          "painted and quantized at once, by the paint core where it is built):")
    for change in ("a draw", "a move"):
        times, size = measure_again(change, args.theme, args.runs, time.thread_time if args.cpu else time.perf_counter)
        total = [sum(step) for step in zip(times["draw"], times["quantize"], times["indexed"], strict=True)]
        draw, quantizing, indexed = (statistics.median(times[step]) for step in ("draw", "quantize", "indexed"))
        print(f"{'after ' + change:<12} {draw:>6.2f} {'-':>7} {'-':>11} {quantizing:>9.2f} {indexed:>7.2f} "
              f"{size:>10,} {statistics.median(total):>10.2f} {percentile(total, 0.99):>10.2f}")


if __name__ == "__main__":
    main()
