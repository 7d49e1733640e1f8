"""The README's promises that code can check: the invite URL's permissions are the bot's; and the
documents a newcomer reads are all in the repository (docs/), nothing pointing outside it."""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

from bot.app import PERMISSIONS, invite_url

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


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


@functools.cache
def tracked_texts() -> dict[str, str]:
    """Every text file git tracks in the repository, by path (binary files, such as fonts and
    images, left out)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    texts = {}
    for name in filter(None, listed.decode().split("\0")):
        path = ROOT / name
        if path.is_file() and b"\0" not in (data := path.read_bytes()):
            texts[name] = data.decode(errors="replace")
    return texts


# What a fresh clone does not have: the folder shared beside the project, the design page kept
# there, and the original rule texts, numbered seeds. docs/ holds what a newcomer needs instead.
# Each pattern starts with a literal, which the regex engine finds fast; all but the first are
# looked for in the text in lower case.
OUTSIDE = (re.compile(r"DESIGN\.md"), re.compile(r"\.\./shared\b"), re.compile(r"shared\s+folder"),
           re.compile(r"/work/+shared"), re.compile(r"seeds?\s+00\d"))
DOC_PATH = re.compile(r"docs/[\w.-]+\.md\b")


def outside(text: str) -> list[str]:
    """What the text refers to that a fresh clone lacks."""
    first, *rest = OUTSIDE
    lower = text.lower()
    return first.findall(text) + [found for pattern in rest for found in pattern.findall(lower)]


def test_no_tracked_file_refers_to_what_a_clone_lacks() -> None:
    found = [f"{name}: {found}" for name, text in tracked_texts().items() for found in outside(text)]
    assert found == []
    # The patterns find what they are for (each sample split here, so that this file does not hold it).
    samples = [first + rest for first, rest in (("as Seed ", "000 advises"), ("in the shared ", "folder"),
                                                ("DESIGN", ".md section 4"), ("see ..", "/shared/seeds/"))]
    assert all(outside(sample) for sample in samples)
    assert not outside("Canfield - seed 0\n")  # a deal's number in outside data is no reference


def test_every_document_named_in_the_code_or_the_readme_exists_and_the_index_lists_them_all() -> None:
    named = {match.group() for text in tracked_texts().values() for match in DOC_PATH.finditer(text)}
    assert {"docs/design.md", "docs/games.md", "docs/notation.md", "docs/fairness.md"} <= named
    assert sorted(name for name in named if not (ROOT / name).is_file()) == []
    index = (ROOT / "docs" / "README.md").read_text()
    listed = set(re.findall(r"\]\(([\w-]+\.md)\)", index))
    assert {path.name for path in (ROOT / "docs").glob("*.md")} - {"README.md"} == listed
