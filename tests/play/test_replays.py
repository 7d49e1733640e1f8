"""Who may look back at which finished game (the rule /analyse, /solution and /replay share), and
replays chosen by game, by player or by default; on a real database, with a clock the tests move."""

from __future__ import annotations

import pytest

from bot.game import from_record
from bot.play import NoGameHere, NotYourGame, Player, SoloPlay
from bot.play.errors import DealIsLive, NoFinishedDaily, NoFinishedGame, RateLimited, StillPlaying
from bot.play.review import ReviewPlay, finished_game_for_review
from bot.play.secrecy import LiveDaily, LiveRound, Secrecy, Sight
from bot.play.solo import StoredGame
from bot.play.work import LIMITS, RateLimiter
from bot.store import NewGame, Store, open_store
from bot.store.base import NewMatch
from tests.play.test_daily import FakeClock, at

ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
DAY = "2026-03-10"


async def a_game(store: Store, player: Player, status: str, *, kind: str = "solo", match_id: int | None = None,
                 moves: tuple[str, ...] = ("d", "d")) -> int:
    """A stored game of deal 1 with `moves` played, ended `status` (or in play)."""
    await store.games.upsert_player(player.id, player.name)
    stored = await store.games.create_game(NewGame(guild_id=5, channel_id=10, user_id=player.id, name="canfield",
                                                   options={}, deal=1, cards=None, snapshot=None, score=-12,
                                                   kind=kind, match_id=match_id, round=1 if match_id else None))
    await store.games.save_game(stored.id, expected_version=0, moves=list(moves), snapshot=None, status=status,
                                score=-12)
    return stored.id


async def a_daily(store: Store, player: Player, status: str, day: str = DAY) -> int:
    """A stored daily attempt of `day` ended `status` (or in play)."""
    game_id = await a_game(store, player, status, kind="daily")
    assert await store.stats.claim_daily(day, "canfield", player.id, 5, game_id) == game_id
    return game_id


@pytest.fixture
async def store(database_url: str):
    store = await open_store(database_url)
    yield store
    await store.close()


async def review(store: Store, game_id: int | None, player: Player, *, replay: bool = False,
                 clock: FakeClock | None = None) -> StoredGame:
    """The game `finished_game_for_review` gives, by the secrecy rule on `clock` (the real time by default)."""
    secrecy = Secrecy(store) if clock is None else Secrecy(store, clock)
    stored, _ = await finished_game_for_review(store, secrecy, game_id, player, replay=replay)
    return stored


async def test_your_own_finished_game_yes_in_play_or_anothers_no(store: Store) -> None:
    mine = await a_game(store, ALICE, "resigned")
    playing = await a_game(store, ALICE, "playing")
    bobs = await a_game(store, BOB, "won")
    assert (await review(store, mine, ALICE)).id == mine
    assert (await review(store, None, ALICE)).id == mine  # the one that ended last
    with pytest.raises(NoFinishedGame):
        await review(store, None, CAROL)
    with pytest.raises(StillPlaying):
        await review(store, playing, ALICE, replay=True)
    for replay in (False, True):
        with pytest.raises(NotYourGame):
            await review(store, bobs, ALICE, replay=replay)
    with pytest.raises(NoGameHere):
        await review(store, 9999, ALICE)


async def test_a_match_round_once_the_match_is_over(store: Store) -> None:
    match = await store.matches.create_match(NewMatch(guild_id=5, channel_id=10, host_id=ALICE.id, game="canfield",
                                                      options={}, target=100, teams=False, undo=False, seed=7), 0.0)
    assert await store.matches.change_match_status(match.id, "lobby", "running", 1.0)
    round_id = await a_game(store, ALICE, "blocked", kind="match", match_id=match.id)
    with pytest.raises(DealIsLive) as live:  # what the solver finds waits for the match's end
        await review(store, round_id, ALICE)
    assert live.value.live == LiveRound(match.id, 1) and live.value.sight is Sight.SOLVER
    secrecy = Secrecy(store)  # her own replay: to her alone, while the match is open
    assert (await finished_game_for_review(store, secrecy, round_id, ALICE, replay=True))[1] == LiveRound(match.id, 1)
    assert await store.matches.change_match_status(match.id, "running", "finished", 2.0)
    assert (await finished_game_for_review(store, secrecy, round_id, ALICE, replay=True))[1] is None
    assert (await review(store, round_id, ALICE, replay=True)).id == round_id
    with pytest.raises(NotYourGame):  # someone else's round stays theirs
        await review(store, round_id, BOB, replay=True)


