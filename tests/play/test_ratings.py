"""Players' ratings (bot.play.ratings) on a real database (SQLite, then PostgreSQL): matches and
races played through the play layer or stored as the store stores them, rated in the order they
finished, each once, as OpenSkill rates the same events by hand; the rating board and /stats."""

from __future__ import annotations

import asyncio
import random

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select

from bot.play import Player, SoloPlay
from bot.play.events import NothingToDo
from bot.play.leaderboards import Leaderboards, rating_rows
from bot.play.matches import MatchPlay
from bot.play.race import RacePlay
from bot.play.ratings import PROVISIONAL_GAMES, Ratings, player_rating, ranks, rate_contest, shown_rating
from bot.store import Store, open_store
from bot.store.base import Contest, Entrant, NewRace, RatingStanding, Skill
from bot.store.migrate import alembic_config, head
from bot.store.tables import rated_events, rating_changes
from tests.game.test_race import stuck_deck, won_deck
from tests.play.test_daily import FakeClock, at
from tests.play.test_matches import WINNING_LINE, WON_DECK

ALICE, BOB, CAROL, DAVE, ERIN = (Player(1, "alice"), Player(2, "bob"), Player(3, "carol"), Player(4, "dave"),
                                 Player(5, "erin"))
GUILD, OTHER_GUILD, CHANNEL = 5, 6, 10
MODEL = PlackettLuce()


class World:
    """The store, the play layer and the boards on one clock; ratings listen to matches and races
    unless told not to (a database from before ratings)."""

    def __init__(self, store: Store, clock: FakeClock, *, listening: bool = True) -> None:
        self.store, self.clock = store, clock
        self.solo = SoloPlay(store, clock=clock)
        self.matches = MatchPlay(store, self.solo, clock, decks=lambda match, round_number: WON_DECK,
                                 rng=random.Random(2026))
        # Race 77: Bob (seat 1) goes out, nobody else ever moves.
        self.races = RacePlay(store, clock, decks=lambda race: [won_deck() if seat == 1 else stuck_deck()
                                                                for seat in range(len(race.players))])
        self.ratings = Ratings(store)
        self.boards = Leaderboards(store, clock)
        if listening:
            self.matches.listeners.append(self.ratings)
            self.races.listeners.append(self.ratings)

    async def match(self, host: Player, *others: Player, teams: bool = False, win: bool = True,
                    resign: tuple[Player, ...] = ()) -> int:
        """A match of `host` and `others` (in a team match, each in their team already), started;
        those in `resign` resign their first round (-12), then the host wins theirs (352) and the
        match, unless `win` is False (then it is cancelled)."""
        match_id = (await self.matches.open(host, guild_id=GUILD, channel_id=CHANNEL, target=100,
                                            teams=teams)).match.id
        for player in others:
            await self.matches.join(match_id, player)
        await self.matches.start(match_id, host)
        for player in resign:
            await self.solo.resign((await self.matches.my_board(match_id, player)).game_id, player)
        if win:
            await self.solo.move((await self.matches.my_board(match_id, host)).game_id, host, WINNING_LINE)
        else:
            await self.matches.cancel(match_id, host)
        return match_id

    async def race_won_by_bob(self, host: Player, *others: Player) -> int:
        """A race of `host` and `others` (Bob in seat 1) that Bob goes out of: 62 points, 0 for the rest."""
        race_id = (await self.races.open(host, guild_id=GUILD, channel_id=CHANNEL, deal=77)).race.id
        for player in others:
            await self.races.join(race_id, player)
        await self.races.start(race_id, host)
        reply = await self.races.board(race_id, BOB)
        while reply.race.status == "running":
            reply = await self.races.move(race_id, BOB, "a")
            if reply.events == (NothingToDo(),):
                reply = await self.races.move(race_id, BOB, "d")
        return race_id

    async def stored_race(self, scores: dict[Player, int], guild_id: int = GUILD) -> int:
        """A race hand stored as the store stores one, finished now with these scores."""
        seated = list(scores)
        for player in seated:
            await self.store.games.upsert_player(player.id, player.name)
        race = await self.store.races.create_race(NewRace(guild_id=guild_id, channel_id=CHANNEL,
                                                          host_id=seated[0].id, layout="klondike", deal=1))
        for player in seated[1:]:
            await self.store.races.join_race(race.id, player.id)
        assert await self.store.races.start_race(race.id)
        assert await self.store.races.finish_race(race.id, demon_user_id=None, scores=[scores[p] for p in seated])
        return race.id

    async def shown(self, player: Player) -> int:
        """The player's rating as shown (they have one)."""
        rating = await player_rating(self.store, player.id)
        assert rating is not None
        return rating.rating


