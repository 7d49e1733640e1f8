"""What happened, whatever the front end: the events an answer carries (a Reply, a RaceReply), in
order, by feature. Each is an Event: data for a presenter to word (bot.words); none words itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.game import Card, Hint, Move
    from bot.play.replies import GameStatus
    from bot.play.secrecy import Live


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, told by an answer among its events."""


# --- solo games (and a race's moves) -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Started(Event):
    """A new game was dealt (its title and deal are the Reply's game's)."""


@dataclass(frozen=True, slots=True)
class AlreadyPlaying(Event):
    """A new game was asked for where the player has one in play: this is that one."""


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """Moves taken back (the last first), then moves played."""

    took_back: tuple[Move, ...] = ()
    played: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class Refused(Event):
    """The engine refused a move or could not read a text (NotationError or IllegalMoveError,
    which word themselves); what came before it stands."""

    error: ValueError


@dataclass(frozen=True, slots=True)
class NothingToDo(Event):
    """The text changed nothing; `auto`: it asked to play every card to the foundations."""

    auto: bool = False


@dataclass(frozen=True, slots=True)
class HintNotAlone(Event):
    """A hint was asked for among other moves: nothing was played."""


@dataclass(frozen=True, slots=True)
class Hinted(Event):
    """The hint: the next move besides draws, with the draws before it (the rest of a hint the
    player is following: the draws left); None when no move is left to suggest."""

    hint: Hint | None


@dataclass(frozen=True, slots=True)
class Ended(Event):
    """The game has just ended (won, blocked or resigned) with `score`."""

    status: GameStatus
    score: int


@dataclass(frozen=True, slots=True)
class Verdict(Event):
    """Whether the ended game's deal could have been won with every card known."""

    winnable: bool


@dataclass(frozen=True, slots=True)
class NoVerdict(Event):
    """No verdict this time: the player has had their share of verdicts lately."""


# --- matches --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    """Round `round` of match `match_id` is the player's board: `deal` (None for a fixed deck), the
    same for every player; `resumed` when it was dealt before."""

    match_id: int
    round: int
    deal: int | None
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """The player's round ended: its `score`, their `total`; with teams, their `team`'s name and
    points toward the `target`; `next_round` when the next one is dealt."""

    round: int
    score: int
    total: int
    team: str | None
    team_points: int
    target: int
    next_round: int | None


@dataclass(frozen=True, slots=True)
class MatchWon(Event):
    """The player's round won the match (for their team, with `teams`): the demon is exorcised."""

    teams: bool


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The round ended in match `match_id`, which is no longer running (`status`)."""

    match_id: int
    status: str


# --- dailies --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DailyDealt(Event):
    """Today's daily (`day`, YYYY-MM-DD) is dealt, the same for everyone; one attempt, no undo."""

    day: str


@dataclass(frozen=True, slots=True)
class DailyResumed(Event):
    """The player's daily of `day` is still in play: here it is (one attempt, no undo). `day_over`:
    its day is over, and it must be finished by 01:00 UTC (bot.play.days.attempt_deadline)."""

    day: str
    day_over: bool = False


# --- looking back, and watching ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Analysing(Event):
    """The game has just been lost: where is being worked out (ask ReviewPlay.analyse)."""

    game_id: int


@dataclass(frozen=True, slots=True)
class Watching(Event):
    """The board is shown to a watcher, read-only; `name` is its player's. `live`: why its deal
    is live (it may still be dealt to others), so it is shown to the watcher alone; None: it may
    be shown to the channel."""

    name: str
    live: Live | None = None

    @property
    def private(self) -> bool:
        """Whether the board is shown to the watcher alone."""
        return self.live is not None


# --- demon races (a RaceReply's; a race's moves are told as Moved, NothingToDo, Refused) --------


@dataclass(frozen=True, slots=True)
class RaceOpened(Event):
    """Race `race_id` is open: players join, then the host starts it."""

    race_id: int


@dataclass(frozen=True, slots=True)
class RaceJoined(Event):
    """The player is seated in race `race_id`."""

    race_id: int


@dataclass(frozen=True, slots=True)
class RaceStarted(Event):
    """The race is on: everyone's cards are dealt."""


@dataclass(frozen=True, slots=True)
class RaceCancelled(Event):
    """Race `race_id` is called off."""

    race_id: int


@dataclass(frozen=True, slots=True)
class Beaten(Event):
    """Another player, `owner` (a name), got their `card` to that foundation first; the
    player's card stays where it was."""

    card: Card
    owner: str


@dataclass(frozen=True, slots=True)
class RaceEnded(Event):
    """The race (a hand) is over: `demon` (a user id) went out, or nobody could move; each
    player's (user id, score), by seat. `expired`: ended after a day without a move."""

    demon: int | None
    scores: tuple[tuple[int, int], ...]
    expired: bool = False


@dataclass(frozen=True, slots=True)
class SeriesWon(Event):
    """`winner` (a user id) reached the series' `target` with `points`; `totals` are everyone's
    (user id, points), by seat."""

    winner: int
    points: int
    target: int
    totals: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class SeriesGoesOn(Event):
    """After hand `hand`, nobody has reached `target` (`totals` by seat): hand `next_hand` is dealt."""

    hand: int
    totals: tuple[tuple[int, int], ...]
    target: int
    next_hand: int