async def test_a_daily_is_replayed_by_whoever_finished_theirs_and_analysed_once_the_day_is_over(store: Store) -> None:
    clock = FakeClock(at(f"{DAY} 12:00"))
    alices = await a_daily(store, ALICE, "won")
    bobs = await a_daily(store, BOB, "playing")
    # Alice replays her own at once; the solver's look at it waits until the day's attempts are over.
    assert (await review(store, alices, ALICE, replay=True, clock=clock)).id == alices
    with pytest.raises(DealIsLive) as not_over:
        await review(store, alices, ALICE, clock=clock)
    assert not_over.value.live == LiveDaily("canfield", DAY, at("2026-03-11 01:00"))
    assert not_over.value.sight is Sight.SOLVER and not not_over.value.copy
    # Bob, still playing his, and Carol, who has none, cannot watch hers yet.
    for viewer in (BOB, CAROL):
        with pytest.raises(DealIsLive) as first:
            await review(store, alices, viewer, replay=True, clock=clock)
        assert first.value.sight is Sight.CARDS and first.value.live.game == "canfield"
    with pytest.raises(NotYourGame):  # and never analyse it
        await review(store, alices, BOB, clock=clock)
    await store.games.save_game(bobs, expected_version=1, moves=["d", "d"], snapshot=None, status="blocked",
                                score=-12)
    assert (await review(store, alices, BOB, replay=True, clock=clock)).id == alices
    carols_yesterday = await a_daily(store, CAROL, "won", "2026-03-09")  # a day that is over: anyone may
    assert (await review(store, carols_yesterday, BOB, replay=True, clock=clock)).id == (
        carols_yesterday)
    clock.set("2026-03-11 00:30")  # the day is over, but its attempts may still be finished until 01:00
    with pytest.raises(DealIsLive):
        await review(store, alices, CAROL, replay=True, clock=clock)
    with pytest.raises(DealIsLive):
        await review(store, alices, ALICE, clock=clock)
    clock.set("2026-03-11 01:00")  # now it is over: anyone may replay it, and Alice analyse hers
    assert (await review(store, alices, CAROL, replay=True, clock=clock)).id == alices
    assert (await review(store, alices, ALICE, clock=clock)).id == alices


async def test_replays_by_default_by_player_and_refused_without_counting(store: Store) -> None:
    clock = FakeClock(at(f"{DAY} 12:00"))
    reviews = ReviewPlay(store, SoloPlay(store), limits=RateLimiter(), clock=clock)
    with pytest.raises(NoFinishedGame):
        await reviews.replay(ALICE)
    older = await a_game(store, ALICE, "resigned", moves=("d",))
    newer = await a_game(store, ALICE, "blocked", moves=("d", "d", "d"))
    await a_game(store, ALICE, "playing")
    replay = await reviews.replay(ALICE)
    assert (replay.game_id, replay.player, replay.status, replay.moves) == (newer, ALICE, "blocked", 3)
    assert [str(m) for m in from_record(replay.record).moves] == ["d", "d", "d"]
    assert (await reviews.replay(ALICE, game_id=older)).moves == 1
    with pytest.raises(NoFinishedDaily) as no_daily:
        await reviews.replay(ALICE, player_id=BOB.id)
    assert no_daily.value.player_id == BOB.id
    bobs = await a_daily(store, BOB, "won")
    with pytest.raises(DealIsLive):
        await reviews.replay(ALICE, player_id=BOB.id)
    await a_daily(store, ALICE, "resigned")
    replay = await reviews.replay(ALICE, player_id=BOB.id)
    assert replay.game_id == bobs and replay.player == BOB
    # Refusals cost nothing; each replay made counts against the member's limit.
    limit = LIMITS["replay"].count
    for _ in range(limit - 3):
        await reviews.replay(ALICE)
    for _ in range(3):
        with pytest.raises(NotYourGame):
            await reviews.replay(CAROL, game_id=newer)
    with pytest.raises(RateLimited) as limited:
        await reviews.replay(ALICE)
    assert limited.value.action == "replay"
    with pytest.raises(DealIsLive):  # Carol has not played hers
        await reviews.replay(CAROL, player_id=BOB.id)
