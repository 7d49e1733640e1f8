"""One palette of 255 colours per theme, for boards sent as 8-bit indexed PNGs (and replays' GIFs).

A board has a few thousand colours, nearly all of them blends at the edges of a few dozen: the
felt's weave, card faces, suits, backs, labels, text, highlight rings, banners. The palette is
made from what the theme actually draws (boards of every game, every card's face, each ring and
banner), so it follows the sprites and colours as they change; the colours that cover much of a
board (flat areas, where a shift would show) are kept exactly, and the blends share the rest
(median cut, each distinct colour weighing as the square root of its pixels: rare edges count
nearly as much as common ones).

Making a palette takes some 0.5 s (it draws every card): the palettes are made on purpose, as
golden images are, and stored in assets/palettes.txt, which boards read.

Pillow's quantizer looks a pixel up by the top 6 bits of each channel: the colour it gives is
the palette's nearest to the pixel rounded down to a multiple of 4. So a kept colour is checked
to come back as itself, and the blends that would take its place are dropped.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, cast

from PIL import Image

from bot.game import GAMES, Move, Outcome, new_game
from bot.game.cards import Card, Suit
from render.felt import felt, felt_shades
from render.fonts import ASSETS
from render.themes import RGB, Theme

try:
    from render import _paint_core
except ImportError:  # not built (no C compiler): boards are painted with Pillow alone
    _paint_core = None
NATIVE = _paint_core is not None  # whether boards are painted by the paint core (tests turn it off to compare)

PALETTES = ASSETS / "palettes.txt"
HEADER = """# Each theme's palette (render/palette.py), made from what it draws. When the look of the boards
# changes on purpose, look at them and remake this file with: .venv/bin/python -m tests.render.golden
"""
COLOURS = 255  # one index stays free: a replay's GIF frames (render.replay) paint unchanged pixels with it
KEPT = 128  # the most common colours of the sample, kept exactly
NEAR = 11  # a blend this close to a kept colour (Euclidean, 0-255 levels) could be picked in its place


def quantize(image: Image.Image, palette: Image.Image) -> Image.Image:
    """`image` (RGB) in the palette's colours, each pixel its nearest (no dithering)."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def paint_table(theme: Theme) -> bytes | None:
    """The index in the theme's palette of every colour as `quantize` looks it up (the top six
    bits of each channel: red, green, blue, 2**18 of them), for the paint core
    (render/_paint_core.c), made by `quantize` itself; None where the core is not used (`NATIVE`)."""
    return _table(theme) if NATIVE else None


@functools.cache
def _table(theme: Theme) -> bytes:
    levels = range(0, 256, 4)
    channels = (bytes(level for level in levels for _ in range(64 * 64)),  # red: every 4096th colour on
                bytes(level for level in levels for _ in range(64)) * 64,  # green: every 64th
                bytes(levels) * 64 * 64)  # blue: each colour on
    cube = Image.merge("RGB", [Image.frombytes("L", (1 << 9, 1 << 9), channel) for channel in channels])
    return quantize(cube, board_palette(theme)).tobytes()


def put_indices(rows: bytearray, stride: int, corner: tuple[int, int], indices: bytes, width: int) -> None:
    """The rectangle `indices` (rows of `width` bytes) written into `rows` (rows `stride` bytes
    long) with its top left corner at `corner` (column, row); its rows that fall outside `rows`
    are left out. By the paint core where it is built."""
    x, y = corner
    if NATIVE and _paint_core is not None:
        _paint_core.put(rows, stride, x, y, indices, width)
        return
    height, count = len(indices) // width, len(rows) // stride
    for row in range(max(0, -y), min(height, count - y)):
        start = (y + row) * stride + x
        rows[start:start + width] = indices[row * width:(row + 1) * width]


def paint_index(pixels: bytes, depth: int, table: bytes) -> bytes:
    """The index through `table` (`paint_table`) of each pixel of `pixels`, `depth` bytes a pixel
    (3, RGB; or 4, RGBA, its alpha left aside), by the paint core."""
    assert _paint_core is not None
    return _paint_core.index(pixels, depth, table)


def paint_indexed(size: tuple[int, int], ops: list[Any], table: bytes) -> bytes:
    """A rectangle of `size` painted by the paint core's `ops` (render.board `Op`), in the
    palette's indices through `table` (`paint_table`)."""
    assert _paint_core is not None
    return _paint_core.paint(size[0], size[1], ops, table)


@functools.cache
def board_palette(theme: Theme) -> Image.Image:
    """The theme's palette, as a 1 x 1 "P" image to pass to `quantize`: as stored in PALETTES, or
    for a theme not stored there, made now (`make_palette`, some 0.5 s)."""
    colours = stored_palettes().get(theme.name)
    return _palette_image(colours if colours is not None else make_palette(theme))


def make_palette(theme: Theme) -> list[RGB]:
    """The theme's palette, made from what it draws (see the module's docstring)."""
    counts = _sample(theme)
    kept = _distinct(exact_colours(theme))
    for _, colour in counts[:KEPT]:  # the most common, where each kept one still comes back as itself
        if colour not in kept and _mapped([*kept, colour], [*kept, colour]) == [*kept, colour]:
            kept.append(colour)
    nearest = _mapped([colour for _, colour in counts], kept)
    blends = [(pixels, colour) for (pixels, colour), near in zip(counts, nearest, strict=True)
              if _distance(colour, near) >= NEAR]
    chosen = kept + _median_cut(blends, COLOURS - len(kept))
    while True:  # drop what a kept colour would be taken for, until each comes back as itself
        mapped = _mapped(kept, chosen)
        wrong = {got for want, got in zip(kept, mapped, strict=True) if got != want and got not in kept}
        if not wrong:
            return chosen
        chosen = [colour for colour in chosen if colour not in wrong]


