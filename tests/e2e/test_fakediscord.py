"""Tests of the fake Discord itself, driven by a minimal real discord.py bot (tests/e2e/minibot.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from .fakediscord import (
    APPLICATION_COMMAND,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    UPDATE_MESSAGE,
    USE_EXTERNAL_APPS,
    CommandNotOffered,
    FakeDiscord,
    FakeInteraction,
    InteractionFailed,
    NoBotConnected,
    shard_of,
)
from .harness import BotProcess, BotRunner, running_fake

MINIBOT = "tests.e2e.minibot"
COMMANDS = ["ping", "pick", "slow", "late", "choose", "where"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def start_minibot(bots: BotRunner, **env: str) -> BotProcess:
    """Start the minibot and wait until it is connected (its commands are synced before it connects)."""
    return await bots.start_bot(MINIBOT, env=env)


async def test_bot_connects_and_syncs_commands(fake: FakeDiscord, bots: BotRunner) -> None:
    await start_minibot(bots)

    assert fake.command_names() == COMMANDS
    assert fake.find_command("pick")["options"][0]["autocomplete"] is True
    query = fake.gateway_queries[0]
    # zstd where zstandard is installed (the speed extra), else zlib: the fake sends text frames either way.
    assert query in ({"v": "10", "encoding": "json", "compress": compress}
                     for compress in ("zlib-stream", "zstd-stream"))
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


async def test_fake_exchanges_an_oauth2_code_once_for_a_token_that_names_its_user(fake: FakeDiscord) -> None:
    code = fake.oauth_code("bob")
    form = {"client_id": str(fake.application_id), "client_secret": fake.client_secret,
            "grant_type": "authorization_code", "code": code}
    async with aiohttp.ClientSession() as http:
        async with http.post(fake.api_base + "/oauth2/token", data={**form, "client_secret": "nope"}) as wrong:
            assert wrong.status == 401 and (await wrong.json())["error"] == "invalid_client"
        async with http.post(fake.api_base + "/oauth2/token", data=form) as exchanged:
            assert exchanged.status == 200
            token = (await exchanged.json())["access_token"]
        async with http.post(fake.api_base + "/oauth2/token", data=form) as again:
            assert again.status == 400 and (await again.json())["error"] == "invalid_grant"  # a code works once
        async with http.get(fake.api_base + "/users/@me", headers={"Authorization": f"Bearer {token}"}) as me:
            assert (await me.json())["id"] == str(fake.bob.id)
        async with http.get(fake.api_base + "/users/@me", headers={"Authorization": "Bearer forged"}) as forged:
            assert forged.status == 401


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


class RawShard:
    """A bare gateway client that identifies as one shard and records the events it gets."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict[str, Any]]] = []
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, http: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int]) -> RawShard:
        """Connect, IDENTIFY as ``shard`` ([id, count]) and start recording."""
        ws = await http.ws_connect(fake.gateway_url + "?v=10&encoding=json")
        assert (await ws.receive_json())["op"] == 10  # HELLO
        identify = {"token": fake.token, "intents": INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES,
                    "shard": shard, "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        return cls(ws)

    async def _read(self) -> None:
        async for frame in self.ws:
            if frame.type is aiohttp.WSMsgType.TEXT:
                data = json.loads(frame.data)
                if data.get("op") == 0:
                    self.events.append((data["t"], data["d"]))

    def names(self) -> list[str]:
        """The events received so far, by name."""
        return [name for name, _ in self.events]

    async def wait_for(self, name: str, count: int = 1) -> None:
        """Wait until ``count`` events called ``name`` arrived."""
        async with asyncio.timeout(5):
            while self.names().count(name) < count:
                await asyncio.sleep(0.01)

    async def closed_with(self) -> int | None:
        """Wait until the fake closes the websocket and return the close code."""
        await asyncio.wait_for(self._reader, 5)
        return self.ws.close_code

    async def close(self) -> None:
        """Close the websocket and stop reading."""
        await self.ws.close()
        self._reader.cancel()


async def test_events_go_to_the_shard_of_their_guild_and_dms_to_shard_zero() -> None:
    async with running_fake(recommended_shards=2) as fake, aiohttp.ClientSession() as http:
        other = fake.add_guild("Second Guild", fake.guild_id + (1 << 22))
        assert (shard_of(fake.guild_id, 2), shard_of(other.id, 2)) == (0, 1)
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(fake.api_base + "/gateway/bot", headers=headers) as response:
            assert (await response.json())["shards"] == 2
        ping = [{"name": "ping", "description": "Ping", "type": 1}]
        async with http.put(f"{fake.api_base}/applications/{fake.application_id}/commands", json=ping,
                            headers=headers) as response:
            assert response.status == 200
        first = await RawShard.connect(http, fake, [0, 2])
        second = await RawShard.connect(http, fake, [1, 2])
        await first.wait_for("GUILD_CREATE")
        await second.wait_for("GUILD_CREATE")
        for shard, guild_id in ((first, fake.guild_id), (second, other.id)):
            ready = dict(shard.events)["READY"]
            assert [g["id"] for g in ready["guilds"]] == [str(guild_id)]
            assert [d["id"] for name, d in shard.events if name == "GUILD_CREATE"] == [str(guild_id)]

        here = await fake.slash_command("alice", "ping")
        there = await fake.slash_command("alice", "ping", channel_id=other.channel_id)
        await fake.message("bob", "in the second guild", channel_id=other.channel_id)
        await fake.message("bob", "a DM", channel_id=fake.dm_channel("bob").id)
        await first.wait_for("MESSAGE_CREATE")
        await second.wait_for("MESSAGE_CREATE")

        assert [s.shard for s in here.delivered_to] == [[0, 2]]
        assert [s.shard for s in there.delivered_to] == [[1, 2]]
        got = {shard: [(name, d.get("guild_id")) for name, d in s.events if name not in ("READY", "GUILD_CREATE")]
               for shard, s in (("first", first), ("second", second))}
        assert got == {
            "first": [("INTERACTION_CREATE", str(fake.guild_id)), ("MESSAGE_CREATE", None)],
            "second": [("INTERACTION_CREATE", str(other.id)), ("MESSAGE_CREATE", str(other.id))],
        }

        await second.close()
        with pytest.raises(NoBotConnected, match="shard"):
            await fake.slash_command("alice", "ping", channel_id=other.channel_id)
        with pytest.raises(NoBotConnected, match="shard"):
            await fake.message("bob", "nobody hears this", channel_id=other.channel_id)
        await fake.slash_command("alice", "ping")
        await first.wait_for("INTERACTION_CREATE", 2)
        await first.close()

        wrong = await RawShard.connect(http, fake, [2, 2])
        assert await wrong.closed_with() == 4010


async def test_fake_refuses_command_localizations_discord_would_refuse(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"

    def play(**changes: object) -> list[dict[str, object]]:
        option = {"type": 3, "name": "game", "description": "which game", "name_localizations": {"fr": "jeu"},
                  "choices": [{"name": "off", "value": "off", "name_localizations": {"de": "aus"}}]}
        command = {"type": 1, "name": "play", "description": "Start a game", "name_localizations": {"de": "spielen"},
                   "description_localizations": {"es-ES": "Empieza una partida"}, "options": [option]}
        for key, value in changes.items():
            (option if key.startswith("option_") else command)[key.removeprefix("option_")] = value
        return [command]

    bad = [play(name_localizations={"de": "Spielen"}), play(name_localizations={"es": "jugar"}),
           play(name_localizations={"fr": "jouer une partie"}), play(description_localizations={"fr": "x" * 101}),
           play(option_name_localizations={"pt-BR": "Jogo"}),
           play(option_choices=[{"name": "off", "value": "off", "name_localizations": {"de": ""}}]),
           [*play(), {"type": 1, "name": "board", "description": "b", "name_localizations": {"de": "spielen"}}]]
    async with aiohttp.ClientSession(headers=headers) as http:
        for specs in bad:
            async with http.put(url, json=specs) as response:
                assert response.status == 400, specs
        async with http.put(url, json=play()) as response:
            assert response.status == 200
    assert fake.find_command("play")["name_localizations"] == {"de": "spielen"}


# --- installs and contexts: what Discord does for a user-installed app ---------------------------


async def test_commands_keep_their_installs_and_contexts_and_bad_ones_are_refused(fake: FakeDiscord,
                                                                                 bots: BotRunner) -> None:
    await start_minibot(bots)

    where = fake.find_command("where")
    assert (where["integration_types"], where["contexts"]) == ([0, 1], [0, 1, 2])
    assert fake.find_command("ping").get("integration_types") is None  # discord.py sends none unless told
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    async with aiohttp.ClientSession() as http:
        for bad in ({"integration_types": [2]}, {"contexts": []}, {"contexts": [0, 3]}):
            spec = {"name": "bad", "description": "bad", **bad}
            async with http.post(url, json=spec, headers=headers) as response:
                assert response.status == 400, bad
    assert "bad" not in fake.command_names()


async def test_interactions_carry_their_context_and_authorizing_installs(fake: FakeDiscord,
                                                                        bots: BotRunner) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    await start_minibot(bots)
    fake.install_for_user("bob")
    group = fake.group_dm("alice", "bob")

    async def where(user: str, channel_id: int | None = None) -> tuple[str, dict[str, str], int]:
        reply = await fake.slash_command(user, "where", channel_id=channel_id)
        message = await reply.wait_response()
        return message.content, reply.owners, reply.context

    assert await where("alice") == ("context=guild guild_install=True user_install=False",
                                    {"0": str(fake.guild_id)}, 0)
    assert await where("bob") == ("context=guild guild_install=True user_install=True",
                                  {"0": str(fake.guild_id), "1": str(fake.bob.id)}, 0)
    assert await where("bob", fake.dm_channel("bob").id) == (
        "context=dm guild_install=False user_install=True", {"0": "0", "1": str(fake.bob.id)}, 1)
    assert await where("bob", group.id) == ("context=private guild_install=False user_install=True",
                                            {"1": str(fake.bob.id)}, 2)
    assert await where("bob", elsewhere.channel_id) == ("context=guild guild_install=False user_install=True",
                                                        {"1": str(fake.bob.id)}, 0)
    # The client offers a command only where its contexts and an install allow it.
    with pytest.raises(CommandNotOffered):
        await fake.slash_command("alice", "where", channel_id=elsewhere.channel_id)  # alice has no install
    with pytest.raises(CommandNotOffered):
        await fake.slash_command("bob", "ping", channel_id=group.id)  # ping: the server's install only


async def test_where_the_bot_is_not_its_channel_messages_are_refused_and_it_sees_none(fake: FakeDiscord,
                                                                                       bots: BotRunner) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    bot = await start_minibot(bots)
    group = fake.group_dm("alice", "bob")
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        for channel_id in (elsewhere.channel_id, group.id):
            url = f"{fake.api_base}/channels/{channel_id}/messages"
            async with http.post(url, json={"content": "hello"}, headers=headers) as response:
                assert response.status == 403 and (await response.json())["code"] == 50001
        async with http.get(f"{fake.api_base}/guilds/{elsewhere.id}", headers=headers) as response:
            assert response.status == 403
    assert not any(m.author.bot for m in fake.messages.values())
    await fake.message("alice", "hello there", mentions_bot=True, channel_id=elsewhere.channel_id)
    await fake.message("alice", "hello", mentions_bot=True)  # where the bot is, it sees and answers
    await fake.wait_for_bot_message(predicate=lambda m: "you said: hello" in m.content)
    assert [m.content for m in fake.bot_messages()] == ["hello alice, you said: hello"]
    assert "hello there" not in bot.log_text()


async def test_at_most_five_follow_ups_where_the_app_is_not_in_the_server(fake: FakeDiscord,
                                                                          bots: BotRunner) -> None:
    elsewhere = fake.add_guild("No bot here", bot_member=False)
    bot = await start_minibot(bots)
    fake.install_for_user("alice")

    there = await fake.slash_command("alice", "where", {"followups": 6})
    await there.wait_for(lambda r: len(r.followups) == 6)
    away = await fake.slash_command("alice", "where", {"followups": 6}, channel_id=elsewhere.channel_id)
    await away.wait_response()
    await _until(lambda: "follow-up 6 refused: 400 40094" in bot.log_text())
    assert [m.content for m in away.followups] == [f"follow-up {n}" for n in range(1, 6)]


async def test_answers_are_forced_ephemeral_where_the_server_turned_external_apps_off(fake: FakeDiscord,
                                                                                     bots: BotRunner) -> None:
    closed = fake.add_guild("External apps off", bot_member=False, external_apps=False)
    await start_minibot(bots)
    fake.install_for_user("alice")

    away = await fake.slash_command("alice", "where", {"followups": 1}, channel_id=closed.channel_id)
    message = await away.wait_response()
    await away.wait_for(lambda r: r.followups)
    assert message.ephemeral and away.followups[0].ephemeral
    assert message.visible_to(fake.alice) and not message.visible_to(fake.bob)
    assert not int(away._event_payload()["member"]["permissions"]) & USE_EXTERNAL_APPS  # what the bot can see
    here = await (await fake.slash_command("alice", "where")).wait_response()
    assert not here.ephemeral  # where the server has the app, its answers are as the bot sends them


async def _until(condition, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


def _form(payload: dict[str, object], files: dict[str, bytes]) -> aiohttp.FormData:
    """A multipart body as discord.py sends it: payload_json and files[n]."""
    data = aiohttp.FormData(quote_fields=False)
    data.add_field("payload_json", json.dumps(payload))
    for index, (name, content) in enumerate(files.items()):
        data.add_field(f"files[{index}]", content, filename=name, content_type="image/png")
    return data


def _v2_board(*, text: str = "Played d.", rows: int = 1, buttons: int = 5, media: str = "attachment://b.png",
              description: str = "a board") -> list[dict[str, Any]]:
    """A container like a board's: a text display, a gallery and rows of buttons."""
    action_rows = [{"type": 1, "components": [{"type": 2, "style": 2, "label": f"{row}.{n}", "custom_id": f"{row}.{n}"}
                                              for n in range(buttons)]} for row in range(rows)]
    return [{"type": 17, "components": [
        {"type": 10, "content": text},
        {"type": 12, "items": [{"media": {"url": media}, "description": description}]},
        *action_rows,
    ]}]


async def test_components_v2_messages_are_checked_as_discord_does(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    png = PNG_SIGNATURE + b"fake"
    upload = [{"id": 0, "filename": "b.png", "description": "the board in words"}]

    async with aiohttp.ClientSession(headers=headers) as http:
        async def refused(method: str, target: str, payload: dict[str, object], files: dict[str, bytes]) -> str:
            body_of = {"data": _form(payload, files)} if files else {"json": payload}
            async with http.request(method, target, **body_of) as response:
                body = await response.json()
                assert response.status == 400 and body["code"] == 50035, body
                return body["errors"]["_errors"][0]["message"]

        v2 = {"flags": 1 << 15, "attachments": upload}
        async with http.post(url, data=_form({**v2, "components": _v2_board()}, {"b.png": png})) as response:
            assert response.status == 200
            created = await response.json()
        message = fake.messages[int(created["id"])]
        assert message.v2 and message.text_displays() == ["Played d."]
        assert created["attachments"][0]["description"] == "the board in words"
        assert message.media_urls() == [message.attachment("b.png").url]  # attachment:// resolved, as Discord does
        sent = fake.requests[-1].payload["components"]  # what the bot sent is recorded as it was sent
        assert "attachment://b.png" in json.dumps(sent) and message.attachment("b.png").url not in json.dumps(sent)

        too_many = _v2_board(rows=7, buttons=5)  # 1 container + 1 text + 1 gallery + 7 rows + 35 buttons = 45
        assert "40 or fewer" in await refused("POST", url, {**v2, "components": too_many}, {"b.png": png})
        assert "1 to 5 buttons" in await refused("POST", url, {**v2, "components": _v2_board(buttons=6)},
                                                 {"b.png": png})
        assert "4000" in await refused("POST", url, {**v2, "components": _v2_board(text="x" * 4001)}, {"b.png": png})
        assert "names no attachment" in await refused(
            "POST", url, {**v2, "components": _v2_board(media="attachment://other.png")}, {"b.png": png})
        assert "cannot be used" in await refused("POST", url, {**v2, "content": "hi", "components": _v2_board()},
                                                 {"b.png": png})
        assert "need the IS_COMPONENTS_V2" in await refused("POST", url, {"components": _v2_board(),
                                                                          "attachments": upload}, {"b.png": png})
        long_alt = [{"id": 0, "filename": "b.png", "description": "x" * 1025}]
        assert "1024" in await refused("POST", url, {**v2, "attachments": long_alt, "components": _v2_board()},
                                       {"b.png": png})
        assert "cannot be removed" in await refused("PATCH", f"{url}/{message.id}",
                                                    {"flags": 0, "content": "plain", "components": []}, {})

        # An old plain message becomes V2 by an edit only when its content is cleared.
        async with http.post(url, json={"content": "an old board"}) as response:
            old = fake.messages[int((await response.json())["id"])]
        assert "cannot be used" in await refused("PATCH", f"{url}/{old.id}", {**v2, "components": _v2_board()},
                                                 {"b.png": png})
        upgrade = {**v2, "content": None, "components": _v2_board()}
        async with http.patch(f"{url}/{old.id}", data=_form(upgrade, {"b.png": png})) as response:
            assert response.status == 200
        assert old.v2 and old.content == "" and old.text_displays() == ["Played d."]


async def test_a_deferral_cannot_carry_the_v2_flag_but_its_edit_can(fake: FakeDiscord) -> None:
    interaction = FakeInteraction(fake, type=APPLICATION_COMMAND, user=fake.alice, channel_id=fake.channel_id,
                                  guild_id=fake.guild_id, data={"name": "play"})
    fake.interactions[interaction.id] = interaction
    interaction.dispatched_at = asyncio.get_running_loop().time()
    callback = f"{fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
    original = f"{fake.api_base}/webhooks/{fake.application_id}/{interaction.token}/messages/@original"
    async with aiohttp.ClientSession() as http:
        deferral = {"type": DEFERRED_CHANNEL_MESSAGE, "data": {"flags": (1 << 15) | (1 << 6)}}
        async with http.post(callback, json=deferral) as response:
            assert response.status == 400 and "deferred" in (await response.json())["errors"]["_errors"][0]["message"]
        async with http.post(callback, json={"type": DEFERRED_CHANNEL_MESSAGE, "data": {"flags": 1 << 6}}) as response:
            assert response.status == 204
        edit = {"flags": 1 << 15, "content": None, "components": [{"type": 10, "content": "the answer"}]}
        async with http.patch(original, json=edit) as response:
            assert response.status == 200
    message = interaction.message
    assert message is not None and message.v2 and message.ephemeral and not message.loading
    assert message.text_displays() == ["the answer"]


async def test_attachments_carry_an_images_size_and_the_animated_flag_as_discord_sends_them(fake: FakeDiscord) -> None:
    import io

    from PIL import Image

    from .fakediscord import ATTACHMENT_IS_ANIMATED

    def picture(kind: str, frames: int) -> bytes:
        images = [Image.new("RGB", (30, 20), (n * 80, 0, 0)) for n in range(frames)]
        output = io.BytesIO()
        images[0].save(output, kind, save_all=frames > 1, append_images=images[1:], duration=100)
        return output.getvalue()

    files = {"a.gif": picture("GIF", 2), "still.gif": picture("GIF", 1), "a.png": picture("PNG", 2),
             "a.webp": picture("WEBP", 2), "notes.txt": b"not an image"}
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    async with (aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http,
                http.post(url, data=_form({"content": "files"}, files)) as response):
        assert response.status == 200
        sent = {a["filename"]: a for a in (await response.json())["attachments"]}
    assert (sent["a.gif"]["width"], sent["a.gif"]["height"]) == (30, 20)
    # Discord plays animated GIF and WebP attachments; an APNG it shows still.
    assert [name for name, a in sent.items() if a.get("flags", 0) & ATTACHMENT_IS_ANIMATED] == ["a.gif", "a.webp"]
    assert "width" not in sent["notes.txt"] and "flags" not in sent["notes.txt"]
