"""The daily challenge, leaderboards and stats through the fake Discord."""

from __future__ import annotations

from pathlib import Path

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, board_of, button, start


async def test_daily_one_attempt_then_leaderboard_and_stats(fake: FakeDiscord, bots: BotRunner,
                                                             tmp_path: Path) -> None:
    await start(bots, tmp_path)
    alice = await (await fake.slash_command("alice", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    bob = await (await fake.slash_command("bob", "daily", {})).wait_response()
    assert "Daily Canfield of" in said(alice) and "One attempt, no undo" in said(alice)
    assert said(alice).split("deal #")[1].split(",")[0] == said(bob).split("deal #")[1].split(",")[0]
    assert board_of(alice).size == board_of(bob).size
    assert button(alice, "Undo").disabled
    again = await (await fake.slash_command("alice", "daily", {})).wait_response()
    assert "in play" in said(again)
    resigned = await (await fake.click("alice", alice, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned. Score -12." in said(resigned)
    over = await (await fake.slash_command("alice", "daily", {})).wait_response()
    assert over.ephemeral and "already" in said(over)
    daily = {"board": "daily", "period": "today"}
    board = await (await fake.slash_command("bob", "leaderboard", daily)).wait_response()
    assert not board.ephemeral and "Alice" in said(board) and "Bob" in said(board)
    players = await (await fake.slash_command("bob", "leaderboard", {})).wait_response()
    assert "Alice" in said(players) and [b.label for b in players.buttons] == ["◀ Prev", "Next ▶"]
    stats = await (await fake.slash_command("bob", "stats", {"member": str(fake.alice.id)})).wait_response()
    assert "Alice" in said(stats)
