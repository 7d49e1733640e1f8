"""A game's next board drawn from its last one: only what changed is drawn, quantized and deflated.

Most moves change a few cards: a draw, the stock, the waste, a label's count, the rings of the
last move and a few words of the header. So for each game (by a key its caller gives, the
game's id) the process that draws keeps its last board: the parts it was drawn from (its scene,
render.board `Part`) and the PNG's rows (the board in the theme's palette, each row after its
filter byte) deflated in bands, some 40 KB a board. The next board of that game is compared
part by part with the last: the boxes of the parts that went or came are merged into a few
rectangles, and only those are drawn again (every part that reaches into them, bottom first,
clipped) and quantized; only the bands they touch are inflated, written into and deflated again.

Each band, or each run of bands written into together, is deflated on its own (raw deflate
ending in a full flush, which forgets what came before), so they can be put together in any
combination; the zlib stream is a header, the bands, an empty final block, and the Adler-32 of
all the rows (put together from each deflated run's). A run is deflated in one call: a draw's
five bands are one Huffman table and, for a drawing thread, one release of the GIL, not five.
The bands a board was last written into are also kept as rows (not deflated), since the game's
next board most likely changes the same ones (a draw: the stock and waste), for the most recently
drawn boards, within RAW_BYTES a process: those need no inflating.
The pixels are exactly those `render` draws without the cache (tests/render/test_redraw.py).
"""

from __future__ import annotations

import itertools
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from render.board import PNG_COMPRESS_LEVEL, PNG_SIGNATURE, Box, Painter, Part, deflater, png_chunk
from render.palette import put_indices

BAND_ROWS = 48  # rows deflated together: a draw touches ~250 rows of the ~580 (header, stock, waste)
GAMES = 1024  # boards kept per process, the least recently drawn let go first: ~40 KB of bands each
TEMPLATES = 16  # a game's first board starts from the most recent of this many kept boards in its frame
MERGE_GAP = 24  # dirty boxes nearer each other than this are drawn as one rectangle
MOST_RECTANGLES = 8  # more than this, and the dirty boxes are drawn as their bounding box
ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, fastest
FINAL_BLOCK = b"\x03\x00"  # an empty fixed-Huffman block marked last
RAW_BYTES = 48 << 20  # the boards' bands kept as rows in a process, at most: some 200 KB a board after a draw


@dataclass(slots=True)
class _Band:
    """Bands of rows deflated together on their own (`count` of them from band `first`), their
    Adler-32 and length."""

    deflated: bytes
    adler: int
    length: int
    first: int
    count: int = 1


@dataclass(slots=True)
class _Board:
    """A game's last board, as kept."""

    frame: tuple[object, ...]  # its size and background (render.board `Painter.frame`): its theme, hence palette
    parts: list[Part]
    bands: list[_Band]  # never changed: a next board has a list of its own, sharing the bands that stayed
    head: bytes  # the PNG up to its IDAT: signature, IHDR, PLTE
    # The bands last deflated again, by index, as rows (each after its filter byte, as `_again`
    # writes them): the board's own, written into by its next drawing (never by another game's).
    rows: dict[int, bytearray] = field(default_factory=dict)

    @property
    def rows_bytes(self) -> int:
        """The bytes its rows hold."""
        return sum(len(rows) for rows in self.rows.values())


_boards: OrderedDict[Hashable, _Board] = OrderedDict()
_with_rows: OrderedDict[Hashable, None] = OrderedDict()  # the keys of boards kept with rows, least recent first
_rows_bytes = 0  # what the kept boards' rows hold (`_Board.rows`), within RAW_BYTES
_lock = threading.Lock()


