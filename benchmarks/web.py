"""The web table (bot/web): a move over the WebSocket, and the page's first load, against the table
server in a process of its own, as the bot runs it (its own event loop, uvloop where the bot uses it,
a new SQLite file in a temp folder, the garbage collector tuned as the bot tunes it).

Before the server starts, this process makes the games (Canfield, one per member) and their links
through the play layer on that file. Then, as browsers would, it opens the links (a cookie jar
each), and plays over each page's WebSocket: every move is a legal one from the `moves` of the
state last received (a move other than a draw where there is one, chosen at random, else `d`),
sent when the previous answer has come, and timed from sending to the answer (the round trip).

Two runs:
- one player, sequentially (`--moves`, no pause between moves): the server's CPU per move, as
  the total over the run divided by the moves, and as the median over windows of `--window` moves;
- `--players` at once for `--seconds`, each pausing `--think` seconds on average (uniformly from
  half to one and a half times it) between an answer and their next move, as a person does: the
  round trip's p50/p95/p99/max under that load. `--think 0`: as fast as each can.
The server's CPU is its own process's (user + system, /proc/<pid>/stat), the processes under it
(the replays' drawing process, idle here) apart; this process's CPU (the clients) is shown too,
as it shares the machine's cores with the server.

Then the page's first load: the bytes of /table/<id> and of every file it loads (its scripts and
styles, what those import or use with url(...), the sprite sheet and its map), as sent to a
browser that accepts gzip, and unpacked.

Run from the project root:
    .venv/bin/python -m benchmarks.web [--players 200] [--seconds 30] [--think 2] [--moves 1000]
                                       [--py-spy PREFIX [--gil]] [--static DIR]
Budgets (issue 29, docs/design.md): a move's server CPU median <= 5 ms; 200 players' round trip
p95 <= 100 ms on 2 cores; the page's first load <= 300 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import logging
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from benchmarks.load import Cpu, cpu_seconds, machine_cpu_seconds, profile_summary, start_py_spy
from bot.app import event_loop_factory, tune_garbage_collection
from bot.play.services import build_play
from bot.play.solo import Player
from bot.store import open_store
from bot.web import server as server_module
from bot.web.server import TableServer

GUILD, CHANNEL = 1, 1
FIRST_MEMBER = 1000
LOAD_BUDGET = 300 * 1000  # bytes of the page's first load
CPU_BUDGET = 5.0  # ms of server CPU per move (median)
TRIP_BUDGET = 100.0  # ms, a move's round trip at p95 with --players at once
ANSWER_TIMEOUT = 30.0
SPARE_GAMES = 3  # games made per player of the players' run: their first, and the next ones as games end
BROWSER_HEADERS = {"Accept-Encoding": "gzip, deflate"}
_STYLES = re.compile(r"""<link\b[^>]*\bhref=["']?([^"' >]+)""", re.I)
_SCRIPTS = re.compile(r"""<(?:script|img)\b[^>]*\bsrc=["']?([^"' >]+)""", re.I)
_IMPORTS = re.compile(r"""(?:\bimport\b[^'"]*?|\bimport\s*\(\s*)["'](\.{0,2}/[^"']+)["']""")
_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


# --- the server's process ------------------------------------------------------------------------


async def serve(database: str, port: int, static: str | None) -> None:
    """For the benchmark: the table server on `database`, on 127.0.0.1:`port`, as the bot runs it
    (the page's files from `static` instead of bot/web/static, when given); says "ready" on stdout
    once it listens, and stops when stdin ends."""
    if static:
        server_module.STATIC = Path(static).resolve()
    store = await open_store(database)
    play = build_play(store)
    server = TableServer(play, f"http://127.0.0.1:{port}")
    await server.start(port, host="127.0.0.1")
    tune_garbage_collection()
    print("ready", flush=True)
    try:
        await asyncio.to_thread(sys.stdin.read)
    finally:
        await server.stop()
        play.bulk.stop()
        await store.close()


def run_server(database: str, port: int, static: str | None) -> None:
    """Run `serve` in an event loop made as the bot makes its own (bot.app.run)."""
    logging.basicConfig(level=logging.WARNING)
    sys.setswitchinterval(0.001)
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        runner.run(serve(database, port, static))


class ServerProcess:
    """The table server, started in a process of its own."""

    def __init__(self, database: str, port: int, static: str | None) -> None:
        self.port = port
        command = [sys.executable, "-m", "benchmarks.web", "--serve", database, "--port", str(port),
                   *(["--static", static] if static else [])]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the server did not start ({self.process.wait()})")

    @property
    def pid(self) -> int:
        """The server process's id."""
        return self.process.pid

    def url(self, path: str) -> str:
        """The address of a path on the server."""
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        """Stop it (its stdin ends) and wait."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def prepare(database: str, members: int) -> list[str]:
    """Games for `members` members on a new store at `database`, made through the play layer, and a
    link's path (`/t/<token>`) to each."""
    store = await open_store(database)
    play = build_play(store)
    try:
        paths = []
        for index in range(members):
            member = Player(FIRST_MEMBER + index, f"player {index}")
            reply = await play.solo.start(member, guild_id=GUILD, channel_id=CHANNEL, name="canfield",
                                          deal=1000 + index)
            paths.append("/t/" + await play.table.link(member.id, reply.game_id, "en"))
        return paths
    finally:
        play.bulk.stop()
        await store.close()


# --- the players ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Results:
    """What the players saw in one run."""

    trips: list[float] = field(default_factory=list)  # seconds from sending a move to its answer
    refused: int = 0  # answers whose version did not move on (a move refused)
    errors: int = 0  # answers that were no state, or none within ANSWER_TIMEOUT
    ended: int = 0  # games that ended during the run (won, blocked, at the move cap)
    answer_bytes: int = 0  # the answers' bytes, all told
    endings: list[float] = field(default_factory=list)  # the round trips of the moves that ended a game


def next_move(game: dict, rng: random.Random) -> str:
    """A legal move of the state's game: one other than a draw where there is one, else a draw."""
    others = [move for move in game["moves"] if move != "d"]
    return rng.choice(others) if others else "d"


class Browser:
    """One player's browser: its cookies, the page's WebSocket and the game it last showed."""

    def __init__(self, server: ServerProcess, link: str) -> None:
        self.server, self.link = server, link
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.game: dict = {}
        self.page = ""

    async def open(self) -> None:
        """Open the link (its session cookie), then the page's WebSocket and its first state."""
        async with self.session.get(self.server.url(self.link), allow_redirects=False) as response:
            if response.status != 303:
                raise RuntimeError(f"the link did not open: {response.status} {await response.text()}")
            self.page = response.headers["Location"]
        self.socket = socket_ = await self.session.ws_connect(self.server.url("/ws/" + self.page.rsplit("/", 1)[1]),
                                                              compress=15)  # permessage-deflate, as browsers ask
        state = await socket_.receive_json(timeout=ANSWER_TIMEOUT)
        self.game = state["game"]

    async def move(self, rng: random.Random, results: Results) -> bool:
        """Play one legal move and time it; False when no answer came."""
        assert self.socket is not None
        sent = time.perf_counter()
        await self.socket.send_str(json.dumps({"type": "move", "text": next_move(self.game, rng)}))
        try:
            text = await self.socket.receive_str(timeout=ANSWER_TIMEOUT)
        except (TimeoutError, TypeError):  # TypeError: a message that is no text (closed)
            results.errors += 1
            return False
        results.trips.append(time.perf_counter() - sent)
        results.answer_bytes += len(text.encode())
        answer = json.loads(text)
        if answer.get("type") != "state":
            results.errors += 1
            return True
        if answer["game"]["version"] <= self.game["version"]:
            results.refused += 1
        self.game = answer["game"]
        if self.game["over"]:  # its answer waited for the end-of-game verdict (another process)
            results.ended += 1
            results.endings.append(results.trips[-1])
        return True

    async def close(self) -> None:
        """Close the WebSocket and the browser's connections."""
        if self.socket is not None:
            await self.socket.close()
        await self.session.close()


@dataclass(slots=True)
class Run:
    """One run's figures."""

    name: str
    players: int
    think: float
    results: Results
    elapsed: float
    server_cpu: float  # CPU seconds of the server process during the run
    under_cpu: float  # of the processes under it (search, verdict, drawing)
    bench_cpu: float  # of this process
    others_cpu: float  # of every other process on the machine
    windows: list[float] = field(default_factory=list)  # server CPU ms per move, window by window


class Person:
    """One person at the table: a browser per game, the next game taken from `pool` (links to
    other members' games: a game opened in a new browser) when theirs has ended."""

    def __init__(self, server: ServerProcess, pool: list[str], seed: int) -> None:
        self.server, self.pool = server, pool
        self.rng = random.Random(seed)
        self.browser: Browser | None = None

    async def move(self, results: Results) -> bool:
        """Play one move (in the next game, opened first, when there is none); False when no game is left."""
        if self.browser is None or self.browser.game["over"]:
            if self.browser is not None:
                await self.browser.close()
            if not self.pool:
                self.browser = None
                results.errors += 1
                return False
            self.browser = Browser(self.server, self.pool.pop())
            await self.browser.open()
        return await self.browser.move(self.rng, results)

    async def close(self) -> None:
        """Close the browser."""
        if self.browser is not None:
            await self.browser.close()


async def sequential(server: ServerProcess, pool: list[str], moves: int, window: int) -> Run:
    """One player's moves, one after the other, without a pause."""
    results = Results()
    player = Person(server, pool, 1)
    try:
        for _ in range(min(20, moves)):  # warm: a game loaded and every code path run once
            await player.move(Results())
        machine, bench, began = machine_cpu_seconds(), time.process_time(), time.perf_counter()
        start = last = cpu_seconds(server.pid)
        windows = []
        for done in range(1, moves + 1):
            if not await player.move(results):
                break
            if done % window == 0:
                now = cpu_seconds(server.pid).bot
                windows.append(1000 * (now - last.bot) / window)
                last = Cpu(now, 0.0)
        cpu = cpu_seconds(server.pid)
        bench = time.process_time() - bench
    finally:
        await player.close()
    server_cpu, under = cpu.bot - start.bot, cpu.drawing - start.drawing
    return Run("1 player, in turn", 1, 0.0, results, time.perf_counter() - began, server_cpu, under, bench,
               machine_cpu_seconds() - machine - server_cpu - under - bench, windows)


async def concurrent(server: ServerProcess, pool: list[str], players: int, seconds: float, think: float,
                     py_spy: str | None, gil: bool) -> tuple[Run, Path | None]:
    """`players` at once for `seconds`, each pausing about `think` seconds between moves."""
    people = [Person(server, pool, index) for index in range(players)]
    results = Results()
    try:
        await asyncio.gather(*(person.move(Results()) for person in people))  # each opens a game, warm
        profile, spy = None, None
        if py_spy:
            profile = Path(f"{py_spy}-server.txt")
            spy = start_py_spy(server.pid, profile, seconds / 2, gil=gil)
        machine, bench, began = machine_cpu_seconds(), time.process_time(), time.perf_counter()
        start = cpu_seconds(server.pid)
        deadline = began + seconds

        async def play(person: Person) -> None:
            await asyncio.sleep(person.rng.uniform(0, think))  # not all at the same moment
            while time.perf_counter() < deadline and await person.move(results):
                await asyncio.sleep(person.rng.uniform(think / 2, think * 1.5))

        await asyncio.gather(*(play(person) for person in people))
        cpu = cpu_seconds(server.pid)
        bench = time.process_time() - bench
        elapsed = time.perf_counter() - began
        server_cpu, under = cpu.bot - start.bot, cpu.drawing - start.drawing
        others = machine_cpu_seconds() - machine - server_cpu - under - bench
        if spy is not None:
            spy.wait()
    finally:
        await asyncio.gather(*(person.close() for person in people))
    return Run(f"{players} players at once", players, think, results, elapsed, server_cpu, under, bench,
               others), profile


# --- the page's first load -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loaded:
    """One file the page loads: its path, status and sizes (as sent, and unpacked)."""

    path: str
    status: int
    sent: int
    size: int


async def page_load(browser: Browser, game_id: int) -> list[Loaded]:
    """The page and every file it loads (scripts, styles, what they import or use, the sprites),
    fetched once each, as a browser with the page's session would."""
    loaded: list[Loaded] = []
    queue, seen = [f"/table/{game_id}"], set()
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        async with browser.session.get(browser.server.url(path), headers=BROWSER_HEADERS,
                                       auto_decompress=False) as response:
            raw = await response.read()
            body = raw
            if response.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(raw)
            loaded.append(Loaded(path, response.status, len(raw), len(body)))
        text = body.decode("utf-8", "replace")
        if path.startswith("/table/"):
            found = _STYLES.findall(text) + _SCRIPTS.findall(text) + ["/sprites/classic.png", "/sprites/classic.json"]
        elif path.endswith(".js"):
            found = _IMPORTS.findall(text)
        elif path.endswith(".css"):
            found = _URLS.findall(text)
        else:
            found = []
        base = path.rsplit("/", 1)[0] + "/"
        for reference in found:
            if reference.startswith(("data:", "http:", "https:", "//")):
                continue
            queue.append(os.path.normpath(reference if reference.startswith("/") else base + reference))
    return loaded


# --- the report ----------------------------------------------------------------------------------


def ms(values: list[float], share: float) -> str:
    """The value at this share of the sorted values, in ms."""
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000:.1f}"


