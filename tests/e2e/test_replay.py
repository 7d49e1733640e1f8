"""/replay through the fake Discord: a finished game comes back as an animated GIF shown inline."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from PIL import Image

from render.replay import FIRST_MS, LAST_MS

from .fakediscord import ATTACHMENT_IS_ANIMATED, FakeDiscord
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, play, start


async def test_replay_of_a_finished_game_is_an_animated_gif_in_the_message(fake: FakeDiscord, bots: BotRunner,
                                                                           tmp_path: Path) -> None:
    await start(bots, tmp_path)
    assert "replay" in fake.command_names()
    refused = await (await fake.slash_command("alice", "replay", {})).wait_response()
    assert refused.ephemeral and said(refused) == "You have no finished game to look back on yet: play one with /play."
    board = await play(fake, deal=1)
    board = await (await fake.click("alice", board, label="Draw (34)")).wait_response()
    await (await fake.click("alice", board, label="Draw (31)")).wait_response()
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        (game_id,) = db.execute("SELECT id FROM games").fetchone()
    in_play = await (await fake.slash_command("alice", "replay", {"game": game_id})).wait_response()
    assert said(in_play) == f"Game {game_id} is still in play: you can look back on it once it has ended."
    await (await fake.slash_command("alice", "resign", {})).wait_response(timeout=SOLVER_WAIT)

    message = await (await fake.slash_command("alice", "replay", {})).wait_response(timeout=SOLVER_WAIT)
    assert message.ephemeral and message.v2
    assert said(message) == f"Replay of **Alice**'s Canfield #1 (game {game_id}): 2 moves, resigned, score -12."
    attachment = message.attachment(f"replay-{game_id}.gif")
    assert attachment.content_type == "image/gif" and attachment.animated
    assert attachment.payload()["flags"] & ATTACHMENT_IS_ANIMATED
    assert message.media_urls() == [attachment.url]  # shown inline by the message's gallery
    gif = Image.open(io.BytesIO(attachment.data))
    durations = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        durations.append(gif.info["duration"])
    assert gif.n_frames == 3 and durations[0] == FIRST_MS and durations[-1] == LAST_MS  # the deal, two draws

    # Bob may not watch Alice's own game; he has no finished game, and she has no daily.
    bobs = await (await fake.slash_command("bob", "replay", {"game": game_id})).wait_response()
    assert bobs.ephemeral and said(bobs) == "That is not your game: start your own with /play."
    daily = await (await fake.slash_command("bob", "replay", {"player": "alice"})).wait_response()
    assert said(daily) == "That player has no finished daily yet."
