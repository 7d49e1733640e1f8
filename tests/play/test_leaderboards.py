"""Leaderboards and stats on a real SQLite file, the games really played (wins replayed from
tests.samples.won_game, losses resigned), with a clock the tests move."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from bot.play import Player, SoloPlay
from bot.play.daily import DailyPlay, Streaks
from bot.play.days import today
from bot.play.errors import UnknownGame, UnknownPeriod, UnknownRanking, UnknownSeason
from bot.play.leaderboards import STANDINGS, Leaderboards
from bot.play.seasons import Season, parse_season
from bot.play.settings import change_settings
from bot.store import NewGame, Store, open_store
from bot.store.base import NewMatch, NewRace
from tests.play.test_daily import FakeClock, at, resign_daily, win_daily
from tests.samples import won_game

ALICE, BOB, CAROL, DAVE, ERIN = (Player(1, "alice"), Player(2, "bob"), Player(3, "carol"), Player(4, "dave"),
                                 Player(5, "erin"))


class World:
    """The store, the play layer and the boards, on one clock."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.store, self.clock = store, clock
        self.solo = SoloPlay(store)
        self.daily = DailyPlay(store, self.solo, clock)
        self.boards = Leaderboards(store, clock)

    async def lose(self, player: Player, guild_id: int | None = 5, **round_of: int) -> int:
        """A game (a match's round with match_id=, round=) started and resigned at once: -12."""
        kind = "match" if round_of else "solo"
        reply = await self.solo.create(player, guild_id=guild_id, channel_id=10, name="canfield", deal=1,
                                       options={}, kind=kind, **round_of)
        await self.solo.resign(reply.game_id, player)
        return reply.game_id

    async def win(self, player: Player, guild_id: int | None = 5, **round_of: int) -> int:
        """A game (a match's round with match_id=, round=) played out to a win: 352."""
        solved = won_game("canfield")
        await self.store.games.upsert_player(player.id, player.name)
        stored = await self.store.games.create_game(NewGame(
            guild_id=guild_id, channel_id=10, user_id=player.id, name="canfield", options=solved.options, deal=None,
            cards="".join(str(card) for card in solved.cards), snapshot=None, score=-12,
            kind="match" if round_of else "solo", **round_of))
        assert (await self.solo.move(stored.id, player, " ".join(map(str, solved.moves)))).status == "won"
        return stored.id

    async def match(self, players: dict[Player, int | None], guild_id: int = 5, teams: bool = False) -> int:
        """A running match of these players (each with their team id, or None)."""
        match = await self.store.matches.create_match(NewMatch(
            guild_id=guild_id, channel_id=10, host_id=next(iter(players)).id, game="canfield", options={},
            target=300, teams=teams, undo=False, seed=7), self.clock())
        for player, team_id in players.items():
            await self.store.matches.add_match_player(match.id, player.id, team_id, self.clock())
        assert await self.store.matches.change_match_status(match.id, "lobby", "running", self.clock())
        return match.id

    async def finish(self, match_id: int, *, user: Player | None = None, team_id: int | None = None) -> None:
        """End a running match with its winner."""
        assert await self.store.matches.change_match_status(match_id, "running", "finished", self.clock(),
                                                            winner_user_id=user.id if user else None,
                                                            winner_team_id=team_id)


@pytest.fixture
async def world(database_url):
    """A fresh SQLite file with everything on one clock, at noon UTC on a Wednesday."""
    clock = FakeClock(at("2024-05-08 12:00"))
    store = await open_store(database_url, clock)
    yield World(store, clock)
    await store.close()


async def test_players_by_points_then_wins_then_name_with_ranks_and_the_server_filter(world: World) -> None:
    await world.win(ALICE)
    await world.lose(ALICE)
    await world.win(BOB)
    match_id = await world.match({CAROL: None, ALICE: None})
    await world.lose(CAROL, match_id=match_id, round=1)
    await world.finish(match_id, user=CAROL)
    await world.win(DAVE, guild_id=6)
    await world.solo.start(ERIN, guild_id=5, channel_id=10)  # in play: not on the board
    page = await world.boards.page("players", "all", 5)
    assert page.columns == ("rank", "player", "games", "wins", "win_rate", "points", "matches_won")
    assert page.rows == [(1, "bob", 1, 1, 100, 352, 0), (2, "alice", 2, 1, 50, 340, 0),
                         (3, "carol", 1, 0, 0, -12, 1)]
    assert (page.page, page.pages, page.total) == (0, 1, 3) and (page.ranking, page.period, page.guild_id) == \
        ("players", "all", 5)
    everywhere = await world.boards.page("players", "all", None)
    assert [row[:2] for row in everywhere.rows] == [(1, "bob"), (2, "dave"), (3, "alice"), (4, "carol")]
    assert [row[1] for row in (await world.boards.page("players", "all", 6)).rows] == ["dave"]


