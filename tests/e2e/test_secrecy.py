"""Fair play end to end, as a hostile member would try it through the real bot and the fake Discord:
a live deal (today's daily, a round of an open match) is never shown by number, dealt again,
solved, posted to the channel, or shown in another channel, whatever the route; and at midnight
the day stays live for whoever is still in it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .fakediscord import FakeDiscord, FakeInteraction, StoredMessage
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, button, start
from .test_matches import _eventually


def stored_deal(tmp_path: Path, game_id: int) -> int:
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        (deal,) = db.execute("SELECT deal FROM games WHERE id = ?", (game_id,)).fetchone()
    return int(deal)


def game_ids(tmp_path: Path) -> list[int]:
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        return [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]


def everything(message: StoredMessage) -> str:
    """All a message says: its content, components and attachments' descriptions, as JSON."""
    return json.dumps(message.payload(), ensure_ascii=False)


async def answer_seen(interaction: FakeInteraction, timeout: float = SOLVER_WAIT) -> StoredMessage:
    """The answer its member sees: after a public "thinking…" taken away, the followup in its place."""
    await interaction.wait_response(timeout)
    done = await interaction.wait_for(lambda i: i.latest is not None and not i.latest.deleted, timeout)
    assert done.latest is not None
    return done.latest


def public_boards(fake: FakeDiscord) -> list[StoredMessage]:
    """The bot's messages a channel sees (any channel) that carry an image."""
    return [m for m in fake.messages.values()
            if not m.deleted and not m.ephemeral and m.author == fake.bot_user and m.attachments]


