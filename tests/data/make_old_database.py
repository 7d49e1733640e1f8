"""Fill an empty database with rows in every table its schema has, through the store and play
layers of the release this runs in: how tests/data/old-000N.sqlite3 and old-000N-postgres.sql were
made, each with the code of the release that last shipped migration N (see tests/data/README.md).
tests/store/test_upgrade.py checks every row below.

It is written for the store of those releases (one object answering every query, before the
store moved to SQLAlchemy) and fills what each one has: migration 0001 had games, players and
server settings; 0002 added teams, matches and dailies; 0003 races (its first edition without a
race's target); 0006 closed the rounds of an ended match. It does not run on today's store; the
tests take only its names and numbers.

Run from the root of the old release's checkout: python -m tests.data.make_old_database DATABASE_URL
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import sys
import time
from typing import Any

from bot.play import Player, SoloPlay

GUILD, CHANNEL = 500, 600
ALICE, BOB, CAROL = Player(101, "alice"), Player(102, "bob"), Player(103, "carol")
CLOCK = 1_700_000_000.0  # 2023-11-14: every row is stamped with this fixed time


async def open_old_store(url: str) -> Any:
    """The release's store on `url`, on the fixed clock (0001's store read time.time itself)."""
    from bot.store import open_store

    if "clock" in inspect.signature(open_store).parameters:
        return await open_store(url, clock=lambda: CLOCK)
    time.time = lambda: CLOCK
    return await open_store(url)


async def fill(url: str) -> None:
    """Rows in every table the release has: games of each kind and status, players, settings, teams
    with members, a finished match with rounds, a lobby, dailies, a finished race and a running one."""
    store = await open_old_store(url)
    solo = SoloPlay(store)
    # A solo game in play with moves (the upgrade test plays on in it) and one resigned.
    playing = await solo.start(ALICE, guild_id=GUILD, channel_id=CHANNEL, deal=12345)
    for _ in range(3):
        await solo.move(playing.game_id, ALICE, "d")
    resigned = await solo.start(BOB, guild_id=GUILD, channel_id=CHANNEL, name="storehouse", deal=7)
    await solo.resign(resigned.game_id, BOB)
    await store.set_setting(GUILD, "locale", "en")
    await store.set_setting(GUILD, "target", "250")
    if hasattr(store, "create_match"):
        await fill_matches(store)
    if hasattr(store, "create_race"):
        await fill_races(store)
    await store.close()


async def fill_matches(store: Any) -> None:
    """Teams, a finished team match with its rounds, a lobby, and dailies (migration 0002 on)."""
    from bot.store.base import NewGame, NewMatch

    # Teams: red (alice, bob) and blue (carol).
    red = await store.create_team(GUILD, "Red", ALICE.id)
    await store.join_team(GUILD, "red", BOB.id)
    blue = await store.create_team(GUILD, "Blue", CAROL.id)
    # A team match, finished, with a scored round each and a round still in play at its end
    # (closed with it from migration 0006 on).
    match = await store.create_match(NewMatch(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE.id, game="canfield", options={"draw": 3}, target=200,
        teams=True, undo=False, seed=4242), CLOCK)
    await store.set_match_message(match.id, 9001)
    for player, team in ((ALICE, red), (BOB, red), (CAROL, blue)):
        await store.add_match_player(match.id, player.id, team.id, CLOCK)
    await store.change_match_status(match.id, "lobby", "running", CLOCK)
    for number, (player, score) in enumerate(((ALICE, 120), (BOB, 90), (CAROL, 60)), start=1):
        game = await store.create_game(NewGame(
            guild_id=GUILD, channel_id=CHANNEL, user_id=player.id, name="canfield", options={"draw": 3},
            deal=1000 + number, cards=None, snapshot=None, score=0, kind="match", match_id=match.id, round=1,
            undo_allowed=False))
        await store.save_game(game.id, expected_version=0, moves=["d"], snapshot=None, status="blocked", score=score)
    await store.create_game(NewGame(
        guild_id=GUILD, channel_id=CHANNEL, user_id=CAROL.id, name="canfield", options={"draw": 3}, deal=1004,
        cards=None, snapshot=None, score=-10, kind="match", match_id=match.id, round=2, undo_allowed=False))
    await store.change_match_status(match.id, "running", "finished", CLOCK, winner_team_id=red.id)
    if hasattr(store, "close_match_rounds"):
        await store.close_match_rounds(match.id, CLOCK)
    await store.leave_match(match.id, CAROL.id, CLOCK)
    await store.create_match(NewMatch(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=CAROL.id, game="storehouse", options={}, target=100,
        teams=False, undo=True, seed=7), CLOCK)
    # Dailies: alice won hers, bob's is still in play.
    for player, status in ((ALICE, "won"), (BOB, "playing")):
        daily = await store.create_game(NewGame(
            guild_id=GUILD, channel_id=CHANNEL, user_id=player.id, name="canfield", options={}, deal=555,
            cards=None, snapshot=None, score=0, kind="daily", undo_allowed=False))
        await store.claim_daily("2023-11-14", "canfield", player.id, GUILD, daily.id)
        if status == "won":
            await store.save_game(daily.id, expected_version=0, moves=["d"], snapshot=None, status="won", score=352)


async def fill_races(store: Any) -> None:
    """A race finished with its scores, and one running with moves (migration 0003 on)."""
    from bot.store.base import NewRace

    race = await store.create_race(NewRace(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE.id, layout="klondike",
                                           deal=31337))
    await store.join_race(race.id, BOB.id)
    await store.start_race(race.id)
    version = await store.save_race_moves(race.id, expected_version=(await store.get_race(race.id)).version,
                                          moves=["0:d", "1:d"])
    await store.set_race_message(race.id, 9002)
    finish: dict[str, Any] = {"demon_user_id": ALICE.id, "scores": [62, 3]}
    if "version" in inspect.signature(store.finish_race).parameters:
        finish["version"] = version
    await store.finish_race(race.id, **finish)
    # A series of hands to 100 points where the release has them (0003's first edition had not).
    series = {"target": 100} if "target" in {field.name for field in dataclasses.fields(NewRace)} else {}
    running = await store.create_race(NewRace(guild_id=GUILD, channel_id=CHANNEL + 2, host_id=CAROL.id,
                                              layout="demon", deal=99, **series))
    await store.join_race(running.id, BOB.id)
    await store.start_race(running.id)
    await store.save_race_moves(running.id, expected_version=(await store.get_race(running.id)).version,
                                moves=["0:d"])


if __name__ == "__main__":
    asyncio.run(fill(sys.argv[1]))