async def test_week_and_today_count_what_finished_in_them(world: World) -> None:
    world.clock.set("2024-05-05 22:00")  # Sunday: last week
    await world.lose(BOB)
    match_id = await world.match({BOB: None})
    await world.finish(match_id, user=BOB)
    world.clock.set("2024-05-05 23:00")
    alice_game = (await world.solo.start(ALICE, guild_id=5, channel_id=10)).game_id
    world.clock.set("2024-05-06 00:30")  # Monday: begun last week, finished this week
    await world.solo.resign(alice_game, ALICE)
    world.clock.set("2024-05-08 09:00")
    await world.lose(CAROL)
    world.clock.set("2024-05-08 12:00")
    names = {period: [row[1] for row in (await world.boards.page("players", period, 5)).rows]
             for period in ("all", "week", "today")}
    assert names == {"all": ["alice", "bob", "carol"], "week": ["alice", "carol"], "today": ["carol"]}
    assert (await world.boards.page("players", "all", 5)).rows[1][-1] == 1  # bob's match, last week


async def test_pages_split_the_board_and_keep_the_ranks(world: World) -> None:
    for number in range(1, 24):
        await world.lose(Player(100 + number, f"p{number:02d}"))
    first = await world.boards.page("players", "all", 5, per_page=10)
    assert (first.page, first.pages, first.total) == (0, 3, 23) and len(first.rows) == 10
    second = await world.boards.page("players", "all", 5, page=1, per_page=10)
    assert [row[:2] for row in second.rows] == [(rank, f"p{rank:02d}") for rank in range(11, 21)]
    last = await world.boards.page("players", "all", 5, page=9, per_page=10)  # past the end: the last page
    assert last.page == 2 and [row[0] for row in last.rows] == [21, 22, 23]
    assert (second.page, second.pages, second.total) == (1, 3, 23)


async def test_teams_pool_their_members_match_rounds(world: World) -> None:
    reds = await world.store.matches.create_team(5, "Reds", ALICE.id)
    await world.store.matches.join_team(5, "Reds", BOB.id)
    blues = await world.store.matches.create_team(5, "Blues", CAROL.id)
    await world.store.matches.create_team(5, "Greens", ERIN.id)
    await world.store.matches.create_team(6, "Elsewhere", DAVE.id)
    match_id = await world.match({ALICE: reds.id, BOB: reds.id, CAROL: blues.id}, teams=True)
    await world.win(ALICE, match_id=match_id, round=1)
    await world.lose(BOB, match_id=match_id, round=1)
    await world.win(CAROL, match_id=match_id, round=1)
    await world.finish(match_id, team_id=reds.id)
    await world.win(ALICE)  # neither a solo game nor a match without teams counts for a team
    solo_match = await world.match({BOB: None})
    await world.win(BOB, match_id=solo_match, round=1)
    page = await world.boards.page("teams", "all", 5)
    assert page.columns == ("rank", "team", "matches_won", "points")
    assert page.rows == [(1, "Reds", 1, 340), (2, "Blues", 0, 352), (3, "Greens", 0, 0)]
    world.clock.advance(86_400)
    assert (await world.boards.page("teams", "today", 5)).rows[0] == (1, "Blues", 0, 0)


async def test_the_daily_board_today_and_over_the_week(world: World) -> None:
    world.clock.set("2024-05-05 12:00")  # last week
    await win_daily(world.store, world.solo, BOB, today(world.clock))
    world.clock.set("2024-05-07 12:00")
    await resign_daily(world.daily, ALICE)
    for time, player, guild_id in (("12:01", DAVE, 6), ("12:05", BOB, 5), ("12:10", ALICE, 5)):
        world.clock.set(f"2024-05-08 {time}")
        if player is BOB:
            await resign_daily(world.daily, BOB)
        else:
            await win_daily(world.store, world.solo, player, "2024-05-08", guild_id=guild_id)
    await world.daily.start(CAROL, guild_id=5, channel_id=10)  # still in play
    here = await world.boards.page("daily", "today", 5)
    assert (here.ranking, here.period, here.game, here.day, here.guild_id) == \
        ("daily", "today", "canfield", "2024-05-08", 5)
    assert here.columns == ("rank", "player", "result", "score", "moves", "time")
    assert here.rows == [(1, "alice", "won", 352, 63, 0), (2, "bob", "resigned", -12, 0, 0),
                         (3, "carol", "playing", -12, None, None)]
    everywhere = await world.boards.page("daily", "today", None)
    assert [row[1] for row in everywhere.rows] == ["dave", "alice", "bob", "carol"]  # dave finished first
    week = await world.boards.page("daily", "week", 5)
    assert week.columns == ("rank", "player", "days", "wins", "points", "best")
    assert week.rows == [(1, "alice", 2, 1, 340, 352), (2, "carol", 1, 0, 0, None), (3, "bob", 1, 0, -12, -12)]
    ever = await world.boards.page("daily", "all", 5)
    assert ever.rows[:2] == [(1, "alice", 2, 1, 340, 352), (2, "bob", 2, 1, 340, 352)]
    assert (await world.boards.page("daily", "today", 5, game="storehouse")).rows == []


