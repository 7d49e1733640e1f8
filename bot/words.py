"""What a player reads, for every presenter, in their language: what bot.play's events and errors say.

bot.play returns data; the presenters (bot.views for Discord, bot.terminal) word it here, each
in its own Voice: how it writes a command (Discord's `/play`, the terminal's `play`), bold text
and a name a member chose (in Discord's markdown, inert: `Voice.name`), and the language it
speaks. Every sentence is an English msgid of the `bot` catalogs (bot/locales), translated
through the voice: `voice.gettext("Score {score}.", score=score)`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache

import discord

from bot.game import GAMES, TITLES, Move, Phrase, PhrasedError, Sentences, describe_game
from bot.game.analysis import Verdict as AnalysisVerdict
from bot.game.patience import Game
from bot.game.race import RACE_LAYOUTS, RaceGame
from bot.i18n import COMMAND, N_, translations
from bot.languages import ENGLISH, LANGUAGE_CHOICES
from bot.play.bulk import AlreadyDrawing, LineFull, TookTooLong, TooLargeToSend
from bot.play.daily import (
    AlreadyShared,
    DailyDealt,
    DailyElsewhere,
    DailyNotOver,
    DailyPlayed,
    DailyResumed,
    DailyShare,
    NoSuchDaily,
    NotADay,
    ShareWouldBePrivate,
)
from bot.play.days import attempt_deadline
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
    NoFinishedDaily,
    NoFinishedGame,
    NoSolver,
    Replay,
    StillPlaying,
)
from bot.play.secrecy import DealIsLive, Live, LiveDaily, LiveRound, Sight
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
    DealLabel,
    DealTooLarge,
    ElsewhereGame,
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
from bot.play.solution import NoPages, NoWinningLine, WinningLine
from bot.play.watch import NothingToWatch
from bot.store.base import TeamProblem
from render.captions import BoardCaptions, RaceCaptions, shorten
from render.captions import board_captions as worded_board
from render.captions import race_captions as worded_race

LONGEST_NAME = 40  # characters of a name in Discord's text (Discord's own names and team names have 32 at most)
_NUMBERED = re.compile(r"^([0-9]+)\.")  # "1. " starts a numbered list


@dataclass(frozen=True, slots=True)
class Voice:
    """How a front end writes a command, bold text and the names members chose, and the language
    it speaks (bot.languages; its catalogs: bot.i18n)."""

    command_prefix: str
    bold_mark: str
    channel_format: str  # a channel, its id as {channel}
    localized_commands: bool = False  # whether commands have names in each language (Discord's do)
    language: str = ENGLISH
    markdown: bool = False  # whether its text is markdown (Discord's): names are written inert in it (`name`)

    def speaking(self, language: str) -> Voice:
        """The same front end speaking another language (a catalog name such as `es_ES`)."""
        return replace(self, language=language)

    def gettext(self, message: str, **values: object) -> str:
        """A sentence in this voice's language, its `{placeholders}` filled in from `values`."""
        text = translations(self.language).gettext(message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, count: int, **values: object) -> str:
        """A sentence whose words follow `count` (the language's plural rules); `{count}` and
        the other placeholders filled in."""
        return translations(self.language).ngettext(singular, plural, count).format(count=count, **values)

    def pgettext(self, context: str, message: str) -> str:
        """A word in this voice's language, told apart by its context (such as a slash command's
        option name, bot.i18n.OPTION)."""
        return translations(self.language).pgettext(context, message)

    def engine(self, text: object) -> str:
        """What the engine says (bot/game/phrases.py) in this voice's language: a Phrase or
        Sentences (`describe_game`, `game.describe(move)`, `game.examples`) or an engine error's
        phrase, rendered through the `engine` catalog of the language (its templates translated,
        plural forms by its rules, then filled with their values, notation as it is); any other
        text as it is."""
        said = text.phrase if isinstance(text, PhrasedError) else text
        if isinstance(said, Phrase | Sentences):
            return said.render(translations(self.language, "engine"))
        return str(said)

    def command(self, name: str) -> str:
        """A command as the player types it, such as `/play`, named in this voice's language."""
        if self.localized_commands:
            name = " ".join(translations(self.language).pgettext(COMMAND, word) for word in name.split())
        return f"{self.command_prefix}{name}"

    def bold(self, text: str) -> str:
        """Text set in bold where the front end has bold."""
        return f"{self.bold_mark}{text}{self.bold_mark}"

    def channel(self, channel_id: int) -> str:
        """A channel as the front end shows it (in Discord, a link to it)."""
        return self.gettext(self.channel_format, channel=channel_id)

    def name(self, name: str) -> str:
        """A name a member chose (a display name, a team's) as the front end writes it in its text:
        in markdown, shown as it is and doing nothing (`inert_name`); elsewhere as it is."""
        return inert_name(name) if self.markdown else name

    def plain(self) -> Voice:
        """The same voice writing plain text, for what is not markdown (an image's alt text): no
        bold, names as they are."""
        return replace(self, bold_mark="", markdown=False)


def inert_name(name: str) -> str:
    """A name as Discord markdown that shows it as it is, on one line, and does nothing: its
    markdown escaped (`discord.utils.escape_markdown`: bold, spoilers, code, quotes, headings,
    lists, masked links), @everyone and @here broken (`escape_mentions`), the `<` of a mention, a
    channel, an emoji or a time escaped, a link's `://` escaped so that nothing links, and a number
    that would start a list escaped; longer than LONGEST_NAME, cut to its start and "…"."""
    text = shorten(" ".join(name.split()), LONGEST_NAME)
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text, ignore_links=False))
    return _NUMBERED.sub(r"\1\\.", text.replace("<", "\\<").replace("://", "\\://"))


