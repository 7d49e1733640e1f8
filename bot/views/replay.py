"""A replay's message in Discord: the animated GIF (drawn in bulk drawing's process of its own,
bot.play.bulk, never the board pool) and what it says."""

from __future__ import annotations

import io
from functools import partial

import discord

from bot.play.bulk import Ticket
from bot.play.errors import TooLargeToSend
from bot.play.review import Replay
from bot.views.respond import Answer, waiting_elsewhere
from bot.words import Voice, board_captions, replay_text
from render.replay import ReplayTooLarge, replay_gif


async def replay_answer(replay: Replay, voice: Voice, ticket: Ticket, upload_limit: int) -> Answer:
    """The replay as an answer in the member's voice: its words, and the game as an animated GIF
    that Discord plays inline, within `upload_limit` bytes with room (the interaction's limit),
    drawn in bulk drawing's process with `ticket`, its place there (its alt text the words,
    unmarked). TooLargeToSend when not even the game's end, still, fits the limit."""
    try:
        with waiting_elsewhere():
            gif = await ticket.draw(replay_gif, replay.record, player=replay.player.name,
                                    captions=partial(board_captions, voice=voice, label=replay.label),
                                    upload_limit=upload_limit)
    except ReplayTooLarge as error:
        raise TooLargeToSend(upload_limit) from error
    text = replay_text(replay, voice)
    plain = replay_text(replay, voice.plain())
    file = discord.File(io.BytesIO(gif), filename=f"replay-{replay.game_id}.gif", description=plain)
    return Answer(text=text, file=file, private=replay.live is not None)
