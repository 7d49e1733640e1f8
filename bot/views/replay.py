"""A replay's message in Discord: the animated GIF (drawn in a drawing worker) and what it says."""

from __future__ import annotations

import io

import discord

from bot.play.review import Replay
from bot.views.respond import Answer
from bot.words import DISCORD, replay_text
from render import workers
from render.replay import replay_gif


async def replay_answer(replay: Replay) -> Answer:
    """The replay as an answer: its words, and the game as an animated GIF that Discord plays
    inline, drawn off the event loop."""
    gif = await workers.draw(replay_gif, replay.record, player=replay.player.name)
    text = replay_text(replay, DISCORD)
    file = discord.File(io.BytesIO(gif), filename=f"replay-{replay.game_id}.gif", description=text.replace("**", ""))
    return Answer(text=text, file=file)
