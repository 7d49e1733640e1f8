"""Answering an interaction inside Discord's 3 seconds, whatever happens.

The work runs as a task; if it is not done within `DEFER_AFTER` seconds the interaction is
deferred first and the answer follows as an edit. A PlayError becomes a short private message;
anything unexpected is logged and answered with an apology, never "interaction failed".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass

import discord

from bot.play import PlayError

DEFER_AFTER = 2.0
log = logging.getLogger(__name__)
SORRY = "Something went wrong on our side; your game is safe. Please try again."


@dataclass(slots=True)
class Answer:
    """What to show: text, and a board image with its buttons (both or neither)."""

    text: str
    file: discord.File | None = None
    view: discord.ui.View | None = None


async def answer(interaction: discord.Interaction, work: Awaitable[Answer], *, edit: bool = False,
                 ephemeral: bool = True) -> None:
    """Run `work` and show its Answer: as an edit of the message the interaction came from
    (`edit`, for buttons) or as a new message (`ephemeral` or public)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        if edit:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    try:
        result = await task
    except PlayError as error:
        await _say(interaction, str(error), edit=edit)
        return
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        await _say(interaction, SORRY, edit=edit)
        return
    await _show(interaction, result, edit=edit, ephemeral=ephemeral)


async def _show(interaction: discord.Interaction, result: Answer, *, edit: bool, ephemeral: bool) -> None:
    files = [result.file] if result.file else []
    view = result.view or discord.utils.MISSING
    content = result.text or None
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, attachments=files, view=view)
    elif edit:
        await interaction.response.edit_message(content=content, attachments=files, view=view)
    else:
        await interaction.response.send_message(content=content, files=files, view=view, ephemeral=ephemeral)


async def _say(interaction: discord.Interaction, text: str, *, edit: bool) -> None:
    """A short private message that leaves any board as it is (a deferred command's
    "thinking…" message becomes the text)."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
    elif edit:
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.edit_original_response(content=text)
