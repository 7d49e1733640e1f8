"""A race's messages: the public board in the channel (Join, Start, Cancel, My board) and each
player's private board (Draw, Auto, a button a pile), as DynamicItems that survive restarts.

A private button's custom_id carries the race, how many race moves the board showed (so that a
card another player got to a foundation first is reported as beaten) and the action.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot.game.race import HAND_PILES
from bot.play.errors import NotInRace, RaceNotRunning
from bot.play.race import RaceReply
from bot.views.board import ID, PER_ROW, alternatives, player_of
from bot.views.respond import Answer, answer, as_button, bot_of, fit_to_show, voice_of
from bot.words import Voice, race_board_alt_text, race_captions, race_status
from bot.words.race import not_started_text, only_watching_text, race_text
from render import workers
from render.captions import RaceCaptions

LOBBY_TEMPLATE = re.compile(rf"pr:(?P<race>{ID}):(?P<action>join|start|cancel|board)")
# A private board's buttons: an action, or a pile of a player's hand in any layout (the stock aside).
BOARD_ACTIONS = ("draw", "auto", "refresh", *(pile for piles in HAND_PILES.values() for pile in piles if pile != "s"))
BOARD_TEMPLATE = re.compile(rf"prb:(?P<race>{ID}):(?P<seen>[0-9]{{1,9}}):(?P<action>{alternatives(BOARD_ACTIONS)})")


def lobby_view(reply: RaceReply, voice: Voice) -> discord.ui.View | None:
    """The public board's buttons: Join, Start and Cancel in the lobby; My board while it runs."""
    race, _ = reply.race, voice.gettext
    if race.status not in ("lobby", "running"):
        return None
    view = discord.ui.View(timeout=None)
    if race.status == "lobby":
        view.add_item(LobbyButton(race.id, "join", _("Join"), discord.ButtonStyle.success))
        view.add_item(LobbyButton(race.id, "start", _("Start"), discord.ButtonStyle.primary))
        view.add_item(LobbyButton(race.id, "cancel", _("Cancel race"), discord.ButtonStyle.danger))
    else:
        view.add_item(LobbyButton(race.id, "board", _("My board"), discord.ButtonStyle.primary))
    return view


def public_png(reply: RaceReply, names: list[str], captions: RaceCaptions | None = None) -> bytes:
    """The shared foundations and everyone's cards left, with `captions` as its words (runs in a
    worker thread)."""
    from render.race import render_race_table

    assert reply.game is not None
    return render_race_table(reply.game, names=names, number=reply.race.id, expired=expired(reply),
                             captions=captions)


def private_png(reply: RaceReply, names: list[str], captions: RaceCaptions | None = None) -> bytes:
    """A player's own board, with `captions` as its words (runs in a worker thread)."""
    from render.race import render_race_board

    assert reply.game is not None and reply.seat is not None
    return render_race_board(reply.game, reply.seat, names=names, number=reply.race.id,
                             expired=expired(reply), captions=captions)


async def private_answer(reply: RaceReply, names: list[str], voice: Voice, *, message: str | None = None) -> Answer:
    """A player's private board message, in the voice's language: status line, text, PNG
    (rendered off the event loop) with its alt text, buttons."""
    # An error may quote a long input.
    text = fit_to_show(race_text(reply.events, voice) if message is None else message)
    if reply.game is None or reply.seat is None:
        return Answer(text or not_started_text(voice))
    png = await workers.draw(private_png, reply, names, race_captions(reply.game, voice))
    alt = race_board_alt_text(reply.game, reply.seat, names[reply.seat], voice)
    return Answer(text=text, file=discord.File(io.BytesIO(png), filename="race.png", description=alt),
                  view=race_board_view(reply, voice), status=race_status(reply.race.id, reply.game, reply.seat, voice))


