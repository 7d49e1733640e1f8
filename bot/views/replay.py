"""A replay's message in Discord: the animated GIF (drawn in a drawing worker) and what it says."""

from __future__ import annotations

import io
from functools import partial

import discord

from bot.play.review import Replay
from bot.views.respond import Answer
from bot.words import Voice, board_captions, replay_text
from render import workers
from render.replay import replay_gif


async def replay_answer(replay: Replay, voice: Voice) -> Answer:
    """The replay as an answer in the member's voice: its words, and the game as an animated GIF
    that Discord plays inline, drawn off the event loop (its alt text the words, unmarked)."""
    gif = await workers.draw(replay_gif, replay.record, player=replay.player.name,
                             captions=partial(board_captions, voice=voice, label=replay.label))
    text = replay_text(replay, voice)
    plain = replay_text(replay, voice.plain())
    file = discord.File(io.BytesIO(gif), filename=f"replay-{replay.game_id}.gif", description=plain)
    return Answer(text=text, file=file, private=replay.live is not None)
