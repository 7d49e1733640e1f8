"""The repository interface: what the play layer asks of storage, whatever the database."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

STATUSES = ("playing", "won", "blocked", "resigned")


class StoreError(Exception):
    """Storage failed or holds something it should not."""


class VersionConflict(StoreError):
    """The game changed since it was read: someone else's move came first."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its deal, options and moves, with who plays it where."""

    id: int
    guild_id: int | None
    channel_id: int | None
    user_id: int
    name: str
    options: dict[str, Any]
    deal: int | None
    cards: str | None
    moves: list[str] = field(default_factory=list)
    snapshot: str | None = None
    version: int = 0
    status: str = "playing"
    score: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    kind: str = "solo"
    match_id: int | None = None
    round: int | None = None
    undo_allowed: bool = True
    finished_at: float | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """What it takes to store a new game."""

    guild_id: int | None
    channel_id: int | None
    user_id: int
    name: str
    options: dict[str, Any]
    deal: int | None
    cards: str | None
    snapshot: str | None
    score: int
    kind: str = "solo"  # solo, match (a round) or daily
    match_id: int | None = None
    round: int | None = None
    undo_allowed: bool = True


class TeamProblem(StrEnum):
    """Why a team action was refused."""

    IN_A_TEAM = "in-a-team"  # the member is in a team on this server already (`name` when known)
    NAME_TAKEN = "name-taken"  # a team has that name, or the member joined one meanwhile
    NO_SUCH_TEAM = "no-such-team"
    JOINED_MEANWHILE = "joined-meanwhile"  # the member joined another team at the same moment


class TeamError(StoreError):
    """A team action refused: `problem`, with the team `name` it is about (or None)."""

    def __init__(self, problem: TeamProblem, name: str | None = None) -> None:
        super().__init__(problem, name)
        self.problem = problem
        self.name = name


@dataclass(frozen=True, slots=True)
class Team:
    """A server's team."""

    id: int
    guild_id: int
    name: str
    members: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class NewMatch:
    """What it takes to open a match."""

    guild_id: int | None
    channel_id: int
    host_id: int
    game: str
    options: dict[str, Any]
    target: int
    teams: bool
    undo: bool
    seed: int


