"""Leaderboard pages and a player's stats as Discord shows them: aligned tables in a code block."""

from __future__ import annotations

from dataclasses import replace

from bot.game import GAMES
from bot.languages import LANGUAGES
from bot.play.daily import Streaks
from bot.play.leaderboards import GameStats, LeaderboardPage, PlayerStats, SeasonStandings
from bot.play.ratings import PlayerRating
from bot.play.seasons import Season
from bot.views.leaderboards import PAGE_TEMPLATE, PageButton, code_block, leaderboard_answer, stats_answer
from bot.words import DISCORD, TERMINAL
from bot.words.leaderboards import (
    MESSAGE_LIMIT,
    NAME_WIDTH,
    TEXT_LIMIT,
    game_stats_text,
    page_text,
    page_title,
    rating_text,
    season_standings_text,
    stats_notes,
    stats_text,
)
from tests.test_words import HOSTILE_NAMES, left_raw


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
        "Clean wins    0",
        "Rating        no rated game yet",
    ]
    nobody = PlayerStats(user_id=99, name="user 99", guild_id=None, games=0, wins=0, best_score=None,
                         average_score=None, matches_played=0, matches_won=0, streaks=Streaks())
    assert "Scores        -" in stats_text(nobody, DISCORD) and "(all servers)" in stats_text(nobody, DISCORD)


def test_a_rating_has_a_line_of_its_own_in_the_stats_with_its_last_change() -> None:
    stats = PlayerStats(user_id=1, name="alice", guild_id=5, games=5, wins=3, best_score=352, average_score=206.4,
                        matches_played=3, matches_won=2, streaks=Streaks(),
                        rating=PlayerRating(rating=1083, games=7, change=24))
    assert stats_text(stats, DISCORD).splitlines()[-1] == "Rating        1,083 (+24 in the last game)"
    assert rating_text(PlayerRating(rating=987, games=3, change=-13), DISCORD) == \
        "987 (-13 in the last game), provisional: 3 of 5 rated games"
    assert rating_text(PlayerRating(rating=1000, games=4, change=0), DISCORD).startswith("1,000 (+0 in the last game)")
    assert rating_text(None, DISCORD) == "no rated game yet"
    assert "provisional until 5 rated games" in stats_notes(DISCORD)
    assert rating_text(PlayerRating(rating=1083, games=7, change=1024), DISCORD.speaking("de")) == \
        "1.083 (+1.024 im letzten Spiel)"


def test_the_rating_board_shows_ratings_and_which_are_provisional() -> None:
    page = a_page("rating", ("rank", "player", "rating", "games", "provisional"),
                  [(1, "alice", 1083, 7, False), (2, "bob", 1012, 2, True)], period="week")
    assert page_text(page, DISCORD).splitlines() == [
        "Ratings · this week · this server",
        "#  Player  Rating  Games  Provisional",
        "-" * 37,
        "1  alice    1,083      7",
        "2  bob      1,012      2  yes",
        "Page 1 of 1 · 2 in all"]
    assert PAGE_TEMPLATE.fullmatch("pl:rating:today:all:0:next")


def test_the_records_boards_show_money_and_times_as_people_write_them() -> None:
    casino = a_page("casino", ("rank", "player", "bankroll", "games"), [(1, "alice", 156, 2), (2, "bob", -94, 2)])
    assert page_text(casino, DISCORD).splitlines()[:5] == [
        "Casino bankroll · Canfield (one pass) · all time · this server",
        "#  Player  Bankroll  Games",
        "-" * 26,
        "1  alice       $156      2",
        "2  bob         -$94      2"]
    daily = a_page("daily", ("rank", "player", "result", "score", "moves", "time"),
                   [(1, "carol", "won", 352, 63, 245), (2, "bob", "won", 352, 63, 3729), (3, "dave", "playing", -12,
                                                                                       None, None)], period="today")
    assert page_text(daily, DISCORD).splitlines()[1:6] == ["#  Player  Result   Score  Moves     Time",
                                                           "-" * 41,
                                                           "1  carol   won        352     63     4:05",
                                                           "2  bob     won        352     63  1:02:09",
                                                           "3  dave    playing    -12      -        -"]
    assert page_title(a_page("clean", (), [], period="week"), DISCORD) == "Clean wins · this week · this server"
    assert all(PAGE_TEMPLATE.fullmatch(custom_id) for custom_id in ("pl:casino:all:server:1:next",
                                                                    "pl:clean:week:all:0:prev"))


