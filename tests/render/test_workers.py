"""The drawing processes (render.workers): answers, errors, the least busy process, big
messages, dead processes, cancelled drawings, shutdown and Ctrl-C. A game's boards going to one
process, and a dead one replaced, are in tests/render/test_redraw.py."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from render import workers

ROOT = Path(__file__).resolve().parents[2]


def pid(key: object = None) -> int:
    """The id of the process that draws."""
    return os.getpid()


def slow_pid(seconds: float, key: object = None) -> int:
    """The id of the process that draws, after `seconds`."""
    time.sleep(seconds)
    return os.getpid()


def length(data: bytes, key: object = None) -> int:
    """How many bytes were sent."""
    return len(data)


def echo(data: bytes, key: object = None) -> bytes:
    """The bytes sent, back."""
    return data


def fail(message: str) -> bytes:
    """Raise a ValueError."""
    raise ValueError(message, 7)


def unpicklable_result() -> object:
    """A result that cannot be pickled."""
    return lambda: None


class Strict(Exception):
    """An exception that pickles but does not unpickle (its class takes other arguments)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} {second}")


def fail_strictly() -> bytes:
    """Raise an exception that cannot be unpickled."""
    raise Strict("a", "b")


@pytest.fixture
def processes() -> Iterator[Callable[[int], None]]:
    """Use a number of drawing processes, stopped at the end."""
    yield workers.use_processes
    workers.stop()


def run(scenario: Callable[[], Awaitable[None]], seconds: float = 60) -> None:
    """Run the scenario in an event loop, failing it if it hangs."""
    asyncio.run(asyncio.wait_for(scenario(), seconds))


def exited(process: int) -> bool:
    """Whether the process is gone: no zombie left either."""
    try:
        status = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return status in ("X",)


def test_an_exception_raised_in_a_drawing_process_is_raised_here(processes: Callable[[int], None]) -> None:
    async def scenario() -> None:
        processes(1)
        with pytest.raises(ValueError) as raised:
            await workers.draw(fail, "no such theme")
        assert raised.value.args == ("no such theme", 7)
        assert "in fail" in str(raised.value.__cause__)  # where it was raised
        with pytest.raises(AttributeError, match="pickle local object") as raised:
            await workers.draw(unpicklable_result)
        assert "pickle" in str(raised.value.__cause__)  # raised there, pickling the result
        with pytest.raises(TypeError):  # Strict does not unpickle: that error, rather than no answer
            await workers.draw(fail_strictly)
        with pytest.raises(AttributeError):  # a function that does not pickle fails here, at once
            await workers.draw(lambda: b"")
        assert await workers.draw(pid) != os.getpid()  # and the process draws on

    run(scenario)


def test_without_a_key_the_least_busy_process_draws(processes: Callable[[int], None]) -> None:
    async def scenario() -> None:
        processes(2)
        first, second = await workers.draw(pid, key=0), await workers.draw(pid, key=1)
        assert first != second
        busy = asyncio.ensure_future(workers.draw(slow_pid, 0.5, key=0))
        await asyncio.sleep(0.1)
        assert await workers.draw(pid) == second  # the other one
        assert await busy == first
        assert await workers.draw(pid) == first  # both idle: the first

    run(scenario)


def test_big_messages_go_both_ways_without_blocking_the_event_loop(processes: Callable[[int], None]) -> None:
    async def scenario() -> None:
        processes(1)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        ticker = asyncio.ensure_future(tick())
        blobs = [bytes([number]) * (6_000_000 + number) for number in range(4)]  # more than a socket's buffer
        assert await asyncio.gather(*(workers.draw(length, blob, key=1) for blob in blobs)) == [len(blob)
                                                                                                for blob in blobs]
        assert await asyncio.gather(*(workers.draw(echo, blob, key=1) for blob in blobs)) == blobs
        ticker.cancel()
        assert ticks > 10  # the event loop ran meanwhile

    run(scenario)


def test_drawings_waiting_for_a_process_that_dies_are_done_in_threads(processes: Callable[[int], None]) -> None:
    async def scenario() -> None:
        processes(1)
        drawing = await workers.draw(pid, key=1)
        waiting = [asyncio.ensure_future(workers.draw(slow_pid, 0.2, key=1)) for _ in range(3)]
        await asyncio.sleep(0.1)
        os.kill(drawing, signal.SIGKILL)
        assert await asyncio.gather(*waiting) == [os.getpid()] * 3
        replaced = await workers.draw(pid, key=1)
        assert replaced not in (drawing, os.getpid())
        assert exited(drawing)

    run(scenario)


def test_a_cancelled_drawing_leaves_the_next_its_own_answer(processes: Callable[[int], None]) -> None:
    async def scenario() -> None:
        processes(1)
        cancelled = asyncio.ensure_future(workers.draw(slow_pid, 0.3, key=1))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        assert await workers.draw(echo, b"mine", key=1) == b"mine"
        assert cancelled.cancelled()

    run(scenario)


def test_stopping_ends_the_processes_and_cancels_their_drawings() -> None:
    async def scenario() -> None:
        workers.use_processes(2)
        drawing = [await workers.draw(pid, key=key) for key in range(2)]
        waiting = asyncio.ensure_future(workers.draw(slow_pid, 5, key=0))
        await asyncio.sleep(0.1)
        workers.stop()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert all(exited(process) for process in drawing)
        assert await workers.draw(pid) == os.getpid()  # no processes: threads

    run(scenario)


def test_processes_started_by_an_event_loop_that_has_gone_are_started_again(
        processes: Callable[[int], None]) -> None:
    processes(1)

    async def draw_pid() -> int:
        return await workers.draw(pid)

    first, second = asyncio.run(draw_pid()), asyncio.run(draw_pid())
    assert os.getpid() not in (first, second) and first != second
    assert exited(first)


def test_in_threads_when_there_are_no_processes() -> None:
    workers.use_processes(0)

    async def scenario() -> None:
        assert await workers.draw(pid, key=3) == os.getpid()
        with pytest.raises(ValueError):
            await workers.draw(fail, "in a thread")

    run(scenario)


CTRL_C = """
import asyncio, sys
from render import workers
from tests.render.test_workers import pid

async def main():
    workers.use_processes(2)
    drawing = [await workers.draw(pid, key=key) for key in range(2)]
    print(*drawing, flush=True)
    await asyncio.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_ctrl_c_ends_the_drawing_processes_with_the_program() -> None:
    program = subprocess.Popen([sys.executable, "-c", CTRL_C], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert program.stdout is not None
        drawing = [int(process) for process in program.stdout.readline().split()]
        assert len(drawing) == 2
        os.killpg(program.pid, signal.SIGINT)  # as Ctrl-C does: to every process of the terminal's group
        _, errors = program.communicate(timeout=30)
    finally:
        if program.poll() is None:
            os.killpg(program.pid, signal.SIGKILL)
    assert "KeyboardInterrupt" in errors and "Process drawing" not in errors  # the drawing processes said nothing
    deadline = time.monotonic() + 10
    while not all(exited(process) for process in drawing) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(exited(process) for process in drawing)