@dataclass(frozen=True, slots=True)
class Match:
    """A match: its settings, its state, and where its scoreboard is."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    game: str
    options: dict[str, Any]
    target: int
    teams: bool
    undo: bool
    seed: int
    status: str  # lobby, running, finished, cancelled, expired
    message_id: int | None
    winner_user_id: int | None
    winner_team_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    last_activity: float


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """A player in a match, with the points and rounds of their finished rounds."""

    user_id: int
    name: str
    team_id: int | None
    points: int
    rounds: int
    left: bool
    game_id: int | None  # the round in play, if any


class RaceError(StoreError):
    """A race that cannot seat a player: `full` (with `seats` taken), else no longer in its lobby."""

    def __init__(self, *, full: bool = False, seats: int = 0) -> None:
        super().__init__(full, seats)
        self.full = full
        self.seats = seats


@dataclass(frozen=True, slots=True)
class NewRace:
    """What it takes to open a race."""

    guild_id: int | None
    channel_id: int
    host_id: int
    layout: str
    deal: int
    target: int | None = None  # a series of hands to this many points


@dataclass(frozen=True, slots=True)
class Race:
    """A demon race as stored: its players by seat (the engine's player numbers) and its moves
    as '<seat>:<move>' in the order received."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    layout: str
    deal: int
    status: str
    moves: list[str]
    version: int
    message_id: int | None
    demon_user_id: int | None
    players: list[int]
    scores: list[int]
    created_at: float
    started_at: float | None
    finished_at: float | None
    target: int | None = None
    series_id: int = 0
    hand: int = 1


class Store(Protocol):
    """Persistence for games, players and server settings."""

    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Disconnect."""

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game (version 0, status playing) and return it."""

    async def get_game(self, game_id: int) -> StoredGame | None:
        """The game with this id, or None."""

    async def running_game(self, user_id: int, channel_id: int | None, kind: str | None = None
                           ) -> StoredGame | None:
        """The game in play of this player in this channel that moved last (of one kind, if
        given), or None."""

    async def save_game(self, game_id: int, *, expected_version: int, moves: list[str], snapshot: str | None,
                        status: str, score: int) -> StoredGame:
        """Store the game's new moves and state, one version on (and when it ends, the time);
        VersionConflict when the stored version is not `expected_version` (nothing is written)."""

    async def count_games(self) -> int:
        """How many games are stored."""

    async def all_games(self) -> list[StoredGame]:
        """Every stored game, by id (for checks and tools)."""

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a player's display name."""

    async def get_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings."""

    async def set_setting(self, guild_id: int, key: str, value: str) -> None:
        """Change one of a server's settings."""

    # --- teams and matches (bot/store/matches.py) ---------------------------------

    async def create_team(self, guild_id: int, name: str, user_id: int) -> Team:
        """A new team with its creator in it; TeamError if the name is taken or the creator
        is already in a team on this server."""

    async def join_team(self, guild_id: int, name: str, user_id: int) -> Team:
        """Put a member in a team; TeamError if there is no such team or they are in another."""

    async def leave_team(self, guild_id: int, user_id: int) -> Team | None:
        """Take a member out of their team (an emptied team is deleted); the team, or None."""

    async def team_of(self, guild_id: int, user_id: int) -> Team | None:
        """The member's team on this server, or None."""

    async def get_team(self, team_id: int) -> Team | None:
        """The team with this id, with its members, or None."""

    async def list_teams(self, guild_id: int) -> list[Team]:
        """The server's teams with their members, by name."""

    async def player_names(self, user_ids: list[int]) -> dict[int, str]:
        """The known display names of these players."""

    async def create_match(self, new: NewMatch, now: float) -> Match:
        """Open a match (status lobby)."""

    async def get_match(self, match_id: int) -> Match | None:
        """The match with this id, or None."""

    async def set_match_message(self, match_id: int, message_id: int) -> None:
        """Remember the match's lobby and scoreboard message."""

    async def add_match_player(self, match_id: int, user_id: int, team_id: int | None, now: float) -> None:
        """Put a player in a match (again, if they had left)."""

    async def leave_match(self, match_id: int, user_id: int, now: float) -> None:
        """Mark a player as gone from a match."""

    async def match_players(self, match_id: int) -> list[MatchPlayer]:
        """The match's players with the points and rounds of their finished rounds."""

    async def change_match_status(self, match_id: int, old: str, new: str, now: float,
                                  winner_user_id: int | None = None, winner_team_id: int | None = None) -> bool:
        """Move a match from status `old` to `new` (with its winner); False, and nothing
        written, when it is no longer in `old` (so only one caller can finish a match)."""

    async def close_match_rounds(self, match_id: int, now: float) -> list[int]:
        """End the match's rounds still in play as resigned and closed (scored nowhere); their ids."""

    async def touch_match(self, match_id: int, now: float) -> None:
        """Note activity in a match (a move in one of its rounds)."""

    async def idle_matches(self, before: float) -> list[Match]:
        """Matches in the lobby or running with no activity since `before`."""

    async def expire_match(self, match_id: int, before: float, now: float) -> bool:
        """Expire a match still idle since `before`; False when it moved meanwhile or ended."""

    async def lobby_of(self, channel_id: int, host_id: int) -> Match | None:
        """The match a host has in its lobby in a channel, if any."""

    # --- daily challenges, leaderboards, stats (bot/store/stats.py) ----------------

    async def create_race(self, new: NewRace) -> Race:
        """A new race in its lobby, its host in seat 0."""

    async def get_race(self, race_id: int) -> Race | None:
        """A race with its players by seat, or None."""

    async def join_race(self, race_id: int, user_id: int) -> Race:
        """Seat a player in a race's lobby; RaceError when it is full or has started."""

    async def start_race(self, race_id: int) -> bool:
        """Lobby to running; False when it was not in its lobby."""

    async def save_race_moves(self, race_id: int, *, expected_version: int, moves: list[str]) -> int:
        """Store a running race's moves; the new version; VersionConflict when it changed meanwhile."""

    async def finish_race(self, race_id: int, *, demon_user_id: int | None, scores: list[int],
                          version: int | None = None) -> bool:
        """Running to finished with every seat's score; False when it was not running (or had
        changed since `version`, when given)."""

    async def next_hand(self, race: Race, deal: int) -> Race:
        """The next hand of a series: the same players and seats, running at once."""

    async def series_totals(self, series_id: int) -> dict[int, int]:
        """Each player's points over the finished hands of a series."""

    async def cancel_race(self, race_id: int, *, version: int | None = None) -> bool:
        """Lobby to cancelled; False when it had started or ended (or had changed since
        `version`, when given)."""

    async def idle_races(self, before: float) -> list[Race]:
        """Races in their lobby or running that have not changed since `before`."""

    async def set_race_message(self, race_id: int, message_id: int) -> None:
        """Remember the race's public board message."""

    async def running_race(self, channel_id: int, user_id: int) -> Race | None:
        """The race a player is in (lobby or running) in a channel."""

    async def daily_attempt(self, day: str, game: str, user_id: int) -> DailyAttempt | None:
        """The player's attempt at that day's daily of `game`, with its game's state, or None."""

    async def claim_daily(self, day: str, game: str, user_id: int, guild_id: int | None, game_id: int) -> int:
        """Record game `game_id` (just created, unplayed) as the player's attempt at that day's
        daily; the id of the attempt's game. When they have an attempt already (two starts at
        once), the new game is deleted and the existing attempt's game id is returned."""

    async def daily_results(self, game: str, guild_id: int | None, first_day: str | None,
                            last_day: str) -> list[DailyResult]:
        """The attempts at the dailies of `game` from `first_day` (None: the first ever) to
        `last_day`, played on this server (None: anywhere), with their games' state: finished
        games first, by score, then by the earlier finish; games in play after them."""

    async def daily_days(self, *, guild_id: int | None = None, user_id: int | None = None) -> list[DailyDay]:
        """Every day each player made a daily attempt, and whether they won a daily that day, by
        player and day: for the players with an attempt on this server (None: anywhere), or for one
        player. A player's days are all theirs, on any server: a streak is personal."""

    async def player_standings(self, guild_id: int | None, since: float | None) -> list[PlayerStanding]:
        """Every player with a game finished, or a match won, on this server (None: all) since
        `since` (None: ever): by points, then wins, then name."""

    async def team_standings(self, guild_id: int | None, since: float | None) -> list[TeamStanding]:
        """The server's teams (None: every server's) with their match points and matches won
        since `since` (None: ever): by matches won, then points, then name."""

    async def player_totals(self, user_id: int, guild_id: int | None) -> PlayerTotals:
        """A player's finished games, and the matches they played (that started) and won (they, or
        their team), on this server (None: all servers)."""


# --- daily challenges, leaderboards, stats: what the queries above return ---------------------


@dataclass(frozen=True, slots=True)
class DailyAttempt:
    """A player's attempt at a day's daily, with its game's state."""

    day: str
    game: str
    user_id: int
    guild_id: int | None
    game_id: int
    status: str
    score: int
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class DailyResult:
    """An attempt at a daily, as its leaderboard shows it."""

    day: str
    user_id: int
    name: str
    status: str
    score: int
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class DailyDay:
    """A day on which a player made a daily attempt; `won` if they won a daily that day."""

    user_id: int
    name: str
    day: str
    won: bool


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """A player's line on the players' leaderboard."""

    user_id: int
    name: str
    games: int
    wins: int
    points: int
    matches_won: int


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A team's line on the teams' leaderboard."""

    team_id: int
    name: str
    matches_won: int
    points: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A player's finished games and matches: what their stats are made of."""

    user_id: int
    name: str | None
    games: int
    wins: int
    best_score: int | None
    average_score: float | None
    matches_played: int
    matches_won: int