def report(runs: list[Run]) -> None:
    """Print the runs' table."""
    print(f"{'run':<22} {'think s':>7} {'moves':>6} {'moves/s':>8} {'CPU ms/move':>11} {'median win':>10} "
          f"{'p50':>6} {'p95':>6} {'p99':>6} {'max':>6} {'server':>7} {'under':>6} {'bench':>6} {'others':>6} "
          f"{'refused':>7} {'errors':>6} {'ended':>5} {'KB/answer':>9}")
    for run in runs:
        results, trips = run.results, run.results.trips
        moves = len(trips)
        per_move = 1000 * run.server_cpu / moves if moves else 0.0
        window = f"{statistics.median(run.windows):.2f}" if run.windows else "-"
        shares = [100 * max(0.0, cpu) / run.elapsed for cpu in (run.server_cpu, run.under_cpu, run.bench_cpu,
                                                                  run.others_cpu)]
        print(f"{run.name:<22} {run.think:>7g} {moves:>6} {moves / run.elapsed:>8.1f} {per_move:>11.2f} "
              f"{window:>10} {ms(trips, 0.5):>6} {ms(trips, 0.95):>6} {ms(trips, 0.99):>6} {ms(trips, 1.0):>6} "
              f"{shares[0]:>6.0f}% {shares[1]:>5.0f}% {shares[2]:>5.0f}% {shares[3]:>5.0f}% {results.refused:>7} "
              f"{results.errors:>6} {results.ended:>5} {results.answer_bytes / max(1, moves) / 1000:>9.1f}")
    print(f"(round trips in ms, from sending a move to its answer; CPU ms/move: the server process's CPU over the run "
          f"/ moves; median win: the median of that over windows of moves (1 player); CPU as % of one core: the "
          f"server process, the processes under it (search, verdict), this process (the clients), other processes;"
          f" ended: games ended by a move (won or blocked), a new game opened in a new browser then; "
          f"the machine has {os.cpu_count()} cores. "
          f"Budgets: CPU <= {CPU_BUDGET:g} ms a move, p95 <= {TRIP_BUDGET:g} ms)")
    for run in runs:
        if run.results.endings:
            endings = run.results.endings
            print(f"{run.name}: the moves that ended a game ({len(endings)}; their answer waits for the end-of-game "
                  f"verdict) took p50 {ms(endings, 0.5)} ms, max {ms(endings, 1.0)} ms")


