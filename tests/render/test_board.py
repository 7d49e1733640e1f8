"""Board images: every game, state and theme renders; goldens hold; threads agree."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import pairwise

import pytest
from PIL import Image, ImageChops

import render.board as board_module
from bot.game import GAMES, Move, Outcome, new_game, to_snapshot
from render import THEMES, render, render_image
from render.board import GEOMETRY, Box, board_plan, board_size
from render.captions import board_captions
from render.felt import felt_shades
from render.layouts import LAYOUTS, Fan, layout_for
from render.palette import board_palette, exact_colours, quantize, stored_palettes
from render.race import BOARDS
from tests.render.golden import FOLDER, GOLDEN, difference, golden_image, pixels
from tests.samples import STATES, sample_game

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WIDTHS = {"demons-and-thieves": 814, "demonthief": 814, "patriarchs": 564, "picture-patience": 564}  # else 629
PHONE = 820  # the widest a board may be and still read at 400 pixels wide (Demons and Thieves': 814)


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
    assert image.width == GEOMETRY.width(layout_for(GAMES[name])) == WIDTHS.get(name, 629)
    assert 570 <= image.height <= 1000
    assert image.size == board_size(game)
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
    x0, y0, x1, y1 = board_plan(game).boxes["w"]
    waste = (x0 - 20, y0 - 20, x1 + 20, y1 + 20)
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


def changed_colours(drawn: Image.Image, shown: Image.Image) -> set[tuple[int, int, int]]:
    """The drawn colours of the pixels that the palette showed otherwise."""
    red, green, blue = ImageChops.difference(drawn, shown.convert("RGB")).split()
    changed = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda level: 255 if level else 0)
    box = changed.getbbox()
    if box is None:
        return set()
    # The changed pixels' colours, the others given the colour of a changed one (so adding none).
    first = next((x, box[1]) for x in range(box[0], box[2]) if changed.getpixel((x, box[1])))
    filler = Image.new("RGB", drawn.size, drawn.getpixel(first))
    colours = Image.composite(drawn, filler, changed).getcolors(maxcolors=drawn.width * drawn.height)
    assert colours is not None
    return {colour for _, colour in colours}


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
            assert not changed_colours(drawn, shown) & exact, (name, state, "stale?")
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
        margin = (0, GEOMETRY.header, GEOMETRY.margin - GEOMETRY.ring_reach, drawn.height)  # felt only
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


def overlap(a: Box, b: Box, reach: int = 0) -> bool:
    """Whether two boxes share any pixel, `b` grown by `reach` on every side."""
    return a[0] < b[2] + reach and b[0] - reach < a[2] and a[1] < b[3] + reach and b[1] - reach < a[3]


def long_blocked_game():
    """Canfield (one pass) deal 92 played at random, preferring the columns, until stuck: a
    blocked game with a 17-card column."""
    game = new_game("canfield-one-pass", deal=92)
    rng = random.Random(92)
    while legal := game.legal_moves():
        onto_columns = [move for move in legal if not move.is_draw and move.dst.startswith("t")]
        game.play(rng.choice(onto_columns) if onto_columns and rng.random() < 0.8 else rng.choice(legal))
    assert game.outcome is Outcome.BLOCKED and max(len(game.piles()[f"t{i}"]) for i in range(1, 5)) == 17
    return game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_waste_fans_its_top_three_to_the_right_by_one_offset(name: str) -> None:
    layouts = [*LAYOUTS.values(), *BOARDS.values()]  # the race boards' too
    assert all(spot.fan is Fan.RIGHT3 for layout in layouts for spot in layout.spots if spot.pile == "w")
    assert 32 <= GEOMETRY.waste_fan < GEOMETRY.card.width  # a strip of each covered card shows
    game = new_game(name, deal=12345)
    while len(game.piles()["w"]) < 3:
        game.play("d")
    waste = game.piles()["w"]
    cards = board_plan(game).cards["w"]
    assert [card.text for card in cards] == waste[-3:]
    assert len({card.y for card in cards}) == 1
    assert [b.x - a.x for a, b in pairwise(cards)] == [GEOMETRY.waste_fan] * 2


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_two_piles_of_a_board_overlap(name: str, state: str) -> None:
    boxes = board_plan(sample_game(name, state)).boxes
    for first in boxes:
        for second in boxes:
            assert first == second or not overlap(boxes[first], boxes[second]), (first, second)


def ended_games() -> list[tuple[str, object]]:
    """Every game won and blocked, and blocked with long columns (a 17-card column; Superior
    Canfield's whole reserve; Demons and Thieves' eight-card right columns)."""
    games = [(f"{name}-{state}", sample_game(name, state)) for name in sorted(GAMES) for state in ("won", "blocked")]
    return [*games, ("canfield-long-columns", long_blocked_game())]


@pytest.mark.parametrize(("label", "game"), ended_games(), ids=[label for label, _ in ended_games()])
def test_the_banner_covers_no_card_outline_or_ring_and_the_board_holds_it(label: str, game) -> None:
    plan = board_plan(game)
    banner = plan.banner
    assert banner is not None
    for pile, box in plan.boxes.items():
        assert not overlap(banner, box, GEOMETRY.ring_reach), (label, pile, box, banner)
    assert GEOMETRY.margin <= banner[0] and banner[2] <= plan.size[0] - GEOMETRY.margin
    assert banner[3] <= plan.size[1] - GEOMETRY.margin
    image = render_image(game)
    assert image.size == plan.size
    felt = felt_shades(THEMES["classic"])
    middle = (banner[1] + banner[3]) // 2
    assert image.getpixel((banner[0] + 30, middle)) not in felt  # drawn where the plan says
    assert image.getpixel((banner[0] + 30, banner[1] - 4)) in felt
    assert board_plan(game, in_play=True).banner is None


def test_a_board_grows_to_hold_its_banner_only_where_the_felt_has_no_room() -> None:
    roomy = sample_game("canfield", "won")
    assert board_size(roomy) == board_size(roomy, in_play=True)  # in the felt under the columns
    long = long_blocked_game()
    width, height = board_size(long)
    assert width == board_size(long, in_play=True)[0]
    assert height >= board_size(long, in_play=True)[1] + GEOMETRY.banner


@pytest.mark.parametrize("name", ["demons-and-thieves", "demonthief"])
def test_demons_and_thieves_reads_on_a_phone(name: str) -> None:
    width, height = board_size(new_game(name, deal=12345))
    assert width <= PHONE and height <= 1.05 * width  # about square when fresh
    layout = layout_for(GAMES[name])
    plan = board_plan(new_game(name, deal=12345))
    rows = {pile: box[1] for pile, box in plan.boxes.items()}
    left, right = [f"t{i}" for i in range(1, 5)], [f"t{i}" for i in range(5, 10)]
    assert min(rows[pile] for pile in right) > max(plan.boxes[pile][3] for pile in ["f5", "f6", "f7", "f8"])
    assert len({rows[pile] for pile in left}) == 1 and len({rows[pile] for pile in right}) == 1
    assert max(rows[pile] for pile in left) < min(rows[pile] for pile in right)  # two tableaux, two bands
    assert {spot.pile for spot in layout.spots} >= {*left, *right}


def test_the_right_tableau_moves_down_as_the_left_columns_above_it_grow() -> None:
    game = new_game("demons-and-thieves", deal=12345)
    before = board_plan(game)
    for move in game.legal_moves():
        if move.dst == "t4" and not move.is_draw:
            game.play(move)
            break
    else:
        pytest.fail("no move onto t4 in deal 12345")
    after = board_plan(game)
    grown = len(after.cards["t4"]) - len(before.cards["t4"])
    assert grown > 0
    band = [f"t{i}" for i in range(5, 10)]
    assert {after.boxes[pile][1] for pile in band} == {before.boxes["t5"][1] + grown * GEOMETRY.fan}  # in line


@pytest.mark.parametrize("name", ["patriarchs", "picture-patience"])
def test_patriarchs_marks_say_which_way_each_foundation_column_builds(name: str) -> None:
    from bot.play.replies import DealLabel
    from bot.words import TERMINAL
    from bot.words import board_captions as worded

    game = sample_game(name, "mid")
    words = board_captions(game)
    assert (words.up_from_ace, words.down_from_king) == ("up from the ace", "down from the king")
    spanish = worded(game, TERMINAL.speaking("es_ES"), DealLabel(number=game.deal))
    assert spanish.up_from_ace != words.up_from_ace and spanish.down_from_king != words.down_from_king
    drawn = render_image(game, captions=words)
    bare = render_image(game, captions=replace(words, up_from_ace="", down_from_king=""))
    band = (0, GEOMETRY.header, drawn.width, GEOMETRY.header + GEOMETRY.mark)
    changed = ImageChops.difference(drawn, bare).getbbox()
    assert changed is not None and band[1] <= changed[1] and changed[3] <= band[3]  # in the band only
    aces, kings = board_plan(game).boxes["f1"], board_plan(game).boxes["f5"]
    left = ImageChops.difference(drawn, bare).crop((0, band[1], drawn.width // 2, band[3])).getbbox()
    right = ImageChops.difference(drawn, bare).crop((drawn.width // 2, band[1], drawn.width, band[3])).getbbox()
    assert left is not None and left[0] <= aces[0] + 2  # over the ace column, from its left edge
    assert right is not None and drawn.width // 2 + right[2] >= kings[2] - 2  # to the king column's right edge
    canfield = sample_game("canfield", "mid")
    assert render_image(canfield) == render_image(canfield, captions=replace(board_captions(canfield),
                                                                               up_from_ace="x", down_from_king="y"))


def test_a_covered_card_pasted_in_part_gives_the_same_board_as_pasted_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a fanned or stacked card only what it leaves showing is pasted: every game, in
    every state, draws the very pixels it draws when each card is pasted whole."""
    boards = {(name, state): sample_game(name, state) for name in GAMES for state in STATES}
    drawn = {key: render_image(game, theme="dark").tobytes() for key, game in boards.items()}
    monkeypatch.setattr(board_module, "_uncovered", lambda size, above, card: [(0, 0, *size)])
    for key, game in boards.items():
        assert render_image(game, theme="dark").tobytes() == drawn[key], key
