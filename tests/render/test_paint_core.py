"""The paint core (render/_paint_core.c, through render.board `Painter.indexed`): a board, or any
rectangle of it, painted and put in the palette's indices in one call gives the very indices that
Pillow's pastes and quantizer give (the Pillow path, `palette.NATIVE` off), for every game and
theme, with rings, a die and a banner; and what it is handed is checked."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.game import GAMES, Game, new_game
from bot.game.cards import Card
from render import THEMES, palette, redraw, render
from render.board import COLOUR_MASK, COPY, GEOMETRY, Canvas, Painter, Part, Sprite
from render.palette import board_palette, paint_index, paint_indexed, paint_table, put_indices, quantize
from render.sprites import SHADOW, card_back, card_face, empty_slot
from render.themes import get_theme
from tests.samples import sample_game

pytestmark = pytest.mark.skipif(not palette.NATIVE, reason="the paint core is not built (no C compiler)")


@pytest.fixture(autouse=True)
def no_boards_kept() -> Iterator[None]:
    redraw.forget()
    yield
    redraw.forget()


def positions(name: str, deal: int, seed: int, **options: object) -> Iterator[Game]:
    """A game of `name` played at random, every few moves."""
    game = new_game(name, deal=deal, **options)
    rng = random.Random(seed)
    for step in range(60):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        if step % 9 == 0:
            yield game


def both_ways(painter: Painter, box: tuple[int, int, int, int] | None = None) -> tuple[bytes, bytes]:
    """The indices of the painter's board (or its `box`) by the paint core and by Pillow alone."""
    colours = board_palette(painter.theme)
    return painter.indexed(colours, box).tobytes(), quantize(painter.picture(box), colours).tobytes()


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_indices_as_pillow(name: str, theme: str) -> None:
    rng = random.Random(f"{name} {theme}")
    for game in positions(name, deal=rng.randrange(1, 1000), seed=rng.randrange(1 << 30)):
        painter = Painter(game, get_theme(theme), GEOMETRY)
        painter.compose(game.last_move, None, "Alice")
        core, pillow = both_ways(painter)
        assert core == pillow
        width, height = painter.size
        for _ in range(3):  # rectangles anywhere, cutting through cards, labels and rings
            x0, y0 = rng.randrange(0, width - 1), rng.randrange(0, height - 1)
            box = (x0, y0, rng.randrange(x0 + 1, width + 1), rng.randrange(y0 + 1, height + 1))
            core, pillow = both_ways(painter, box)
            assert core == pillow, (name, theme, box)


@pytest.mark.parametrize("state", ["won", "blocked"])
def test_a_banner_and_a_die_are_painted_with_pillow(state: str) -> None:
    """Parts drawn with ImageDraw (the outcome's banner, the Die of Justice) send their
    rectangle to Pillow: the same indices, and a rectangle without them still goes to the core."""
    game = sample_game("canfield", state)
    painter = Painter(game, get_theme("classic"), GEOMETRY)
    painter.compose(None, None, "Alice")
    assert painter.banner is not None
    core, pillow = both_ways(painter)
    assert core == pillow
    for die in ("game", "pass"):
        rolling = next(positions("canfield", deal=7, seed=3, die=die))
        painter = Painter(rolling, get_theme("dark"), GEOMETRY)
        painter.compose(rolling.last_move, None, "Alice")
        assert rolling.die_roll is not None
        core, pillow = both_ways(painter)
        assert core == pillow


def pngs_of_a_game() -> list[bytes]:
    """A game's boards as a drawing process draws them (each from the last), and its first drawn whole."""
    redraw.forget()
    game = new_game("canfield", deal=99)
    pngs = []
    for step in range(8):
        game.play(game.legal_moves()[step % len(game.legal_moves())])
        pngs.append(render(game, key=1))
        if step == 0:
            pngs.append(render(game))
    return pngs


def test_boards_drawn_again_are_the_same_png_with_and_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    native = pngs_of_a_game()
    monkeypatch.setattr(palette, "NATIVE", False)
    assert pngs_of_a_game() == native


