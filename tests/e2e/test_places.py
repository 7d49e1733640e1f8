"""Every button belongs to its place: a match's or a race's buttons act only in the server and
channel of that match or race, whoever presses them and whatever their permissions elsewhere."""

from __future__ import annotations

from pathlib import Path

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import start
from .test_matches import _eventually


async def test_buttons_pressed_from_another_server_are_refused_and_change_nothing(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    other = fake.add_guild("Second Guild")
    await start(bots, tmp_path)
    dave = fake.add_user("dave")  # Manage Server (every permission): an admin, of the second server too
    carol = fake.add_user("carol", permissions=0)
    await (await fake.slash_command("alice", "team create", {"name": "Red"})).wait_response()
    await (await fake.slash_command("alice", "match open", {"teams": True})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "match #1" in said(m))
    await (await fake.slash_command("alice", "race open", {})).wait_response()
    race = await fake.wait_for_bot_message(predicate=lambda m: "race #1" in said(m))

    for who, custom_id, values in [(dave, "pm:1:start", None), (dave, "pm:1:cancel", None),
                                   (dave, "pm:1:join", None), (carol, "pm:1:team", ["Red"]),
                                   (dave, "pm:1:board", None), (dave, "pm:1:next", None),
                                   (dave, "pr:1:join", None), (dave, "pr:1:cancel", None),
                                   (dave, "prb:1:0:draw", None)]:
        click = await fake.forged_click(who, custom_id, channel_id=other.channel_id, values=values)
        refused = await click.wait_response()
        assert refused.ephemeral and "in another channel" in said(refused), (custom_id, said(refused))

    # Nothing changed: both lobbies wait as they were, with Alice alone in them (an edit that a
    # join of Alice's own brings about shows the match as it stands).
    edits = lobby.version
    await (await fake.click("alice", lobby, label="Join")).wait_response()
    assert await _eventually(fake, lambda: lobby.version > edits)
    assert "Waiting for players" in said(lobby) and "**Red** (Alice): 0 points" in said(lobby)
    assert "Dave" not in said(lobby) and "Carol" not in said(lobby)
    joined = await (await fake.click(carol, race, label="Join")).wait_response()  # in its own place: fine
    assert said(joined) == "You are in race #1."
    assert await _eventually(fake, lambda: "Carol" in said(race) or f"<@{carol.id}>" in said(race))
    assert f"<@{dave.id}>" not in said(race) and "lobby" in said(race)


async def test_play_outside_the_servers_play_channels_is_refused_and_starts_nothing(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    games = fake.add_channel("games")
    await start(bots, tmp_path)
    allowed = await (await fake.slash_command("alice", "settings", {"channel": games.id})).wait_response()
    assert f"<#{games.id}>" in said(allowed)
    refused = await (await fake.slash_command("bob", "play", {})).wait_response()
    assert refused.ephemeral and said(refused) == f"Games are played in <#{games.id}> on this server."
    nothing = await (await fake.slash_command("bob", "board", {})).wait_response()
    assert nothing.ephemeral and "no game in this channel" in said(nothing)
    played = await (await fake.slash_command("bob", "play", {}, channel_id=games.id)).wait_response()
    assert played.ephemeral and played.attachment("board.png")
