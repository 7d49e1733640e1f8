"""Golden board images: the boards in GOLDEN, stored as PNG beside this file.

They change only on purpose: after a deliberate change to the look of the board, look at the
new images and regenerate them, and the themes' palettes (render/palette.py), with

    .venv/bin/python -m tests.render.golden
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from render import THEMES, render_image
from render.palette import PALETTES, write_palettes
from tests.samples import sample_game

FOLDER = Path(__file__).resolve().parent / "golden"

# file name -> (game, state, theme, options)
GOLDEN: dict[str, tuple[str, str, str, dict]] = {
    "canfield-mid-classic": ("canfield", "mid", "classic", {}),
    "canfield-won-dark": ("canfield", "won", "dark", {}),
    "superior-canfield-mid-four-colour": ("superior-canfield", "mid", "four-colour", {}),
    "storehouse-blocked-dark-four-colour": ("storehouse", "blocked", "dark-four-colour", {"die": "game"}),
    "demons-and-thieves-mid-classic": ("demons-and-thieves", "mid", "classic", {}),
    "patriarchs-blocked-dark": ("patriarchs", "blocked", "dark", {}),
}


def golden_image(name: str) -> Image.Image:
    """Render the board of golden image `name` afresh."""
    game_name, state, theme, options = GOLDEN[name]
    return render_image(sample_game(game_name, state, **options), theme=theme, player="Golden Tester")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """How far two images differ: the mean absolute difference per channel (0-255), and the
    share of pixels that differ by more than 48 in some channel."""
    if a.size != b.size:
        return 255.0, 1.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    strong = diff.convert("L").point(lambda v: 255 if v > 48 else 0)
    share = ImageStat.Stat(strong).mean[0] / 255
    return mean, share


def pixels(png: bytes) -> tuple[str, tuple[int, int], bytes]:
    """What a PNG shows: its mode, size and pixels' colours. Two encodings of one board compare
    equal here even when their bytes differ: ISA-L's deflate, which `render` uses, is not
    bound to give the same stream twice for the same input (its match finder may start from
    leftover memory), so only the decoded pixels are the board."""
    image = Image.open(io.BytesIO(png))
    return image.mode, image.size, image.convert("RGB").tobytes()


def regenerate() -> None:
    """Write every golden image and the themes' palettes anew."""
    FOLDER.mkdir(exist_ok=True)
    for name in GOLDEN:
        path = FOLDER / f"{name}.png"
        golden_image(name).save(path, optimize=True)
        print(f"wrote {path}")
    write_palettes(THEMES.values())
    print(f"wrote {PALETTES}")


if __name__ == "__main__":
    regenerate()
