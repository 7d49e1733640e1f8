"""The English a player reads, for every presenter: what bot.play's events and errors say.

bot.play returns data; the presenters (bot.views for Discord, bot.terminal) word it here, each
in its own Voice: how it writes a command (Discord's `/play`, the terminal's `play`) and bold
text. A new language is a new catalog like this one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.game import GAMES, TITLES, Move, Phrase, PhrasedError, Sentences, describe_game
from bot.game.analysis import Verdict as AnalysisVerdict
from bot.game.patience import Game
from bot.game.race import RACE_LAYOUTS, RaceGame
from bot.play.daily import (
    AlreadyShared,
    DailyDealt,
    DailyNotOver,
    DailyPlayed,
    DailyResumed,
    DailyShare,
    NoSuchDaily,
    NotADay,
    ShareWouldBePrivate,
)
from bot.play.leaderboards import UnknownPeriod, UnknownRanking
from bot.play.matches import (
    AlreadyHosting,
    BadTeamName,
    ElsewhereMatch,
    MatchAction,
    MatchChanged,
    MatchClosed,
    MatchEnded,
    MatchWon,
    NobodyJoined,
    NoSuchMatch,
    NotATeamMatch,
    NoTeamChosen,
    NotInATeam,
    NotInMatch,
    NotStarted,
    NotTheHost,
    RoundDealt,
    RoundScored,
    TargetOutOfRange,
    TeamMatchOffServer,
    TeamRefused,
)
from bot.play.race import (
    AlreadyRacing,
    DamagedRace,
    ElsewhereRace,
    NoRaceHere,
    NoSuchRace,
    NotInRace,
    NotRaceHost,
    RaceChanged,
    RaceFull,
    RaceNotRunning,
    RaceUnderWay,
    TooFewRacers,
    UnknownLayout,
)
from bot.play.review import (
    Analysed,
    Analysing,
    DayNotOver,
    MatchNotOver,
    NoFinishedDaily,
    NoFinishedGame,
    NotAnalysable,
    PlayYourDailyFirst,
    Replay,
    StillPlaying,
)
from bot.play.settings import (
    MAX_TARGET,
    PREFIX_LENGTH,
    BadSetting,
    ManageServerNeeded,
    NotAPlayChannel,
    ServerLacksApp,
)
from bot.play.solo import (
    AlreadyPlaying,
    BadOptions,
    ChangedElsewhere,
    DamagedGame,
    DealTooLarge,
    Ended,
    Event,
    GameOver,
    GameStatus,
    Hinted,
    HintNotAlone,
    MoveCapReached,
    Moved,
    NoGameHere,
    NotASoloGame,
    NothingToDo,
    NotYourGame,
    NoVerdict,
    PlayError,
    RateLimited,
    Refused,
    Reply,
    Started,
    UndoOff,
    UnknownGame,
    Verdict,
)
from bot.play.watch import DailyNotPlayedYet, NothingToWatch, RoundNotFinished
from bot.store.base import TeamProblem


@dataclass(frozen=True, slots=True)
class Voice:
    """How a front end writes a command, bold text and a channel."""

    command_prefix: str
    bold_mark: str
    channel_format: str  # a channel's id in {}

    def command(self, name: str) -> str:
        """A command as the player types it, such as `/play`."""
        return f"{self.command_prefix}{name}"

    def bold(self, text: str) -> str:
        """Text set in bold where the front end has bold."""
        return f"{self.bold_mark}{text}{self.bold_mark}"

    def channel(self, channel_id: int) -> str:
        """A channel as the front end shows it (in Discord, a link to it)."""
        return self.channel_format.format(channel_id)

    def engine(self, text: object) -> str:
        """What the engine says (bot/game/phrases.py) in this voice's language: a Phrase or
        Sentences (`describe_game`, `game.describe(move)`, `game.examples`) or an engine error's
        phrase; any other text as it is.

        For now the engine's own English. In a language, with its `engine` catalog's gettext
        translations: `said.render(translations)`, which translates each template (plural forms
        by `ngettext`), then fills in the values, translating the phrases among them. A game's
        title (`TITLES[name]`, marked with N_) is a msgid of that catalog: `translations.gettext`.
        """
        said = text.phrase if isinstance(text, PhrasedError) else text
        return said.render() if isinstance(said, Phrase | Sentences) else str(said)


DISCORD = Voice(command_prefix="/", bold_mark="**", channel_format="<#{}>")
TERMINAL = Voice(command_prefix="", bold_mark="", channel_format="channel {}")
# What a rate limit limits (bot.play.work.LIMITS), as a player says it.
LIMITED = {"new-game": "new games", "hint": "hints", "verdict": "verdicts", "lobby": "new lobbies",
           "analysis": "analyses", "replay": "replays"}
PLAYED_SHOWN = 12  # moves named in full when a text plays many
# A foundation on a daily's share card: a square coloured by how far it got, from empty to complete.
EMPTY_SQUARE, FULL_SQUARE = "⬛", "🟩"
PROGRESS_SQUARES = ("🟥", "🟧", "🟨")  # less than a third of the way, less than two thirds, further
ENDINGS = {GameStatus.WON: "won", GameStatus.BLOCKED: "blocked", GameStatus.RESIGNED: "resigned"}


def rules_text(name: str, voice: Voice) -> str:
    """The rules of game `name` as a front end shows them: the engine's sentences, the title
    that begins them set in bold."""
    text, title = voice.engine(describe_game(name)), TITLES[name]
    return voice.bold(title) + text.removeprefix(title) if text.startswith(title) else text


def reply_text(reply: Reply, voice: Voice) -> str:
    """What a player reads for a Reply: its events in order, one sentence or two each."""
    if reply.stale:
        return "That board was out of date: here is the current one."
    return " ".join(text for event in reply.events if (text := event_text(event, reply, voice)))


def event_text(event: Event, reply: Reply, voice: Voice) -> str:
    """What one event of a Reply says ("" for none this presenter words)."""

    game = reply.game
    match event:
        case Started():
            return f"New game of {game.title}, deal #{game.deal}. Good luck!"
        case AlreadyPlaying():
            return f"You already have a game here: here it is. {voice.command('resign')} ends it."
        case Moved(took_back=took_back, played=played):
            back = "Took back " + " ".join(map(str, took_back)) + "." if took_back else ""
            return f"{back} {played_text(played)}".strip()
        case Refused(error=error):
            return voice.engine(error)
        case NothingToDo(auto=auto):
            return "Nothing can go to a foundation now." if auto else "Nothing to do."
        case HintNotAlone():
            return "Ask for a hint on its own: h"
        case Hinted(move=None):
            return "No move left to suggest."
        case Hinted(move=move):
            return f"Hint: {move} ({voice.engine(game.describe(move))})"
        case Ended(status=GameStatus.WON, score=score):
            return f"You won! Score {score}."
        case Ended(status=GameStatus.BLOCKED, score=score):
            return f"No move can help now: the game is over. Score {score}."
        case Ended(score=score):
            return f"You resigned. Score {score}."
        case Verdict(winnable=True):
            return "With every card known, this deal could have been won."
        case Verdict():
            return "Even with every card known, this deal could not have been won."
        case NoVerdict():
            return "No verdict on this deal this time: you have had many lately."
        case Analysing():
            return "Looking for where it was lost…"
        case RoundDealt(match_id=match_id, round=round_number, deal=deal, resumed=resumed):
            where = f"deal #{deal}" if deal is not None else "a fixed deck"
            if resumed:
                return f"Match #{match_id}, round {round_number}: {where}."
            return f"Match #{match_id}, round {round_number}: {where}, the same for every player."
        case RoundScored():
            text = f"Round {event.round} over: {event.score:+d} points, {event.total} in all."
            if event.team is not None:
                text += f" Team {event.team}: {event.team_points} of {event.target}."
            if event.next_round is not None:
                text += f" Round {event.next_round} is dealt: press {voice.bold('Next round')}."
            return text
        case MatchWon(teams=teams):
            return voice.bold("The demon is exorcised!") + " You " + ("and your team " if teams else "") + \
                "win the match."
        case MatchEnded(match_id=match_id, status=status):
            return f"Match #{match_id} is {status}."
        case DailyDealt(day=day, deal=deal):
            return f"Daily {game.title} of {day}: deal #{deal}, the same for everyone today. " \
                "One attempt, no undo. Good luck!"
        case DailyResumed(day=day):
            return f"Your daily game, in play: {game.title} of {day}, deal #{game.deal}. One attempt, no undo."
    return ""


def analysis_text(analysed: Analysed, voice: Voice) -> str:
    """Where a game was lost, in a sentence or two: "After move 37 (wt2) the deal could no
    longer be won; t3t1 instead still wins"."""
    analysis = analysed.analysis
    head = f"Game {analysed.game_id}, {analysed.moves} moves: "
    match analysis.verdict:
        case AnalysisVerdict.WON:
            return head + "you won it, so nothing was lost."
        case AnalysisVerdict.NEVER:
            return head + "even with every card known, this deal could never have been won: no move of yours lost it."
        case AnalysisVerdict.UNKNOWN:
            return head + "the solver gave up before it could tell where this game was lost."
    after, better = analysis.lost_after, voice.bold(str(analysis.better_move))
    if analysis.losing_move is None and not after:
        return head + f"you resigned at the deal, though it could be won: {better} starts a winning line."
    if analysis.losing_move is None:
        return head + f"when you resigned after move {after}, the deal could still be won: {better} still wins."
    return head + (f"after move {after} ({voice.bold(str(analysis.losing_move))}) the deal could no longer be won; "
                   f"{better} instead still wins.")


