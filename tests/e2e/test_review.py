"""Where a game was lost, end to end: the follow-up after a lost game, and /analyse."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.game import new_game
from bot.game.analysis import analyse
from bot.play.replies import DealLabel
from bot.play.review import ANALYSIS_LIMIT, Analysed
from bot.words import DISCORD, analysis_text

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import PNG_SIGNATURE, SOLVER_WAIT, board_width, play, start

# Deal 8: after d d wf2 rf2, wt1 leaves a deal that can no longer be won (the solver says so).
DEAL = 8
LINE = "d d wf2 rf2 wt1 d"


def expected_text(game_id: int) -> str:
    """What the analysis says, worked out here by the same bisection."""
    game = new_game("canfield", deal=DEAL)
    game.play(LINE)
    analysis = analyse(game, limit=ANALYSIS_LIMIT)
    assert analysis.lost_after == 5 and str(analysis.losing_move) == "wt1"
    return analysis_text(Analysed(game_id, analysis, len(game.moves), None, DealLabel(number=DEAL)), DISCORD)


async def test_a_lost_game_is_followed_by_where_it_was_lost_by_command_and_by_typed_moves(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    assert "analyse" in fake.command_names()
    await play(fake, deal=DEAL)
    reply = await fake.slash_command("alice", "move", {"moves": LINE})
    assert said(await reply.wait_response()) == "Played d d wf2 rf2 wt1 d."
    reply = await fake.slash_command("alice", "resign")
    ended = await reply.wait_response(timeout=SOLVER_WAIT)
    assert "You resigned" in said(ended) and "Looking for where it was lost…" in said(ended)
    assert ended.attachment("board.png")  # the answer came first, with its board
    await reply.wait_for(lambda interaction: interaction.followups, timeout=SOLVER_WAIT)
    follow_up = reply.followups[-1]
    text = expected_text(1)
    assert "after move 5 (**wt1**) the deal could no longer be won" in text
    assert said(follow_up) == text and follow_up.ephemeral
    image = follow_up.attachment("analysis.png")
    assert image.data.startswith(PNG_SIGNATURE)
    assert Image.open(io.BytesIO(image.data)).size[0] == board_width("canfield")
    # /analyse: the game that ended last, from the store; someone else's game is refused.
    again = await fake.slash_command("alice", "analyse")
    assert said(await again.wait_response()) == text
    other = await fake.slash_command("bob", "analyse", {"game": 1})
    assert said(await other.wait_response()) == "That is not your game: start your own with /play."
    none = await fake.slash_command("bob", "analyse")
    assert said(await none.wait_response()).startswith("You have no finished game to look back on yet")
    # The same deal lost again by typed moves: the analysis follows as a reply.
    await play(fake, deal=DEAL)
    mention = fake.bot_user.mention
    sent = await fake.message("alice", f"{mention} {LINE}", mentions_bot=True)
    await fake.wait_for_bot_message(after=sent)
    sent = await fake.message("alice", f"{mention} resign", mentions_bot=True)
    ended = await fake.wait_for_bot_message(after=sent, timeout=SOLVER_WAIT)
    assert "Looking for where it was lost…" in said(ended)
    follow_up = await fake.wait_for_bot_message(after=ended, timeout=SOLVER_WAIT)
    assert said(follow_up) == expected_text(2) and follow_up.attachment("analysis.png")
