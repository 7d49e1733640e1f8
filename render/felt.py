"""The cloth under every board: the theme's felt colour woven with a faint twill.

The weave is a 4 x 4 tile of three shades (the felt, a little lighter, a little darker) set in
diagonal lines, as a twill cloth's threads run. It is drawn once per theme and board width and
kept; a board starts from a copy. A tile this small repeats every 4 pixels along a row and every
4 rows, so deflate finds it again at once and a PNG grows little for it, and three shades spend
only three colours of a palette image.
"""

from __future__ import annotations

import functools

from PIL import Image

from render.themes import RGB, Theme

WEAVE = ("+ - ", " + -", "- + ", " - +")  # the twill's tile: "+" lighter, "-" darker, " " the felt itself
WEAVE_STEP = 4  # how much lighter or darker, in each of R, G and B (of 255)
FELT_ROWS = 256  # the felt is kept as a band this many rows tall (a multiple of the weave's), pasted down a board


def felt_shades(theme: Theme) -> tuple[RGB, RGB, RGB]:
    """The weave's three colours: the felt, lighter, darker."""
    return theme.felt, _shifted(theme.felt, WEAVE_STEP), _shifted(theme.felt, -WEAVE_STEP)


def felt(theme: Theme, size: tuple[int, int]) -> Image.Image:
    """A new RGB image of `size` covered with the theme's woven felt, for a board to draw on."""
    band = _felt_band(theme, size[0])
    image = Image.new("RGB", size)
    for top in range(0, size[1], band.height):
        image.paste(band, (0, top))
    return image


@functools.lru_cache(maxsize=32)
def _felt_band(theme: Theme, width: int) -> Image.Image:
    """The woven felt, `width` x FELT_ROWS: kept, never drawn on (`felt` pastes it)."""
    plain, lighter, darker = felt_shades(theme)
    shade = {" ": plain, "+": lighter, "-": darker}
    tile = Image.new("RGB", (len(WEAVE[0]), len(WEAVE)))
    tile.putdata([shade[thread] for row in WEAVE for thread in row])
    row = Image.new("RGB", (width, tile.height))
    for left in range(0, width, tile.width):
        row.paste(tile, (left, 0))
    band = Image.new("RGB", (width, FELT_ROWS))
    for top in range(0, FELT_ROWS, tile.height):
        band.paste(row, (0, top))
    return band


def _shifted(colour: RGB, step: int) -> RGB:
    return tuple(max(0, min(255, channel + step)) for channel in colour)  # type: ignore[return-value]