@pytest.fixture
async def world(database_url):
    clock = FakeClock(at("2024-05-08 12:00"))  # a Wednesday
    store = await open_store(database_url, clock)
    yield World(store, clock)
    await store.close()


def by_hand(*events: tuple[list[list[Player]], list[int]]) -> dict[int, tuple[float, float]]:
    """Every player's mu and sigma after OpenSkill's Plackett-Luce rates these events in this order
    (each its sides, and their ranks)."""
    ratings: dict[int, object] = {}
    for sides, places in events:
        teams = [[ratings.get(p.id) or MODEL.rating() for p in side] for side in sides]
        for side, rated in zip(sides, MODEL.rate(teams, ranks=places), strict=True):  # type: ignore[arg-type]
            for player, rating in zip(side, rated, strict=True):
                ratings[player.id] = rating
    return {user: (rating.mu, rating.sigma) for user, rating in ratings.items()}  # type: ignore[attr-defined]


async def stored_ratings(store: Store) -> dict[int, tuple[float, float, int]]:
    """Every rated player's mu, sigma and rated games, as stored."""
    found = {}
    users = await store.db.fetch_all(select(rating_changes.c.user_id).distinct())
    for (user_id,) in users:
        last = await store.ratings.last_change(user_id)
        assert last is not None
        found[user_id] = (last.after.mu, last.after.sigma, last.after.games)
    return found


def approx(expected: dict[int, tuple[float, float]]) -> dict[int, object]:
    return {user: pytest.approx(values) for user, values in expected.items()}


# --- on data -----------------------------------------------------------------------------------


def test_ranks_go_by_points_higher_first_and_ties_share_a_rank() -> None:
    assert ranks([5, 9, 5, -12]) == [2, 1, 2, 4]
    assert ranks([0, 0]) == [1, 1]


def test_a_new_player_shows_1000_and_the_ordinal_is_scaled_by_40() -> None:
    assert shown_rating(Skill(25, 25 / 3)) == 1000
    assert shown_rating(Skill(30, 5)) == 1000 + 40 * 15
    assert shown_rating(Skill(20, 8)) == 1000 - 40 * 4
    assert shown_rating(Skill(25.31, 8.3)) == 1016  # 1000 + 40 × 0.41, rounded


def test_a_free_for_all_is_rated_by_final_points_as_openskill_rates_it() -> None:
    contest = Contest("match", 1, GUILD, 100.0, False, (Entrant(ALICE.id, 352), Entrant(BOB.id, -12),
                                                         Entrant(CAROL.id, 0)))
    changes = rate_contest(contest, {BOB.id: Skill(30, 4, 7)})
    bob = MODEL.rating(mu=30, sigma=4)
    expected = by_hand_from({BOB.id: bob}, [[ALICE], [BOB], [CAROL]], [1, 3, 2])
    assert {c.user_id: (c.after.mu, c.after.sigma) for c in changes} == approx(expected)
    assert {c.user_id: (c.before.games, c.after.games) for c in changes} == {ALICE.id: (0, 1), BOB.id: (7, 8),
                                                                               CAROL.id: (0, 1)}
    assert all((c.kind, c.event_id, c.guild_id, c.rated_at) == ("match", 1, GUILD, 100.0) for c in changes)
    assert changes[1].before == Skill(30, 4, 7) and changes[0].before == Skill(25, 25 / 3, 0)