def a_record(game: str, **fields: object) -> GameStats:
    return GameStats(**{"game": game, "played": 4, "wins": 1, "clean_wins": 1, "best_score": 352,
                        "average_cards": 20.5, "streaks": Streaks(played=2, best_played=3)} | fields)


def test_a_players_record_at_one_game_says_what_it_has() -> None:
    one_pass = a_record("canfield-one-pass", lost_analysed=3, lost_winnable=2, bankroll=-47)
    assert game_stats_text(one_pass, DISCORD).splitlines() == [
        "Canfield (one pass): 4 played, 1 won (25%), 1 clean",
        "  best score 352, 20.5 cards to the foundations on average",
        "  daily streak 2 days (best 3 days)",
        "  lost games that could have been won: 2 of 3 analysed (67%)",
        "  bankroll -$47",
    ]
    only_a_daily = a_record("storehouse", played=0, wins=0, clean_wins=0, best_score=None, average_cards=None)
    assert game_stats_text(only_a_daily, DISCORD).splitlines() == ["Storehouse: 0 played, 0 won (0%), 0 clean",
                                                          "  daily streak 2 days (best 3 days)"]


def test_stats_with_every_game_fit_a_message() -> None:
    records = tuple(a_record(game, lost_analysed=3, lost_winnable=2, bankroll=-47) for game in GAMES)
    stats = PlayerStats(user_id=1, name="x" * 40, guild_id=5, games=99, wins=9, best_score=352, average_score=1.5,
                        matches_played=3, matches_won=2, streaks=Streaks(), clean_wins=5, games_played=records)
    text = stats_answer(stats, DISCORD).text
    assert len(text) <= 2000 and "Canfield: 4 played" in text
    assert "/stats with a game shows it" in text and text.count(" played, ") < len(GAMES)
    for language in LANGUAGES:  # longer words, the same room
        assert len(stats_answer(stats, DISCORD.speaking(language)).text) <= 2000, language


def test_names_in_a_leaderboard_and_stats_stay_inside_their_code_block_as_they_are() -> None:
    """In a code block nothing is markdown, a mention or a link: a name shows as it is there, cut
    to its column, never escaped; only a backtick, which would close the block, is changed."""
    page = a_page("players", ("rank", "player", "points"), [(n, name, n) for n, name in enumerate(HOSTILE_NAMES, 1)])
    table = code_block(page_text(page, DISCORD))
    assert table.count("```") == 2 and table.startswith("```\n") and table.endswith("\n```")
    for name in HOSTILE_NAMES:
        shown = " ".join(name.split()).replace("`", "'")
        assert shown[:NAME_WIDTH - 1] in table and "\\" + shown[:2] not in table
        stats = PlayerStats(user_id=1, name=name, guild_id=5, games=0, wins=0, best_score=None, average_score=None,
                            matches_played=0, matches_won=0, streaks=Streaks())
        answer = stats_answer(stats, DISCORD).text
        assert answer.count("```") == 2 and f"Stats of {shown[:NAME_WIDTH - 1]}" in answer, answer


# --- seasons ---------------------------------------------------------------------------------

NOVEMBER = Season("month", "2026-11", 1_793_491_200, 1_796_083_200)