def render_again(key: Hashable, painter: Painter, palette: Image.Image) -> bytes:
    """The PNG of the board `painter` has composed (its parts), drawn from the last board kept
    under `key` where it can be (same size, theme and background), else from a copy of another
    game's recent board that can be (a game's first board: the felt, the header band and most
    labels are there already), else whole; kept in its place. The same pixels as drawing it whole."""
    global _rows_bytes
    frame = (*painter.frame(), painter.size)
    with _lock:
        last = _boards.pop(key, None)  # taken out while it is redrawn: a second drawing at once starts afresh
        own = last is not None and last.frame == frame
        if last is not None:
            _rows_bytes -= last.rows_bytes
        if not own:  # a recent board of another game in the same frame, copied
            recent = itertools.islice(reversed(_boards.values()), TEMPLATES)
            last = next((board for board in recent if board.frame == frame), None)
    if last is None:
        board = _whole(painter, frame, palette)
    else:
        board = _again(last, painter, palette, last.rows if own else {})
    with _lock:
        _boards[key] = board
        _rows_bytes += board.rows_bytes
        if board.rows:
            _with_rows[key] = None
            _with_rows.move_to_end(key)
        while len(_boards) > GAMES:
            gone, kept = _boards.popitem(last=False)
            _rows_bytes -= kept.rows_bytes
            _with_rows.pop(gone, None)
        while _rows_bytes > RAW_BYTES and _with_rows:  # the least recently drawn boards' rows go first
            kept = _boards.get(_with_rows.popitem(last=False)[0])
            if kept is not None:
                _rows_bytes -= kept.rows_bytes
                kept.rows = {}
    return _png(board)


def forget() -> None:
    """Let every kept board go."""
    global _rows_bytes
    with _lock:
        _boards.clear()
        _with_rows.clear()
        _rows_bytes = 0


def rows_bytes() -> int:
    """The bytes the kept boards' rows hold (at most RAW_BYTES, and one board's more)."""
    return _rows_bytes


def kept() -> list[Hashable]:
    """The keys of the boards kept, the least recently drawn first."""
    return list(_boards)


def kept_png(key: Hashable) -> bytes | None:
    """The PNG kept for `key`'s board, as its next drawing starts from it; None if none is kept."""
    board = _boards.get(key)
    return None if board is None else _png(board)


