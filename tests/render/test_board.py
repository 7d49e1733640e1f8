"""Board images: every game, state and theme renders; goldens hold; threads agree."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops

from bot.game import GAMES, Move, new_game, to_snapshot
from render import THEMES, render, render_image
from render.board import GEOMETRY
from render.felt import felt_shades
from render.layouts import layout_for
from render.palette import board_palette, exact_colours, quantize, stored_palettes
from tests.render.golden import FOLDER, GOLDEN, difference, golden_image, pixels
from tests.samples import STATES, sample_game

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WIDTHS = {"demons-and-thieves": 1193, "demonthief": 1193, "patriarchs": 708, "picture-patience": 708}  # else 658


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_renders_in_every_state_and_theme(name: str, state: str, theme: str) -> None:
    game = sample_game(name, state)
    before = to_snapshot(game)
    data = render(game, theme=theme, player="Zoë")
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P"  # 8-bit indexed, in the theme's palette
    assert image.width == GEOMETRY.width(layout_for(GAMES[name])) == WIDTHS.get(name, 658)
    assert 582 <= image.height <= 1000
    assert to_snapshot(game) == before  # rendering changes nothing in the game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_pile_of_every_game_has_a_place_on_the_board(name: str) -> None:
    piles = set(new_game(name, deal=1).piles())
    assert {spot.pile for spot in layout_for(GAMES[name]).spots} == piles


def test_the_board_grows_with_long_columns_and_stays_put_for_short_ones() -> None:
    short = render_image(new_game("canfield", deal=5))
    game = sample_game("superior-canfield", "fresh")  # its whole reserve fans down
    tall = render_image(game)
    assert tall.height > short.height


def test_the_last_move_and_a_hint_are_outlined() -> None:
    game = new_game("canfield", deal=1)
    plain = render_image(game)
    hinted = render_image(game, highlight=Move("t2", "t3"))
    assert difference(plain, hinted)[1] > 0.002
    game.play("t2t3")
    moved = render_image(game)
    game.undo()
    assert difference(plain, render_image(game)) == (0.0, 0.0)
    assert difference(plain, moved)[1] > 0.002


def colour_count(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> int:
    """How many pixels of the image (or of `box` in it) are exactly `colour`."""
    counts = dict((pixel, count) for count, pixel in (image.crop(box) if box else image).getcolors(1 << 20))
    return counts.get(colour, 0)


def test_an_analysis_outlines_the_losing_and_the_better_move_in_their_own_colours() -> None:
    theme = THEMES["classic"]
    game = new_game("canfield", deal=1)
    game.play("d")
    plain = render_image(game)
    assert colour_count(plain, theme.moved_to) > 100 and colour_count(plain, theme.losing) == 0
    # Both moves go through the waste: its two rings, one around the other, both show.
    analysed = render_image(game, highlight=Move("s", "w"), losing=Move("w", "t2"))
    assert colour_count(analysed, theme.losing) > 300 and colour_count(analysed, theme.hinted) > 300
    assert colour_count(analysed, theme.moved_to) == 0  # the last move is not outlined beside them
    x, y = GEOMETRY.margin, GEOMETRY.y(1)  # the waste, below the stock
    waste = (x - 20, y - 20, x + GEOMETRY.card.width + 20, y + 3 * GEOMETRY.card.height)
    assert colour_count(analysed, theme.losing, waste) > 100 and colour_count(analysed, theme.hinted, waste) > 100


def test_an_unknown_theme_is_refused() -> None:
    with pytest.raises(ValueError, match="'neon'"):
        render(new_game("canfield", deal=1), theme="neon")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_images(name: str) -> None:
    stored = Image.open(FOLDER / f"{name}.png")
    mean, share = difference(golden_image(name), stored)
    assert mean < 1.0 and share < 0.005, (
        f"{name} looks different (mean {mean:.2f}, {share:.2%} of pixels): if the change is meant, "
        "look at the new boards and run `.venv/bin/python -m tests.render.golden`"
    )


def test_parallel_renders_from_several_threads_give_identical_boards() -> None:
    games = [sample_game("canfield", state) for state in STATES] * 3
    themes = sorted(THEMES) * 3
    expected = [pixels(render(game, theme=theme)) for game, theme in zip(games, themes, strict=False)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        for _ in range(3):
            results = list(pool.map(lambda args: render(args[0], theme=args[1]), zip(games, themes, strict=False)))
            assert [pixels(png) for png in results] == expected


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_png_holds_exactly_the_drawn_board_in_the_themes_palette(name: str) -> None:
    for state, theme in zip(STATES, sorted(THEMES), strict=False):
        game = sample_game(name, state)
        shown = quantize(render_image(game, theme=theme, player="Zoë"), board_palette(THEMES[theme]))
        assert pixels(render(game, theme=theme, player="Zoë")) == ("P", shown.size, shown.convert("RGB").tobytes())


def channel_errors(drawn: Image.Image, shown: Image.Image) -> list[int]:
    """How many pixels differ by 0, 1, ... 255 levels in the channel where they differ most."""
    red, green, blue = ImageChops.difference(drawn, shown.convert("RGB")).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_palette_keeps_every_board_as_drawn_but_for_a_few_edge_pixels(theme: str) -> None:
    """What a player sees is the board in 256 colours: flat colours (felt and its weave, faces,
    suits, text, rings) exactly as drawn, and the anti-aliased edges between them near."""
    palette, exact = board_palette(THEMES[theme]), set(exact_colours(THEMES[theme]))
    errors = [0] * 256
    for name in sorted(GAMES):
        for state in STATES:
            drawn = render_image(sample_game(name, state), theme=theme, player="Zoë")
            shown = quantize(drawn, palette)
            errors = [a + b for a, b in zip(errors, channel_errors(drawn, shown), strict=True)]
            flat = list(zip(*[iter(drawn.tobytes())] * 3, strict=True))
            seen = list(zip(*[iter(shown.convert("RGB").tobytes())] * 3, strict=True))
            assert all(a == b for a, b in zip(flat, seen, strict=True) if a in exact), (name, state, "stale?")
    total = sum(errors)
    stale = "if the boards' look changed on purpose, remake the palettes: .venv/bin/python -m tests.render.golden"
    assert max(level for level, count in enumerate(errors) if count) <= 64, stale  # an edge pixel, off at most this
    assert sum(errors[25:]) / total < 0.002, stale  # 1 pixel in 500 or fewer off by more than 24 levels
    assert sum(level * count for level, count in enumerate(errors)) / total < 1.0, stale  # the mean


def test_every_themes_palette_is_stored_and_fits_a_gif() -> None:
    stored = stored_palettes()
    assert set(stored) == set(THEMES)  # none is made while a player waits
    assert all(len(colours) <= 255 for colours in stored.values())  # one index free for a replay's GIF


def test_the_felt_is_woven_faintly_and_the_weave_survives_the_palette() -> None:
    for theme in THEMES.values():
        game = sample_game("canfield", "mid")
        drawn = render_image(game, theme=theme.name)
        margin = (0, GEOMETRY.header, 8, drawn.height)  # the left margin, below the header: felt only
        colours = {colour for _, colour in drawn.crop(margin).getcolors()}
        assert colours == set(felt_shades(theme)) and len(colours) == 3  # woven: not one colour
        assert all(abs(a - b) <= 4 for colour in colours for a, b in zip(colour, theme.felt, strict=True))  # faint
        shown = Image.open(io.BytesIO(render(game, theme=theme.name))).convert("RGB")
        assert shown.crop(margin).tobytes() == drawn.crop(margin).tobytes()


def test_the_weave_shows_through_a_pile_labels_tag() -> None:
    theme = THEMES["classic"]
    drawn = render_image(sample_game("canfield", "mid"), theme="classic")
    x, y = GEOMETRY.x(0), GEOMETRY.y(0) - GEOMETRY.label + 2  # the stock's label, left of its text
    tag = {colour for _, colour in drawn.crop((x + 3, y + 8, x + 7, y + 15)).getcolors()}
    assert len(tag) >= 2  # the tag is pasted through a mask: the weave under it still shows
    assert all(sum(colour) < sum(shade) for colour in tag for shade in felt_shades(theme))  # under a dark tag


def test_boards_drawn_one_after_another_leave_their_shared_background_as_it_was() -> None:
    games = [sample_game("canfield", state) for state in STATES]  # one layout, theme and height
    first = [render_image(game, player="Zoë").tobytes() for game in games]
    again = [render_image(game, player="Zoë").tobytes() for game in reversed(games)]
    assert again[::-1] == first  # each board drew on a copy of the background, not on it


def test_where_isal_is_missing_zlib_writes_the_same_board(monkeypatch: pytest.MonkeyPatch) -> None:
    import zlib

    from render import board

    game = sample_game("canfield", "mid")
    fast = render(game)
    monkeypatch.setattr(board, "deflater", zlib)
    slow = render(game)
    assert pixels(slow) == pixels(fast) and slow != fast  # the same board, deflated by zlib
