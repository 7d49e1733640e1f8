"""The daily challenge, leaderboards and stats through the fake Discord."""

from __future__ import annotations

from pathlib import Path

from .fakediscord import FakeDiscord
from .harness import BotRunner
from .test_bot import SOLVER_WAIT, board_of, button, start


async def test_daily_one_attempt_then_leaderboard_and_stats(fake: FakeDiscord, bots: BotRunner,
                                                             tmp_path: Path) -> None:
    await start(bots, tmp_path)
    alice = await (await fake.slash_command("alice", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    bob = await (await fake.slash_command("bob", "daily", {})).wait_response()
    assert "Daily Canfield of" in alice.content and "One attempt, no undo" in alice.content
    assert alice.content.split("deal #")[1].split(",")[0] == bob.content.split("deal #")[1].split(",")[0]
    assert board_of(alice).size == board_of(bob).size
    assert button(alice, "Undo").disabled
    again = await (await fake.slash_command("alice", "daily", {})).wait_response()
    assert "in play" in again.content
    resigned = await (await fake.click("alice", alice, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned. Score -12." in resigned.content
    over = await (await fake.slash_command("alice", "daily", {})).wait_response()
    assert over.ephemeral and "already" in over.content
    daily = {"board": "daily", "period": "today"}
    board = await (await fake.slash_command("bob", "leaderboard", daily)).wait_response()
    assert not board.ephemeral and "Alice" in board.content and "Bob" in board.content
    players = await (await fake.slash_command("bob", "leaderboard", {})).wait_response()
    assert "Alice" in players.content and [b.label for b in players.buttons] == ["◀ Prev", "Next ▶"]
    stats = await (await fake.slash_command("bob", "stats", {"member": str(fake.alice.id)})).wait_response()
    assert "Alice" in stats.content