def by_hand_from(known: dict[int, object], sides: list[list[Player]], places: list[int]
                 ) -> dict[int, tuple[float, float]]:
    teams = [[known.get(p.id) or MODEL.rating() for p in side] for side in sides]
    rated = MODEL.rate(teams, ranks=places)  # type: ignore[arg-type]
    return {p.id: (r.mu, r.sigma) for side, new in zip(sides, rated, strict=True)
            for p, r in zip(side, new, strict=True)}


def test_a_team_match_rates_each_member_through_their_teams_points() -> None:
    # Reds (Alice 352, Carol -12: 340) beat Blues (Bob 0, Dave 100: 100); Erin in no team is left out.
    contest = Contest("match", 2, GUILD, 1.0, True, (
        Entrant(ALICE.id, 352, 7), Entrant(BOB.id, 0, 8), Entrant(CAROL.id, -12, 7), Entrant(DAVE.id, 100, 8),
        Entrant(ERIN.id, 500, None)))
    changes = rate_contest(contest, {})
    expected = by_hand_from({}, [[ALICE, CAROL], [BOB, DAVE]], [1, 2])
    assert {c.user_id: (c.after.mu, c.after.sigma) for c in changes} == approx(expected)
    assert changes[0].after.mu > 25 > changes[-1].after.mu


def test_fewer_than_two_sides_are_not_rated() -> None:
    assert rate_contest(Contest("race", 1, None, 1.0, False, (Entrant(ALICE.id, 5),)), {}) == []
    one_team = (Entrant(ALICE.id, 5, 7), Entrant(BOB.id, 9, 7))
    assert rate_contest(Contest("match", 1, None, 1.0, True, one_team), {}) == []


def test_the_board_ranks_by_rating_then_more_games_then_name() -> None:
    lines = [RatingStanding(1, "bob", 30, 5, 2, 2), RatingStanding(2, "Alice", 30, 5, 2, 9),
             RatingStanding(3, "carol", 30, 5, 3, 3), RatingStanding(4, "dave", 31, 5, 1, 1)]
    assert rating_rows(lines) == [("dave", 1040 + 600, 1, True), ("carol", 1600, 3, True),
                                  ("Alice", 1600, 2, False), ("bob", 1600, 2, True)]


# --- on a database -----------------------------------------------------------------------------


async def test_matches_and_races_are_rated_as_they_end_in_order(world: World) -> None:
    await world.match(ALICE, BOB, CAROL, resign=(BOB,))  # Alice 352, Carol 0 (a round dealt), Bob -12
    world.clock.advance(60)
    await world.race_won_by_bob(ALICE, BOB, CAROL)  # Bob 62, Alice and Carol 0
    expected = by_hand(([[ALICE], [CAROL], [BOB]], [1, 2, 3]), ([[ALICE], [BOB], [CAROL]], [2, 1, 2]))
    stored = await stored_ratings(world.store)
    assert {user: (mu, sigma) for user, (mu, sigma, _) in stored.items()} == approx(expected)
    assert {user: games for user, (_, _, games) in stored.items()} == {ALICE.id: 2, BOB.id: 2, CAROL.id: 2}
    assert await world.ratings.catch_up() == []  # each once


async def test_cancelled_and_lone_matches_are_not_rated(world: World) -> None:
    await world.match(ALICE, BOB, win=False)
    await world.match(DAVE)  # won alone
    assert await stored_ratings(world.store) == {}
    assert await world.store.db.fetch_value(select(func.count()).select_from(rated_events)) == 1  # the lone win
    assert await player_rating(world.store, DAVE.id) is None


