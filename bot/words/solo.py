"""What a player reads of a solo game: its events (a new game, moves, hints, its end and verdict),
its refusals, its rules, and what a board's pick menu says."""

from __future__ import annotations

import math

from bot.game import GAMES, TITLES, Game, describe_game
from bot.i18n import N_
from bot.play.errors import (
    BadOptions,
    ChangedElsewhere,
    DamagedGame,
    DealTooLarge,
    ElsewhereGame,
    GameOver,
    MoveCapReached,
    NoGameHere,
    NotASoloGame,
    NotYourGame,
    PlayError,
    RateLimited,
    UndoOff,
    UnknownGame,
)
from bot.play.events import (
    AlreadyPlaying,
    Ended,
    Event,
    Hinted,
    HintNotAlone,
    Moved,
    NothingToDo,
    NoVerdict,
    Refused,
    Started,
    Verdict,
)
from bot.play.replies import GameStatus
from bot.words.voice import Voice, draws_text, played_text, status_text

# What a rate limit limits (bot.play.work.LIMITS), as a player says it.
LIMITED = {"new-game": N_("new games"), "hint": N_("hints"), "verdict": N_("verdicts"), "lobby": N_("new lobbies"),
           "analysis": N_("analyses"), "solution": N_("solutions"), "replay": N_("replays"),
           "post": N_("public posts in this channel"), "web": N_("moves on the table")}


def solo_event_text(event: Event, game: Game, voice: Voice) -> str:
    """What one event of a solo game says, of `game` as the answer shows it ("" for another event)."""
    _ = voice.gettext
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
        case Hinted(hint=hint) if hint is not None and hint.draws == 0:
            return _("Hint: {move} ({meaning})", move=hint.move, meaning=voice.engine(hint.meaning))
        case Hinted(hint=hint) if hint is not None and hint.redeals:
            return _("Hint: {draws}, turning the waste over on the way, then {move} ({meaning})",
                     draws=draws_text(hint.draws), move=hint.move, meaning=voice.engine(hint.meaning))
        case Hinted(hint=hint) if hint is not None:
            return _("Hint: {draws}, then {move} ({meaning})", draws=draws_text(hint.draws), move=hint.move,
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
    return ""


def solo_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of solo games, and of any costly action asked for too
    often ("" for another PlayError)."""
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
        case UnknownGame(name=name):
            return _("Unknown game {name}; games: {games}.", name=repr(name), games=", ".join(GAMES))
        case BadOptions(problem=problem):
            return voice.engine(problem)  # the engine's own words, in the voice's language
        case ElsewhereGame():
            return _("That button belongs to a game played in another channel: it works there.")
        case RateLimited(action=action, retry_after=retry_after):
            what = _(LIMITED[action]) if action in LIMITED else action
            return _("Slow down: you have asked for {what} too often. Try again in {seconds} s.", what=what,
                     seconds=math.ceil(retry_after))
        case MoveCapReached(cap=cap):
            return _("That would take this game past its cap of {cap} moves: nothing was played.", cap=cap)
    return ""


def stale_text(voice: Voice) -> str:
    """What a board answers when the button pressed was on an older board."""
    return voice.gettext("That board was out of date: here is the current one.")


def rules_text(name: str, voice: Voice) -> str:
    """The rules of game `name` as a front end shows them: the engine's sentences, the title
    that begins them set in bold."""
    text, title = voice.engine(describe_game(name)), TITLES[name]
    return voice.bold(title) + text.removeprefix(title) if text.startswith(title) else text


def picked_text(cards: str, pile: str, voice: Voice) -> str:
    """What a board says once cards are picked in its menu: where to tap next."""
    return voice.gettext("Picked {cards} from {pile}: tap the pile it goes to.", cards=cards, pile=pile)


def pick_first_text(voice: Voice) -> str:
    """What a board says when a pile is tapped for cards that were not picked (or cannot move)."""
    return voice.gettext("Pick cards from the menu first.")
