"""Load and faults: `python -m bot` against the fake Discord server, N simulated players.

Closed loop (the default): each player sends `/play`, then `/move d` again and again, each as soon
as the previous one was answered with a board, for a fixed time; a game that ends (won or blocked:
some deals are blocked from the start) is followed by a `/play` of another deal. `--burst`: every
player gets a game, then all N send one `/move d` at the same moment, again and again (a second of
quiet between bursts): the budget of docs/design.md, 500 players answered within 1.5 s.
With `--kill`, the bot is killed with SIGKILL halfway and restarted. With `--floor`, the same
players then play against the floor (`benchmarks/floor.py`, a minimal discord.py bot that answers
every command with a fixed image and the same buttons at once), through a new fake Discord.

Run from the project root:
    .venv/bin/python -m benchmarks.load [--players 500] [--seconds 30] [--burst] [--kill] [--floor]
                                        [--database-url URL] [--py-spy PREFIX [--gil]]
                                        [--bot-env NAME=VALUE ...]

Prints interactions per second; the time to the first acknowledgement (the interaction callback,
a deferral or the answer itself) and to the answer the player sees (the board), p50/p99/max; the
errors; the CPU time of the bot process, of its worker processes (drawing with `RENDER_PROCESSES`,
searches, verdicts) and of this process (the fake Discord and the players), which share the
machine's cores, as a share of a core and in ms per interaction, and the whole process tree's (the
bot and its workers); the REST requests the bot made per interaction, and the mean size of an answer's
image. Then, read back through the store's own API (`open_store`), how many of the moves that got
an answer are stored, and whether every game replays. With `--floor`, the floor's line follows,
and the CPU per interaction of the bot process and of the whole process tree, ours against the
floor's. The bot's worker processes start with it (START_PROCESSES=on, as outside the tests).

Times are taken in the fake's event loop: from the moment it sends INTERACTION_CREATE to the
moment it accepts the callback, or stores the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.app import tune_garbage_collection
from bot.game import from_record
from bot.store import open_store
from tests.conftest import fresh_postgres_schema
from tests.e2e.fakediscord import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
    InteractionFailed,
    NoBotConnected,
    StoredMessage,
    leaf_components,
)
from tests.e2e.harness import BotProcess, BotRunner

ANSWER_TIMEOUT = 30.0  # a player gives up waiting for an answer after this long
RETRY_PAUSE = 0.2  # and after an error, waits this long before the next command
BURST_QUIET = 1.0  # seconds of quiet between two bursts
FLOOR = "benchmarks.floor"  # the floor's module
DRAW_BUTTON = re.compile(r"^pe:(?P<game>[0-9]+):(?P<version>[0-9]+):draw$")


# --- the fake Discord, with bookkeeping the driver can afford for 500 players --------------------


class BotKilled(Exception):
    """The bot was killed while the interaction waited for its answer."""


@dataclass(slots=True)
class _Pending:
    """An interaction a player waits on."""

    interaction: FakeInteraction
    answer: asyncio.Future[StoredMessage | None]
    answered_at: float | None = None


class BenchFake(FakeDiscord):
    """The fake Discord, with the same behaviour, made cheap per interaction for hundreds of players.

    The fake's own waits (`FakeInteraction.wait_response`) wake every waiter at every change of
    the fake's state: with N players waiting, each change costs N wake-ups, and a move makes
    several changes, so the driver alone would use a core at a few hundred players. Here the REST
    handlers that can answer an interaction (its callback, a followup, an edit of a message of its
    webhook) settle that interaction's own future, and a timer settles it when its 3 s run out.
    The webhook token lookup, a scan of every interaction so far, becomes a dict lookup (any
    request it does not cover goes to the fake's own code, with its errors). Nothing else changes.
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._by_token: dict[str, FakeInteraction] = {}
        self._pending: dict[int, _Pending] = {}

    def track(self, interaction: FakeInteraction) -> asyncio.Future[StoredMessage | None]:
        """A future for the answer the user sees (as `wait_response` would return it): the
        message (None for autocomplete and modals), or InteractionFailed."""
        loop = asyncio.get_running_loop()
        pending = _Pending(interaction, loop.create_future())
        self._pending[interaction.id] = pending
        loop.call_at(interaction.dispatched_at + self.ack_deadline + 0.001, self._progress, interaction)
        self._progress(interaction)  # the bot may have answered already
        return pending.answer

    def answered_at(self, interaction: FakeInteraction) -> float | None:
        """When (loop time) the fake stored the interaction's answer, once `track`'s future is done."""
        pending = self._pending.get(interaction.id)
        return None if pending is None else pending.answered_at

    def forget(self, interaction: FakeInteraction) -> None:
        """Stop tracking an interaction once its answer has been read."""
        self._pending.pop(interaction.id, None)

    def abandon(self, reason: str) -> None:
        """Fail every interaction still waited on (its bot was killed: no answer can come)."""
        for pending in self._pending.values():
            if not pending.answer.done():
                pending.answer.set_exception(BotKilled(reason))
                pending.answer.exception()

    def _progress(self, interaction: FakeInteraction) -> None:
        pending = self._pending.get(interaction.id)
        if pending is None or pending.answer.done():
            return
        if interaction.failed:
            pending.answer.set_exception(InteractionFailed(f"{interaction!r} failed: {interaction.failure}"))
            pending.answer.exception()  # retrieved here: a player that gave up must not leave it unread
            return
        found = _visible_answer(interaction)
        if found is not None:
            pending.answered_at = asyncio.get_running_loop().time()
            pending.answer.set_result(found[0])

    async def _interaction_callback(self, request: web.Request) -> web.StreamResponse:
        try:
            return await super()._interaction_callback(request)
        finally:
            raw = request.match_info.get("interaction_id", "")
            interaction = self.interactions.get(int(raw)) if raw.isdigit() else None
            if interaction is not None:
                if interaction.acknowledged:
                    self._by_token[interaction.token] = interaction
                self._progress(interaction)

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        interaction = self._by_token.get(request.match_info["token"])
        if interaction is None or request.match_info["app_id"] != str(self.application_id):
            return super()._webhook_interaction(request)
        age = asyncio.get_running_loop().time() - interaction.dispatched_at
        if interaction.expired or age > self.token_lifetime or not interaction.acknowledged:
            return super()._webhook_interaction(request)  # raises the fake's own error
        return interaction

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        try:
            return await super()._followup(request)
        finally:
            self._progress_token(request)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        try:
            return await super()._webhook_message(request)
        finally:
            self._progress_token(request)

    def _progress_token(self, request: web.Request) -> None:
        interaction = self._by_token.get(request.match_info.get("token", ""))
        if interaction is not None:
            self._progress(interaction)


def _visible_answer(interaction: FakeInteraction) -> tuple[StoredMessage | None] | None:
    """What `FakeInteraction.wait_response` returns once the user sees an answer (in a 1-tuple),
    or None while there is none: the same rules, without waiting."""
    if interaction.response_type in (AUTOCOMPLETE_RESULT, MODAL):
        return (None,)
    if interaction.response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        return (interaction.message,)
    if interaction.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
        original = interaction.message
        if interaction.followup_ids:
            return (interaction.latest,)
        if original is not None and (original.deleted or original.version > interaction._version_at_ack):
            return (original,)
    return None


# --- what the players saw -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """What a board answer says about its game: from the custom_id of its Draw button."""

    game_id: int
    version: int
    finished: bool


@dataclass(slots=True)
class Results:
    """Everything measured during a run."""

    acks: list[float] = field(default_factory=list)  # seconds from dispatch to the first callback
    answers: list[float] = field(default_factory=list)  # seconds from dispatch to the board
    commands: Counter[str] = field(default_factory=Counter)  # interactions answered, by command
    errors: Counter[str] = field(default_factory=Counter)
    answered: dict[int, int] = field(default_factory=dict)  # game id -> highest version shown to its player
    games_ended: int = 0
    bursts: list[float] = field(default_factory=list)  # each burst: the last answer, from the first dispatch
    bot_cpu: float = 0.0  # CPU seconds of the bot process
    drawing_cpu: float = 0.0  # CPU seconds of the processes under it (drawing, search and verdict processes)
    rest_calls: int = 0  # REST requests the bot made
    image_bytes: list[int] = field(default_factory=list)  # the size of each answer's image

    def add_cpu(self, cpu: Cpu, sign: int = 1) -> None:
        """Count a bot's CPU (`sign` -1: take away what it had used before the measurement)."""
        self.bot_cpu += sign * cpu.bot
        self.drawing_cpu += sign * cpu.drawing


def board_of(message: StoredMessage | None) -> Board | None:
    """The game, version and state a board message shows; None for a message without a board."""
    if message is None or not message.attachments:
        return None
    for component in leaf_components(message.components):
        match = DRAW_BUTTON.match(component.get("custom_id") or "")
        if match:
            return Board(int(match["game"]), int(match["version"]), bool(component.get("disabled", False)))
    return None


async def command(fake: BenchFake, user: FakeUser, name: str, options: dict[str, Any],
                  results: Results) -> Board | None:
    """Send one slash command, wait for its answer and record its times; the board it shows,
    or None (and an error counted) when there was no board."""
    try:
        interaction = await fake.slash_command(user, name, options)
    except NoBotConnected:
        results.errors["no bot connected (restarting)"] += 1
        return None
    try:
        message = await asyncio.wait_for(fake.track(interaction), ANSWER_TIMEOUT)
    except InteractionFailed:
        results.errors[f"/{name}: {interaction.failure or 'failed'}"[:60]] += 1
        return None
    except TimeoutError:
        results.errors[f"/{name}: no answer within {ANSWER_TIMEOUT:g}s"] += 1
        return None
    except BotKilled:
        results.errors[f"/{name}: in flight when the bot was killed"] += 1
        return None
    finally:
        answered_at = fake.answered_at(interaction)
        fake.forget(interaction)
    if interaction.acked_at is not None:
        results.acks.append(interaction.acked_at - interaction.dispatched_at)
    if answered_at is not None:
        results.answers.append(answered_at - interaction.dispatched_at)
    results.commands[name] += 1
    if message is not None and message.attachments:
        results.image_bytes.append(sum(attachment.size for attachment in message.attachments))
    board = board_of(message)
    if board is None:
        text = message.content if message is not None else "(no message)"
        results.errors[f"/{name}: {text[:50]}"] += 1
        return None
    if name == "move":
        results.answered[board.game_id] = max(board.version, results.answered.get(board.game_id, 0))
    return board


def deal_for(index: int, attempt: int) -> int:
    """The deal a player starts with (a fixed one per player and attempt, so runs compare)."""
    return 1000 + (index * 7919 + attempt * 104_729) % 1_000_000


class Player:
    """One simulated player and the game they play."""

    def __init__(self, fake: BenchFake, user: FakeUser, index: int, results: Results) -> None:
        self.fake, self.user, self.index, self.results = fake, user, index, results
        self.attempt = 0
        self.board: Board | None = None

    async def start(self, deadline: float) -> None:
        """`/play` (a new deal after a finished game) until it is answered with a board in play,
        or the deadline passes."""
        while time.monotonic() < deadline:
            board = await command(self.fake, self.user, "play", {"deal": deal_for(self.index, self.attempt)},
                                  self.results)
            if board is not None and not board.finished:
                self.board = board
                return
            if board is not None:  # "you already have a game" and it is over: cannot be, but go on
                self.attempt += 1
            await asyncio.sleep(RETRY_PAUSE)

    async def move(self) -> None:
        """One `/move d`; a game that ended (or is gone) makes the next command a `/play`."""
        board = await command(self.fake, self.user, "move", {"moves": "d"}, self.results)
        if board is None:
            self.board = None
            await asyncio.sleep(RETRY_PAUSE)
        elif board.finished:
            self.results.games_ended += 1
            self.board = None
            self.attempt += 1
        else:
            self.board = board

    async def closed_loop(self, deadline: float) -> None:
        """Start a game, then draw again and again until the deadline (a new game after one ends)."""
        while time.monotonic() < deadline:
            if self.board is None:
                board = await command(self.fake, self.user, "play", {"deal": deal_for(self.index, self.attempt)},
                                      self.results)
                if board is None:
                    await asyncio.sleep(RETRY_PAUSE)
                elif board.finished:
                    self.attempt += 1
                else:
                    self.board = board
            else:
                await self.move()


# --- the bot process ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cpu:
    """CPU seconds used so far by a bot process and by the processes under it."""

    bot: float
    drawing: float


def cpu_seconds(pid: int | None) -> Cpu:
    """User + system CPU seconds a process (all its threads) has used so far, and apart, the
    processes under it (the drawing processes of `RENDER_PROCESSES` and their forkserver, the search
    and verdict processes); 0 if
    it is gone."""
    if pid is None:
        return Cpu(0.0, 0.0)
    stats = _process_stats()
    family: set[int] = set()
    grown = {pid}
    while grown:
        family |= grown
        grown = {process for process, (parent, _) in stats.items() if parent in family} - family
    own = stats[pid][1] if pid in stats else 0.0
    return Cpu(own, sum(stats[process][1] for process in family - {pid} if process in stats))


def _process_stats() -> dict[int, tuple[int, float]]:
    """Every process on the machine: its parent and the CPU seconds it has used."""
    stats = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            continue
        stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return stats


def machine_cpu_seconds() -> float:
    """CPU seconds every process on the machine has used (busy time from /proc/stat); 0 if unknown."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def start_py_spy(pid: int, output: Path, seconds: float, *, gil: bool = False) -> subprocess.Popen[bytes]:
    """py-spy (installed by hand, not a dependency) sampling a process for `seconds`, raw output;
    `gil`: only the thread holding the GIL (the Python code's CPU, not threads waiting for it)."""
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
                             "--rate", "100", "--format", "raw", "--nonblocking", "--output", str(output),
                             *(["--gil"] if gil else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def profile_summary(path: Path, top: int = 12) -> str:
    """The functions a py-spy raw profile saw most often on top of the stack (self time), and in
    it anywhere (inclusive), with their share of all samples."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
        total += int(count)
        own[frames[-1]] += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
    if not total:
        return f"{path}: no samples"
    lines = [f"{path}: {total} samples (100 a second per busy thread)", "  self:"]
    lines += [f"    {100 * n / total:5.1f}% {name}" for name, n in own.most_common(top)]
    lines += ["  inclusive:"]
    lines += [f"    {100 * n / total:5.1f}% {name}" for name, n in inclusive.most_common(top)]
    return "\n".join(lines)


# --- the run ------------------------------------------------------------------------------------


async def closed(fake: BenchFake, players: list[Player], seconds: float, kill: bool, bot: BotProcess,
                 results: Results) -> None:
    """Every player in a closed loop until the deadline (SIGKILL and restart halfway with `kill`)."""
    deadline = time.monotonic() + seconds
    loops = [asyncio.create_task(player.closed_loop(deadline)) for player in players]
    if kill:
        await asyncio.sleep(seconds / 2)
        results.add_cpu(cpu_seconds(bot.pid))
        await bot.kill()
        fake.abandon("SIGKILL")
        await bot.restart()
    await asyncio.gather(*loops)


async def burst(fake: BenchFake, players: list[Player], seconds: float, kill: bool, bot: BotProcess,
                results: Results) -> None:
    """Bursts until the deadline: every player with a game sends one `/move d` at once; then a
    second of quiet. Players whose game ended start a new one between bursts."""
    loop = asyncio.get_running_loop()
    deadline = time.monotonic() + seconds
    killed = not kill
    while time.monotonic() < deadline:
        if not killed and time.monotonic() > deadline - seconds / 2:
            results.add_cpu(cpu_seconds(bot.pid))
            await bot.kill()
            fake.abandon("SIGKILL")
            await bot.restart()
            killed = True
        await asyncio.gather(*(player.start(deadline) for player in players if player.board is None))
        first = loop.time()
        await asyncio.gather(*(player.move() for player in players if player.board is not None))
        results.bursts.append(loop.time() - first)
        await asyncio.sleep(BURST_QUIET)


@dataclass(slots=True)
class Run:
    """One bot's run: what was measured, and over how long."""

    bot: str  # what ran: "ours" or "floor"
    results: Results
    elapsed: float
    bench_cpu: float  # CPU seconds of this process meanwhile
    others: float  # CPU seconds of every other process on the machine meanwhile
    profiles: list[Path]  # py-spy's output files


async def drive(module: str, env: dict[str, str], players: int, seconds: float, *, kill: bool, burst_mode: bool,
                py_spy: str | None, gil: bool = False, folder: Path) -> Run:
    """Start a fake Discord and the bot `python -m module` against it, drive the players, and
    return what was measured (py-spy's output files, if asked for, are PREFIX-bot.txt and
    PREFIX-bench.txt)."""
    results = Results()
    fake = BenchFake()
    await fake.start()
    try:
        async with BotRunner(fake, folder) as bots:
            bot = await bots.start_bot(module, env=env)
            team = [Player(fake, fake.add_user(f"player{i}"), i, results) for i in range(players)]
            if burst_mode:  # everyone gets a game first: the bursts are moves only
                setup = time.monotonic() + 2 * ANSWER_TIMEOUT
                await asyncio.gather(*(player.start(setup) for player in team))
                results = Results()
                for player in team:
                    player.results = results
            spies: list[tuple[subprocess.Popen[bytes], Path]] = []

            def spy() -> None:
                for name, pid in (("bot", bot.pid), ("bench", os.getpid())):
                    output = Path(f"{py_spy}-{name}.txt")
                    spies.append((start_py_spy(pid or 0, output, seconds / 2, gil=gil), output))

            if py_spy:
                asyncio.get_running_loop().call_later(seconds / 4, spy)
            # What this process holds by now (the fake, the games set up, the libraries) lives to the
            # end: the bot's own tuning sets it aside from the garbage collector's passes, which come
            # less often (in a 500-player closed loop they took 18% of this process's CPU with
            # gc.freeze alone, 11% with the tuning's thresholds too).
            tune_garbage_collection()
            machine, bench_cpu, began = machine_cpu_seconds(), time.process_time(), time.monotonic()
            requests_before = len(fake.requests)
            results.add_cpu(cpu_seconds(bot.pid), -1)
            await (burst if burst_mode else closed)(fake, team, seconds, kill, bot, results)
            elapsed = time.monotonic() - began
            results.add_cpu(cpu_seconds(bot.pid))
            results.rest_calls = len(fake.requests) - requests_before
            bench_cpu = time.process_time() - bench_cpu
            others = machine_cpu_seconds() - machine - results.bot_cpu - results.drawing_cpu - bench_cpu
            for process, _ in spies:
                process.wait()
    finally:
        await fake.stop()
    return Run("floor" if module == FLOOR else "ours", results, elapsed, bench_cpu, others,
               [output for _, output in spies])


async def run(players: int, seconds: float, *, database_url: str | None, **options: Any) -> None:
    """Run our bot (then the floor, with `floor`), print the tables and check the store. On
    PostgreSQL, in a new schema of its own, dropped afterwards: the games checked are the run's."""
    if database_url is None or not database_url.startswith("postgres"):
        await run_on(players, seconds, database_url=database_url, **options)
        return
    async with fresh_postgres_schema(database_url) as url:
        await run_on(players, seconds, database_url=url, **options)


async def run_on(players: int, seconds: float, *, kill: bool, burst_mode: bool, floor: bool, database_url: str | None,
                 py_spy: str | None, gil: bool, bot_env: dict[str, str], module: str = "bot") -> None:
    """`run` on the database at `database_url` (a new SQLite file when None)."""
    folder = Path(tempfile.mkdtemp(prefix="pe-load-"))
    url = database_url or f"sqlite:///{folder / 'pe.sqlite3'}"
    # The bot's worker processes start with it, as they do outside the tests (tests/e2e/harness.py
    # starts them lazily): what they cost to start is not a cost of the interactions measured.
    env = {"DATABASE_URL": url, "HEALTH_FILE": str(folder / "alive"), "LOG_LEVEL": "WARNING",
           "START_PROCESSES": "on", **bot_env}
    ours = await drive(module, env, players, seconds, kill=kill, burst_mode=burst_mode, py_spy=py_spy, gil=gil,
                       folder=folder)
    database = url.split("://")[0] if "://" in url else "sqlite"
    print(f"{players} players, {seconds:g} s, {'burst' if burst_mode else 'closed loop'}, {database}"
          f"{', SIGKILL and restart halfway' if kill else ''}, "
          f"RENDER_PROCESSES={env.get('RENDER_PROCESSES') or os.environ.get('RENDER_PROCESSES') or 0}"
          f"{''.join(f', {name}={value}' for name, value in bot_env.items() if name != 'RENDER_PROCESSES')}")
    report(ours)
    print(f"whole process tree CPU per interaction (the bot, its drawing, search and verdict processes): "
          f"{per_interaction(ours, ours.results.bot_cpu + ours.results.drawing_cpu):.2f} ms")
    await check_store(url, ours.results)
    if not floor:
        return
    floor_run = await drive(FLOOR, {"LOG_LEVEL": "WARNING", **bot_env}, players, seconds, kill=kill,
                            burst_mode=burst_mode, py_spy=py_spy and f"{py_spy}-floor", gil=gil, folder=folder)
    report(floor_run, header=False)
    mine, least = per_interaction(ours, ours.results.bot_cpu), per_interaction(floor_run, floor_run.results.bot_cpu)
    ratio = f"{mine / least:.1f}x the floor" if least else "the floor answered nothing"
    print(f"bot process CPU per interaction: ours {mine:.2f} ms, the floor's {least:.2f} ms: {ratio}")
    tree = per_interaction(ours, ours.results.bot_cpu + ours.results.drawing_cpu)
    floor_tree = per_interaction(floor_run, floor_run.results.bot_cpu + floor_run.results.drawing_cpu)
    ratio = f"{tree / floor_tree:.1f}x the floor" if floor_tree else "the floor answered nothing"
    print(f"whole process tree CPU per interaction: ours {tree:.2f} ms, the floor's {floor_tree:.2f} ms: {ratio}")


def per_interaction(run: Run, cpu: float) -> float:
    """CPU milliseconds per interaction answered in a run."""
    done = sum(run.results.commands.values())
    return 1000 * cpu / done if done else 0.0


def _ms(values: list[float], share: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000:.0f}"


def report(run: Run, *, header: bool = True) -> None:
    """Print the table of one run (the header line first, with `header`)."""
    results, elapsed = run.results, run.elapsed
    done = sum(results.commands.values())
    if header:
        print(f"{'bot':>5} {'interactions/s':>15} {'ack p50':>8} {'p99':>6} {'max':>6} {'answer p50':>11} {'p99':>6} "
              f"{'max':>6} {'errors':>7} {'bot CPU':>8} {'ms/i':>5} {'workers':>8} {'ms/i':>5} {'bench CPU':>10} "
              f"{'ms/i':>5} {'REST/i':>7} {'image KB':>9}")
    acks, answers = results.acks, results.answers
    image = statistics.mean(results.image_bytes) / 1000 if results.image_bytes else 0.0
    print(f"{run.bot:>5} {done / elapsed:>15.1f} {_ms(acks, 0.5):>8} {_ms(acks, 0.99):>6} {_ms(acks, 1.0):>6} "
          f"{_ms(answers, 0.5):>11} {_ms(answers, 0.99):>6} {_ms(answers, 1.0):>6} "
          f"{sum(results.errors.values()):>7} {100 * results.bot_cpu / elapsed:>7.0f}% "
          f"{per_interaction(run, results.bot_cpu):>5.2f} {100 * results.drawing_cpu / elapsed:>7.0f}% "
          f"{per_interaction(run, results.drawing_cpu):>5.2f} {100 * run.bench_cpu / elapsed:>9.0f}% "
          f"{per_interaction(run, run.bench_cpu):>5.2f} "
          f"{results.rest_calls / done if done else 0:>7.2f} {image:>9.1f}")
    print(f"(times in ms; CPU as % of one core over {elapsed:.1f} s, and ms per interaction: the bot process, its "
          f"worker processes, and this process, the fake Discord and its players (bench); the machine has "
          f"{os.cpu_count()} cores, shared by the bot and this process; other processes used "
          f"{100 * max(0.0, run.others) / elapsed:.0f}% meanwhile)")
    print(f"interactions: {dict(results.commands)}; games ended (won or blocked): {results.games_ended}; "
          f"answers over 1 s: {sum(1 for a in answers if a > 1.0)}")
    if results.bursts:
        print(f"bursts: {len(results.bursts)}; a burst's last answer came {statistics.median(results.bursts):.2f} s "
              f"after its first move was sent (median), {max(results.bursts):.2f} s (max)")
    if results.errors:
        print("errors:", ", ".join(f"{count} × {what!r}" for what, count in results.errors.most_common(4)))
    for output in run.profiles:
        print(profile_summary(output) if output.exists() else f"{output}: py-spy wrote nothing")


async def check_store(url: str, results: Results) -> None:
    """Read the games back through the store's API: the answered moves that are not stored
    (a board showed version v: its game's first v moves were stored), and whether every
    stored game replays."""
    store = await open_store(url)
    try:
        games = {game.id: game for game in await store.games.all_games()}
    finally:
        await store.close()
    known = results.answered
    lost = sum(version - min(version, games[game_id].version if game_id in games else 0)
               for game_id, version in known.items())
    broken = 0
    for stored in games.values():
        try:
            from_record({"game": stored.name, "options": stored.options, "deal": stored.deal,
                         "cards": None if stored.cards is None else
                         [stored.cards[i:i + 2] for i in range(0, len(stored.cards), 2)],
                         "moves": stored.moves})
        except Exception as error:
            broken += 1
            print(f"game {stored.id} does not replay: {error}")
    print(f"moves answered {sum(known.values())} (the versions of the last boards players saw, in {len(known)} "
          f"games); answered but not stored: {lost}; games replayed {len(games) - broken}/{len(games)}"
          f"{' BROKEN' if broken else ''}")


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--burst", action="store_true", help="all players send a move at the same moment, repeatedly")
    parser.add_argument("--kill", action="store_true", help="SIGKILL the bot halfway and restart it")
    parser.add_argument("--floor", action="store_true",
                        help="then run the same players against the floor (benchmarks/floor.py) and compare")
    parser.add_argument("--database-url", help="the bot's DATABASE_URL (default: a new SQLite file in a temp "
                                               "folder; on PostgreSQL, a new schema, dropped after the run)")
    parser.add_argument("--py-spy", metavar="PREFIX",
                        help="profile the bot and this process with py-spy (pip install py-spy) over the middle "
                             "half of the run, into PREFIX-bot.txt and PREFIX-bench.txt, and print the top functions")
    parser.add_argument("--gil", action="store_true",
                        help="with --py-spy: sample only the thread holding the GIL (CPU in Python code)")
    parser.add_argument("--bot-env", action="append", default=[], metavar="NAME=VALUE",
                        help="set an environment variable for the bot (and the floor) alone, e.g. "
                             "RENDER_PROCESSES=2 or PYTHONPATH=DIR for a folder of modules that hide others")
    parser.add_argument("--module", default="bot", help="run `python -m MODULE` as our bot (a profiling wrapper)")
    args = parser.parse_args()
    logging.getLogger("fakediscord").setLevel(logging.ERROR)  # its warnings are the errors counted in the table
    # A bot killed in the middle of an upload leaves aiohttp a half-read request: that is the
    # test, and its traceback would bury the table (the interaction is counted as an error).
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    asyncio.run(run(args.players, args.seconds, kill=args.kill, burst_mode=args.burst, floor=args.floor,
                    database_url=args.database_url, py_spy=args.py_spy, gil=args.gil,
                    bot_env=dict(setting.split("=", 1) for setting in args.bot_env), module=args.module))


if __name__ == "__main__":
    main()
