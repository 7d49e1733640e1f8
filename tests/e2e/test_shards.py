"""Sharding end to end: two `python -m bot` processes, one shard each (SHARD_COUNT=2, SHARD_IDS=0 and 1),
against one fake Discord with a guild on each shard, and one database both processes share: a SQLite
file, then a PostgreSQL schema (tests/conftest.py's `database_url`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import StoredGame, open_store

from .fakediscord import FakeDiscord, FakeGuild, FakeUser, NoBotConnected, StoredMessage, shard_of
from .harness import BotProcess, BotRunner, said

SHARD_COUNT = 2
READY_LINE = "has connected to Gateway"  # discord.py's line, with the session id, once READY came


async def start_shard(bots: BotRunner, tmp_path: Path, database_url: str, shard_id: int) -> BotProcess:
    """Start `python -m bot` running shard `shard_id` of SHARD_COUNT, with its own health file."""
    env = {"DATABASE_URL": database_url, "SHARD_COUNT": str(SHARD_COUNT), "SHARD_IDS": str(shard_id),
           "HEALTH_FILE": str(tmp_path / f"alive-{shard_id}")}
    return await bots.start_bot("bot", env=env, ready_line=READY_LINE)


async def stored_game(database_url: str, user: FakeUser, channel_id: int) -> StoredGame | None:
    """The user's game in play in that channel, read from the shared database by a store of our own."""
    store = await open_store(database_url)
    try:
        return await store.games.running_game(user.id, channel_id)
    finally:
        await store.close()


def button_label(message: StoredMessage, start: str) -> str:
    """The label of the message's button whose label starts so."""
    return next(b.label for b in message.buttons if (b.label or "").startswith(start))


def connected_line(fake: FakeDiscord, guild: FakeGuild) -> str:
    """What discord.py logs in the process holding the connected session of the guild's shard."""
    session = fake.connected_shard(guild.id)
    assert session is not None
    return f"Shard ID {session.shard[0]} has connected to Gateway (Session ID: {session.id})"


async def play_in(fake: FakeDiscord, user: FakeUser, guild: FakeGuild, deal: int) -> tuple[StoredMessage, str]:
    """/play a deal in the guild's channel; the board, and the id of the gateway session that got the command."""
    reply = await fake.slash_command(user, "play", {"deal": deal}, channel_id=guild.channel_id)
    message = await reply.wait_response()
    assert message is not None and f"deal #{deal}" in said(message)
    [session] = reply.delivered_to
    return message, session.id


async def test_two_processes_share_the_guilds_by_shard_and_one_database(
    fake: FakeDiscord, bots: BotRunner, tmp_path: Path, database_url: str
) -> None:
    home = fake.guilds[fake.guild_id]
    away = fake.add_guild("Second Guild", fake.guild_id + (1 << 22))
    assert [shard_of(g.id, SHARD_COUNT) for g in (home, away)] == [0, 1]
    first = await start_shard(bots, tmp_path, database_url, 0)
    second = await start_shard(bots, tmp_path, database_url, 1)

    # Each process says which shard it runs; only shard 0's syncs the commands.
    assert "this process runs shard 0 of 2 (SHARD_IDS)" in first.log_text()
    assert "this process runs shard 1 of 2 (SHARD_IDS)" in second.log_text()
    assert "not syncing commands" in second.log_text() and "synced" not in second.log_text()
    assert len([r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]) == 1
    assert connected_line(fake, home) in first.log_text()
    assert connected_line(fake, away) in second.log_text()

    # A /play in each guild reaches only the process running that guild's shard.
    home_board, home_session = await play_in(fake, fake.alice, home, deal=1)
    away_board, away_session = await play_in(fake, fake.bob, away, deal=2)
    assert f"Session ID: {home_session}" in first.log_text() and home_session not in second.log_text()
    assert f"Session ID: {away_session}" in second.log_text() and away_session not in first.log_text()

    # Both games are in the one database; a move in the home guild is stored at once.
    reply = await fake.click("alice", home_board, label="Draw (34)")
    assert said(await reply.wait_response()) == "Played d."
    alice_game = await stored_game(database_url, fake.alice, home.channel_id)
    bob_game = await stored_game(database_url, fake.bob, away.channel_id)
    assert alice_game is not None and (alice_game.guild_id, alice_game.moves) == (home.id, ["d"])
    assert bob_game is not None and (bob_game.guild_id, bob_game.deal, bob_game.moves) == (away.id, 2, [])

    # Shard 1's process dies: the second guild is cut off, the home guild plays on.
    await second.kill()
    with pytest.raises(NoBotConnected):
        await fake.slash_command("bob", "board", channel_id=away.channel_id)
    reply = await fake.click("alice", home_board, label="r · QC")
    assert said(await reply.wait_response()) == "Played rt4."

    # Shard 0's process restarts: alice's moves come back from the database.
    await first.restart(ready_line=READY_LINE)
    reply = await fake.slash_command("alice", "board", channel_id=home.channel_id)
    board = await reply.wait_response()
    assert board is not None and button_label(board, "Draw") == "Draw (31)"
    alice_game = await stored_game(database_url, fake.alice, home.channel_id)
    assert alice_game is not None and alice_game.moves == ["d", "rt4"]

    # Shard 1's process comes back: bob's board from before plays on.
    await second.restart(ready_line=READY_LINE)
    reply = await fake.click("bob", away_board, label="Draw (34)")
    assert said(await reply.wait_response()) == "Played d."
    assert reply.delivered_to == [fake.connected_shard(away.id)]
    bob_game = await stored_game(database_url, fake.bob, away.channel_id)
    assert bob_game is not None and bob_game.moves == ["d"]
    assert fake.failed_interactions == []
