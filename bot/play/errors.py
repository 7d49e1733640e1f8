"""What a player tried that cannot be done, whatever the front end: PlayError and its kinds, by
feature. Each carries what was refused, as data, for a presenter to word (bot.words); none words
itself.

Every kind is a dataclass: its fields are what it carries, and its exception arguments too (in
order, `PlayError.__post_init__`), so that it is raised, shown in a log and pickled like any
exception.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from bot.game import PhrasedError

if TYPE_CHECKING:
    from bot.game import Phrase
    from bot.play.matches import MatchAction
    from bot.play.replies import GameStatus
    from bot.play.secrecy import Live, Sight
    from bot.store.base import TeamProblem


@dataclass(eq=False)
class PlayError(Exception):
    """Something a player tried that cannot be done. Its kinds carry what, as data, for a
    presenter to word (bot.words)."""

    def __post_init__(self) -> None:
        # The fields' values as the exception's arguments, as a hand-written __init__ would pass
        # them: str() and args show them, and unpickling (which calls the class with args) works.
        # (Not dataclasses.astuple: it would copy the values, deeply.)
        Exception.__init__(self, *(getattr(self, field.name) for field in fields(self)))



# --- solo games ---------------------------------------------------------------------------------


@dataclass(eq=False)
class NoGameHere(PlayError):
    """The player has no game in play in this channel; or, with `game_id`, there is no such game."""

    game_id: int | None = None


@dataclass(eq=False)
class NotYourGame(PlayError):
    """Someone pressed a button of another player's game."""


@dataclass(eq=False)
class GameOver(PlayError):
    """The game has ended (`status`, with its `score`): no more moves."""

    status: GameStatus
    score: int


@dataclass(eq=False)
class DamagedGame(PlayError):
    """Stored game `game_id` cannot be rebuilt; `problem` is the engine's reason."""

    game_id: int
    problem: str


@dataclass(eq=False)
class NotASoloGame(PlayError):
    """A game that is not played alone (the demon race, `name`) was asked for as a solo game."""

    name: str


@dataclass(eq=False)
class UndoOff(PlayError):
    """Undo was asked for, in any form, in a game whose rules turn it off (matches, dailies).
    `in_text`: it came among other moves, none of which was played."""

    in_text: bool = False


@dataclass(eq=False)
class DealTooLarge(PlayError):
    """Deal number `deal` is larger than the store can keep (`largest`)."""

    deal: int
    largest: int


@dataclass(eq=False)
class ChangedElsewhere(PlayError):
    """Another process changed the game at the same moment: nothing was done. `setting_aside`:
    while a damaged game was being set aside."""

    setting_aside: bool = False


@dataclass(eq=False)
class UnknownGame(PlayError):
    """There is no game called `name`."""

    name: str


@dataclass(eq=False)
class BadOptions(PlayError):
    """A game's rules refused its options or deck (a new game's, or a match's): `problem` is the
    engine's reason, a phrase (bot/game/phrases.py) when the engine phrased it."""

    problem: Phrase | str

    @classmethod
    def of(cls, error: ValueError) -> BadOptions:
        """The refusal of an error the engine raised for options or a deck."""
        return cls(error.phrase if isinstance(error, PhrasedError) else str(error))


@dataclass(eq=False)
class ElsewhereGame(PlayError):
    """A button of game `game_id` was pressed outside the channel where the game is played: it
    acts only there."""

    game_id: int


@dataclass(eq=False)
class RateLimited(PlayError):
    """A member asked for a costly action too often: `action` is what (a key of
    bot.play.work.LIMITS), `retry_after` the seconds until they may again."""

    action: str
    retry_after: float


@dataclass(eq=False)
class MoveCapReached(PlayError):
    """The moves asked for would take the game past `cap` moves: nothing was played."""

    cap: int


# --- matches and teams ------------------------------------------------------------------------


@dataclass(eq=False)
class AlreadyHosting(PlayError):
    """The host has a match in its lobby in this channel already: `match_id` (None while it
    is being opened)."""

    match_id: int | None


@dataclass(eq=False)
class TeamMatchOffServer(PlayError):
    """A team match was asked for outside a server."""


@dataclass(eq=False)
class TargetOutOfRange(PlayError):
    """A match target outside 1..`largest`."""

    target: int
    largest: int


@dataclass(eq=False)
class NoSuchMatch(PlayError):
    """There is no match `match_id`."""

    match_id: int


