"""A board's rectangle painted in C (render/_paint_core.c), as Python sees it: for type checkers."""

from collections.abc import Sequence

def paint(width: int, height: int, ops: Sequence[tuple[object, ...]], lut: bytes, /) -> bytes:
    """The rectangle painted by its ops (render.board `Op`), in the palette's indices through `lut`
    (2**18 indices). ValueError for an op that reads outside its source, or a bad size or table."""

def put(rows: bytearray, stride: int, x: int, y: int, indices: bytes, width: int, /) -> None:
    """The rectangle `indices` (rows of `width` bytes) written into `rows` (rows `stride` bytes long)
    at column x, row y; its rows outside `rows` are left out. ValueError if it does not fit across."""

def index(source: bytes, depth: int, lut: bytes, /) -> bytes:
    """The index through `lut` of each pixel of `source`, `depth` bytes a pixel (3 or 4: its alpha
    left aside). ValueError for another depth, a source not whole pixels, or a bad table."""
