"""The store of players' ratings: the finished matches and races taken in, each once, and every
change of a player's rating (bot/play/ratings.py does the rating)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import BigInteger, ColumnElement, case, exists, func, literal, null, select

from bot.store.base import Contest, Entrant, RatingChange, RatingStanding, Skill
from bot.store.databases import Database, Queries, total
from bot.store.matches import scored_rounds
from bot.store.stats import _name
from bot.store.tables import games, match_players, matches, players, race_players, races, rated_events, rating_changes

RATINGS_LOCK = 7_106_244  # the PostgreSQL advisory lock that one process taking in events holds (any number)
USERS_AT_ONCE = 500  # players whose ratings one query reads

Rate = Callable[[Contest, Mapping[int, Skill]], list[RatingChange]]


def _taken(kind: str, event_id: ColumnElement[Any]) -> ColumnElement[bool]:
    """Whether the ratings have taken in the match or race `event_id` (`kind`)."""
    return exists().where(rated_events.c.kind == kind, rated_events.c.event_id == event_id)


class RatingStore:
    """The matches and races the ratings have taken in, and every change of a player's rating."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def rate_pending(self, rate: Rate) -> list[RatingChange]:
        """Take in every finished match and race hand not taken in yet, in the order they finished
        (then matches before races, then by id), each exactly once: in one transaction, which one
        process at a time holds (SQLite's BEGIN IMMEDIATE; on PostgreSQL an advisory lock), so
        that two processes never take in the same event twice nor out of order. `rate(contest,
        skills)` gives the changes of the contest's players' ratings from their ratings so far
        (`skills`: of the players rated before; a player absent has none), none when it is not
        rated. The changes, in order."""
        async with self.db.transaction() as tx:
            if self.db.dialect == "postgresql":
                await tx.fetch_value(select(func.pg_advisory_xact_lock(literal(RATINGS_LOCK, BigInteger))))
            contests = await _pending(tx)
            if not contests:
                return []
            skills = await _skills(tx, sorted({e.user_id for c in contests for e in c.entrants}))
            seq = await tx.fetch_value(select(func.coalesce(func.max(rated_events.c.seq), 0)))
            taken, changed = [], []
            for contest in contests:
                seq += 1
                changes = rate(contest, skills)
                taken.append({"kind": contest.kind, "event_id": contest.event_id, "seq": seq,
                              "rated": int(bool(changes))})
                for change in changes:
                    skills[change.user_id] = change.after
                    changed.append((seq, change))
            await tx.execute_many(rated_events.insert(), taken)
            await tx.execute_many(rating_changes.insert(), [
                {"kind": c.kind, "event_id": c.event_id, "user_id": c.user_id, "guild_id": c.guild_id,
                 "rated_at": c.rated_at, "seq": place, "mu_before": c.before.mu, "sigma_before": c.before.sigma,
                 "mu": c.after.mu, "sigma": c.after.sigma} for place, c in changed])
        return [change for _, change in changed]

    async def last_change(self, user_id: int) -> RatingChange | None:
        """The player's latest rating change (`after`: their rating now, with their rated games),
        or None before their first rated game."""
        rated_games = select(func.count()).where(rating_changes.c.user_id == user_id).scalar_subquery()
        row = await self.db.fetch_one(
            select(rating_changes, rated_games.label("games")).where(rating_changes.c.user_id == user_id)
            .order_by(rating_changes.c.seq.desc()).limit(1))
        if row is None:
            return None
        change = row._mapping
        return RatingChange(kind=change["kind"], event_id=change["event_id"], user_id=user_id,
                            guild_id=change["guild_id"], rated_at=change["rated_at"],
                            before=Skill(change["mu_before"], change["sigma_before"], change["games"] - 1),
                            after=Skill(change["mu"], change["sigma"], change["games"]))

    async def standings(self, guild_id: int | None, since: float | None, until: float | None
                        ) -> list[RatingStanding]:
        """Every player with a rated game from `since` (None: ever) until before `until` (None:
        now), one of them on this server (None: on any), with their rating after their last rated
        game of the period (on any server: a player has one rating), their rated games in the
        period and up to then: by player id."""
        ordered = select(rating_changes.c.user_id, rating_changes.c.guild_id, rating_changes.c.rated_at,
                         rating_changes.c.seq, rating_changes.c.mu, rating_changes.c.sigma,
                         func.row_number().over(partition_by=rating_changes.c.user_id,
                                                order_by=rating_changes.c.seq).label("number"))
        if until is not None:
            ordered = ordered.where(rating_changes.c.rated_at < until)
        numbered = ordered.cte("numbered")
        last_query = (select(numbered.c.user_id, func.max(numbered.c.seq).label("seq"), func.count().label("games"))
                      .group_by(numbered.c.user_id))
        if since is not None:
            last_query = last_query.where(numbered.c.rated_at >= since)
        if guild_id is not None:
            last_query = last_query.having(total(case((numbered.c.guild_id == guild_id, 1), else_=0)) > 0)
        last = last_query.cte("last")
        rows = await self.db.fetch_mappings(
            select(last.c.user_id, _name(last.c.user_id).label("name"), numbered.c.mu, numbered.c.sigma,
                   last.c.games, numbered.c.number)
            .select_from(last.join(numbered, (numbered.c.user_id == last.c.user_id) & (numbered.c.seq == last.c.seq))
                         .outerjoin(players, players.c.user_id == last.c.user_id))
            .order_by(last.c.user_id))
        return [RatingStanding(user_id=row["user_id"], name=row["name"], mu=row["mu"], sigma=row["sigma"],
                               games=row["games"], rated_games=row["number"]) for row in rows]


