"""Board room: how each game's fresh board fills its image, and how big it reads on a phone.

Run from the project root: .venv/bin/python -m benchmarks.board_room
Prints, for every game's fresh board (deal 12345): its size, a card's width once the board is
scaled to 400 pixels wide (Discord's inline width on a phone), and the share of the image that
is empty felt: more than 12 pixels from the header, a layout's marks, any pile (its cards, its
outline) and its label, so that the gaps between piles and the margins do not count. Measured
on the board's plan (render.board `board_plan`), whatever the felt is painted with.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.game import GAMES, new_game
from render.board import GEOMETRY, board_plan
from render.layouts import layout_for

PHONE = 400
REACH = 12  # felt this close to something drawn is the gap around it, not room


def empty_share(name: str) -> tuple[tuple[int, int], float]:
    """The fresh board's size, and the share of it that is empty felt."""
    game = new_game(name, deal=12345)
    plan = board_plan(game)
    width, height = plan.size
    drawn = Image.new("L", plan.size, 0)
    draw = ImageDraw.Draw(drawn)
    top = GEOMETRY.header + (GEOMETRY.mark if layout_for(game.kind).marks else 0)
    areas = [(0, 0, width, top)]
    areas += [(x0, y0 - GEOMETRY.label, x1, y1) for x0, y0, x1, y1 in plan.boxes.values()]  # a pile, its label
    for x0, y0, x1, y1 in areas:
        draw.rectangle((x0 - REACH, y0 - REACH, x1 + REACH - 1, y1 + REACH - 1), fill=255)
    covered = drawn.histogram()[-1]
    return plan.size, 1 - covered / (width * height)


def main() -> None:
    """Print the table."""
    print(f"fresh boards (deal 12345); card width at {PHONE} px wide; empty felt: more than {REACH} px from anything")
    print(f"{'game':<20} {'size':>10} {'card @400':>10} {'empty felt':>11}")
    for name in sorted(GAMES):
        (width, height), share = empty_share(name)
        card = GEOMETRY.card.width * PHONE / width
        print(f"{name:<20} {f'{width}x{height}':>10} {card:>8.1f}px {share:>11.1%}")


if __name__ == "__main__":
    main()
