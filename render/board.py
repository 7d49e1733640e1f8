"""A game's board as a PNG: `render(game, theme=..., highlight=...) -> bytes`.

A pure function of the game's visible state: it reads the public face of the engine (piles,
counts, score, last move), places the piles as the game's `BoardLayout` says, pastes cached
sprites and draws the labels, header, highlights and banner. Safe to call from any thread.

It runs for every move of every player, in worker threads beside the bot's event loop, so it
keeps its work under the GIL small: pile labels and header texts are drawn once and kept (as
masks), each board pastes them; the board is sent in the theme's palette of 255 colours
(render.palette), and the PNG is written here, unfiltered and deflated by ISA-L (a fast
zlib-compatible deflate), which lets go of the GIL while it compresses (see `encode_png`).
"""

from __future__ import annotations

import contextlib
import functools
import io
import struct
import zlib
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from PIL import Image, ImageChops, ImageDraw

from bot.game import DRAW, Card, Game, Move, Outcome
from bot.game.cards import rank_name
from render.captions import BoardCaptions, board_captions, shorten
from render.felt import FELT_ROWS, felt
from render.fonts import font
from render.layouts import Align, BoardLayout, Fan, Spot, layout_for
from render.palette import board_palette, paint_index, paint_indexed, paint_table, quantize
from render.sprites import SHADOW, CardSize, card_back, card_face, empty_slot
from render.themes import RGB, Theme, get_theme

try:  # Intel's ISA-L deflate: the same zlib stream, about 3 times faster at level 1
    from isal import isal_zlib as deflater
except ImportError:  # a machine ISA-L has no wheel for (pyproject installs it only where it has)
    deflater = zlib

STANDARD_CARD = CardSize(90, 126)
PNG_COMPRESS_LEVEL = 1  # deflate level (ISA-L has 0-3): 1 is several times faster than zlib's 6
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Rows are deflated in bands of at most this many bytes: small enough for malloc to serve them
# from its heap (past 128 KiB each buffer is a fresh mmap, and its page faults cost as much as
# the deflating), large enough that the GIL is let go of and taken back only ~10 times a board.
PNG_BAND_BYTES = 120 * 1024
TEXT_CACHE = 4096  # text masks kept (labels, scores, deal numbers, player names: a few KB each)
BACKGROUNDS = 32  # backgrounds kept (a theme, size and labels: about one per layout): 1.5 MB for Canfield
RING_SPACING = 6  # pixels between two rings around one pile
SPRITE_PIECES = 1024  # sprites cut into pieces kept (a sprite, as it shows under each card offset): ~50 KB each
OPAQUE_PIECE = 3000  # an opaque middle at least this many pixels is copied apart from the sprite's blended edges
LAYOUTS_KEPT = 1024  # where the piles go, for so many layouts and counts of their cards
PILE_PARTS = 8192  # piles' parts kept (a pile's cards in one place: a few parts each)
RING_MASKS = 256  # ring masks kept (one per size of area ringed: a card, a waste, a column of some length): ~6 KB each
SOLIDS = 4096  # plain images kept, a colour in a mask's size (`_solid`): a few KB each
PIXELS_KEPT = 8192  # images' pixels kept as bytes for the paint core (`_pixels`): sprites, masks, backgrounds
COPY, BLEND_ALPHA, COLOUR_MASK = 0, 1, 2  # the paint core's ops (render/_paint_core.c): copy RGB, blend RGBA, a colour
# An op of the paint core: its kind, source pixels, their width, the box read from them (x, y, width,
# height), where it goes in the rectangle painted (x, y), and for a colour its mask and the mask's
# width, for pixels their indices in the palette (`_indices`) and the pixels' width.
Op = tuple[int, bytes, int, int, int, int, int, int, int, bytes, int]


@dataclass(frozen=True, slots=True)
class Geometry:
    """Sizes in pixels of a full-size board (Discord shows it at about 400-550 px wide)."""

    card: CardSize = STANDARD_CARD
    gap: int = 10
    margin: int = 12
    header: int = 76
    label: int = 28
    mark: int = 26  # the band of a layout's marks, between the header and the first labels
    fan: int = 34  # downward fan offset when columns are short
    tight_fan: int = 29  # the least offset, when columns grow long: the top strip still shows
    waste_fan: int = 50  # the waste's fan to the right: each covered card shows this wide a strip ("10" fits)
    depth_step: int = 2  # how far each edge of a stacked pile peeks out
    min_rows: int = 6  # the board is at least this many fanned cards tall, so it does not jump
    banner: int = 68  # the outcome banner's height
    ring_reach: int = 10  # how far a pile's outlines (two rings around it) reach beyond its cards

    def x(self, column: float) -> int:
        """The left edge of a pile in `column`."""
        return self.margin + round(column * (self.card.width + self.gap))

    def y(self, row: float) -> int:
        """The top edge of a pile in `row` on the grid (a row starts lower where a column above
        it has grown into it: `Painter._tops`)."""
        return self.header + self.label + round(row * (self.card.height + self.gap + self.label))

    def width(self, layout: BoardLayout) -> int:
        """The board's width."""
        return self.x(layout.columns) - self.gap + self.margin


GEOMETRY = Geometry()
Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass(frozen=True, slots=True)
class Placed:
    """Where one visible card (or an empty pile's outline) was put."""

    x: int
    y: int
    text: str  # the card as in game.piles(), "??" face down, "" an empty pile


@dataclass(frozen=True, slots=True)
class BoardPlan:
    """Where a board's parts go, in pixels: its size; each pile's visible cards, bottom to top
    (an empty pile's outline), and the box its drawing covers (the depth of a stacked pile
    too); the outcome banner's box (None while the game is in play)."""

    size: tuple[int, int]
    cards: dict[str, list[Placed]]
    boxes: dict[str, Box]
    banner: Box | None


def render(game: Game, *, theme: str = "classic", highlight: Move | None = None, losing: Move | None = None,
           player: str | None = None, captions: BoardCaptions | None = None, key: Hashable | None = None) -> bytes:
    """The board as PNG bytes. The last move is outlined (source and target), unless `losing`
    is given; `highlight` outlines another move too, such as a hint; `losing`, in a colour of
    its own, a move not to play (an analysis shows the move that lost a game beside a better
    one); `player` names the player; `captions` are the board's words (render.captions
    `board_captions`: English by default). The PNG is 8-bit indexed, in the theme's palette
    (render.palette): a third of the bytes of RGB, and quicker to write.

    `key` (a game's id): this process keeps the board under it, and the next board drawn with
    that key is drawn from it, only where it differs (render.redraw). The pixels are the same."""
    painter = Painter(game, get_theme(theme), GEOMETRY, captions)
    palette = board_palette(painter.theme)
    painter.compose(highlight, losing, player)
    if key is None:
        return encode_png(painter.indexed(palette))
    from render.redraw import render_again  # it builds on this module

    return render_again(key, painter, palette)


