"""The English a player reads, for every presenter: what bot.play's events and errors say.

bot.play returns data; the presenters (bot.views for Discord, bot.terminal) word it here, each
in its own Voice: how it writes a command (Discord's `/play`, the terminal's `play`) and bold
text. A new language is a new catalog like this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.game import Move
from bot.play.solo import (
    AlreadyPlaying,
    ChangedElsewhere,
    DamagedGame,
    DealTooLarge,
    Ended,
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
    Verdict,
)


@dataclass(frozen=True, slots=True)
class Voice:
    """How a front end writes a command and bold text."""

    command_prefix: str
    bold_mark: str

    def command(self, name: str) -> str:
        """A command as the player types it, such as `/play`."""
        return f"{self.command_prefix}{name}"

    def bold(self, text: str) -> str:
        """Text set in bold where the front end has bold."""
        return f"{self.bold_mark}{text}{self.bold_mark}"


DISCORD = Voice(command_prefix="/", bold_mark="**")
TERMINAL = Voice(command_prefix="", bold_mark="")
# What a rate limit limits (bot.play.work.LIMITS), as a player says it.
LIMITED = {"new-game": "new games", "hint": "hints", "verdict": "verdicts", "lobby": "new lobbies"}
PLAYED_SHOWN = 12  # moves named in full when a text plays many


def reply_text(reply: Reply, voice: Voice) -> str:
    """What a player reads for a Reply: its events in order, one sentence or two each."""
    if reply.stale:
        return "That board was out of date: here is the current one."
    return " ".join(text for event in reply.events if (text := event_text(event, reply, voice)))


def event_text(event: object, reply: Reply, voice: Voice) -> str:
    """What one event of a Reply says ("" for none this presenter words)."""
    from bot.play.daily import DailyDealt, DailyResumed
    from bot.play.matches import MatchEnded, MatchWon, RoundDealt, RoundScored

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
            return str(error)
        case NothingToDo(auto=auto):
            return "Nothing can go to a foundation now." if auto else "Nothing to do."
        case HintNotAlone():
            return "Ask for a hint on its own: h"
        case Hinted(move=None):
            return "No move left to suggest."
        case Hinted(move=move):
            return f"Hint: {move} ({game.describe(move)})"
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
    return str(error)