async def test_the_daily_board_breaks_ties_by_fewer_moves_then_less_time(world: World) -> None:
    async def resign_after(player: Player, moves: str, minutes: int) -> None:
        reply = await world.daily.start(player, guild_id=5, channel_id=10)
        if moves:
            await world.solo.move(reply.game_id, player, moves)
        world.clock.advance(60 * minutes)
        await world.solo.resign(reply.game_id, player)

    await resign_after(ALICE, "d d", 1)  # draws: the same score, more moves
    await resign_after(BOB, "", 5)
    await resign_after(CAROL, "", 2)  # finished last of the three, but the quickest of the two without moves
    today_board = await world.boards.page("daily", "today", 5)
    assert today_board.rows == [(1, "carol", "resigned", -12, 0, 120), (2, "bob", "resigned", -12, 0, 300),
                                (3, "alice", "resigned", -12, 2, 60)]
    week = await world.boards.page("daily", "week", 5)
    assert [row[1] for row in week.rows] == ["carol", "bob", "alice"]


async def test_the_streak_board_by_current_then_best(world: World) -> None:
    plays = {"2024-05-04": [BOB], "2024-05-05": [BOB], "2024-05-06": [ALICE, BOB], "2024-05-07": [ALICE, CAROL],
             "2024-05-08": [DAVE]}
    for day, players in plays.items():
        world.clock.set(f"{day} 12:00")
        for player in players:
            await resign_daily(world.daily, player, guild_id=6 if player is DAVE else 5)
    await win_daily(world.store, world.solo, ALICE, "2024-05-08", guild_id=5)  # today's, won
    page = await world.boards.page("streaks", "all", 5)
    assert page.columns == ("rank", "player", "streak", "best_streak", "win_streak", "best_win_streak")
    assert page.rows == [(1, "alice", 3, 3, 1, 1), (2, "carol", 1, 1, 0, 0), (3, "bob", 0, 3, 0, 0)]
    assert [row[1] for row in (await world.boards.page("streaks", "week", None)).rows] == \
        ["alice", "carol", "dave", "bob"]


async def test_unknown_rankings_periods_and_games_are_refused_with_the_choices(world: World) -> None:
    with pytest.raises(UnknownRanking) as ranking:
        await world.boards.page("scores", "all", 5)
    assert (ranking.value.ranking, ranking.value.choices) == (
        "scores", ("players", "teams", "daily", "streaks", "clean", "casino", "rating"))
    with pytest.raises(UnknownPeriod) as period:
        await world.boards.page("players", "month", 5)
    assert (period.value.period, period.value.choices) == ("month", ("all", "week", "today", "season"))
    with pytest.raises(UnknownGame) as game:
        await world.boards.page("daily", "today", 5, game="klondike")
    assert game.value.name == "klondike"


async def test_a_players_stats(world: World) -> None:
    world.clock.set("2024-05-07 12:00")
    await resign_daily(world.daily, ALICE)
    world.clock.set("2024-05-08 12:00")
    await win_daily(world.store, world.solo, ALICE, "2024-05-08")
    await world.win(ALICE)
    await world.lose(ALICE)
    await world.lose(ALICE, guild_id=6)
    match_id = await world.match({ALICE: None, BOB: None})
    await world.win(ALICE, match_id=match_id, round=1)
    await world.finish(match_id, user=ALICE)
    reds = await world.store.matches.create_team(5, "Reds", ALICE.id)
    team_match = await world.match({ALICE: reds.id}, teams=True)
    await world.finish(team_match, team_id=reds.id)
    await world.match({ALICE: None})  # still running: played, not won
    stats = await world.boards.stats(ALICE.id, 5)
    assert (stats.name, stats.games, stats.wins, stats.best_score) == ("alice", 5, 3, 352)
    assert stats.average_score == pytest.approx((352 * 3 - 12 * 2) / 5) and stats.win_rate == pytest.approx(0.6)
    assert (stats.matches_played, stats.matches_won) == (3, 2)
    assert stats.streaks == Streaks(played=2, best_played=2, won=1, best_won=1)
    assert (await world.boards.stats(ALICE.id, None)).games == 6
    nobody = await world.boards.stats(99, 5)
    assert (nobody.name, nobody.games, nobody.best_score, nobody.win_rate) == ("user 99", 0, None, 0.0)


