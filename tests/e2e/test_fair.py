"""One member cannot slow the others, end to end: `python -m bot` against the fake Discord."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path

from bot.play.work import LIMITS

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, play, start

# Deals whose verdicts the solver finds at once (deal 7, say, takes it over a second).
QUICK_DEALS = (1, 2, 3, 4, 5, 6)


async def test_a_member_over_a_rate_limit_is_told_privately_and_a_bystander_plays_on(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    allowed = LIMITS["new-game"].count
    for number in range(allowed):  # /play and /resign, again and again
        await play(fake, deal=QUICK_DEALS[number % len(QUICK_DEALS)])
        resigned = await (await fake.slash_command("alice", "resign", {})).wait_response(timeout=SOLVER_WAIT)
        assert resigned is not None and "You resigned" in said(resigned)
    # One more /play from alice and one from bob, at the same moment.
    alice, bob = await asyncio.gather(fake.slash_command("alice", "play", {"deal": 1}),
                                      fake.slash_command("bob", "play", {"deal": 1}))
    refused, board = await asyncio.gather(alice.wait_response(), bob.wait_response())
    assert refused is not None and refused.ephemeral and not refused.attachments
    assert said(refused).startswith("Slow down: you have asked for new games too often. Try again in ")
    assert alice.latency is not None and alice.latency < 3
    assert board is not None and "New game of Canfield, deal #1" in said(board) and board.attachments
    assert bob.latency is not None and bob.latency < 3
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        games = dict(db.execute("SELECT user_id, COUNT(*) FROM games GROUP BY user_id").fetchall())
    assert games == {fake.alice.id: allowed, fake.bob.id: 1}


async def test_one_members_answers_come_at_their_pace_and_anothers_at_once(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    # The tests' bots run without the pace (the harness's MEMBER_PACE=0): this one has a long one,
    # longer than an answer takes on a busy machine.
    pace = 1.0
    await start(bots, tmp_path, MEMBER_PACE=str(pace))
    await play(fake, deal=1)
    await play(fake, "bob", deal=2)
    await asyncio.sleep(pace)
    loop = asyncio.get_running_loop()

    async def seen(user: str) -> float:
        interaction = await fake.slash_command(user, "move", {"moves": "d"})
        answer = await interaction.wait_response(timeout=SOLVER_WAIT)
        assert answer is not None and answer.attachments, said(answer) if answer else "no answer"
        return loop.time()

    sent = loop.time()
    *alices, bobs = await asyncio.gather(*(seen("alice") for _ in range(3)), seen("bob"))
    alices.sort()
    assert alices[0] - sent < pace  # her first, at once
    assert all(later - earlier >= pace * 0.9 for earlier, later in itertools.pairwise(alices)), alices
    assert bobs - sent < pace  # bob does not wait for alice's
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        stored = dict(db.execute("SELECT user_id, moves FROM games").fetchall())
    assert stored[fake.alice.id].split() == ["d"] * 3 and stored[fake.bob.id].split() == ["d"]
