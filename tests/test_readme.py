"""The README's promises that code can check: the invite URL's permissions are the bot's."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app import PERMISSIONS, invite_url

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_the_invite_url_in_the_readme_asks_for_exactly_the_permissions_the_bot_uses() -> None:
    [url] = re.findall(r"https://discord\.com/oauth2/authorize\S+", README)
    assert url == invite_url(0).replace("client_id=0", "client_id=APPLICATION_ID")
    assert f"Permissions, {PERMISSIONS.value}," in README
    # discord.py calls View Channel read_messages.
    described = {"read_messages": "View Channels", "send_messages": "Send Messages",
                 "send_messages_in_threads": "Send Messages in Threads", "attach_files": "Attach Files",
                 "read_message_history": "Read Message History"}
    assert {name for name, allowed in PERMISSIONS if allowed} == set(described)
    assert all(f"*{words}*" in README for words in described.values())


def test_the_quick_start_is_two_commands() -> None:
    quick_start = README.split("## Quick start", 1)[1].split("##", 1)[0]
    [commands] = re.findall(r"```sh\n(.*?)```", quick_start, re.S)
    assert [line.split()[:2] for line in commands.strip().splitlines()] == [["make", "run"], ["make", "test"]]
