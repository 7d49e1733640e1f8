"""What a player reads for an answer of the play layer: a Reply's events in order, and a refusal
(a PlayError), each worded by its feature's module."""

from __future__ import annotations

from collections.abc import Callable

from bot.play.errors import PlayError
from bot.play.events import Event
from bot.play.replies import Reply
from bot.words.daily import daily_error_text, daily_event_text
from bot.words.leaderboards import leaderboard_error_text
from bot.words.matches import match_error_text, match_event_text
from bot.words.race import race_error_text
from bot.words.review import review_error_text, review_event_text
from bot.words.secrecy import secrecy_error_text
from bot.words.settings import settings_error_text
from bot.words.solo import solo_error_text, solo_event_text, stale_text
from bot.words.table import link_error_text
from bot.words.voice import Voice
from bot.words.watch import watch_error_text

# Each feature's words for a refusal: a sentence for its own PlayErrors, "" for the others.
ERROR_WORDS: tuple[Callable[[PlayError, Voice], str], ...] = (
    solo_error_text, match_error_text, daily_error_text, race_error_text, review_error_text, secrecy_error_text,
    watch_error_text, settings_error_text, leaderboard_error_text, link_error_text)


def reply_text(reply: Reply, voice: Voice) -> str:
    """What a player reads for a Reply: its events in order, one sentence or two each."""
    if reply.stale:
        return stale_text(voice)
    return " ".join(text for event in reply.events if (text := event_text(event, reply, voice)))


def event_text(event: Event, reply: Reply, voice: Voice) -> str:
    """What one event of a Reply says ("" for none this presenter words: a watched board's
    Watching is said over the board, `watched_text`)."""
    return (solo_event_text(event, reply.game, voice) or daily_event_text(event, reply.game, voice)
            or match_event_text(event, voice) or review_event_text(event, voice))


def error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a PlayError: what it carries, worded by its feature. (Every one of
    the play layer's is worded, tests/test_words.py checks; one that were not would say its
    arguments as they are, rather than nothing.)"""
    for words in ERROR_WORDS:
        if text := words(error, voice):
            return text
    return voice.engine(error)
