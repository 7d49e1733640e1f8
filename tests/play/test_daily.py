"""Daily challenges on a real SQLite file, with a clock the tests move: the deal rule, one
attempt each, simultaneous starts, the midnight rollover, no undo, streaks."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.game import new_game
from bot.game.solver import solve
from bot.play import Player, SoloPlay, UndoOff
from bot.play.daily import (
    DAILY_SOLVE_LIMIT,
    MAX_CANDIDATES,
    DailyPlay,
    Streaks,
    candidate_deal,
    check_day,
    daily_deal,
    streak,
    streaks,
)
from bot.play.days import today
from bot.play.errors import DailyElsewhere, DailyPlayed, DealIsLive, NoSuchDaily, NotADay
from bot.play.events import DailyDealt, DailyResumed
from bot.play.secrecy import LiveDaily, Sight
from bot.store import NewGame, Store, open_store
from bot.store.tables import daily_attempts, secrets
from tests.samples import won_game

ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
HERE = {"guild_id": 5, "channel_id": 10}


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on."""
        self.now += seconds

    def set(self, text: str) -> None:
        """Put the clock at a UTC time written 'YYYY-MM-DD HH:MM'."""
        self.now = at(text)


def at(text: str) -> float:
    """The Unix time of a UTC time written 'YYYY-MM-DD HH:MM'."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


async def resign_daily(daily: DailyPlay, player: Player, guild_id: int | None = 5) -> int:
    """Start today's canfield daily and resign it at once (score -12); its game id."""
    reply = await daily.start(player, guild_id=guild_id, channel_id=10)
    await daily.solo.resign(reply.game_id, player)
    return reply.game_id


async def win_daily(store: Store, solo: SoloPlay, player: Player, day: str, guild_id: int | None = 5) -> int:
    """A daily attempt on `day` that is won (score 352) by really playing it: no real deal is
    easy to win, so the game is laid with the cards of tests.samples.won_game and its moves
    replayed. Its game id."""
    solved = won_game("canfield")
    await store.games.upsert_player(player.id, player.name)
    stored = await store.games.create_game(NewGame(
        guild_id=guild_id, channel_id=10, user_id=player.id, name="canfield", options=solved.options, deal=None,
        cards="".join(str(card) for card in solved.cards), snapshot=None, score=-12, kind="daily",
        undo_allowed=False))
    assert await store.stats.claim_daily(day, "canfield", player.id, guild_id, stored.id) == stored.id
    final = await solo.move(stored.id, player, " ".join(str(move) for move in solved.moves))
    assert final.status == "won"
    return stored.id


@pytest.fixture
def clock() -> FakeClock:
    """The tests' clock, at noon UTC."""
    return FakeClock(at("2024-05-08 12:00"))  # a Wednesday


@pytest.fixture
async def daily(database_url, clock: FakeClock):
    """Dailies on a fresh database (SQLite, then PostgreSQL), on the tests' clock."""
    store = await open_store(database_url, clock)  # the store stamps its writes by it too
    yield DailyPlay(store, SoloPlay(store, clock=clock), clock)
    await store.close()


SECRET = "0f" * 32


def test_the_deal_rule_gives_the_documented_numbers() -> None:
    # HMAC-SHA256(secret, "daily:<day>:<game>:<attempt>") % 999_999_999 + 1
    def expected(text: str, secret: str = SECRET) -> int:
        return int(hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest(), 16) % 999_999_999 + 1

    assert candidate_deal("2024-05-06", "canfield", SECRET) == expected("daily:2024-05-06:canfield:0")
    assert candidate_deal("2024-05-06", "storehouse", SECRET) == expected("daily:2024-05-06:storehouse:0")
    assert candidate_deal("2024-05-07", "canfield", SECRET, 3) == expected("daily:2024-05-07:canfield:3")
    # Without the deployment's secret the deal cannot be worked out: another secret, another deal,
    # and the old published rule (sha256 of "daily:<day>:<game>") no longer gives it.
    assert candidate_deal("2024-05-06", "canfield", "another secret") != candidate_deal("2024-05-06", "canfield",
                                                                                        SECRET)
    assert candidate_deal("2024-05-06", "canfield", SECRET) != 393562335
    # The daily is the first candidate that the solver proves winnable.
    deal = daily_deal("2024-05-06", "canfield", SECRET)
    attempts = [candidate_deal("2024-05-06", "canfield", SECRET, k) for k in range(MAX_CANDIDATES)]
    first = attempts.index(deal)
    assert solve(new_game("canfield", deal=deal), limit=DAILY_SOLVE_LIMIT).status == "winnable"
    assert all(solve(new_game("canfield", deal=d), limit=DAILY_SOLVE_LIMIT).status != "winnable"
               for d in attempts[:first])
    assert today(lambda: at("2024-05-06 23:59")) == "2024-05-06"
    assert today(lambda: at("2024-05-07 00:00")) == "2024-05-07"
    for bad in ("2024-5-6", "2024-02-30", "yesterday"):
        with pytest.raises(NotADay) as refused:
            check_day(bad)
        assert refused.value.day == bad


