"""Tests of the fake Discord itself, driven by a minimal real discord.py bot (tests/e2e/minibot.py)."""

from __future__ import annotations

import json

import aiohttp
import pytest

from .fakediscord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    InteractionFailed,
)
from .harness import BotProcess, BotRunner

MINIBOT = "tests.e2e.minibot"
COMMANDS = ["ping", "pick", "slow", "late", "choose"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def start_minibot(bots: BotRunner, **env: str) -> BotProcess:
    """Start the minibot and wait until it is connected (its commands are synced before it connects)."""
    return await bots.start_bot(MINIBOT, env=env)


async def test_bot_connects_and_syncs_commands(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    assert fake.command_names() == COMMANDS
    assert fake.find_command("pick")["options"][0]["autocomplete"] is True
    query = fake.gateway_queries[0]
    assert query == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    session = fake.connected_sessions[0]
    assert session.shard == [0, 1]
    assert not session.wants(1 << 15)  # Intents.default() has no message_content
    paths = [r.path for r in fake.requests]
    assert paths[:3] == ["/users/@me", "/oauth2/applications/@me", f"/applications/{fake.application_id}/commands"]
    assert "/gateway/bot" in paths
    assert fake.unknown_routes == []


async def test_commands_synced_to_a_guild(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots, MINIBOT_SYNC_GUILD=str(fake.guild_id))

    assert fake.command_names() == []
    assert fake.command_names(fake.guild_id) == COMMANDS
    reply = await fake.slash_command(fake.alice, "pick", {"fruit": "mango"})
    assert reply.data["guild_id"] == str(fake.guild_id)
    message = await reply.wait_response()
    assert message is not None and message.content == "you picked mango"
    assert not message.ephemeral


async def test_ping_sends_a_private_png_with_a_button(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    reply = await fake.slash_command("alice", "ping")
    message = await reply.wait_response()

    assert reply.latency is not None and reply.latency < 3
    assert reply.response_type == CHANNEL_MESSAGE
    assert message is not None and message.content == "pong 1"
    assert message.ephemeral and reply.ephemeral
    attachment = message.attachment("pong.png")
    assert attachment.data.startswith(PNG_SIGNATURE)
    assert attachment.content_type == "image/png"
    [button] = message.buttons
    assert (button.custom_id, button.label, button.disabled) == ("mini:1", "Count 1", False)
    assert message.visible_to(fake.alice) and not message.visible_to(fake.bob)
    assert fake.channel_messages(user="bob") == []
    async with aiohttp.ClientSession() as http, http.get(attachment.url) as response:
        assert await response.read() == attachment.data


async def test_clicking_the_button_edits_the_message(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)
    message = await (await fake.slash_command("alice", "ping")).wait_response()
    assert message is not None

    click = await fake.click("alice", message.id, "mini:1")
    edited = await click.wait_response()

    assert click.response_type == UPDATE_MESSAGE
    assert edited is message and message.version == 1
    assert message.content == "pong 2"
    assert [b.custom_id for b in message.buttons] == ["mini:2"]
    assert message.history[0]["content"] == "pong 1"
    [image] = message.attachments
    assert image.filename == "pong-2.png" and image.data.startswith(PNG_SIGNATURE)
    with pytest.raises(PermissionError):
        await fake.click("bob", message.id, "mini:2")


async def test_old_button_still_works_after_kill_and_restart(fake: FakeDiscord, bots: BotRunner) -> None:
    bot = await start_minibot(bots)
    message = await (await fake.slash_command("alice", "ping")).wait_response()
    assert message is not None

    await bot.kill()
    assert bot.returncode == -9
    assert not fake.bot_connected
    await bot.restart()
    assert fake.identify_count == 2

    click = await fake.click("alice", message, "mini:1")
    await click.wait_response()
    assert message.content == "pong 2"


async def test_select_with_deferred_update(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)
    message = await (await fake.slash_command("bob", "choose")).wait_response()
    assert message is not None and not message.ephemeral
    [menu] = message.selects
    assert menu.option_values == ["apple", "apricot", "banana", "blueberry", "cherry"]

    choice = await fake.select("alice", message.id, "fruit-select", ["cherry"])
    await choice.wait_response()

    assert choice.response_type == DEFERRED_UPDATE_MESSAGE
    assert message.content == "you chose cherry"
    assert message.selects[0].disabled
    with pytest.raises(ValueError, match="disabled"):
        await fake.select("alice", message.id, "fruit-select", ["apple"])


@pytest.mark.parametrize("message_content", ["0", "1"])
async def test_mention_gets_a_reply(fake: FakeDiscord, bots: BotRunner, message_content: str) -> None:
    bot = await start_minibot(bots, MINIBOT_MESSAGE_CONTENT=message_content)
    assert fake.connected_sessions[0].wants(1 << 15) == (message_content == "1")

    await fake.message("bob", "no mention here")
    sent = await fake.message("alice", "rt2", mentions_bot=True)
    reply = await fake.wait_for_bot_message(after=sent)

    assert sent.content == f"<@{fake.bot_user.id}> rt2"
    assert reply.content == "hello alice, you said: rt2"
    assert reply.message_reference is not None and reply.message_reference["message_id"] == str(sent.id)
    assert reply.channel_id == fake.channel_id
    # Without the message_content intent Discord blanks the content of messages that do not mention the bot.
    seen = "'no mention here'" if message_content == "1" else "''"
    assert f"message from bob: {seen}" in bot.log_text()


async def test_rate_limits_are_retried(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)
    callback_limit = fake.rate_limit("POST", "/interactions/*/*/callback", count=1, retry_after=0.2)
    message_limit = fake.rate_limit("POST", "/channels/*/messages", count=2, retry_after=0.1)

    reply = await fake.slash_command("alice", "ping")
    message = await reply.wait_response()
    sent = await fake.message("bob", "hi", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=sent)

    assert callback_limit.hits == 1 and message_limit.hits == 2
    assert message is not None and message.content == "pong 1"
    assert reply.latency is not None and 0.2 <= reply.latency < 3
    assert answer.content == "hello bob, you said: hi"
    statuses = [r.status for r in fake.requests if r.path.startswith("/interactions/")]
    assert statuses == [429, 200]


async def test_wrong_token_makes_the_bot_exit(fake: FakeDiscord, bots: BotRunner) -> None:
    bot = await bots.start_bot(MINIBOT, env={"DISCORD_TOKEN": "not-the-token"}, wait_ready=False)

    code = await bot.wait_exit(timeout=15)

    assert code != 0
    assert "Improper token" in bot.log_text()
    assert [(r.path, r.status) for r in fake.requests] == [("/users/@me", 401)]
    assert fake.identify_count == 0


async def test_autocomplete_returns_choices(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    choices = await fake.autocomplete("alice", "pick", {"fruit": "ap"})

    assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]


async def test_deferred_response_then_edit_and_followup(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    reply = await fake.slash_command("alice", "slow")
    await reply.wait()
    assert reply.response_type == DEFERRED_CHANNEL_MESSAGE and reply.deferred
    assert reply.message is not None and reply.message.loading

    message = await reply.wait_response(timeout=5)
    assert message is reply.message and message is not None
    assert message.content == "slow done" and not message.loading
    assert message.attachment("notes.txt").data == b"thought for 1 s"
    await reply.wait_for(lambda r: r.followups, timeout=5)
    assert [m.content for m in reply.followups] == ["and a followup"]
    assert reply.latest is reply.followups[0]


async def test_late_response_is_marked_failed(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    reply = await fake.slash_command("alice", "late")
    with pytest.raises(InteractionFailed):
        await reply.wait(timeout=5)
    assert reply.failed and not reply.acknowledged

    await reply.wait_for(lambda r: r.rejected_callbacks, timeout=5)
    [late] = reply.rejected_callbacks
    assert late.elapsed > 3 and late.error == "Unknown interaction"
    assert reply.message is None and fake.failed_interactions == [reply]
    assert any(r.status == 404 for r in fake.error_responses if r.path.startswith("/interactions/"))


async def test_gateway_resume_after_disconnect(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    await fake.disconnect_bot(code=4000)
    await fake.wait_for_resume(1)

    assert fake.identify_count == 1
    reply = await fake.slash_command("alice", "ping")
    await reply.wait_response()


async def test_fake_rejects_unknown_routes_and_bad_tokens(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(fake.api_base + "/users/@me", headers={"Authorization": "Bot nope"}) as response:
            assert response.status == 401
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(fake.api_base + "/no/such/route", headers=headers) as response:
            assert response.status == 404
            assert response.headers["Content-Type"] == "application/json"
            assert "no route" in (await response.json())["message"]
        empty = {"content": ""}
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        async with http.post(url, json=empty, headers=headers) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 50006
    assert fake.unknown_routes == ["GET /api/v10/no/such/route"]


async def test_channel_messages_keep_replace_and_delete_attachments(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"

    def form(payload: dict[str, object], files: dict[str, bytes]) -> aiohttp.FormData:
        data = aiohttp.FormData(quote_fields=False)
        data.add_field("payload_json", json.dumps(payload))
        for index, (name, content) in enumerate(files.items()):
            data.add_field(f"files[{index}]", content, filename=name, content_type="application/octet-stream")
        return data

    async with aiohttp.ClientSession(headers=headers) as http:
        first = {"content": "one", "attachments": [{"id": 0, "filename": "a.txt"}]}
        async with http.post(url, data=form(first, {"a.txt": b"A"})) as response:
            created = await response.json()
        message = fake.messages[int(created["id"])]
        assert created["attachments"][0]["filename"] == "a.txt" and message.attachment().data == b"A"

        kept = {"id": created["attachments"][0]["id"]}
        edit = {"content": "two", "attachments": [kept, {"id": 0, "filename": "b.txt"}]}
        async with http.patch(f"{url}/{message.id}", data=form(edit, {"b.txt": b"B"})) as response:
            assert response.status == 200
        assert message.content == "two" and [a.filename for a in message.attachments] == ["a.txt", "b.txt"]

        async with http.patch(f"{url}/{message.id}", json={"attachments": []}) as response:
            assert response.status == 200
        assert message.attachments == [] and message.content == "two" and message.version == 2

        async with http.delete(f"{url}/{message.id}") as response:
            assert response.status == 204
        async with http.get(f"{url}/{message.id}") as response:
            assert response.status == 404 and (await response.json())["code"] == 10008
    assert message.deleted and fake.channel_messages() == []
