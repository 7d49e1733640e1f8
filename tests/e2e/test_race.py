"""A demon race end to end: three players on the fake Discord server, a lobby in the channel,
private boards, two players racing for the same foundation, the public board kept up to date."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import time
from pathlib import Path

from PIL import Image

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import PNG_SIGNATURE, button, start
from .test_matches import _eventually

# Race 1395, three players: Alice has AH on t1, Bob and Carol each a 2H on top (t6 and t3).
RACE_DEAL = 1395


async def test_a_three_player_race_with_a_race_for_one_foundation(fake: FakeDiscord, bots: BotRunner,
                                                                  tmp_path: Path) -> None:
    await start(bots, tmp_path)
    carol = fake.add_user("carol", permissions=0)
    opened = await (await fake.slash_command("alice", "race open", {"deal": RACE_DEAL})).wait_response()
    assert opened.ephemeral and said(opened) == "Race #1 is open: its board is in the channel."
    lobby = await fake.wait_for_bot_message(predicate=lambda m: said(m).startswith("**Demon race #1**"))
    assert not lobby.ephemeral and [b.label for b in lobby.buttons] == ["Join", "Start", "Cancel race"]
    for who in ("bob", carol):
        joined = await (await fake.click(who, lobby, label="Join")).wait_response()
        assert joined.ephemeral and said(joined) == "You are in race #1."
    refused = await (await fake.click("bob", lobby, label="Start")).wait_response()
    assert refused.ephemeral and "Only the race's host" in said(refused)
    alice = await (await fake.click("alice", lobby, label="Start")).wait_response()
    assert alice.ephemeral and said(alice) == "The race is on! Your cards are dealt."
    assert alice.attachment("race.png").data.startswith(PNG_SIGNATURE) and alice.v2
    assert alice.text_displays()[0] == "**Demon race #1** · your board · 52 cards left"
    assert alice.attachment("race.png").description.startswith("Race board of Alice: 52 cards left.")
    assert await _eventually(fake, lambda: [b.label for b in lobby.buttons] == ["My board"]
                             and lobby.attachments and "52 cards left" in said(lobby))
    assert lobby.v2 and lobby.media_urls() == [lobby.attachment("race.png").url]
    assert lobby.attachment("race.png").description.startswith("Race table. Shared foundations' tops: none yet.")

    bob = await (await fake.click("bob", lobby, label="My board")).wait_response()
    carol_board = await (await fake.click(carol, lobby, label="My board")).wait_response()
    assert button(bob, "t6").label == "t6 · 2H" and button(carol_board, "t3").label == "t3 · 2H"
    assert button(bob, "t6").disabled and button(carol_board, "t3").disabled  # no foundation for them yet

    alice = await (await fake.click("alice", alice, label="t1 · AH")).wait_response()
    assert said(alice) == "Played t1f."
    # Bob and Carol refresh, see the ace, and both send their 2H at once: the first received wins.
    bob = await (await fake.click("bob", bob, label="Refresh")).wait_response()
    carol_board = await (await fake.click(carol, carol_board, label="Refresh")).wait_response()
    assert not button(bob, "t6").disabled and not button(carol_board, "t3").disabled
    clicks = await asyncio.gather(fake.click("bob", bob, label="t6 · 2H"), fake.click(carol, carol_board,
                                                                                     label="t3 · 2H"))
    answers = [await click.wait_response() for click in clicks]
    texts = sorted(said(message) for message in answers)
    assert texts[0].startswith("Beaten to it!") and "got their 2H to that foundation first" in texts[0], texts
    assert texts[1] == "Played t6f." or texts[1] == "Played t3f.", texts
    loser = answers[0] if said(answers[0]).startswith("Beaten") else answers[1]
    assert loser.ephemeral and any(b.label.endswith("· 2H") for b in loser.buttons)  # the card stayed

    # The public board follows within about two seconds, with the foundation and the counts.
    changed = time.monotonic()
    assert await _eventually(fake, lambda: "51 cards left, 1 on the foundations" in said(lobby)
                             and said(lobby).count("52 cards left") == 1, timeout=3)
    assert time.monotonic() - changed < 3
    image = Image.open(io.BytesIO(lobby.attachment("race.png").data))
    assert image.mode == "RGB" and image.width >= 600
    typed = await (await fake.slash_command(carol, "race move", {"moves": "zz"})).wait_response()
    assert typed.ephemeral and "zz" in said(typed)
    assert len(lobby.history) <= 12  # a burst of moves costs a few edits, not one each


async def test_a_race_left_a_day_without_a_move_ends_and_its_players_can_race_again(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    await (await fake.slash_command("alice", "race open", {"deal": RACE_DEAL})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: said(m).startswith("**Demon race #1**"))
    await (await fake.click("bob", lobby, label="Join")).wait_response()
    alice = await (await fake.click("alice", lobby, label="Start")).wait_response()
    assert said(await (await fake.click("alice", alice, label="t1 · AH")).wait_response()) == "Played t1f."
    busy = await (await fake.slash_command("alice", "race open", {})).wait_response()
    assert busy.ephemeral and "already in a race" in said(busy)

    await bot.stop()
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:  # a day and more goes by
        db.execute("UPDATE races SET last_activity = last_activity - 2 * 86400")
    await bot.restart()  # the expiry round runs as the bot starts, then every ten minutes
    ended = await fake.wait_for_bot_message(predicate=lambda m: said(m).startswith("Race #1: "), timeout=10)
    assert said(ended) == (f"Race #1: Ended after 24 hours without a move. Scores: <@{fake.alice.id}> 1, "
                             f"<@{fake.bob.id}> 0.")
    assert await _eventually(fake, lambda: "Final scores: Alice 1, Bob 0." in said(lobby) and not lobby.buttons)
    late = await (await fake.slash_command("bob", "race move", {"moves": "d"})).wait_response()
    assert late.ephemeral and said(late) == "You are in no race here: /race open starts one."
    old_button = await (await fake.click("alice", alice, custom_id=button(alice, "Draw").custom_id)).wait_response()
    assert old_button.ephemeral and "over" in said(old_button)
    again = await (await fake.slash_command("alice", "race open", {})).wait_response()
    assert said(again) == "Race #2 is open: its board is in the channel."
