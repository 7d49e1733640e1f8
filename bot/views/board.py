"""The board message: its PNG, its buttons and its pick menu, as discord.ui DynamicItems.

A button's custom_id carries the game id, the game's version and what it does (and, after a
pick, the picked cards), so buttons work after a restart and an out-of-date board is noticed.
The buttons only ask the engine (`can_move`, `legal_moves`) and call the play layer.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.game import GAMES, Move
from bot.play import Player, Reply
from bot.play.events import Analysing, Moved
from bot.play.replies import GameStatus
from bot.play.secrecy import Secrecy, Sight
from bot.views.respond import ERROR_LIMIT, Answer, answer, as_button, bot_of, fit_to_show, voice_of
from bot.words import DISCORD, Voice, board_alt_text, board_captions, board_status, kept_private_text, reply_text
from bot.words.solo import pick_first_text, picked_text, stale_text
from render import render, workers

PREFIX = "pe"
# Ids are stored as 64-bit integers: a custom_id with a longer number is no id of ours (and would
# overflow the database's integers), so the templates take at most 18 digits.
ID = "[0-9]{1,18}"
ACTIONS = ("draw", "auto", "undo", "hint", "resign", "cancel", "f")  # and a pile to tap (or to move to)


def alternatives(names: Iterable[str]) -> str:
    """A regular expression taking exactly one of `names` (the longest first, for readers)."""
    return "|".join(sorted({re.escape(name) for name in names}, key=lambda name: (-len(name), name)))


def button_template(piles: Iterable[str]) -> re.Pattern[str]:
    """The custom_ids of the board buttons of games with these piles (notation names): an action
    or a pile to tap (or, after a pick, to move to), then perhaps the picked cards, from any pile
    but the stock."""
    names = set(piles)
    actions, sources = alternatives([*ACTIONS, *tap_piles(names)]), alternatives(names - {"s"})
    return re.compile(rf"{PREFIX}:(?P<game>{ID}):(?P<version>[0-9]{{1,9}}):(?P<action>{actions})"
                      rf"(?::(?P<picked>(?:{sources})\.[0-9]{{1,2}}))?")


PILE_ROWS = (2, 3)  # rows of column (and reserve-pile) buttons; row 1 holds the waste and reserve
PER_ROW = 5  # Discord's limit of buttons in a row
PICK_TEMPLATE = re.compile(rf"{PREFIX}:(?P<game>{ID}):(?P<version>[0-9]{{1,9}}):pick")
MAX_OPTIONS = 25


@dataclass(frozen=True, slots=True)
class Picked:
    """Cards picked for a two-tap move: `count` cards from pile `src`."""

    src: str
    count: int

    @classmethod
    def parse(cls, text: str | None) -> Picked | None:
        """Read `t3.2`; None for no pick."""
        if not text:
            return None
        src, count = text.split(".")
        return cls(src, int(count))

    def __str__(self) -> str:
        return f"{self.src}.{self.count}"


async def board_answer(reply: Reply, player: Player, voice: Voice, *, picked: Picked | None = None,
                       message: str | None = None) -> Answer:
    """The whole board message for a reply, in the voice's language: status line, text, PNG
    (drawn off the event loop) with its alt text, buttons. A refusal that changed nothing is its
    words alone (`Answer.unchanged`): no new board is drawn, the one the player has stands."""
    if message is None and unchanged(reply):
        return Answer(text=fit_to_show(reply_text(reply, voice), ERROR_LIMIT), unchanged=True)
    text = fit_to_show(reply_text(reply, voice) if message is None else message)  # an error may quote a long input
    file = await board_file(reply, player.name, voice)
    analysing = next((event.game_id for event in reply.events if isinstance(event, Analysing)), None)
    mine = reply.user_id == player.id and reply.status == GameStatus.PLAYING
    return Answer(text=text, file=file, view=board_view(reply, voice, picked),
                  status=board_status(reply.game, reply.label, voice), analysing=analysing,
                  table=reply.game_id if mine else None)


async def kept_off_the_channel(result: Answer, reply: Reply, secrecy: Secrecy, voice: Voice) -> Answer:
    """A board answer meant for the channel, shown to its member alone (with a line saying why)
    while its deal is live: the secrecy rule's (bot/play/secrecy.py) for a public board."""
    if result.unchanged:
        return result
    live = await secrecy.may_show(reply, Sight.CARDS, reply.user_id)
    if live is not None:
        result.private = True
        result.text = f"{result.text}\n{kept_private_text(live, voice)}".strip()
    return result


def unchanged(reply: Reply) -> bool:
    """Whether the reply refuses what was asked and nothing on the board changed (a move the
    engine refused, a text it could not read, nothing to do): not a board out of date, and not
    a text of moves refused after some of them were played."""
    return not reply.ok and not reply.stale and not any(isinstance(event, Moved) for event in reply.events)


