"""Demon race boards as PNGs: one player's private board, and the public table of the channel.

`render_race_board(race, player, names=...)` is what one player sees: the header, the shared
foundations on a labelled tray at the top (each top card marked in its owner's colour, each slot
still to open showing the ace that opens it), and their own layout below it, painted by the
single-player board's `Painter`. `render_race_table(race, names=...)` is the board posted in
the channel: the foundations and a line per player, their name and counts over a bar of their
cards on the foundations.

Both are pure functions of the race's visible state, safe to call from any thread while no move
is being played (the engine's own questions, `finished` included, only read the race).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from bot.game import Move
from bot.game.race import DRAW_COUNT, MAX_PLAYERS, RaceGame
from render.board import GEOMETRY as BOARD_GEOMETRY
from render.board import Canvas, Painter, encode_png, paint_parts
from render.captions import RaceCaptions, race_captions, shorten
from render.felt import felt
from render.fonts import font
from render.layouts import BoardLayout, Fan, Spot
from render.sprites import SHADOW, CardSize, card_face, empty_slot
from render.themes import RGB, Theme, get_theme

# The race boards keep their own spacing (a game's board is packed closer, to read on a phone);
# the waste's fan is every board's.
GEOMETRY = replace(BOARD_GEOMETRY, gap=12, margin=16)


class PlayerColour(NamedTuple):
    """A player's colour on the race boards, and the word for it."""

    name: str
    rgb: RGB


# Player 0..7. Bright enough for the dark felt, far from the green felt and from each other, and
# none of them the yellow or the sky blue that outline the last move.
PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    PlayerColour("red", (236, 64, 64)),
    PlayerColour("blue", (60, 128, 248)),
    PlayerColour("orange", (255, 146, 28)),
    PlayerColour("purple", (166, 100, 244)),
    PlayerColour("pink", (255, 110, 200)),
    PlayerColour("cyan", (30, 214, 214)),
    PlayerColour("lime", (170, 232, 48)),
    PlayerColour("white", (244, 244, 244)),
)
assert len(PLAYER_COLOURS) == MAX_PLAYERS

# Each player's own piles, as `render.layouts` describes a board (rows count below the band).
# The waste, `Fan.RIGHT3`, shows its top three fanned to the right, beside the stock, as on
# every board (render.board's `waste_fan` apart).
KLONDIKE_BOARD = BoardLayout(
    columns=7,
    spots=(
        Spot("s", 0, 0, Fan.STACK, counted=True),
        Spot("w", 1, 0, Fan.RIGHT3, counted=True),
        *(Spot(f"t{i + 1}", i, 1, Fan.DOWN) for i in range(7)),
    ),
)
DEMON_BOARD = BoardLayout(
    columns=5.25,
    spots=(
        Spot("s", 0, 0, Fan.STACK, counted=True),
        Spot("w", 1, 0, Fan.RIGHT3, counted=True),
        Spot("r", 0, 1, Fan.STACK, counted=True),
        *(Spot(f"t{i + 1}", 1.25 + i, 1, Fan.DOWN) for i in range(4)),
    ),
)
BOARDS = {"klondike": KLONDIKE_BOARD, "demon": DEMON_BOARD}

FOUNDATION_CARD = CardSize(72, 101)
PILES_PER_ROW = 8
PILE_GAP = 10  # the least gap between two foundations; wider boards spread them out
TAG = 20  # the height of the owner's tag, half over the card's lower edge
ROW_GAP = 14
TRAY_PAD = 8  # the foundations' tray reaches this far beyond the slots
TRAY_ALPHA = 170  # the tray is the header's colour, a little translucent on the felt
LINE = 56  # a player's line on the public table: their name and counts over their bar
BAR = 16  # the height of a player's progress bar
BAND_WIDTH = 2 * GEOMETRY.margin + PILES_PER_ROW * FOUNDATION_CARD.width + (PILES_PER_ROW - 1) * PILE_GAP