def report_load(loaded: list[Loaded], static: str) -> None:
    """Print the page's first load, file by file (the page's files from `static`), against the budget."""
    print(f"\nthe page's files from {static}")
    print(f"{'the page first loads':<28} {'status':>6} {'sent':>9} {'unpacked':>9}")
    for item in loaded:
        print(f"{item.path:<28} {item.status:>6} {item.sent:>9,} {item.size:>9,}")
    sent, size = sum(item.sent for item in loaded), sum(item.size for item in loaded)
    verdict = "within" if sent <= LOAD_BUDGET else "OVER"
    print(f"{'total':<28} {'':>6} {sent:>9,} {size:>9,}   ({verdict} the budget of {LOAD_BUDGET:,} bytes sent)")
    missing = [item.path for item in loaded if item.status != 200]
    if missing:
        print(f"not found (not counted as loaded): {', '.join(missing)}")


async def run(players: int, seconds: float, think: float, moves: int, window: int, py_spy: str | None,
              gil: bool, static: str | None) -> None:
    """Make the games, start the server, measure, report."""
    print(f"load average before: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "web.sqlite3")
        began = time.perf_counter()
        links = await prepare(database, 1 + (moves // 10 + 10) + players * SPARE_GAMES)
        print(f"{len(links)} games and links made in {time.perf_counter() - began:.1f} s")
        server = ServerProcess(database, free_port(), static)
        try:
            first = Browser(server, links.pop())
            try:
                await first.open()
                loaded = await page_load(first, first.game["id"])
            finally:
                await first.close()
            alone = await sequential(server, links[:moves // 10 + 10], moves, window)
            del links[:moves // 10 + 10]
            together, profile = await concurrent(server, links, players, seconds, think, py_spy, gil)
        finally:
            server.stop()
    report([alone, together])
    report_load(loaded, static or str(server_module.STATIC))
    print(f"load average after: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    if profile is not None:
        print(profile_summary(profile) if profile.exists() else f"{profile}: py-spy wrote nothing")


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0,
                        help="a player's mean pause between an answer and their next move, in seconds")
    parser.add_argument("--moves", type=int, default=1000, help="the moves of the one-player run")
    parser.add_argument("--window", type=int, default=100, help="moves per CPU window in the one-player run")
    parser.add_argument("--py-spy", metavar="PREFIX",
                        help="profile the server with py-spy (pip install py-spy) over the first half of the "
                             "players' run, into PREFIX-server.txt, and print the top functions")
    parser.add_argument("--gil", action="store_true", help="with --py-spy: sample only the thread holding the GIL")
    parser.add_argument("--static", metavar="DIR",
                        help="serve the page's files from DIR instead of bot/web/static (a page in the making)")
    parser.add_argument("--serve", metavar="DATABASE", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        run_server(args.serve, args.port, args.static)
        return
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        runner.run(run(args.players, args.seconds, args.think, args.moves, args.window, args.py_spy, args.gil,
                       args.static))


if __name__ == "__main__":
    main()
