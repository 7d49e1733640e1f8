"""Card faces: pips where printed cards have them, court pictures told apart, an index that
reads when only a card's top strip or only its left strip shows."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from bot.game.cards import Card, Suit
from render import THEMES
from render.board import GEOMETRY, STANDARD_CARD
from render.race import FOUNDATION_CARD
from render.sprites import SHADOW, CardSize, card_back, card_face, pip_area
from render.themes import Theme
from tests.render.golden import difference

TOP_STRIP = GEOMETRY.tight_fan  # what a card fanned downward shows of itself when columns grow long
LEFT_STRIP = 32  # what a card fanned sideways shows (the waste's fan to the right)
SIZES = (STANDARD_CARD, FOUNDATION_CARD)
ALL_CARDS = [Card(rank, suit) for suit in Suit for rank in range(1, 14)]


def card_region(card: Card, theme: Theme, size: CardSize, box: tuple[int, int, int, int]) -> Image.Image:
    """The part `box` of a face (in pixels from the card's top left corner), as RGB."""
    left, top, right, bottom = box
    return card_face(card, theme, size).crop((SHADOW + left, SHADOW + top, SHADOW + right, SHADOW + bottom)
                                             ).convert("RGB")


def ink(image: Image.Image, colour: tuple[int, int, int], paper: tuple[int, int, int]) -> list[list[bool]]:
    """Per pixel: is it nearer to `colour` than to `paper`?"""
    def near(pixel: tuple[int, ...]) -> bool:
        to_colour = sum((p - c) ** 2 for p, c in zip(pixel, colour, strict=True))
        return to_colour < sum((p - q) ** 2 for p, q in zip(pixel, paper, strict=True))

    data = image.tobytes()
    return [[near(tuple(data[3 * (y * image.width + x):3 * (y * image.width + x) + 3])) for x in range(image.width)]
            for y in range(image.height)]


def pixels_of(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels of `image` are `colour`, give or take a little."""
    return sum(count for count, pixel in image.getcolors(1 << 16)
               if max(abs(p - c) for p, c in zip(pixel, colour, strict=True)) < 24)


def blobs(mask: list[list[bool]]) -> int:
    """How many 4-connected blobs of True `mask` holds."""
    height, width = len(mask), len(mask[0])
    seen = [[False] * width for _ in range(height)]
    count = 0
    for y, x in itertools.product(range(height), range(width)):
        if mask[y][x] and not seen[y][x]:
            count += 1
            stack = [(y, x)]
            seen[y][x] = True
            while stack:
                cy, cx = stack.pop()
                for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                    if 0 <= ny < height and 0 <= nx < width and mask[ny][nx] and not seen[ny][nx]:
                        seen[ny][nx] = True
                        stack.append((ny, nx))
    return count


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_number_card_shows_as_many_separate_pips_as_its_rank(theme: str, size: CardSize) -> None:
    colours = THEMES[theme]
    for suit, rank in itertools.product(Suit, range(2, 11)):
        area = card_region(Card(rank, suit), colours, size, pip_area(size))
        assert blobs(ink(area, colours.suits[suit], colours.face)) == rank, (rank, suit)


@pytest.mark.parametrize("rank", [2, 4, 10])
def test_the_pips_below_the_middle_are_upside_down(rank: int) -> None:
    # these layouts have no pip on the middle line: turned about, the pips land on themselves
    area = card_region(Card(rank, Suit.SPADES), THEMES["classic"], STANDARD_CARD, pip_area(STANDARD_CARD))
    mean, share = difference(area, area.transpose(Image.Transpose.ROTATE_180))
    assert mean < 1 and share < 0.005
    turned_top = area.crop((0, 0, area.width, area.height // 2)).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    assert difference(turned_top, area.crop((0, area.height - area.height // 2, area.width, area.height)))[1] < 0.01
    assert difference(area.crop((0, 0, area.width, area.height // 2)),
                      area.crop((0, area.height - area.height // 2, area.width, area.height)))[1] > 0.02


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_jack_queen_and_king_are_double_ended_pictures_unlike_each_other_and_the_number_cards(theme: str) -> None:
    colours = THEMES[theme]
    box = pip_area(STANDARD_CARD, picture=True)
    for suit in Suit:
        faces = {rank: card_region(Card(rank, suit), colours, STANDARD_CARD, box) for rank in range(1, 14)}
        for court in (11, 12, 13):
            picture = faces[court]
            assert difference(picture, picture.transpose(Image.Transpose.ROTATE_180))[1] < 0.02, (court, suit)
            for other in range(1, 14):
                if other != court:
                    assert difference(picture, faces[other])[1] > 0.08, (court, other, suit)
            for colour in (colours.accent, colours.suits[suit]):  # in flat patches, not only at edges
                assert pixels_of(picture, colour) > 40, (court, suit, colour)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_top_strip_and_the_left_strip_each_tell_every_card_from_every_other(theme: str, size: CardSize) -> None:
    colours = THEMES[theme]
    scale = size.width / STANDARD_CARD.width
    top = (0, 0, size.width, round(TOP_STRIP * scale))
    left = (0, 0, round(LEFT_STRIP * scale), size.height)
    for strip in (top, left):
        seen = [card_region(card, colours, size, strip) for card in ALL_CARDS]
        for (a, image_a), (b, image_b) in itertools.combinations(zip(ALL_CARDS, seen, strict=True), 2):
            assert difference(image_a, image_b)[1] > 0.01, (a, b, strip)


@pytest.mark.parametrize("size", SIZES)
def test_the_pips_and_pictures_keep_out_of_the_index(size: CardSize) -> None:
    """Under the top strip, the left strip shows the suit and nothing else, whatever the rank;
    right of the left strip, the top strip shows the suit and nothing else."""
    colours = THEMES["classic"]
    scale = size.width / STANDARD_CARD.width
    strip_width, strip_height = round(LEFT_STRIP * scale), round(TOP_STRIP * scale)
    under_rank = round((TOP_STRIP + 3) * scale)  # a Q's tail reaches a little below the top strip
    for suit in Suit:
        below_rank = [card_region(Card(rank, suit), colours, size, (0, under_rank, strip_width, size.height))
                      for rank in range(1, 14)]
        beside_rank = [card_region(Card(rank, suit), colours, size, (strip_width, 0, size.width, strip_height))
                       for rank in range(1, 14)]
        for region in (below_rank, beside_rank):
            assert any(ink(region[0], colours.suits[suit], colours.face)[y][x]
                       for y in range(region[0].height) for x in range(region[0].width))
            for rank, other in enumerate(region[1:], start=2):
                assert difference(region[0], other)[1] == 0, (rank, suit)  # a faint halo of a frame's edge at most


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_card_back_looks_the_same_either_way_up_and_unlike_any_face(theme: str) -> None:
    colours = THEMES[theme]
    for size in SIZES:
        back = card_back(colours, size).crop((SHADOW, SHADOW, SHADOW + size.width, SHADOW + size.height)).convert("RGB")
        assert difference(back, back.transpose(Image.Transpose.ROTATE_180))[1] < 0.005
        assert pixels_of(back, colours.back_pattern) > 40
    face = card_region(Card(1, Suit.SPADES), colours, STANDARD_CARD, (0, 0, STANDARD_CARD.width, STANDARD_CARD.height))
    back = card_back(colours, STANDARD_CARD).crop((SHADOW, SHADOW, SHADOW + STANDARD_CARD.width,
                                                   SHADOW + STANDARD_CARD.height)).convert("RGB")
    assert difference(face, back)[1] > 0.5