def watched_text(reply: Reply, name: str, voice: Voice) -> str:
    """The words over a watched board: whose game (`name`, as the front end names its player),
    which deal, how it stands; read-only."""
    game = reply.game
    deal = f"deal #{game.deal}" if game.deal is not None else "a fixed deck"
    moves = len(game.moves)
    state = f"score {game.score}, {moves} move{'' if moves == 1 else 's'}"
    if reply.finished:
        state += f", {ENDINGS.get(reply.status, reply.status)}"
    return f"Watching {name}'s {game.title}, {deal}: {state}. {voice.bold('Refresh')} shows it as it stands."


def share_text(share: DailyShare, name: str, voice: Voice) -> str:
    """A finished daily's result card, without a spoiler: the day, who (`name`), how it ended, the
    score and moves, each foundation as a square (see foundation_square), and whether hints helped."""
    squares = "".join(foundation_square(cards, share.foundation_size) for cards in share.foundations)
    home, total = sum(share.foundations), share.foundation_size * len(share.foundations)
    hints = "no hints" if share.hints == 0 else f"{share.hints} hint{'s' if share.hints != 1 else ''}"
    return (f"{voice.bold('Patient Exorcism')} · daily {TITLES.get(share.game, share.game)} · {share.day}\n"
            f"{name}: {ENDINGS.get(GameStatus(share.status), share.status)}, score {share.score} "
            f"in {share.moves} moves\n"
            f"{squares} {home}/{total} cards home\n"
            f"No undo, {hints}.")