def render_race_board(race: RaceGame, player: int, *, names: Sequence[str], theme: str = "classic",
                      number: int | None = None, expired: bool = False, captions: RaceCaptions | None = None) -> bytes:
    """Player `player`'s private board as PNG bytes: the shared foundations (each top card in its
    owner's colour), their own layout with their last move outlined, and, once the race is over,
    a banner with their score. `names[i]` is player i's name; `number` is the race's number as
    the channel knows it (its id; the header then names the deal too), else the deal is shown;
    `expired`: the race was ended for want of moves, though the cards could still go on;
    `captions`: its words (render.captions `race_captions`: English by default)."""
    return encode_png(render_race_board_image(race, player, names=names, theme=theme, number=number,
                                              expired=expired, captions=captions))


def render_race_board_image(race: RaceGame, player: int, *, names: Sequence[str], theme: str = "classic",
                            number: int | None = None, expired: bool = False,
                            captions: RaceCaptions | None = None) -> Image.Image:
    """The private board as a Pillow RGB image (what `render_race_board` encodes)."""
    captions = captions or race_captions(race)
    return _BoardPainter(race, player, _Seats.of(race, names, captions), get_theme(theme), number, expired,
                         captions).paint_race()


def render_race_table(race: RaceGame, *, names: Sequence[str], theme: str = "classic",
                      number: int | None = None, expired: bool = False, captions: RaceCaptions | None = None) -> bytes:
    """The public table as PNG bytes: the shared foundations (each top card in its owner's
    colour) and a line per player with their cards left and on the foundations; once the race
    is over, a banner with the final scores. `names[i]` is player i's name; `number` and
    `expired` and `captions` as for `render_race_board`."""
    return encode_png(render_race_table_image(race, names=names, theme=theme, number=number, expired=expired,
                                              captions=captions))


def render_race_table_image(race: RaceGame, *, names: Sequence[str], theme: str = "classic",
                            number: int | None = None, expired: bool = False,
                            captions: RaceCaptions | None = None) -> Image.Image:
    """The public table as a Pillow RGB image (what `render_race_table` encodes)."""
    captions = captions or race_captions(race)
    return _TablePainter(race, _Seats.of(race, names, captions), get_theme(theme), number, expired,
                         captions).paint()


def foundation_box(race: RaceGame, index: int, width: int) -> tuple[int, int, int, int]:
    """Where foundation `index` (in the order they were started) sits on a board `width` pixels
    wide, private or public: its card's left, top, right and bottom edges."""
    return _Band(race.players, width).box(index)


def foundation_tray(race: RaceGame, width: int) -> tuple[int, int, int, int]:
    """The tray under the shared foundations and their label on a board `width` pixels wide,
    private or public: its left, top, right and bottom edges."""
    return _Band(race.players, width).tray()


def progress_bar_box(race: RaceGame, player: int) -> tuple[int, int, int, int]:
    """Where player `player`'s progress bar sits on the public table: its left, top, right and
    bottom edges."""
    top = _lines_top(_Band(race.players, BAND_WIDTH)) + player * LINE + 32
    return GEOMETRY.margin + 42, top, BAND_WIDTH - GEOMETRY.margin, top + BAR


def _lines_top(band: _Band) -> int:
    """Where the public table's first player line starts, below the foundations."""
    return band.top + band.height + 4


# --- pieces shared by both boards --------------------------------------------------------


class _Seats(NamedTuple):
    """Each player's name as drawn (the caption's "player 3" for one without a name) and the
    letter on their swatch and tags (the seat's number for one without a name)."""

    names: list[str]
    initials: list[str]

    @classmethod
    def of(cls, race: RaceGame, names: Sequence[str], captions: RaceCaptions) -> _Seats:
        """The seats of `race` with the `names` given (ValueError for too few)."""
        if len(names) < race.players:
            raise ValueError(f"{len(names)} names for {race.players} players")
        given = [name.strip() for name in names[: race.players]]
        return cls([name or captions.unnamed[seat] for seat, name in enumerate(given)],
                   [_initial(name) if name else str(seat + 1) for seat, name in enumerate(given)])