def race_board_view(reply: RaceReply, voice: Voice) -> discord.ui.View:
    """A player's buttons: Draw, Auto, Refresh, then one a pile; disabled when they cannot help."""
    game, seat, race = reply.game, reply.seat, reply.race
    assert game is not None and seat is not None
    view = discord.ui.View(timeout=None)
    over = race.status != "running"
    legal = [] if over else game.legal_moves(seat)
    sources = {move.src for move in legal if not move.is_draw}
    hand = game.piles(seat)

    def button(action: str, label: str, row: int, enabled: bool, style=discord.ButtonStyle.secondary) -> None:
        view.add_item(RaceBoardButton(race.id, reply.seen, action, label=label, style=style,
                                      disabled=over or not enabled, row=row))

    stock, _ = len(hand["s"]), voice.gettext
    button("draw", _("Draw ({stock})", stock=stock) if stock else _("Redeal ↻"), 0, any(m.is_draw for m in legal),
           discord.ButtonStyle.primary)
    button("auto", _("Auto ▲"), 0, any(m.dst == "f" for m in legal))
    button("refresh", _("Refresh"), 0, True)
    piles = [pile for pile in hand if pile in ("w", "r")]
    columns = [pile for pile in hand if pile.startswith("t")]
    for pile in piles:
        button(pile, _label(hand, pile), 1, pile in sources)
    for index, pile in enumerate(columns):
        button(pile, _label(hand, pile), 2 + index // PER_ROW, pile in sources)
    return view


def _label(hand: dict[str, list[str]], pile: str) -> str:
    """A pile's button label: its name and the card on top of the player's `hand` there."""
    cards = hand[pile]
    top = cards[-1] if cards and cards[-1] != "??" else ("–" if not cards else "?")
    return f"{pile} · {top}"


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_TEMPLATE):
    """Join, Start, Cancel race and My board, on the public board."""

    def __init__(self, race_id: int, action: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"pr:{race_id}:{action}"))
        self.race_id, self.action = race_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        """Rebuild the button from its custom_id."""
        button = as_button(item)
        return cls(int(match["race"]), match["action"], button.label or "…", button.style)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Carry out the action; the answer is private."""
        await answer(interaction, self._work(interaction))

    async def _work(self, interaction: discord.Interaction) -> Answer:
        bot = bot_of(interaction)
        races, player, voice = bot.races, player_of(interaction.user), await voice_of(interaction)
        await races.check_place(self.race_id, interaction.guild_id, interaction.channel_id)
        if self.action == "join":
            return Answer(race_text((await races.join(self.race_id, player)).events, voice))
        if self.action == "cancel":
            return Answer(race_text((await races.cancel(self.race_id, player)).events, voice))
        reply = await (races.start(self.race_id, player) if self.action == "start"
                       else races.board(self.race_id, player))
        if reply.seat is None:
            return Answer(only_watching_text(voice))
        return await private_answer(reply, await races.names(reply.race), voice)


class RaceBoardButton(discord.ui.DynamicItem[discord.ui.Button], template=BOARD_TEMPLATE):
    """A private board's button: draw, auto, refresh, or a pile's top card to its best place."""

    def __init__(self, race_id: int, seen: int, action: str, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled, row=row,
                                           custom_id=f"prb:{race_id}:{seen}:{action}"))
        self.race_id, self.seen, self.action = race_id, seen, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RaceBoardButton:
        """Rebuild the button from its custom_id."""
        button = as_button(item)
        return cls(int(match["race"]), int(match["seen"]), match["action"], label=button.label or "…",
                   style=button.style, disabled=button.disabled)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Play through the play layer and show the new board in place."""
        await answer(interaction, self._work(interaction), edit=True)

    async def _work(self, interaction: discord.Interaction) -> Answer:
        bot = bot_of(interaction)
        races, player = bot.races, player_of(interaction.user)
        await races.check_place(self.race_id, interaction.guild_id, interaction.channel_id)
        if self.action == "refresh":
            reply = await races.board(self.race_id, player)
        else:
            text = {"draw": "d", "auto": "a"}.get(self.action, self.action)
            reply = await races.move(self.race_id, player, text, seen=self.seen)
        # Refusals are private messages that leave the board as it is (an Answer would replace it).
        voice = await voice_of(interaction)
        if reply.seat is None:
            raise NotInRace()
        if reply.game is None:
            raise RaceNotRunning(reply.race.status)
        return await private_answer(reply, await races.names(reply.race), voice)


def expired(reply: RaceReply) -> bool:
    """Whether the race was ended for want of moves (`RacePlay.expire_idle`) while its cards
    could still go on."""
    return reply.race.status == "finished" and reply.game is not None and not reply.game.finished