async def board_file(reply: Reply, name: str, voice: Voice) -> discord.File:
    """The board's PNG (drawn off the event loop), with `name` as its player's, and its alt text
    in the voice's language."""
    png = await workers.draw(render, reply.game.copy(last_move_only=True), highlight=reply.highlight, player=name,
                             captions=board_captions(reply.game, voice, reply.label), key=reply.game_id)
    return discord.File(io.BytesIO(png), filename="board.png",
                        description=board_alt_text(reply.game, reply.label, voice))


def board_view(reply: Reply, voice: Voice, picked: Picked | None = None) -> discord.ui.View:
    """The buttons and the pick menu for a board, labelled in the voice's language; illegal ones
    are disabled."""
    game, game_id, version = reply.game, reply.game_id, reply.version
    view = discord.ui.View(timeout=None)
    over = reply.finished
    legal = [] if over else game.legal_moves()
    sources = {move.src for move in legal if not move.is_draw}
    piles = game.piles()
    foundation_moves = any(move.dst.startswith("f") for move in legal)

    def button(action: str, label: str, row: int, *, enabled: bool, style=discord.ButtonStyle.secondary) -> None:
        view.add_item(BoardButton(game_id, version, action, picked, label=label, style=style,
                                  disabled=over or not enabled, row=row))

    rows, _ = _pile_rows(piles), voice.gettext
    if picked is None:
        stock = len(game.stock)
        button("draw", _("Draw ({stock})", stock=stock) if stock else _("Redeal ↻"), 0,
               enabled=any(move.is_draw for move in legal), style=discord.ButtonStyle.primary)
        button("auto", _("Auto ▲"), 0, enabled=foundation_moves)
        button("undo", _("Undo"), 0, enabled=game.can_undo() and reply.undo_allowed)
        button("hint", _("Hint"), 0, enabled=True)
        button("resign", _("Resign"), 0, enabled=True, style=discord.ButtonStyle.danger)
        for pile, row in rows:
            button(pile, _pile_label(piles, pile), row, enabled=pile in sources)
    else:
        button("cancel", _("Cancel pick"), 0, enabled=True)
        for pile, row in rows:
            target = pile if pile.startswith("t") else None
            can = target is not None and target != picked.src and game.can_move(Move(picked.src, target, picked.count))
            button(pile, _pile_label(piles, pile), row, enabled=can, style=_go(can))
        can_found = picked.count == 1 and any(m.src == picked.src and m.dst.startswith("f") for m in legal)
        button("f", _("→ foundation"), 1, enabled=can_found, style=_go(can_found))
    options = _pick_options(piles, legal, voice)
    if options and not over:
        view.add_item(PickSelect(game_id, version, options, picked, voice))
    if over and reply.match_id is not None:
        from bot.views.matches import next_round_button  # the match views build on this module

        view.add_item(next_round_button(reply.match_id, voice))
    if over and reply.kind == "daily":
        from bot.views.share import ShareButton  # the share button builds on this module

        view.add_item(ShareButton(game_id, voice))
    return view


def tap_piles(piles: Iterable[str]) -> list[str]:
    """The piles a board has buttons for (of these notation names, or a board's piles): the
    waste, the reserve (or reserve piles), the columns."""
    return [pile for pile in piles if pile == "w" or pile[0] in "rt"]


# Every registered game's board buttons (a game's columns and reserve piles are its kind's own).
BUTTON_TEMPLATE = button_template(pile for kind in GAMES.values() for pile in kind.piles)


