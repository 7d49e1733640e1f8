"""Demon race boards: the private board and the public table render for every size of race, in
both layouts, fresh, mid-race and finished; they are pure; the owners' colours show."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageStat

from bot.game.race import RaceGame, new_race
from render import PLAYER_COLOURS, THEMES, render_race_board, render_race_table
from render.board import GEOMETRY
from render.captions import race_captions
from render.felt import felt_shades
from render.fonts import font
from render.race import (
    fitted,
    foundation_box,
    foundation_tray,
    progress_bar_box,
    render_race_board_image,
    render_race_table_image,
)
from render.themes import get_theme
from tests.game.test_race import klondike_deck, stuck_deck, won_deck
from tests.render.golden import difference, pixels

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = ["Alice", "Bob", "Carol", "Dmitri", "Eve", "Fatima", "Gus", "Hiroshi"]


def mid_race(players: int, layout: str = "klondike", rounds: int = 6, seed: int = 1) -> RaceGame:
    """Every player in turn draws or plays a legal move (a foundation move when there is one)."""
    race = new_race(seed, players=players, layout=layout)
    rng = random.Random(seed)
    for _ in range(rounds):
        for player in range(players):
            if rng.random() < 0.3:
                race.play(player, "d")
                continue
            moves = race.legal_moves(player)
            up = [move for move in moves if move.dst == "f"]
            race.play(player, up[0] if up else rng.choice(moves))
    return race


def finished_race(layout: str) -> RaceGame:
    """A finished race: Klondike, player 0 goes out; the demon layout, played out at random."""
    if layout == "klondike":
        race = new_race(5, players=3, decks=[won_deck(), stuck_deck(), stuck_deck()])
        while race.demon is None:
            if not race.play(0, "a"):
                race.play(0, "d")
        return race
    race, rng = new_race(3, players=2, layout="demon"), random.Random(2)
    for number in range(5000):
        moves = race.legal_moves(number % 2)
        up = [move for move in moves if move.dst == "f"]
        race.play(number % 2, up[0] if up else rng.choice(moves))
        if race.demon is not None or (number % 500 == 499 and race.finished):
            return race
    raise AssertionError("the race did not finish")


def state_of(race: RaceGame) -> tuple:
    """Everything a render could change."""
    layouts = [(race.piles(player), race.piles(player, reveal=True)) for player in range(race.players)]
    return list(race.history), layouts, [list(pile) for pile in race.foundations], race.demon


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "RGB"
    return image


def near(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], tolerance: int = 24,
         ) -> int:
    """How many pixels in `box` are within `tolerance` of `colour` in every channel."""
    data = image.crop(box).convert("RGB").tobytes()
    return sum(all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))
               for pixel in zip(data[0::3], data[1::3], data[2::3], strict=True))


def frame(box: tuple[int, int, int, int], out: int) -> list[tuple[int, int, int, int]]:
    """The strips up to `out` pixels outside a card's box: left, right, top, bottom."""
    x0, y0, x1, y1 = box
    return [(x0 - out, y0, x0, y1), (x1, y0, x1 + out, y1), (x0, y0 - out, x1, y0), (x0, y1, x1, y1 + out)]


@pytest.mark.parametrize("layout", ["klondike", "demon"])
@pytest.mark.parametrize("players", [2, 3, 8])
@pytest.mark.parametrize("moved", [False, True])
def test_both_boards_render_for_every_size_and_layout(players: int, layout: str, moved: bool) -> None:
    race = mid_race(players, layout) if moved else new_race(7, players=players, layout=layout)
    before = state_of(race)
    table = decode(render_race_table(race, names=NAMES[:players]))
    boards = [decode(render_race_board(race, player, names=NAMES[:players])) for player in (0, players - 1)]
    assert state_of(race) == before
    assert 600 <= table.width <= 760 and 300 <= table.height <= 1100
    for board in boards:
        assert 600 <= board.width <= 760 and 500 <= board.height <= 1400
    if moved:
        assert race.foundations and {move for _, move in race.history} > {race.history[0][1]}
        assert len({player for player, _ in race.history}) == players