def test_a_seasons_page_names_its_season_and_its_buttons_keep_to_it() -> None:
    page = replace(a_page("players", ("rank", "player"), [(1, "bob")], period="season"), season=NOVEMBER)
    assert page_title(page, DISCORD) == "Players · season 2026-11 · this server"
    daily = replace(a_page("daily", (), [], period="season", guild_id=None), season=NOVEMBER)
    assert page_title(daily, DISCORD) == "Daily Canfield · season 2026-11 · all servers"
    assert page_title(page, DISCORD.speaking("fr")) == "Joueurs · saison 2026-11 · ce serveur"
    view = leaderboard_answer(page, "server", DISCORD).view
    assert view is not None
    buttons = [item.custom_id for item in view.children if isinstance(item, PageButton)]
    assert buttons == ["pl:players:season:server:0:prev:2026-11", "pl:players:season:server:0:next:2026-11"]
    for custom_id in (*buttons, "pl:daily:season:all:3:next:2026-W48", "pl:teams:season:server:0:prev:2026-Q4",
                      "pl:players:season:server:0:next"):
        assert PAGE_TEMPLATE.fullmatch(custom_id), custom_id
    for custom_id in ("pl:players:season:server:0:next:", "pl:players:season:server:0:next:2026-Q5",
                      "pl:players:season:server:0:next:november"):
        assert not PAGE_TEMPLATE.fullmatch(custom_id), custom_id


def standings(*boards: LeaderboardPage) -> SeasonStandings:
    return SeasonStandings(season=NOVEMBER, guild_id=5, boards=tuple(replace(board, period="season", season=NOVEMBER)
                                                                     for board in boards))


PLAYERS = ("rank", "player", "games", "wins", "win_rate", "points", "matches_won")
TEAMS = ("rank", "team", "matches_won", "points")
DAILY = ("rank", "player", "days", "wins", "points", "best")


def test_a_seasons_final_standings_name_it_then_each_boards_top() -> None:
    final = standings(a_page("players", PLAYERS, [(1, "bob", 3, 1, 33, 328, 1), (2, "alice", 1, 0, 0, -12, 0)]),
                      a_page("teams", TEAMS, [(1, "Reds", 2, 340)]),
                      a_page("daily", DAILY, []))
    assert season_standings_text(final, DISCORD).split("\n") == [
        "**Season 2026-11 is over: the final standings**", "",
        "**Players**", "1. bob: 328 points, 1 win", "2. alice: -12 points, 0 wins", "",
        "**Teams**", "1. Reds: 2 matches won, 340 points", "",
        "**Daily Canfield**", "Nobody played."]
    assert season_standings_text(final, TERMINAL).split("\n")[:4] == [
        "Season 2026-11 is over: the final standings", "", "Players", "1. bob: 328 points, 1 win"]
    german = season_standings_text(final, DISCORD.speaking("de"))
    assert "**Die Saison 2026-11 ist vorbei: der Endstand**" in german
    assert "1. Reds: 2 gewonnene Matches, 340 Punkte" in german and "Niemand hat gespielt." in german
    one_day = standings(a_page("daily", DAILY, [(1, "erin", 1, 1, 352, 352)]))
    assert season_standings_text(one_day, DISCORD).endswith("1. erin: 352 points, 1 day")
    rated = standings(a_page("rating", ("rank", "player", "rating", "games", "provisional"),
                             [(1, "bob", 1234, 7, False), (2, "carol", 1010, 2, True)]))
    assert season_standings_text(rated, DISCORD).endswith(
        "**Rating**\n1. bob: 1,234, 7 rated games\n2. carol: 1,010, 2 rated games, provisional")
    # A board the words do not know says its values after the name.
    other = standings(a_page("streaks", ("rank", "player", "streak", "best_streak"), [(1, "bob", 3, 7)]))
    assert season_standings_text(other, DISCORD).endswith("**streaks**\n1. bob: 3, 7")


def test_a_seasons_final_standings_fit_a_message_and_names_do_nothing() -> None:
    for name in HOSTILE_NAMES:
        text = season_standings_text(standings(a_page("teams", TEAMS, [(1, name, 1, 9)])), DISCORD)
        assert DISCORD.name(name) in text and not left_raw(text, name, DISCORD), name
    crowded = standings(*(a_page(board, columns, [(rank, "é" * 60, 99, 99, 99, 99_999_999, 99)[:len(columns)]
                                                  for rank in range(1, 41)])
                          for board, columns in (("players", PLAYERS), ("teams", TEAMS), ("daily", DAILY))))
    for voice in (DISCORD, *(DISCORD.speaking(language) for language in LANGUAGES)):
        text = season_standings_text(crowded, voice)
        assert len(text) <= MESSAGE_LIMIT and text.count("\n…") == 3, voice.language
        assert all(block.split("\n")[1].startswith("1. ") for block in text.split("\n\n")[1:])