async def test_stats_and_the_players_board_count_the_same_way(world: World) -> None:
    """One definition for both: games are finished games of patience and race hands, a race hand
    is won by going out, a match is won alone or with one's team; a round closed by its match's
    end counts nowhere."""
    await world.win(ALICE)
    await world.lose(ALICE)
    for demon in (ALICE, BOB):  # two race hands: Alice goes out in the first, Bob in the second
        race = await world.store.races.create_race(NewRace(5, 10, ALICE.id, "klondike", 7))
        await world.store.races.join_race(race.id, BOB.id)
        await world.store.races.start_race(race.id)
        await world.store.races.finish_race(race.id, demon_user_id=demon.id,
                                            scores=[62, 3] if demon is ALICE else [4, 62])
    reds = await world.store.matches.create_team(5, "Reds", ALICE.id)
    team_match = await world.match({ALICE: reds.id, CAROL: None}, teams=True)
    await world.finish(team_match, team_id=reds.id)
    solo_match = await world.match({ALICE: None, BOB: None})
    await world.win(BOB, match_id=solo_match, round=1)
    closed = await world.solo.create(ALICE, guild_id=5, channel_id=10, name="canfield", deal=1, options={},
                                     kind="match", match_id=solo_match, round=1)
    await world.finish(solo_match, user=BOB)
    assert await world.store.matches.close_match_rounds(solo_match, world.clock()) == [closed.game_id]
    board = {row[1]: row for row in (await world.boards.page("players", "all", 5)).rows}
    for player in (ALICE, BOB):
        stats = await world.boards.stats(player.id, 5)
        _, _, games, wins, _, _, matches_won = board[player.name]
        assert (stats.games, stats.wins, stats.matches_won) == (games, wins, matches_won), player
    assert board["alice"][2:] == (4, 2, 50, 352 - 12 + 62 + 4, 1)
    assert board["bob"][2:] == (3, 2, 67, 352 + 3 + 62, 1)


# --- seasons ---------------------------------------------------------------------------------

ONE_PASS = "canfield-one-pass"  # a casino game
PARIS_MAY = (at("2024-04-30 22:00"), at("2024-05-31 22:00"))  # May 2024 in Paris (+02:00), in UTC


async def play_everything(world: World, player: Player, team_name: str) -> None:
    """At the clock's time, `player` wins a game clean, loses a casino game, and wins a team
    match for a team of their own with a round won."""
    await world.win(player)
    casino = await world.solo.create(player, guild_id=5, channel_id=10, name=ONE_PASS, deal=1, options={})
    await world.solo.resign(casino.game_id, player)
    team = await world.store.matches.create_team(5, team_name, player.id)
    match_id = await world.match({player: team.id}, teams=True)
    await world.win(player, match_id=match_id, round=1)
    await world.finish(match_id, team_id=team.id)


async def a_month_in_paris(world: World) -> None:
    """Server 5 counts months in Paris; Alice plays everything a second before May, Bob as it
    begins, Carol a second before it ends, Dave as it ends; then the clock is in mid-May."""
    await change_settings(world.store, 5, timezone="Europe/Paris", season="month")
    starts, ends = PARIS_MAY
    for player, when in ((ALICE, starts - 1), (BOB, starts), (CAROL, ends - 1), (DAVE, ends)):
        world.clock.now = when
        await play_everything(world, player, f"{player.name}s")
    world.clock.set("2024-05-15 12:00")


