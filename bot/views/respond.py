"""Answering an interaction inside Discord's 3 seconds, whatever happens.

The work runs as a task; if it is not done by `ANSWER_WITHIN` seconds after the interaction was
made (its id's time, so that a late gateway counts too) the interaction is deferred first and
the answer follows as an edit (two requests to Discord instead of one). Meanwhile the player's
Discord shows its own "sending…" or a spinning button, so a deferral is only there to keep the
3 seconds from running out: one request an answer wherever the deadline allows it. When more
answers are in progress than the bot finishes in the time left (a crowd moving at once), the new
one would wait that long anyway: it is deferred at once, so the 3 seconds cannot run out while it
waits behind the others. How many the bot finishes is its rate while busy: answers finished per
second of time with answers in progress, so that a quiet moment neither slows the rate down nor
makes a burst after it look like a bot that finishes nothing.
A PlayError becomes a short private message; anything unexpected is logged and answered with
an apology, never "interaction failed"; an answer Discord refuses to take (an image over the
place's upload limit, 413) is said in words instead, never a "thinking…" left for ever. An
answer pings nobody, whoever it names (NO_PINGS).
A new public message is one of the member's public posts in its channel, capped (bot.play.posts).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from bot import metrics
from bot.cogs.checks import posts_publicly
from bot.config import DEFAULT_MEMBER_PACE
from bot.i18n import N_
from bot.languages import choose_language, language_of
from bot.play import PlayError
from bot.play.errors import RateLimited
from bot.play.posts import Posts
from bot.play.settings import load_settings
from bot.play.work import Turns
from bot.views.layout import layout_view
from bot.views.mentions import NO_PINGS
from bot.words import DISCORD, Voice, shorten, size_text
from bot.words import error_text as worded

# Seconds from an interaction's making by which it is answered or deferred: Discord gives up at 3 s,
# and the time left is for the trips to and from Discord and an event loop running late (on a
# machine loaded four times over, with 2 s, some deferrals came after the 3 s).
ANSWER_WITHIN = 1.5
CROWD = 8  # with fewer answers in progress than this, never defer at once
MEMBER_PACE = DEFAULT_MEMBER_PACE  # the MEMBER_PACE setting (bot.config), as `pace_members` sets it
RATE_WINDOW = 2.0  # seconds over which the rate of finished answers is measured
if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

log = logging.getLogger(__name__)
T = TypeVar("T")
SORRY = N_("Something went wrong on our side; your game is safe. Please try again.")
# Discord refused to take an answer's image (over the place's upload limit, or any other error).
UPLOAD_REFUSED = N_("Discord refused this answer's image ({size}; error {status}), so it cannot be shown.")
DISCORD_LIMIT = 2000  # characters of a message's content
ERROR_LIMIT = 300  # characters of an error: a sentence or two
LONGEST_WORD = 40  # characters of a word shown back to a player (their input, quoted in an error)


class _Load:
    """The answers in progress in this process, and how fast it finishes them while busy."""

    def __init__(self) -> None:
        self.in_progress = 0
        self.waiting = 0  # of those, the ones waiting for their member's turn: they hold nobody up
        # (loop time, busy seconds by then) of the answers finished within RATE_WINDOW
        self.finished: deque[tuple[float, float]] = deque()
        self.busy_before = 0.0  # seconds with answers in progress, up to busy_since
        self.busy_since: float | None = None  # since when answers have been in progress without a break
        self.rate: float | None = None  # answers a second while busy, as last measured

    def busy_seconds(self, now: float) -> float:
        """Seconds spent with answers in progress, all told, up to `now`."""
        return self.busy_before + (now - self.busy_since if self.busy_since is not None else 0.0)

    def started(self, now: float) -> None:
        """An answer is in progress."""
        if not self.in_progress:
            self.busy_since = now
        self.in_progress += 1

    def ended(self, now: float) -> None:
        """An answer is done."""
        self.in_progress -= 1
        self.finished.append((now, self.busy_seconds(now)))
        if not self.in_progress and self.busy_since is not None:
            self.busy_before += now - self.busy_since
            self.busy_since = None

    def crowded(self, now: float, within: float) -> bool:
        """Whether a new answer would not be done `within` seconds, behind the ones in progress:
        its place in the queue against how many the bot finishes in that time at its rate while
        busy (over the answers finished within RATE_WINDOW; before any: a crowd; busy a whole
        RATE_WINDOW without finishing any: none a second)."""
        while self.finished and self.finished[0][0] < now - RATE_WINDOW:
            self.finished.popleft()
        if len(self.finished) >= 2:
            busy = self.finished[-1][1] - self.finished[0][1]
            if busy > 0:
                self.rate = (len(self.finished) - 1) / busy
        elif self.busy_since is not None and now - self.busy_since >= RATE_WINDOW:
            self.rate = 0.0
        working = self.in_progress - self.waiting
        if working < CROWD:
            return False
        return self.rate is None or working > self.rate * within


_load = _Load()
_turns = Turns()  # each member's interactions and messages, one at a time
_last_answers: dict[int, float] = {}  # member -> loop time their last answer was worked out


@dataclass(slots=True)
class Answer:
    """What to show: text, and a board image with its buttons (both or neither), and a board's
    status line. A board is shown in a Components V2 layout (`bot.views.layout`). `analysing`:
    the game whose analysis (where it was lost) follows once ready (bot.views.review)."""

    text: str
    file: discord.File | None = None
    view: discord.ui.View | None = None
    status: str = ""
    analysing: int | None = None
    private: bool = False  # shown to the member who asked alone, even where the command answers publicly
    # Nothing changed (a refused move): the words alone, privately, and any board is left as it is.
    unchanged: bool = False
    table: int | None = None  # the member's own game in play: its board offers it on the web table, privately


@dataclass(slots=True)
class Shown:
    """An Answer as a message's fields: its content (None in a V2 layout), files and view."""

    content: str | None
    files: list[discord.File]
    view: discord.ui.View | discord.ui.LayoutView | None

    def to_send(self) -> dict[str, Any]:
        """The content, files and view as a new message's keyword arguments: a V2 layout carries
        its words in its view, and a new message has no content to clear."""
        fields: dict[str, Any] = {"files": self.files, "view": self.view or discord.utils.MISSING}
        if self.content:
            fields["content"] = self.content
        return fields


