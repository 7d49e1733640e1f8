"""Messages in Discord's Components V2: a container holding the status line, what the answer
says, the image and the buttons, in one `discord.ui.LayoutView`.

Discord rejects `content` on such a message, so its words go in TextDisplays; the image is shown
by a MediaGallery that points at the uploaded file (`attachment://board.png`), whose alt text is
the file's description. Buttons keep their custom_ids, so the DynamicItems answer them as before.
"""

from __future__ import annotations

from itertools import groupby

import discord

from bot.words import shorten

MAX_COMPONENTS = 40  # Discord's limit of components in a message, nested ones counted
MAX_TEXT = 4000  # Discord's limit of the characters of all a message's TextDisplays
GALLERY_DESCRIPTION_LIMIT = 256  # characters of a media gallery item's description
ROW_WIDTH = 5  # an action row holds five buttons, or one select menu
ROW_LAST = 5  # where the items without a row number go: after rows 0 to 4


def layout_view(status: str, text: str, file: discord.File | None = None,
                buttons: discord.ui.View | None = None) -> discord.ui.LayoutView:
    """A container of the status line, the text (if any), the image of `file` (if any) and the
    items of `buttons`, one ActionRow for each of their rows, in order."""
    container = discord.ui.Container()
    for words in (status, text):
        if words:
            container.add_item(discord.ui.TextDisplay(words))
    if file is not None:
        description = file.description
        if description:
            description = shorten(description, GALLERY_DESCRIPTION_LIMIT)
        container.add_item(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{file.filename}", description=description)))
    for row in action_rows(buttons.children if buttons else []):
        container.add_item(discord.ui.ActionRow(*row))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def action_rows(items: list[discord.ui.Item]) -> list[list[discord.ui.Item]]:
    """The items in rows as a View lays them out: by their row number (unnumbered ones after),
    in order, a row split where it would be wider than Discord's five."""
    rows: list[list[discord.ui.Item]] = []
    ordered = sorted(items, key=lambda item: ROW_LAST if item.row is None else item.row)
    for _, group in groupby(ordered, key=lambda item: item.row):
        rows.append([])
        for item in group:
            if sum(other.width for other in rows[-1]) + item.width > ROW_WIDTH:
                rows.append([])
            rows[-1].append(item)
    return rows


def component_count(view: discord.ui.LayoutView) -> int:
    """The components of a message as Discord counts them: every one, nested ones included."""
    return sum(1 for _ in view.walk_children())