@pytest.mark.parametrize("layout", ["klondike", "demon"])
def test_finished_races_render_with_a_banner(layout: str) -> None:
    race = finished_race(layout)
    assert race.finished
    theme = get_theme("classic")
    colour = theme.won if race.demon is not None else theme.blocked
    before = state_of(race)
    table = decode(render_race_table(race, names=NAMES[:race.players]))
    board = decode(render_race_board(race, 1, names=NAMES[:race.players]))
    assert state_of(race) == before
    # The banner (a little translucent) sits below the players' lines, and over the player's own piles.
    assert near(table, (0, table.height - 90, table.width, table.height), colour, 30) > 20_000
    assert near(board, (0, board.height // 2, board.width, board.height), colour, 30) > 20_000
    going = decode(render_race_table(mid_race(race.players, layout), names=NAMES))
    assert going.height < table.height
    assert near(going, (0, going.height - 90, going.width, going.height), colour, 30) < 500  # swatch edges


def test_the_public_table_has_a_line_per_player_and_keeps_its_width() -> None:
    sizes = [render_race_table_image(new_race(1, players=players), names=NAMES).size for players in (2, 3, 8)]
    assert len({width for width, _ in sizes}) == 1
    assert sizes[0][1] < sizes[1][1] < sizes[2][1]


def test_rendering_is_pure_and_thread_safe() -> None:
    race = mid_race(3, rounds=10)  # nobody went out: the stuck search runs, on a copy
    assert race.demon is None
    before = state_of(race)
    expected = [render_race_table(race, names=NAMES, theme=theme) for theme in sorted(THEMES)]
    expected += [render_race_board(race, player, names=NAMES) for player in range(3)]
    jobs = [("table", theme) for theme in sorted(THEMES)] + [("board", player) for player in range(3)]

    def run(job: tuple[str, object]) -> bytes:
        kind, value = job
        if kind == "table":
            return render_race_table(race, names=NAMES, theme=str(value))
        return render_race_board(race, int(value), names=NAMES)  # type: ignore[arg-type]

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(run, jobs * 4))
    assert [pixels(png) for png in results] == [pixels(png) for png in expected] * 4
    assert state_of(race) == before


def two_aces() -> RaceGame:
    """Alice's ace of hearts on the first foundation, then Bob's ace of spades on the second."""
    alice = klondike_deck([["AH"], ["2S"], ["KC"], ["KD"], ["KS"], ["KH"], ["QC"]], [])
    bob = klondike_deck([["2H"], ["AS"], ["KC"], ["KD"], ["KS"], ["KH"], ["QC"]], [])
    race = new_race(7, players=2, decks=[alice, bob])
    race.play(0, "t1f")
    race.play(1, "t2f")
    race.play(1, "d")  # Bob's last move is a draw: only Alice's board outlines a foundation
    return race


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_each_foundation_card_shows_its_owners_colour(theme: str) -> None:
    race = two_aces()
    assert [(str(top.card), top.owner) for top in race.foundation_tops()] == [("AH", 0), ("AS", 1)]
    images = [render_race_table_image(race, names=NAMES, theme=theme),
              *(render_race_board_image(race, player, names=NAMES, theme=theme) for player in (0, 1))]
    for image in images:
        for index, owner in enumerate((0, 1)):
            box = foundation_box(race, index, image.width)
            mine, theirs = PLAYER_COLOURS[owner].rgb, PLAYER_COLOURS[1 - owner].rgb
            for strip in frame(box, 3)[:3]:  # the owner's colour round the card (its shadow falls below) ...
                assert near(image, strip, mine) > 0.5 * (strip[2] - strip[0]) * (strip[3] - strip[1])
                assert near(image, strip, theirs) == 0
            x0, _, x1, y1 = box  # ... and in the tag on its lower edge
            assert near(image, ((x0 + x1) // 2 - 12, y1 + 2, (x0 + x1) // 2 + 12, y1 + 8), mine) > 40


def test_a_players_last_foundation_move_is_outlined_on_their_board_only() -> None:
    race = two_aces()
    moved_to = get_theme("classic").moved_to
    images = {"alice": render_race_board_image(race, 0, names=NAMES),
              "bob": render_race_board_image(race, 1, names=NAMES),
              "table": render_race_table_image(race, names=NAMES)}
    for name, image in images.items():
        box = foundation_box(race, 0, image.width)
        ring = sum(near(image, strip, moved_to, 30) for strip in frame(box, 10))
        assert (ring > 200) == (name == "alice"), name
    bob = images["bob"]  # Bob's draw: the waste, beside the stock, is outlined
    assert near(bob, (0, 0, bob.width, bob.height), moved_to, 30) > 200


def test_the_player_colours_are_distinct_and_read_on_every_felt() -> None:
    assert len(PLAYER_COLOURS) == 8 and len({colour.name for colour in PLAYER_COLOURS}) == 8

    def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5

    rgbs = [colour.rgb for colour in PLAYER_COLOURS]
    assert min(distance(a, b) for i, a in enumerate(rgbs) for b in rgbs[i + 1:]) > 90
    for theme in THEMES.values():
        assert min(distance(rgb, theme.felt) for rgb in rgbs) > 120
        assert min(distance(rgb, highlight) for rgb in rgbs for highlight in (theme.moved_to, theme.moved_from)) > 60


def test_bad_arguments_are_refused() -> None:
    race = new_race(1, players=3)
    with pytest.raises(ValueError, match="2 names for 3 players"):
        render_race_table(race, names=NAMES[:2])
    with pytest.raises(ValueError, match="'neon'"):
        render_race_board(race, 0, names=NAMES, theme="neon")
    with pytest.raises(ValueError, match="player 3"):
        render_race_board(race, 3, names=NAMES)


def test_the_race_number_changes_only_the_header() -> None:
    race = mid_race(3)
    plain = render_race_board_image(race, 0, names=NAMES)
    numbered = render_race_board_image(race, 0, names=NAMES, number=17)
    header = GEOMETRY.header - 8
    assert plain.crop((0, header, plain.width, plain.height)).tobytes() == \
        numbered.crop((0, header, numbered.width, numbered.height)).tobytes()
    assert plain.crop((0, 0, plain.width, header)).tobytes() != numbered.crop((0, 0, plain.width, header)).tobytes()


def test_a_long_name_is_cut_to_the_room_it_has() -> None:
    face = font(24)
    assert fitted("Bo", face, 200) == "Bo"
    cut = fitted("Maximilian-Alexander the Great", face, 200)
    assert cut.endswith("…") and cut.startswith("Maximilian") and face.getlength(cut) <= 200


def test_a_race_ended_for_want_of_moves_shows_its_end_though_its_cards_could_go_on() -> None:
    race = mid_race(3)
    assert not race.finished
    going, ended = render_race_table_image(race, names=NAMES), render_race_table_image(race, names=NAMES, expired=True)
    assert ended.height > going.height  # the banner with the final scores
    board = render_race_board_image(race, 1, names=NAMES)
    assert difference(board, render_race_board_image(race, 1, names=NAMES, expired=True))[1] > 0.01


def scaled(image: Image.Image, width: int = 400) -> Image.Image:
    """`image` as Discord shows it inline on a phone, `width` pixels wide."""
    return image.resize((width, round(width * image.height / image.width)), Image.Resampling.LANCZOS)


def green(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """The mean of the green channel in `box`: the felt's own channel."""
    return ImageStat.Stat(image.crop(box)).mean[1]


@pytest.mark.parametrize("players", [2, 3, 8])
def test_the_shared_foundations_lie_on_their_own_labelled_tray(players: int) -> None:
    race = mid_race(players, rounds=12)
    started, slots = len(race.foundation_tops()), 4 * players
    assert 0 < started < slots
    assert race_captions(race).foundations == f"shared foundations · {started} of {slots}"
    for image in (render_race_table_image(race, names=NAMES), render_race_board_image(race, 0, names=NAMES)):
        tray = foundation_tray(race, image.width)
        boxes = [foundation_box(race, index, image.width) for index in range(slots)]
        assert all(tray[0] < x0 and tray[1] < y0 and x1 < tray[2] and y1 + 10 < tray[3] for x0, y0, x1, y1 in boxes)
        # Between one row of slots and the next (below the last, to the tray's edge) the tray is
        # darker than the felt beside it, on the same lines: no row reads as one of the player's piles.
        tops = [*sorted({box[1] for box in boxes})[1:], tray[3] + 2]
        for bottom, next_top in zip(sorted({box[3] for box in boxes}), tops, strict=True):
            inside = (tray[0] + 12, bottom + 11, tray[2] - 12, next_top - 5)  # below the tags, above the frames
            assert inside[3] - inside[1] >= 4
            outside = (0, inside[1], tray[0] - 1, inside[3])
            assert green(image, outside) - green(image, inside) > 8, (image.width, bottom)
        below = (0, tray[3] + 3, image.width, tray[3] + 6)  # and the felt goes on, plain, after it
        assert abs(green(image, below) - green(image, (0, below[1], tray[0] - 1, below[3]))) < 2


def test_the_slots_still_to_open_show_the_ace_that_opens_them_until_the_race_ends() -> None:
    race = mid_race(3, rounds=12)
    empty = foundation_box(race, len(race.foundation_tops()), 678)
    x0, y0, x1, y1 = empty
    middle = ((x0 + x1) // 2 - 12, (y0 + y1) // 2 - 14, (x0 + x1) // 2 + 12, (y0 + y1) // 2 + 14)
    for expired, letter in ((False, True), (True, False)):
        table = render_race_table_image(race, names=NAMES, expired=expired)
        assert table.width == 678
        assert (near(table, middle, (200, 220, 205), 40) > 30) == letter, expired  # the faint "A"


@pytest.mark.parametrize("players", [2, 8])
def test_each_players_bar_is_bold_in_their_colour_and_as_long_as_their_share(players: int) -> None:
    race = mid_race(players, rounds=12)
    image = render_race_table_image(race, names=NAMES)
    small, scale = scaled(image), 400 / image.width
    for player in range(players):
        colour, on = PLAYER_COLOURS[player].rgb, race.on_foundations(player)
        left, top, right, bottom = progress_bar_box(race, player)
        assert bottom - top >= 16 and right - left > 0.8 * image.width
        x = left + 8
        if not on:
            assert near(image, (x, top, x + 1, bottom), colour) == 0
            continue
        assert near(image, (x, top - 2, x + 1, bottom + 4), colour) >= 14
        share = (right - left) * on / (on + race.cards_left(player))
        assert abs(near(image, (left, (top + bottom) // 2, right, (top + bottom) // 2 + 1), colour) - share) <= 4
        column = round(x * scale)  # still a bar, not a hairline, at 400 px
        assert near(small, (column, round(top * scale) - 2, column + 1, round(bottom * scale) + 3), colour, 40) >= 8


def every_race_image(layout: str, players: int) -> list[tuple[str, Image.Image]]:
    """The private board and the public table of a race of `players` in `layout`: fresh,
    mid-race, and over (ended for want of moves: it shows its banner)."""
    fresh, going = new_race(7, players=players, layout=layout), mid_race(players, layout, rounds=12)
    images = []
    for state, race, expired in (("fresh", fresh, False), ("mid-race", going, False), ("over", going, True)):
        images.append((f"{state} board", render_race_board_image(race, 0, names=NAMES, expired=expired)))
        images.append((f"{state} table", render_race_table_image(race, names=NAMES, expired=expired)))
    return images


@pytest.mark.parametrize("layout", ["klondike", "demon"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_race_image_stays_legible_at_400_pixels(layout: str, players: int) -> None:
    """At most 760 pixels wide, so that Discord's 400 on a phone keeps more than half of every
    size (the 15-pixel tags at 8, the 19-pixel counts at 10), and one width for a race whatever
    its state, so that its boards keep their scale as it goes on."""
    images = every_race_image(layout, players)
    widths = {kind.split()[1]: set() for kind, _ in images}
    for kind, image in images:
        assert 600 <= image.width <= 760, kind
        assert image.height / image.width < 2, kind  # a phone shows it in two screens at most
        widths[kind.split()[1]].add(image.width)
    assert all(len(found) == 1 for found in widths.values()), widths


def test_both_boards_lie_on_the_woven_felt_of_the_solo_board() -> None:
    race = mid_race(3)
    for theme in THEMES.values():
        for image in (render_race_board_image(race, 0, names=NAMES, theme=theme.name),
                      render_race_table_image(race, names=NAMES, theme=theme.name)):
            margin = (0, GEOMETRY.header, 8, image.height - 8)  # the left margin, below the header
            assert {colour for _, colour in image.crop(margin).getcolors()} == set(felt_shades(theme))
