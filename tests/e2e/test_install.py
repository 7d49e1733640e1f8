"""A user-installable app (issue 16), end to end: solo games and the daily wherever a member has the
app (a DM, a group DM, a server that has not added the bot), /watch, and sharing a daily's result."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from .fakediscord import FakeDiscord, StoredMessage
from .harness import BotRunner
from .test_bot import SOLVER_WAIT, board_of, button, start
from .test_mentions import kind_of, pings

ANYWHERE = {"play", "move", "board", "undo", "hint", "resign", "rules", "help", "daily", "watch", "analyse", "solution",
            "replay", "remind", "table"}
SERVER_ONLY = {"prefix", "match", "team", "settings", "leaderboard", "stats", "race"}
REFUSAL = "This works on a server that has added Patient Exorcism"


def stored_games(tmp_path: Path) -> list[tuple[int | None, int, int, str]]:
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        return db.execute("SELECT guild_id, channel_id, user_id, moves FROM games ORDER BY id").fetchall()


def picture(message: StoredMessage) -> tuple[tuple[int, int], bytes]:
    """The board a message shows now, as its size and pixels (a message edited later changes)."""
    image = board_of(message)
    return image.size, image.convert("RGB").tobytes()


async def test_the_commands_are_registered_with_their_installs_and_contexts(fake: FakeDiscord, bots: BotRunner,
                                                                            tmp_path: Path) -> None:
    await start(bots, tmp_path)
    registered = {command["name"]: (command.get("integration_types"), command.get("contexts"))
                  for command in fake.commands[None]}
    assert set(registered) >= ANYWHERE | SERVER_ONLY
    for name, places in registered.items():
        expected = ([0, 1], [0, 1, 2]) if name in ANYWHERE else ([0], [0])
        assert places == expected, name


async def test_a_user_installed_solo_game_in_a_dm_by_button_and_typed_move(fake: FakeDiscord, bots: BotRunner,
                                                                          tmp_path: Path) -> None:
    await start(bots, tmp_path)
    fake.install_for_user("bob")
    dm = fake.dm_channel("bob")
    played = await fake.slash_command("bob", "play", {"deal": 1}, channel_id=dm.id)
    board = await played.wait_response()
    first = picture(board)
    assert played.context == 1 and played.owners == {"0": "0", "1": str(fake.bob.id)}
    assert "New game of Canfield, deal #1" in board.text()
    drawn = await (await fake.click("bob", board, button(board, "Draw").custom_id)).wait_response()
    assert "Played d." in drawn.text() and picture(drawn) != first
    moved = await (await fake.slash_command("bob", "move", {"moves": "d"}, channel_id=dm.id)).wait_response()
    assert "Played d." in moved.text()
    assert stored_games(tmp_path) == [(None, dm.id, fake.bob.id, "d d")]
    # In a group DM (the bot is no member of it) the game is the member's own too.
    group = fake.group_dm("bob", "alice")
    there = await fake.slash_command("bob", "play", {"deal": 5}, channel_id=group.id)
    assert there.context == 2 and "deal #5" in (await there.wait_response()).text()
    assert fake.error_responses == []


async def test_a_solo_game_in_a_server_without_the_bot_is_answered_only_through_the_interaction(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    await start(bots, tmp_path)
    fake.install_for_user("alice")
    channel = elsewhere.channel_id
    board = await (await fake.slash_command("alice", "play", {"deal": 1}, channel_id=channel)).wait_response()
    drawn = await (await fake.click("alice", board, button(board, "Draw").custom_id)).wait_response()
    assert "Played d." in drawn.text() and drawn.id == board.id  # the button edited the board in place
    typed = await fake.slash_command("alice", "move", {"moves": "d", "public": True}, channel_id=channel)
    assert "Played d." in (await typed.wait_response()).text() and not typed.message.ephemeral
    rules = await (await fake.slash_command("alice", "rules", {}, channel_id=channel)).wait_response()
    assert rules.ephemeral and "Canfield" in rules.text()
    assert stored_games(tmp_path) == [(elsewhere.id, channel, fake.alice.id, "d d")]
    # Nothing went to the channel but through interactions, and nothing was refused.
    assert not [r for r in fake.requests if re.fullmatch(r"/channels/\d+/messages(/\d+)?", r.path)]
    assert fake.error_responses == []


async def test_server_commands_where_the_server_lacks_the_bot_get_a_short_refusal(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    await start(bots, tmp_path)
    fake.install_for_user("alice")
    dm = fake.dm_channel("alice")
    for name, options, channel in [("match open", {}, dm.id), ("leaderboard", {}, elsewhere.channel_id),
                                   ("team create", {"name": "Red"}, elsewhere.channel_id),
                                   ("race open", {}, dm.id)]:
        sent = await fake.slash_command("alice", name, options, channel_id=channel, offered=False)
        refused = await sent.wait_response()
        assert refused.ephemeral and refused.text().startswith(REFUSAL), name
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM teams").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM races").fetchone() == (0,)


async def test_a_watcher_sees_a_members_board_and_refreshes_it_after_a_move(fake: FakeDiscord, bots: BotRunner,
                                                                           tmp_path: Path) -> None:
    await start(bots, tmp_path)
    carol = fake.add_user("carol", permissions=0)
    nobody = await (await fake.slash_command("bob", "watch", {"member": fake.alice})).wait_response()
    assert nobody.ephemeral and "no game in play in this channel" in nobody.text()
    board = await (await fake.slash_command("alice", "play", {"deal": 1})).wait_response()
    watch = await fake.slash_command("bob", "watch", {"member": fake.alice})
    watched = await watch.wait_response()
    assert not watched.ephemeral and f"Watching <@{fake.alice.id}>'s Canfield, deal #1" in watched.text()
    assert [b.label for b in watched.buttons] == ["Refresh ↻"]  # read-only: no move buttons, no menu
    assert watched.selects == [] and picture(watched) == picture(board)
    first = picture(board)
    [(kind, fields)] = [found for r in fake.requests if r.path.startswith(f"/interactions/{watch.id}/")
                        if (found := kind_of(r))]
    assert kind == "interaction response" and pings(fields) == (set(), set())  # names Alice, pings nobody

    drawn = await (await fake.click("alice", board, button(board, "Draw").custom_id)).wait_response()
    refreshed = await (await fake.click(carol, watched, label="Refresh ↻")).wait_response()
    assert refreshed.id == watched.id and "1 move" in refreshed.text()
    assert picture(refreshed) == picture(drawn) != first
    assert "0 moves" not in refreshed.text()
    mine = await (await fake.slash_command("alice", "watch", {"member": fake.alice})).wait_response()
    assert not mine.ephemeral and picture(mine) == picture(drawn)  # watching yourself is fine


async def test_a_daily_is_watched_only_by_those_who_have_played_theirs_and_its_result_is_shared_once(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    daily = await (await fake.slash_command("alice", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    hinted = await (await fake.click("alice", daily, label="Hint")).wait_response(timeout=SOLVER_WAIT)
    assert "Hint:" in hinted.text()
    hidden = await (await fake.slash_command("bob", "watch", {"member": fake.alice})).wait_response()
    assert hidden.ephemeral and "Play your own Canfield daily of" in hidden.text()
    bobs = await (await fake.slash_command("bob", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    still_hidden = await (await fake.slash_command("bob", "watch", {"member": fake.alice})).wait_response()
    assert still_hidden.ephemeral and "Play your own" in still_hidden.text()  # in play is not played
    await (await fake.click("bob", bobs, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    shown = await (await fake.slash_command("bob", "watch", {"member": fake.alice})).wait_response()
    # Bob has played it, but the channel has not: today's daily is shown to Bob alone.
    assert shown.ephemeral and f"Watching <@{fake.alice.id}>'s Canfield" in shown.text()

    assert "Share" not in [b.label for b in daily.buttons]  # only a finished daily is shared
    over = await (await fake.click("alice", daily, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert button(over, "Share").custom_id == f"pe:share:{1}"
    forged = await (await fake.forged_click("bob", button(over, "Share").custom_id)).wait_response()
    assert forged.ephemeral and "not your game" in forged.text()
    shared = await (await fake.click("alice", over, label="Share")).wait_response()
    lines = shared.text().splitlines()
    assert not shared.ephemeral and re.fullmatch(r"\*\*Patient Exorcism\*\* · daily Canfield · \d{4}-\d\d-\d\d",
                                                 lines[0])
    assert lines[1] == f"<@{fake.alice.id}>: resigned, score -12 in 0 moves"
    assert sorted(lines[2].split()[0]) == sorted("🟥⬛⬛⬛") and lines[2].endswith(" 1/52 cards home")  # the base card
    assert lines[3] == "No undo, 1 hint."
    assert "deal" not in shared.text() and shared.attachments == []  # no spoiler
    again = await (await fake.click("alice", over, label="Share")).wait_response()
    assert again.ephemeral and "shared this daily's result already" in again.text()
    public = [m for m in fake.channel_messages() if not m.ephemeral and "Patient Exorcism** · daily" in m.text()]
    assert public == [shared]


async def test_a_daily_is_shared_where_the_server_lacks_the_bot_as_the_interactions_answer(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    closed = fake.add_guild("External apps off", bot_member=False, external_apps=False)
    await start(bots, tmp_path)
    for who in ("alice", "bob"):
        fake.install_for_user(who)
    daily = await (await fake.slash_command("alice", "daily", {}, channel_id=elsewhere.channel_id)
                   ).wait_response(timeout=SOLVER_WAIT)
    over = await (await fake.click("alice", daily, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    shared = await (await fake.click("alice", over, label="Share")).wait_response()
    assert not shared.ephemeral and shared.channel_id == elsewhere.channel_id and "No undo, no hints." in shared.text()
    # Where the server turned external apps off, Discord would show the card to Bob alone: it is not
    # posted, and his daily stays unshared.
    bobs = await (await fake.slash_command("bob", "daily", {}, channel_id=closed.channel_id)
                  ).wait_response(timeout=SOLVER_WAIT)
    bob_over = await (await fake.click("bob", bobs, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    refused = await (await fake.click("bob", bob_over, label="Share")).wait_response()
    assert refused.ephemeral and "the card would reach nobody here" in refused.text()
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        assert db.execute("SELECT user_id, shared FROM daily_attempts ORDER BY user_id").fetchall() == [
            (fake.alice.id, 1), (fake.bob.id, 0)]
    assert not [r for r in fake.requests if re.fullmatch(r"/channels/\d+/messages(/\d+)?", r.path)]
    assert fake.error_responses == []
