"""Abuse: one member spams the costliest action of each kind at full speed while others play.

`python -m bot` runs against the fake Discord (benchmarks/load.py's machinery). Bystanders play
at a player's pace: `/move d`, then THINK seconds after its answer the next one (a new `/play`
when a game ends). Phase by phase, one member ("abuser") keeps IN_FLIGHT commands in flight, each sent as soon as
one is answered:

- none:     nobody abuses (the bystanders' baseline);
- move:     `/move d` and `/move u` in a superior-canfield position where every outcome search
            gives up after looking at the solver's DEAD_LIMIT positions;
- hint:     `/hint` and `/move d` in that position (each hint on a new board is a new search);
- cap:      `/move` with 2,999 draws;
- lobby:    `/match open`;
- verdict:  `/play` of a deal whose verdict gives up after 1.5 M positions, then `/resign`, in
            IN_FLIGHT channels at once (last: the abuser's new games are rate limited after it);
- replay:   a crowd of REPLAYERS members (not the abuser), each replaying the longest games one
            after the other (benchmarks.replay `longest_games`: the solver's 802-move Canfield
            win, a 1,995-move Demons and Thieves game, stored finished in the bot's database
            first), until the phase's time is up; the bystanders play on until every replay asked
            for is answered. Its line adds the bot's resident memory with its children (drawing,
            search and replay processes): before, at the peak, and IDLE_AFTER seconds after.

Run from the project root:
    .venv/bin/python -m benchmarks.abuse [--players 20] [--think 0.5] [--seconds 15] [--phases move,hint]
        [--render-processes 0,2]   (each listed RENDER_PROCESSES in turn, a bot each; 0: threads)

Prints, per phase, the bystanders' answers (count, p50/p95/max in ms, unanswered) and what the
abuser got (answered, refused by a limit or cap, unanswered). The budget (docs/design.md): the
others' p95 at most 250 ms, no interaction unanswered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.load import ANSWER_TIMEOUT, BenchFake, Player, Results, _ms
from benchmarks.replay import longest_games
from bot.play.bulk import resident_bytes
from tests.e2e.fakediscord import FakeUser, InteractionFailed
from tests.e2e.harness import BotRunner
from tests.e2e.harness import said as said_in
from tests.e2e.stored import store_finished_games
from tests.game.test_outcome_within import SLOW_DEAL, SLOW_MOVES  # outcome and hint searches give up there

IN_FLIGHT = 6  # the abuser's commands in flight at once
THINK = 0.5  # seconds a bystander takes between an answer and their next move
# Canfield deals whose end-of-game verdict gives up after VERDICT_LIMIT positions (some 1.5 s).
SLOW_VERDICTS = (7, 14, 18, 37, 43, 83, 95, 105, 121, 123, 127, 128)
REFUSALS = ("Slow down", "cap of", "already have a match", "already in a race", "Too many replays",
            "still being drawn")
PHASES = ("none", "move", "hint", "cap", "lobby", "verdict", "replay")
REPLAYERS = 8  # the replay phase's crowd
REPLAY_TIMEOUT = 600.0  # a replay may wait behind the whole crowd's
IDLE_AFTER = 35.0  # seconds after the crowd's last replay when memory is measured again (the replay process ends at 30)


@dataclass(slots=True)
class Abuser:
    """The member who spams, and what they got."""

    fake: BenchFake
    user: FakeUser
    channels: list[int]
    got: Counter[str]
    said: Counter[str]  # the starts of the answers, to show what the abuser was told
    crowd: list[FakeUser] = field(default_factory=list)  # the replay phase's members
    replays: dict[int, list[int]] = field(default_factory=dict)  # member id -> their finished games to replay
    uploads: list[int] = field(default_factory=list)  # the bytes of each answer's files

    async def ask(self, name: str, options: dict[str, Any] | None = None, channel: int | None = None, *,
                  user: FakeUser | None = None, timeout: float = ANSWER_TIMEOUT) -> str:
        """Send one slash command (as `user`, by default the abuser) and wait for its answer: its
        text ("" for none)."""
        interaction = await self.fake.slash_command(user or self.user, name, options or {}, channel_id=channel)
        try:
            message = await asyncio.wait_for(self.fake.track(interaction), timeout)
        except (InteractionFailed, TimeoutError):
            self.got["unanswered"] += 1
            return ""
        finally:
            self.fake.forget(interaction)
        text = said_in(message) if message is not None else ""
        self.said[text[:60]] += 1
        self.got["refused" if any(word in text for word in REFUSALS) else "answered"] += 1
        if message is not None and message.attachments:
            self.uploads.append(sum(attachment.size for attachment in message.attachments))
        return text

    async def setup(self, phase: str) -> None:
        """What the phase's spam needs: a game in the slow position."""
        if phase in ("move", "hint", "cap"):
            await self.ask("resign")
            await self.ask("play", {"game": "superior-canfield", "deal": SLOW_DEAL})
            await self.ask("move", {"moves": SLOW_MOVES})
        self.got.clear()
        self.said.clear()
        self.uploads.clear()

    async def spam(self, phase: str, lane: int, deadline: float) -> None:
        """One lane of the phase's spam, until the deadline."""
        turn = 0
        least = len(self.replays[self.crowd[lane].id]) if phase == "replay" else 0  # each of the games once
        while time.monotonic() < deadline or turn < least:
            turn += 1
            if phase == "move":
                await self.ask("move", {"moves": "d" if turn % 2 else "u"})
            elif phase == "hint":
                await self.ask("hint" if turn % 2 else "move", {} if turn % 2 else {"moves": "d"})
            elif phase == "verdict":
                channel = self.channels[lane % len(self.channels)]
                deal = SLOW_VERDICTS[(lane * 5 + turn) % len(SLOW_VERDICTS)]
                await self.ask("play", {"deal": deal}, channel)
                await self.ask("resign", {}, channel)
            elif phase == "lobby":
                await self.ask("match open")
            elif phase == "cap":
                await self.ask("move", {"moves": " ".join(["d"] * 2_999)})
            elif phase == "replay":
                member = self.crowd[lane]
                games = self.replays[member.id]
                await self.ask("replay", {"game": games[(turn + lane) % len(games)]}, user=member,
                               timeout=REPLAY_TIMEOUT)


