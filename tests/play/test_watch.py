"""Watching and sharing on a real database (SQLite, then PostgreSQL): who may see whose board, a
daily's result shared once, hints counted."""

from __future__ import annotations

import pytest

from bot.play import NoGameHere, NotYourGame, Player, SoloPlay
from bot.play.daily import DailyPlay
from bot.play.errors import AlreadyShared, DailyNotOver, DealIsLive, ElsewhereGame, NothingToWatch
from bot.play.events import Watching
from bot.play.secrecy import LiveDaily, LiveRound, Sight
from bot.play.watch import WatchPlay
from bot.store import open_store
from tests.play.test_matches import Clock
from tests.play.test_matches import world as world

ALICE, BOB, CAROL = Player(1, "Alice"), Player(2, "Bob"), Player(3, "Carol")
HERE = {"guild_id": 5, "channel_id": 10}


@pytest.fixture
async def places(database_url):
    """Solo games, dailies and watching on a fresh database."""
    clock = Clock()
    store = await open_store(database_url, clock)
    solo = SoloPlay(store, clock=clock)
    yield solo, DailyPlay(store, solo, clock), WatchPlay(store, solo, clock)
    await store.close()


async def test_a_members_game_here_is_shown_as_it_stands_to_anyone(places) -> None:
    solo, _, watching = places
    with pytest.raises(NothingToWatch) as nothing:
        await watching.watch(BOB, ALICE.id, 10)
    assert nothing.value.member_id == ALICE.id
    game = await solo.start(ALICE, name="canfield", deal=1, **HERE)
    with pytest.raises(NothingToWatch):
        await watching.watch(BOB, ALICE.id, 11)  # a game is watched in its own channel only
    await solo.move(game.game_id, ALICE, "d")
    seen = await watching.watch(BOB, ALICE.id, 10)
    assert seen.events == (Watching("Alice"),) and seen.user_id == ALICE.id and len(seen.game.moves) == 1
    await solo.resign(game.game_id, ALICE)
    with pytest.raises(NothingToWatch):
        await watching.watch(BOB, ALICE.id, 10)  # no game in play any more ...
    ended = await watching.refresh(CAROL, game.game_id, 10)  # ... but its board still refreshes, ended
    assert ended.finished and ended.game.moves == seen.game.moves
    for elsewhere in (11, None):  # in its own channel only: not another server's, not a DM
        with pytest.raises(ElsewhereGame) as refused:
            await watching.refresh(CAROL, game.game_id, elsewhere)
        assert refused.value.game_id == game.game_id


async def test_a_daily_stays_hidden_until_the_watcher_has_finished_theirs_and_is_shared_once(places) -> None:
    solo, daily, watching = places
    alices = await daily.start(ALICE, **HERE)
    assert (await watching.watch(ALICE, ALICE.id, 10)).game_id == alices.game_id  # oneself: fine
    for before in ("none", "playing"):
        if before == "playing":
            bobs = await daily.start(BOB, **HERE)
        with pytest.raises(DealIsLive) as hidden:
            await watching.watch(BOB, ALICE.id, 10)
        assert hidden.value.sight is Sight.CARDS and isinstance(hidden.value.live, LiveDaily)
        assert hidden.value.live.game == "canfield"
    await solo.resign(bobs.game_id, BOB)
    seen = await watching.watch(BOB, ALICE.id, 10)
    assert seen.game_id == alices.game_id
    live = seen.events[0].live  # others may still be dealt it today: shown to Bob alone
    assert seen.events == (Watching("Alice", live),) and seen.events[0].private and live.game == "canfield"
    assert (await watching.watch(ALICE, ALICE.id, 10)).events == (Watching("Alice", live),)

    with pytest.raises(DailyNotOver):
        await daily.share(alices.game_id, ALICE)
    await solo.move(alices.game_id, ALICE, "h")  # a hint asked for by text counts too
    await solo.hint(alices.game_id, ALICE)  # the same board: the same hint, not counted again
    await solo.resign(alices.game_id, ALICE)
    with pytest.raises(NotYourGame):
        await daily.share(alices.game_id, BOB)
    with pytest.raises(NoGameHere):
        await daily.share((await solo.start(CAROL, name="canfield", deal=1, **HERE)).game_id, CAROL)
    card = await daily.share(alices.game_id, ALICE)
    assert (card.player_id, card.game, card.status, card.score, card.moves, card.hints) == (
        ALICE.id, "canfield", "resigned", -12, 0, 1)
    assert sorted(card.foundations) == [0, 0, 0, 1] and card.foundation_size == 13
    with pytest.raises(AlreadyShared):
        await daily.share(alices.game_id, ALICE)
    bob_card = await daily.share(bobs.game_id, BOB)
    assert bob_card.hints == 0 and bob_card.day == card.day
    daily.clock.now += 24 * 3600  # the day is over: nobody can be dealt it any more
    assert (await watching.refresh(BOB, alices.game_id, 10)).events == (Watching("Alice"),)


async def test_a_round_of_an_open_match_stays_hidden_until_the_watcher_finished_theirs(world) -> None:
    store, solo, matches, _, _ = world
    watching = WatchPlay(store, solo)
    match_id = (await matches.open(ALICE, guild_id=5, channel_id=10, target=5000)).match.id
    await matches.join(match_id, BOB)
    await matches.start(match_id, ALICE)
    alices = await matches.my_board(match_id, ALICE)
    assert alices.round == 1
    for watcher in (BOB, CAROL):  # in play, and not in the match at all (Carol could still join)
        with pytest.raises(DealIsLive) as hidden:
            await watching.watch(watcher, ALICE.id, 10)
        assert hidden.value.live == LiveRound(match_id, 1) and hidden.value.sight is Sight.CARDS
    bobs = await matches.my_board(match_id, BOB)
    await solo.resign(bobs.game_id, BOB)
    seen = await watching.watch(BOB, ALICE.id, 10)
    assert seen.game_id == alices.game_id and seen.events[0].private  # shown to Bob alone
    await matches.cancel(match_id, ALICE)  # a match that is over hides nothing any more
    seen = await watching.refresh(CAROL, alices.game_id, 10)
    assert seen.game_id == alices.game_id and not seen.events[0].private