def encode_png(image: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """An RGB or palette ("P") image as PNG bytes: 8-bit RGB, or 8-bit indexed with its palette,
    every row unfiltered, deflated at `level` (by ISA-L, or zlib where ISA-L is not installed).

    Pillow's encoder tries every PNG filter on every row and keeps the best, which costs more
    than the deflating; on a board (flat felt, flat card faces) no filter gives a file as small
    or smaller, in half the time, and zlib releases the GIL while it compresses, so the event
    loop runs meanwhile. Other modes go through Pillow."""
    if image.mode not in ("RGB", "P"):
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=level)
        return buffer.getvalue()
    width, height = image.size
    indexed = image.mode == "P"
    stride = width if indexed else 3 * width
    band = max(1, PNG_BAND_BYTES // (stride + 1))
    deflate = deflater.compressobj(level)
    data = []
    for top in range(0, height, band):
        pixels = memoryview(image.crop((0, top, width, min(height, top + band))).tobytes())
        rows = b"\0" + b"\0".join([pixels[i:i + stride] for i in range(0, len(pixels), stride)])  # filter 0: none
        data.append(deflate.compress(rows))
    data.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 3 if indexed else 2, 0, 0, 0)  # deflate, no interlace
    palette = [png_chunk(b"PLTE", bytes(image.getpalette() or []))] if indexed else []
    return b"".join((PNG_SIGNATURE, png_chunk(b"IHDR", header), *palette, png_chunk(b"IDAT", b"".join(data)),
                     png_chunk(b"IEND", b"")))


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data, CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", deflater.crc32(data, zlib.crc32(kind)))


def render_image(game: Game, *, theme: str = "classic", highlight: Move | None = None, losing: Move | None = None,
                 player: str | None = None, geometry: Geometry = GEOMETRY, in_play: bool = False,
                 captions: BoardCaptions | None = None) -> Image.Image:
    """The board as a Pillow RGB image (what `render` encodes). `in_play`: the position is known
    not to be over (a replay's earlier positions), so no search is made for its outcome banner;
    `captions`: its words (English by default)."""
    painter = Painter(game, get_theme(theme), geometry, captions, in_play=in_play)
    return painter.paint(highlight, losing, player)


def board_size(game: Game, geometry: Geometry = GEOMETRY, in_play: bool = False) -> tuple[int, int]:
    """The width and height in pixels of the game's board as it stands (`render_image`'s size,
    with the same `in_play`): the height grows with the longest column, and with the banner
    of a game that is over where the felt has no room for it."""
    return Painter(game, get_theme("classic"), geometry, in_play=in_play).size


def board_plan(game: Game, geometry: Geometry = GEOMETRY, in_play: bool = False) -> BoardPlan:
    """Where `render_image` puts each part of the game's board (with the same `in_play`)."""
    painter = Painter(game, get_theme("classic"), geometry, in_play=in_play)
    spots = painter.board.spots
    return BoardPlan(painter.size, {spot.pile: painter._place(spot) for spot in spots},
                     {spot.pile: painter.box_of(spot) for spot in spots}, painter.banner)