def _pile_rows(piles: dict[str, list[str]]) -> list[tuple[str, int]]:
    """Each tap pile with its button row: the waste and a single reserve on row 1 (beside the
    foundation button of a pick), columns and reserve piles five to a row after it."""
    rows: list[tuple[str, int]] = []
    many = [pile for pile in tap_piles(piles) if pile[0] == "t" or pile[1:]]
    rows += [(pile, 1) for pile in tap_piles(piles) if pile not in many]
    rows += [(pile, PILE_ROWS[min(i // PER_ROW, len(PILE_ROWS) - 1)]) for i, pile in enumerate(many)]
    return rows


def _go(enabled: bool) -> discord.ButtonStyle:
    return discord.ButtonStyle.success if enabled else discord.ButtonStyle.secondary


def _pile_label(piles: dict[str, list[str]], pile: str) -> str:
    cards = piles[pile]
    top = cards[-1] if cards and cards[-1] != "??" else ("–" if not cards else "?")
    return f"{pile} · {top}"


def _pick_options(piles: dict[str, list[str]], legal: list[Move], voice: Voice) -> list[discord.SelectOption]:
    """One option per group of cards that some move can take, foundations aside."""
    groups = sorted({(move.src, move.count) for move in legal if not move.is_draw},
                    key=lambda group: (group[0] != "w", group[0] != "r", group))
    options = []
    for src, count in groups[:MAX_OPTIONS]:
        cards = " ".join(piles[src][-count:])
        options.append(discord.SelectOption(label=voice.gettext("{cards} from {pile}", cards=cards, pile=src),
                                            value=str(Picked(src, count))))
    return options


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """One board button: an action, or a pile (a tap, or the target of a picked group)."""

    def __init__(self, game_id: int, version: int, action: str, picked: Picked | None = None, *,
                 label: str = "…", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        custom_id = f"{PREFIX}:{game_id}:{version}:{action}" + (f":{picked}" if picked else "")
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled, custom_id=custom_id,
                                           row=row))
        self.game_id, self.version, self.action, self.picked = game_id, version, action, picked

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BoardButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        button = as_button(item)
        return cls(int(match["game"]), int(match["version"]), match["action"], Picked.parse(match["picked"]),
                   label=button.label or "…", style=button.style, disabled=button.disabled)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Carry out the button's action through the play layer and show the new board: in the
        channel where the game is played only, and on a public message only while its deal is not live."""
        await answer(interaction, pressed(interaction, self.game_id, self._work), edit=True)

    async def _work(self, interaction: discord.Interaction) -> Answer:
        bot = bot_of(interaction)
        solo, player, voice = bot.solo, player_of(interaction.user), await voice_of(interaction)
        game_id, version, action, picked = self.game_id, self.version, self.action, self.picked
        if action == "hint":
            return await board_answer(await solo.hint(game_id, player), player, voice)
        if action == "cancel":
            return await board_answer(await solo.board(game_id, player), player, voice, message="")
        if action == "undo":
            return await board_answer(await solo.undo(game_id, player, version=version), player, voice)
        if action == "resign":
            return await board_answer(await solo.resign(game_id, player, version=version), player, voice)
        if action in ("draw", "auto"):
            text = "d" if action == "draw" else "a"
            return await board_answer(await solo.move(game_id, player, text, version=version), player, voice)
        if picked is None:  # a tap: the pile's top card to its best place
            return await board_answer(await solo.move(game_id, player, action, version=version), player, voice)
        target = "f" if action == "f" else action
        text = f"{picked.src}{target}" + (f":{picked.count}" if target != "f" else "")
        return await board_answer(await solo.move(game_id, player, text, version=version), player, voice)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=PICK_TEMPLATE):
    """The pick menu: choose cards to move, then tap the pile they go to."""

    def __init__(self, game_id: int, version: int, options: list[discord.SelectOption] | None = None,
                 picked: Picked | None = None, voice: Voice | None = None) -> None:
        _ = (voice or DISCORD).gettext  # a menu rebuilt from its custom_id is never shown again
        placeholder = (_("Picked {picked}: now tap where it goes", picked=picked) if picked
                       else _("Pick cards to move, then a pile…"))
        options = options or [discord.SelectOption(label="…", value="none")]
        for option in options:
            option.default = picked is not None and option.value == str(picked)
        super().__init__(discord.ui.Select(custom_id=f"{PREFIX}:{game_id}:{version}:pick", placeholder=placeholder,
                                           options=options, row=4))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PickSelect:
        """Rebuild the menu from its custom_id."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Show the board with the picked cards ready to move (as a board button, where it may)."""
        await answer(interaction, pressed(interaction, self.game_id, self._work), edit=True)

    async def _work(self, interaction: discord.Interaction) -> Answer:
        bot = bot_of(interaction)
        player, voice = player_of(interaction.user), await voice_of(interaction)
        reply = await bot.solo.board(self.game_id, player)
        values = self.item.values  # discord.py sets them from the interaction before the callback
        if reply.version != self.version:
            return await board_answer(reply, player, voice, message=stale_text(voice))
        try:
            picked = Picked.parse(str(values[0])) if values else None
        except ValueError:
            picked = None
        if picked is None or not any(move.src == picked.src and move.count == picked.count
                                     for move in reply.game.legal_moves()):
            return await board_answer(reply, player, voice, message=pick_first_text(voice))
        cards = " ".join(reply.game.piles()[picked.src][-picked.count:])
        return await board_answer(reply, player, voice, picked=picked, message=picked_text(cards, picked.src, voice))


async def pressed(interaction: discord.Interaction, game_id: int,
                  work: Callable[[discord.Interaction], Awaitable[Answer]]) -> Answer:
    """The answer to a press of a component of game `game_id`'s board: `work`'s, in the channel
    where the game is played only (ElsewhereGame), and, on a message the channel sees, kept to its
    member while the game's deal is live."""
    bot = bot_of(interaction)
    await bot.solo.check_here(game_id, interaction.channel_id)
    result = await work(interaction)
    if interaction.message is not None and not interaction.message.flags.ephemeral:
        reply = await bot.solo.look(game_id)
        result = await kept_off_the_channel(result, reply, bot.solo.secrecy, await voice_of(interaction))
    return result


def player_of(user: discord.abc.User) -> Player:
    """The play layer's player for a Discord user."""
    return Player(user.id, getattr(user, "display_name", None) or user.name)