async def test_everyone_gets_the_same_deal_on_every_server(daily: DailyPlay) -> None:
    replies = [await daily.start(ALICE, guild_id=5, channel_id=10), await daily.start(BOB, guild_id=6, channel_id=20),
               await daily.start(CAROL, guild_id=None, channel_id=None)]
    secret = await daily.secret()
    assert {reply.game.deal for reply in replies} == {daily_deal("2024-05-08", "canfield", secret)}
    assert len({reply.game_id for reply in replies}) == 3
    assert all(reply.started and reply.kind == "daily" and not reply.undo_allowed for reply in replies)
    assert replies[0].events == (DailyDealt("2024-05-08"),)
    assert replies[0].label.day == "2024-05-08" and replies[0].label.number is None  # its number is never shown
    other = await daily.start(ALICE, guild_id=5, channel_id=11, game="storehouse")
    assert other.game.deal == daily_deal("2024-05-08", "storehouse", secret) and other.game.name == "storehouse"


async def test_the_secret_is_made_once_kept_in_the_database_and_the_same_for_every_process(
        daily: DailyPlay, database_url, clock) -> None:
    secret = await daily.secret()
    assert len(secret) == 64 and int(secret, 16) >= 0  # 256 random bits
    # Another process on the same database (its own connection and cache) reads the same secret,
    # and deals the same daily; a fresh database makes a secret of its own.
    other_store = await open_store(database_url, clock)
    try:
        other = DailyPlay(other_store, SoloPlay(other_store), clock)
        assert await other.secret() == secret
        bobs = await other.start(BOB, **HERE)
        alices = await daily.start(ALICE, **HERE)
        assert bobs.game.deal == alices.game.deal == daily_deal("2024-05-08", "canfield", secret)
    finally:
        await other_store.close()
    rows = await daily.store.db.fetch_all(select(secrets.c.name, secrets.c.value))
    assert rows == [("daily", secret)]


async def test_a_day_keeps_the_deal_its_first_attempts_were_dealt(daily: DailyPlay) -> None:
    """An attempt made by the rule of before the upgrade (the published one): the day's later
    attempts are dealt the same, so that everyone that day plays one deal."""
    old_rule = 393562335  # what the old rule gave for 2024-05-06; any number stands for it
    await daily.store.games.upsert_player(ALICE.id, ALICE.name)
    stored = await daily.store.games.create_game(NewGame(
        guild_id=5, channel_id=10, user_id=ALICE.id, name="canfield", options={}, deal=old_rule, cards=None,
        snapshot=None, score=-12, kind="daily", undo_allowed=False))
    await daily.store.stats.claim_daily("2024-05-08", "canfield", ALICE.id, 5, stored.id)
    assert await daily.deal("2024-05-08", "canfield") == old_rule
    assert (await daily.start(BOB, **HERE)).game.deal == old_rule
    assert await daily.deal("2024-05-08", "storehouse") == daily_deal("2024-05-08", "storehouse", await daily.secret())


async def test_one_attempt_a_day_resumed_while_in_play_then_refused(daily: DailyPlay) -> None:
    first = await daily.start(ALICE, **HERE)
    await daily.solo.move(first.game_id, ALICE, "d")
    again = await daily.start(ALICE, **HERE)
    assert again.game_id == first.game_id and not again.started and again.version == 1
    assert again.events == (DailyResumed("2024-05-08"),)
    # One daily in play a channel: another game's daily here resumes the one in play.
    assert (await daily.start(ALICE, **HERE, game="storehouse")).game_id == first.game_id
    # The attempt is played where it began: elsewhere, the player is told where it is.
    with pytest.raises(DailyElsewhere) as elsewhere:
        await daily.start(ALICE, guild_id=6, channel_id=20)
    assert (elsewhere.value.game, elsewhere.value.day, elsewhere.value.channel_id) == ("canfield", "2024-05-08", 10)
    await daily.solo.resign(first.game_id, ALICE)
    with pytest.raises(DailyPlayed) as played:
        await daily.start(ALICE, **HERE)
    assert (played.value.game, played.value.status, played.value.score, played.value.seconds_left) == \
        ("canfield", "resigned", -12, 12 * 3600)
    assert await daily.store.games.count_games() == 1
    with pytest.raises(NoSuchDaily):
        await daily.start(ALICE, **HERE, game="klondike")