async def bystander(player: Player, think: float, deadline: float, until: asyncio.Event | None = None) -> None:
    """A player at a player's pace: a move (or a new game), an answer, `think` seconds, again;
    until the deadline, and `until` is set too when given."""
    while time.monotonic() < deadline or (until is not None and not until.is_set()):
        if player.board is None:
            await player.start(deadline)
        else:
            await player.move()
        await asyncio.sleep(think)


async def run_phase(phase: str, abuser: Abuser, players: list[Player], think: float,
                    seconds: float) -> tuple[Results, Counter[str], Counter[str]]:
    """The bystanders' play for `seconds`, with the abuser's spam beside it (the replay phase: for
    as long as the crowd's replays take, at least `seconds`)."""
    await abuser.setup(phase)
    results = Results()
    for player in players:
        player.results = results
    deadline = time.monotonic() + seconds
    lanes = [] if phase == "none" else [abuser.spam(phase, lane, deadline)
                                       for lane in range(REPLAYERS if phase == "replay" else IN_FLIGHT)]
    crowd_done = asyncio.Event() if phase == "replay" else None

    async def spam() -> None:
        await asyncio.gather(*lanes)
        if crowd_done is not None:
            crowd_done.set()

    await asyncio.gather(*(bystander(player, think, deadline, crowd_done) for player in players), spam())
    return results, Counter(abuser.got), Counter(abuser.said)


@dataclass(slots=True)
class Memory:
    """The resident memory of the bot with its children, sampled while a phase runs."""

    pid: int
    before: int = 0
    peak: int = 0
    after: int = 0
    bot_before: int = 0  # the bot's own process alone
    bot_after: int = 0
    samples: int = 0

    async def sample(self, every: float, stop: asyncio.Event) -> None:
        """Keep the peak until `stop` is set."""
        while not stop.is_set():
            self.peak = max(self.peak, family_rss(self.pid))
            self.samples += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)


