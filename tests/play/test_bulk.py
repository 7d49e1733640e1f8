"""Bulk drawing's place: a process of its own at a lower priority, a bounded line refused at once
when full, a member at a time, a time limit, and memory given back (real processes)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from bot.play.bulk import BulkDrawing, resident_bytes
from bot.play.errors import AlreadyDrawing, LineFull, TookTooLong
from bot.play.work import NICENESS

_kept: list[bytes] = []  # what `leak` keeps, in the drawing process


def where() -> tuple[int, int]:
    """The process it runs in, and its niceness."""
    return os.getpid(), os.nice(0)


def after(gate: str, value: int) -> int:
    """`value`, once the file `gate` exists (a drawing that takes as long as a test likes)."""
    while not Path(gate).exists():
        time.sleep(0.01)
    return value


def fail() -> None:
    """A drawing that goes wrong."""
    raise ValueError("no such card")


def leak(megabytes: int) -> int:
    """Keep `megabytes` of memory for good (a drawing that leaks); its process id."""
    _kept.append(b"\x01" * (megabytes * 1024 * 1024))  # written, so resident
    return os.getpid()


def hold(megabytes: int) -> int:
    """Use `megabytes` of memory in many small pieces, then let them go; the process id."""
    pieces = [bytes(1000) + i.to_bytes(8, "big") for i in range(megabytes * 1000)]
    del pieces
    return os.getpid()


@pytest.fixture
async def bulk():
    place = BulkDrawing(waiting=2)
    yield place
    place.stop()


async def test_a_drawing_runs_in_a_process_of_its_own_at_a_lower_priority(bulk: BulkDrawing) -> None:
    with bulk.place(1) as ticket:
        pid, niceness = await ticket.draw(where)
    assert pid != os.getpid() and bulk.process is not None and bulk.process.pid == pid
    assert niceness == min(19, os.nice(0) + NICENESS)
    with bulk.place(1) as ticket, pytest.raises(ValueError, match="no such card") as raised:
        await ticket.draw(fail)
    assert any("in fail" in note for note in raised.value.__notes__)  # where it was raised, over there
    assert bulk.in_line == 0


async def test_the_line_is_bounded_refused_at_once_and_one_a_member(bulk: BulkDrawing, tmp_path: Path) -> None:
    gate = str(tmp_path / "open")
    finished: list[int] = []

    async def replay(member: int) -> None:
        with bulk.place(member) as ticket:
            finished.append(await ticket.draw(after, gate, member))

    first = asyncio.create_task(replay(1))
    await asyncio.sleep(0.05)
    with pytest.raises(AlreadyDrawing), bulk.place(1):  # Alice's second, while her first is drawn
        pass
    waiting = [asyncio.create_task(replay(member)) for member in (2, 3)]
    await asyncio.sleep(0.05)
    assert bulk.in_line == 3
    started = time.monotonic()
    with pytest.raises(LineFull) as full, bulk.place(4):  # one drawn, two waiting: the line is full
        pass
    assert full.value.waiting == 2 and time.monotonic() - started < 0.1
    Path(gate).touch()
    await asyncio.gather(first, *waiting)
    assert finished == [1, 2, 3]  # in the order asked
    assert bulk.in_line == 0
    with bulk.place(4) as ticket:  # places given back: room again
        assert await ticket.draw(after, gate, 4) == 4


async def test_a_drawing_past_its_time_is_given_up_and_its_process_killed(tmp_path: Path) -> None:
    bulk = BulkDrawing()
    try:
        with bulk.place(1) as ticket:
            await ticket.draw(where)  # started (the time allowed counts a process's start too)
            bulk.timeout = 0.5
            started = time.monotonic()
            with pytest.raises(TookTooLong) as too_long:
                await ticket.draw(after, str(tmp_path / "never"), 1)
            assert too_long.value.seconds == 0.5 and time.monotonic() - started < 3
        assert bulk.process is None and bulk.in_line == 0
        bulk.timeout = 60
        with bulk.place(1) as ticket:  # a new process draws the next
            pid, _ = await ticket.draw(where)
            process = bulk.process
        assert process is not None and process.pid == pid and bulk.processes_started == 2
    finally:
        bulk.stop()


async def test_a_process_holding_too_much_is_replaced_and_an_idle_one_ends() -> None:
    megabyte = 1024 * 1024
    bulk = BulkDrawing(recycle_bytes=150 * megabyte, idle_seconds=0.5)
    try:
        with bulk.place(1) as ticket:
            first = await ticket.draw(leak, 1)
            before = bulk.last_rss
            assert await ticket.draw(hold, 100) == first  # used and let go: given back, the process kept
            assert bulk.last_rss < before + 20 * megabyte
            assert await ticket.draw(leak, 160) == first  # kept for good: the process is replaced after it
        assert bulk.process is None and bulk.processes_started == 1
        with bulk.place(1) as ticket:
            second = await ticket.draw(leak, 1)
        assert second != first and bulk.processes_started == 2 and bulk.last_rss < before + 20 * megabyte
        assert bulk.process is not None and resident_bytes(second) > 0
        await asyncio.sleep(1.0)  # idle: the process ends, and what it held with it
        assert bulk.process is None and resident_bytes(second) == 0
    finally:
        bulk.stop()
