"""Card faces, backs and empty-pile outlines, drawn by our own code once per theme and size.

Each sprite is drawn three times larger and scaled down, for smooth edges and text, and kept
in a cache; a board render only pastes them. The cache is safe to share between threads.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from bot.game.cards import Card, Suit
from render.fonts import font
from render.themes import RGB, Theme

SUPERSAMPLE = 3
SHADOW = 3  # pixels of room on each side of a sprite for its shadow


@dataclass(frozen=True, slots=True)
class CardSize:
    """A card's width and height in pixels."""

    width: int
    height: int

    @property
    def radius(self) -> int:
        """The corner radius."""
        return max(3, round(self.width * 0.09))


def rank_text(rank: int) -> str:
    """The rank as printed on a card face: A, 2..10, J, Q, K."""
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def _canvas(size: CardSize) -> tuple[Image.Image, int, int]:
    """A transparent supersampled canvas with room for the shadow; the card's (w, h) on it."""
    w, h = size.width * SUPERSAMPLE, size.height * SUPERSAMPLE
    pad = SHADOW * SUPERSAMPLE
    return Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0)), w, h


def _finish(image: Image.Image, size: CardSize, shadow: bool = True) -> Image.Image:
    """Add the drop shadow under what is drawn, and scale down to the final size."""
    if shadow:
        alpha = image.getchannel("A")
        shade = Image.new("RGBA", image.size, (0, 0, 0, 0))
        mask = alpha.point(lambda a: a * 0.35).filter(ImageFilter.GaussianBlur(1.6 * SUPERSAMPLE))
        shade.putalpha(mask)
        shade = shade.transform(shade.size, Image.Transform.AFFINE,
                                (1, 0, -0.6 * SUPERSAMPLE, 0, 1, -1.6 * SUPERSAMPLE))
        image = Image.alpha_composite(shade, image)
    pad = 2 * SHADOW
    return image.resize((size.width + pad, size.height + pad), Image.Resampling.LANCZOS)


def _card_shape(draw: ImageDraw.ImageDraw, w: int, h: int, size: CardSize, fill, outline) -> None:
    pad = SHADOW * SUPERSAMPLE
    draw.rounded_rectangle((pad, pad, pad + w - 1, pad + h - 1), radius=size.radius * SUPERSAMPLE,
                           fill=fill, outline=outline, width=SUPERSAMPLE)


Box = tuple[float, float, float, float]  # left, top, right, bottom

