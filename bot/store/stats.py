"""The store of daily challenges, leaderboards, stats and server settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    CTE,
    ColumnElement,
    Text,
    bindparam,
    case,
    cast,
    delete,
    exists,
    func,
    literal,
    null,
    or_,
    select,
    union,
    union_all,
    update,
)

from bot.store.base import (
    CasinoStanding,
    DailyAttempt,
    DailyDay,
    DailyResult,
    GameRecord,
    PlayerStanding,
    PlayerTotals,
    TeamStanding,
)
from bot.store.databases import AnySelect, Database, Row, mean, total
from bot.store.tables import (
    analyses,
    daily_attempts,
    games,
    guild_settings,
    match_players,
    matches,
    players,
    race_players,
    races,
    secrets,
    teams,
    web_links,
)


def _attempts() -> AnySelect:
    """Daily attempts with their games' state, the fields of DailyAttempt in order."""
    return (select(daily_attempts.c.day, daily_attempts.c.game, daily_attempts.c.user_id, daily_attempts.c.guild_id,
                   daily_attempts.c.game_id, games.c.status, games.c.score, games.c.finished_at)
            .select_from(daily_attempts.join(games, games.c.id == daily_attempts.c.game_id)))


def _results() -> CTE:
    """What counts, the same for the players' leaderboard and /stats (README, "Leaderboards and
    stats"): a result is a finished game of patience (solo, a match's round or a daily; won when
    won) or a finished race hand (won by the player who went out), each with its score; rounds
    closed by the end of their match count nowhere. A game of patience also has its `game` name,
    whether it is a clean win (`clean`: won with no move taken back and no hint), its cards on the
    foundations (NULL when stored before they were kept) and its `game_id`; a race hand has NULL
    for these, and is never clean."""
    clean = (games.c.status == "won") & (games.c.undos == 0) & (games.c.hints == 0)
    return union_all(
        select(games.c.user_id, case((games.c.status == "won", 1), else_=0).label("won"), games.c.score,
               games.c.guild_id, games.c.finished_at, games.c.name.label("game"),
               case((clean, 1), else_=0).label("clean"), games.c.foundation_cards, games.c.id.label("game_id"))
        .where(games.c.status != "playing", games.c.closed == 0),
        select(race_players.c.user_id, case((races.c.demon_user_id == race_players.c.user_id, 1), else_=0),
               race_players.c.score, races.c.guild_id, races.c.finished_at, null(), literal(0), null(), null())
        .select_from(race_players.join(races, races.c.id == race_players.c.race_id))
        .where(races.c.status == "finished"),
    ).cte("results")


def _move_count(moves: ColumnElement[str]) -> ColumnElement[int]:
    """How many moves a space-separated list of moves holds (games.moves)."""
    return case((moves == "", 0), else_=func.length(moves) - func.length(func.replace(moves, " ", "")) + 1)


def _match_wins() -> CTE:
    """A match is won by its winner and, in a team match, by every player who played for the winning team."""
    return (select(match_players.c.user_id, matches.c.guild_id, matches.c.finished_at)
            .select_from(match_players.join(matches, matches.c.id == match_players.c.match_id))
            .where(matches.c.status == "finished", or_(matches.c.winner_user_id == match_players.c.user_id,
                                                       matches.c.winner_team_id == match_players.c.team_id))
            .cte("match_wins"))


def _on_server(query: AnySelect, column: ColumnElement[Any], guild_id: int | None) -> AnySelect:
    """`query` kept to the rows whose `column` is `guild_id` (None: every server)."""
    return query if guild_id is None else query.where(column == guild_id)


def _window(query: AnySelect, column: ColumnElement[Any], since: float | None, until: float | None) -> AnySelect:
    """`query` kept to the rows whose `column`, a time, is `since` or later (None: ever) and
    before `until` (None: until now)."""
    if since is not None:
        query = query.where(column >= since)
    return query if until is None else query.where(column < until)