@dataclass(eq=False)
class MatchClosed(PlayError):
    """Match `match_id` is `status`, which does not allow `action`."""

    match_id: int
    status: str
    action: MatchAction


@dataclass(eq=False)
class NotInMatch(PlayError):
    """The member is not in match `match_id` (or has left it), so cannot `action`."""

    match_id: int
    action: MatchAction


@dataclass(eq=False)
class NotTheHost(PlayError):
    """Only the host, or a member who can manage the server, may `action` a match."""

    action: MatchAction


@dataclass(eq=False)
class NobodyJoined(PlayError):
    """The match cannot start: nobody is in it."""


@dataclass(eq=False)
class MatchChanged(PlayError):
    """The match changed at the same moment: nothing was done."""


@dataclass(eq=False)
class NotStarted(PlayError):
    """The match is still in its lobby: no rounds yet."""


@dataclass(eq=False)
class ElsewhereMatch(PlayError):
    """Match `match_id` is played in another server or channel: its buttons act there alone."""

    match_id: int


@dataclass(eq=False)
class NotATeamMatch(PlayError):
    """A team was named for match `match_id`, which is not a team match."""

    match_id: int


@dataclass(eq=False)
class NoTeamChosen(PlayError):
    """A member in no team tried to join a team match without choosing one."""


@dataclass(eq=False)
class BadTeamName(PlayError):
    """A team name must have `shortest` to `longest` characters."""

    shortest: int
    longest: int


@dataclass(eq=False)
class NotInATeam(PlayError):
    """The member is in no team on this server."""


@dataclass(eq=False)
class TeamRefused(PlayError):
    """The store refused a team action: `problem` (bot.store TeamProblem), about team `name`."""

    problem: TeamProblem
    name: str | None


# --- dailies --------------------------------------------------------------------------------------


@dataclass(eq=False)
class NotADay(PlayError):
    """`day` is not a real date written YYYY-MM-DD."""

    day: str


@dataclass(eq=False)
class NoSuchDaily(PlayError):
    """There is no daily of `game` (no such game)."""

    game: str


@dataclass(eq=False)
class DailyPlayed(PlayError):
    """Today's daily of `game` is played already: it ended `status` with `score`; the next
    comes in `seconds_left` (at 00:00 UTC)."""

    game: str
    status: str
    score: int
    seconds_left: float


@dataclass(eq=False)
class DailyElsewhere(PlayError):
    """The player's daily of `game` of `day` is in play in another channel (`channel_id`, None
    outside any channel): it is played there."""

    game: str
    day: str
    channel_id: int | None


@dataclass(eq=False)
class DailyNotOver(PlayError):
    """A daily's result was asked for before the game ended."""


@dataclass(eq=False)
class AlreadyShared(PlayError):
    """This daily's result was shared already: it is posted once."""


@dataclass(eq=False)
class ShareWouldBePrivate(PlayError):
    """The result card would be shown to its player alone here (a server that keeps members' own
    apps private): it is not posted, and the daily is not marked shared."""


# --- demon races ----------------------------------------------------------------------------------


@dataclass(eq=False)
class DamagedRace(PlayError):
    """Stored race `race_id` cannot be replayed: its move `entry` failed for `problem`."""

    race_id: int
    entry: str
    problem: str


@dataclass(eq=False)
class UnknownLayout(PlayError):
    """There is no race layout called `layout`."""

    layout: str


@dataclass(eq=False)
class AlreadyRacing(PlayError):
    """The player is in a race in this channel already: `race_id` (None: the one they would open)."""

    race_id: int | None = None


@dataclass(eq=False)
class RaceFull(PlayError):
    """The race cannot seat the player: `full` (`seats` taken), else no longer in its lobby."""

    full: bool
    seats: int


@dataclass(eq=False)
class NotRaceHost(PlayError):
    """Only the race's host may `action` (start or cancel) it."""

    action: str


@dataclass(eq=False)
class RaceUnderWay(PlayError):
    """The race has started already: it cannot start again or be cancelled."""


@dataclass(eq=False)
class TooFewRacers(PlayError):
    """A race needs `least` players to start."""

    least: int


@dataclass(eq=False)
class ElsewhereRace(PlayError):
    """Race `race_id` is run in another server or channel: its buttons act there alone."""

    race_id: int


@dataclass(eq=False)
class NoRaceHere(PlayError):
    """The player is in no race in this channel."""


@dataclass(eq=False)
class RaceChanged(PlayError):
    """The race kept changing meanwhile: nothing was played."""


