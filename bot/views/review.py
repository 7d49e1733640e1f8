"""Where a game was lost, in Discord: the text and the board with the losing and the better
move outlined, as an answer to /analyse or as a follow-up once a lost game's analysis is ready."""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from bot.play import Player, PlayError
from bot.play.review import ReviewPlay
from bot.views.board import player_of
from bot.views.respond import ERROR_LIMIT, Answer, error_text, fit_to_show, shown, voice_of
from bot.words import Voice, analysis_text, board_alt_text, board_captions
from render import render, workers

log = logging.getLogger(__name__)
_follow_ups: set[asyncio.Task[None]] = set()  # kept until done: the loop holds tasks only weakly


async def analysis_answer(review: ReviewPlay, game_id: int | None, player: Player, voice: Voice) -> Answer:
    """Where the player's finished game was lost: the sentence, and the board before the losing
    move with it and the better move outlined (drawn off the event loop)."""
    analysed = await review.analyse(game_id, player)
    text = analysis_text(analysed, voice)
    if analysed.board is None:
        return Answer(text)
    analysis = analysed.analysis
    png = await workers.draw(render, analysed.board, highlight=analysis.better_move, losing=analysis.losing_move,
                             player=player.name, captions=board_captions(analysed.board, voice, analysed.label))
    file = discord.File(io.BytesIO(png), filename="analysis.png",
                        description=board_alt_text(analysed.board, analysed.label, voice))
    return Answer(text, file)


def follow_up_with_analysis(review: ReviewPlay, interaction: discord.Interaction, game_id: int, *,
                            ephemeral: bool) -> None:
    """Send the lost game's analysis as a follow-up of the interaction once it is ready, in a task
    of its own: the answer the analysis follows is never held up by it."""
    task = asyncio.ensure_future(_follow_up(review, interaction, game_id, ephemeral=ephemeral))
    _follow_ups.add(task)
    task.add_done_callback(_follow_ups.discard)


def reply_with_analysis(review: ReviewPlay, message: discord.Message, game_id: int, voice: Voice) -> None:
    """The same for a typed move's answer: a reply to the player's message once it is ready."""
    task = asyncio.ensure_future(_reply(review, message, game_id, voice))
    _follow_ups.add(task)
    task.add_done_callback(_follow_ups.discard)


async def _worded(review: ReviewPlay, game_id: int, player: Player, voice: Voice) -> Answer | None:
    """The analysis answer; a PlayError's sentence instead; None (logged) when it failed."""
    try:
        return await analysis_answer(review, game_id, player, voice)
    except PlayError as error:
        return Answer(fit_to_show(error_text(error, voice), ERROR_LIMIT))
    except Exception:
        log.exception("the analysis of game %s failed", game_id)
        return None


async def _follow_up(review: ReviewPlay, interaction: discord.Interaction, game_id: int, *, ephemeral: bool) -> None:
    result = await _worded(review, game_id, player_of(interaction.user), await voice_of(interaction))
    if result is None:
        return
    message = shown(result)
    try:
        await interaction.followup.send(**message.to_send(), ephemeral=ephemeral)
    except discord.HTTPException as error:  # the interaction's 15 minutes ran out, say
        log.warning("the analysis of game %s could not be sent: %s", game_id, error)


async def _reply(review: ReviewPlay, message: discord.Message, game_id: int, voice: Voice) -> None:
    result = await _worded(review, game_id, player_of(message.author), voice)
    if result is None:
        return
    fields = shown(result)
    try:
        await message.reply(**fields.to_send(), mention_author=False)
    except discord.HTTPException as error:
        log.warning("the analysis of game %s could not be sent: %s", game_id, error)
