"""The words drawn on a board, worded before it is drawn, so that the renderer stays pure and
speaks any language: a presenter passes its voice's `gettext` and `ngettext` (bot.words
`board_captions`); by default the words are English, as the msgids are written.

The msgids here belong to the `bot` catalog (bot.catalog extracts this file); notation, numbers
and titles stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.game.cards import rank_name
from bot.game.race import DRAW_COUNT

if TYPE_CHECKING:
    from bot.game import Game
    from bot.game.race import RaceGame

Say = Callable[..., str]  # gettext(message, **values)
SayCounted = Callable[..., str]  # ngettext(singular, plural, count, **values)


def english(message: str, **values: object) -> str:
    """`message` as written, its `{placeholders}` filled in."""
    return message.format(**values) if values else message


def english_counted(singular: str, plural: str, count: int, **values: object) -> str:
    """`singular` for one, else `plural`, with `{count}` and the other placeholders filled in."""
    return (singular if count == 1 else plural).format(count=count, **values)


def signed(number: int) -> str:
    """A number as the board shows it, a negative one with a true minus sign."""
    return f"−{-number}" if number < 0 else str(number)



def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"

@dataclass(frozen=True, slots=True)
class BoardCaptions:
    """The words of a game's board image, worded: its title, the deal, the score, the passes
    line's parts, the banners for a won and a blocked game, and the marks over a layout's
    columns (render.layouts `Mark`: which way Patriarchs' foundations build)."""

    title: str
    deal: str
    score: str
    passes: str
    base: str | None  # None: the game has no base rank
    die: str
    draw: str
    won: str
    blocked: str
    up_from_ace: str
    down_from_king: str


def board_captions(game: Game, gettext: Say = english, ngettext: SayCounted = english_counted,
                   title: str | None = None, deal: str | None = None) -> BoardCaptions:
    """The words on `game`'s board, said through `gettext` and `ngettext` (English by default);
    `title`: the game's title in that language (its English title by default); `deal`: how the
    deal is named (by default its PySolFC number, such as "#17")."""
    left = game.redeals_left
    if left is None:
        passes = gettext("pass {number} · ∞ redeals", number=game.pass_number)
    elif left == 0 and game.redeals_used == 0:
        passes = gettext("one pass")
    else:
        passes = ngettext("pass {number} · {count} redeal left", "pass {number} · {count} redeals left", left,
                          number=game.pass_number)
    base = None if game.base_rank is None else gettext("base {rank}", rank=rank_name(game.base_rank))
    return BoardCaptions(
        title=game.title if title is None else title,
        deal=deal if deal is not None else f"#{game.deal}" if game.deal is not None else gettext("custom deal"),
        score=gettext("score {score}", score=signed(game.score)),
        passes=passes,
        base=base,
        die=gettext("die"),
        draw=gettext("draw {count}", count=game.draw_count),
        won=gettext("Won! {score} points", score=game.score),
        blocked=gettext("Blocked: no move can help · {score}", score=signed(game.score)),
        up_from_ace=gettext("up from the ace"),
        down_from_king=gettext("down from the king"),
    )


@dataclass(frozen=True, slots=True)
class RaceCaptions:
    """The words of a race's boards, worded: each player's counts as their private board and
    the public table show them (by seat), the header's parts, and the banner's. `headline`
    keeps a `{name}` for the player who went out (the renderer shortens the name to fit);
    `unnamed[seat]` stands for a player without a name."""

    title: str
    deal: str
    players: str
    draw: str
    layout: str
    moves: str
    goal: str
    foundations: str
    demon: str
    headline: str
    your_scores: tuple[str, ...]
    counts: tuple[str, ...]  # "cards left · on foundations", on a player's own board
    lines: tuple[str, ...]  # "on foundations · cards left", on the public table
    unnamed: tuple[str, ...]  # "player 3", by seat


def race_captions(race: RaceGame, gettext: Say = english, ngettext: SayCounted = english_counted,
                  title: str | None = None) -> RaceCaptions:
    """The words on `race`'s boards, said through `gettext` and `ngettext` (English by default);
    `title`: the race's title in that language (its English title by default)."""
    if race.demon is not None:
        headline = gettext("Demon! {name} went out")
    elif race.finished:
        headline = gettext("Nobody can move: the race is over")
    else:
        headline = gettext("Over: a day without a move")
    seats = range(race.players)
    moves = len(race.history)
    return RaceCaptions(
        title=race.title if title is None else title,
        deal=gettext("deal {deal}", deal=race.deal),
        players=ngettext("{count} player", "{count} players", race.players),
        draw=gettext("draw {count}", count=DRAW_COUNT),
        layout=gettext("Racing Demon layout") if race.layout_name == "demon" else gettext("Klondike layout"),
        moves=ngettext("{count} move", "{count} moves", moves),
        goal=gettext("first to go out wins"),
        foundations=gettext("shared foundations · {count} of {slots}", count=len(race.foundation_tops()),
                            slots=4 * race.players),
        demon=gettext("Demon!"),
        headline=headline,
        your_scores=tuple(gettext("your score: {score}", score=race.scores[seat]) for seat in seats),
        counts=tuple(gettext("{left} left · {on} on foundations", left=race.cards_left(seat),
                             on=race.on_foundations(seat)) for seat in seats),
        lines=tuple(gettext("{on} on foundations · {left} left", on=race.on_foundations(seat),
                            left=race.cards_left(seat)) for seat in seats),
        unnamed=tuple(gettext("player {number}", number=seat + 1) for seat in seats),
    )