async def test_a_season_counts_what_finished_from_its_start_to_before_its_end(world: World) -> None:
    await a_month_in_paris(world)
    for ranking in ("players", "clean", "casino"):
        page = await world.boards.page(ranking, "season", 5)
        assert [row[1] for row in page.rows] == ["bob", "carol"], ranking
        assert (page.period, page.season) == ("season", parse_season("2024-05", ZoneInfo("Europe/Paris")))
        assert page.season is not None and (page.season.starts, page.season.ends) == PARIS_MAY
    teams = await world.boards.page("teams", "season", 5)
    assert [row[1:3] for row in teams.rows] == [("bobs", 1), ("carols", 1), ("alices", 0), ("daves", 0)]
    # A season named, past or current, whatever the period asked.
    for name, names in (("2024-04", ["alice"]), ("2024-05", ["bob", "carol"]), ("2024-06", ["dave"])):
        page = await world.boards.page("players", "all", 5, season=name)
        assert ([row[1] for row in page.rows], page.period, page.season and page.season.name) == \
            (names, "season", name)
    # Its quarter (Alice's second before May is in it); and over all servers, a month in UTC (Bob's
    # start of May is April there).
    assert [row[1] for row in (await world.boards.page("players", "season", 5, season="2024-q2")).rows] == \
        ["alice", "bob", "carol", "dave"]
    everywhere = await world.boards.page("players", "season", None)
    assert [row[1] for row in everywhere.rows] == ["carol", "dave"]
    assert everywhere.season == Season("month", "2024-05", int(at("2024-05-01 00:00")), int(at("2024-06-01 00:00")))
    # Streaks stay over all time; other periods show no season.
    assert (await world.boards.page("streaks", "season", 5)).season is not None
    assert (await world.boards.page("players", "all", 5)).season is None
    with pytest.raises(UnknownSeason) as refused:
        await world.boards.page("players", "season", 5, season="2024-13")
    assert refused.value.name == "2024-13"


async def test_the_daily_board_of_a_season_adds_up_the_dailies_of_its_dates(world: World) -> None:
    await change_settings(world.store, 5, timezone="America/New_York", season="week")
    # Alice's daily of Monday 6 May is played on the evening of Sunday 5 May in New York: it is
    # the daily of the 6th, in week 19.
    for when, player in (("2024-05-05 12:00", BOB), ("2024-05-06 02:00", ALICE), ("2024-05-12 12:00", CAROL),
                         ("2024-05-13 12:00", DAVE)):
        world.clock.set(when)
        await resign_daily(world.daily, player)
    world.clock.set("2024-05-08 12:00")
    week = await world.boards.page("daily", "season", 5)
    assert (week.season and week.season.name, week.columns) == ("2024-W19", ("rank", "player", "days", "wins",
                                                                            "points", "best"))
    assert [row[1] for row in week.rows] == ["alice", "carol"]
    assert [row[1] for row in (await world.boards.page("daily", "season", 5, season="2024-W20")).rows] == ["dave"]
    assert [s.name for s in await world.boards.recent_seasons(5, 3)] == ["2024-W19", "2024-W18", "2024-W17"]


async def test_a_seasons_standings_are_the_top_of_its_players_teams_and_daily(world: World) -> None:
    await a_month_in_paris(world)
    world.clock.set("2024-05-20 12:00")
    await resign_daily(world.daily, ERIN)
    await world.store.matches.create_team(5, "Idle", ERIN.id)
    frank = Player(6, "frank")
    losers = await world.store.matches.create_team(5, "Losers", frank.id)  # below Idle, for all their round
    match_id = await world.match({frank: losers.id}, teams=True)
    await world.lose(frank, match_id=match_id, round=1)
    standings = await world.boards.season_standings(5, "2024-05", top=3)
    assert standings.season.name == "2024-05" and standings.guild_id == 5
    assert [board.ranking for board in standings.boards] == list(STANDINGS) == ["players", "teams", "rating", "daily"]
    players, teams, rating, daily = standings.boards
    assert rating.rows == []  # no match of the month was won, no race run: nobody was rated
    assert [row[:2] for row in players.rows] == [(1, "bob"), (2, "carol"), (3, "erin")] and players.total == 4
    # The teams that played, Losers too: not Idle, nor the teams of the months before and after.
    assert [row[:2] for row in teams.rows] == [(1, "bobs"), (2, "carols"), (3, "Losers")]
    assert (daily.game, [row[:2] for row in daily.rows]) == ("canfield", [(1, "erin")])
    assert [len(board.rows) for board in (await world.boards.season_standings(5, "2024-05", top=1)).boards] == \
        [1, 1, 0, 1]
    assert all(board.season == standings.season for board in standings.boards)
    june = await world.boards.season_standings(5, parse_season("2024-06", ZoneInfo("Europe/Paris")))
    assert [[row[1] for row in board.rows] for board in june.boards] == [["dave"], ["daves"], [], []]
