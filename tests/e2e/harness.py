"""Helpers for end-to-end tests: run the fake Discord and bot subprocesses against it.

Typical use (the fixtures in conftest.py do this for you)::

    async with running_fake() as fake, BotRunner(fake, tmp_path) as bots:
        bot = await bots.start_bot(module="bot")
        reply = await fake.slash_command("alice", "play")
        message = await reply.wait_response()
        await bot.kill()
        await bot.restart()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from .fakediscord import FLAG_COMPONENTS_V2, FakeDiscord, StoredMessage, flatten_components

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


class BotExited(RuntimeError):
    """The bot process ended while we were waiting for it to connect."""


@contextlib.asynccontextmanager
async def running_fake(**options: object) -> AsyncIterator[FakeDiscord]:
    """Start a :class:`FakeDiscord` on a free port in the running event loop; stop it afterwards."""
    fake = FakeDiscord(**options)  # type: ignore[arg-type]
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


class BotProcess:
    """A bot running as ``python -m <module>`` with its output captured in a log file."""

    def __init__(
        self,
        fake: FakeDiscord,
        module: str,
        args: Sequence[str],
        env: Mapping[str, str],
        log_path: Path,
        shards: int = 1,
    ) -> None:
        self.fake = fake
        self.module = module
        self.args = list(args)
        self.env = dict(env)
        self.log_path = log_path
        self.shards = shards  # how many shards it runs: one IDENTIFY each before it is ready
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._log_file: IO[bytes] | None = None

    def __repr__(self) -> str:
        return f"<BotProcess {self.module} pid={self.pid} returncode={self.returncode}>"

    @property
    def pid(self) -> int | None:
        """The process id of the current run, if started."""
        return None if self.process is None else self.process.pid

    @property
    def returncode(self) -> int | None:
        """The exit code of the current run, or None while it runs."""
        return None if self.process is None else self.process.returncode

    @property
    def running(self) -> bool:
        """True while the current run is alive."""
        return self.process is not None and self.process.returncode is None

    def log_text(self) -> str:
        """Everything the bot printed (stdout and stderr) over all its runs, without colour codes."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return ANSI_ESCAPE.sub("", text)

    def run_log_text(self) -> str:
        """What the current (or last) run printed, like :meth:`log_text`."""
        marker = f"----- start #{self.starts}:"
        text = self.log_text()
        return text[text.rfind(marker):] if marker in text else text

    def full_env(self) -> dict[str, str]:
        """The environment the process gets: ours, the fake's coordinates, then the extra ``env``."""
        env = dict(os.environ)
        env.update(
            {
                "DISCORD_TOKEN": self.fake.token,
                "DISCORD_API_BASE": self.fake.api_base,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url,
                "PYTHONUNBUFFERED": "1",
                # Empty settings win over a developer's .env: no sharding unless a test asks.
                "SHARD_COUNT": "",
                "SHARD_IDS": "",
                # A test's bot starts its worker processes when it first needs them: most never do.
                "START_PROCESSES": "off",
                # No pause between one member's answers: a test's member answers as fast as it
                # reads (tests/e2e/test_fair.py checks the pace, with a long one).
                "MEMBER_PACE": "0",
            }
        )
        env.update(self.env)
        return env

    async def start(self, *, wait_ready: bool = True, ready_line: str | None = None, timeout: float = 20.0) -> None:
        """Start the process; by default wait until it identified on the gateway (and got READY), once
        for each of its :attr:`shards`.

        ``ready_line``: also wait until this text appears in this run's output (e.g. a line it
        prints in ``on_ready``). Raises :class:`BotExited` (with the log) if the bot dies first.
        """
        if self.running:
            raise RuntimeError(f"{self!r} is already running")
        identified_before = self.fake.identify_count
        self.starts += 1
        self._log_file = self.log_path.open("ab")
        self._log_file.write(f"----- start #{self.starts}: python -m {self.module} {' '.join(self.args)}\n".encode())
        self._log_file.flush()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            *self.args,
            cwd=PROJECT_ROOT,
            env=self.full_env(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=asyncio.subprocess.STDOUT,
        )
        if wait_ready:
            await self.wait_ready(identified_before + self.shards, ready_line=ready_line, timeout=timeout)

    async def wait_ready(self, identify_count: int, *, ready_line: str | None = None, timeout: float = 20.0) -> None:
        """Wait until the fake saw ``identify_count`` IDENTIFYs (and ``ready_line`` in the log, if given)."""

        async def ready() -> None:
            await self.fake.wait_for_identify(timeout, count=identify_count)
            while ready_line is not None and ready_line not in self.run_log_text():
                await asyncio.sleep(0.05)

        assert self.process is not None
        waiter = asyncio.ensure_future(ready())
        exited = asyncio.ensure_future(self.process.wait())
        try:
            done, _ = await asyncio.wait({waiter, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (waiter, exited):
                task.cancel()
        if waiter in done and waiter.exception() is None:
            return
        if exited in done:
            raise BotExited(f"{self!r} exited with {self.returncode} before it was ready:\n{self.log_text()}")
        raise TimeoutError(f"{self!r} was not ready after {timeout:g}s:\n{self.log_text()}")

    async def wait_exit(self, timeout: float = 20.0) -> int:
        """Wait for the process to end and return its exit code."""
        assert self.process is not None
        try:
            return await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"{self!r} still running after {timeout:g}s:\n{self.log_text()}") from None

    async def kill(self) -> None:
        """SIGKILL the process (no clean shutdown, as in a crash) and wait for it to die."""
        if self.running:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
        await self._reap()

    async def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM the process, then SIGKILL it if it is still there after ``timeout``."""
        if self.running:
            assert self.process is not None
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.kill()
        await self._reap()

    async def restart(self, *, wait_ready: bool = True, ready_line: str | None = None, timeout: float = 20.0) -> None:
        """Kill the process if it runs, then start it again with the same module, args and env."""
        await self.kill()
        await self.start(wait_ready=wait_ready, ready_line=ready_line, timeout=timeout)

    async def _reap(self) -> None:
        if self.process is not None:
            await self.process.wait()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


class BotRunner:
    """Starts bot processes against one fake and makes sure they are all killed at the end."""

    def __init__(self, fake: FakeDiscord, log_dir: Path) -> None:
        self.fake = fake
        self.log_dir = log_dir
        self.bots: list[BotProcess] = []

    async def __aenter__(self) -> BotRunner:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start_bot(
        self,
        module: str = "bot",
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        *,
        wait_ready: bool = True,
        ready_line: str | None = None,
        timeout: float = 20.0,
        shards: int = 1,
    ) -> BotProcess:
        """Run ``python -m <module> <args>`` against the fake and (by default) wait until it is connected.

        The process gets DISCORD_TOKEN, DISCORD_API_BASE and DISCORD_GATEWAY_URL for the fake, plus ``env``
        (which may override them, e.g. a wrong DISCORD_TOKEN). Its output goes to a log file in ``log_dir``.
        ``shards``: how many shards the process runs, so how many IDENTIFYs it is ready after. Start
        processes one at a time: readiness is counted on the fake's IDENTIFYs, whoever sent them.
        """
        name = module.replace(".", "_")
        log_path = self.log_dir / f"{name}-{len(self.bots) + 1}.log"
        bot = BotProcess(self.fake, module, args, env or {}, log_path, shards)
        self.bots.append(bot)
        await bot.start(wait_ready=wait_ready, ready_line=ready_line, timeout=timeout)
        return bot

    def logs(self) -> str:
        """The logs of every bot started, one after the other."""
        return "\n".join(f"===== {bot.log_path.name} =====\n{bot.log_text()}" for bot in self.bots)

    async def close(self) -> None:
        """Kill every bot process that is still running."""
        for bot in self.bots:
            await bot.kill()



def said(message: StoredMessage | dict[str, Any]) -> str:
    """What a bot message (or a message payload the bot sent) says: its content; in a Components
    V2 message, its text displays after the first, the board's status line (or the only one)."""
    if isinstance(message, StoredMessage):
        flags, content, components = message.flags, message.content, message.components
    else:
        flags, content, components = int(message.get("flags") or 0), message.get("content"), message.get("components")
    if not flags & FLAG_COMPONENTS_V2:
        return content or ""
    texts = [c.content or "" for c in flatten_components(components or []) if c.type == 10]
    return "\n".join(texts[1:]) or (texts[0] if texts else "")
