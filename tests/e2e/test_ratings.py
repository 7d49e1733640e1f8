"""Ratings through the fake Discord: a two-player match ends, and the rating board and /stats show it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.samples import won_game

from .fakediscord import FakeDiscord
from .harness import BotRunner, said
from .test_bot import start
from .test_matches import give_round_a_known_winning_deck

WON = won_game("canfield")


async def test_a_won_match_puts_its_winner_above_its_loser_on_the_rating_board(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    carol = fake.add_user("carol", permissions=0)
    await (await fake.slash_command("alice", "match open", {"target": 100})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: said(m).startswith("**Canfield match #1**"))
    await (await fake.click(carol, lobby, label="Join")).wait_response()
    await (await fake.click("alice", lobby, label="Start")).wait_response()  # both dealt round 1
    unrated = await (await fake.slash_command("alice", "stats", {})).wait_response()
    assert "Rating        no rated game yet" in said(unrated)

    await bot.kill()  # Alice's round 1 becomes a deal with a known winning line; the bot comes back
    give_round_a_known_winning_deck(tmp_path / "pe.sqlite3", fake.alice.id)
    await bot.restart()
    line = " ".join(str(move) for move in WON.moves)
    won = await (await fake.slash_command("alice", "move", {"moves": line})).wait_response()
    assert "You win the match." in said(won)

    board = await (await fake.slash_command(carol, "leaderboard", {"board": "rating"})).wait_response()
    rows = said(board).splitlines()
    assert "Ratings · all time · this server" in rows[1] and "Rating" in rows[2] and "Provisional" in rows[2]
    alice = next(number for number, row in enumerate(rows) if row.startswith("1  Alice "))
    carol_row = next(number for number, row in enumerate(rows) if row.startswith("2  Carol "))
    rating = {number: int(rows[number].split()[2].replace(",", "")) for number in (alice, carol_row)}
    assert alice < carol_row and rating[alice] > 1000 > rating[carol_row]
    stats = await (await fake.slash_command(carol, "stats", {"member": str(fake.alice.id)})).wait_response()
    assert "in the last game), provisional: 1 of 5 rated games" in said(stats)

    await bot.kill()  # the ratings forgotten, as in a database from before them: the bot rates it as it starts
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        db.execute("DELETE FROM rating_changes")
        db.execute("DELETE FROM rated_events")
    await bot.restart()
    again = await (await fake.slash_command(carol, "leaderboard", {"board": "rating"})).wait_response()
    assert said(again).splitlines()[3:6] == rows[3:6]