async def test_todays_daily_is_never_numbered_dealt_again_solved_nor_posted(fake: FakeDiscord, bots: BotRunner,
                                                                            tmp_path: Path) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    carol = fake.add_user("carol")
    fake.install_for_user(carol)
    await start(bots, tmp_path)
    board = await (await fake.slash_command("alice", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    (game_id,) = game_ids(tmp_path)
    deal = stored_deal(tmp_path, game_id)
    today = datetime.now(UTC).date().isoformat()
    assert board.ephemeral and board.text().startswith(f"**Canfield** · Daily · {today} · score")
    assert str(deal) not in everything(board)  # not in the status line, the text, the alt text

    # Bob learnt the number somehow (it cannot be worked out: brute force on the cards, say).
    copy = await (await fake.slash_command("bob", "play", {"deal": deal})).wait_response()
    assert copy.ephemeral and said(copy).startswith(f"That deal is being played as the Canfield daily of {today}")
    assert game_ids(tmp_path) == [game_id]  # nothing dealt

    # Alice cannot post it: every public route answers her alone, saying why.
    for name, options in (("board", {"public": True}), ("move", {"moves": "d", "public": True})):
        shown = await answer_seen(await fake.slash_command("alice", name, options))
        assert shown.ephemeral and shown.attachment("board.png"), name
        assert f"Shown to you alone: the Canfield daily of {today} stays off the channel" in said(shown), name
    typed = await fake.message("alice", "d", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=typed)
    assert answer.attachments == [] and said(answer).startswith("Done: this game's deal is still being played")
    # Her own board's button on a message the channel sees (a copied or forged one): the board is
    # shown to her alone, and the channel's message stays as it was.
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        (version,) = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    click = await fake.forged_click("alice", f"pe:{game_id}:{version}:draw")
    pressed = await answer_seen(click)
    assert pressed.ephemeral and "Shown to you alone" in said(pressed) and pressed.attachment("board.png")
    source = fake.messages[click.source_message_id or 0]
    assert source.content == "forged" and source.version == 0 and source.attachments == []
    assert public_boards(fake) == []

    over = await (await fake.slash_command("alice", "resign", {})).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned" in said(over) and str(deal) not in everything(over)
    replay = await answer_seen(await fake.slash_command("alice", "replay", {"public": True}))
    assert replay.ephemeral and replay.attachment(f"replay-{game_id}.gif")
    assert "Shown to you alone" in replay.text() and f"Daily · {today}" in replay.text()
    assert str(deal) not in everything(replay)
    for name in ("analyse", "solution"):  # what the solver finds waits until the daily is over
        refused = await (await fake.slash_command("alice", name, {})).wait_response()
        assert refused.ephemeral and said(refused).startswith(f"The Canfield daily of {today} is still being played")
    hidden = await (await fake.slash_command("bob", "replay", {"player": fake.alice})).wait_response()
    assert hidden.ephemeral and said(hidden).startswith(f"Play your own Canfield daily of {today} first")
    # A member's own app, in a server that has not added the bot: the same.
    await (await fake.slash_command(carol, "daily", {}, channel_id=elsewhere.channel_id)).wait_response(
        timeout=SOLVER_WAIT)
    there = await answer_seen(await fake.slash_command(carol, "board", {"public": True},
                                                       channel_id=elsewhere.channel_id))
    assert there.ephemeral and "Shown to you alone" in said(there) and there.channel_id == elsewhere.channel_id
    assert public_boards(fake) == []


async def test_a_match_round_copied_into_a_dm_is_refused_and_its_line_waits_for_the_match(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    fake.install_for_user("bob")
    await (await fake.slash_command("alice", "match open", {})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "match #1" in said(m))
    await (await fake.click("bob", lobby, label="Join")).wait_response()
    await (await fake.click("alice", lobby, label="Start")).wait_response()
    assert await _eventually(fake, lambda: "My board" in [b.label for b in lobby.buttons])
    mine = await (await fake.click("bob", lobby, label="My board")).wait_response(timeout=SOLVER_WAIT)
    (round_id,) = game_ids(tmp_path)[-1:]
    deal = stored_deal(tmp_path, round_id)
    assert mine.ephemeral and "Match #1 · round 1" in mine.text() and str(deal) not in everything(mine)
    dm = fake.dm_channel("bob")
    copy = await (await fake.slash_command("bob", "play", {"deal": deal}, channel_id=dm.id)).wait_response()
    assert said(copy) == "That deal is being played in round 1 of match #1: it can be dealt on its own once the " \
                         "match is over."
    await (await fake.click("bob", mine, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    line = await (await fake.slash_command("bob", "solution", {"game": round_id}, channel_id=dm.id)).wait_response()
    assert said(line) == "A match's round can be looked back on once the match is over (match #1)."


async def test_a_watched_boards_refresh_and_a_boards_buttons_act_only_in_their_channel(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    other = fake.add_guild("Second Guild")
    await start(bots, tmp_path)
    fake.install_for_user("bob")
    board = await (await fake.slash_command("alice", "play", {"deal": 1})).wait_response()
    watched = await (await fake.slash_command("bob", "watch", {"member": fake.alice})).wait_response()
    assert not watched.ephemeral
    refresh = button(watched, "Refresh").custom_id
    draw = button(board, "Draw").custom_id
    for who, custom_id in (("bob", refresh), ("alice", refresh), ("alice", draw)):
        for channel in (other.channel_id, fake.dm_channel("bob" if who == "bob" else "alice").id):
            refused = await (await fake.forged_click(who, custom_id, channel_id=channel)).wait_response()
            assert refused.ephemeral and said(refused) == ("That button belongs to a game played in another "
                                                           "channel: it works there."), (who, custom_id, channel)
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        assert db.execute("SELECT moves, version FROM games").fetchall() == [("", 0)]  # nothing moved
    # In its own channel, both work.
    assert "1 move" not in said(watched)
    await (await fake.click("alice", board, draw)).wait_response()
    refreshed = await (await fake.click("bob", watched, refresh)).wait_response()
    assert refreshed.id == watched.id and "1 move" in said(refreshed)


async def test_at_midnight_the_day_stays_live_for_whoever_is_still_in_it_until_one_oclock(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    fake.add_user("carol")
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC)

    def clock_at(moment: datetime) -> dict[str, str]:
        return {"CLOCK_OFFSET": str((moment - datetime.now(UTC)).total_seconds())}

    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'pe.sqlite3'}", "HEALTH_FILE": str(tmp_path / "alive")}
    bot = await bots.start_bot("tests.e2e.clockbot", env={**env, **clock_at(midnight - timedelta(minutes=5))})
    day = now.date().isoformat()
    alices = await (await fake.slash_command("alice", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    bobs = await (await fake.slash_command("bob", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    assert f"Daily · {day}" in alices.text() and f"Daily · {day}" in bobs.text()
    await (await fake.click("bob", bobs, button(bobs, "Draw").custom_id)).wait_response()
    await (await fake.click("alice", alices, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    alice_game = game_ids(tmp_path)[0]

    # 00:10 the next day: Bob is still in the day's daily; it stays live.
    await bot.stop()
    bot.env.update(clock_at(midnight + timedelta(minutes=10)))
    await bot.start()
    for viewer in ("bob", "carol"):
        refused = await answer_seen(await fake.slash_command(viewer, "replay", {"game": alice_game, "public": True}))
        assert refused.ephemeral and said(refused).startswith(f"The Canfield daily of {day} is still being "
                                                              "finished by others"), viewer
    watched = await answer_seen(await fake.slash_command("alice", "watch", {"member": fake.bob}))
    assert watched.ephemeral and "Shown to you alone" in said(watched)
    resumed = await (await fake.slash_command("bob", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    assert f"Daily · {day}" in resumed.text() and "Its day is over: finish it by" in resumed.text()
    mine = await answer_seen(await fake.slash_command("alice", "replay", {"public": True}))
    assert mine.ephemeral and "Shown to you alone" in said(mine)
    assert public_boards(fake) == []

    # 01:01: the attempt still in play was ended at start; the day is over for everyone.
    await bot.stop()
    bot.env.update(clock_at(midnight + timedelta(hours=1, minutes=1)))
    await bot.start()
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        for _ in range(100):
            statuses = db.execute("SELECT status FROM games ORDER BY id").fetchall()
            if statuses == [("resigned",), ("resigned",)]:
                break
            await asyncio.sleep(0.1)
    assert statuses == [("resigned",), ("resigned",)]
    posted = await (await fake.slash_command("carol", "replay", {"game": alice_game, "public": True})
                    ).wait_response(timeout=SOLVER_WAIT)
    assert not posted.ephemeral and posted.attachment(f"replay-{alice_game}.gif")
    fresh = await (await fake.slash_command("bob", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    tomorrow = midnight.date().isoformat()
    assert f"Daily · {tomorrow}" in fresh.text() and len(game_ids(tmp_path)) == 3