class Painter:
    """Draws one board; lives for one render. It lays the board out as a list of parts (its
    scene, `compose`), then draws them on the layout's background (`picture`)."""

    def __init__(self, game: Game, theme: Theme, geometry: Geometry, captions: BoardCaptions | None = None,
                 in_play: bool = False) -> None:
        self.game = game
        self.captions = captions or board_captions(game)
        self.theme = theme
        self.geo = geometry
        self.board = layout_for(game.kind)
        self.piles = game.piles()
        # Where the piles go follows from how many cards each holds: worked out once for them.
        counts = tuple([len(self.piles[spot.pile]) for spot in self.board.spots])
        laid_out = _kept(_layouts, LAYOUTS_KEPT, (self.board, geometry, counts), self._laid_out)
        self.fan, self._tops, height = laid_out  # the tops: the cached property's value, as it keeps it
        self.placed: dict[str, list[Placed]] = {}
        self.outcome = None if in_play else game.outcome  # `in_play`: known not to be over, no search
        width = geometry.width(self.board)
        self.banner = None if self.outcome is None else self.banner_box(width, height)
        self.size = (width, height if self.banner is None else max(height, self.banner[3] + geometry.margin))
        self.ringed: Counter[tuple[int, int, int, int]] = Counter()  # the areas ringed, and how often
        self.parts: list[Part] = []

    def _laid_out(self) -> tuple[int, dict[str, int], int]:
        """The columns' fan, each pile's top edge and the board's height (before any banner)."""
        self.fan = self._column_fan()  # the tops and the height depend on it
        return self.fan, self._tops, self._height()

    def paint(self, highlight: Move | None, losing: Move | None, player: str | None) -> Image.Image:
        """The board: its scene (`compose`) drawn (`picture`)."""
        self.compose(highlight, losing, player)
        return self.picture()

    def picture(self, box: Box | None = None) -> Image.Image:
        """The parts drawn so far on the background: the whole board, or the part in `box`."""
        width, height = self.size
        box = box or (0, 0, width, height)
        image = _background(*self.frame()).crop(box)
        paint_parts(self.parts, Canvas(image, box[:2], self.theme, self.geo))
        return image

    def indexed(self, palette: Image.Image, box: Box | None = None) -> Image.Image:
        """The parts drawn so far on the background (the whole board, or the part in `box`) in
        the palette's indices: `quantize(self.picture(box), palette)`, painted as `indices` paints it."""
        width, height = self.size
        box = box or (0, 0, width, height)
        indexed = Image.frombytes("P", (box[2] - box[0], box[3] - box[1]), self.indices(palette, box))
        indexed.putpalette(palette.getpalette() or [])
        return indexed

    def indices(self, palette: Image.Image, box: Box) -> bytes:
        """The palette's index of each pixel of `box` (row after row) as `indexed` draws it: in
        one call of the paint core where it is built and can paint every part there
        (render/_paint_core.c: one release of the GIL, not one a paste), else with Pillow."""
        table = paint_table(self.theme)
        ops = None if table is None else self._ops(box)
        if table is None or ops is None:
            return quantize(self.picture(box), palette).tobytes()
        return paint_indexed((box[2] - box[0], box[3] - box[1]), ops, table)

    def _ops(self, box: Box) -> list[Op] | None:
        """The paint core's ops for the rectangle `box`: the background, then each part that
        reaches into it, bottom first; None if a part there is not one it paints."""
        left, top, right, bottom = box
        background = _background(*self.frame())
        ops: list[Op] = [_pixels_op(COPY, background, (left, top, right - left, bottom - top), (0, 0), self.theme)]
        for part in self.parts:
            x0, y0, x1, y1 = part.box
            if x0 < right and left < x1 and y0 < bottom and top < y1:
                more = _ops_of(part, self.theme, self.geo)
                if more is None:
                    return None
                ops += [(kind, pixels, across, sx, sy, wide, high, dx - left, dy - top, indices, stride)
                        for kind, pixels, across, sx, sy, wide, high, dx, dy, indices, stride in more]
        return ops

    def frame(self) -> tuple[Theme, Geometry, int, int, tuple[tuple[int, int, str], ...]]:
        """What the board's background is made of (`_background`'s arguments): boards with one
        frame differ only in their parts."""
        labels = tuple((*self._label_place(spot), spot.pile) for spot in self.board.spots if not spot.counted)
        return self.theme, self.geo, self.size[0], _rows(self.size[1]), labels

    def compose(self, highlight: Move | None, losing: Move | None, player: str | None) -> list[Part]:
        """The board's parts, bottom layer first (the background is not one of them)."""
        self.parts = []
        self._header(player)
        self._marks()
        for spot in self.board.spots:
            if spot.counted:  # the others' labels are in the background
                self._label(spot)
            self._paint_pile(spot)
        if losing is not None:
            self.outline(losing, self.theme.losing, self.theme.losing, played=False)
        elif self.game.last_move is not None:
            self.outline(self.game.last_move, self.theme.moved_from, self.theme.moved_to, played=True)
        if highlight is not None:
            self.outline(highlight, self.theme.hinted, self.theme.hinted, played=False)
        if self.outcome is not None:
            self.paint_banner(self.outcome)
        return self.parts

    # --- sizes -------------------------------------------------------------------------

    def _column_fan(self) -> int:
        """One fan offset for every column: tighter when a column grows long."""
        longest = max((len(cards) for name, cards in self.piles.items() if self.spot_of(name).fan is Fan.DOWN),
                      default=0)
        roomy = self.geo.fan * (self.geo.min_rows + 1)
        if longest <= self.geo.min_rows + 2:
            return self.geo.fan
        return max(self.geo.tight_fan, roomy // (longest - 1))

    def _height(self) -> int:
        """From the top to below the lowest pile, with room for the last row's columns to grow."""
        geo = self.geo
        bottom = max(self.box_of(spot)[3] for spot in self.board.spots)
        last = max(spot.row for spot in self.board.spots)
        for spot in self.board.spots:
            if spot.fan is Fan.DOWN and spot.row == last:
                bottom = max(bottom, self._tops[spot.pile] + geo.card.height + (geo.min_rows - 1) * geo.fan)
        return bottom + geo.margin

    @functools.cached_property
    def _tops(self) -> dict[str, int]:
        """The top edge of each pile: its row's place on the grid (below the marks' band, if the
        layout has marks), or lower, where a column of an earlier row has grown down into the
        width of some pile of the row: the whole row then starts below that column, its labels
        and cards in line."""
        geo = self.geo
        lead = geo.mark if self.board.marks else 0
        tops: dict[str, int] = {}
        for row in sorted({spot.row for spot in self.board.spots}):
            spots = [spot for spot in self.board.spots if spot.row == row]
            top = geo.y(row) + lead
            for spot in spots:
                left, _, right, _ = self.box_of(spot, 0)
                for above in self.board.spots:
                    if above.row < row and above.fan is Fan.DOWN:
                        x0, _, x1, bottom = self.box_of(above, tops[above.pile])
                        if x0 < right and left < x1:
                            top = max(top, bottom + geo.gap + geo.label)
            tops.update((spot.pile, top) for spot in spots)
        return tops

    def box_of(self, spot: Spot, top: int | None = None) -> Box:
        """What a pile's drawing covers (its cards, the depth of a stack, an empty pile's
        outline), at its top edge or at `top`; a waste always as wide as three cards."""
        geo, count = self.geo, len(self.piles[spot.pile])
        x = geo.x(spot.column)
        y = self._tops[spot.pile] if top is None else top
        width, height = geo.card.width, geo.card.height
        if spot.fan is Fan.DOWN:
            height += max(0, count - 1) * self.fan
        elif spot.fan is Fan.RIGHT3:
            width += 2 * geo.waste_fan
        elif spot.fan is Fan.STACK:
            width += _depth(count) * geo.depth_step
            height += _depth(count) * geo.depth_step
        return x, y, x + width, y + height

    def banner_box(self, width: int, height: int) -> Box:
        """The outcome banner: in the felt under the lowest pile, in the middle of it where it
        has room, else just under that pile (the board grows to hold it). It covers no card,
        outline or ring."""
        geo = self.geo
        top = max(self.box_of(spot)[3] for spot in self.board.spots) + geo.ring_reach + geo.gap
        room = height - geo.margin - top
        if room >= geo.banner:
            top += (room - geo.banner) // 2
        return geo.margin, top, width - geo.margin, top + geo.banner

    def spot_of(self, pile: str) -> Spot:
        return next(spot for spot in self.board.spots if spot.pile == pile)

    # --- piles -------------------------------------------------------------------------

    def _place(self, spot: Spot) -> list[Placed]:
        """Where a pile's visible cards go, bottom to top (an empty pile: its outline)."""
        cards = self.piles[spot.pile]
        x, y = self.geo.x(spot.column), self._tops[spot.pile]
        if not cards:
            return [Placed(x, y, "")]
        if spot.fan is Fan.DOWN:
            return [Placed(x, y + index * self.fan, text) for index, text in enumerate(cards)]
        if spot.fan is Fan.RIGHT3:
            return [Placed(x + index * self.geo.waste_fan, y, text) for index, text in enumerate(cards[-3:])]
        return [Placed(x, y, cards[-1])]

    def _paint_pile(self, spot: Spot) -> None:
        cards = self.piles[spot.pile]
        empty = None if cards else self._empty(spot.pile)  # its words and their colour
        # What shows of the pile: the parts of a stock are the same while its depth is.
        shown = (tuple(cards) if spot.fan is Fan.DOWN else tuple(cards[-3:]) if spot.fan is Fan.RIGHT3
                 else (cards[-1], _depth(len(cards))) if cards and spot.fan is Fan.STACK else tuple(cards[-1:]))
        key = (self.theme, self.geo, spot, shown, self._tops[spot.pile], self.fan if spot.fan is Fan.DOWN else 0, empty)
        parts, self.placed[spot.pile] = _kept(_piles, PILE_PARTS, key, lambda: self._pile_parts(spot, empty))
        self.parts.extend(parts)

    def _pile_parts(self, spot: Spot, empty: tuple[str, RGB | None] | None) -> tuple[list[Part], list[Placed]]:
        """A pile's parts, bottom to top, and where its visible cards go; `empty`: an empty
        pile's words in its outline, and their colour (`_empty`)."""
        placed = self._place(spot)
        if empty is not None:
            words, colour = empty
            sprite = empty_slot(self.theme, self.geo.card, words, colour)
            return [_sprite_part(f"empty {words}", placed[0].x, placed[0].y, _Same(sprite), None)], placed
        cards = self.piles[spot.pile]
        back = card_back(self.theme, self.geo.card)
        depth = _depth(len(cards)) if spot.fan is Fan.STACK else 0
        layers = [("??", back, placed[0].x + step, placed[0].y + step)
                  for step in (layer * self.geo.depth_step for layer in range(depth, 0, -1))]
        faces = [(card.text, self._sprite(card.text), card.x, card.y) for card in placed]
        stack = [*layers, *faces]  # bottom to top
        parts: list[Part] = []
        for index, (name, sprite, x, y) in enumerate(stack):
            above = stack[index + 1][2:] if index + 1 < len(stack) else None
            parts.append(_sprite_part(name, x, y, _Same(sprite), above))
        return parts, placed

    def _sprite(self, text: str) -> Image.Image:
        return card_back(self.theme, self.geo.card) if text == "??" else card_face(
            Card.parse(text), self.theme, self.geo.card)

    def _empty(self, pile: str) -> tuple[str, RGB | None]:
        """The words in an empty pile's outline (what tells it from the other outlines), and
        their colour (None: the outline's own)."""
        if pile.startswith("f"):
            base = self.game.foundation_base(pile)
            return rank_name(base.rank) + base.suit.symbol, _visible_on(self.theme.suits[base.suit], self.theme)
        return ("↻" if pile == "s" and self.game.can_move(DRAW) else ""), None

    # --- words -------------------------------------------------------------------------

    def _label(self, spot: Spot) -> None:
        text = spot.pile
        if spot.counted:
            text += f" · {len(self.piles[spot.pile])}"
        self.parts.append(_label_part(*self._label_place(spot), text, self.geo.label))

    def _label_place(self, spot: Spot) -> tuple[int, int]:
        """The top left corner of a pile's label: above the pile, wherever its row starts."""
        return self.geo.x(spot.column), self._tops[spot.pile] - self.geo.label + 2

    def _text(self, xy: tuple[int, int], text: str, size: int, fill: tuple[int, int, int], anchor: str,
              bold: bool = True) -> None:
        """`ImageDraw.text` at a whole-pixel point, with the text's mask drawn once and kept."""
        self.parts.append(_text_part(*xy, text, size, fill, anchor, bold))

    def _header(self, player: str | None) -> None:
        game, theme, geo = self.game, self.theme, self.geo
        width = self.size[0]  # the header's band is in the background
        words = self.captions
        deal, size, deal_size = words.deal, 28, 22

        def crowded() -> bool:
            return (_length(words.title, size, True) + round(_length(deal, deal_size, False)) + 24
                    + _length(words.score, size, True) > width - 2 * geo.margin)

        while size > 16 and crowded():  # a longer language's words: smaller, side by side
            size -= 2
        while deal_size > 14 and crowded():  # a long deal's name (a match's round) next
            deal_size -= 2
        while len(deal) > 2 and crowded():  # and at worst shortened: never over the score
            deal = shorten(deal, len(deal) - 1)
        self._text((geo.margin, 22), words.title, size, theme.text, "lm")
        deal_x = geo.margin + round(_length(words.title, size, True)) + 12
        self._text((deal_x, 24), deal, deal_size, theme.muted, "lm", bold=False)
        self._text((width - geo.margin, 22), words.score, size, theme.text, "rm")
        details = f"{words.passes} · " + (f"{words.base} · " if words.base is not None else "")
        x = geo.margin
        if game.die_roll is not None:
            details += words.die
            self._text((x, 53), details, 20, theme.muted, "lm", bold=False)
            x += round(_length(details, 20, False)) + 6
            self._die(x, 42, 22, game.die_roll)
            x += 22 + 6
            details = ""
        details += words.draw
        self._text((x, 53), details, 20, theme.muted, "lm", bold=False)
        if player:
            name, room = shorten(player, 28), width - geo.margin - (x + _length(details, 20, False) + 12)
            while len(name) > 2 and _length(name, 20, True) > room:  # the name gives way to the details
                name = shorten(name, len(name) - 1)
            if _length(name, 20, True) <= room:  # else no room at all: the details are drawn, not overwritten
                self._text((width - geo.margin, 53), name, 20, theme.text, "rm")

    def _die(self, x: int, y: int, size: int, roll: int) -> None:
        """A die face showing `roll`: the Die of Justice."""
        self.parts.append(_die_part(x, y, size, roll))

    def _marks(self) -> None:
        """The layout's marks in their band over the first row: which way the columns under
        them build (each gets half the board's width, and a smaller size if its words need)."""
        geo = self.geo
        room = (self.size[0] - 2 * geo.margin - geo.gap) // 2
        middle = geo.header + geo.mark // 2 - 1
        for mark in self.board.marks:
            words = getattr(self.captions, mark.caption)
            size = 19
            while size > 13 and _length(words, size, True) > room:
                size -= 1
            if mark.align is Align.LEFT:
                self._text((geo.x(mark.column), middle), words, size, self.theme.text, "lm")
            else:
                self._text((geo.x(mark.column) + geo.card.width, middle), words, size, self.theme.text, "rm")

    # --- highlights --------------------------------------------------------------------

    def outline(self, move: Move, from_colour: tuple[int, int, int], to_colour: tuple[int, int, int],
                 played: bool) -> None:
        """Outline a move's two ends: once played, the source's new top and the cards put down;
        before (a hint), the cards to move and the place they go."""
        count = self.game.draw_count if move.is_draw else move.count
        moved_from, moved_to = (1, count) if played else (count, 1)
        self._ring(self._area(move.src, moved_from), from_colour, 2)
        self._ring(self._area(move.dst, moved_to), to_colour, 3)

    def _area(self, pile: str, count: int) -> tuple[int, int, int, int] | None:
        placed = self.placed.get(pile)
        if not placed:
            return None
        first = placed[max(0, len(placed) - count)]
        last = placed[-1]
        return first.x, first.y, last.x + self.geo.card.width, last.y + self.geo.card.height

    def _ring(self, area: tuple[int, int, int, int] | None, colour: tuple[int, int, int], width: int) -> None:
        """Ring an area; an area ringed already (two moves through one pile) gets a wider ring
        around the first, so that both show."""
        if area is None:
            return
        outside = RING_SPACING * self.ringed[area]
        self.ringed[area] += 1
        ringed = (area[0] - outside, area[1] - outside, area[2] + outside, area[3] + outside)
        self.parts.append(_ring_part(ringed, colour, width, self.geo.card.radius + 3))

    def paint_banner(self, outcome: Outcome) -> None:
        won = outcome is Outcome.WON
        text = self.captions.won if won else self.captions.blocked
        colour = self.theme.won if won else self.theme.blocked
        box = self.banner
        assert box is not None, "a banner has its box once the game is over"
        size = 34 if won else 26
        while size > 16 and font(size).getlength(text) > box[2] - box[0] - 24:  # a longer language's words
            size -= 2
        self.parts.append(_banner_part(box, text, size, colour))


# --- a board's parts --------------------------------------------------------------------
# A board is drawn as a list of parts, bottom first (its scene): each a small frozen value that
# says what it draws where, and can draw itself on any rectangle of the board. Two boards of a
# game can be compared part by part (render.redraw draws only where they differ).


@dataclass(slots=True)
class Canvas:
    """Where parts are drawn: an image holding the board's rectangle from `origin` (the whole
    board, or a part of it), and what the parts draw with."""

    image: Image.Image
    origin: tuple[int, int]
    theme: Theme
    geo: Geometry
    draw: ImageDraw.ImageDraw = field(init=False)

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def at(self, x: int, y: int) -> tuple[int, int]:
        """A board point in the canvas's pixels."""
        return x - self.origin[0], y - self.origin[1]

    def shifted(self, box: Sequence[int]) -> tuple[int, int, int, int]:
        """A board box in the canvas's pixels."""
        x, y = self.origin
        return box[0] - x, box[1] - y, box[2] - x, box[3] - y


@dataclass(frozen=True, slots=True)
class Sprite:
    """A card's face or back, or an empty pile's outline, its card's top left corner at x, y;
    `name` tells the sprite apart (a card's text, "??" a back, an outline's words and colour).
    `under`: where the card put on it lies, if any (only what that card leaves showing is drawn)."""

    name: str
    x: int
    y: int
    sprite: Image.Image = field(compare=False)
    under: tuple[int, int] | None = field(compare=False, default=None)

    @property
    def box(self) -> Box:
        """The pixels it may draw on."""
        width, height = self.sprite.size
        return self.x - SHADOW, self.y - SHADOW, self.x - SHADOW + width, self.y - SHADOW + height

    def paint(self, canvas: Canvas) -> None:
        """Draw it: its pieces (`_pieces`), each blended through its alpha, or copied where it is opaque."""
        x, y = canvas.at(self.x - SHADOW, self.y - SHADOW)
        above = None if self.under is None else (self.under[0] - self.x + SHADOW, self.under[1] - self.y + SHADOW)
        for (left, top), piece, mask in _pieces(_Same(self.sprite), above, canvas.geo.card):
            _paste(canvas.image, piece, (x + left, y + top), mask)

    def ops(self, theme: Theme, geo: Geometry) -> list[Op] | None:
        """What `paint` does, as the paint core's ops (render.palette `paint_indexed`), placed on
        the board (`Painter._ops` shifts them to a rectangle's corner)."""
        x, y = self.x - SHADOW, self.y - SHADOW
        above = None if self.under is None else (self.under[0] - self.x + SHADOW, self.under[1] - self.y + SHADOW)
        return [_pixels_op(BLEND_ALPHA if piece.mode == "RGBA" else COPY, piece, (0, 0, *piece.size),
                           (x + left, y + top), theme)
                for (left, top), piece, _ in _pieces(_Same(self.sprite), above, geo.card)]


class _Same:
    """An image that is equal only to itself (the caches of pieces of sprites are keyed by it)."""

    __slots__ = ("image",)

    def __init__(self, image: Image.Image) -> None:
        self.image = image

    def __hash__(self) -> int:
        return id(self.image)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.image is self.image


@functools.lru_cache(maxsize=SPRITE_PIECES)
def _pieces(sprite: _Same, above: tuple[int, int] | None, card: CardSize
            ) -> list[tuple[tuple[int, int], Image.Image, Image.Image | None]]:
    """The pieces of a sprite to paste, each with its top left corner in the sprite and its mask
    (itself, where it blends; None where it is copied): the parts a
    card lying at `above` (in the sprite's pixels) leaves showing (`_uncovered`), or all of it;
    a large opaque middle apart, as RGB, to be copied rather than blended (the same pixels,
    sooner), and the rest as RGBA."""
    image = sprite.image
    inner = _opaque_box(image) or (0, 0, 0, 0)
    opaque = inner[0] < inner[2]
    boxes = [(0, 0, *image.size)] if above is None else _uncovered(image.size, above, card)
    pieces: list[tuple[Box, bool]] = []  # each box, and whether it is opaque
    for box in boxes:
        left, top = max(box[0], inner[0]), max(box[1], inner[1])
        right, bottom = min(box[2], inner[2]), min(box[3], inner[3])
        if not opaque or right <= left or bottom <= top or (right - left) * (bottom - top) < OPAQUE_PIECE:
            pieces.append((box, False))
            continue
        around = [(box[0], box[1], box[2], top), (box[0], bottom, box[2], box[3]), (box[0], top, left, bottom),
                  (right, top, box[2], bottom)]
        pieces += [(side, False) for side in around if side[0] < side[2] and side[1] < side[3]]
        pieces.append(((left, top, right, bottom), True))
    cut = [((box[0], box[1]), image.crop(box).convert("RGB") if whole else image.crop(box)) for box, whole in pieces]
    return [(corner, piece, piece if piece.mode == "RGBA" else None) for corner, piece in cut]


def _opaque_box(image: Image.Image) -> Box | None:
    """The box about the middle of an RGBA sprite where every pixel is opaque: as wide and as
    tall as the opaque runs through its middle row and column, less the edges that hold a pixel
    that is not (a card's rounded corners, an inner line drawn faint); None if there is none."""
    if image.mode != "RGBA":
        return None
    alpha = image.getchannel("A")
    width, height = alpha.size
    row = alpha.crop((0, height // 2, width, height // 2 + 1)).tobytes()
    column = alpha.crop((width // 2, 0, width // 2 + 1, height)).tobytes()
    if row[width // 2] != 255:
        return None
    left, right = _opaque_run(row, width // 2)
    top, bottom = _opaque_run(column, height // 2)
    while left < right and top < bottom:
        shrink = [alpha.crop(edge).getextrema() != (255, 255) for edge in (
            (left, top, left + 1, bottom), (left, top, right, top + 1),
            (right - 1, top, right, bottom), (left, bottom - 1, right, bottom))]
        if not any(shrink):  # and the inside, as a whole
            return (left, top, right, bottom) if alpha.crop((left, top, right, bottom)).getextrema() == (255, 255) \
                else None
        left, top, right, bottom = left + shrink[0], top + shrink[1], right - shrink[2], bottom - shrink[3]
    return None


def _opaque_run(values: bytes, middle: int) -> tuple[int, int]:
    """Where the run of 255s through `values[middle]` (one) starts and ends (past its last)."""
    start, end = middle, middle + 1
    while start > 0 and values[start - 1] == 255:
        start -= 1
    while end < len(values) and values[end] == 255:
        end += 1
    return start, end


@dataclass(frozen=True, slots=True)
class Text:
    """A text, drawn as `ImageDraw.text` draws it at the whole-pixel point x, y."""

    x: int
    y: int
    text: str
    size: int
    fill: tuple[int, int, int]
    anchor: str
    bold: bool = True
    box: Box = field(init=False, compare=False, repr=False)  # the pixels it may draw on

    def __post_init__(self) -> None:
        mask, left, top = _text_mask(self.text, self.size, self.bold, self.anchor)
        box = (self.x, self.y, self.x, self.y) if mask is None else (
            self.x + left, self.y + top, self.x + left + mask.width, self.y + top + mask.height)
        object.__setattr__(self, "box", box)  # worked out once: the part is kept (`_text_part`)

    def paint(self, canvas: Canvas) -> None:
        """Draw it."""
        _paste_text(canvas.image, canvas.at(self.x, self.y), self.text, self.size, self.fill, self.anchor, self.bold)

    def ops(self, theme: Theme, geo: Geometry) -> list[Op] | None:
        """What `paint` does, as the paint core's ops (`Sprite.ops`)."""
        return _text_ops((self.x, self.y), self.text, self.size, self.fill, self.anchor, self.bold)


@dataclass(frozen=True, slots=True)
class Label:
    """A pile's label, its tag and text, its top left corner at x, y."""

    x: int
    y: int
    text: str
    height: int  # the geometry's label band
    box: Box = field(init=False, compare=False, repr=False)  # the pixels it may draw on: the tag, and the text

    def __post_init__(self) -> None:
        right, bottom = self.x + round(_length(self.text, 19, True)) + 15, self.y + self.height - 5  # `_label_tag`
        words = Text(*_label_text_place(self.x, self.y, self.height), self.text, 19, (0, 0, 0), "lm").box
        box = min(self.x, words[0]), min(self.y, words[1]), max(right, words[2]), max(bottom, words[3])
        object.__setattr__(self, "box", box)  # the text may reach out of the tag; worked out once (`_label_part`)

    def paint(self, canvas: Canvas) -> None:
        """Draw it."""
        _paste_label(canvas.image, canvas.at(self.x, self.y), self.text, canvas.theme, canvas.geo)

    def ops(self, theme: Theme, geo: Geometry) -> list[Op] | None:
        """What `paint` does, as the paint core's ops (`Sprite.ops`)."""
        x, y = self.x, self.y
        tag = _label_tag(self.text, theme.tag[3], self.height)
        return [_colour_op(theme.tag[:3], tag, (x, y)),
                *_text_ops(_label_text_place(x, y, self.height), self.text, 19, theme.text, "lm", True)]


@dataclass(frozen=True, slots=True)
class Die:
    """A die face showing `roll`, its top left corner at x, y: the Die of Justice."""

    x: int
    y: int
    size: int
    roll: int

    @property
    def box(self) -> Box:
        """The pixels it may draw on."""
        return self.x, self.y, self.x + self.size + 1, self.y + self.size + 1

    def ops(self, theme: Theme, geo: Geometry) -> list[Op] | None:
        """None: it is drawn with ImageDraw (`paint`), which the paint core does not do."""
        return None

    def paint(self, canvas: Canvas) -> None:
        """Draw it."""
        x, y = canvas.at(self.x, self.y)
        size, theme = self.size, canvas.theme
        canvas.draw.rounded_rectangle((x, y, x + size, y + size), radius=4, fill=theme.face, outline=theme.face_edge)
        step, r = size / 4, max(1.5, size / 11)
        for column, row in DIE_PIPS[self.roll]:
            cx, cy = x + step * (column + 1), y + step * (row + 1)
            canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 30, 34))


@dataclass(frozen=True, slots=True)
class Ring:
    """An outline around an area (left, top, right, bottom), in `colour`, `width` pixels wide,
    with a faint glow outside it."""

    area: Box
    colour: tuple[int, int, int]
    width: int
    radius: int

    @property
    def box(self) -> Box:
        """The pixels it may draw on."""
        x0, y0, x1, y1 = self.area
        return x0 - 5, y0 - 5, x1 + 5, y1 + 5

    def paint(self, canvas: Canvas) -> None:
        """Draw it (its colour through the ring's mask, `_ring_mask`)."""
        x0, y0, x1, y1 = self.area
        x, y = canvas.at(x0 - 5, y0 - 5)
        for (left, top), mask in _ring_mask(x1 - x0, y1 - y0, self.radius, self.width):
            _paste(canvas.image, self.colour, (x + left, y + top), mask)

    def ops(self, theme: Theme, geo: Geometry) -> list[Op] | None:
        """What `paint` does, as the paint core's ops (`Sprite.ops`)."""
        x0, y0, x1, y1 = self.area
        x, y = x0 - 5, y0 - 5
        return [_colour_op(self.colour, mask, (x + left, y + top))
                for (left, top), mask in _ring_mask(x1 - x0, y1 - y0, self.radius, self.width)]


@dataclass(frozen=True, slots=True)
class Banner:
    """The outcome's banner: a rounded band over `area` in `colour`, `text` in its middle."""

    area: Box
    text: str
    size: int
    colour: tuple[int, int, int]

    @property
    def box(self) -> Box:
        """The pixels it may draw on."""
        x0, y0, x1, y1 = self.area
        return x0, y0, x1 + 1, y1 + 1

    def ops(self, theme: Theme, geo: Geometry) -> list[Op] | None:
        """None: it is drawn with ImageDraw (`paint`), which the paint core does not do."""
        return None

    def paint(self, canvas: Canvas) -> None:
        """Draw it."""
        x0, y0, x1, y1 = canvas.shifted(self.area)
        canvas.draw.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=(*self.colour, 235),
                                      outline=(255, 255, 255, 160), width=2)
        canvas.draw.text(((x0 + x1) // 2, (y0 + y1) // 2), self.text, font=font(self.size), fill=(255, 255, 255),
                         anchor="mm")


Part = Sprite | Text | Label | Die | Ring | Banner
# A board's parts are made once and kept while they are in use (its piles' in `_piles`, by the
# pile's cards and place; its words and rings by their values here), so that the parts two boards
# of a game share are the same objects: render.redraw compares them by identity.
_text_part = functools.lru_cache(maxsize=TEXT_CACHE)(Text)
_label_part = functools.lru_cache(maxsize=TEXT_CACHE)(Label)
_ring_part = functools.lru_cache(maxsize=RING_MASKS)(Ring)
_die_part = functools.lru_cache(maxsize=64)(Die)
_banner_part = functools.lru_cache(maxsize=64)(Banner)


@functools.lru_cache(maxsize=PILE_PARTS)
def _sprite_part(name: str, x: int, y: int, sprite: _Same, under: tuple[int, int] | None) -> Sprite:
    """A sprite's part, kept: the same object for the same sprite, place and card over it."""
    return Sprite(name, x, y, sprite.image, under)


_piles: OrderedDict[tuple[object, ...], tuple[list[Part], list[Placed]]] = OrderedDict()  # Painter._paint_pile
_layouts: OrderedDict[tuple[object, ...], tuple[int, dict[str, int], int]] = OrderedDict()  # Painter.__init__
# Parts' ops (`_ops_of`), by the ids of the part, theme and geometry: kept with them, so that no other
# object can have those ids while the entry stays.
_part_ops: OrderedDict[tuple[object, ...], tuple[Part, Theme, Geometry, list[Op] | None]] = OrderedDict()
Kept = TypeVar("Kept")


def _kept(cache: OrderedDict[tuple[object, ...], Kept], most: int, key: tuple[object, ...],
          make: Callable[[], Kept]) -> Kept:
    """`cache[key]`, made by `make` the first time, the least recently used let go past `most`
    values. Drawing threads may share it: at worst a value is made twice."""
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
        if len(cache) > most:
            with contextlib.suppress(KeyError):  # emptied meanwhile by another thread
                cache.popitem(last=False)
    else:
        with contextlib.suppress(KeyError):  # let go meanwhile by another thread
            cache.move_to_end(key)
    return value
DIE_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}


def paint_parts(parts: Sequence[Part], canvas: Canvas) -> None:
    """Draw the parts that reach into the canvas, bottom first, each clipped to it."""
    left, top = canvas.origin
    right, bottom = left + canvas.image.width, top + canvas.image.height
    for part in parts:
        x0, y0, x1, y1 = part.box
        if x0 < right and left < x1 and y0 < bottom and top < y1:
            part.paint(canvas)


@functools.lru_cache(maxsize=BACKGROUNDS)
def _background(theme: Theme, geometry: Geometry, width: int, height: int,
                labels: tuple[tuple[int, int, str], ...]) -> Image.Image:
    """What the boards of a layout share, `height` pixels tall (a board's own height or more: it
    crops its own): the woven felt, the header's band, and `labels` (the left, top and text of
    each pile's label that is not counted, where its row starts). Kept, never drawn on: a board
    starts from a copy."""
    image = felt(theme, (width, height))
    ImageDraw.Draw(image).rectangle((0, 0, width, geometry.header - 8), fill=theme.felt_edge)
    for x, y, text in labels:
        _paste_label(image, (x, y), text, theme, geometry)
    return image


def _rows(height: int) -> int:
    """The height of the background a board of `height` crops: a multiple of FELT_ROWS, so that
    boards a little taller or shorter share one."""
    return -(-height // FELT_ROWS) * FELT_ROWS


def _paste_label(image: Image.Image, corner: tuple[int, int], text: str, theme: Theme, geometry: Geometry) -> None:
    """A pile's label, its tag and `text`, its top left corner at `corner`."""
    x, y = corner
    _paste(image, theme.tag[:3], (x, y), _label_tag(text, theme.tag[3], geometry.label))
    _paste_text(image, _label_text_place(x, y, geometry.label), text, 19, theme.text, "lm", True)


def _label_text_place(x: int, y: int, height: int) -> tuple[int, int]:
    """Where a label's text is drawn (anchored left and middle), for a label at x, y in a band
    `height` pixels tall."""
    return x + 7, y + (height - 6) // 2


def _paste_text(image: Image.Image, xy: tuple[int, int], text: str, size: int, fill: tuple[int, int, int],
                anchor: str, bold: bool) -> None:
    """Paste `fill` through the text's mask (`_text_mask`): as `ImageDraw.text` draws at `xy`."""
    mask, left, top = _text_mask(text, size, bold, anchor)
    if mask is not None:
        _paste(image, fill, (xy[0] + left, xy[1] + top), mask)


def _text_ops(xy: tuple[int, int], text: str, size: int, fill: tuple[int, int, int], anchor: str,
              bold: bool) -> list[Op]:
    """What `_paste_text` does, as the paint core's ops."""
    mask, left, top = _text_mask(text, size, bold, anchor)
    return [] if mask is None else [_colour_op(fill, mask, (xy[0] + left, xy[1] + top))]


def _colour_op(colour: tuple[int, ...], mask: Image.Image, corner: tuple[int, int]) -> Op:
    """The paint core's op that pastes `colour` through an "L" `mask` at `corner`."""
    return (COLOUR_MASK, _colour_bytes(colour[:3]), 0, 0, 0, mask.width, mask.height, corner[0], corner[1],
            _pixels(_Same(mask)), mask.width)


def _ops_of(part: Part, theme: Theme, geo: Geometry) -> list[Op] | None:
    """A part's ops (`ops`), kept for the part (by identity) in the theme and geometry (a label's
    colours are the theme's, a sprite's indices its palette's)."""
    return _kept(_part_ops, PILE_PARTS, (id(part), id(theme), id(geo)),
                 lambda: (part, theme, geo, part.ops(theme, geo)))[3]


def _pixels_op(kind: int, image: Image.Image, box: tuple[int, int, int, int], corner: tuple[int, int],
               theme: Theme) -> Op:
    """The paint core's op that copies (`COPY`, RGB) or blends (`BLEND_ALPHA`, RGBA) the part of
    `image` in `box` (x, y, width, height) to `corner`, with the image's indices in the theme's palette."""
    same = _Same(image)
    return (kind, _pixels(same), image.width, *box, *corner, _indices(same, theme), image.width)


@functools.lru_cache(maxsize=PIXELS_KEPT)
def _indices(image: _Same, theme: Theme) -> bytes:
    """An RGB or RGBA image's index in the theme's palette of each pixel (its alpha aside), kept:
    where the image is opaque, the index of what it paints."""
    table = paint_table(theme)
    assert table is not None  # asked for by the paint core's ops only
    return paint_index(_pixels(image), 4 if image.image.mode == "RGBA" else 3, table)


@functools.lru_cache(maxsize=SOLIDS)
def _colour_bytes(colour: tuple[int, ...]) -> bytes:
    return bytes(colour)


@functools.lru_cache(maxsize=PIXELS_KEPT)
def _pixels(image: _Same) -> bytes:
    """An image's pixels as the paint core reads them (Pillow's `tobytes`: 3 bytes a pixel for
    RGB, 4 for RGBA, 1 for L), kept while the image is."""
    return image.image.tobytes()


def _paste(image: Image.Image, source: Image.Image | tuple[int, ...], corner: tuple[int, int],
           mask: Image.Image | None) -> None:
    """`image.paste(source, corner, mask)` straight to Pillow's core, for an RGB image of a board
    being drawn (its own, loaded) and a colour or a loaded image of its mode or RGBA (a mask's
    size when there is one): the same pixels, without the checks `Image.paste` makes each time
    (a board is drawn in some 45 pastes, and they were a tenth of its time). A colour is pasted as
    a plain image of it (`_solid`): Pillow blends an image through a mask in well under half the
    time it blends a colour, to the same pixels on RGB."""
    width, height = (source if mask is None else mask).size  # type: ignore[union-attr]  # a colour has a mask
    box = (corner[0], corner[1], corner[0] + width, corner[1] + height)
    if mask is None:
        image.im.paste(source if isinstance(source, tuple) else source.im, box)
    else:
        pixels = _solid(source, width, height) if isinstance(source, tuple) else source
        image.im.paste(pixels.im, box, mask.im)


@functools.lru_cache(maxsize=SOLIDS)
def _solid(colour: tuple[int, ...], width: int, height: int) -> Image.Image:
    """A plain RGB image of `colour`, `width` by `height`, kept."""
    return Image.new("RGB", (width, height), colour[:3])


@functools.lru_cache(maxsize=TEXT_CACHE)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image | None, int, int]:
    """The coverage mask of a text as `ImageDraw.text` draws it at a whole-pixel point, with the
    offset of its top left corner from that point (None for text that shows nothing). Pasting
    a colour through it (`Image.paste(colour, box, mask)`) blends exactly as `ImageDraw.text` does."""
    face = font(size, bold)
    left, top, right, bottom = (int(edge) for edge in face.getbbox(text, anchor=anchor))  # whole pixels already
    if right <= left or bottom <= top:
        return None, 0, 0
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=face, anchor=anchor)
    return mask, left, top


@functools.lru_cache(maxsize=RING_MASKS)
def _ring_mask(width: int, height: int, radius: int, line: int) -> list[tuple[tuple[int, int], Image.Image]]:
    """The mask of a ring (`Ring`) around an area `width` by `height`, 5 pixels wider on each
    side: its glow, a rounded outline `line` + 3 pixels wide at alpha 90, and inside it the
    ring itself, `line` pixels wide and opaque. Pasting a colour through it blends exactly as
    drawing the two outlines does (ImageDraw does not smooth them: where the ring lies, its
    colour covers the glow's). As the top left corner and mask of each of its four sides: the
    empty middle is left out."""
    glow = Image.new("L", (width + 10, height + 10), 0)
    ImageDraw.Draw(glow).rounded_rectangle((0, 0, width + 9, height + 9), radius=radius + 2, outline=90, width=line + 3)
    ring = Image.new("L", glow.size, 0)
    ImageDraw.Draw(ring).rounded_rectangle((2, 2, width + 7, height + 7), radius=radius, outline=255, width=line)
    mask = ImageChops.lighter(glow, ring)
    across, down = mask.size
    band, corner = line + 3, max(radius + 3, line + 3)  # the sides' width; the corners' reach
    if 2 * corner >= down or 2 * band >= across or mask.crop((band, corner, across - band, down - corner)).getbbox():
        return [((0, 0), mask)]
    sides = [(0, 0, across, corner), (0, down - corner, across, down), (0, corner, band, down - corner),
             (across - band, corner, across, down - corner)]
    return [(side[:2], mask.crop(side)) for side in sides]


@functools.lru_cache(maxsize=TEXT_CACHE)
def _length(text: str, size: int, bold: bool) -> float:
    """The advance width of a text in pixels (`FreeTypeFont.getlength`), kept."""
    return font(size, bold).getlength(text)


@functools.lru_cache(maxsize=TEXT_CACHE)
def _label_tag(text: str, alpha: int, height: int) -> Image.Image:
    """The rounded tag behind a pile's label, its top left corner the label's, as a mask of
    `alpha`: pasting the tag's colour through it blends as drawing the tag does, on the woven
    felt as on plain. The label's text is pasted over it (`Painter._text`)."""
    width = round(_length(text, 19, True))
    mask = Image.new("L", (width + 15, height - 5), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width + 14, height - 6), radius=9, fill=alpha)
    return mask


def _depth(count: int) -> int:
    """How many card backs peek out under a stacked pile of `count` cards."""
    return min(3, (count + 3) // 5)


def _uncovered(size: tuple[int, int], above: tuple[int, int], card: CardSize) -> list[Box]:
    """The boxes of a sprite of `size` that a card whose top left corner lies at `above` (in the
    sprite's pixels) leaves showing: the sprite less the card's fully opaque inside (its body
    less a margin for the rounded corners and the anti-aliased edge)."""
    width, height = size
    margin = card.radius + 2
    left, top = max(0, above[0] + margin), max(0, above[1] + margin)
    right, bottom = min(width, above[0] + card.width - margin), min(height, above[1] + card.height - margin)
    if left >= right or top >= bottom:
        return [(0, 0, width, height)]
    boxes = [(0, 0, width, top), (0, bottom, width, height), (0, top, left, bottom), (right, top, width, bottom)]
    return [box for box in boxes if box[0] < box[2] and box[1] < box[3]]


def _visible_on(colour: tuple[int, int, int], theme: Theme) -> tuple[int, int, int]:
    """The colour itself where it stands out on the felt, else the theme's muted text colour."""
    distance = sum((a - b) ** 2 for a, b in zip(colour, theme.felt, strict=True)) ** 0.5
    return colour if distance >= 60 else theme.muted

