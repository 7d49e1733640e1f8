"""Fill an empty database with rows in every table, through the store and play layers of the code
it runs on: how tests/data/old-0006.sqlite3 and old-0006-postgres.sql were made with the code at
migration 0006 (see tests/data/README.md). tests/store/test_upgrade.py checks every row below.

Run from the project root: .venv/bin/python -m tests.data.make_old_database DATABASE_URL
"""

from __future__ import annotations

import asyncio
import sys

from bot.play import Player, SoloPlay
from bot.store import open_store
from bot.store.base import NewGame, NewMatch, NewRace

GUILD, CHANNEL = 500, 600
ALICE, BOB, CAROL = Player(101, "alice"), Player(102, "bob"), Player(103, "carol")
CLOCK = 1_700_000_000.0  # 2023-11-14: every row is stamped with this fixed time


async def fill(url: str) -> None:
    """Rows in every table: games of each kind and status, players, settings, teams with members,
    a finished match with rounds (one closed), a lobby, dailies, a finished race and a running one."""
    store = await open_store(url, clock=lambda: CLOCK)
    solo = SoloPlay(store)
    # A solo game in play with moves (the upgrade test plays on in it) and one resigned.
    playing = await solo.start(ALICE, guild_id=GUILD, channel_id=CHANNEL, deal=12345)
    for _ in range(3):
        await solo.move(playing.game_id, ALICE, "d")
    resigned = await solo.start(BOB, guild_id=GUILD, channel_id=CHANNEL, name="storehouse", deal=7)
    await solo.resign(resigned.game_id, BOB)
    await store.stats.set_setting(GUILD, "locale", "en")
    await store.stats.set_setting(GUILD, "target", "250")
    # Teams: red (alice, bob) and blue (carol).
    red = await store.matches.create_team(GUILD, "Red", ALICE.id)
    await store.matches.join_team(GUILD, "red", BOB.id)
    blue = await store.matches.create_team(GUILD, "Blue", CAROL.id)
    # A team match, finished, with a scored round each and a round closed by its end.
    match = await store.matches.create_match(NewMatch(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE.id, game="canfield", options={"draw": 3}, target=200,
        teams=True, undo=False, seed=4242), CLOCK)
    await store.matches.set_match_message(match.id, 9001)
    for player, team in ((ALICE, red), (BOB, red), (CAROL, blue)):
        await store.matches.add_match_player(match.id, player.id, team.id, CLOCK)
    await store.matches.change_match_status(match.id, "lobby", "running", CLOCK)
    for number, (player, score) in enumerate(((ALICE, 120), (BOB, 90), (CAROL, 60)), start=1):
        game = await store.games.create_game(NewGame(
            guild_id=GUILD, channel_id=CHANNEL, user_id=player.id, name="canfield", options={"draw": 3},
            deal=1000 + number, cards=None, snapshot=None, score=0, kind="match", match_id=match.id, round=1,
            undo_allowed=False))
        await store.games.save_game(game.id, expected_version=0, moves=["d"], snapshot=None, status="blocked",
                                    score=score)
    await store.games.create_game(NewGame(
        guild_id=GUILD, channel_id=CHANNEL, user_id=CAROL.id, name="canfield", options={"draw": 3}, deal=1004,
        cards=None, snapshot=None, score=-10, kind="match", match_id=match.id, round=2, undo_allowed=False))
    await store.matches.change_match_status(match.id, "running", "finished", CLOCK, winner_team_id=red.id)
    await store.matches.close_match_rounds(match.id, CLOCK)
    await store.matches.leave_match(match.id, CAROL.id, CLOCK)
    await store.matches.create_match(NewMatch(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=CAROL.id, game="storehouse", options={}, target=100,
        teams=False, undo=True, seed=7), CLOCK)
    # Dailies: alice won hers, bob's is still in play.
    for player, status in ((ALICE, "won"), (BOB, "playing")):
        daily = await store.games.create_game(NewGame(
            guild_id=GUILD, channel_id=CHANNEL, user_id=player.id, name="canfield", options={}, deal=555,
            cards=None, snapshot=None, score=0, kind="daily", undo_allowed=False))
        await store.stats.claim_daily("2023-11-14", "canfield", player.id, GUILD, daily.id)
        if status == "won":
            await store.games.save_game(daily.id, expected_version=0, moves=["d"], snapshot=None, status="won",
                                        score=352)
    # A race finished with its scores, and one running with moves.
    race = await store.races.create_race(NewRace(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE.id,
                                                 layout="klondike", deal=31337))
    await store.races.join_race(race.id, BOB.id)
    await store.races.start_race(race.id)
    version = await store.races.save_race_moves(race.id, expected_version=(await store.races.get_race(race.id)).version,
                                         moves=["0:d", "1:d"])
    await store.races.set_race_message(race.id, 9002)
    await store.races.finish_race(race.id, demon_user_id=ALICE.id, scores=[62, 3], version=version)
    running = await store.races.create_race(NewRace(guild_id=GUILD, channel_id=CHANNEL + 2, host_id=CAROL.id,
                                                    layout="demon", deal=99, target=100))
    await store.races.join_race(running.id, BOB.id)
    await store.races.start_race(running.id)
    await store.races.save_race_moves(running.id, expected_version=(await store.races.get_race(running.id)).version,
                                      moves=["0:d"])
    await store.close()


if __name__ == "__main__":
    asyncio.run(fill(sys.argv[1]))
