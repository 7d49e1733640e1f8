"""What a player reads of the daily: its events, its refusals and its shared result card."""

from __future__ import annotations

from bot.game import GAMES, TITLES, Game
from bot.play.daily import DailyShare
from bot.play.errors import (
    AlreadyShared,
    DailyElsewhere,
    DailyNotOver,
    DailyPlayed,
    NoSuchDaily,
    NotADay,
    PlayError,
    ShareWouldBePrivate,
)
from bot.play.events import DailyDealt, DailyResumed, Event
from bot.words.voice import Voice, deadline_text, duration_text, status_text

# A foundation on a daily's share card: a square coloured by how far it got, from empty to complete.
EMPTY_SQUARE, FULL_SQUARE = "⬛", "🟩"
PROGRESS_SQUARES = ("🟥", "🟧", "🟨")  # less than a third of the way, less than two thirds, further


def daily_event_text(event: Event, game: Game, voice: Voice) -> str:
    """What one event of a daily says, of `game` as the answer shows it ("" for another event)."""
    _ = voice.gettext
    match event:
        case DailyDealt(day=day):
            return _("Daily {title} of {day}: the same deal for everyone today. One attempt, no undo. Good luck!",
                     title=game.title, day=day)
        case DailyResumed(day=day, day_over=True):
            return _("Your daily game, in play: {title} of {day}. Its day is over: finish it by {time}, when it "
                     "ends as it stands.", title=game.title, day=day, time=deadline_text(day))
        case DailyResumed(day=day):
            return _("Your daily game, in play: {title} of {day}. One attempt, no undo.", title=game.title, day=day)
    return ""


def daily_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of the daily ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case NoSuchDaily(game=game):
            return _("There is no daily of {game}. Games: {games}.", game=repr(game), games=", ".join(GAMES))
        case NotADay(day=day):
            return _("{day} is not a day: write it YYYY-MM-DD.", day=repr(day))
        case DailyElsewhere(game=game, day=day, channel_id=None):
            return _("Your {title} daily of {day} is in play outside this channel: finish it there.",
                     title=TITLES.get(game, game), day=day)
        case DailyElsewhere(game=game, day=day, channel_id=int(channel_id)):
            return _("Your {title} daily of {day} is in play in {channel}: finish it there.",
                     title=TITLES.get(game, game), day=day, channel=voice.channel(channel_id))
        case DailyNotOver():
            return _("A daily's result can be shared once its game has ended.")
        case AlreadyShared():
            return _("You have shared this daily's result already.")
        case ShareWouldBePrivate():
            return _("This server shows members' own apps to them alone: the card would reach nobody here, so it "
                     "was not posted.")
        case DailyPlayed(game=game, status=status, score=score, seconds_left=seconds_left):
            return _("You have played today's {title} daily already: {status}, score {score}. The next one comes "
                     "in {wait} (at 00:00 UTC).", title=TITLES.get(game, game), status=status_text(status, voice),
                     score=score, wait=duration_text(seconds_left, voice))
    return ""


def share_text(share: DailyShare, name: str, voice: Voice) -> str:
    """A finished daily's result card, without a spoiler: the day, who (`name`, as the front end
    names its player: in Discord, `voice.mention`), how it ended, the score and moves, each
    foundation as a square (see foundation_square), and whether hints helped."""
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