def write_palettes(themes: Iterable[Theme]) -> None:
    """Make each theme's palette and store them all in PALETTES."""
    lines = [f"{theme.name}: " + " ".join(bytes(colour).hex() for colour in make_palette(theme)) for theme in themes]
    PALETTES.write_text(HEADER + "\n".join(lines) + "\n")


@functools.cache
def stored_palettes() -> dict[str, list[RGB]]:
    """The palettes stored in PALETTES, by theme name."""
    if not PALETTES.exists():
        return {}
    lines = [line for line in PALETTES.read_text().splitlines() if line and not line.startswith("#")]
    return {name: [tuple(bytes.fromhex(colour)) for colour in colours.split()]  # type: ignore[misc]
            for name, colours in (line.split(": ", 1) for line in lines)}


def exact_colours(theme: Theme) -> list[RGB]:
    """The theme's opaque colours (felt and its weave, faces, suits, text, rings...): drawn flat
    somewhere, so each comes out of `quantize` exactly as drawn."""
    return [*felt_shades(theme), theme.felt_edge, theme.text, theme.muted, theme.face, theme.face_edge,
            *theme.suits.values(), theme.back, theme.back_pattern, theme.moved_to, theme.moved_from, theme.hinted,
            theme.losing, (255, 255, 255)]


def _sample(theme: Theme) -> list[tuple[int, RGB]]:
    """The colours of boards as the theme draws them, with their pixel counts, most common
    first: every game after its first move, a Canfield deal with every kind of ring and each
    banner, and every card's face and the back on the felt."""
    from render.board import GEOMETRY, Painter  # board.py uses this module: imported when first needed
    from render.sprites import SHADOW, card_back, card_face

    def boards() -> Iterator[Image.Image]:
        for name in sorted(GAMES):  # each with its last move and a hint ringed, as most boards are
            game = new_game(name, deal=1)
            game.play(game.legal_moves()[0])
            yield Painter(game, theme, GEOMETRY).paint(game.legal_moves()[0], None, "Zoë Ångström-Ñúñez")
        for outcome in (Outcome.WON, Outcome.BLOCKED):
            game = new_game("canfield", deal=1)
            game.play("d")
            painter = Painter(game, theme, GEOMETRY)
            painter.compose(Move("t1", "t2"), None, "Zoë")
            painter.outline(Move("w", "t3"), theme.losing, theme.losing, played=False)
            painter.outline(Move("t4", "f1"), theme.hinted, theme.hinted, played=False)
            painter.banner = painter.banner_box(*painter.size)  # the game is in play: it has no box of its own
            painter.paint_banner(outcome)
            yield painter.picture()
        card = GEOMETRY.card
        sprites = [card_face(Card(rank, suit), theme, card) for suit in Suit for rank in range(1, 14)]
        sprites.append(card_back(theme, card))
        step_x, step_y, across = card.width + 2 * SHADOW + 4, card.height + 2 * SHADOW + 4, 9
        table = felt(theme, (across * step_x, -(-len(sprites) // across) * step_y))
        for index, sprite in enumerate(sprites):
            row, column = divmod(index, across)
            table.paste(sprite, (column * step_x, row * step_y), sprite)
        yield table

    counts: Counter[RGB] = Counter()
    for image in boards():
        colours = image.getcolors(image.width * image.height)  # never None: room for every pixel's own colour
        assert colours is not None
        for pixels, colour in colours:
            counts[cast(RGB, colour)] += pixels
    return [(pixels, colour) for colour, pixels in counts.most_common()]


def _median_cut(colours: list[tuple[int, RGB]], count: int) -> list[RGB]:
    """`count` colours or fewer standing for `colours` (pixel count, colour), each weighing as
    the square root of its count: a blend on many pixels (a ring's glow on the felt) weighs
    more than one pixel's, but not as much as all of its pixels."""
    if not colours or count <= 0:
        return []
    weighed = [colour for pixels, colour in colours for _ in range(math.isqrt(pixels))]
    image = Image.new("RGB", (len(weighed), 1))
    image.putdata(weighed)
    cut = image.quantize(min(count, len(colours)), method=Image.Quantize.MEDIANCUT)
    return _distinct(_colours_of(cut))


def _mapped(colours: list[RGB], palette: list[RGB]) -> list[RGB]:
    """What `quantize` turns each of `colours` into, with `palette`."""
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    return _colours_of(quantize(image, _palette_image(palette)))


def _colours_of(indexed: Image.Image) -> list[RGB]:
    """The colour of each pixel of a "P" image, row by row."""
    flat = indexed.getpalette() or []
    return [tuple(flat[3 * index:3 * index + 3]) for index in indexed.tobytes()]  # type: ignore[misc]


def _palette_image(colours: list[RGB]) -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def _distinct(colours: list[RGB]) -> list[RGB]:
    return list(dict.fromkeys(colours))


def _distance(a: RGB, b: RGB) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5
