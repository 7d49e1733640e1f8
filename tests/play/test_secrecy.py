"""The one secrecy rule (bot/play/secrecy.py) on a real database (SQLite, then PostgreSQL), with a
clock the tests move: a live deal (today's daily, a round of an open match, a copy of either)
is never dealt again, solved, analysed, hinted in a copy, or shown to whoever may not see it."""

from __future__ import annotations

import hashlib

import pytest

from bot.game import new_game
from bot.play import Player, SoloPlay
from bot.play.daily import DailyPlay
from bot.play.errors import DealIsLive
from bot.play.events import Analysing, Ended, Verdict, Watching
from bot.play.matches import MatchPlay
from bot.play.replies import GameStatus
from bot.play.review import ReviewPlay
from bot.play.secrecy import LiveDaily, LiveRound, Secrecy, Sight, deck_size
from bot.play.solution import SolutionPlay
from bot.play.watch import WatchPlay
from bot.store import NewGame, open_store
from tests.play.test_daily import FakeClock, at

ALICE, BOB, CAROL = Player(1, "Alice"), Player(2, "Bob"), Player(3, "Carol")
HERE = {"guild_id": 5, "channel_id": 10}
DM = {"guild_id": None, "channel_id": 99}
DAY = "2024-05-08"


class World:
    """Every play object the routes use, on one store and one clock."""

    def __init__(self, store, clock: FakeClock) -> None:
        self.store, self.clock = store, clock
        self.solo = SoloPlay(store, clock=clock)
        self.daily = DailyPlay(store, self.solo, clock)
        self.matches = MatchPlay(store, self.solo, clock)
        self.review = ReviewPlay(store, self.solo, clock=clock)
        self.solutions = SolutionPlay(store, self.solo, clock=clock)
        self.watching = WatchPlay(store, self.solo, clock)
        self.secrecy = Secrecy(store, clock)


@pytest.fixture
async def world(database_url):
    clock = FakeClock(at(f"{DAY} 12:00"))
    store = await open_store(database_url, clock)
    yield World(store, clock)
    await store.close()


async def test_todays_daily_cannot_be_worked_out_nor_dealt_again_as_a_solo_game(world: World) -> None:
    alices = await world.daily.start(ALICE, **HERE)
    number = alices.game.deal
    # The rule the README used to publish no longer gives it: it is derived with the deployment's secret.
    published = int(hashlib.sha256(f"daily:{DAY}:canfield".encode()).hexdigest(), 16) % 999_999_999 + 1
    assert number != published
    # However the number was learnt (from the cards, by brute force), a solo game of it is refused, in
    # any game dealt the same deck (here, anywhere, in a DM), and the refusal costs nothing.
    for name, where in (("canfield", HERE), ("canfield-draw1", DM), ("storehouse", HERE)):
        with pytest.raises(DealIsLive) as refused:
            await world.solo.start(BOB, name=name, deal=number, **where)
        assert refused.value.sight is Sight.COPY and refused.value.copy
        assert refused.value.live == LiveDaily("canfield", DAY, at("2024-05-09 01:00"))
    assert await world.store.games.count_games() == 1
    # A game of another deck size deals other cards from the same number: it is no copy.
    assert deck_size("demons-and-thieves") == 104 and deck_size("canfield") == 52
    other = await world.solo.start(BOB, name="demons-and-thieves", deal=number, **HERE)
    assert other.started
    # Once the day is over and its attempts have ended, the deal may be played on its own.
    await world.solo.resign(alices.game_id, ALICE)
    world.clock.set("2024-05-09 00:59")
    with pytest.raises(DealIsLive):
        await world.solo.start(CAROL, name="canfield", deal=number, **HERE)
    world.clock.set("2024-05-09 01:00")
    assert (await world.solo.start(CAROL, name="canfield", deal=number, **HERE)).started


async def test_a_round_of_an_open_match_cannot_be_dealt_again_nor_solved(world: World) -> None:
    match_id = (await world.matches.open(ALICE, **HERE, target=5000)).match.id
    await world.matches.join(match_id, BOB)
    await world.matches.start(match_id, ALICE)
    alices = await world.matches.my_board(match_id, ALICE)
    number = alices.game.deal
    assert alices.label.match_id == match_id and alices.label.round == 1 and alices.label.number is None
    for player in (BOB, CAROL):  # a player of the match copying their round into a DM, or anyone else
        with pytest.raises(DealIsLive) as refused:
            await world.solo.start(player, name="canfield", deal=number, **DM)
        assert refused.value.live == LiveRound(match_id, 1) and refused.value.sight is Sight.COPY
    await world.solo.resign(alices.game_id, ALICE)
    for ask in (world.solutions.solution, world.review.analyse):  # her own finished round: not while it runs
        with pytest.raises(DealIsLive) as refused:
            await ask(alices.game_id, ALICE)
        assert refused.value.sight is Sight.SOLVER and not refused.value.copy
    await world.matches.cancel(match_id, ALICE)
    assert (await world.solo.start(CAROL, name="canfield", deal=number, **DM)).started
    assert await world.review.analyse(alices.game_id, ALICE)


