"""The SQLite store's daily, leaderboard and stats queries, on a real file."""

from __future__ import annotations

import itertools

import pytest

from bot.store import NewGame, open_store


def daily_game(user_id: int, guild_id: int | None = 5, name: str = "canfield") -> NewGame:
    """A new daily game, unplayed."""
    return NewGame(guild_id=guild_id, channel_id=10, user_id=user_id, name=name, options={}, deal=1, cards=None,
                   snapshot=None, score=-12, kind="daily", undo_allowed=False)


@pytest.fixture
async def store(database_url):
    """A fresh database (SQLite, then PostgreSQL)."""
    clock = itertools.count(1_715_000_000, 60).__next__  # a minute on at every reading
    store = await open_store(database_url, clock)
    yield store
    await store.close()


async def test_a_second_claim_on_one_attempt_gets_the_first_game_and_its_own_is_deleted(store) -> None:
    first = await store.games.create_game(daily_game(1))
    second = await store.games.create_game(daily_game(1, guild_id=6))
    assert await store.stats.claim_daily("2024-05-08", "canfield", 1, 5, first.id) == first.id
    assert await store.stats.claim_daily("2024-05-08", "canfield", 1, 6, second.id) == first.id
    assert await store.games.get_game(second.id) is None and await store.games.count_games() == 1
    attempt = await store.stats.daily_attempt("2024-05-08", "canfield", 1)
    assert (attempt.game_id, attempt.guild_id, attempt.status, attempt.score, attempt.finished_at) == \
        (first.id, 5, "playing", -12, None)
    assert await store.stats.daily_attempt("2024-05-09", "canfield", 1) is None
    assert await store.stats.daily_attempt("2024-05-08", "storehouse", 1) is None


async def test_daily_days_are_per_player_day_and_game_and_follow_players_to_other_servers(store) -> None:
    attempts = [("2024-05-07", "canfield", 1, 5, "resigned"), ("2024-05-08", "canfield", 1, 6, "blocked"),
                ("2024-05-08", "storehouse", 1, 6, "won"), ("2024-05-08", "canfield", 2, 6, "playing")]
    for day, name, user_id, guild_id, status in attempts:
        game = await store.games.create_game(daily_game(user_id, guild_id, name))
        await store.stats.claim_daily(day, name, user_id, guild_id, game.id)
        if status != "playing":
            await store.games.save_game(game.id, expected_version=0, moves=[], snapshot=None, status=status, score=3)
    on_five = await store.stats.daily_days(guild_id=5)
    assert [(d.user_id, d.name, d.day, d.game, d.won) for d in on_five] == [
        (1, "user 1", "2024-05-07", "canfield", False), (1, "user 1", "2024-05-08", "canfield", False),
        (1, "user 1", "2024-05-08", "storehouse", True)]
    assert [(d.user_id, d.day) for d in await store.stats.daily_days()] == [
        (1, "2024-05-07"), (1, "2024-05-08"), (1, "2024-05-08"), (2, "2024-05-08")]
    assert [d.day for d in await store.stats.daily_days(user_id=2)] == ["2024-05-08"]
    results = await store.stats.daily_results("canfield", 6, "2024-05-08", "2024-05-08")
    assert [(r.user_id, r.status, r.score) for r in results] == [(1, "blocked", 3), (2, "playing", -12)]
    assert len(await store.stats.daily_results("canfield", None, None, "2024-05-08")) == 3


async def test_totals_of_a_player_with_nothing_stored(store) -> None:
    totals = await store.stats.player_totals(7, None)
    assert (totals.name, totals.games, totals.wins, totals.best_score, totals.average_score,
            totals.matches_played, totals.matches_won) == (None, 0, 0, None, None, 0, 0)
    assert await store.stats.player_standings(None, None) == [] and await store.stats.team_standings(5, None) == []