async def _pending(tx: Queries) -> list[Contest]:
    """The finished matches and race hands not taken in yet, with the players who played in
    them, in the order they finished, then matches before races, then by id. A match's players
    are those dealt a round of it, with their final points (bot.store.matches: its scored rounds);
    a race's, those with a score."""
    pending_matches = select(matches.c.id, matches.c.guild_id, matches.c.finished_at, matches.c.teams).where(
        matches.c.status == "finished", ~_taken("match", matches.c.id))
    pending_races = select(races.c.id, races.c.guild_id, races.c.finished_at, literal(0, BigInteger)).where(
        races.c.status == "finished", ~_taken("race", races.c.id))
    points = select(func.coalesce(total(games.c.score), 0)).where(
        *scored_rounds(match_players.c.match_id, match_players.c.user_id)).scalar_subquery()
    dealt = exists().where(games.c.match_id == match_players.c.match_id, games.c.user_id == match_players.c.user_id)
    match_entrants = select(match_players.c.match_id, match_players.c.user_id, points, match_players.c.team_id).where(
        match_players.c.match_id.in_(pending_matches.with_only_columns(matches.c.id).scalar_subquery()), dealt)
    race_entrants = select(race_players.c.race_id, race_players.c.user_id, race_players.c.score, null()).where(
        race_players.c.race_id.in_(pending_races.with_only_columns(races.c.id).scalar_subquery()),
        race_players.c.score.is_not(None))
    contests = []
    for kind, events, entrants in (("match", pending_matches, match_entrants), ("race", pending_races, race_entrants)):
        by_event: dict[int, list[Entrant]] = {}
        for event_id, user_id, score, team_id in await tx.fetch_all(entrants):
            by_event.setdefault(event_id, []).append(Entrant(user_id, score, team_id))
        for event_id, guild_id, finished_at, teams in await tx.fetch_all(events):
            entered = sorted(by_event.get(event_id, ()), key=lambda entrant: entrant.user_id)
            contests.append(Contest(kind, event_id, guild_id, finished_at or 0.0, bool(teams), tuple(entered)))
    return sorted(contests, key=lambda contest: (contest.finished_at, contest.kind, contest.event_id))


async def _skills(tx: Queries, users: list[int]) -> dict[int, Skill]:
    """The ratings now of those of `users` rated before, with their rated games."""
    skills = {}
    for first in range(0, len(users), USERS_AT_ONCE):
        some = users[first:first + USERS_AT_ONCE]
        last = (select(rating_changes.c.user_id, func.max(rating_changes.c.seq).label("seq"),
                       func.count().label("games"))
                .where(rating_changes.c.user_id.in_(some)).group_by(rating_changes.c.user_id).subquery())
        for user_id, mu, sigma, rated_games in await tx.fetch_all(
                select(last.c.user_id, rating_changes.c.mu, rating_changes.c.sigma, last.c.games)
                .select_from(last.join(rating_changes, (rating_changes.c.user_id == last.c.user_id)
                                       & (rating_changes.c.seq == last.c.seq)))):
            skills[user_id] = Skill(mu, sigma, rated_games)
    return skills
