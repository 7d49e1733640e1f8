"""The shared voice: how a front end writes what every feature's words are made of (a command, bold
text, a name a member chose, a mention, a channel, a card, a number of moves, a wait, a deal's
name), in the language it speaks. Every sentence is an English msgid of the `bot` catalogs,
translated through the voice; markup (bold, a mention) is the voice's, set around the translated
text or in its values, never inside a msgid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache

import discord

from bot.game import Move, Phrase, PhrasedError, Sentences
from bot.i18n import COMMAND, N_, translations
from bot.languages import ENGLISH
from bot.play.days import attempt_deadline
from bot.play.replies import DealLabel
from render.captions import shorten

LONGEST_NAME = 40  # characters of a name in Discord's text (Discord's own names and team names have 32 at most)
_NUMBERED = re.compile(r"^([0-9]+)\.")  # "1. " starts a numbered list


@dataclass(frozen=True, slots=True)
class Voice:
    """How a front end writes a command, bold text, a mention, a channel and the names members
    chose, and the language it speaks (bot.languages; its catalogs: bot.i18n)."""

    command_prefix: str
    bold_mark: str
    channel_format: str  # a channel, its id as {channel}
    mention_format: str  # a member, their id as {user}
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

    def bold(self, text: object) -> str:
        """Text (or a number) set in bold where the front end has bold."""
        return f"{self.bold_mark}{text}{self.bold_mark}"

    def channel(self, channel_id: int) -> str:
        """A channel as the front end shows it (in Discord, a link to it)."""
        return self.gettext(self.channel_format, channel=channel_id)

    def mention(self, user_id: int) -> str:
        """A member as the front end shows them by their id: in Discord, a mention (the one place
        one is written; whether it pings is the message's allowed mentions, bot.views.mentions)."""
        return self.gettext(self.mention_format, user=user_id)

    def role(self, role_id: int) -> str:
        """A server's role as the front end shows it (in Discord, a mention: whether it pings is
        the message's allowed mentions)."""
        return f"<@&{role_id}>" if self.markdown else f"@{role_id}"

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


DISCORD = Voice(command_prefix="/", bold_mark="**", channel_format="<#{channel}>", mention_format="<@{user}>",
                localized_commands=True, markdown=True)
TERMINAL = Voice(command_prefix="", bold_mark="", channel_format=N_("channel {channel}"),
                 mention_format=N_("player {user}"))
# The table's web page: plain text (the page sets it as text, never as markup), Discord's commands.
WEB = Voice(command_prefix="/", bold_mark="", channel_format=N_("channel {channel}"),
            mention_format=N_("player {user}"))
# Where a game or a match stands (GameStatus, MatchStatus), as a player says it.
STATUSES = {"playing": N_("in play"), "won": N_("won"), "blocked": N_("blocked"), "resigned": N_("resigned"),
            "lobby": N_("in its lobby"), "running": N_("running"), "finished": N_("finished"),
            "cancelled": N_("cancelled"), "expired": N_("expired")}
# The Die of Justice's settings (bot.game.rules.Die), as a player reads them.
DIE_WORDS = {"off": N_("off"), "game": N_("game"), "pass": N_("pass")}
RANK_WORDS = {"A": N_("ace"), "T": "10", "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
SUIT_WORDS = {"C": N_("clubs"), "S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds")}
PLAYED_SHOWN = 12  # moves named in full when a text plays many


def status_text(status: str, voice: Voice) -> str:
    """A game's or match's status as a word or two, such as "won"."""
    return voice.gettext(STATUSES[status]) if status in STATUSES else status


def die_text(die: str, voice: Voice) -> str:
    """A Die of Justice setting as a word, such as "off"."""
    return voice.gettext(DIE_WORDS[die]) if die in DIE_WORDS else die


@lru_cache(maxsize=4096)  # a board's alt text names some twenty cards, each in three look-ups of the catalog
def card_words(card: str, voice: Voice) -> str:
    """A card as a screen reader should say it: `JD` is "jack of diamonds"."""
    rank = card[:-1]
    return voice.gettext("{rank} of {suit}", rank=voice.gettext(RANK_WORDS[rank]) if rank in RANK_WORDS else rank,
                         suit=voice.gettext(SUIT_WORDS[card[-1]]))


def played_text(played: tuple[Move, ...] | list[Move], voice: Voice) -> str:
    """The moves played, such as "Played rt2 d.", the middle left out when there are many."""
    if not played:
        return ""
    if len(played) <= PLAYED_SHOWN:
        return voice.gettext("Played {moves}.", moves=" ".join(str(move) for move in played))
    first, last = " ".join(str(move) for move in played[:PLAYED_SHOWN - 2]), str(played[-1])
    return voice.gettext("Played {count} moves: {first} … {last}.", count=len(played), first=first, last=last)


def draws_text(draws: int) -> str:
    """Some draws, such as "draw ×3" ("draw" for one): `draw` is the typed move, the same in
    every language."""
    return "draw" if draws == 1 else f"draw ×{draws}"


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


def duration_text(seconds: float, voice: Voice) -> str:
    """A wait in hours and minutes, such as "12 h 00 min", "5 min" or "less than a minute"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return voice.gettext("less than a minute")
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def size_text(size: int) -> str:
    """A file's size for a player, such as "9.5 MiB" or "300 KiB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MiB"
    return f"{max(1, round(size / 1024))} KiB"