async def test_a_copy_dealt_before_its_deal_went_live_gets_no_solver_and_stays_private(world: World) -> None:
    number = await world.daily.deal(DAY, "canfield")
    # Carol deals the number before anyone is dealt the daily (nobody can know it, but say she did).
    carols = await world.solo.start(CAROL, name="canfield", deal=number, **HERE)
    await world.solo.move(carols.game_id, CAROL, "d")
    alices = await world.daily.start(ALICE, **HERE)  # now it is today's daily: live
    assert alices.game.deal == number
    with pytest.raises(DealIsLive) as refused:  # a hint is the solver's: none in a copy of a live deal
        await world.solo.hint(carols.game_id, CAROL)
    assert refused.value.sight is Sight.SOLVER and refused.value.copy
    assert (await world.solo.hint(alices.game_id, ALICE)).ok  # the daily itself allows hints, counted
    ended = await world.solo.resign(carols.game_id, CAROL)
    assert not any(isinstance(event, Verdict | Analysing) for event in ended.events)  # no verdict, no analysis
    assert Ended(GameStatus.RESIGNED, ended.game.score) in ended.events
    for ask in (world.solutions.solution, world.review.analyse):
        with pytest.raises(DealIsLive):
            await ask(carols.game_id, CAROL)
    # Her own replay is hers alone; watching it is for those who have finished the daily.
    replay = await world.review.replay(CAROL, game_id=carols.game_id)
    assert replay.live == LiveDaily("canfield", DAY, at("2024-05-09 01:00"))
    stored = await world.store.games.get_game(carols.game_id)
    with pytest.raises(DealIsLive):
        await world.secrecy.may_show(stored, Sight.CARDS, BOB.id)
    with pytest.raises(DealIsLive):
        await world.secrecy.may_show(stored, Sight.CARDS)  # the channel: nobody in particular
    await world.solo.resign(alices.game_id, ALICE)
    assert await world.secrecy.may_show(stored, Sight.CARDS, ALICE.id) == replay.live  # to her alone


async def test_at_midnight_the_day_stays_live_for_whoever_is_still_in_it(world: World) -> None:
    world.clock.set(f"{DAY} 23:50")
    alices = await world.daily.start(ALICE, **HERE)
    bobs = await world.daily.start(BOB, **HERE)
    await world.solo.resign(alices.game_id, ALICE)
    world.clock.set("2024-05-09 00:20")
    # Bob still plays the 8th's: nobody gets Alice's game of it, and Carol, who never played it, neither.
    for viewer in (BOB, CAROL):
        with pytest.raises(DealIsLive) as refused:
            await world.review.replay(viewer, game_id=alices.game_id)
        assert refused.value.sight is Sight.CARDS
    mine = await world.review.replay(ALICE, game_id=alices.game_id)
    assert mine.live is not None  # Alice's own: to her alone, never to the channel
    with pytest.raises(DealIsLive):
        await world.watching.watch(CAROL, BOB.id, 10)
    watched = await world.watching.watch(ALICE, BOB.id, 10)
    assert watched.events == (Watching("Bob", LiveDaily("canfield", DAY, at("2024-05-09 01:00"), day_over=True)),)
    # Bob's /daily shows his attempt of the 8th, not the 9th's, while it is in play in this channel.
    assert (await world.daily.start(BOB, **HERE)).game_id == bobs.game_id
    world.clock.set("2024-05-09 01:00")
    assert await world.daily.end_overdue() == 1
    assert (await world.review.replay(CAROL, game_id=alices.game_id)).live is None
    assert (await world.watching.refresh(CAROL, bobs.game_id, 10)).events == (Watching("Bob"),)
    assert (await world.daily.start(BOB, **HERE)).started  # now the 9th's


async def test_a_deck_dealt_by_its_cards_is_known_by_its_cards(world: World) -> None:
    match_id = (await world.matches.open(ALICE, **HERE, target=5000)).match.id
    cards = "".join(str(card) for card in new_game("canfield", deal=7).cards)
    await world.store.games.upsert_player(ALICE.id, ALICE.name)
    fixed = await world.store.games.create_game(NewGame(
        guild_id=5, channel_id=10, user_id=ALICE.id, name="canfield", options={}, deal=None, cards=cards,
        snapshot=None, score=-12, kind="match", match_id=match_id, round=1))
    copy = await world.store.games.create_game(NewGame(
        guild_id=5, channel_id=10, user_id=BOB.id, name="canfield", options={}, deal=None, cards=cards,
        snapshot=None, score=-12))
    assert await world.secrecy.live(copy) == LiveRound(match_id, 1)
    assert await world.secrecy.live(fixed) == LiveRound(match_id, 1)
