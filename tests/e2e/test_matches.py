"""A whole match end to end: lobby, joins by button, start, rounds, scoreboard, announcement;
and server settings that only a member with Manage Server may change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.samples import won_game

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, start

WON = won_game("canfield")


def give_round_a_known_winning_deck(database: Path, user_id: int) -> None:
    """Turn a player's round in play into a deal whose winning line we know (the bot is down)."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE games SET deal = NULL, cards = ?, snapshot = NULL, moves = '' "
                   "WHERE user_id = ? AND kind = 'match' AND status = 'playing'",
                   ("".join(str(card) for card in WON.cards), user_id))


async def test_a_whole_match_in_the_channel(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    carol = fake.add_user("carol", permissions=0)  # an ordinary member: no Manage Server
    channel_before = len(fake.channel_messages())
    opened = await (await fake.slash_command("alice", "match open", {"target": 300})).wait_response()
    assert opened.ephemeral and said(opened) == "Match #1 is open: its lobby is in the channel."
    lobby = await fake.wait_for_bot_message(predicate=lambda m: said(m).startswith("**Canfield match #1**"))
    assert not lobby.ephemeral and "first to **300** points" in said(lobby) and "Waiting for players" in said(lobby)
    assert "Alice" in said(lobby)  # the host is in
    joined = await (await fake.click(carol, lobby, label="Join")).wait_response()
    assert joined.ephemeral and "You joined match #1" in said(joined)
    refused = await (await fake.click(carol, lobby, label="Start")).wait_response()
    assert refused.ephemeral and "Only the host" in said(refused)
    started = await (await fake.click("alice", lobby, label="Start")).wait_response()
    assert started.ephemeral and "has started" in said(started) and started.attachment("board.png")
    assert await _eventually(fake, lambda: "Playing" in said(lobby) and "Carol" in said(lobby))
    assert [b.label for b in lobby.buttons] == ["Join", "My board", "Leave", "Cancel match"]

    carol_board = await (await fake.click(carol, lobby, label="My board")).wait_response()
    assert carol_board.ephemeral and "round 1" in said(carol_board)
    resigned = await (await fake.click(carol, carol_board, label="Resign")).wait_response(
        timeout=SOLVER_WAIT)
    assert "Round 1 over: -12 points, -12 in all." in said(resigned)
    assert resigned.id == carol_board.id and [b.label for b in resigned.buttons][-1] == "Next round ▶"
    assert await _eventually(fake, lambda: "Carol**: -12 points, 1 round" in said(lobby))

    await bot.kill()  # Alice's round 1 becomes a deal with a known winning line; the bot comes back
    give_round_a_known_winning_deck(tmp_path / "pe.sqlite3", fake.alice.id)
    await bot.restart()
    line = " ".join(str(move) for move in WON.moves)
    won = await (await fake.slash_command("alice", "move", {"moves": line})).wait_response()
    assert "You won! Score 352." in said(won) and "**The demon is exorcised!** You win the match." in said(won)
    announcement = await fake.wait_for_bot_message(
        predicate=lambda m: "The demon is exorcised!" in said(m) and not m.ephemeral, timeout=5)
    assert said(announcement) == (f"**The demon is exorcised!** <@{fake.alice.id}> won match #1 with 352 points "
                                    "(target 300).")
    assert await _eventually(fake, lambda: "Finished." in said(lobby) and "🏆 **Alice**" in said(lobby))
    assert lobby.buttons == []
    # Carol's round 2 ended with the match: not playable by /move nor by her board's Next round.
    late = await (await fake.slash_command(carol, "move", {"moves": "d"})).wait_response()
    assert late.ephemeral and "no game in this channel" in said(late)
    again = await (await fake.click(carol, resigned, label="Next round ▶")).wait_response()
    assert again.ephemeral and "is finished: its rounds in play ended with it" in said(again)
    assert "Carol**: -12 points, 1 round" in said(lobby)
    public = [m for m in fake.channel_messages()[channel_before:] if not m.ephemeral]
    assert [m.id for m in public] == [lobby.id, announcement.id]
    assert sum("The demon is exorcised!" in said(m) for m in public) == 1


async def test_only_manage_server_changes_settings(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    carol = fake.add_user("carol", permissions=0)
    shown = await (await fake.slash_command(carol, "settings", {})).wait_response()
    assert "Match target **200**" in said(shown)
    refused = await (await fake.slash_command(carol, "settings", {"target": 50})).wait_response()
    assert refused.ephemeral and "Only members with Manage Server" in said(refused)
    changed = await (await fake.slash_command("alice", "settings", {"target": 50, "undo": True})).wait_response()
    assert "Match target **50**, team target **100**" in said(changed) and "undo in matches **on**" in said(changed)
    await (await fake.slash_command("bob", "match open", {})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "match #1" in said(m))
    assert "first to **50** points" in said(lobby) and "undo on" in said(lobby)


async def test_teams_by_command_and_a_team_lobby(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    made = await (await fake.slash_command("alice", "team create", {"name": "Red"})).wait_response()
    assert said(made) == "You created team **Red**."
    again = await (await fake.slash_command("alice", "team create", {"name": "Blue"})).wait_response()
    assert "already in a team" in said(again)
    await (await fake.slash_command("alice", "match open", {"teams": True})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "team match #1" in said(m))
    assert "team match" in said(lobby) and "first to **400**" in said(lobby)
    select = lobby.selects[0]
    joined = await (await fake.select("bob", lobby, select.custom_id, ["Red"])).wait_response()
    assert said(joined) == "You joined match #1 for team **Red**."
    listed = await (await fake.slash_command("bob", "team list", {})).wait_response()
    assert said(listed) == "**Red**: Alice, Bob"
    assert await _eventually(fake, lambda: "**Red** (Alice, Bob): 0 points" in said(lobby))


async def _eventually(fake: FakeDiscord, condition, timeout: float = 5.0) -> bool:
    """Wait until a condition on what the fake holds is true (scoreboard edits come a second late)."""
    await fake._changes.wait_until(lambda: True if condition() else None, timeout, "a scoreboard edit")
    return True