def _initial(name: str) -> str:
    return next((char.upper() for char in name if char.isalnum()), name[:1])


def _on_colour(colour: RGB) -> RGB:
    """Black or white, whichever reads on `colour`."""
    luma = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (20, 20, 24) if luma > 150 else (255, 255, 255)


def _swatch(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, player: int, initial: str) -> None:
    """A rounded square in the player's colour with their initial."""
    colour = PLAYER_COLOURS[player].rgb
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 4, fill=colour, outline=(0, 0, 0, 90))
    draw.text((x + size / 2, y + size / 2 + 1), initial, font=font(round(size * 0.6)), fill=_on_colour(colour),
              anchor="mm")


def _pill(draw: ImageDraw.ImageDraw, theme: Theme, x: int, y: int, text: str) -> None:
    """A label in the style of board.py's pile labels, its top left corner at (x, y)."""
    label_font = font(19)
    height = GEOMETRY.label - 6
    draw.rounded_rectangle((x, y, x + round(label_font.getlength(text)) + 14, y + height), radius=9, fill=theme.tag)
    draw.text((x + 7, y + height // 2), text, font=label_font, fill=theme.text, anchor="lm")


def _header(draw: ImageDraw.ImageDraw, width: int, theme: Theme, race: RaceGame, number: int | None,
            title: str, deal: str, details: list[str], taken: float) -> tuple[int, int]:
    """The solo board's header band: the title and the race's number (`number`, with the deal
    leading the details; or the deal) above the details, which drop their last parts rather
    than run into the `taken` pixels the caller writes at the right of them. Returns the x
    where the right-hand side of the top line ends, and the x where it may begin."""
    margin = GEOMETRY.margin
    draw.rectangle((0, 0, width, GEOMETRY.header - 8), fill=theme.felt_edge)
    title_font, number_font, small = font(28), font(22, bold=False), font(20, bold=False)
    draw.text((margin, 22), title, font=title_font, fill=theme.text, anchor="lm")
    number_x = margin + round(title_font.getlength(title)) + 12
    shown = f"#{race.deal if number is None else number}"
    draw.text((number_x, 24), shown, font=number_font, fill=theme.muted, anchor="lm")
    right = width - margin
    parts = ([deal] if number is not None else []) + details
    room = right - margin - taken - 16
    while len(parts) > 1 and small.getlength(" · ".join(parts)) > room:
        parts.pop()
    draw.text((margin, 53), " · ".join(parts), font=small, fill=theme.muted, anchor="lm")
    return right, number_x + round(number_font.getlength(shown)) + 16


def fitted(text: str, face: ImageFont.FreeTypeFont, room: float) -> str:
    """`text`, cut short with an ellipsis if it is wider than `room` pixels."""
    if face.getlength(text) <= room:
        return text
    while len(text) > 1 and face.getlength(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _banner(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB,
            lines: Sequence[tuple[str, int]]) -> None:
    """A rounded banner in `colour` with lines of (text, font size), centred."""
    draw.rounded_rectangle(box, radius=14, fill=(*colour, 235), outline=(255, 255, 255, 160), width=2)
    heights = [size + 10 for _, size in lines]
    y = (box[1] + box[3] - sum(heights)) / 2
    for (text, size), height in zip(lines, heights, strict=True):
        while size > 14 and font(size).getlength(text) > box[2] - box[0] - 24:  # a longer language's words
            size -= 2
        draw.text(((box[0] + box[2]) / 2, y + height / 2), text, font=font(size), fill=(255, 255, 255), anchor="mm")
        y += height


def _headline(race: RaceGame, names: Sequence[str], captions: RaceCaptions) -> str:
    if race.demon is not None:
        return captions.headline.format(name=shorten(names[race.demon], 20))
    return captions.headline


def _banner_colour(race: RaceGame, theme: Theme) -> RGB:
    return theme.won if race.demon is not None else theme.blocked


@dataclass(frozen=True, slots=True)
class _Band:
    """The shared foundations: one slot for each of the 4 x players piles there may be, in rows
    of eight, stretched to the board's width, on a tray of their own under their label, so that
    no row of them reads as a pile of a player's. A slot not yet started shows the ace that
    starts it, while the race goes on."""

    players: int
    width: int
    top: int = GEOMETRY.header

    @property
    def slots(self) -> int:
        return 4 * self.players

    @property
    def rows(self) -> int:
        return math.ceil(self.slots / PILES_PER_ROW)

    @property
    def height(self) -> int:
        """From the band's top to where what follows it may start."""
        return GEOMETRY.label + self.rows * (FOUNDATION_CARD.height + TAG // 2 + ROW_GAP) + TRAY_PAD

    def tray(self) -> tuple[int, int, int, int]:
        """The tray's left, top, right and bottom edges: round every slot, its tags and the label."""
        return (GEOMETRY.margin - TRAY_PAD, self.top - 2, self.width - GEOMETRY.margin + TRAY_PAD,
                self.top + self.height - ROW_GAP)

    def box(self, index: int) -> tuple[int, int, int, int]:
        row, column = divmod(index, PILES_PER_ROW)
        span = self.width - 2 * GEOMETRY.margin - FOUNDATION_CARD.width
        x = GEOMETRY.margin + round(column * span / (PILES_PER_ROW - 1))
        y = self.top + GEOMETRY.label + row * (FOUNDATION_CARD.height + TAG // 2 + ROW_GAP)
        return x, y, x + FOUNDATION_CARD.width, y + FOUNDATION_CARD.height

    def paint(self, image: Image.Image, draw: ImageDraw.ImageDraw, theme: Theme, race: RaceGame,
              initials: Sequence[str], captions: RaceCaptions, finished: bool) -> None:
        tops = race.foundation_tops()
        draw.rounded_rectangle(self.tray(), radius=12, fill=(*theme.felt_edge, TRAY_ALPHA), outline=theme.slot,
                               width=2)
        _pill(draw, theme, GEOMETRY.margin, self.top + 2, captions.foundations)
        opens = empty_slot(theme, FOUNDATION_CARD, "" if finished else "A")
        for index in range(self.slots):
            x, y, right, bottom = self.box(index)
            if index >= len(tops):
                image.paste(opens, (x - SHADOW, y - SHADOW), opens)
                continue
            top = tops[index]
            colour = PLAYER_COLOURS[top.owner].rgb
            draw.rounded_rectangle((x - 4, y - 4, right + 3, bottom + 3), radius=FOUNDATION_CARD.radius + 4,
                                   fill=colour)
            sprite = card_face(top.card, theme, FOUNDATION_CARD)
            image.paste(sprite, (x - SHADOW, y - SHADOW), sprite)
            middle = (x + right) // 2
            tag = (middle - 16, bottom - TAG // 2, middle + 16, bottom + TAG // 2)
            draw.rounded_rectangle(tag, radius=TAG // 2, fill=colour, outline=(0, 0, 0, 110))
            draw.text((middle, bottom + 1), initials[top.owner], font=font(15), fill=_on_colour(colour),
                      anchor="mm")


# --- the private board ---------------------------------------------------------------------


class _BoardPainter(Painter):
    """One player's board: board.py's painter for their own piles, below the foundation band.

    It sets the fields `Painter` works with from the race instead of from a one-player game,
    and draws its own header, last move, stock and waste."""

    def __init__(self, race: RaceGame, player: int, seats: _Seats, theme: Theme, number: int | None,
                 expired: bool, captions: RaceCaptions) -> None:
        self.race, self.player, self.captions = race, player, captions
        self.names, self.initials = seats
        self.theme, self.number, self.finished = theme, number, race.finished or expired
        self.board = BOARDS[race.layout_name]
        self.piles = race.piles(player)
        width = max(GEOMETRY.width(self.board), BAND_WIDTH)
        self.band = _Band(race.players, width)
        self.geo = replace(GEOMETRY, header=GEOMETRY.header + self.band.height)
        self.fan = self._column_fan()
        self.placed = {}
        self.ringed = Counter()
        self.parts = []
        self.image = felt(theme, (width, self._height()))
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def paint_race(self) -> Image.Image:
        """Everything, bottom layer first (in place of `Painter.paint`, which draws a game's)."""
        self._race_header()
        self.band.paint(self.image, self.draw, self.theme, self.race, self.initials, self.captions, self.finished)
        for spot in self.board.spots:
            self._label(spot)
            self._paint_pile(spot)
        self._last_move()
        paint_parts(self.parts, Canvas(self.image, (0, 0), self.theme, self.geo))
        if self.finished:
            middle = (self.geo.y(1) + self.image.height) // 2
            box = (self.geo.margin, middle - 48, self.image.width - self.geo.margin, middle + 48)
            words = self.captions
            lines = [(_headline(self.race, self.names, words), 28), (words.your_scores[self.player], 22)]
            _banner(self.draw, box, _banner_colour(self.race, self.theme), lines)
        return self.image

    def _race_header(self) -> None:
        race, player, theme = self.race, self.player, self.theme
        words = self.captions
        counts = words.counts[player]
        details = [words.draw, words.layout, words.players]  # the first the player plays by, the last on the table too
        right, free = _header(self.draw, self.image.width, theme, race, self.number, words.title, words.deal, details,
                              font(20).getlength(counts))
        name_font, swatch = font(24), 26
        name = fitted(shorten(self.names[player], 22), name_font, right - free - swatch - 8)
        self.draw.text((right, 22), name, font=name_font, fill=theme.text, anchor="rm")
        _swatch(self.draw, right - round(name_font.getlength(name)) - swatch - 8, 22 - swatch // 2, swatch, player,
                self.initials[player])
        self.draw.text((right, 53), counts, font=font(20), fill=theme.text, anchor="rm")

    def _empty(self, pile: str) -> tuple[str, RGB | None]:
        return ("↻" if pile == "s" and self.piles["w"] else ""), None  # the waste turns over: redeals are unlimited

    def _last_move(self) -> None:
        """Outline the player's last move, as board.py does: the source's new top, and the cards
        put down (a foundation move's, on the foundation it went to)."""
        number, move = next(((number, move) for number, (who, move) in reversed(list(enumerate(self.race.history)))
                             if who == self.player), (None, None))
        if move is None or number is None:
            return
        self._ring(self._area(move.src, 1), self.theme.moved_from, 2)
        self._ring(self._target(number, move), self.theme.moved_to, 3)

    def _target(self, number: int, move: Move) -> tuple[int, int, int, int] | None:
        if move.dst != "f":
            return self._area(move.dst, DRAW_COUNT if move.is_draw else move.count)
        index = next((index for index, pile in enumerate(self.race.foundations)
                      if any(card.move_number == number for card in pile)), None)
        if index is None:
            return None
        x0, y0, x1, y1 = self.band.box(index)  # around the owner's colour and tag, which stay in sight
        return x0 - 4, y0 - 4, x1 + 4, y1 + TAG // 2 + 2


# --- the public table ----------------------------------------------------------------------


class _TablePainter:
    """The channel's board: header, foundation band, a line per player, the final banner."""

    def __init__(self, race: RaceGame, seats: _Seats, theme: Theme, number: int | None, expired: bool,
                 captions: RaceCaptions) -> None:
        self.race, self.theme, self.number, self.captions = race, theme, number, captions
        self.names, self.initials = seats
        self.finished = race.finished or expired
        self.band = _Band(race.players, BAND_WIDTH)
        self.lines_top = _lines_top(self.band)
        height = self.lines_top + race.players * LINE + GEOMETRY.margin
        if self.finished:
            height += self._banner_height() + GEOMETRY.margin
        self.image = felt(theme, (BAND_WIDTH, height))
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def paint(self) -> Image.Image:
        """Everything, bottom layer first."""
        race, width = self.race, self.image.width
        words = self.captions
        details = [words.layout, words.moves]
        goal = "" if self.finished else words.goal
        right, _ = _header(self.draw, width, self.theme, race, self.number, words.title, words.deal, details,
                           font(20, bold=False).getlength(goal))
        self.draw.text((right, 22), words.players, font=font(24), fill=self.theme.text, anchor="rm")
        if goal:
            self.draw.text((right, 53), goal, font=font(20, bold=False), fill=self.theme.muted, anchor="rm")
        self.band.paint(self.image, self.draw, self.theme, race, self.initials, words, self.finished)
        for player in range(race.players):
            self._player_line(player, self.lines_top + player * LINE)
        if self.finished:
            top = self.lines_top + race.players * LINE + GEOMETRY.margin // 2
            box = (GEOMETRY.margin, top, width - GEOMETRY.margin, top + self._banner_height())
            _banner(self.draw, box, _banner_colour(race, self.theme), self._banner_lines())
        return self.image

    def _player_line(self, player: int, y: int) -> None:
        """The player's swatch, name (and the demon's pill) and counts, above a bar of their cards
        on the foundations out of all theirs, in their colour, with a tick at each quarter."""
        race, theme, draw = self.race, self.theme, self.draw
        margin, width = GEOMETRY.margin, self.image.width
        middle = y + 15
        _swatch(draw, margin, middle - 15, 30, player, self.initials[player])
        name_font, counts_font, demon_font = font(22), font(19), font(18)
        counts, demon = self.captions.lines[player], self.captions.demon
        x = margin + 42
        room = width - margin - counts_font.getlength(counts) - 16 - x
        if player == race.demon:
            room -= demon_font.getlength(demon) + 26
        name = fitted(shorten(self.names[player], 18), name_font, room)
        draw.text((x, middle), name, font=name_font, fill=theme.text, anchor="lm")
        if player == race.demon:
            x += round(name_font.getlength(name)) + 10
            pill = (x, middle - 13, x + round(demon_font.getlength(demon)) + 16, middle + 13)
            draw.rounded_rectangle(pill, radius=13, fill=theme.won, outline=(255, 255, 255, 160))
            draw.text(((pill[0] + pill[2]) / 2, middle), demon, font=demon_font, fill=(255, 255, 255),
                      anchor="mm")
        draw.text((width - margin, middle), counts, font=counts_font, fill=theme.text, anchor="rm")
        on, total = race.on_foundations(player), race.on_foundations(player) + race.cards_left(player)
        left, top, right, bottom = progress_bar_box(race, player)
        draw.rounded_rectangle((left, top, right, bottom), radius=BAR // 2, fill=theme.tag, outline=theme.slot)
        for quarter in (1, 2, 3):
            tick = left + round((right - left) * quarter / 4)
            draw.line((tick, top + 3, tick, bottom - 3), fill=theme.slot, width=2)
        if on:
            end = left + max(BAR, round((right - left) * on / total))
            draw.rounded_rectangle((left, top, end, bottom), radius=BAR // 2, fill=PLAYER_COLOURS[player].rgb,
                                   outline=(0, 0, 0, 110))

    def _banner_lines(self) -> list[tuple[str, int]]:
        """The headline, then the final scores best first, as many to a line as fit."""
        scores = self.race.scores
        order = sorted(range(self.race.players), key=lambda player: (-scores[player], player))
        entries = [f"{shorten(self.names[player], 14)} {scores[player]}" for player in order]
        room = BAND_WIDTH - 2 * GEOMETRY.margin - 40
        lines: list[tuple[str, int]] = [(_headline(self.race, self.names, self.captions), 26)]
        line = ""
        for entry in entries:
            joined = f"{line} · {entry}" if line else entry
            if line and font(20).getlength(joined) > room:
                lines.append((line, 20))
                joined = entry
            line = joined
        lines.append((line, 20))
        return lines

    def _banner_height(self) -> int:
        return sum(size + 10 for _, size in self._banner_lines()) + 24
