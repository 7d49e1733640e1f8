"""Leaderboard pages and a player's stats as Discord shows them: aligned tables in a code block."""

from __future__ import annotations

from bot.play.daily import Streaks
from bot.play.leaderboards import LeaderboardPage, PlayerStats
from bot.views.leaderboards import TEXT_LIMIT, page_text, page_title, stats_text
from bot.words import DISCORD


def a_page(board: str, columns: tuple[str, ...], rows: list, *, period: str = "all", guild_id: int | None = 5,
           pages: int = 1, total: int | None = None) -> LeaderboardPage:
    return LeaderboardPage(ranking=board, period=period, guild_id=guild_id, game="canfield", day="2024-05-08",
                           columns=columns, rows=rows, page=0, pages=pages, total=len(rows) if total is None else total)


def test_a_page_as_text_is_an_aligned_table_that_fits_a_message() -> None:
    page = a_page("players", ("rank", "player", "games", "points"),
                  [(1, "bob", 1, 352), (2, "a`very`long`name with a\nline break", 12, -12)])
    assert page_text(page, DISCORD).splitlines() == ["Players · all time · this server",
                                            "#  Player                Games  Points",
                                            "-" * 38,
                                            "1  bob                       1     352",
                                            "2  a'very'long'name wi…     12     -12",
                                            "Page 1 of 1 · 2 in all"]
    crowded = a_page("players", ("rank", "player", "points"), [(n, "x" * 40, n * 1000) for n in range(1, 201)])
    text = page_text(crowded, DISCORD)
    assert len(text) <= TEXT_LIMIT and text.endswith("…\nPage 1 of 1 · 200 in all")
    empty = a_page("teams", ("rank", "team"), [], period="today")
    assert page_text(empty, DISCORD) == "Teams · today · this server\nNo one here yet."


def test_each_board_has_its_title() -> None:
    all_servers = a_page("teams", (), [], period="week", guild_id=None)
    assert page_title(all_servers, DISCORD) == "Teams · this week · all servers"
    assert page_title(a_page("daily", (), [], period="today"), DISCORD) == "Daily Canfield · 2024-05-08 · this server"
    assert page_title(a_page("daily", (), [], period="week"), DISCORD) == "Daily Canfield · this week · this server"
    assert page_title(a_page("streaks", (), []), DISCORD) == "Daily streaks (days) · this server"


def test_a_players_stats_in_aligned_lines() -> None:
    stats = PlayerStats(user_id=1, name="alice", guild_id=5, games=5, wins=3, best_score=352, average_score=206.4,
                        matches_played=3, matches_won=2, streaks=Streaks(played=2, best_played=2, won=1, best_won=1))
    assert stats_text(stats, DISCORD).splitlines() == [
        "Stats of alice (this server)",
        "Games         5 finished, 3 won (60%)",
        "Scores        best 352, average 206.4",
        "Matches       3 played, 2 won",
        "Daily streak  2 days (best 2 days)",
        "Daily wins    1 day in a row (best 1 day)",
    ]
    nobody = PlayerStats(user_id=99, name="user 99", guild_id=None, games=0, wins=0, best_score=None,
                         average_score=None, matches_played=0, matches_won=0, streaks=Streaks())
    assert "Scores        -" in stats_text(nobody, DISCORD) and "(all servers)" in stats_text(nobody, DISCORD)