@dataclass(eq=False)
class NotInRace(PlayError):
    """The player is not in that race."""


@dataclass(eq=False)
class RaceNotRunning(PlayError):
    """The race is not running: `status` (lobby, cancelled, finished)."""

    status: str


@dataclass(eq=False)
class NoSuchRace(PlayError):
    """There is no race `race_id`."""

    race_id: int


# --- looking back: analyses, winning lines, replays -------------------------------------------


@dataclass(eq=False)
class NoFinishedGame(PlayError):
    """The player has no finished game to look back on."""


@dataclass(eq=False)
class StillPlaying(PlayError):
    """Game `game_id` is still in play: it can be looked back on once it has ended."""

    game_id: int


@dataclass(eq=False)
class NoFinishedDaily(PlayError):
    """Player `player_id` has no finished daily to replay."""

    player_id: int


@dataclass(eq=False)
class NoSolver(PlayError):
    """The solver does not cover game `name` (two decks, or more columns): no analysis or winning
    line can be made."""

    name: str


@dataclass(eq=False)
class NoPages(PlayError):
    """A page of game `game_id`'s winning line was asked for, but its deal has none."""

    game_id: int


@dataclass(eq=False)
class LineFull(PlayError):
    """Bulk drawing's line is full (`waiting` drawings wait behind the one being drawn): this one
    is refused at once."""

    waiting: int


@dataclass(eq=False)
class AlreadyDrawing(PlayError):
    """The member has a drawing in line or being drawn already: one at a time."""


@dataclass(eq=False)
class TookTooLong(PlayError):
    """The drawing took more than `seconds` and was given up."""

    seconds: float


@dataclass(eq=False)
class TooLargeToSend(PlayError):
    """Not even the smallest replay of the game fits the upload limit of `limit` bytes (what the
    place it is sent to allows)."""

    limit: int


# --- fair play and watching ---------------------------------------------------------------------


@dataclass(eq=False)
class DealIsLive(PlayError):
    """What was asked for (`sight`) of a deal cannot be shown while it is live (`live`: until when,
    for a daily): it may still be dealt to others. `copy`: the game asked about is not the daily
    or the round itself but a game dealt the same cards."""

    live: Live
    sight: Sight
    copy: bool = False


@dataclass(eq=False)
class NothingToWatch(PlayError):
    """Member `member_id` has no game in play in this channel."""

    member_id: int


# --- a server's settings, and leaderboards ------------------------------------------------------


@dataclass(eq=False)
class BadSetting(PlayError):
    """A setting's value out of range: `name` (target, team_target, die, prefix, language, timezone, season,
    daily_hour, daily_game, daily_post, daily_role or remind) and `value`."""

    name: str
    value: object


@dataclass(eq=False)
class ManageServerNeeded(PlayError):
    """Only members who can manage the server may change `what` (settings or prefix)."""

    what: str


@dataclass(eq=False)
class NotAPlayChannel(PlayError):
    """The server allows play only in `channel_ids`, and this channel is not one of them."""

    channel_ids: tuple[int, ...]


@dataclass(eq=False)
class ServerLacksApp(PlayError):
    """What belongs to a server (matches, teams, races, settings, leaderboards) was asked for
    where the server has not added the app: it is there only as a member's own (user) install,
    or in a DM."""


@dataclass(eq=False)
class UnknownRanking(PlayError):
    """There is no leaderboard called `ranking`; `choices` are those there are."""

    ranking: str
    choices: tuple[str, ...]


@dataclass(eq=False)
class UnknownPeriod(PlayError):
    """There is no period called `period`; `choices` are those there are."""

    period: str
    choices: tuple[str, ...]


@dataclass(eq=False)
class UnknownSeason(PlayError):
    """`name` is no season's name (such as 2026-11, 2026-W48 or 2026-Q4; bot.play.seasons)."""

    name: str


@dataclass(eq=False)
class BadLink(PlayError):
    """A link to the web table (or its session) that does not open: `why` is forged (not ours, or
    damaged), expired, used (opened before, in another browser), or other (this browser holds
    another member's session)."""

    why: str


@dataclass(eq=False)
class TableOff(PlayError):
    """The bot serves no web table (its admin has not set WEB_PORT)."""


@dataclass(eq=False)
class ActivityRefused(PlayError):
    """The table does not open as a Discord Activity: `why` is off (the bot has no
    DISCORD_CLIENT_SECRET) or unknown (Discord did not confirm who the member is)."""

    why: str
