"""The store's tables, declared once for SQLite and PostgreSQL: the schema that Alembic's revisions
(bot/store/alembic) create in an empty database, the baseline (migration 0006's) and those after it."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    func,
    text,
)

metadata = MetaData()

# Discord ids need 64 bits: BIGINT in PostgreSQL (SQLite's INTEGER holds 64 bits already). A row id
# is SQLite's `INTEGER PRIMARY KEY AUTOINCREMENT` and PostgreSQL's identity column.
Id = BigInteger().with_variant(Integer(), "sqlite")
Time = Double()  # seconds since the epoch


def _id() -> Column:
    return Column("id", Id, primary_key=True, autoincrement=True)


players = Table(
    "players", metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("name", Text, nullable=False),
    Column("updated_at", Time, nullable=False),
)

teams = Table(
    "teams", metadata,
    _id(),
    Column("guild_id", BigInteger, nullable=False),
    # SQLite compares names without case (COLLATE NOCASE); in both, teams_by_name keeps them unique so.
    Column("name", Text().with_variant(Text(collation="NOCASE"), "sqlite"), nullable=False),
    Column("created_by", BigInteger, nullable=False),
    Column("created_at", Time, nullable=False),
    UniqueConstraint("guild_id", "name"),
    sqlite_autoincrement=True,
)
Index("teams_by_name", teams.c.guild_id, func.lower(teams.c.name), unique=True)

team_members = Table(
    "team_members", metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("team_id", Id, ForeignKey("teams.id", ondelete="CASCADE"), nullable=False),
    Column("joined_at", Time, nullable=False),
    PrimaryKeyConstraint("guild_id", "user_id"),  # at most one team per member per server
)

matches = Table(
    "matches", metadata,
    _id(),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger, nullable=False),
    Column("host_id", BigInteger, nullable=False),
    Column("game", Text, nullable=False),
    Column("options", Text, nullable=False),  # JSON: the engine options of every round
    Column("target", BigInteger, nullable=False),
    Column("teams", BigInteger, nullable=False, server_default=text("0")),
    Column("undo", BigInteger, nullable=False, server_default=text("0")),
    Column("seed", BigInteger, nullable=False),  # round k's deal is derived from it
    Column("status", Text, nullable=False, server_default=text("'lobby'")),
    Column("message_id", BigInteger),  # the lobby, then scoreboard, message in the channel
    Column("winner_user_id", BigInteger),
    Column("winner_team_id", Id, ForeignKey("teams.id")),
    Column("created_at", Time, nullable=False),
    Column("started_at", Time),
    Column("finished_at", Time),
    Column("last_activity", Time, nullable=False),
    CheckConstraint("status IN ('lobby', 'running', 'finished', 'cancelled', 'expired')"),
    sqlite_autoincrement=True,
)
Index("matches_by_status", matches.c.status, matches.c.last_activity)

games = Table(
    "games", metadata,
    _id(),
    Column("guild_id", BigInteger),  # NULL outside a server (a DM, the terminal)
    Column("channel_id", BigInteger),
    Column("user_id", BigInteger, nullable=False),
    Column("name", Text, nullable=False),  # the game, such as 'canfield'
    Column("options", Text, nullable=False),  # JSON: draw, redeals, groups, die
    Column("deal", BigInteger),  # a PySolFC game number, or NULL with cards
    Column("cards", Text),  # an explicit deck, two characters a card
    Column("moves", Text, nullable=False, server_default=text("''")),  # canonical moves, space-separated
    Column("snapshot", Text),  # the position after the moves, to rebuild fast
    Column("version", BigInteger, nullable=False, server_default=text("0")),  # one more at every change
    Column("status", Text, nullable=False, server_default=text("'playing'")),
    Column("score", BigInteger, nullable=False, server_default=text("0")),
    Column("created_at", Time, nullable=False),
    Column("updated_at", Time, nullable=False),
    Column("kind", Text, nullable=False, server_default=text("'solo'")),
    Column("match_id", Id, ForeignKey("matches.id")),
    Column("round", BigInteger),
    Column("undo_allowed", BigInteger, nullable=False, server_default=text("1")),
    Column("finished_at", Time),  # set when the status leaves 'playing'
    Column("closed", BigInteger, nullable=False, server_default=text("0")),  # a round its match's end closed
    Column("hints", BigInteger, nullable=False, server_default=text("0")),  # hints its player asked for
    Column("undos", BigInteger, nullable=False, server_default=text("0")),  # moves its player took back
    Column("foundation_cards", BigInteger),  # cards on the foundations as last stored (NULL: stored before 0009)
    CheckConstraint("status IN ('playing', 'won', 'blocked', 'resigned')"),
    CheckConstraint("kind IN ('solo', 'match', 'daily')"),
    sqlite_autoincrement=True,
)
Index("games_running", games.c.user_id, games.c.channel_id, games.c.status)
Index("games_finished", games.c.guild_id, games.c.status, games.c.finished_at)
Index("games_by_match", games.c.match_id, games.c.user_id)
Index("games_by_deal", games.c.deal)  # copies of a live deal (bot/play/secrecy.py)

# Where a finished game was lost (bot.game.analysis), worked out once per game.
analyses = Table(
    "analyses", metadata,
    Column("game_id", Id, ForeignKey("games.id"), primary_key=True, autoincrement=False),
    Column("verdict", Text, nullable=False),
    Column("lost_after", Integer),  # moves of the line after which the deal could no longer be won
    Column("losing_move", Text),  # canonical moves
    Column("better_move", Text),
    Column("created_at", Time, nullable=False),
    CheckConstraint("verdict IN ('lost', 'never', 'won', 'unknown')"),
)

guild_settings = Table(
    "guild_settings", metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("key", Text, nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("guild_id", "key"),
)

match_players = Table(
    "match_players", metadata,
    Column("match_id", Id, ForeignKey("matches.id"), nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("team_id", Id, ForeignKey("teams.id")),
    Column("joined_at", Time, nullable=False),
    Column("left_at", Time),
    PrimaryKeyConstraint("match_id", "user_id"),
)

daily_attempts = Table(
    "daily_attempts", metadata,
    Column("day", Text, nullable=False),  # the UTC date the game began, YYYY-MM-DD
    Column("game", Text, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("guild_id", BigInteger),  # the server it was played on (NULL in a DM)
    Column("game_id", Id, ForeignKey("games.id"), nullable=False),
    Column("shared", BigInteger, nullable=False, server_default=text("0")),  # 1 once its result card was posted
    PrimaryKeyConstraint("day", "game", "user_id"),  # one attempt per player per game per day
)
Index("daily_by_user", daily_attempts.c.user_id, daily_attempts.c.day)

races = Table(
    "races", metadata,
    _id(),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger, nullable=False),
    Column("host_id", BigInteger, nullable=False),
    Column("layout", Text, nullable=False, server_default=text("'klondike'")),
    Column("deal", BigInteger, nullable=False),  # player k's deck is derived from it
    Column("status", Text, nullable=False, server_default=text("'lobby'")),
    Column("moves", Text, nullable=False, server_default=text("''")),  # '<seat>:<move>' in the order received
    Column("version", BigInteger, nullable=False, server_default=text("0")),  # one more at every change
    Column("message_id", BigInteger),  # the public board in the channel
    Column("demon_user_id", BigInteger),  # who went out, if anyone
    Column("target", BigInteger),  # a series of hands to this many points; NULL: one hand
    Column("series_id", BigInteger),  # the first hand's id: every hand of a series shares it
    Column("hand", BigInteger, nullable=False, server_default=text("1")),
    Column("created_at", Time, nullable=False),
    Column("started_at", Time),
    Column("finished_at", Time),
    Column("last_activity", Time),  # when the race last changed: it expires after a day idle
    CheckConstraint("layout IN ('klondike', 'demon')"),
    CheckConstraint("status IN ('lobby', 'running', 'finished', 'cancelled')"),
    sqlite_autoincrement=True,
)

race_players = Table(
    "race_players", metadata,
    Column("race_id", Id, ForeignKey("races.id"), nullable=False),
    Column("seat", BigInteger, nullable=False),  # 0..7, in the order they joined: the engine's player
    Column("user_id", BigInteger, nullable=False),
    Column("joined_at", Time, nullable=False),
    Column("score", BigInteger),  # set when the race ends
    PrimaryKeyConstraint("race_id", "seat"),
    UniqueConstraint("race_id", "user_id"),
)

# The deployment's secrets, each made once at first use and the same for every process: `daily`
# derives the daily's deals (bot/play/daily.py). Never logged.
secrets = Table(
    "secrets", metadata,
    Column("name", Text, primary_key=True),
    Column("value", Text, nullable=False),
    Column("created_at", Time, nullable=False),
)

# The daily ritual's posts (bot/play/ritual.py), each made once whichever process comes first: a
# server's daily post of a day (kind 'daily', key: the server's local date, YYYY-MM-DD) and the
# standings of a season that ended (kind 'season', key: the season's name, its edges kept).
ritual_posts = Table(
    "ritual_posts", metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("kind", Text, nullable=False),
    Column("key", Text, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("message_id", BigInteger),  # NULL until posted
    Column("claimed_at", Time, nullable=False),  # when a process took it on (another may after a while)
    Column("shown", Text, nullable=False, server_default=text("''")),  # what the post last showed (edits)
    Column("starts", Time),  # a season's edges
    Column("ends", Time),
    PrimaryKeyConstraint("guild_id", "kind", "key"),
    CheckConstraint("kind IN ('daily', 'season')"),
)

# Members' daily streak reminders (`/remind daily`): on or off, and the last UTC day one was sent.
reminders = Table(
    "reminders", metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("daily", BigInteger, nullable=False, server_default=text("0")),  # 1: on
    Column("guild_id", BigInteger),  # where it was turned on: whose time zone the reminder speaks in
    Column("last_day", Text),  # the UTC day of the last reminder sent (or tried)
)
Index("reminders_on", reminders.c.daily, reminders.c.last_day)

# Ratings (bot/play/ratings.py). Every finished match and race hand the ratings have taken in, once
# each, whether it was rated or not (fewer than two sides: not), numbered in the order taken in.
rated_events = Table(
    "rated_events", metadata,
    Column("kind", Text, nullable=False),  # 'match' or 'race'
    Column("event_id", Id, nullable=False),  # the match's or the race's id
    Column("seq", BigInteger, nullable=False),  # its place in the order taken in: 1, 2, ...
    Column("rated", BigInteger, nullable=False),  # 1: its players' ratings changed
    PrimaryKeyConstraint("kind", "event_id"),
    UniqueConstraint("seq"),
    CheckConstraint("kind IN ('match', 'race')"),
)

# Each change of a player's rating (OpenSkill's mu and sigma before and after), one per player of
# a rated event: a player's rating is their latest change (by seq), their rated games the count of them.
rating_changes = Table(
    "rating_changes", metadata,
    Column("kind", Text, nullable=False),
    Column("event_id", Id, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("guild_id", BigInteger),  # the event's server (NULL outside one)
    Column("rated_at", Time, nullable=False),  # when the event finished
    Column("seq", BigInteger, nullable=False),  # the event's (rated_events.seq)
    Column("mu_before", Double, nullable=False),
    Column("sigma_before", Double, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    PrimaryKeyConstraint("kind", "event_id", "user_id"),
    CheckConstraint("kind IN ('match', 'race')"),
)
Index("rating_changes_by_user", rating_changes.c.user_id, rating_changes.c.seq)
Index("rating_changes_by_time", rating_changes.c.rated_at)

# Links to the web table opened (bot/play/links.py): a link's nonce, claimed once, when it was
# opened; so a link opens in one browser only.
web_links = Table(
    "web_links", metadata,
    Column("nonce", Text, primary_key=True),
    Column("user_id", BigInteger, nullable=False),
    Column("game_id", BigInteger, nullable=False),
    Column("opened_at", Time, nullable=False),
)