async def test_a_team_match_rates_members_through_their_team(world: World) -> None:
    await world.store.matches.create_team(GUILD, "Reds", ALICE.id)
    await world.store.matches.join_team(GUILD, "Reds", CAROL.id)
    await world.store.matches.create_team(GUILD, "Blues", BOB.id)
    await world.match(ALICE, BOB, CAROL, teams=True, resign=(CAROL,))  # Reds 352 - 12, Blues 0
    expected = by_hand(([[ALICE, CAROL], [BOB]], [1, 2]))
    assert {u: (mu, sigma) for u, (mu, sigma, _) in (await stored_ratings(world.store)).items()} == approx(expected)
    assert await world.shown(ALICE) == await world.shown(CAROL) > 1000 > await world.shown(BOB)


async def test_a_database_from_before_ratings_rates_its_stored_events_in_the_order_they_finished(
        database_url) -> None:
    clock = FakeClock(at("2024-05-08 12:00"))
    store = await open_store(database_url, clock)
    old = World(store, clock, listening=False)
    await store.matches.create_team(GUILD, "Reds", ALICE.id)
    await store.matches.join_team(GUILD, "Reds", CAROL.id)
    await store.matches.create_team(GUILD, "Blues", BOB.id)
    await store.matches.join_team(GUILD, "Blues", DAVE.id)
    # The team match opens first and ends last: events are rated in the order they finished.
    team_match = (await old.matches.open(BOB, guild_id=GUILD, channel_id=CHANNEL + 1, target=100,
                                         teams=True)).match.id
    for player in (ALICE, CAROL, DAVE):
        await old.matches.join(team_match, player)
    await old.matches.start(team_match, BOB)
    clock.advance(60)
    await old.match(ALICE, BOB, CAROL, resign=(BOB,))  # Alice, then Carol, then Bob
    clock.advance(60)
    await old.race_won_by_bob(ALICE, BOB, CAROL)  # Bob, then Alice and Carol tied
    clock.advance(60)
    await old.solo.move((await old.matches.my_board(team_match, BOB)).game_id, BOB, WINNING_LINE)  # Blues win
    clock.advance(60)
    await old.match(CAROL, DAVE, win=False)  # cancelled
    await old.match(ERIN)  # won alone
    assert await stored_ratings(store) == {}
    await store.close()

    # The database goes back to the revision before ratings, as if made by the release before.
    down = _revision_before_ratings()
    store = await open_store(database_url, clock)
    async with store.db.transaction() as tx:
        for table in ("rating_changes", "rated_events", "web_links"):  # the ratings' and every later revision's
            await tx.driver_sql(f"DROP TABLE {table}")
        await tx.driver_sql(f"UPDATE alembic_version SET version_num = '{down}'")
    await store.close()

    store = await open_store(database_url, clock)  # upgraded: the ratings' tables, empty
    assert await store.schema_version() == head()
    changes = await Ratings(store).catch_up()
    expected = by_hand(([[ALICE], [CAROL], [BOB]], [1, 2, 3]), ([[ALICE], [BOB], [CAROL]], [2, 1, 2]),
                       ([[BOB, DAVE], [ALICE, CAROL]], [1, 2]))
    stored = await stored_ratings(store)
    assert {user: (mu, sigma) for user, (mu, sigma, _) in stored.items()} == approx(expected)
    assert {user: games for user, (_, _, games) in stored.items()} == {ALICE.id: 3, BOB.id: 3, CAROL.id: 3,
                                                                       DAVE.id: 1}
    assert [(c.kind, c.event_id, c.user_id) for c in changes][-4:] == [
        ("match", team_match, ALICE.id), ("match", team_match, CAROL.id), ("match", team_match, BOB.id),
        ("match", team_match, DAVE.id)]
    assert await Ratings(store).catch_up() == []
    await store.close()


def _revision_before_ratings() -> str:
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(alembic_config()).get_revision("0012_ratings")
    assert revision is not None and isinstance(revision.down_revision, str)
    return revision.down_revision