DISCORD = Voice(command_prefix="/", bold_mark="**", channel_format="<#{channel}>", localized_commands=True,
                markdown=True)
TERMINAL = Voice(command_prefix="", bold_mark="", channel_format=N_("channel {channel}"))
# What a rate limit limits (bot.play.work.LIMITS), as a player says it.
LIMITED = {"new-game": N_("new games"), "hint": N_("hints"), "verdict": N_("verdicts"), "lobby": N_("new lobbies"),
           "analysis": N_("analyses"), "solution": N_("solutions"), "replay": N_("replays"),
           "post": N_("public posts in this channel")}
# Where a game or a match stands (GameStatus, MatchStatus), as a player says it.
STATUSES = {"playing": N_("in play"), "won": N_("won"), "blocked": N_("blocked"), "resigned": N_("resigned"),
            "lobby": N_("in its lobby"), "running": N_("running"), "finished": N_("finished"),
            "cancelled": N_("cancelled"), "expired": N_("expired")}
# The Die of Justice's settings (bot.game.rules.Die), as a player reads them.
DIE_WORDS = {"off": N_("off"), "game": N_("game"), "pass": N_("pass")}
SOLUTION_PAGE_MOVES = 20  # the moves (besides draws) a page of a winning line shows
PLAYED_SHOWN = 12  # moves named in full when a text plays many
# A foundation on a daily's share card: a square coloured by how far it got, from empty to complete.
EMPTY_SQUARE, FULL_SQUARE = "⬛", "🟩"
PROGRESS_SQUARES = ("🟥", "🟧", "🟨")  # less than a third of the way, less than two thirds, further


def status_text(status: str, voice: Voice) -> str:
    """A game's or match's status as a word or two, such as "won"."""
    return voice.gettext(STATUSES[status]) if status in STATUSES else status


def die_text(die: str, voice: Voice) -> str:
    """A Die of Justice setting as a word, such as "off"."""
    return voice.gettext(DIE_WORDS[die]) if die in DIE_WORDS else die


def rules_text(name: str, voice: Voice) -> str:
    """The rules of game `name` as a front end shows them: the engine's sentences, the title
    that begins them set in bold."""
    text, title = voice.engine(describe_game(name)), TITLES[name]
    return voice.bold(title) + text.removeprefix(title) if text.startswith(title) else text


def reply_text(reply: Reply, voice: Voice) -> str:
    """What a player reads for a Reply: its events in order, one sentence or two each."""
    if reply.stale:
        return voice.gettext("That board was out of date: here is the current one.")
    return " ".join(text for event in reply.events if (text := event_text(event, reply, voice)))


def event_text(event: Event, reply: Reply, voice: Voice) -> str:
    """What one event of a Reply says ("" for none this presenter words)."""

    game, _ = reply.game, voice.gettext
    match event:
        case Started():
            return _("New game of {title}, deal #{deal}. Good luck!", title=game.title, deal=game.deal)
        case AlreadyPlaying():
            return _("You already have a game here: here it is. {resign} ends it.", resign=voice.command("resign"))
        case Moved(took_back=took_back, played=played):
            back = _("Took back {moves}.", moves=" ".join(map(str, took_back))) if took_back else ""
            return f"{back} {played_text(played, voice)}".strip()
        case Refused(error=error):
            return voice.engine(error)
        case NothingToDo(auto=auto):
            return _("Nothing can go to a foundation now.") if auto else _("Nothing to do.")
        case HintNotAlone():
            return _("Ask for a hint on its own: h")
        case Hinted(hint=None):
            return _("No move left to suggest.")
        case Hinted(hint=hint) if hint.draws == 0:
            return _("Hint: {move} ({meaning})", move=hint.move, meaning=voice.engine(hint.meaning))
        case Hinted(hint=hint) if hint.redeals:
            return _("Hint: {draws}, turning the waste over on the way, then {move} ({meaning})",
                     draws=_draws(hint.draws), move=hint.move, meaning=voice.engine(hint.meaning))
        case Hinted(hint=hint):
            return _("Hint: {draws}, then {move} ({meaning})", draws=_draws(hint.draws), move=hint.move,
                     meaning=voice.engine(hint.meaning))
        case Ended(status=GameStatus.WON, score=score):
            return _("You won! Score {score}.", score=score)
        case Ended(status=GameStatus.BLOCKED, score=score):
            return _("No move can help now: the game is over. Score {score}.", score=score)
        case Ended(score=score):
            return _("You resigned. Score {score}.", score=score)
        case Verdict(winnable=True):
            return _("With every card known, this deal could have been won.")
        case Verdict():
            return _("Even with every card known, this deal could not have been won.")
        case NoVerdict():
            return _("No verdict on this deal this time: you have had many lately.")
        case Analysing():
            return _("Looking for where it was lost…")
        case RoundDealt(match_id=match_id, round=round_number, deal=deal, resumed=resumed):
            # Never the round's deal number: it would let anyone deal it elsewhere (bot/play/secrecy.py).
            if resumed:
                return (_("Match #{match}, round {round}.", match=match_id, round=round_number)
                        if deal is not None else
                        _("Match #{match}, round {round}: a fixed deck.", match=match_id, round=round_number))
            if deal is not None:
                return _("Match #{match}, round {round}: the same deal for every player.",
                         match=match_id, round=round_number)
            return _("Match #{match}, round {round}: a fixed deck, the same for every player.",
                     match=match_id, round=round_number)
        case RoundScored():
            text = _("Round {round} over: {points} points, {total} in all.", round=event.round,
                     points=f"{event.score:+d}", total=event.total)
            if event.team is not None:
                text += " " + _("Team {team}: {points} of {target}.", team=voice.name(event.team),
                                points=event.team_points, target=event.target)
            if event.next_round is not None:
                button = voice.bold(_("Next round"))
                text += " " + _("Round {round} is dealt: press {button}.", round=event.next_round, button=button)
            return text
        case MatchWon(teams=teams):
            return voice.bold(_("The demon is exorcised!")) + " " + (
                _("You and your team win the match.") if teams else _("You win the match."))
        case MatchEnded(match_id=match_id, status=status):
            return _("Match #{match} is {status}.", match=match_id, status=status_text(status, voice))
        case DailyDealt(day=day):
            return _("Daily {title} of {day}: the same deal for everyone today. One attempt, no undo. Good luck!",
                     title=game.title, day=day)
        case DailyResumed(day=day, day_over=True):
            return _("Your daily game, in play: {title} of {day}. Its day is over: finish it by {time}, when it "
                     "ends as it stands.", title=game.title, day=day, time=deadline_text(day))
        case DailyResumed(day=day):
            return _("Your daily game, in play: {title} of {day}. One attempt, no undo.", title=game.title, day=day)
    return ""


