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
            IN_FLIGHT channels at once (last: the abuser's new games are rate limited after it).

Run from the project root:
    .venv/bin/python -m benchmarks.abuse [--players 20] [--think 0.5] [--seconds 15] [--phases move,hint]

Prints, per phase, the bystanders' answers (count, p50/p95/max in ms, unanswered) and what the
abuser got (answered, refused by a limit or cap, unanswered). DESIGN.md's budget: the others'
p95 at most 250 ms, no interaction unanswered.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.load import ANSWER_TIMEOUT, BenchFake, Player, Results, _ms
from tests.e2e.fakediscord import FakeUser, InteractionFailed
from tests.e2e.harness import BotRunner
from tests.game.test_outcome_within import SLOW_DEAL, SLOW_MOVES  # outcome and hint searches give up there

IN_FLIGHT = 6  # the abuser's commands in flight at once
THINK = 0.5  # seconds a bystander takes between an answer and their next move
# Canfield deals whose end-of-game verdict gives up after VERDICT_LIMIT positions (some 1.5 s).
SLOW_VERDICTS = (7, 14, 18, 37, 43, 83, 95, 105, 121, 123, 127, 128)
REFUSALS = ("Slow down", "cap of", "already have a match", "already in a race")
PHASES = ("none", "move", "hint", "cap", "lobby", "verdict")


@dataclass(slots=True)
class Abuser:
    """The member who spams, and what they got."""

    fake: BenchFake
    user: FakeUser
    channels: list[int]
    got: Counter[str]
    said: Counter[str]  # the starts of the answers, to show what the abuser was told

    async def ask(self, name: str, options: dict[str, Any] | None = None, channel: int | None = None) -> str:
        """Send one slash command and wait for its answer: its text ("" for none)."""
        interaction = await self.fake.slash_command(self.user, name, options or {}, channel_id=channel)
        try:
            message = await asyncio.wait_for(self.fake.track(interaction), ANSWER_TIMEOUT)
        except (InteractionFailed, TimeoutError):
            self.got["unanswered"] += 1
            return ""
        finally:
            self.fake.forget(interaction)
        text = message.content if message is not None else ""
        self.said[text[:60]] += 1
        self.got["refused" if any(word in text for word in REFUSALS) else "answered"] += 1
        return text

    async def setup(self, phase: str) -> None:
        """What the phase's spam needs: a game in the slow position."""
        if phase in ("move", "hint", "cap"):
            await self.ask("resign")
            await self.ask("play", {"game": "superior-canfield", "deal": SLOW_DEAL})
            await self.ask("move", {"moves": SLOW_MOVES})
        self.got.clear()
        self.said.clear()

    async def spam(self, phase: str, lane: int, deadline: float) -> None:
        """One lane of the phase's spam, until the deadline."""
        turn = 0
        while time.monotonic() < deadline:
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


async def bystander(player: Player, think: float, deadline: float) -> None:
    """A player at a player's pace: a move (or a new game), an answer, `think` seconds, again."""
    while time.monotonic() < deadline:
        if player.board is None:
            await player.start(deadline)
        else:
            await player.move()
        await asyncio.sleep(think)


async def run_phase(phase: str, abuser: Abuser, players: list[Player], think: float,
                    seconds: float) -> tuple[Results, Counter[str], Counter[str]]:
    """The bystanders' play for `seconds`, with the abuser's spam beside it."""
    await abuser.setup(phase)
    results = Results()
    for player in players:
        player.results = results
    deadline = time.monotonic() + seconds
    lanes = [] if phase == "none" else [abuser.spam(phase, lane, deadline) for lane in range(IN_FLIGHT)]
    await asyncio.gather(*(bystander(player, think, deadline) for player in players), *lanes)
    return results, Counter(abuser.got), Counter(abuser.said)


async def run(players: int, think: float, seconds: float, phases: list[str]) -> None:
    """Start the fake and the bot; run each phase; print the table."""
    folder = Path(tempfile.mkdtemp(prefix="pe-abuse-"))
    fake = BenchFake()
    guilds = [fake.add_guild(f"guild{i}") for i in range(IN_FLIGHT)]  # before the bot connects
    await fake.start()
    rows = []
    try:
        async with BotRunner(fake, folder) as bots:
            await bots.start_bot("bot", env={"DATABASE_URL": f"sqlite:///{folder / 'pe.sqlite3'}",
                                             "HEALTH_FILE": str(folder / "alive"), "LOG_LEVEL": "WARNING"})
            team = [Player(fake, fake.add_user(f"player{i}"), i, Results()) for i in range(players)]
            abuser = Abuser(fake, fake.add_user("abuser"), [guild.channel_id for guild in guilds], Counter(), Counter())
            for phase in phases:
                rows.append((phase, *await run_phase(phase, abuser, team, think, seconds)))
                print(f"{phase}: done", flush=True)
    finally:
        await fake.stop()
    print(f"{players} bystanders, a move {think:g} s after each answer; {seconds:g} s a phase; the abuser keeps "
          f"{IN_FLIGHT} commands in flight (times in ms)")
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


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--think", type=float, default=THINK, help="a bystander's seconds between answer and move")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--phases", default=",".join(PHASES), help=f"some of {', '.join(PHASES)}")
    args = parser.parse_args()
    phases = [phase for phase in args.phases.split(",") if phase]
    unknown = sorted(set(phases) - set(PHASES))
    if unknown:
        parser.error(f"unknown phases: {', '.join(unknown)}")
    logging.getLogger("fakediscord").setLevel(logging.ERROR)
    asyncio.run(run(args.players, args.think, args.seconds, phases))


if __name__ == "__main__":
    main()