def family_rss(pid: int) -> int:
    """The resident bytes of a process and every process under it (0 for one gone)."""
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    parents[int(entry.name)] = int(stat.read().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    family, grown = set(), {pid}
    while grown:
        family |= grown
        grown = {child for child, parent in parents.items() if parent in family} - family
    return sum(resident_bytes(member) for member in family)


async def run(players: int, think: float, seconds: float, phases: list[str], render_processes: int) -> None:
    """Start the fake and the bot; run each phase; print the table."""
    folder = Path(tempfile.mkdtemp(prefix="pe-abuse-"))
    fake = BenchFake()
    guilds = [fake.add_guild(f"guild{i}") for i in range(IN_FLIGHT)]  # before the bot connects
    await fake.start()
    rows = []
    memory = None
    try:
        async with BotRunner(fake, folder) as bots:
            database = f"sqlite:///{folder / 'pe.sqlite3'}"
            bot = await bots.start_bot("bot", env={"DATABASE_URL": database, "HEALTH_FILE": str(folder / "alive"),
                                                   "LOG_LEVEL": "WARNING", "RENDER_PROCESSES": str(render_processes)})
            team = [Player(fake, fake.add_user(f"player{i}"), i, Results()) for i in range(players)]
            abuser = Abuser(fake, fake.add_user("abuser"), [guild.channel_id for guild in guilds], Counter(), Counter())
            for phase in phases:
                if phase != "replay":
                    rows.append((phase, *await run_phase(phase, abuser, team, think, seconds)))
                else:
                    memory = Memory(bot.pid or 0)
                    rows.append((phase, *await replay_phase(abuser, team, think, seconds, database, memory)))
                print(f"{phase}: done", flush=True)
    finally:
        await fake.stop()
    mode = f"RENDER_PROCESSES={render_processes}" if render_processes else "threads (RENDER_PROCESSES unset)"
    print(f"{mode}: {players} bystanders, a move {think:g} s after each answer; {seconds:g} s a phase; the abuser "
          f"keeps {IN_FLIGHT} commands in flight, the replay phase's crowd {REPLAYERS} (times in ms)")
    print(f"{'phase':>8} {'answers':>8} {'p50':>6} {'p95':>6} {'max':>6} {'unanswered':>11}   "
          f"{'abuser: answered':>16} {'refused':>8} {'unanswered':>11}")
    for phase, results, got, said in rows:
        answers = results.answers
        unanswered = sum(count for what, count in results.errors.items() if "no answer" in what or "failed" in what
                         or "killed" in what)
        print(f"{phase:>8} {len(answers):>8} {_ms(answers, 0.5):>6} {_ms(answers, 0.95):>6} {_ms(answers, 1.0):>6} "
              f"{unanswered:>11}   {got['answered']:>16} {got['refused']:>8} {got['unanswered']:>11}")
        if said:
            print("         the abuser was told:",
                  "; ".join(f"{count} × {text!r}" for text, count in said.most_common(2)))
        if results.errors:
            print("         bystanders' errors:", ", ".join(f"{count} × {what!r}"
                                                         for what, count in results.errors.most_common(3)))
        if phase == "replay" and memory is not None:
            print(f"         bot and children resident: before {memory.before / 2**20:.0f} MB (the bot alone "
                  f"{memory.bot_before / 2**20:.0f}), peak {memory.peak / 2**20:.0f} MB, {IDLE_AFTER:g} s after "
                  f"{memory.after / 2**20:.0f} MB (the bot alone {memory.bot_after / 2**20:.0f}); the replays "
                  f"sent: {len(abuser.uploads)}, largest {max(abuser.uploads, default=0) / 2**20:.1f} MiB")


async def replay_phase(abuser: Abuser, players: list[Player], think: float, seconds: float, database: str,
                       memory: Memory) -> tuple[Results, Counter[str], Counter[str]]:
    """The replay phase: the crowd's finished games stored, then the phase, the memory sampled."""
    if not abuser.crowd:
        abuser.crowd = [abuser.fake.add_user(f"replayer{i}") for i in range(REPLAYERS)]
        games = longest_games()
        for member in abuser.crowd:
            abuser.replays[member.id] = await store_finished_games(
                database, [(member.id, member.username, game) for game in games.values()],
                status="won")  # resigned or won: a finished game either way
    memory.before, memory.bot_before = family_rss(memory.pid), resident_bytes(memory.pid)
    stop = asyncio.Event()
    sampler = asyncio.ensure_future(memory.sample(0.25, stop))
    try:
        outcome = await run_phase("replay", abuser, players, think, seconds)
    finally:
        stop.set()
        await sampler
    await asyncio.sleep(IDLE_AFTER)
    memory.after, memory.bot_after = family_rss(memory.pid), resident_bytes(memory.pid)
    return outcome


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--think", type=float, default=THINK, help="a bystander's seconds between answer and move")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--phases", default=",".join(PHASES), help=f"some of {', '.join(PHASES)}")
    parser.add_argument("--render-processes", default="0",
                        help="RENDER_PROCESSES for the bot, or several separated by commas to run each (0: threads)")
    args = parser.parse_args()
    phases = [phase for phase in args.phases.split(",") if phase]
    unknown = sorted(set(phases) - set(PHASES))
    if unknown:
        parser.error(f"unknown phases: {', '.join(unknown)}")
    logging.getLogger("fakediscord").setLevel(logging.ERROR)
    for processes in (int(count) for count in args.render_processes.split(",")):
        asyncio.run(run(args.players, args.think, args.seconds, phases, processes))


if __name__ == "__main__":
    main()
