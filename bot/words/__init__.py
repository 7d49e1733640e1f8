"""What a player reads, for every presenter, in their language: what bot.play's events and errors
say, and every feature's messages, one module a feature:

- voice.py: the shared voice, how a front end writes what the words are made of (a command, bold
  text, a name a member chose, a mention, a channel, a card, moves, a wait, a deal's name)
- replies.py: a Reply's events and a refusal, each worded by its feature's module: solo.py,
  daily.py, matches.py (and a match's scoreboard and buttons' answers), race.py (and a race's
  public board), review.py (analyses, winning lines, replays), secrecy.py (live deals), watch.py,
  settings.py, leaderboards.py (pages and stats as tables)
- boards.py: a board's status line, the words on its image, and its alt text

bot.play returns data; the presenters (bot.views for Discord, bot.terminal) word it here, each
in its own Voice: how it writes a command (Discord's `/play`, the terminal's `play`), bold text,
a mention and a name a member chose (in Discord's markdown, inert: `Voice.name`), and the language
it speaks. Every sentence is an English msgid of the `bot` catalogs (bot/locales), translated
through the voice: `voice.gettext("Score {score}.", score=score)`; markup (bold, a mention) is set
around the translated text or in its values, never inside a msgid. The names below are the ones
presenters use, re-exported from their modules.
"""

from bot.words.boards import (
    ALT_TEXT_LIMIT,
    board_alt_text,
    board_captions,
    board_status,
    board_text,
    race_board_alt_text,
    race_captions,
    race_status,
    race_table_alt_text,
)
from bot.words.daily import foundation_square, share_text
from bot.words.replies import error_text, event_text, reply_text
from bot.words.review import SOLUTION_PAGE_MOVES, analysis_text, replay_text, solution_pages, solution_text
from bot.words.secrecy import kept_private_text
from bot.words.solo import rules_text
from bot.words.voice import (
    DISCORD,
    LONGEST_NAME,
    TERMINAL,
    WEB,
    Voice,
    card_words,
    die_text,
    duration_text,
    played_text,
    size_text,
    status_text,
)
from bot.words.watch import watched_text
from render.captions import shorten

__all__ = ["ALT_TEXT_LIMIT", "DISCORD", "LONGEST_NAME", "SOLUTION_PAGE_MOVES", "TERMINAL", "WEB", "Voice",
           "analysis_text",
           "board_alt_text", "board_captions", "board_status", "board_text", "card_words", "die_text",
           "duration_text", "error_text", "event_text", "foundation_square", "kept_private_text", "played_text",
           "race_board_alt_text", "race_captions", "race_status", "race_table_alt_text", "replay_text", "reply_text",
           "rules_text", "share_text", "shorten", "size_text", "solution_pages", "solution_text", "status_text",
           "watched_text"]
