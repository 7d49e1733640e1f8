"""Records worth chasing, on a real database, the games really played: clean wins, the record
game by game in /stats, the share of lost games that could have been won, and Casino Canfield's
bankroll; the boards and /stats agree."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from bot.play import Player
from bot.play.daily import Streaks
from bot.play.errors import UnknownGame
from bot.store import NewGame
from bot.store.base import StoredAnalysis
from bot.store.tables import games
from tests.play.test_daily import FakeClock, at, resign_daily, win_daily
from tests.play.test_leaderboards import World
from tests.samples import won_game

ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
ONE_PASS = "canfield-one-pass"


@pytest.fixture
async def world(database_url):
    """A fresh database with everything on one clock, at noon UTC on a Wednesday."""
    from bot.store import open_store

    clock = FakeClock(at("2024-05-08 12:00"))
    store = await open_store(database_url, clock)
    yield World(store, clock)
    await store.close()


async def win(world: World, player: Player, name: str = "canfield", *, undo: bool = False,
              hint: bool = False) -> int:
    """A game of `name` played out to a win: after taking back a move, or asking a hint, when told."""
    solved = won_game(name)
    await world.store.games.upsert_player(player.id, player.name)
    stored = await world.store.games.create_game(NewGame(
        guild_id=5, channel_id=10, user_id=player.id, name=name, options=solved.options, deal=None,
        cards="".join(str(card) for card in solved.cards), snapshot=None, score=-12))
    moves = [str(move) for move in solved.moves]
    if undo:
        await world.solo.move(stored.id, player, moves[0])
        await world.solo.undo(stored.id, player)
    if hint:
        await world.solo.hint(stored.id, player)
    assert (await world.solo.move(stored.id, player, " ".join(moves))).status == "won"
    return stored.id


async def lose(world: World, player: Player, name: str = "canfield", deal: int = 1, moves: str = "") -> int:
    """A game of `name` started, played a little (`moves`) and resigned."""
    reply = await world.solo.create(player, guild_id=5, channel_id=10, name=name, deal=deal, options={})
    if moves:
        await world.solo.move(reply.game_id, player, moves)
    await world.solo.resign(reply.game_id, player)
    return reply.game_id


async def test_a_clean_win_takes_no_undo_and_no_hint_and_the_board_ranks_them(world: World) -> None:
    await win(world, ALICE)
    await win(world, ALICE)
    await win(world, BOB)
    await win(world, BOB, undo=True)
    await win(world, CAROL, hint=True)
    await lose(world, CAROL)
    stored = {game.id: game for game in await world.store.games.all_games()}
    assert sorted((game.user_id, game.undos, game.hints) for game in stored.values()) == [
        (1, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (3, 0, 0), (3, 0, 1)]
    page = await world.boards.page("clean", "all", 5)
    assert page.columns == ("rank", "player", "clean_wins", "wins", "games")
    assert page.rows == [(1, "alice", 2, 2, 2), (2, "bob", 1, 2, 2)]  # carol has no clean win: not listed
    for player, clean in ((ALICE, 2), (BOB, 1), (CAROL, 0)):
        stats = await world.boards.stats(player.id, 5)
        assert stats.clean_wins == clean == sum(record.clean_wins for record in stats.games_played)
    assert (await world.boards.page("clean", "all", 6)).rows == []
    world.clock.advance(7 * 86_400)
    assert (await world.boards.page("clean", "week", 5)).rows == []


async def test_stats_game_by_game(world: World) -> None:
    world.clock.set("2024-05-07 12:00")
    await resign_daily(world.daily, ALICE)
    world.clock.set("2024-05-08 12:00")
    await win_daily(world.store, world.solo, ALICE, "2024-05-08")
    await win(world, ALICE)
    await lose(world, ALICE, "storehouse")  # storehouse's four 2s start on the foundations
    stats = await world.boards.stats(ALICE.id, 5)
    assert [record.game for record in stats.games_played] == ["canfield", "storehouse"]
    canfield, storehouse = stats.games_played
    assert (canfield.played, canfield.wins, canfield.clean_wins, canfield.best_score) == (3, 2, 2, 352)
    assert canfield.win_rate == pytest.approx(2 / 3)
    assert canfield.average_cards == pytest.approx((1 + 52 + 52) / 3)
    assert canfield.streaks == Streaks(played=2, best_played=2, won=1, best_won=1)
    assert (canfield.bankroll, canfield.winnable_share) == (None, None)
    assert (storehouse.played, storehouse.wins, storehouse.average_cards, storehouse.streaks) == (1, 0, 4, Streaks())
    only = await world.boards.stats(ALICE.id, 5, "storehouse")
    assert only.games_played == (storehouse,) and only.games == stats.games == 4
    elsewhere = await world.boards.stats(ALICE.id, 6)  # no game there; a streak is personal, on any server
    assert [(record.game, record.played, record.streaks.played) for record in elsewhere.games_played] == [
        ("canfield", 0, 2)]
    with pytest.raises(UnknownGame):
        await world.boards.stats(ALICE.id, 5, "klondike")


async def test_the_share_of_lost_games_that_could_have_been_won_comes_from_the_analyses(world: World) -> None:
    lost = [await lose(world, ALICE) for _ in range(4)]
    won = await win(world, ALICE)
    assert (await world.boards.stats(ALICE.id, 5)).games_played[0].winnable_share is None  # none analysed
    for game_id, verdict in zip([*lost, won], ["lost", "lost", "never", "unknown", "won"], strict=True):
        await world.store.games.save_analysis(StoredAnalysis(
            game_id=game_id, verdict=verdict, lost_after=3 if verdict == "lost" else None, losing_move=None,
            better_move=None))
    record = (await world.boards.stats(ALICE.id, 5)).games_played[0]
    # Three lost games answered (the solver gave up on the fourth): two could have been won.
    assert (record.lost_analysed, record.lost_winnable) == (3, 2) and record.winnable_share == pytest.approx(2 / 3)


async def test_casino_canfield_costs_52_pays_5_a_card_and_the_bankroll_carries_over(world: World) -> None:
    await lose(world, ALICE, ONE_PASS)  # the base card is on a foundation: -52 + 5
    await win(world, ALICE, ONE_PASS)  # every card: -52 + 260
    await lose(world, BOB, ONE_PASS)
    await lose(world, BOB, ONE_PASS)
    await win(world, CAROL)  # not a casino game
    page = await world.boards.page("casino", "all", 5)
    assert page.columns == ("rank", "player", "bankroll", "games")
    assert page.rows == [(1, "alice", 5 - 52 + 260 - 52, 2), (2, "bob", 2 * (5 - 52), 2)]
    for player, row in zip((ALICE, BOB), page.rows, strict=True):
        one_pass = (await world.boards.stats(player.id, 5, ONE_PASS)).games_played[0]
        assert one_pass.bankroll == row[2]
    assert (await world.boards.stats(CAROL.id, 5)).games_played[0].bankroll is None
    world.clock.advance(86_400)
    await lose(world, BOB, ONE_PASS)
    assert (await world.boards.page("casino", "today", 5)).rows == [(1, "bob", 5 - 52, 1)]
    assert (await world.boards.page("casino", "all", 5)).rows[1] == (2, "bob", 3 * (5 - 52), 3)
    # A game stored before the cards on the foundations were kept counts as played, not in the bankroll.
    old = await lose(world, BOB, ONE_PASS)
    await world.store.stats.db.execute(update(games).where(games.c.id == old).values(foundation_cards=None))
    one_pass = (await world.boards.stats(BOB.id, 5, ONE_PASS)).games_played[0]
    assert (one_pass.played, one_pass.bankroll) == (4, 3 * (5 - 52))
    assert (await world.boards.page("casino", "all", 5)).rows[1] == (2, "bob", 3 * (5 - 52), 3)