async def test_simultaneous_starts_end_with_one_attempt_and_one_game(daily: DailyPlay, database_url, clock,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    replies = await asyncio.gather(*(daily.start(ALICE, **HERE) for _ in range(4)))
    assert len({reply.game_id for reply in replies}) == 1 and sum(reply.started for reply in replies) == 1
    assert await daily.store.games.count_games() == 1
    # Two processes (two connections to one file) starting at once: the primary key decides.
    other_store = await open_store(database_url, clock)
    other = DailyPlay(other_store, SoloPlay(other_store), clock)
    # Each start makes its game, then waits for the others to have made theirs before it claims
    # the attempt: all four race for it, however busy the machine (left to the scheduler, one
    # start could end before another began, and no game would be thrown away).
    all_made, made = asyncio.Barrier(4), []
    with monkeypatch.context() as patch:
        for play in (daily, other):
            async def make_then_wait(*args, make=play.solo.create, **kwargs):
                reply = await make(*args, **kwargs)
                made.append(reply.game_id)
                await asyncio.wait_for(all_made.wait(), 30)
                return reply
            patch.setattr(play.solo, "create", make_then_wait)
        replies = await asyncio.gather(daily.start(BOB, **HERE), other.start(BOB, **HERE),
                                       daily.start(BOB, **HERE), other.start(BOB, **HERE))
    assert len({reply.game_id for reply in replies}) == 1 and len(made) == 4
    assert await daily.store.games.count_games() == 2
    assert await daily.store.db.fetch_value(select(func.count()).select_from(daily_attempts)) == 2
    # The losers' games were really made, then thrown away: ids are never reused.
    later = await daily.solo.start(CAROL, **HERE, deal=1)
    assert later.game_id > max(made)
    await other_store.close()


async def test_a_game_begun_before_midnight_counts_for_its_day_until_one_oclock(daily: DailyPlay,
                                                                                clock: FakeClock) -> None:
    secret = await daily.secret()
    clock.set("2024-05-08 23:59")
    old = await daily.start(ALICE, **HERE)
    assert old.game.deal == daily_deal("2024-05-08", "canfield", secret)
    clock.advance(120)
    assert (await daily.solo.move(old.game_id, ALICE, "d")).ok  # still playable after midnight
    # One daily in play a channel: the 8th's is shown until it ends, saying by when.
    resumed = await daily.start(ALICE, **HERE)
    assert resumed.game_id == old.game_id and resumed.events == (DailyResumed("2024-05-08", day_over=True),)
    assert resumed.label.day == "2024-05-08"
    await daily.solo.resign(old.game_id, ALICE)
    yesterday = await daily.store.stats.daily_attempt("2024-05-08", "canfield", ALICE.id)
    assert yesterday.game_id == old.game_id and yesterday.status == "resigned"
    assert yesterday.finished_at == at("2024-05-09 00:01")
    new = await daily.start(ALICE, **HERE)
    assert new.started and new.game_id != old.game_id and new.game.deal == daily_deal("2024-05-09", "canfield", secret)
    assert (await daily.store.stats.daily_attempt("2024-05-09", "canfield", ALICE.id)).status == "playing"
    assert (await daily.start(ALICE, **HERE)).game_id == new.game_id


async def test_an_attempt_still_in_play_at_one_oclock_ends_and_its_day_stops_being_live(daily: DailyPlay,
                                                                                      clock: FakeClock) -> None:
    clock.set("2024-05-08 20:00")
    alices = await daily.start(ALICE, **HERE)
    bobs = await daily.start(BOB, **HERE)
    await daily.solo.move(bobs.game_id, BOB, "d")
    await daily.solo.resign(alices.game_id, ALICE)
    secrecy = daily.solo.secrecy
    stored = await daily.store.games.get_game(alices.game_id)
    clock.set("2024-05-09 00:30")  # the day is over, Bob may still finish his: the deal stays live
    assert await daily.end_overdue() == 0
    with pytest.raises(DealIsLive) as live:
        await secrecy.may_show(stored, Sight.SOLVER)
    assert live.value.live == LiveDaily("canfield", "2024-05-08", at("2024-05-09 01:00"), day_over=True)
    clock.set("2024-05-09 01:00")  # one minute after, the next round ends what is still in play
    assert await secrecy.live(stored) is not None  # Bob's attempt is still in play until it is ended
    assert await daily.end_overdue() == 1
    bob_attempt = await daily.store.stats.daily_attempt("2024-05-08", "canfield", BOB.id)
    assert (bob_attempt.status, bob_attempt.score) == ("resigned", -12)  # as if he resigned: his score stands
    assert await secrecy.live(stored) is None and await secrecy.may_show(stored, Sight.SOLVER) is None
    assert await daily.end_overdue() == 0  # nothing twice
    # Today's own attempts are never ended early.
    todays = await daily.start(CAROL, **HERE)
    clock.set("2024-05-09 23:59")
    assert await daily.end_overdue() == 0
    assert (await daily.store.games.get_game(todays.game_id)).status == "playing"


async def test_undo_is_refused_in_a_daily(daily: DailyPlay) -> None:
    game_id = (await daily.start(ALICE, **HERE)).game_id
    await daily.solo.move(game_id, ALICE, "d")
    with pytest.raises(UndoOff):
        await daily.solo.undo(game_id, ALICE)
    # However it is typed: several undos, an undo among moves, the word.
    for text in ("u", "u u", "d u u", "undo", "d undo d"):
        with pytest.raises(UndoOff):
            await daily.solo.move(game_id, ALICE, text)
    assert (await daily.store.games.get_game(game_id)).moves == ["d"]


def test_streaks_count_consecutive_days() -> None:
    days = ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-05", "2024-05-06"]
    assert streak(days, "2024-05-06") == (2, 3)
    assert streak(days, "2024-05-07") == (2, 3)  # today not played yet: the run stands
    assert streak(days, "2024-05-08") == (0, 3)  # a whole day missed
    assert streak(days, "2024-05-02") == (2, 2)  # later days do not count yet
    assert streak([], "2024-05-02") == (0, 0)
    assert streaks([("2024-05-01", True), ("2024-05-02", False), ("2024-05-03", True)], "2024-05-03") == \
        Streaks(played=3, best_played=3, won=1, best_won=1)


async def test_streaks_played_and_won_over_days_with_a_gap(daily: DailyPlay, clock: FakeClock) -> None:
    plan = {"2024-05-01": "won", "2024-05-02": "won", "2024-05-03": "won", "2024-05-04": "resigned",
            "2024-05-06": "won"}  # the 5th is missed
    for day, result in plan.items():
        clock.set(f"{day} 12:00")
        if result == "won":
            await win_daily(daily.store, daily.solo, ALICE, day)
        else:
            await resign_daily(daily, ALICE)
    clock.set("2024-05-07 08:00")  # not played yet today: yesterday's runs stand
    assert await daily.streaks(ALICE.id) == Streaks(played=1, best_played=4, won=1, best_won=3)
    await resign_daily(daily, ALICE)
    assert await daily.streaks(ALICE.id) == Streaks(played=2, best_played=4, won=1, best_won=3)
    clock.set("2024-05-08 08:00")  # the 7th was played, not won: the win run is over
    assert await daily.streaks(ALICE.id) == Streaks(played=2, best_played=4, won=0, best_won=3)
    clock.set("2024-05-09 08:00")  # the 8th missed
    assert await daily.streaks(ALICE.id) == Streaks(played=0, best_played=4, won=0, best_won=3)
    assert await daily.streaks(BOB.id) == Streaks()


async def test_a_daily_of_a_game_the_solver_does_not_cover_is_the_first_candidate(daily: DailyPlay) -> None:
    for game in ("demons-and-thieves", "patriarchs"):
        reply = await daily.start(ALICE, **HERE, game=game)
        secret = await daily.secret()
        assert reply.game.name == game and reply.game.deal == candidate_deal("2024-05-08", game, secret)
        assert daily_deal("2024-05-08", game, secret) == candidate_deal("2024-05-08", game, secret)
        await daily.solo.resign(reply.game_id, ALICE)
