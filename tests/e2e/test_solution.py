"""/solution through the fake Discord: the line of a finished game in pages, to the asker alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, button, play, start


async def test_solution_shows_a_finished_games_line_in_pages_to_its_player_alone(fake: FakeDiscord, bots: BotRunner,
                                                                               tmp_path: Path) -> None:
    await start(bots, tmp_path)
    early = await (await fake.slash_command("alice", "solution", {})).wait_response()
    assert early.ephemeral and "no finished game" in said(early)
    board = await play(fake, deal=1)  # PySolFC's deal 1: a short line of some 70 moves besides draws
    playing = await (await fake.slash_command("alice", "solution", {})).wait_response()
    assert "no finished game" in said(playing)
    await (await fake.click("alice", board, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    first = await (await fake.slash_command("alice", "solution", {})).wait_response(timeout=SOLVER_WAIT)
    text = said(first)
    assert first.ephemeral and "Game 1 (Canfield): a winning line from the deal's start" in text
    assert "  1. " in text and " 20. " in text and " 21. " not in text and "Page 1 of " in text
    assert button(first, "◀ Prev").disabled and not button(first, "Next ▶").disabled
    second = await (await fake.click("alice", first, label="Next ▶")).wait_response(timeout=SOLVER_WAIT)
    assert " 21. " in said(second) and "Page 2 of " in said(second) and not button(second, "◀ Prev").disabled
    with pytest.raises(PermissionError):  # the line is Alice's alone: Bob cannot see it, nor turn its pages
        await fake.click("bob", second, label="◀ Prev")
    other = await (await fake.slash_command("bob", "solution", {"game": "1"})).wait_response()
    assert other.ephemeral and "not your game" in said(other)