def analysis_text(analysed: Analysed, voice: Voice) -> str:
    """Where a game was lost, in a sentence or two: "After move 37 (wt2) the deal could no
    longer be won; t3t1 instead still wins"."""
    analysis, _ = analysed.analysis, voice.gettext
    head = _("Game {game}, {moves} moves:", game=analysed.game_id, moves=analysed.moves) + " "
    match analysis.verdict:
        case AnalysisVerdict.WON:
            return head + _("you won it, so nothing was lost.")
        case AnalysisVerdict.NEVER:
            return head + _("even with every card known, this deal could never have been won: no move of yours "
                            "lost it.")
        case AnalysisVerdict.UNKNOWN:
            return head + _("the solver gave up before it could tell where this game was lost.")
    after, better = analysis.lost_after, voice.bold(str(analysis.better_move))
    if analysis.losing_move is None and not after:
        return head + _("you resigned at the deal, though it could be won: {better} starts a winning line.",
                        better=better)
    if analysis.losing_move is None:
        return head + _("when you resigned after move {after}, the deal could still be won: {better} still wins.",
                        after=after, better=better)
    losing = voice.bold(str(analysis.losing_move))
    return head + _("after move {after} ({losing}) the deal could no longer be won; {better} instead still wins.",
                    after=after, losing=losing, better=better)


def deal_text(label: DealLabel, voice: Voice) -> str:
    """How a board names its deal: "deal #17", "a fixed deck", "Daily · 2026-11-27" or "Match #3 ·
    round 2" (a daily's and a round's numbers are never shown: bot/play/secrecy.py)."""
    _ = voice.gettext
    if label.day is not None:
        return _("Daily · {day}", day=label.day)
    if label.match_id is not None:
        return _("Match #{match} · round {round}", match=label.match_id, round=label.round)
    return _("deal #{deal}", deal=label.number) if label.number is not None else _("a fixed deck")


def deadline_text(day: str) -> str:
    """When an attempt at the daily of `day` must be finished: "2026-11-28 01:00 UTC"."""
    return datetime.fromtimestamp(attempt_deadline(day), UTC).strftime("%Y-%m-%d %H:%M UTC")


def kept_private_text(live: Live, voice: Voice) -> str:
    """Why an answer asked for in public is shown to its member alone: its deal is live."""
    if isinstance(live, LiveDaily):
        return voice.gettext("Shown to you alone: the {title} daily of {day} stays off the channel until it is "
                             "over ({time} at the latest).", title=TITLES.get(live.game, live.game), day=live.day,
                             time=deadline_text(live.day))
    return voice.gettext("Shown to you alone: round {round} of match #{match} stays off the channel while the "
                         "match is open.", round=live.round, match=live.match_id)


def watched_text(reply: Reply, name: str, voice: Voice) -> str:
    """The words over a watched board: whose game (`name`, as the front end names its player),
    which deal, how it stands; read-only."""
    game, _ = reply.game, voice.gettext
    deal = deal_text(reply.label, voice)
    state = voice.ngettext("score {score}, {count} move", "score {score}, {count} moves", len(game.moves),
                           score=game.score)
    if reply.finished:
        state += ", " + status_text(reply.status, voice)
    refresh = voice.bold(_("Refresh"))
    return _("Watching {name}'s {title}, {deal}: {state}. {refresh} shows it as it stands.", name=name,
             title=game.title, deal=deal, state=state, refresh=refresh)