def test_what_the_core_is_handed_is_checked() -> None:
    table = paint_table(get_theme("classic"))
    assert table is not None
    red = bytes((255, 0, 0))
    mask = bytes(range(16))  # 4 x 4
    assert len(paint_indexed((4, 4), [(COLOUR_MASK, red, 0, 0, 0, 4, 4, 0, 0, mask, 4)], table)) == 16
    bad_ops = [
        (COLOUR_MASK, red, 0, 1, 0, 4, 4, 0, 0, mask, 4),  # reads past the mask's right edge
        (COLOUR_MASK, red, 0, 0, 0, 4, 5, 0, 0, mask, 4),  # and past its bottom
        (COPY, bytes(3 * 15), 4, 0, 0, 4, 4, 0, 0, bytes(16), 0),  # a source a pixel short
        (COPY, bytes(48), 4, 0, 0, 4, 4, 0, 0, bytes(15), 0),  # its indices a pixel short
        (COPY, bytes(48), 4, 0, 0, 4, 4, 0, 0, None, 0),  # none
        (COPY, bytes(48), 4, -1, 0, 4, 4, 0, 0, bytes(16), 0),  # read from before its start
        (9, bytes(48), 4, 0, 0, 4, 4, 0, 0, bytes(16), 0),  # no such op
        (COLOUR_MASK, b"\x01", 0, 0, 0, 4, 4, 0, 0, mask, 4),  # a colour that is not three bytes
        (COPY, bytes(48), 4, 0, 0),  # too short an op
    ]
    for op in bad_ops:
        with pytest.raises((ValueError, TypeError)):
            paint_indexed((4, 4), [op], table)
    with pytest.raises(ValueError):
        paint_indexed((4, 4), [], table[:-1])
    with pytest.raises(ValueError):
        paint_index(bytes(10), 3, table)  # not whole pixels
    with pytest.raises(ValueError):
        paint_index(bytes(12), 2, table)
    with pytest.raises(ValueError):
        paint_indexed((0, 4), [], table)
    # Parts off the rectangle are clipped; where nothing paints, the index is black's.
    far = (COPY, bytes(48), 4, 0, 0, 4, 4, 100, -100, bytes(16), 0)
    assert paint_indexed((4, 4), [far], table) == paint_indexed((4, 4), [], table)


@pytest.mark.parametrize("theme", list(THEMES))
def test_a_sprite_in_pieces_is_the_sprite_pasted_whole(theme: str) -> None:
    """A card is pasted in pieces (an opaque middle copied, the edges blended, only what the card
    over it leaves showing): the same pixels as the sprite, and the card over it, pasted whole
    through their alpha, by Pillow and by the paint core."""
    look = get_theme(theme)
    card = GEOMETRY.card
    sprites = [card_face(Card.parse(text), look, card) for text in ("AS", "7D", "TC", "QH", "KS")]
    sprites += [card_back(look, card), empty_slot(look, card, "w", None)]
    for sprite in sprites:
        for over in (None, (0, 30), (45, 0), (12, 80)):
            width, height = sprite.width + 60, sprite.height + 90
            expected = Image.new("RGB", (width, height), look.felt)
            expected.paste(sprite, (SHADOW, SHADOW), sprite)
            under = None if over is None else (SHADOW + over[0] + SHADOW, SHADOW + over[1] + SHADOW)
            parts: list[Part] = [Sprite("a", SHADOW + SHADOW, SHADOW + SHADOW, sprite, under)]
            if under is not None:
                top = sprites[0]
                expected.paste(top, (SHADOW + over[0], SHADOW + over[1]), top)
                parts.append(Sprite("b", *under, top))
            drawn = Image.new("RGB", (width, height), look.felt)
            canvas = Canvas(drawn, (0, 0), look, GEOMETRY)
            for part in parts:
                part.paint(canvas)
            assert drawn.tobytes() == expected.tobytes(), (theme, over)
            felt = Image.new("RGB", (width, height), look.felt).tobytes()
            table = paint_table(look)
            assert table is not None
            ops = [(COPY, felt, width, 0, 0, width, height, 0, 0, paint_index(felt, 3, table), width)]
            for part in parts:
                ops += part.ops(look, GEOMETRY) or []
            assert paint_indexed((width, height), ops, table) == quantize(expected, board_palette(look)).tobytes()


@pytest.mark.parametrize("native", [True, False])
def test_a_rectangle_is_put_into_rows_clipped_to_them(native: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(palette, "NATIVE", native)
    rows = bytearray(4 * 3)  # three rows of four
    put_indices(rows, 4, (1, -1), bytes([1, 2, 3, 4, 5, 6]), 2)  # its first row above the rows: left out
    assert list(rows) == [0, 3, 4, 0, 0, 5, 6, 0, 0, 0, 0, 0]
    put_indices(rows, 4, (2, 2), bytes([7, 8, 9, 9]), 2)  # its second row below them
    assert list(rows) == [0, 3, 4, 0, 0, 5, 6, 0, 0, 0, 7, 8]
    put_indices(rows, 4, (0, 5), bytes([1, 1]), 2)  # wholly below
    assert list(rows) == [0, 3, 4, 0, 0, 5, 6, 0, 0, 0, 7, 8]
    if native:
        with pytest.raises(ValueError):
            put_indices(rows, 4, (3, 0), bytes([1, 1]), 2)  # wider than the rows