def shown(result: Answer, *, v2: bool = False) -> Shown:
    """The message fields for an Answer: a board (an answer with an image or a status line), or
    any answer that replaces a V2 message (`v2`: Discord keeps the flag once set), as a V2
    layout without content; anything else as plain content and buttons."""
    files = [result.file] if result.file else []
    if result.file is not None or result.status or v2:
        return Shown(None, files, unkept(layout_view(result.status, shorten(result.text, DISCORD_LIMIT), result.file,
                                                    result.view)))
    return Shown(shorten(result.text, DISCORD_LIMIT) or None, files, unkept(result.view))


ViewT = TypeVar("ViewT", discord.ui.View, discord.ui.LayoutView)


def unkept(view: ViewT | None) -> ViewT | None:
    """The view, stopped before it is sent, so that discord.py does not keep it: its items are
    DynamicItems, answered by their custom_id on whatever message they are (the app registers
    them), so a kept view serves nothing, and discord.py would keep every private answer's view
    15 minutes, with a timer task: some 11 KiB a board, gigabytes at a few hundred answers a second."""
    if view is not None:
        view.stop()
    return view


async def answer(interaction: discord.Interaction, work: Awaitable[Answer], *, edit: bool = False,
                 ephemeral: bool = True) -> None:
    """Run `work` and show its Answer: as an edit of the message the interaction came from
    (`edit`, for buttons) or as a new message (`ephemeral` or public). Deferred first when
    busy, or when the work is not done by ANSWER_WITHIN seconds after the interaction was made.
    A new public message is one of the member's public posts in the channel (bot.play.posts): over
    their cap there, the work is not run and they are told privately, at once, to slow down; an
    answer that is not posted after all (a refusal, a private answer) does not count. Each is
    counted in the bot's metrics (bot.metrics), by kind and outcome, with its time."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    outcome: metrics.Outcome = "failed"  # until it is answered or refused
    post = None
    if not edit and not ephemeral and posts_publicly(interaction):
        try:
            post = _posts(interaction).count(interaction.user.id, interaction.channel_id)
        except RateLimited as error:
            _let_go(work)
            await _say(interaction, error_text(error, await voice_of(interaction)), edit=False, ephemeral=False)
            metrics.handled(kind_of(interaction), "refused", loop.time() - now)
            return
    posted = False
    task = asyncio.ensure_future(in_turn(interaction.user.id, work, answering=True))
    _load.started(now)
    try:
        left = time_left(interaction)
        busy = _load.crowded(now, left)
        if busy or not (await asyncio.wait({task}, timeout=left))[0]:
            metrics.deferred("busy" if busy else "slow")
            try:
                await _defer(interaction, edit=edit, ephemeral=ephemeral)
            except discord.HTTPException as error:  # too late (the 3 s ran out): nothing can be shown
                log.warning("interaction %s could not be deferred: %s", interaction.id, error)
                await asyncio.wait({task})  # the work still finishes (a move is stored)
                if not task.cancelled() and task.exception() is not None:
                    log.warning("interaction %s: %r", interaction.id, task.exception())
                return
        try:
            result = await task
        except PlayError as error:
            await _say(interaction, error_text(error, await voice_of(interaction)), edit=edit, ephemeral=ephemeral)
            outcome = "refused"
            return
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            member_voice = DISCORD.speaking(choose_language(interaction.locale, None))  # the store may be down
            await _say(interaction, member_voice.gettext(SORRY), edit=edit, ephemeral=ephemeral)
            return
        if result.unchanged:
            await _say(interaction, result.text, edit=edit, ephemeral=ephemeral)
            outcome = "refused"
            return
        size = file_size(result.file)  # read now: the file is closed once sent
        try:
            if result.table is not None and (result.private or _private_place(interaction, edit=edit,
                                                                               ephemeral=ephemeral)):
                await _offer_table(interaction, result, result.table)
            await _show(interaction, result, edit=edit, ephemeral=ephemeral)
        except discord.HTTPException as error:  # such as 413, over the upload limit: said in words instead
            log.warning("interaction %s: Discord refused the answer: %s", interaction.id, error)
            voice = await voice_of(interaction)
            refused = (voice.gettext(UPLOAD_REFUSED, size=size_text(size), status=error.status)
                       if result.file is not None else voice.gettext(SORRY))
            try:
                await _say(interaction, refused, edit=edit, ephemeral=ephemeral)
            except discord.HTTPException as again:
                log.warning("interaction %s could not be answered: %s", interaction.id, again)
            return
        posted = not result.private
        outcome = "answered"
        if result.analysing is not None:
            from bot.views.review import follow_up_with_analysis  # the review views build on this module

            follow_up_with_analysis(bot_of(interaction).review, interaction, result.analysing,
                                    ephemeral=ephemeral)
    finally:
        if post is not None and not posted:
            _posts(interaction).take_back(post)
        _load.ended(loop.time())
        metrics.handled(kind_of(interaction), outcome, loop.time() - now)


def kind_of(interaction: discord.Interaction) -> metrics.Kind:
    """What an interaction is, for the metrics: a button's or a menu's (a component's), else a command."""
    if interaction.type is not discord.InteractionType.component:
        return "command"
    button = (interaction.data or {}).get("component_type") == discord.ComponentType.button.value
    return "button" if button else "menu"


@contextlib.contextmanager
def public_post(interaction: discord.Interaction) -> Iterator[None]:
    """Count what the block posts to the channel, a message of the bot's own (a lobby), as one of
    the member's public posts: RateLimited before the block when they have made their share there
    lately; taken back when the block fails."""
    posts = _posts(interaction)
    post = posts.count(interaction.user.id, interaction.channel_id)
    try:
        yield
    except BaseException:
        posts.take_back(post)
        raise


def bot_of(interaction: discord.Interaction) -> PatientExorcismBot:
    """The bot an interaction came to, typed as ours: discord.py types `interaction.client` as any
    Client, and every view and cog of this bot is only ever added to a PatientExorcismBot."""
    return cast("PatientExorcismBot", interaction.client)



def as_button(item: discord.ui.Item[Any]) -> discord.ui.Button[Any]:
    """The button a DynamicItem is rebuilt from (the templates that call this match buttons' ids)."""
    if not isinstance(item, discord.ui.Button):
        raise TypeError(f"a button was expected, not {type(item).__name__}")
    return item


def _posts(interaction: discord.Interaction) -> Posts:
    """The bot's count of its members' public posts."""
    return bot_of(interaction).posts


def _let_go(work: Awaitable[Answer]) -> None:
    """Drop work that will not run: a coroutine is closed, so that Python does not warn that it
    was never awaited."""
    if inspect.iscoroutine(work):
        work.close()


def file_size(file: discord.File | None) -> int:
    """The bytes of an answer's file (0 for none, or one not held in memory)."""
    if file is None or not isinstance(file.fp, io.BytesIO):
        return 0
    return file.fp.getbuffer().nbytes


@contextlib.contextmanager
def waiting_elsewhere() -> Iterator[None]:
    """While an answer's work waits in a place of its own (a replay in bulk drawing's line and
    process), it holds nobody else up: it is not counted among the answers that make a crowd."""
    _load.waiting += 1
    try:
        yield
    finally:
        _load.waiting -= 1


def time_left(interaction: discord.Interaction) -> float:
    """Seconds left until the interaction should be answered or deferred: ANSWER_WITHIN after it
    was made, by its id (a clock behind Discord's counts from now: never more than ANSWER_WITHIN)."""
    made = discord.utils.snowflake_time(interaction.id).timestamp()
    return max(0.0, ANSWER_WITHIN - max(0.0, time.time() - made))


def pace_members(seconds: float) -> None:
    """Set the shortest time between the ends of two answers to one member (MEMBER_PACE)."""
    global MEMBER_PACE
    MEMBER_PACE = seconds


async def in_turn(member_id: int, work: Awaitable[T], *, answering: bool = False) -> T:
    """`work` in the member's turn: a member's interactions and messages are worked out one at
    a time, in the order they came, at least MEMBER_PACE apart, so that their spam waits behind
    their own work, and everyone else's goes on beside it. `answering`: an answer in progress
    (`answer`'s), counted as waiting meanwhile."""
    loop = asyncio.get_running_loop()
    waiting = answering
    _load.waiting += waiting
    try:
        async with _turns.turn(member_id):
            pause = _last_answers.get(member_id, -MEMBER_PACE) + MEMBER_PACE - loop.time()
            if pause > 0:
                await asyncio.sleep(pause)
            _load.waiting -= waiting
            waiting = False
            try:
                return await work
            finally:
                now = _last_answers[member_id] = loop.time()
                if len(_last_answers) > 10_000:  # forget the members who may go at once anyway
                    for member in [m for m, at in _last_answers.items() if at < now - MEMBER_PACE]:
                        del _last_answers[member]
    finally:
        _load.waiting -= waiting  # cancelled before its turn came


async def _defer(interaction: discord.Interaction, *, edit: bool, ephemeral: bool) -> None:
    """Acknowledge now, answer later: "thinking…" for a new message, nothing visible for an edit."""
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def _show(interaction: discord.Interaction, result: Answer, *, edit: bool, ephemeral: bool) -> None:
    """Show the Answer: an edit of the interaction's message (`edit`, a V2 one staying V2), an
    edit of the deferred reply (where the V2 flag is set: a deferral cannot carry it), or a new
    message."""
    v2 = edit and interaction.message is not None and interaction.message.flags.components_v2
    if result.private and not _private_place(interaction, edit=edit, ephemeral=ephemeral):
        await _show_privately(interaction, result)
        return
    message = shown(result, v2=v2)
    view = message.view or discord.utils.MISSING
    if interaction.response.is_done():
        await interaction.edit_original_response(content=message.content, attachments=message.files, view=view,
                                                 allowed_mentions=NO_PINGS)
    elif edit:
        await interaction.response.edit_message(content=message.content, attachments=message.files, view=view,
                                                allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(**message.to_send(), ephemeral=ephemeral, allowed_mentions=NO_PINGS)


async def _offer_table(interaction: discord.Interaction, result: Answer, game_id: int) -> None:
    """Add an "Open table" link to a private board of the member's own game, where the bot serves
    the web table: a link only they see, since whoever follows it plays as them until it is opened."""
    web = bot_of(interaction).web
    if web is None:
        return
    voice = await voice_of(interaction)
    try:
        url = await web.link(interaction.user.id, game_id, voice.language)
    except PlayError:  # not theirs after all: no link
        return
    if result.view is None:
        result.view = discord.ui.View(timeout=None)
    result.view.add_item(discord.ui.Button(label=voice.gettext("Open table"), url=url, emoji="🌐"))


def _private_place(interaction: discord.Interaction, *, edit: bool, ephemeral: bool) -> bool:
    """Whether the answer lands where only the member who asked sees it."""
    if edit:
        return interaction.message is not None and interaction.message.flags.ephemeral
    return ephemeral


async def _show_privately(interaction: discord.Interaction, result: Answer) -> None:
    """A private answer to a command that answers publicly, or a button on a public message: a new
    ephemeral message; a public "thinking…" already sent is taken away, a public message kept."""
    message = shown(result)
    if not interaction.response.is_done():
        await interaction.response.send_message(**message.to_send(), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    if interaction.response.type != discord.InteractionResponseType.deferred_message_update:
        await interaction.delete_original_response()
    await interaction.followup.send(**message.to_send(), ephemeral=True, allowed_mentions=NO_PINGS)


async def _say(interaction: discord.Interaction, text: str, *, edit: bool, ephemeral: bool = True) -> None:
    """A short private message that leaves any board as it is: a command's private "thinking…"
    message becomes the text; anywhere else it is shown privately (`_show_privately`: a public
    "thinking…" is taken away), so that the channel never reads what was meant for one member."""
    text = shorten(text, ERROR_LIMIT)
    if interaction.response.is_done() and not edit and ephemeral:
        await interaction.edit_original_response(content=text)
    else:
        await _show_privately(interaction, Answer(text=text))


def error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads in Discord for a PlayError (bot.words)."""
    return worded(error, voice)


async def voice_of(interaction: discord.Interaction) -> Voice:
    """Discord's voice in the language of the member who interacts: their Discord language if
    the bot speaks it, else their server's (/settings language), else English."""
    server_language = None
    if language_of(interaction.locale) is None and interaction.guild_id is not None:
        server_language = (await load_settings(bot_of(interaction).store,
                                               interaction.guild_id)).language
    return DISCORD.speaking(choose_language(interaction.locale, server_language))


async def channel_voice(interaction: discord.Interaction) -> Voice:
    """Discord's voice for an answer everyone in the channel reads (a watched board, a shared
    daily): the server's language in a server, the member's own in a DM."""
    if interaction.guild_id is None:
        return await voice_of(interaction)
    return await server_voice(bot_of(interaction), interaction.guild_id)


async def server_voice(bot: PatientExorcismBot, guild_id: int | None) -> Voice:
    """Discord's voice for what a server's channel reads (typed-move answers, public boards):
    in its default language (/settings language), English outside a server or by default."""
    settings = await load_settings(bot.store, guild_id)
    return DISCORD.speaking(choose_language(None, settings.language))


def fit_to_show(text: str, limit: int = DISCORD_LIMIT) -> str:
    """A sentence fit to show a player: each word over LONGEST_WORD characters (a long input
    quoted back in an error) cut to its start and "…", and the whole within `limit` characters.
    For sentences, not for code blocks, whose lines of dashes are long words."""
    short = "".join(word if word.isspace() else shorten(word, LONGEST_WORD) for word in re.split(r"(\s+)", text))
    return shorten(short, limit)