def foundation_square(cards: int, size: int) -> str:
    """One foundation on a share card: ⬛ empty, 🟥 less than a third full (1-4 cards of 13), 🟧 less
    than two thirds (5-8), 🟨 further (9-12), 🟩 complete."""
    if cards <= 0:
        return EMPTY_SQUARE
    if cards >= size:
        return FULL_SQUARE
    return PROGRESS_SQUARES[min(3 * cards // size, len(PROGRESS_SQUARES) - 1)]


def played_text(played: tuple[Move, ...] | list[Move]) -> str:
    """The moves played, such as "Played rt2 d.", the middle left out when there are many."""
    if not played:
        return ""
    if len(played) <= PLAYED_SHOWN:
        return "Played " + " ".join(str(move) for move in played) + "."
    first, last = " ".join(str(move) for move in played[:PLAYED_SHOWN - 2]), str(played[-1])
    return f"Played {len(played)} moves: {first} … {last}."


def error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a PlayError: what it carries, worded; a PlayError of a part not
    yet speaking data says its own message."""
    match error:
        case NoGameHere(game_id=None):
            return f"You have no game in this channel: start one with {voice.command('play')}."
        case NoGameHere(game_id=game_id):
            return f"There is no game {game_id}."
        case NotYourGame():
            return f"That is not your game: start your own with {voice.command('play')}."
        case GameOver(status=status, score=score):
            return f"This game is over ({status}, score {score}): start another with {voice.command('play')}."
        case DamagedGame(game_id=game_id, problem=problem):
            return (f"Game {game_id} is damaged in storage and cannot be rebuilt ({problem}). "
                    f"{voice.command('resign')} sets it aside; then {voice.command('play')} starts a new one.")
        case NotASoloGame():
            return f"A demon race is played together: open one with {voice.command('race open')}."
        case UndoOff(in_text=True):
            return "Undo is off in this game (fair play): nothing was played."
        case UndoOff():
            return "Undo is off in this game (fair play)."
        case DealTooLarge(deal=deal, largest=largest):
            return f"Deal {deal} is too large: deals here go up to {largest}."
        case ChangedElsewhere(setting_aside=True):
            return "This game changed elsewhere at the same moment: try again."
        case ChangedElsewhere():
            return "This game changed elsewhere at the same moment: look at the board again."
        case RateLimited(action=action, retry_after=retry_after):
            what = LIMITED.get(action, action)
            return f"Slow down: you have asked for {what} too often. Try again in {math.ceil(retry_after)} s."
        case MoveCapReached(cap=cap):
            return f"That would take this game past its cap of {cap} moves: nothing was played."
        case BadSetting(name="target", value=value):
            return f"The target must be between 1 and {MAX_TARGET}, not {value}."
        case BadSetting(name="team_target", value=value):
            return f"The team target must be between 1 and {MAX_TARGET}, not {value}."
        case BadSetting(name="die", value=value):
            return f"The die rule is off, game or pass, not {value!r}."
        case BadSetting(name="prefix"):
            return f"A prefix is 1 to {PREFIX_LENGTH} characters, without spaces."
        case ManageServerNeeded(what=what):
            return f"Only members with Manage Server can change the {what}."
        case NotAPlayChannel(channel_ids=channel_ids):
            return f"Games are played in {', '.join(map(voice.channel, channel_ids))} on this server."
        case NoSuchDaily(game=game):
            return f"There is no daily of {game!r}. Games: {', '.join(GAMES)}."
        case NotADay(day=day):
            return f"{day!r} is not a day: write it YYYY-MM-DD."
        case UnknownRanking(ranking=ranking, choices=choices):
            return f"Unknown leaderboard {ranking!r}; leaderboards: {', '.join(choices)}."
        case UnknownPeriod(period=period, choices=choices):
            return f"Unknown period {period!r}; periods: {', '.join(choices)}."
        case NoFinishedGame():
            return f"You have no finished game to look back on yet: play one with {voice.command('play')}."
        case StillPlaying(game_id=game_id):
            return f"Game {game_id} is still in play: you can look back on it once it has ended."
        case DayNotOver(seconds_left=seconds_left):
            return f"A daily can be looked back on once its day is over: in {duration_text(seconds_left)}."
        case MatchNotOver(match_id=match_id):
            return f"A match's round can be looked back on once the match is over (match #{match_id})."
        case NotAnalysable(name=name):
            return f"The solver knows only one-deck games: {TITLES.get(name, name)} cannot be analysed."
        case PlayYourDailyFirst(game=game, seconds_left=seconds_left):
            return (f"Finish today's {TITLES.get(game, game)} daily first ({voice.command('daily')}): then you can "
                    f"replay other players' (or in {duration_text(seconds_left)}, when the day is over).")
        case NoFinishedDaily():
            return "That player has no finished daily yet."
        case DailyNotOver():
            return "A daily's result can be shared once its game has ended."
        case AlreadyShared():
            return "You have shared this daily's result already."
        case ShareWouldBePrivate():
            return ("This server shows members' own apps to them alone: the card would reach nobody here, so it "
                    "was not posted.")
        case NothingToWatch():
            return "That member has no game in play in this channel."
        case DailyNotPlayedYet(game=game, day=day):
            return (f"Play your own {TITLES.get(game, game)} daily of {day} first ({voice.command('daily')}): "
                    "until then its deal stays hidden from you.")
        case RoundNotFinished(match_id=match_id, round=round_number):
            return (f"Finish your own game of round {round_number} of match #{match_id} first: until then "
                    "its deal stays hidden from you.")
        case ServerLacksApp():
            return ("This works on a server that has added Patient Exorcism: ask its admins to add the bot. "
                    f"Solo games ({voice.command('play')}) and the daily work anywhere.")
        case DailyPlayed(game=game, status=status, score=score, seconds_left=seconds_left):
            return (f"You have played today's {TITLES.get(game, game)} daily already: {status}, score {score}. "
                    f"The next one comes in {duration_text(seconds_left)} (at 00:00 UTC).")
    return match_error_text(error, voice) or race_error_text(error, voice) or str(error)


def replay_text(replay: Replay, voice: Voice) -> str:
    """What a replay's message says: whose game, which, and how it ended."""
    title = TITLES.get(replay.name, replay.name)
    deal = f" #{replay.deal}" if replay.deal is not None else ""
    moves = f"{replay.moves} move{'s' if replay.moves != 1 else ''}"
    return (f"Replay of {voice.bold(replay.player.name)}'s {title}{deal} (game {replay.game_id}): {moves}, "
            f"{replay.status}, score {replay.score}.")


def race_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of races ("" for another PlayError)."""
    match error:
        case DamagedRace(race_id=race_id, entry=entry, problem=problem):
            return f"Race #{race_id} is damaged in storage and cannot be replayed (move {entry!r}: {problem})."
        case UnknownLayout(layout=layout):
            return f"Unknown layout {layout!r}; layouts: {', '.join(RACE_LAYOUTS)}."
        case AlreadyRacing(race_id=None):
            return "You are already in a race in this channel."
        case AlreadyRacing(race_id=race_id):
            return f"You are already in race #{race_id} in this channel."
        case RaceFull(full=True, seats=seats):
            return f"That race is full: {seats} players at most."
        case RaceFull():
            return "That race is not taking players any more."
        case NotRaceHost(action=action):
            return f"Only the race's host can {action} it."
        case RaceUnderWay():
            return "That race has already started."
        case TooFewRacers(least=least):
            return f"A race needs {least} players at least: wait for someone to join."
        case ElsewhereRace(race_id=race_id):
            return f"Race #{race_id} is run in another channel: its buttons work there."
        case NoRaceHere():
            return f"You are in no race here: {voice.command('race open')} starts one."
        case RaceChanged():
            return "The race changed meanwhile: try again."
        case NotInRace():
            return "You are not in that race."
        case RaceNotRunning(status="finished"):
            return "That race is over."
        case RaceNotRunning(status="lobby"):
            return "That race has not started yet."
        case RaceNotRunning():
            return "That race is not running."
        case NoSuchRace(race_id=race_id):
            return f"There is no race #{race_id}."
    return ""


def duration_text(seconds: float) -> str:
    """A wait in hours and minutes, such as "12 h 00 min", "5 min" or "less than a minute"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "less than a minute"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def match_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of matches and teams ("" for another PlayError)."""
    match error:
        case AlreadyHosting(match_id=match_id):
            where = f" (#{match_id})" if match_id is not None else ""
            return f"You already have a match waiting in its lobby here{where}: start or cancel it first."
        case UnknownGame(name=name):
            return f"Unknown game {name!r}; games: {', '.join(GAMES)}."
        case TeamMatchOffServer():
            return "Team matches are played on a server."
        case TargetOutOfRange(target=target, largest=largest):
            return f"The target must be between 1 and {largest}, not {target}."
        case BadOptions(problem=problem):
            return voice.engine(problem)
        case NoSuchMatch(match_id=match_id):
            return f"There is no match #{match_id}."
        case MatchClosed(match_id=match_id, status=status, action=action):
            return f"Match #{match_id} is {status}" + {
                MatchAction.JOIN: f": open a new one with {voice.command('match open')}.",
                MatchAction.LEAVE: ": its scoreboard stays as it ended.",
                MatchAction.START: " already.",
                MatchAction.CANCEL: ": nothing to cancel.",
                MatchAction.PLAY: ": its rounds in play ended with it, unscored.",
            }[action]
        case NotInMatch(action=MatchAction.PLAY):
            return "You are not in this match: press Join first."
        case NotInMatch():
            return "You are not in this match."
        case NotTheHost(action=action):
            return f"Only the host, or a member with Manage Server, can {action} the match."
        case NobodyJoined():
            return "Nobody has joined yet."
        case MatchChanged():
            return "The match changed meanwhile: look again."
        case NotStarted():
            return "The match has not started yet: the host presses Start."
        case ElsewhereMatch(match_id=match_id):
            return f"Match #{match_id} is played in another channel: its buttons work there."
        case NotATeamMatch(match_id=match_id):
            return f"Match #{match_id} is not a team match: join it with its Join button."
        case NoTeamChosen():
            return f"This is a team match: choose your team in the menu, or {voice.command('team create')} one."
        case BadTeamName(shortest=shortest, longest=longest):
            return f"A team name has {shortest} to {longest} characters."
        case NotInATeam():
            return "You are not in a team on this server."
        case TeamRefused(problem=TeamProblem.IN_A_TEAM, name=None):
            return f"You are already in a team on this server: {voice.command('team leave')} first."
        case TeamRefused(problem=TeamProblem.IN_A_TEAM, name=name):
            return f"You are in team {name!r}: {voice.command('team leave')} first."
        case TeamRefused(problem=TeamProblem.NAME_TAKEN, name=name):
            return f"There is already a team called {name!r} here, or you joined one meanwhile."
        case TeamRefused(problem=TeamProblem.NO_SUCH_TEAM, name=name):
            return f"There is no team called {name!r} here: {voice.command('team list')} shows them."
        case TeamRefused(problem=TeamProblem.JOINED_MEANWHILE):
            return "You joined another team meanwhile."
    return ""


# --- a board message's status line -------------------------------------------------------------

def board_status(game: Game, voice: Voice) -> str:
    """A solo board's status line: the game, its deal, score, stock and redeals."""
    return (f"{voice.bold(game.title)} · deal #{game.deal} · score {game.score} · "
            f"stock {len(game.stock)} · {_redeals_words(game.redeals_left)}")


def race_status(race_id: int, game: RaceGame, seat: int, voice: Voice) -> str:
    """A racer's own board's status line: the race and the cards they have left."""
    return f"{voice.bold(f'Demon race #{race_id}')} · your board · {game.cards_left(seat)} cards left"


def _redeals_words(redeals_left: int | None) -> str:
    """"unlimited redeals", "1 redeal left", "0 redeals left"."""
    if redeals_left is None:
        return "unlimited redeals"
    return f"{redeals_left} redeal{'' if redeals_left == 1 else 's'} left"


# --- alt text: a board image in words, for screen readers -------------------------------------

ALT_TEXT_LIMIT = 1024  # characters of Discord's attachment description
RANK_WORDS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
PILE_WORDS = {"s": "stock", "w": "waste", "r": "reserve"}
COLUMN_CAPS = (None, 6, 3, 1)  # the face-up cards named a column, tried in turn until the text fits


def card_words(card: str) -> str:
    """A card as a screen reader should say it: `JD` is "jack of diamonds"."""
    return f"{RANK_WORDS.get(card[:-1], card[:-1])} of {SUIT_WORDS[card[-1]]}"


def board_alt_text(game: Game, limit: int = ALT_TEXT_LIMIT) -> str:
    """A solo board's image in words, pile by pile, within `limit` characters: the game, the
    foundations' tops, the reserve's top and count, the waste's top, the stock, each column
    (its face-up cards, fewer when the text would be too long)."""
    head = f"{game.title} board, deal #{game.deal}, score {game.score}, {_redeals_words(game.redeals_left)}."
    return _alt_text(head, game.piles(), limit, base=lambda pile: str(game.foundation_base(pile)))


def race_board_alt_text(game: RaceGame, seat: int, name: str, limit: int = ALT_TEXT_LIMIT) -> str:
    """A racer's own board in words (their piles, and the shared foundations' tops), within `limit`."""
    tops = ", ".join(card_words(str(top.card)) for top in game.foundation_tops()) or "none yet"
    head = f"Race board of {name}: {game.cards_left(seat)} cards left. Shared foundations' tops: {tops}."
    return _alt_text(head, game.piles(seat), limit)


def race_table_alt_text(game: RaceGame, names: list[str], limit: int = ALT_TEXT_LIMIT) -> str:
    """A race's public table in words: the shared foundations' tops and each racer's cards left."""
    tops = ", ".join(card_words(str(top.card)) for top in game.foundation_tops()) or "none yet"
    racers = "; ".join(f"{name}: {game.cards_left(seat)} cards left, {game.on_foundations(seat)} on the foundations"
                       for seat, name in enumerate(names))
    return _cut_text(f"Race table. Shared foundations' tops: {tops}. {racers}.", limit)


def _alt_text(head: str, layout: dict[str, list[str]], limit: int,
              base: Callable[[str], str] | None = None) -> str:
    """`head`, then the piles of `layout` in words, naming fewer column cards until it fits;
    `base` names the card an empty foundation starts with."""
    text = head
    for cap in COLUMN_CAPS:
        text = " ".join([head, *_piles_in_words(layout, cap, base)])
        if len(text) <= limit:
            return text
    return _cut_text(text, limit)


def _piles_in_words(layout: dict[str, list[str]], cap: int | None,
                    base: Callable[[str], str] | None = None) -> list[str]:
    """One sentence a group of piles: foundations, reserve(s), waste, stock, columns."""
    foundations = [pile for pile in layout if pile.startswith("f")]
    reserves = [pile for pile in layout if pile.startswith("r")]
    columns = [pile for pile in layout if pile.startswith("t")]
    sentences = []
    if foundations:
        sentences.append("Foundations: " + ", ".join(
            f"{pile} {_top_words(layout[pile])}" + (f" (from the {card_words(base(pile))})"
                                                    if base is not None and not layout[pile] else "")
            for pile in foundations) + ".")
    if reserves == ["r"]:
        cards = layout["r"]
        sentences.append(f"Reserve: {_top_words(cards)}" + (f", {len(cards)} cards." if cards else "."))
    elif reserves:
        sentences.append("Reserve piles: " + ", ".join(f"{pile} {_top_words(layout[pile])}" for pile in reserves)
                         + ".")
    if "w" in layout:
        sentences.append(f"Waste: {_top_words(layout['w'])}.")
    if "s" in layout:
        sentences.append(f"Stock: {len(layout['s'])} cards.")
    for pile in columns:
        sentences.append(f"Column {pile}: {_column_words(layout[pile], cap)}.")
    return sentences


def _top_words(cards: list[str]) -> str:
    """A pile's top card in words, "face down" or "empty"."""
    if not cards:
        return "empty"
    return "face down" if cards[-1] == "??" else card_words(cards[-1])


def _column_words(cards: list[str], cap: int | None) -> str:
    """A column from the bottom: its face-down count, then its face-up cards (the top `cap`)."""
    if not cards:
        return "empty"
    face_up = [card for card in cards if card != "??"]
    hidden = len(cards) - len(face_up)
    shown = face_up if cap is None else face_up[-cap:]
    named = ", ".join(card_words(card) for card in shown)
    if len(shown) < len(face_up):
        named = f"{len(face_up)} face up, the top ones {named}"
    if not hidden:
        return named
    return f"{hidden} face down, then {named}" if face_up else f"{hidden} face down"


def _cut_text(text: str, limit: int) -> str:
    """The text, or its start and "…" when longer than `limit`."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
