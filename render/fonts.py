"""The fonts shipped with the package (DejaVu, see assets/LICENSE-DejaVu.txt): boards look the
same on every machine, and no system font is ever used."""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import ImageFont

ASSETS = Path(__file__).resolve().parent / "assets"
_FILES = {True: ASSETS / "DejaVuSans-Bold.ttf", False: ASSETS / "DejaVuSans.ttf"}
# A FreeType face is not safe to share between threads: each thread loads its own.
_local = threading.local()


def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold by default) at `size` pixels, loaded once per thread."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] = _local.__dict__.setdefault("fonts", {})
    key = (size, bold)
    if key not in cache:
        cache[key] = ImageFont.truetype(str(_FILES[bold]), size)
    return cache[key]
