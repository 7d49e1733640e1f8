"""The fake reads the size of a plain PNG (the bot's boards) from its header, and leaves every
other image to Pillow: both ways must give what Pillow gives."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from render.board import encode_png
from tests.e2e.fakediscord import _picture, _picture_by_pil, _plain_png_size

GOLDEN = sorted((Path(__file__).parent.parent / "render" / "golden").glob("*.png"))


def saved(image: Image.Image, format: str, **options: object) -> bytes:
    """The image saved in a format, as bytes."""
    out = io.BytesIO()
    image.save(out, format, **options)
    return out.getvalue()


def with_header(png: bytes, header: bytes, *, crc: int | None = None) -> bytes:
    """A PNG with another IHDR body (13 bytes), and its checksum (right unless given)."""
    crc = zlib.crc32(b"IHDR" + header) if crc is None else crc
    return png[:16] + header + struct.pack(">I", crc) + png[33:]


def frames(format: str) -> bytes:
    """Two frames of an animation in a format."""
    first, second = Image.new("RGB", (6, 4), "red"), Image.new("RGB", (6, 4), "blue")
    return saved(first, format, save_all=True, append_images=[second], duration=100)


def test_the_boards_are_read_from_their_header_as_pillow_reads_them() -> None:
    assert GOLDEN
    for path in GOLDEN:
        with Image.open(path) as image:
            indexed = encode_png(image.convert("RGB").quantize(64))  # as the bot sends boards
        for data in (path.read_bytes(), indexed):
            assert _plain_png_size(data) is not None, path.name
            assert _picture(data) == _picture_by_pil(data) != None, path.name  # noqa: E711


PLAIN = saved(Image.new("RGBA", (30, 20)), "PNG")
HEADER = PLAIN[16:29]
INDEXED = encode_png(Image.new("P", (9, 4)))  # IHDR, PLTE, IDAT
PALETTE_END = 41 + int.from_bytes(INDEXED[33:37], "big")  # where the palette's checksum is


@pytest.mark.parametrize("data", [
    PLAIN,
    saved(Image.new("RGB", (7, 3)), "PNG"),
    saved(Image.new("L", (7, 3)), "PNG"),
    saved(Image.new("LA", (7, 3)), "PNG"),
    saved(Image.new("P", (7, 3)), "PNG"),  # a palette (PLTE) before the data
    saved(Image.new("I;16", (7, 3)), "PNG"),  # 16 bits
    saved(Image.new("1", (7, 3)), "PNG"),
    saved(Image.new("RGB", (7, 3)), "PNG", pnginfo=None, optimize=True),
    frames("PNG"),  # an APNG: Discord shows it still
    frames("GIF"),
    frames("WEBP"),
    saved(Image.new("RGB", (5, 5)), "GIF"),
    saved(Image.new("RGB", (5, 5)), "JPEG"),
    with_header(PLAIN, HEADER, crc=0),  # a broken checksum
    with_header(PLAIN, b"\0\0\0\0" + HEADER[4:]),  # no width
    with_header(PLAIN, HEADER[:8] + b"\x08\x07" + HEADER[10:]),  # no such colour type
    with_header(PLAIN, HEADER[:11] + b"\x01" + HEADER[12:]),  # no such filter method
    with_header(PLAIN, HEADER[:12] + b"\x01"),  # interlaced
    with_header(PLAIN, struct.pack(">II", 10_000, 10_000) + HEADER[8:]),  # past Pillow's pixel limit
    INDEXED,
    INDEXED[:PALETTE_END] + b"\0\0\0\0" + INDEXED[PALETTE_END + 4:],  # a broken palette checksum
    INDEXED[:PALETTE_END + 6],  # cut in the data chunk's header
    INDEXED[:PALETTE_END - 2],  # cut in the palette
    INDEXED[:33] + INDEXED[PALETTE_END + 4:],  # indexed, without its palette
    with_header(PLAIN, HEADER[:9] + b"\x03" + HEADER[10:]),  # indexed, without its palette
    PLAIN[:33] + INDEXED[33:PALETTE_END + 4] + PLAIN[33:],  # a palette in RGBA (a suggestion)
    PLAIN[:40],  # cut before the data chunk's name ends
    PLAIN[:33],
    PLAIN[:12] + b"IHDX" + PLAIN[16:],
    b"not an image at all, but long enough to have a header and more",
    b"",
])
@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_any_image_is_read_as_pillow_reads_it(data: bytes) -> None:
    assert _picture(data) == _picture_by_pil(data)