def _attempt(row: Row) -> DailyAttempt:
    """An attempt from its row: `_attempts()`'s columns, and `hints` and `shared` where it has them."""
    attempt = row._mapping  # by name, and cheaply (Statements.fetch_mappings)
    return DailyAttempt(day=attempt["day"], game=attempt["game"], user_id=attempt["user_id"],
                        guild_id=attempt["guild_id"], game_id=attempt["game_id"], status=attempt["status"],
                        score=attempt["score"], finished_at=attempt["finished_at"], hints=attempt.get("hints", 0),
                        shared=bool(attempt.get("shared", False)))


def _name(user_id: ColumnElement[Any]) -> ColumnElement[str]:
    """The player's display name, or 'user <id>' when it is not known."""
    return func.coalesce(players.c.name, literal("user ", Text) + cast(user_id, Text))


def _daily_results(on_server: bool, from_day: bool) -> AnySelect:
    """StatsStore.daily_results's query, on one server or anywhere, from a first day or the first ever."""
    name = _name(daily_attempts.c.user_id)
    moves = _move_count(games.c.moves)
    seconds = games.c.finished_at - games.c.created_at
    query = (select(daily_attempts.c.day, daily_attempts.c.user_id, name.label("name"), games.c.status,
                    games.c.score, games.c.finished_at, moves.label("moves"), seconds.label("seconds"))
             .select_from(daily_attempts.join(games, games.c.id == daily_attempts.c.game_id)
                          .outerjoin(players, players.c.user_id == daily_attempts.c.user_id))
             .where(daily_attempts.c.game == bindparam("game"), daily_attempts.c.day <= bindparam("last_day")))
    if on_server:
        query = query.where(daily_attempts.c.guild_id == bindparam("guild_id"))
    if from_day:
        query = query.where(daily_attempts.c.day >= bindparam("first_day"))
    return query.order_by(case((games.c.status == "playing", 1), else_=0), games.c.score.desc(), moves, seconds,
                          games.c.finished_at, func.lower(name), daily_attempts.c.user_id)


# Built once, with named parameters, as the move path's statements (bot/store/games.py): building it
# and working out its cache key took some 1 ms a call, twice what reading its rows by name costs.
_DAILY_RESULTS = {(on_server, from_day): _daily_results(on_server, from_day) for on_server in (False, True)
                  for from_day in (False, True)}