def _whole(painter: Painter, frame: tuple[object, ...], palette: Image.Image) -> _Board:
    width, height = painter.size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indexed, deflate, no interlace
    head = PNG_SIGNATURE + png_chunk(b"IHDR", header) + png_chunk(b"PLTE", bytes(palette.getpalette() or []))
    rows = bytearray((width + 1) * height)  # each row after its filter byte, 0: none
    put_indices(rows, width + 1, (1, 0), painter.indices(palette, (0, 0, width, height)), width)
    deflate = deflater.compressobj(PNG_COMPRESS_LEVEL, zlib.DEFLATED, -15)  # raw deflate: no header, no checksum
    band = BAND_ROWS * (width + 1)
    bands = [_deflated(rows[start:start + band], deflate, start // band) for start in range(0, len(rows), band)]
    return _Board(frame, painter.parts, bands, head)


def _again(last: _Board, painter: Painter, palette: Image.Image, rows: dict[int, bytearray]) -> _Board:
    """The board drawn from `last`, written into the rows given for its bands (`rows`, which it
    takes over) where there are some, else into the bands inflated.

    The bands written into are deflated together, each run of them one after another in one
    call (one Huffman table, one release of the GIL for a drawing thread); the other bands of
    what was deflated with them are deflated again each on its own, and the rest are kept."""
    width, height = painter.size
    rectangles = dirty(last.parts, painter.parts, (width, height))
    drawn = [(box, painter.indices(palette, box)) for box in rectangles]
    changed = {top // BAND_ROWS for x0, y0, x1, y1 in rectangles
               for top in range(y0 // BAND_ROWS * BAND_ROWS, y1, BAND_ROWS)}
    kept: list[_Band] = []
    again: list[int] = []  # the bands to deflate again: those of every run of bands with one changed
    for band in last.bands:
        indices = range(band.first, band.first + band.count)
        if not changed.intersection(indices):
            kept.append(band)
            continue
        again += indices
        if any(index not in rows for index in indices):
            rows.update(_inflated(band, width, rows))
    for index in changed:
        for (x0, y0, x1, _), pixels in drawn:
            put_indices(rows[index], width + 1, (x0 + 1, y0 - index * BAND_ROWS), pixels, x1 - x0)
    deflate = deflater.compressobj(PNG_COMPRESS_LEVEL, zlib.DEFLATED, -15)
    runs: list[list[int]] = []
    for index in sorted(again):  # each run of changed bands together, each other band alone
        joins = runs and index in changed and runs[-1][-1] == index - 1 and runs[-1][-1] in changed
        if joins:
            runs[-1].append(index)
        else:
            runs.append([index])
    bands = kept + [_deflated(b"".join(rows[index] for index in run) if len(run) > 1 else rows[run[0]], deflate,
                              run[0], len(run)) for run in runs]
    bands.sort(key=lambda band: band.first)
    return _Board(last.frame, painter.parts, bands, last.head, {index: rows[index] for index in again})


def _inflated(band: _Band, width: int, rows: dict[int, bytearray]) -> dict[int, bytearray]:
    """The rows of the bands deflated together in `band` (each row after its filter byte), by
    band, but those `rows` has already."""
    raw = deflater.decompressobj(-15).decompress(band.deflated)
    size = BAND_ROWS * (width + 1)
    return {index: bytearray(raw[(index - band.first) * size:(index - band.first + 1) * size])
            for index in range(band.first, band.first + band.count) if index not in rows}


def dirty(before: Sequence[Part], after: Sequence[Part], size: tuple[int, int]) -> list[Box]:
    """The rectangles of a board of `size` to draw again when its parts go from `before` to
    `after`: around every part that went or came, merged into a few; the whole board where the
    parts both have are in another order (one may now cover the other).

    Parts are compared by identity: the parts two boards share are the same objects (render.board
    keeps them), and a part equal to one before but made anew is drawn again, the same pixels."""
    width, height = size
    ids_before, ids_after = {id(part) for part in before}, {id(part) for part in after}
    if ([id(part) for part in before if id(part) in ids_after]
            != [id(part) for part in after if id(part) in ids_before]):
        return [(0, 0, width, height)]
    boxes = [part.box for part in before if id(part) not in ids_after]
    boxes += [part.box for part in after if id(part) not in ids_before]
    clipped = [(max(0, x0), max(0, y0), min(width, x1), min(height, y1)) for x0, y0, x1, y1 in boxes]
    return merged([box for box in clipped if box[0] < box[2] and box[1] < box[3]])


def merged(boxes: list[Box]) -> list[Box]:
    """Boxes joined, each with every other it overlaps or nearly touches (MERGE_GAP), into
    their bounding boxes; into one bounding box where that leaves more than MOST_RECTANGLES."""
    rectangles: list[Box] = []
    for box in boxes:
        while True:
            near = next((other for other in rectangles if _near(box, other)), None)
            if near is None:
                break
            rectangles.remove(near)
            box = (min(box[0], near[0]), min(box[1], near[1]), max(box[2], near[2]), max(box[3], near[3]))
        rectangles.append(box)
    if len(rectangles) > MOST_RECTANGLES:
        return [(min(box[0] for box in rectangles), min(box[1] for box in rectangles),
                 max(box[2] for box in rectangles), max(box[3] for box in rectangles))]
    return rectangles


def _near(a: Box, b: Box) -> bool:
    return a[0] < b[2] + MERGE_GAP and b[0] < a[2] + MERGE_GAP and a[1] < b[3] + MERGE_GAP and b[1] < a[3] + MERGE_GAP


def _deflated(rows: bytes | bytearray, deflate: Any, first: int, count: int = 1) -> _Band:
    """`count` bands of a PNG's rows from band `first` (each row a byte longer than the board is
    wide: the filter byte, 0, then the row), deflated on their own by `deflate` (a raw
    compressobj: they end in a full flush, so that the bands after them do not look back into
    them, and they can be inflated alone)."""
    deflated = deflate.compress(rows) + deflate.flush(deflater.Z_FULL_FLUSH)
    return _Band(deflated, deflater.adler32(rows), len(rows), first, count)


def _png(board: _Board) -> bytes:
    adler = 1
    for band in board.bands:
        adler = adler32_combine(adler, band.adler, band.length)
    stream = b"".join((ZLIB_HEADER, *(band.deflated for band in board.bands), FINAL_BLOCK, struct.pack(">I", adler)))
    return b"".join((board.head, png_chunk(b"IDAT", stream), png_chunk(b"IEND", b"")))


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's
    length (as zlib's adler32_combine)."""
    base = 65521
    remainder = length % base
    low = first & 0xFFFF
    high = (remainder * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - remainder) % base
    return low | (high << 16)
