"""The card faces the table's page draws with: one PNG sprite sheet drawn once by render/ (the
boards' own sprites, at a size for a browser), and where each card lies in it."""

from __future__ import annotations

import functools
import io
import json

from PIL import Image

from bot.game.cards import ACE, KING, Card, Suit
from render.sprites import CardSize, card_back, card_face
from render.themes import get_theme

SHEET_CARD = CardSize(72, 101)  # a card in the sheet; the page scales it to the screen
COLUMNS = 13
PALETTE = 128


@functools.cache
def sprite_sheet(theme: str = "classic") -> tuple[bytes, str]:
    """The sheet (PNG bytes) of a theme's 52 faces and its back, and the JSON that says where each
    lies: `{"card": {"w", "h"}, "7H": {"x", "y"}, ..., "??": {...}}`. Drawn once per theme (slow:
    call it off the event loop); ValueError for a theme there is not."""
    chosen = get_theme(theme)
    cards = [Card(rank, suit) for suit in Suit for rank in range(ACE, KING + 1)]
    images = [card_face(card, chosen, SHEET_CARD) for card in cards] + [card_back(chosen, SHEET_CARD)]
    width, height = images[0].size
    rows = -(-len(images) // COLUMNS)
    sheet = Image.new("RGBA", (COLUMNS * width, rows * height), (0, 0, 0, 0))
    where: dict[str, dict[str, int]] = {"card": {"w": width, "h": height}}
    for index, (name, image) in enumerate(zip([*map(str, cards), "??"], images, strict=True)):
        x, y = (index % COLUMNS) * width, (index // COLUMNS) * height
        sheet.alpha_composite(image, (x, y))
        where[name] = {"x": x, "y": y}
    out = io.BytesIO()  # a palette of PALETTE colours, alpha kept: a fifth of the bytes, no visible change
    sheet.quantize(colors=PALETTE, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", optimize=True)
    return out.getvalue(), json.dumps(where, separators=(",", ":"))
