"""A member's interactions are worked out one at a time; other members' beside them."""

from __future__ import annotations

import asyncio

from bot.views.respond import MEMBER_PACE, in_turn


async def test_a_members_answers_are_worked_out_one_at_a_time_paced_and_others_beside_them() -> None:
    events: list[tuple[str, str]] = []
    times: dict[tuple[str, str], float] = {}
    loop = asyncio.get_running_loop()

    async def work(name: str) -> str:
        events.append(("start", name))
        times["start", name] = loop.time()
        await asyncio.sleep(0.05)
        events.append(("end", name))
        times["end", name] = loop.time()
        return name

    spam = [asyncio.create_task(in_turn(1, work(f"a{i}"))) for i in range(3)]
    other = asyncio.create_task(in_turn(2, work("b")))
    assert await asyncio.gather(*spam, other) == ["a0", "a1", "a2", "b"]
    assert events[:2] == [("start", "a0"), ("start", "b")]  # the other member does not wait
    assert [event for event in events if event[1] != "b"] == [
        ("start", "a0"), ("end", "a0"), ("start", "a1"), ("end", "a1"), ("start", "a2"), ("end", "a2")]
    assert times["start", "a1"] - times["end", "a0"] >= MEMBER_PACE * 0.99
    assert times["start", "b"] - times["start", "a0"] < MEMBER_PACE / 2