async def test_two_processes_catching_up_at_once_rate_each_event_once_in_order(world: World,
                                                                                database_url) -> None:
    for number in range(6):
        world.clock.advance(60)
        await world.stored_race({ALICE: number, BOB: 3, CAROL: 6 - number})
    other = await open_store(database_url, world.clock)  # a second process on the same database
    try:
        here, there = await asyncio.gather(Ratings(world.store).catch_up(), Ratings(other).catch_up())
    finally:
        await other.close()
    assert sorted([len(here), len(there)]) == [0, 18]
    seqs = await world.store.db.fetch_all(select(rated_events.c.seq).order_by(rated_events.c.seq))
    assert [seq for (seq,) in seqs] == list(range(1, 7))
    assert await world.store.db.fetch_value(select(func.count()).select_from(rating_changes)) == 18
    expected = by_hand(*(([[ALICE], [BOB], [CAROL]], ranks([n, 3, 6 - n])) for n in range(6)))
    stored = await stored_ratings(world.store)
    assert {user: (mu, sigma) for user, (mu, sigma, _) in stored.items()} == approx(expected)


async def test_the_rating_board_over_periods_and_servers(world: World) -> None:
    world.clock.set("2024-05-05 20:00")  # Sunday: last week
    await world.stored_race({ALICE: 10, BOB: 0})
    await world.stored_race({DAVE: 10, ERIN: 0}, guild_id=OTHER_GUILD)
    world.clock.set("2024-05-07 20:00")  # this week, yesterday
    await world.stored_race({ALICE: 10, BOB: 0})
    world.clock.set("2024-05-08 09:00")  # today
    await world.stored_race({CAROL: 10, BOB: 0})
    await world.ratings.catch_up()
    world.clock.set("2024-05-08 12:00")

    async def board(period: str, guild_id: int | None = GUILD) -> list[tuple[object, ...]]:
        page = await world.boards.page("rating", period, guild_id)
        assert page.columns == ("rank", "player", "rating", "games", "provisional")
        return page.rows

    shown = {p.name: await world.shown(p) for p in (ALICE, BOB, CAROL, DAVE, ERIN)}
    assert shown["alice"] > shown["dave"] > shown["carol"] > 1000 > shown["erin"] > shown["bob"]
    assert await board("all") == [(1, "alice", shown["alice"], 2, True), (2, "carol", shown["carol"], 1, True),
                                  (3, "bob", shown["bob"], 3, True)]
    assert [row[1] for row in await board("all", None)] == ["alice", "dave", "carol", "erin", "bob"]
    assert [row[1] for row in await board("all", OTHER_GUILD)] == ["dave", "erin"]
    assert [row[1:4] for row in await board("week")] == [("alice", shown["alice"], 1), ("carol", shown["carol"], 1),
                                                         ("bob", shown["bob"], 2)]
    assert [row[1] for row in await board("today")] == ["carol", "bob"]
    assert await board("today", OTHER_GUILD) == []
    # Up to a time (a season's end): each player's rating after their last rated game before it.
    before_today = await world.store.ratings.standings(GUILD, at("2024-05-06 00:00"), at("2024-05-08 00:00"))
    assert [(s.name, s.games, s.rated_games) for s in before_today] == [("alice", 1, 2), ("bob", 1, 2)]
    bob_yesterday = next(s for s in before_today if s.name == "bob")
    assert shown_rating(Skill(bob_yesterday.mu, bob_yesterday.sigma)) > shown["bob"]


async def test_a_rating_is_provisional_until_five_rated_games_and_stats_show_it(world: World) -> None:
    stats = await world.boards.stats(ALICE.id, GUILD)
    assert stats.rating is None
    for number in range(PROVISIONAL_GAMES):
        world.clock.advance(60)
        before = await world.shown(ALICE) if number else 1000
        await world.stored_race({ALICE: 10, BOB: 0})
        await world.ratings.catch_up()
        rating = (await world.boards.stats(ALICE.id, GUILD)).rating
        assert rating is not None and rating.games == number + 1
        assert rating.provisional == (number + 1 < PROVISIONAL_GAMES)
        assert rating.change == rating.rating - before and rating.change > 0
    rows = (await world.boards.page("rating", "all", None)).rows
    assert [(row[1], row[4]) for row in rows] == [("alice", False), ("bob", False)]
