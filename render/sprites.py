"""Card faces, backs and empty-pile outlines, drawn by our own code once per theme and size.

Each sprite is drawn three times larger and scaled down, for smooth edges and text, and kept
in a cache; a board render only pastes them. The cache is safe to share between threads.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter

from bot.game.cards import Card
from render.fonts import font
from render.themes import Theme

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


@functools.cache
def card_face(card: Card, theme: Theme, size: CardSize) -> Image.Image:
    """The face of `card`: a big rank and suit in the top strip (what shows in a fanned
    column), and a large pip or a court letter below."""
    image, w, h = _canvas(size)
    draw = ImageDraw.Draw(image)
    _card_shape(draw, w, h, size, theme.face, theme.face_edge)
    colour = theme.suits[card.suit]
    pad = SHADOW * SUPERSAMPLE
    inset = round(w * 0.07)
    index = font(round(w * 0.34))
    draw.text((pad + inset, pad + round(h * 0.035)), rank_text(card.rank), font=index, fill=colour, anchor="lt")
    draw.text((pad + w - inset, pad + round(h * 0.035)), card.suit.symbol, font=index, fill=colour, anchor="rt")
    centre = (pad + w // 2, pad + round(h * 0.62))
    if card.rank > 10:
        frame = (pad + round(w * 0.16), pad + round(h * 0.33), pad + w - round(w * 0.16), pad + h - round(h * 0.07))
        draw.rounded_rectangle(frame, radius=size.radius * SUPERSAMPLE, fill=_tint(theme.face, colour, 0.10),
                               outline=colour, width=SUPERSAMPLE)
        draw.text((centre[0], centre[1] - round(h * 0.04)), rank_text(card.rank), font=font(round(w * 0.46)),
                  fill=colour, anchor="mm")
        draw.text((centre[0], frame[3] - round(h * 0.06)), card.suit.symbol, font=font(round(w * 0.2)),
                  fill=colour, anchor="mm")
    else:
        pip = round(w * (0.78 if card.rank == 1 else 0.6))
        draw.text(centre, card.suit.symbol, font=font(pip), fill=colour, anchor="mm")
    return _finish(image, size)


@functools.cache
def card_back(theme: Theme, size: CardSize) -> Image.Image:
    """The back of a card: a lattice inside a thin frame."""
    image, w, h = _canvas(size)
    draw = ImageDraw.Draw(image)
    _card_shape(draw, w, h, size, theme.back, theme.face)
    pad = SHADOW * SUPERSAMPLE
    inset = round(w * 0.09)
    inner = (pad + inset, pad + inset, pad + w - inset, pad + h - inset)
    pattern = Image.new("RGBA", image.size, (0, 0, 0, 0))
    lines = ImageDraw.Draw(pattern)
    step = round(w * 0.14)
    colour = (*theme.back_pattern, 120)
    for offset in range(-h, w + h, step):
        lines.line((pad + offset, pad, pad + offset + h, pad + h), fill=colour, width=SUPERSAMPLE)
        lines.line((pad + offset + h, pad, pad + offset, pad + h), fill=colour, width=SUPERSAMPLE)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=size.radius * SUPERSAMPLE // 2, fill=255)
    image.paste(pattern, (0, 0), Image.composite(pattern.getchannel("A"), mask, mask))
    draw.rounded_rectangle(inner, radius=size.radius * SUPERSAMPLE // 2, outline=theme.back_pattern,
                           width=SUPERSAMPLE * 2)
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
