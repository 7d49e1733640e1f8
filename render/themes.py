"""Colour themes for the board: green felt, dark, and four-colour decks for colour-blind players."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.game.cards import Suit

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True, eq=False)
class Theme:
    """Every colour a board uses. Themes compare and hash by identity: there is one of each."""

    name: str
    felt: RGB
    felt_edge: RGB
    text: RGB
    muted: RGB
    tag: tuple[int, int, int, int]  # the pill behind pile labels, with alpha
    slot: tuple[int, int, int, int]  # outline of an empty pile, with alpha
    face: RGB
    face_edge: RGB
    suits: dict[Suit, RGB]
    accent: RGB  # the gold of the court cards' crowns and trim, and of the ace's ornaments
    back: RGB
    back_pattern: RGB
    moved_to: RGB
    moved_from: RGB
    hinted: RGB
    losing: RGB  # the move that lost a game (an analysis), beside the better one in `hinted`
    won: RGB
    blocked: RGB


_RED, _BLACK = (196, 34, 40), (28, 28, 32)
_TWO_COLOURS = {Suit.CLUBS: _BLACK, Suit.SPADES: _BLACK, Suit.HEARTS: _RED, Suit.DIAMONDS: _RED}
# The usual four-colour deck: spades black, hearts red, diamonds blue, clubs green.
_FOUR_COLOURS = {Suit.CLUBS: (20, 128, 58), Suit.SPADES: _BLACK, Suit.HEARTS: _RED, Suit.DIAMONDS: (28, 88, 196)}

CLASSIC = Theme(
    name="classic",
    felt=(24, 96, 58), felt_edge=(16, 70, 42), text=(246, 243, 232), muted=(178, 210, 188),
    tag=(0, 0, 0, 92), slot=(255, 255, 255, 70),
    face=(253, 252, 246), face_edge=(150, 144, 130), suits=_TWO_COLOURS, accent=(222, 170, 46),
    back=(140, 28, 36), back_pattern=(214, 170, 72),
    moved_to=(255, 212, 64), moved_from=(150, 225, 255), hinted=(120, 240, 120),
    losing=(255, 84, 200), won=(214, 162, 36), blocked=(150, 36, 40),
)
DARK = Theme(
    name="dark",
    felt=(26, 28, 34), felt_edge=(16, 17, 21), text=(232, 232, 236), muted=(150, 156, 170),
    tag=(255, 255, 255, 30), slot=(255, 255, 255, 56),
    face=(232, 229, 220), face_edge=(110, 108, 100),
    suits={Suit.CLUBS: (22, 22, 26), Suit.SPADES: (22, 22, 26), Suit.HEARTS: (190, 30, 38),
           Suit.DIAMONDS: (190, 30, 38)}, accent=(206, 156, 38),
    back=(40, 62, 112), back_pattern=(140, 168, 222),
    moved_to=(255, 200, 60), moved_from=(120, 200, 255), hinted=(110, 230, 110),
    losing=(255, 90, 200), won=(190, 146, 30), blocked=(140, 34, 40),
)
FOUR_COLOUR = replace(CLASSIC, name="four-colour", suits=_FOUR_COLOURS)
DARK_FOUR_COLOUR = replace(DARK, name="dark-four-colour", suits={**_FOUR_COLOURS, Suit.SPADES: DARK.suits[Suit.SPADES]})

THEMES: dict[str, Theme] = {theme.name: theme for theme in (CLASSIC, DARK, FOUR_COLOUR, DARK_FOUR_COLOUR)}


def get_theme(name: str) -> Theme:
    """The theme called `name`; ValueError, quoting it, for an unknown one."""
    if name not in THEMES:
        raise ValueError(f"unknown theme {name!r}; themes: {', '.join(THEMES)}")
    return THEMES[name]
