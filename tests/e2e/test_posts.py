"""The cap on public posts through the fake Discord: a member's public posts in a channel, by
whatever route (a result card, a replay, a leaderboard, public boards, watched boards, a lobby),
count together; over the cap they are refused privately and at once, with the wait, and the
channel sees nothing of them, not even a "thinking…"; other channels and other members go on."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.play.posts import POST
from bot.play.work import LIMITS

from .fakediscord import FakeDiscord, FakeInteraction, StoredMessage
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, play, start

CAP = LIMITS[POST].count
SLOW_DOWN = re.compile(r"Slow down: you have asked for public posts in this channel too often\. "
                       r"Try again in (\d+) s\.")


def public_posts(fake: FakeDiscord, channel_id: int | None = None) -> list[StoredMessage]:
    """The bot's messages in the channel that everyone sees."""
    return [m for m in fake.channel_messages(channel_id) if m.author == fake.bot_user and not m.ephemeral]


def slowed_down(fake: FakeDiscord, interaction: FakeInteraction, answer: StoredMessage | None) -> bool:
    """Whether the interaction was told privately, at once, to slow down, the wait a minute at most,
    and the channel saw nothing of it: no public message, no public "thinking…", not even deleted."""
    found = SLOW_DOWN.fullmatch(said(answer) if answer is not None else "")
    return (found is not None and 1 <= int(found[1]) <= LIMITS[POST].seconds and answer is not None
            and answer.ephemeral and not interaction.deferred
            and not any(m.interaction_id == interaction.id and not m.ephemeral for m in fake.messages.values()))


async def test_public_posts_by_every_route_count_together_and_over_the_cap_are_refused_privately(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    other = fake.add_channel("other")
    await start(bots, tmp_path)
    assert CAP == 10
    daily = await (await fake.slash_command("alice", "daily", {})).wait_response(timeout=SOLVER_WAIT)
    over = await (await fake.click("alice", daily, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    board = await play(fake, deal=1)
    await (await fake.click("alice", board, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert public_posts(fake) == []  # private so far

    async def command(name: str, options: dict | None = None, user: str = "alice",
                      channel_id: int | None = None) -> tuple[FakeInteraction, StoredMessage]:
        interaction = await fake.slash_command(user, name, options or {}, channel_id=channel_id)
        return interaction, await interaction.wait_response(timeout=SOLVER_WAIT)

    shared = await (await fake.click("alice", over, label="Share")).wait_response()
    _, replay = await command("replay", {"public": True})
    _, leaderboard = await command("leaderboard")
    _, public_board = await command("play", {"deal": 2, "public": True})
    _, shown_again = await command("board", {"public": True})
    _, moved = await command("move", {"moves": "board", "public": True})
    # Answers that turn out private, refusals among them, are not posts and do not count.
    _, unread = await command("move", {"moves": "zz", "public": True})
    _, nothing = await command("watch", {"member": fake.bob})
    assert unread.ephemeral and nothing.ephemeral and "no game in play" in said(nothing)
    _, watched = await command("watch", {"member": fake.alice})
    for _ in range(3):  # a Refresh edits the watched board in place: not a post
        refreshed = await (await fake.click("alice", watched, label="Refresh ↻")).wait_response()
        assert refreshed.id == watched.id
    _, opened = await command("match open")
    assert opened.ephemeral and "its lobby is in the channel" in said(opened)
    _, watched_again = await command("watch", {"member": fake.alice})
    _, last = await command("leaderboard")
    posts = public_posts(fake)
    assert len(posts) == CAP and posts[-1] == last
    assert {m.id for m in (shared, replay, leaderboard, public_board, shown_again, moved, watched, watched_again)} \
        < {post.id for post in posts}
    assert any("match #1" in said(post) for post in posts)  # the lobby

    # Over the cap, by any route: told privately at once, nothing posted.
    for name, options in (("watch", {"member": fake.alice}), ("board", {"public": True}), ("leaderboard", {}),
                          ("replay", {"public": True}), ("move", {"moves": "board", "public": True})):
        refused, answer = await command(name, options)
        assert slowed_down(fake, refused, answer), (name, said(answer) if answer else None)
    again = await (await fake.click("alice", over, label="Share")).wait_response()  # a second Share: private anyway
    assert again.ephemeral
    assert len(public_posts(fake)) == CAP
    # Private answers, edits and others go on: her own board, a Refresh, another channel, Bob here.
    _, private = await command("board")
    assert private.ephemeral and private.attachment("board.png")
    assert (await (await fake.click("alice", watched, label="Refresh ↻")).wait_response()).id == watched.id
    _, elsewhere = await command("leaderboard", channel_id=other.id)
    _, bobs = await command("leaderboard", user="bob")
    assert not elsewhere.ephemeral and not bobs.ephemeral
    assert public_posts(fake, other.id) == [elsewhere] and len(public_posts(fake)) == CAP + 1


async def test_public_posts_asked_all_at_once_post_the_cap_and_refuse_the_rest_at_once(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    await play(fake, "bob", deal=1)
    asked = [await fake.slash_command("bob", "watch" if k % 2 else "leaderboard",
                                      {"member": fake.bob} if k % 2 else {}) for k in range(CAP + 6)]
    answers = await asyncio.gather(*(interaction.wait_response(timeout=SOLVER_WAIT) for interaction in asked))
    posted = [answer for answer in answers if not answer.ephemeral]
    refused = [(interaction, answer) for interaction, answer in zip(asked, answers, strict=True) if answer.ephemeral]
    assert len(posted) == CAP and len(refused) == 6
    assert all(slowed_down(fake, interaction, answer) for interaction, answer in refused)
    assert public_posts(fake) == sorted(posted, key=lambda message: message.id)
    assert not fake.failed_interactions
