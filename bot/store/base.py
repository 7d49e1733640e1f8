"""What the stores take and give, whatever the database: the data classes and the errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

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
    hints: int = 0  # hints its player asked for
    undos: int = 0  # moves its player took back
    foundation_cards: int | None = None  # cards on its foundations (None: stored before they were kept)


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """Where a finished game was lost, as stored (bot.game.analysis.Analysis, moves as text)."""

    game_id: int
    verdict: str
    lost_after: int | None
    losing_move: str | None
    better_move: str | None


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
    foundation_cards: int | None = None  # cards on its foundations as dealt
    created_at: float | None = None  # None: now, by the store's clock (a daily's: the time its day was read)


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


# --- daily challenges, leaderboards, stats: what bot/store/stats.py returns ---------------------


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
    hints: int = 0  # hints its player asked for (only `daily_of_game` reads them)
    shared: bool = False  # whether its result card was posted (only `daily_of_game` reads it)


@dataclass(frozen=True, slots=True)
class DealUse:
    """A daily or a match round dealt a given deck that may still be live (bot/play/secrecy.py):
    `name` its game; a daily's `day`, a round's `match_id` and `round`."""

    kind: str  # daily or match
    name: str
    day: str | None = None
    match_id: int | None = None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class DailyResult:
    """An attempt at a daily, as its leaderboard shows it."""

    day: str
    user_id: int
    name: str
    status: str
    score: int
    finished_at: float | None
    moves: int = 0
    seconds: float | None = None  # from its start to its finish (None while in play)


@dataclass(frozen=True, slots=True)
class DailyDay:
    """A day on which a player made a daily attempt at `game`; `won` if they won it."""

    user_id: int
    name: str
    day: str
    won: bool
    game: str = "canfield"


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """A player's line on the players' leaderboard."""

    user_id: int
    name: str
    games: int
    wins: int
    points: int
    matches_won: int
    clean_wins: int = 0


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
    clean_wins: int = 0


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A player's finished games of one game (None: race hands), as /stats shows them: played,
    won, clean wins, the best score; the average cards on the foundations and how many games
    that average is of (`counted_cards`: those whose cards are known), with those cards added up;
    and of the lost games, how many were analysed with an answer (the deal lost by a move, or
    never winnable) and how many of those could have been won."""

    game: str | None
    played: int
    wins: int
    clean_wins: int
    best_score: int | None
    average_cards: float | None
    counted_cards: int
    cards: int
    lost_analysed: int
    lost_winnable: int


@dataclass(frozen=True, slots=True)
class CasinoStanding:
    """A player's casino games whose cards on the foundations are known, and those cards added up."""

    user_id: int
    name: str
    games: int
    cards: int


# --- ratings: what bot/store/ratings.py takes and returns ------------------------------------------


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a finished match or race hand, as the ratings take them in: their final points
    (a match's) or score (a race's), and their team in a team match (None otherwise)."""

    user_id: int
    points: int
    team_id: int | None = None


@dataclass(frozen=True, slots=True)
class Contest:
    """A finished match (`kind` 'match') or race hand ('race') not yet taken in by the ratings,
    with the players who played in it."""

    kind: str
    event_id: int
    guild_id: int | None
    finished_at: float
    teams: bool  # a team match: its players stand by their teams
    entrants: tuple[Entrant, ...]


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating as OpenSkill keeps it (mu and sigma), with their rated games."""

    mu: float
    sigma: float
    games: int = 0


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating before and after a rated match or race hand."""

    kind: str
    event_id: int
    user_id: int
    guild_id: int | None
    rated_at: float  # when the event finished
    before: Skill
    after: Skill  # with the rated games counted up to this one


@dataclass(frozen=True, slots=True)
class RatingStanding:
    """A player's line on the rating board: their rating after their last rated game of the
    period (`games` of them in it), and their rated games up to then (`rated_games`)."""

    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    rated_games: int