def share_text(share: DailyShare, name: str, voice: Voice) -> str:
    """A finished daily's result card, without a spoiler: the day, who (`name`), how it ended, the
    score and moves, each foundation as a square (see foundation_square), and whether hints helped."""
    _ = voice.gettext
    squares = "".join(foundation_square(cards, share.foundation_size) for cards in share.foundations)
    home, total = sum(share.foundations), share.foundation_size * len(share.foundations)
    hints = _("no hints") if share.hints == 0 else voice.ngettext("{count} hint", "{count} hints", share.hints)
    daily = _("daily {title} · {day}", title=TITLES.get(share.game, share.game), day=share.day)
    return "\n".join([
        f"{voice.bold('Patient Exorcism')} · {daily}",
        _("{name}: {status}, score {score} in {moves} moves", name=name, status=status_text(share.status, voice),
          score=share.score, moves=share.moves),
        _("{squares} {home}/{total} cards home", squares=squares, home=home, total=total),
        _("No undo, {hints}.", hints=hints),
    ])


def foundation_square(cards: int, size: int) -> str:
    """One foundation on a share card: ⬛ empty, 🟥 less than a third full (1-4 cards of 13), 🟧 less
    than two thirds (5-8), 🟨 further (9-12), 🟩 complete."""
    if cards <= 0:
        return EMPTY_SQUARE
    if cards >= size:
        return FULL_SQUARE
    return PROGRESS_SQUARES[min(3 * cards // size, len(PROGRESS_SQUARES) - 1)]


def played_text(played: tuple[Move, ...] | list[Move], voice: Voice) -> str:
    """The moves played, such as "Played rt2 d.", the middle left out when there are many."""
    if not played:
        return ""
    if len(played) <= PLAYED_SHOWN:
        return voice.gettext("Played {moves}.", moves=" ".join(str(move) for move in played))
    first, last = " ".join(str(move) for move in played[:PLAYED_SHOWN - 2]), str(played[-1])
    return voice.gettext("Played {count} moves: {first} … {last}.", count=len(played), first=first, last=last)


def error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a PlayError: what it carries, worded; a PlayError of a part not
    yet speaking data says its own message."""
    _, play = voice.gettext, voice.command("play")
    match error:
        case NoGameHere(game_id=None):
            return _("You have no game in this channel: start one with {play}.", play=play)
        case NoGameHere(game_id=game_id):
            return _("There is no game {game}.", game=game_id)
        case NotYourGame():
            return _("That is not your game: start your own with {play}.", play=play)
        case GameOver(status=status, score=score):
            return _("This game is over ({status}, score {score}): start another with {play}.",
                     status=status_text(status, voice), score=score, play=play)
        case DamagedGame(game_id=game_id, problem=problem):
            return _("Game {game} is damaged in storage and cannot be rebuilt ({problem}). {resign} sets it aside; "
                     "then {play} starts a new one.", game=game_id, problem=problem,
                     resign=voice.command("resign"), play=play)
        case NotASoloGame():
            return _("A demon race is played together: open one with {race_open}.",
                     race_open=voice.command("race open"))
        case UndoOff(in_text=True):
            return _("Undo is off in this game (fair play): nothing was played.")
        case UndoOff():
            return _("Undo is off in this game (fair play).")
        case DealTooLarge(deal=deal, largest=largest):
            return _("Deal {deal} is too large: deals here go up to {largest}.", deal=deal, largest=largest)
        case ChangedElsewhere(setting_aside=True):
            return _("This game changed elsewhere at the same moment: try again.")
        case ChangedElsewhere():
            return _("This game changed elsewhere at the same moment: look at the board again.")
        case RateLimited(action=action, retry_after=retry_after):
            what = _(LIMITED[action]) if action in LIMITED else action
            return _("Slow down: you have asked for {what} too often. Try again in {seconds} s.", what=what,
                     seconds=math.ceil(retry_after))
        case MoveCapReached(cap=cap):
            return _("That would take this game past its cap of {cap} moves: nothing was played.", cap=cap)
        case BadSetting(name="target", value=value):
            return _("The target must be between 1 and {largest}, not {value}.", largest=MAX_TARGET, value=value)
        case BadSetting(name="team_target", value=value):
            return _("The team target must be between 1 and {largest}, not {value}.", largest=MAX_TARGET,
                     value=value)
        case BadSetting(name="die", value=value):
            return _("The die rule is off, game or pass, not {value}.", value=repr(value))
        case BadSetting(name="prefix"):
            return _("A prefix is 1 to {longest} characters, without spaces.", longest=PREFIX_LENGTH)
        case BadSetting(name="language", value=value):
            return _("Unknown language {value}; languages: {languages}.", value=repr(value),
                     languages=", ".join(LANGUAGE_CHOICES))
        case ManageServerNeeded(what="prefix"):
            return _("Only members with Manage Server can change the prefix.")
        case ManageServerNeeded():
            return _("Only members with Manage Server can change the settings.")
        case NotAPlayChannel(channel_ids=channel_ids):
            return _("Games are played in {channels} on this server.",
                     channels=", ".join(map(voice.channel, channel_ids)))
        case NoSuchDaily(game=game):
            return _("There is no daily of {game}. Games: {games}.", game=repr(game), games=", ".join(GAMES))
        case NotADay(day=day):
            return _("{day} is not a day: write it YYYY-MM-DD.", day=repr(day))
        case UnknownRanking(ranking=ranking, choices=choices):
            return _("Unknown leaderboard {ranking}; leaderboards: {choices}.", ranking=repr(ranking),
                     choices=", ".join(choices))
        case UnknownPeriod(period=period, choices=choices):
            return _("Unknown period {period}; periods: {choices}.", period=repr(period), choices=", ".join(choices))
        case NoFinishedGame():
            return _("You have no finished game to look back on yet: play one with {play}.", play=play)
        case StillPlaying(game_id=game_id):
            return _("Game {game} is still in play: you can look back on it once it has ended.", game=game_id)
        case DealIsLive():
            return live_deal_text(error, voice)
        case ElsewhereGame():
            return _("That button belongs to a game played in another channel: it works there.")
        case DailyElsewhere(game=game, day=day, channel_id=None):
            return _("Your {title} daily of {day} is in play outside this channel: finish it there.",
                     title=TITLES.get(game, game), day=day)
        case DailyElsewhere(game=game, day=day, channel_id=channel_id):
            return _("Your {title} daily of {day} is in play in {channel}: finish it there.",
                     title=TITLES.get(game, game), day=day, channel=voice.channel(channel_id))
        case NoPages(game_id=game_id):
            return _("Game {game}'s deal has no winning line to turn the pages of.", game=game_id)
        case NoSolver(name=name):
            return _("No solver for {title}: it knows the one-deck Canfield games.", title=TITLES.get(name, name))
        case NoFinishedDaily():
            return _("That player has no finished daily yet.")
        case DailyNotOver():
            return _("A daily's result can be shared once its game has ended.")
        case AlreadyShared():
            return _("You have shared this daily's result already.")
        case ShareWouldBePrivate():
            return _("This server shows members' own apps to them alone: the card would reach nobody here, so it "
                     "was not posted.")
        case NothingToWatch():
            return _("That member has no game in play in this channel.")
        case ServerLacksApp():
            return _("This works on a server that has added Patient Exorcism: ask its admins to add the bot. Solo "
                     "games ({play}) and the daily work anywhere.", play=play)
        case DailyPlayed(game=game, status=status, score=score, seconds_left=seconds_left):
            return _("You have played today's {title} daily already: {status}, score {score}. The next one comes "
                     "in {wait} (at 00:00 UTC).", title=TITLES.get(game, game), status=status_text(status, voice),
                     score=score, wait=duration_text(seconds_left, voice))
    return (match_error_text(error, voice) or race_error_text(error, voice) or bulk_error_text(error, voice)
            or voice.engine(error))


def bulk_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads when bulk drawing (a replay) cannot be done ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case LineFull():
            return _("Too many replays are being drawn right now: please try again in a minute.")
        case AlreadyDrawing():
            return _("Your other replay is still being drawn: one at a time, please.")
        case TookTooLong():
            return _("That replay took too long to draw and was given up: please try again later.")
        case TooLargeToSend(limit=limit):
            return _("Even the smallest replay of this game is over the upload limit here ({size}).",
                     size=size_text(limit))
    return ""


def size_text(size: int) -> str:
    """A file's size for a player, such as "9.5 MiB" or "300 KiB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MiB"
    return f"{max(1, round(size / 1024))} KiB"


def solution_pages(line: WinningLine) -> int:
    """How many pages of SOLUTION_PAGE_MOVES moves a winning line takes."""
    return max(1, -(-len(line.moves) // SOLUTION_PAGE_MOVES))


def solution_text(line: WinningLine | NoWinningLine, voice: Voice, page: int | None = None) -> str:
    """A short winning line in words: its heading, then its moves one a line, numbered, with
    the draws before each; only page `page` (from 0) of them when given, with where it is."""
    _ = voice.gettext
    title = TITLES.get(line.name, line.name)
    if isinstance(line, NoWinningLine):
        if line.gave_up:
            return _("Game {game} ({title}): the solver gave up before it found a win for this deal.",
                     game=line.game_id, title=title)
        return _("Game {game} ({title}): even with every card known, this deal cannot be won.",
                 game=line.game_id, title=title)
    first, last = 0, len(line.moves)
    if page is not None:
        first = min(max(page, 0), solution_pages(line) - 1) * SOLUTION_PAGE_MOVES
        last = min(last, first + SOLUTION_PAGE_MOVES)
    head = _("Game {game} ({title}): a winning line from the deal's start, {moves} moves besides {draws} draws "
             "({help} explains the notation).", game=line.game_id, title=title, moves=len(line.moves),
             draws=line.draws, help=voice.command("help"))
    rows = [f"{number:>3}. {_drawn_first(step.draws)}{step.move} ({step.card})"
            for number, step in enumerate(line.moves[first:last], start=first + 1)]
    foot = [] if page is None else [_("Page {page} of {pages}", page=first // SOLUTION_PAGE_MOVES + 1,
                                      pages=solution_pages(line))]
    return "\n".join([head, *rows, *foot])


def _drawn_first(draws: int) -> str:
    """The draws before a move, such as "draw ×3, " ("" for none)."""
    return f"{_draws(draws)}, " if draws else ""


def _draws(draws: int) -> str:
    """Some draws, such as "draw ×3" ("draw" for one): `draw` is the typed move, the same in
    every language."""
    return "draw" if draws == 1 else f"draw ×{draws}"


def replay_text(replay: Replay, voice: Voice) -> str:
    """What a replay's message says: whose game, which, and how it ended."""
    moves = voice.ngettext("{count} move", "{count} moves", replay.moves)
    details = {"player": voice.bold(voice.name(replay.player.name)), "title": TITLES.get(replay.name, replay.name),
               "game": replay.game_id, "moves": moves, "status": status_text(replay.status, voice),
               "score": replay.score}
    label = replay.label
    if label.day is not None or label.match_id is not None:
        text = voice.gettext("Replay of {player}'s {title}, {deal} (game {game}): {moves}, {status}, score {score}.",
                             deal=deal_text(label, voice), **details)
    elif label.number is None:
        text = voice.gettext("Replay of {player}'s {title} (game {game}): {moves}, {status}, score {score}.",
                             **details)
    else:
        text = voice.gettext("Replay of {player}'s {title} #{deal} (game {game}): {moves}, {status}, score {score}.",
                             deal=label.number, **details)
    return text if replay.live is None else f"{text}\n{kept_private_text(replay.live, voice)}"


def race_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of races ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case DamagedRace(race_id=race_id, entry=entry, problem=problem):
            return _("Race #{race} is damaged in storage and cannot be replayed (move {entry}: {problem}).",
                     race=race_id, entry=repr(entry), problem=problem)
        case UnknownLayout(layout=layout):
            return _("Unknown layout {layout}; layouts: {layouts}.", layout=repr(layout),
                     layouts=", ".join(RACE_LAYOUTS))
        case AlreadyRacing(race_id=None):
            return _("You are already in a race in this channel.")
        case AlreadyRacing(race_id=race_id):
            return _("You are already in race #{race} in this channel.", race=race_id)
        case RaceFull(full=True, seats=seats):
            return _("That race is full: {seats} players at most.", seats=seats)
        case RaceFull():
            return _("That race is not taking players any more.")
        case NotRaceHost(action="start"):
            return _("Only the race's host can start it.")
        case NotRaceHost(action="cancel"):
            return _("Only the race's host can cancel it.")
        case RaceUnderWay():
            return _("That race has already started.")
        case TooFewRacers(least=least):
            return _("A race needs {least} players at least: wait for someone to join.", least=least)
        case ElsewhereRace(race_id=race_id):
            return _("Race #{race} is run in another channel: its buttons work there.", race=race_id)
        case NoRaceHere():
            return _("You are in no race here: {race_open} starts one.", race_open=voice.command("race open"))
        case RaceChanged():
            return _("The race changed meanwhile: try again.")
        case NotInRace():
            return _("You are not in that race.")
        case RaceNotRunning(status="finished"):
            return _("That race is over.")
        case RaceNotRunning(status="lobby"):
            return _("That race has not started yet.")
        case RaceNotRunning():
            return _("That race is not running.")
        case NoSuchRace(race_id=race_id):
            return _("There is no race #{race}.", race=race_id)
    return ""


def live_deal_text(error: DealIsLive, voice: Voice) -> str:
    """Why nothing of a live deal is shown (bot/play/secrecy.py), by what was asked and why it is live."""
    _, live = voice.gettext, error.live
    if isinstance(live, LiveDaily):
        values = {"title": TITLES.get(live.game, live.game), "day": live.day, "time": deadline_text(live.day)}
        if error.sight is Sight.CARDS and live.day_over:
            return _("The {title} daily of {day} is still being finished by others: its deal stays hidden from you "
                     "until it is over ({time} at the latest).", **values)
        if error.sight is Sight.CARDS:
            return _("Play your own {title} daily of {day} first ({daily}): until then its deal stays hidden from "
                     "you.", daily=voice.command("daily"), **values)
        if error.sight is Sight.COPY:
            return _("That deal is being played as the {title} daily of {day}: it can be dealt on its own once the "
                     "daily is over ({time} at the latest).", **values)
        if error.copy:
            return _("This game has the same cards as the {title} daily of {day}, still being played: what the "
                     "solver finds about them stays hidden until it is over ({time} at the latest).", **values)
        return _("The {title} daily of {day} is still being played: what the solver finds about its deal stays "
                 "hidden until it is over ({time} at the latest).", **values)
    assert isinstance(live, LiveRound)
    values = {"round": live.round, "match": live.match_id}
    if error.sight is Sight.CARDS:
        return _("Finish your own game of round {round} of match #{match} first: until then its deal stays "
                 "hidden from you.", **values)
    if error.sight is Sight.COPY:
        return _("That deal is being played in round {round} of match #{match}: it can be dealt on its own once "
                 "the match is over.", **values)
    if error.copy:
        return _("This game has the same cards as round {round} of match #{match}, still open: what the solver "
                 "finds about them stays hidden until the match is over.", **values)
    return _("A match's round can be looked back on once the match is over (match #{match}).", **values)


def duration_text(seconds: float, voice: Voice) -> str:
    """A wait in hours and minutes, such as "12 h 00 min", "5 min" or "less than a minute"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return voice.gettext("less than a minute")
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def match_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of matches and teams ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case AlreadyHosting(match_id=None):
            return _("You already have a match waiting in its lobby here: start or cancel it first.")
        case AlreadyHosting(match_id=match_id):
            return _("You already have a match waiting in its lobby here (#{match}): start or cancel it first.",
                     match=match_id)
        case UnknownGame(name=name):
            return _("Unknown game {name}; games: {games}.", name=repr(name), games=", ".join(GAMES))
        case TeamMatchOffServer():
            return _("Team matches are played on a server.")
        case TargetOutOfRange(target=target, largest=largest):
            return _("The target must be between 1 and {largest}, not {value}.", largest=largest, value=target)
        case BadOptions(problem=problem):
            return voice.engine(problem)
        case NoSuchMatch(match_id=match_id):
            return _("There is no match #{match}.", match=match_id)
        case MatchClosed(match_id=match_id, status=status, action=action):
            values = {"match": match_id, "status": status_text(status, voice)}
            return {
                MatchAction.JOIN: _("Match #{match} is {status}: open a new one with {match_open}.",
                                    match_open=voice.command("match open"), **values),
                MatchAction.LEAVE: _("Match #{match} is {status}: its scoreboard stays as it ended.", **values),
                MatchAction.START: _("Match #{match} is {status} already.", **values),
                MatchAction.CANCEL: _("Match #{match} is {status}: nothing to cancel.", **values),
                MatchAction.PLAY: _("Match #{match} is {status}: its rounds in play ended with it, unscored.",
                                    **values),
            }[action]
        case NotInMatch(action=MatchAction.PLAY):
            return _("You are not in this match: press Join first.")
        case NotInMatch():
            return _("You are not in this match.")
        case NotTheHost(action=MatchAction.START):
            return _("Only the host, or a member with Manage Server, can start the match.")
        case NotTheHost():
            return _("Only the host, or a member with Manage Server, can cancel the match.")
        case NobodyJoined():
            return _("Nobody has joined yet.")
        case MatchChanged():
            return _("The match changed meanwhile: look again.")
        case NotStarted():
            return _("The match has not started yet: the host presses Start.")
        case ElsewhereMatch(match_id=match_id):
            return _("Match #{match} is played in another channel: its buttons work there.", match=match_id)
        case NotATeamMatch(match_id=match_id):
            return _("Match #{match} is not a team match: join it with its Join button.", match=match_id)
        case NoTeamChosen():
            return _("This is a team match: choose your team in the menu, or {team_create} one.",
                     team_create=voice.command("team create"))
        case BadTeamName(shortest=shortest, longest=longest):
            return _("A team name has {shortest} to {longest} characters.", shortest=shortest, longest=longest)
        case NotInATeam():
            return _("You are not in a team on this server.")
        case TeamRefused(problem=TeamProblem.IN_A_TEAM, name=None):
            return _("You are already in a team on this server: {team_leave} first.",
                     team_leave=voice.command("team leave"))
        case TeamRefused(problem=TeamProblem.IN_A_TEAM, name=name):
            return _("You are in team {name}: {team_leave} first.", name=voice.name(repr(name)),
                     team_leave=voice.command("team leave"))
        case TeamRefused(problem=TeamProblem.NAME_TAKEN, name=name):
            return _("There is already a team called {name} here, or you joined one meanwhile.",
                     name=voice.name(repr(name)))
        case TeamRefused(problem=TeamProblem.NO_SUCH_TEAM, name=name):
            return _("There is no team called {name} here: {team_list} shows them.", name=voice.name(repr(name)),
                     team_list=voice.command("team list"))
        case TeamRefused(problem=TeamProblem.JOINED_MEANWHILE):
            return _("You joined another team meanwhile.")
    return ""


# --- a board message's status line -------------------------------------------------------------

def board_status(game: Game, label: DealLabel, voice: Voice) -> str:
    """A solo board's status line: the game, its deal (named by `label`), score, stock and redeals."""
    return voice.bold(game.title) + " · " + voice.gettext(
        "{deal} · score {score} · stock {stock} · {redeals}", deal=deal_text(label, voice), score=game.score,
        stock=len(game.stock), redeals=_redeals_words(game.redeals_left, voice))


def race_status(race_id: int, game: RaceGame, seat: int, voice: Voice) -> str:
    """A racer's own board's status line: the race and the cards they have left."""
    return voice.bold(voice.gettext("Demon race #{race}", race=race_id)) + " · " + voice.gettext(
        "your board · {cards} cards left", cards=game.cards_left(seat))


def _redeals_words(redeals_left: int | None, voice: Voice) -> str:
    """"unlimited redeals", "1 redeal left", "0 redeals left"."""
    if redeals_left is None:
        return voice.gettext("unlimited redeals")
    return voice.ngettext("{count} redeal left", "{count} redeals left", redeals_left)


# --- alt text: a board image in words, for screen readers -------------------------------------

ALT_TEXT_LIMIT = 1024  # characters of Discord's attachment description
RANK_WORDS = {"A": N_("ace"), "T": "10", "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
SUIT_WORDS = {"C": N_("clubs"), "S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds")}
PILE_WORDS = {"s": "stock", "w": "waste", "r": "reserve"}
COLUMN_CAPS = (None, 6, 3, 1)  # the face-up cards named a column, tried in turn until the text fits


@lru_cache(maxsize=4096)  # a board's alt text names some twenty cards, each in three look-ups of the catalog
def card_words(card: str, voice: Voice) -> str:
    """A card as a screen reader should say it: `JD` is "jack of diamonds"."""
    rank = card[:-1]
    return voice.gettext("{rank} of {suit}", rank=voice.gettext(RANK_WORDS[rank]) if rank in RANK_WORDS else rank,
                         suit=voice.gettext(SUIT_WORDS[card[-1]]))


def board_captions(game: Game, voice: Voice, label: DealLabel) -> BoardCaptions:
    """The words drawn on `game`'s board image, in the voice's language, its deal named by `label`."""
    deal = None if label.day is None and label.match_id is None else deal_text(label, voice)
    return worded_board(game, voice.gettext, voice.ngettext, title=voice.engine(Phrase.marked(game.title)), deal=deal)


def board_text(game: Game, voice: Voice) -> str:
    """The board as plain text (the terminal's), its header in the voice's language."""
    return game.text(translations(voice.language, "engine"))


def race_captions(race: RaceGame, voice: Voice) -> RaceCaptions:
    """The words drawn on `race`'s board images (a player's own and the public table), in the
    voice's language."""
    return worded_race(race, voice.gettext, voice.ngettext, title=voice.engine(Phrase.marked(race.title)))


def board_alt_text(game: Game, label: DealLabel, voice: Voice, limit: int = ALT_TEXT_LIMIT) -> str:
    """A solo board's image in words, pile by pile, within `limit` characters: the game, its deal
    (named by `label`), the foundations' tops, the reserve's top and count, the waste's top, the
    stock, each column (its face-up cards, fewer when the text would be too long)."""
    head = voice.gettext("{title} board, {deal}, score {score}, {redeals}.", title=game.title,
                         deal=deal_text(label, voice), score=game.score,
                         redeals=_redeals_words(game.redeals_left, voice))
    return _alt_text(head, game.piles(), limit, voice, base=lambda pile: str(game.foundation_base(pile)))


def race_board_alt_text(game: RaceGame, seat: int, name: str, voice: Voice, limit: int = ALT_TEXT_LIMIT) -> str:
    """A racer's own board in words (their piles, and the shared foundations' tops), within `limit`."""
    head = voice.gettext("Race board of {name}: {cards} cards left. Shared foundations' tops: {tops}.", name=name,
                         cards=game.cards_left(seat), tops=_foundation_tops(game, voice))
    return _alt_text(head, game.piles(seat), limit, voice)


def race_table_alt_text(game: RaceGame, names: list[str], voice: Voice, limit: int = ALT_TEXT_LIMIT) -> str:
    """A race's public table in words: the shared foundations' tops and each racer's cards left."""
    racers = "; ".join(f"{name}: " + voice.gettext("{cards} cards left, {founded} on the foundations",
                                                   cards=game.cards_left(seat), founded=game.on_foundations(seat))
                       for seat, name in enumerate(names))
    return shorten(voice.gettext("Race table. Shared foundations' tops: {tops}. {racers}.",
                                   tops=_foundation_tops(game, voice), racers=racers), limit)


def _foundation_tops(game: RaceGame, voice: Voice) -> str:
    """The shared foundations' top cards in words, or "none yet"."""
    return ", ".join(card_words(str(top.card), voice) for top in game.foundation_tops()) or voice.gettext("none yet")


def _alt_text(head: str, layout: dict[str, list[str]], limit: int, voice: Voice,
              base: Callable[[str], str] | None = None) -> str:
    """`head`, then the piles of `layout` in words, naming fewer column cards until it fits;
    `base` names the card an empty foundation starts with."""
    text = head
    for cap in COLUMN_CAPS:
        text = " ".join([head, *_piles_in_words(layout, cap, voice, base)])
        if len(text) <= limit:
            return text
    return shorten(text, limit)


def _piles_in_words(layout: dict[str, list[str]], cap: int | None, voice: Voice,
                    base: Callable[[str], str] | None = None) -> list[str]:
    """One sentence a group of piles: foundations, reserve(s), waste, stock, columns."""
    _ = voice.gettext
    foundations = [pile for pile in layout if pile.startswith("f")]
    reserves = [pile for pile in layout if pile.startswith("r")]
    columns = [pile for pile in layout if pile.startswith("t")]
    sentences = []

    def named(pile: str) -> str:
        return f"{pile} {_top_words(layout[pile], voice)}"

    def foundation(pile: str) -> str:
        if base is None or layout[pile]:
            return named(pile)
        return named(pile) + " " + _("(from the {card})", card=card_words(base(pile), voice))

    if foundations:
        sentences.append(_("Foundations: {piles}.", piles=", ".join(map(foundation, foundations))))
    if reserves == ["r"]:
        cards = layout["r"]
        sentences.append(_("Reserve: {top}, {count} cards.", top=_top_words(cards, voice), count=len(cards))
                         if cards else _("Reserve: {top}.", top=_top_words(cards, voice)))
    elif reserves:
        sentences.append(_("Reserve piles: {piles}.", piles=", ".join(named(pile) for pile in reserves)))
    if "w" in layout:
        sentences.append(_("Waste: {top}.", top=_top_words(layout["w"], voice)))
    if "s" in layout:
        sentences.append(_("Stock: {count} cards.", count=len(layout["s"])))
    for pile in columns:
        sentences.append(_("Column {pile}: {cards}.", pile=pile, cards=_column_words(layout[pile], cap, voice)))
    return sentences


def _top_words(cards: list[str], voice: Voice) -> str:
    """A pile's top card in words, "face down" or "empty"."""
    if not cards:
        return voice.gettext("empty")
    return voice.gettext("face down") if cards[-1] == "??" else card_words(cards[-1], voice)


def _column_words(cards: list[str], cap: int | None, voice: Voice) -> str:
    """A column from the bottom: its face-down count, then its face-up cards (the top `cap`)."""
    _ = voice.gettext
    if not cards:
        return _("empty")
    face_up = [card for card in cards if card != "??"]
    hidden = len(cards) - len(face_up)
    shown = face_up if cap is None else face_up[-cap:]
    named = ", ".join(card_words(card, voice) for card in shown)
    if len(shown) < len(face_up):
        named = _("{count} face up, the top ones {cards}", count=len(face_up), cards=named)
    if not hidden:
        return named
    return _("{hidden} face down, then {cards}", hidden=hidden, cards=named) if face_up else \
        _("{hidden} face down", hidden=hidden)