# Where the pips of a number card sit: (column, row), the column -1, 0 or 1 (left, centre,
# right), the row from 0 (top) to 1 (bottom) of the pip area. Pips below the middle are drawn
# upside down, as on printed cards.
PIP_LAYOUTS: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((0, 0), (0, 1)),
    3: ((0, 0), (0, 0.5), (0, 1)),
    4: ((-1, 0), (1, 0), (-1, 1), (1, 1)),
    5: ((-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    6: ((-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    7: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    8: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)),
    9: ((-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)),
    10: ((-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6),
         (-1, 1), (1, 1)),
}


def pip_area(size: CardSize, picture: bool = False) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of a face's pips, or with `picture` its court picture,
    in pixels from the card's top left corner: right of the corner index column and below the
    top strip, so that a card fanned downward or sideways still shows its whole index. The pips
    start lower than a picture, below the suit under the rank, so that it is not read as a pip."""
    return (round(size.width * 0.355), round(size.height * (0.28 if picture else 0.36)),
            size.width - round(size.width * 0.05), size.height - round(size.height * 0.04))


@functools.cache
def card_face(card: Card, theme: Theme, size: CardSize) -> Image.Image:
    """The face of `card`. The corner index: the rank top left and the suit top right (what a
    card fanned downward shows), and the suit again under the rank (what a card fanned
    sideways shows). Below and beside it, the pips in their usual places, a large ornamented
    pip for the ace, a double-ended picture for the jack, queen and king."""
    image, w, h = _canvas(size)
    draw = ImageDraw.Draw(image)
    _card_shape(draw, w, h, size, theme.face, theme.face_edge)
    colour = theme.suits[card.suit]
    pad = SHADOW * SUPERSAMPLE
    _draw_index(image, card, colour, size)
    left, top, right, bottom = (pad + SUPERSAMPLE * edge for edge in pip_area(size, picture=card.rank > 10))
    area: Box = (left, top, right, bottom)
    if card.rank == 1:
        _draw_ace(image, card.suit, colour, theme, area)
    elif card.rank <= 10:
        _draw_pips(draw, card, colour, area, w, h)
    else:
        _draw_court(image, card, colour, theme, area)
    return _finish(image, size)


def _draw_index(image: Image.Image, card: Card, colour: RGB, size: CardSize) -> None:
    """The rank top left (narrowed to its column when too wide, as a "10" is), the suit top
    right, and the suit again under the rank."""
    w, h = size.width * SUPERSAMPLE, size.height * SUPERSAMPLE
    pad = SHADOW * SUPERSAMPLE
    inset, top, column = round(w * 0.05), round(h * 0.035), round(w * 0.29)
    rank = _rank_mask(card.rank, round(w * 0.34), column)
    left = pad + inset + (column - rank.width) // 2
    image.paste(colour, (left, pad + top), rank)
    draw = ImageDraw.Draw(image)
    suit = card.suit
    tall = round(h * 0.18)
    wide = tall * SUIT_ASPECT[suit]
    right = pad + w - inset
    _draw_suit(draw, suit, (right - wide, pad + top, right, pad + top + tall), colour)
    tall = round(h * 0.145)
    wide = min(column, tall * SUIT_ASPECT[suit])
    tall = wide / SUIT_ASPECT[suit]
    below = pad + top + _cap_height(round(w * 0.34)) + round(h * 0.065)  # out of sight in a fanned column
    middle = pad + inset + column / 2
    _draw_suit(draw, suit, (middle - wide / 2, below, middle + wide / 2, below + tall), colour)


@functools.cache
def _rank_mask(rank: int, font_size: int, widest: int) -> Image.Image:
    """The rank's ink as a mask from the cap line to the baseline, at most `widest` wide. A 10
    is a plain stroke and a 0, close together, as on printed cards."""
    face = font(font_size)
    cap = _cap_height(font_size)
    if rank == 10:
        zero = _text_ink("0", face, cap)
        stroke = round(font_size * 0.15)
        flag = round(font_size * 0.09)
        gap = round(font_size * 0.06)
        mask = Image.new("L", (flag + stroke + gap + zero.width, cap), 0)
        ImageDraw.Draw(mask).rectangle((flag, 0, flag + stroke - 1, cap - 1), fill=255)
        ImageDraw.Draw(mask).polygon(((flag, 0), (flag, round(cap * 0.2)), (0, round(cap * 0.26)),
                                      (0, round(cap * 0.1))), fill=255)
        mask.paste(zero, (flag + stroke + gap, 0))
    else:
        mask = _text_ink(rank_text(rank), face, cap)
    deepest = round(cap * 1.2)  # a J's hook is drawn a little shorter, to keep clear of the suit
    if mask.width > widest or mask.height > deepest:
        mask = mask.resize((min(widest, mask.width), min(deepest, mask.height)), Image.Resampling.LANCZOS)
    return mask


def _cap_height(font_size: int) -> int:
    """How far a capital letter stands above the baseline."""
    return -int(font(font_size).getbbox("A", anchor="ls")[1])


def _text_ink(text: str, face: ImageFont.FreeTypeFont, cap: int) -> Image.Image:
    """`text` as a mask cropped to its ink left and right, from the cap line down; a tail
    below the baseline (the Q's) is kept."""
    size = [int(edge) for edge in face.getbbox(text, anchor="ls")]  # whole pixels already
    mask = Image.new("L", (size[2] - size[0] + 4, cap + max(0, size[3]) + 2), 0)
    ImageDraw.Draw(mask).text((2 - size[0], cap), text, font=face, fill=255, anchor="ls")
    left, _, right, _ = mask.getbbox() or (0, 0, mask.width, 0)
    return mask.crop((left, 0, right, mask.height))


def _draw_pips(draw: ImageDraw.ImageDraw, card: Card, colour: RGB, area: Box, w: int, h: int) -> None:
    """A number card's pips in their usual places; those below the middle upside down."""
    left, top, right, bottom = area
    tall = h * 0.125
    wide = tall * SUIT_ASPECT[card.suit]
    middle, step = (left + right) / 2, w * 0.17
    first, last = top + tall / 2, bottom - tall / 2
    for column, row in PIP_LAYOUTS[card.rank]:
        x, y = middle + column * step, first + row * (last - first)
        _draw_suit(draw, card.suit, (x - wide / 2, y - tall / 2, x + wide / 2, y + tall / 2), colour,
                   upside_down=row > 0.5)


def _draw_ace(image: Image.Image, suit: Suit, colour: RGB, theme: Theme, area: Box) -> None:
    """The ace: one large pip with a line of the face's colour inside its edge and a small pip
    of the accent colour at its heart, set on a ring of small accent dots."""
    left, top, right, bottom = area
    cx, cy = (left + right) / 2, (top + bottom) / 2
    dot = SUPERSAMPLE * 1.4
    across, down = (right - left) / 2 - 2.5 * dot, ((bottom - top) / 2 - 2.5 * dot) * 0.75  # the ring of dots
    wide = min(2 * across * 0.78, 2 * down * 0.84 * SUIT_ASPECT[suit])
    tall = wide / SUIT_ASPECT[suit]
    box = (cx - wide / 2, cy - tall / 2, cx + wide / 2, cy + tall / 2)
    draw = ImageDraw.Draw(image)
    for i in range(16):
        angle = math.tau * i / 16
        x, y = cx + across * math.sin(angle), cy - down * math.cos(angle)
        radius = dot * (1.5 if i % 4 == 0 else 1)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=theme.accent)
    _draw_suit(draw, suit, box, colour)
    line = _suit_outline(suit, round(box[2] - box[0]), round(box[3] - box[1]), SUPERSAMPLE * 2, SUPERSAMPLE)
    image.paste(theme.face, (round(box[0]), round(box[1])), line)
    small = wide * 0.28
    _draw_suit(draw, suit, (cx - small / 2, cy - small / SUIT_ASPECT[suit] / 2,
                            cx + small / 2, cy + small / SUIT_ASPECT[suit] / 2), theme.accent)


@functools.cache
def _suit_outline(suit: Suit, wide: int, tall: int, inset: int, width: int) -> Image.Image:
    """A mask of a line `width` thick that follows the suit's edge `inset` inside it."""
    shape = Image.new("L", (wide, tall), 0)
    _draw_suit(ImageDraw.Draw(shape), suit, (0, 0, wide, tall), 255)
    outer = shape.filter(ImageFilter.MinFilter(2 * inset + 1))
    inner = outer.filter(ImageFilter.MinFilter(2 * width + 1))
    return ImageChops.subtract(outer, inner)


def _draw_court(image: Image.Image, card: Card, colour: RGB, theme: Theme, area: Box) -> None:
    """A jack, queen or king: a framed double-ended figure, the top half turned about for the
    bottom, told apart by headwear (a feathered cap, a tiara, a spiked crown), hair and what
    each holds."""
    left, top, right, bottom = (round(edge) for edge in area)
    right, bottom = right - 1, bottom - 1  # the frame's last pixels, inside the area
    draw = ImageDraw.Draw(image)
    paper = _tint(theme.face, colour, 0.08)
    draw.rectangle((left, top, right, bottom), fill=paper, outline=colour, width=SUPERSAMPLE)
    inner_wide, inner_tall = right - left + 1 - 2 * SUPERSAMPLE, bottom - top + 1 - 2 * SUPERSAMPLE
    half = _court_half(card, colour, theme, inner_wide, inner_tall // 2)
    inner_left, inner_top = left + SUPERSAMPLE, top + SUPERSAMPLE
    image.paste(half, (inner_left, inner_top), half)
    turned = half.transpose(Image.Transpose.ROTATE_180)
    image.paste(turned, (inner_left, bottom - SUPERSAMPLE - turned.height + 1), turned)
    thick = SUPERSAMPLE + (bottom - top + 1 - SUPERSAMPLE) % 2  # the middle line, on the middle exactly
    middle = top + (bottom - top + 1 - thick) // 2
    draw.rectangle((left, middle, right, middle + thick - 1), fill=colour)


@functools.cache
def _court_half(card: Card, colour: RGB, theme: Theme, wide: int, tall: int) -> Image.Image:
    """The top half of a court card's picture, on a transparent layer `wide` x `tall`."""
    layer = Image.new("RGBA", (wide, tall), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    line = SUPERSAMPLE

    def at(u: float, v: float) -> tuple[float, float]:
        return u * wide, v * tall

    def box(u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        return (*at(u0, v0), *at(u1, v1))

    gold, face = theme.accent, theme.face
    rank = card.rank
    if rank == 12:  # long hair, falling behind the head to the shoulders
        for u in (0.29, 0.53):
            draw.ellipse(box(u, 0.34, u + 0.18, 0.86), fill=colour)
    # shoulders and robe, with a gold band down the middle; it stops short of the middle line
    draw.polygon([at(0.1, 0.96), at(0.14, 0.84), at(0.32, 0.75), at(0.68, 0.75), at(0.86, 0.84), at(0.9, 0.96)],
                 fill=colour)
    draw.rectangle(box(0.45, 0.8, 0.55, 0.96), fill=gold)
    if rank == 13:  # an ermine collar
        draw.rounded_rectangle(box(0.3, 0.72, 0.7, 0.84), radius=tall * 0.05, fill=face, outline=colour,
                               width=line)
        for u in (0.38, 0.5, 0.62):
            draw.rectangle(box(u - 0.012, 0.76, u + 0.012, 0.8), fill=colour)
    else:
        draw.ellipse(box(0.34, 0.7, 0.66, 0.82), fill=gold, outline=colour, width=line)
    # the head
    draw.ellipse(box(0.36, 0.33, 0.64, 0.74), fill=face, outline=colour, width=line)
    for u in (0.45, 0.55):
        draw.ellipse(box(u - 0.02, 0.48, u + 0.02, 0.53), fill=colour)
    if rank == 13:  # a beard, and a tall crown of three spikes, a ball on each
        draw.polygon([at(0.36, 0.54), at(0.42, 0.6), at(0.58, 0.6), at(0.64, 0.54), at(0.62, 0.72),
                      at(0.5, 0.8), at(0.38, 0.72)], fill=colour)
        draw.polygon([at(0.34, 0.37), at(0.34, 0.14), at(0.42, 0.25), at(0.5, 0.07), at(0.58, 0.25),
                      at(0.66, 0.14), at(0.66, 0.37)], fill=gold, outline=colour, width=line)
        for u, v in ((0.34, 0.12), (0.5, 0.05), (0.66, 0.12)):
            draw.ellipse(box(u - 0.035, v - 0.045, u + 0.035, v + 0.04), fill=gold, outline=colour, width=line)
    elif rank == 12:  # a low tiara of three arches with a jewel, and a smile
        for u, v in ((0.415, 0.21), (0.5, 0.15), (0.585, 0.21)):
            draw.ellipse(box(u - 0.06, v, u + 0.06, v + 0.2), fill=gold, outline=colour, width=line)
        draw.rectangle(box(0.34, 0.29, 0.66, 0.37), fill=gold, outline=colour, width=line)
        draw.ellipse(box(0.47, 0.2, 0.53, 0.28), fill=colour)
        draw.arc(box(0.44, 0.54, 0.56, 0.65), 20, 160, fill=colour, width=line)
    else:  # a flat cap with a feather, short hair, a smile
        draw.polygon([at(0.6, 0.3), at(0.8, 0.04), at(0.86, 0.07), at(0.67, 0.32)], fill=gold,
                     outline=colour, width=line)
        draw.chord(box(0.29, 0.16, 0.71, 0.5), 180, 360, fill=colour)
        draw.rectangle(box(0.31, 0.3, 0.69, 0.37), fill=gold, outline=colour, width=line)
        for u in (0.34, 0.61):
            draw.rectangle(box(u, 0.37, u + 0.05, 0.52), fill=colour)
        draw.arc(box(0.44, 0.54, 0.56, 0.65), 20, 160, fill=colour, width=line)
    # what each holds, on the right: a sword, a flower, a halberd
    if rank == 13:
        draw.rectangle(box(0.81, 0.12, 0.85, 0.8), fill=gold, outline=colour, width=line)
        draw.rectangle(box(0.74, 0.62, 0.92, 0.68), fill=gold, outline=colour, width=line)
    elif rank == 12:
        draw.line((*at(0.83, 0.85), *at(0.83, 0.3)), fill=colour, width=2 * line)
        draw.ellipse(box(0.76, 0.16, 0.9, 0.4), fill=gold, outline=colour, width=line)
        draw.ellipse(box(0.81, 0.24, 0.85, 0.32), fill=colour)
    else:
        draw.line((*at(0.83, 0.95), *at(0.83, 0.08)), fill=colour, width=2 * line)
        draw.polygon([at(0.83, 0.02), at(0.93, 0.2), at(0.83, 0.3), at(0.76, 0.2)], fill=gold, outline=colour,
                     width=line)
    # a small pip of the suit in the top left corner
    pip = tall * 0.26
    _draw_suit(draw, card.suit, (wide * 0.05, tall * 0.05, wide * 0.05 + pip * SUIT_ASPECT[card.suit],
                                 tall * 0.05 + pip), colour)
    return layer


def _heart_outline() -> list[tuple[float, float]]:
    """The classic heart curve, scaled into the unit square, point at the bottom."""
    points = [(16 * math.sin(t) ** 3, -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)))
              for t in (i * math.tau / 96 for i in range(96))]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return [((x - min(xs)) / (max(xs) - min(xs)), (y - min(ys)) / (max(ys) - min(ys))) for x, y in points]


def _bowed(corners: list[tuple[float, float]], bow: float) -> list[tuple[float, float]]:
    """A polygon through `corners` whose sides curve in toward the centre by `bow`."""
    points = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        cx, cy = (x0 + x1) / 2 + (0.5 - (x0 + x1) / 2) * bow, (y0 + y1) / 2 + (0.5 - (y0 + y1) / 2) * bow
        for i in range(12):
            t = i / 12
            points.append(((1 - t) ** 2 * x0 + 2 * t * (1 - t) * cx + t * t * x1,
                           (1 - t) ** 2 * y0 + 2 * t * (1 - t) * cy + t * t * y1))
    return points


_HEART = _heart_outline()
_STEM = [(0.5, 0.5), (0.45, 0.82), (0.3, 1.0), (0.7, 1.0), (0.55, 0.82)]
# Each suit as shapes in the unit square: ("polygon", points) or ("circle", (x, y, radius)).
SUIT_SHAPES: dict[Suit, tuple[tuple[str, object], ...]] = {
    Suit.HEARTS: (("polygon", _HEART),),
    Suit.DIAMONDS: (("polygon", _bowed([(0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5)], 0.12)),),
    Suit.SPADES: (("polygon", [(x, (1 - y) * 0.8) for x, y in _HEART]), ("polygon", _STEM)),
    Suit.CLUBS: (("circle", (0.5, 0.25, 0.23)), ("circle", (0.245, 0.56, 0.23)), ("circle", (0.755, 0.56, 0.23)),
                 ("polygon", [(0.5, 0.3), (0.28, 0.56), (0.72, 0.56)]), ("polygon", _STEM)),
}
SUIT_ASPECT: dict[Suit, float] = {Suit.HEARTS: 1.1, Suit.DIAMONDS: 0.78, Suit.SPADES: 0.92, Suit.CLUBS: 1.0}


def _draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, box: Box, fill: RGB | int, upside_down: bool = False) -> None:
    """The suit's sign filling `box` (left, top, right, bottom); turned upside down if asked
    (each sign is symmetric left to right, so a flip is a half turn)."""
    left, top, right, bottom = box
    wide, tall = right - left, bottom - top

    def at(u: float, v: float) -> tuple[float, float]:
        return left + u * wide, top + (1 - v if upside_down else v) * tall

    for kind, shape in SUIT_SHAPES[suit]:
        if kind == "polygon":
            draw.polygon([at(u, v) for u, v in shape], fill=fill)  # type: ignore[union-attr]
        else:
            u, v, r = shape  # type: ignore[misc]
            x, y = at(u, v)
            draw.ellipse((x - r * wide, y - r * tall, x + r * wide, y + r * tall), fill=fill)


@functools.cache
def card_back(theme: Theme, size: CardSize) -> Image.Image:
    """The back of a card: a lattice of small diamonds inside a double frame, and a medallion
    with a four-petal rosette in the middle; flat colours, the same either way up."""
    image, w, h = _canvas(size)
    draw = ImageDraw.Draw(image)
    _card_shape(draw, w, h, size, theme.back, theme.face)
    pad = SHADOW * SUPERSAMPLE
    inset = round(w * 0.08)
    inner = (pad + inset, pad + inset, pad + w - inset - 1, pad + h - inset - 1)
    radius = size.radius * SUPERSAMPLE // 2
    faint = _tint(theme.back, theme.back_pattern, 0.35)
    cx, cy = pad + w / 2, pad + h / 2
    pattern = Image.new("RGBA", image.size, (0, 0, 0, 0))
    diamonds = ImageDraw.Draw(pattern)
    step, half = w * 0.125, w * 0.125 * 0.22
    across, down = int(w / step) + 2, int(h / step) + 2
    for i, j in itertools.product(range(-across, across + 1), range(-down, down + 1)):
        if (i + j) % 2 == 0:  # a diamond on every other point of a half-step grid, centred on the card
            x, y = cx + i * step / 2, cy + j * step / 2
            diamonds.polygon([(x, y - half), (x + half, y), (x, y + half), (x - half, y)], fill=faint)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius, fill=255)
    image.paste(pattern, (0, 0), Image.composite(pattern.getchannel("A"), mask, mask))
    draw.rounded_rectangle(inner, radius=radius, outline=theme.back_pattern, width=SUPERSAMPLE * 2)
    gap = SUPERSAMPLE * 3
    draw.rounded_rectangle((inner[0] + gap, inner[1] + gap, inner[2] - gap, inner[3] - gap),
                           radius=max(1, radius - gap), outline=faint, width=SUPERSAMPLE)
    rx, ry = w * 0.22, h * 0.17
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=theme.back, outline=theme.back_pattern,
                 width=SUPERSAMPLE * 2)
    petal = w * 0.045
    for px, py in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        x, y = cx + px * petal * 2, cy + py * petal * 2 * ry / rx
        draw.ellipse((x - petal, y - petal, x + petal, y + petal), fill=theme.back_pattern)
    draw.ellipse((cx - petal * 0.9, cy - petal * 0.9, cx + petal * 0.9, cy + petal * 0.9), fill=theme.back,
                 outline=theme.back_pattern, width=SUPERSAMPLE)
    return _finish(image, size)


@functools.cache
def empty_slot(theme: Theme, size: CardSize, text: str = "", colour: tuple[int, int, int] | None = None
               ) -> Image.Image:
    """The outline of an empty pile, with optional faint text in it (a foundation's base card,
    the stock's redeal arrow)."""
    image, w, h = _canvas(size)
    draw = ImageDraw.Draw(image)
    fill = (*theme.slot[:3], theme.slot[3] // 4)
    _card_shape(draw, w, h, size, fill, theme.slot)
    if text:
        pad = SHADOW * SUPERSAMPLE
        tint = (*(colour or theme.slot[:3]), 150)
        draw.text((pad + w // 2, pad + h // 2), text, font=font(round(w * 0.36)), fill=tint, anchor="mm")
    return _finish(image, size, shadow=False)


def _tint(base: tuple[int, int, int], colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    return tuple(round(b + (c - b) * amount) for b, c in zip(base, colour, strict=True))  # type: ignore[return-value]