class StatsStore:
    """Daily attempts, leaderboards, stats and server settings."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    # --- daily challenges ------------------------------------------------------------------

    async def daily_attempt(self, day: str, game: str, user_id: int) -> DailyAttempt | None:
        """The player's attempt at that day's daily of `game`, with its game's state, or None."""
        row = await self.db.fetch_one(_attempts().where(
            daily_attempts.c.day == day, daily_attempts.c.game == game, daily_attempts.c.user_id == user_id))
        return _attempt(row) if row else None

    async def last_finished_daily(self, user_id: int) -> DailyAttempt | None:
        """The player's daily attempt that ended last, or None."""
        row = await self.db.fetch_one(
            _attempts().where(daily_attempts.c.user_id == user_id, games.c.status != "playing")
            .order_by(games.c.finished_at.desc(), games.c.id.desc()).limit(1))
        return _attempt(row) if row else None

    async def daily_of_game(self, game_id: int) -> DailyAttempt | None:
        """The daily attempt whose game is `game_id`, with the hints asked for in it and whether
        its result was shared; None when that game is no daily."""
        row = await self.db.fetch_one(
            select(daily_attempts.c.day, daily_attempts.c.game, daily_attempts.c.user_id, daily_attempts.c.guild_id,
                   daily_attempts.c.game_id, games.c.status, games.c.score, games.c.finished_at, games.c.hints,
                   daily_attempts.c.shared)
            .select_from(daily_attempts.join(games, games.c.id == daily_attempts.c.game_id))
            .where(daily_attempts.c.game_id == game_id))
        return _attempt(row) if row else None

    async def mark_shared(self, game_id: int) -> bool:
        """Note that the result of the daily played in game `game_id` was shared: True the first
        time, False when it was already (one statement decides, between processes too)."""
        changed = await self.db.execute(
            update(daily_attempts).where(daily_attempts.c.game_id == game_id, daily_attempts.c.shared == 0)
            .values(shared=1))
        return changed == 1

    async def claim_daily(self, day: str, game: str, user_id: int, guild_id: int | None, game_id: int) -> int:
        """Record game `game_id` (just created, unplayed) as the player's attempt at that day's
        daily; the id of the attempt's game. When they have an attempt already (two starts at
        once), the new game is deleted and the existing attempt's game id is returned."""
        # The primary key (day, game, user_id) decides between simultaneous starts, in this
        # process or another: each statement stands alone and commits on its own.
        claimed = await self.db.execute(
            self.db.upsert(daily_attempts).values(day=day, game=game, user_id=user_id, guild_id=guild_id,
                                                  game_id=game_id)
            .on_conflict_do_nothing(index_elements=[daily_attempts.c.day, daily_attempts.c.game,
                                                    daily_attempts.c.user_id]))
        if claimed != 1:
            await self.db.execute(delete(games).where(games.c.id == game_id,
                                                      ~exists().where(daily_attempts.c.game_id == game_id)))
        attempt = await self.db.fetch_value(select(daily_attempts.c.game_id).where(
            daily_attempts.c.day == day, daily_attempts.c.game == game, daily_attempts.c.user_id == user_id))
        assert attempt is not None
        return int(attempt)

    async def daily_dealt(self, day: str, game: str) -> int | None:
        """The deal that attempts at that day's daily of `game` were dealt, or None before any."""
        value = await self.db.fetch_value(
            select(games.c.deal).select_from(daily_attempts.join(games, games.c.id == daily_attempts.c.game_id))
            .where(daily_attempts.c.day == day, daily_attempts.c.game == game, games.c.deal.is_not(None))
            .order_by(daily_attempts.c.game_id).limit(1))
        return None if value is None else int(value)

    async def daily_in_play(self, day: str, game: str) -> bool:
        """Whether some attempt at that day's daily of `game` is still in play."""
        return bool(await self.db.fetch_value(select(exists().where(
            daily_attempts.c.day == day, daily_attempts.c.game == game,
            daily_attempts.c.game_id == games.c.id, games.c.status == "playing"))))

    async def dailies_in_play_before(self, day: str) -> list[DailyAttempt]:
        """The attempts still in play at the dailies of the days before `day`, oldest first."""
        rows = await self.db.fetch_all(_attempts().where(daily_attempts.c.day < day, games.c.status == "playing")
                                       .order_by(daily_attempts.c.day, daily_attempts.c.game_id))
        return [_attempt(row) for row in rows]

    async def daily_in_play_here(self, user_id: int, channel_id: int | None) -> DailyAttempt | None:
        """The player's daily attempt in play in this channel (None: outside any channel), the
        most recent, or None."""
        where = games.c.channel_id.is_(None) if channel_id is None else games.c.channel_id == channel_id
        row = await self.db.fetch_one(_attempts().where(daily_attempts.c.user_id == user_id, where,
                                                        games.c.status == "playing")
                                      .order_by(daily_attempts.c.day.desc(), daily_attempts.c.game_id.desc()).limit(1))
        return _attempt(row) if row else None

    async def daily_results(self, game: str, guild_id: int | None, first_day: str | None,
                            last_day: str) -> list[DailyResult]:
        """The attempts at the dailies of `game` from `first_day` (None: the first ever) to
        `last_day`, played on this server (None: anywhere), with their games' state: finished
        games first, by score, then fewer moves, then less time from start to finish, then the
        earlier finish; games in play after them."""
        rows = await self.db.fetch_mappings(_DAILY_RESULTS[guild_id is not None, first_day is not None], {
            "game": game, "guild_id": guild_id, "first_day": first_day, "last_day": last_day})
        return [DailyResult(day=row["day"], user_id=row["user_id"], name=row["name"], status=row["status"],
                            score=row["score"], finished_at=row["finished_at"], moves=row["moves"],
                            seconds=row["seconds"]) for row in rows]

    async def daily_days(self, *, guild_id: int | None = None, user_id: int | None = None) -> list[DailyDay]:
        """Every day each player made a daily attempt, of each game, and whether they won it, by
        player, day and game: for the players with an attempt on this server (None: anywhere), or
        for one player. A player's days are all theirs, on any server: a streak is personal."""
        query = (select(daily_attempts.c.user_id, _name(daily_attempts.c.user_id).label("name"), daily_attempts.c.day,
                        daily_attempts.c.game, (games.c.status == "won").label("won"))
                 .select_from(daily_attempts.join(games, games.c.id == daily_attempts.c.game_id)
                              .outerjoin(players, players.c.user_id == daily_attempts.c.user_id))
                 .order_by(daily_attempts.c.user_id, daily_attempts.c.day, daily_attempts.c.game))
        if user_id is not None:
            query = query.where(daily_attempts.c.user_id == user_id)
        if guild_id is not None:
            on_guild = select(daily_attempts.c.user_id).where(daily_attempts.c.guild_id == guild_id)
            query = query.where(daily_attempts.c.user_id.in_(on_guild.scalar_subquery()))
        rows = await self.db.fetch_mappings(query)
        return [DailyDay(user_id=row["user_id"], name=row["name"], day=row["day"], won=bool(row["won"]),
                         game=row["game"]) for row in rows]

    # --- leaderboards and stats -------------------------------------------------------------

    async def player_standings(self, guild_id: int | None, since: float | None,
                               until: float | None = None) -> list[PlayerStanding]:
        """Every player with a game finished, or a match won, on this server (None: all) since
        `since` (None: ever) and before `until` (None: until now): by points, then wins, then name."""
        results, match_wins = _results(), _match_wins()
        finished_query = select(results.c.user_id, func.count().label("games"), total(results.c.won).label("wins"),
                                total(results.c.score).label("points"), total(results.c.clean).label("clean")
                                ).group_by(results.c.user_id)
        finished = _window(_on_server(finished_query, results.c.guild_id, guild_id), results.c.finished_at, since,
                           until).cte("finished")
        won_query = select(match_wins.c.user_id, func.count().label("matches")).group_by(match_wins.c.user_id)
        won_matches = _window(_on_server(won_query, match_wins.c.guild_id, guild_id), match_wins.c.finished_at,
                              since, until).cte("won_matches")
        everyone = union(select(finished.c.user_id), select(won_matches.c.user_id)).cte("everyone")
        wins = func.coalesce(finished.c.wins, 0).label("wins")
        points = func.coalesce(finished.c.points, 0).label("points")
        rows = await self.db.fetch_mappings(
            select(everyone.c.user_id, _name(everyone.c.user_id).label("name"),
                   func.coalesce(finished.c.games, 0).label("games"), wins, points,
                   func.coalesce(won_matches.c.matches, 0).label("matches_won"),
                   func.coalesce(finished.c.clean, 0).label("clean_wins"))
            .select_from(everyone.outerjoin(finished, finished.c.user_id == everyone.c.user_id)
                         .outerjoin(won_matches, won_matches.c.user_id == everyone.c.user_id)
                         .outerjoin(players, players.c.user_id == everyone.c.user_id))
            .order_by(points.desc(), wins.desc(), func.lower(_name(everyone.c.user_id)), everyone.c.user_id))
        return [PlayerStanding(user_id=row["user_id"], name=row["name"], games=row["games"], wins=row["wins"],
                               points=row["points"], matches_won=row["matches_won"], clean_wins=row["clean_wins"])
                for row in rows]

    async def team_standings(self, guild_id: int | None, since: float | None,
                             until: float | None = None) -> list[TeamStanding]:
        """The server's teams (None: every server's) with their match points and matches won
        since `since` (None: ever) and before `until` (None: until now): by matches won, then
        points, then name."""
        # A round's points go to the team its player was in for that match (match_players),
        # whatever team they are in now.
        points_query = (
            select(match_players.c.team_id, total(games.c.score).label("points"))
            .select_from(games.join(matches, matches.c.id == games.c.match_id)
                         .join(match_players, (match_players.c.match_id == games.c.match_id)
                               & (match_players.c.user_id == games.c.user_id)))
            .where(games.c.kind == "match", games.c.status != "playing", games.c.closed == 0, matches.c.teams == 1,
                   match_players.c.team_id.is_not(None))
            .group_by(match_players.c.team_id))
        wins_query = (select(matches.c.winner_team_id.label("team_id"), func.count().label("won"))
                      .where(matches.c.winner_team_id.is_not(None)).group_by(matches.c.winner_team_id))
        team_points = _window(points_query, games.c.finished_at, since, until).cte("points")
        team_wins = _window(wins_query, matches.c.finished_at, since, until).cte("wins")
        won = func.coalesce(team_wins.c.won, 0).label("won")
        points = func.coalesce(team_points.c.points, 0).label("points")
        query = (select(teams.c.id, teams.c.name, won, points)
                 .select_from(teams.outerjoin(team_points, team_points.c.team_id == teams.c.id)
                              .outerjoin(team_wins, team_wins.c.team_id == teams.c.id))
                 .order_by(won.desc(), points.desc(), func.lower(teams.c.name), teams.c.id))
        rows = await self.db.fetch_mappings(_on_server(query, teams.c.guild_id, guild_id))
        return [TeamStanding(team_id=row["id"], name=row["name"], matches_won=row["won"], points=row["points"])
                for row in rows]

    async def player_totals(self, user_id: int, guild_id: int | None) -> PlayerTotals:
        """A player's finished games, and the matches they played (that started) and won (they, or
        their team), on this server (None: all servers)."""
        results, match_wins = _results(), _match_wins()
        finished = await self.db.fetch_one(_on_server(
            select(func.count().label("games"), func.coalesce(total(results.c.won), 0).label("wins"),
                   func.max(results.c.score).label("best"), mean(results.c.score).label("average"),
                   func.coalesce(total(results.c.clean), 0).label("clean"))
            .where(results.c.user_id == user_id),
            results.c.guild_id, guild_id))
        assert finished is not None  # an aggregate without GROUP BY: one row, always
        played = await self.db.fetch_value(_on_server(
            select(func.count()).select_from(match_players.join(matches, matches.c.id == match_players.c.match_id))
            .where(match_players.c.user_id == user_id, matches.c.started_at.is_not(None)),
            matches.c.guild_id, guild_id)) or 0
        won = await self.db.fetch_value(_on_server(
            select(func.count()).select_from(match_wins).where(match_wins.c.user_id == user_id),
            match_wins.c.guild_id, guild_id)) or 0
        name = await self.db.fetch_value(select(players.c.name).where(players.c.user_id == user_id))
        return PlayerTotals(user_id=user_id, name=name, games=finished.games, wins=finished.wins,
                            best_score=finished.best,
                            average_score=None if finished.average is None else float(finished.average),
                            matches_played=played, matches_won=won, clean_wins=finished.clean)

    async def game_records(self, user_id: int, guild_id: int | None) -> list[GameRecord]:
        """A player's results on this server (None: all servers), game by game (race hands as
        game None), counted as `player_totals` counts them: the most played first. One query,
        which reads the analyses of their lost games when there are any."""
        results = _results()
        lost = results.c.won == 0
        verdict = analyses.c.verdict
        cards = results.c.foundation_cards
        played = func.count().label("played")
        query = (select(results.c.game, played, total(results.c.won).label("wins"),
                        total(results.c.clean).label("clean_wins"), func.max(results.c.score).label("best_score"),
                        mean(cards).label("average_cards"), func.count(cards).label("counted_cards"),
                        func.coalesce(total(cards), 0).label("cards"),
                        total(case((lost & verdict.in_(("lost", "never")), 1), else_=0)).label("lost_analysed"),
                        total(case((lost & (verdict == "lost"), 1), else_=0)).label("lost_winnable"))
                 .select_from(results.outerjoin(analyses, analyses.c.game_id == results.c.game_id))
                 .where(results.c.user_id == user_id)
                 .group_by(results.c.game).order_by(played.desc(), results.c.game))
        rows = await self.db.fetch_mappings(_on_server(query, results.c.guild_id, guild_id))
        return [GameRecord(game=row["game"], played=row["played"], wins=row["wins"], clean_wins=row["clean_wins"],
                           best_score=row["best_score"],
                           average_cards=None if row["average_cards"] is None else float(row["average_cards"]),
                           counted_cards=row["counted_cards"], cards=row["cards"], lost_analysed=row["lost_analysed"],
                           lost_winnable=row["lost_winnable"]) for row in rows]

    async def casino_standings(self, game_names: tuple[str, ...], guild_id: int | None, since: float | None,
                               until: float | None = None) -> list[CasinoStanding]:
        """Each player's finished games of `game_names` (the casino games) whose cards on the
        foundations are known, on this server (None: all) since `since` (None: ever) and before
        `until` (None: until now), with those cards added up, counted as `game_records` counts
        them: by player id."""
        results = _results()
        cards = results.c.foundation_cards
        query = (select(results.c.user_id, _name(results.c.user_id).label("name"), func.count().label("games"),
                        total(cards).label("cards"))
                 .select_from(results.outerjoin(players, players.c.user_id == results.c.user_id))
                 .where(results.c.game.in_(game_names), cards.is_not(None))
                 .group_by(results.c.user_id, players.c.name).order_by(results.c.user_id))
        rows = await self.db.fetch_mappings(_window(_on_server(query, results.c.guild_id, guild_id),
                                                    results.c.finished_at, since, until))
        return [CasinoStanding(user_id=row["user_id"], name=row["name"], games=row["games"], cards=row["cards"])
                for row in rows]

    # --- server settings ---------------------------------------------------------------

    async def secret(self, name: str, make: Callable[[], str]) -> str:
        """The deployment's secret called `name`: the one stored, or `make()`'s, stored now (the
        first writer wins, between processes too, and every process reads the same)."""
        await self.db.execute(self.db.upsert(secrets).values(name=name, value=make(), created_at=self.clock())
                              .on_conflict_do_nothing(index_elements=[secrets.c.name]))
        value = await self.db.fetch_value(select(secrets.c.value).where(secrets.c.name == name))
        assert value is not None
        return str(value)

    async def claim_link(self, nonce: str, user_id: int, game_id: int) -> bool:
        """Claim a web table link's nonce as it is opened (bot/play/links.py): True the first time
        only, between processes too."""
        inserted = await self.db.execute(
            self.db.upsert(web_links).values(nonce=nonce, user_id=user_id, game_id=game_id, opened_at=self.clock())
            .on_conflict_do_nothing(index_elements=[web_links.c.nonce]))
        return inserted == 1

    async def get_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings."""
        rows = await self.db.fetch_mappings(select(guild_settings.c.key, guild_settings.c.value)
                                            .where(guild_settings.c.guild_id == guild_id))
        return {row["key"]: row["value"] for row in rows}

    async def set_setting(self, guild_id: int, key: str, value: str) -> None:
        """Change one of a server's settings."""
        insert = self.db.upsert(guild_settings).values(guild_id=guild_id, key=key, value=value)
        await self.db.execute(insert.on_conflict_do_update(
            index_elements=[guild_settings.c.guild_id, guild_settings.c.key],
            set_={"value": insert.excluded.value}))
