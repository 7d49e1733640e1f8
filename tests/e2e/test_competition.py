"""The daily challenge, leaderboards and stats through the fake Discord."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
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
    # One deal for both, never shown by number: the boards name the day.
    status = alice.text().splitlines()[0]
    assert "deal #" not in alice.text() and "Daily · " in status and bob.text().splitlines()[0] == status
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        assert len({deal for (deal,) in db.execute("SELECT deal FROM games")}) == 1
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


async def test_casino_canfield_bankroll_in_stats_and_on_its_board(fake: FakeDiscord, bots: BotRunner,
                                                                   tmp_path: Path) -> None:
    await start(bots, tmp_path)
    board = await (await fake.slash_command("alice", "play", {"game": "canfield-one-pass"})).wait_response()
    resigned = await (await fake.click("alice", board, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned" in said(resigned)
    casino = await (await fake.slash_command("bob", "leaderboard", {"board": "casino"})).wait_response()
    assert "Casino bankroll" in said(casino) and "Alice" in said(casino) and "-$47" in said(casino)
    stats = await (await fake.slash_command("bob", "stats", {"member": str(fake.alice.id),
                                                             "game": "canfield-one-pass"})).wait_response()
    assert "Canfield (one pass): 1 played, 0 won (0%), 0 clean" in said(stats) and "bankroll -$47" in said(stats)
    clean = await (await fake.slash_command("bob", "leaderboard", {"board": "clean", "period": "week"})).wait_response()
    assert "Clean wins · this week" in said(clean) and "No one here yet." in said(clean)
    unknown = await (await fake.slash_command("bob", "stats", {"game": "klondike"})).wait_response()
    assert unknown.ephemeral and "Unknown game 'klondike'" in said(unknown)


async def test_stats_count_a_lost_game_that_could_have_been_won_once_it_is_analysed(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    from .test_review import DEAL, LINE  # a deal lost by a known move

    await start(bots, tmp_path)
    await (await fake.slash_command("alice", "play", {"deal": DEAL})).wait_response()
    await (await fake.slash_command("alice", "move", {"moves": LINE})).wait_response()
    reply = await fake.slash_command("alice", "resign")
    await reply.wait_for(lambda interaction: interaction.followups, timeout=SOLVER_WAIT)  # the analysis, stored
    stats = await (await fake.slash_command("alice", "stats", {"game": "canfield"})).wait_response()
    assert "Canfield: 1 played, 0 won (0%), 0 clean" in said(stats)
    assert "lost games that could have been won: 1 of 1 analysed (100%)" in said(stats)


async def test_a_seasons_leaderboard_the_current_one_a_past_one_and_a_bad_name(fake: FakeDiscord, bots: BotRunner,
                                                                              tmp_path: Path) -> None:
    await start(bots, tmp_path)
    for player in ("alice", "bob"):
        board = await (await fake.slash_command(player, "play", {})).wait_response()
        await (await fake.click(player, board, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:  # Bob's game ended in January 2020 (UTC)
        db.execute("UPDATE games SET finished_at = ? WHERE user_id = ?",
                   (datetime(2020, 1, 31, 23, 59, tzinfo=UTC).timestamp(), fake.bob.id))
    months = {datetime.now(UTC).strftime("%Y-%m")}  # the server's season: the month in UTC, by default
    current = await (await fake.slash_command("bob", "leaderboard", {"period": "season"})).wait_response()
    months.add(datetime.now(UTC).strftime("%Y-%m"))
    assert not current.ephemeral and any(f"Players · season {month} · this server" in said(current)
                                         for month in months)
    assert "Alice" in said(current) and "Bob" not in said(current)
    past = await (await fake.slash_command("alice", "leaderboard", {"season": "2020-01"})).wait_response()
    assert "Players · season 2020-01 · this server" in said(past) and "Bob" in said(past)
    assert "Alice" not in said(past) and [b.label for b in past.buttons] == ["◀ Prev", "Next ▶"]
    offered = [choice["value"] for choice in await fake.autocomplete("alice", "leaderboard", {"season": ""},
                                                                      "season")]
    assert len(offered) == 12 and offered[0] in months
    assert await fake.autocomplete("alice", "leaderboard", {"season": "2020"}, "season") == []
    bad = await (await fake.slash_command("alice", "leaderboard", {"season": "2020-13"})).wait_response()
    assert bad.ephemeral and said(bad) == ("There is no season '2020-13': a season is named like 2026-11 (a month), "
                                           "2026-W48 (a week) or 2026-Q4 (a quarter).")
