"""Replays: the GIF's frames are the game's positions as render() draws them, timed as planned."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.game import GAMES, Game, from_record, to_record
from render import render
from render.felt import felt
from render.replay import (
    CHUNK,
    DRAW_MS,
    FASTEST_MS,
    FIRST_MS,
    LAST_MS,
    MAX_BYTES,
    MAX_FRAMES,
    MOVE_MS,
    PLAY_MS,
    UPLOAD_SHARE,
    Frame,
    ReplayTooLarge,
    distinct,
    replay_frames,
    replay_gif,
)
from render.themes import get_theme
from tests.samples import long_game, mid_game, sample_game, won_game


def frames_of(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame of a GIF as a viewer shows it (RGB), with its duration in ms."""
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.is_animated
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append((image.convert("RGB"), image.info["duration"]))
    return frames


def position(record: dict, moves: int) -> Game:
    """The game of `record` after its first `moves` moves."""
    return from_record({**record, "moves": record["moves"][:moves]})


def drawn(game: Game, size: tuple[int, int], player: str) -> Image.Image:
    """render() of the position, on the felt of a canvas of `size` as the replay's frames are."""
    board = Image.open(io.BytesIO(render(game, player=player))).convert("RGB")
    canvas = felt(get_theme("classic"), size)
    canvas.paste(board, (0, 0))
    return canvas


def share_off(a: Image.Image, b: Image.Image, levels: int) -> float:
    """The share of pixels where some channel of the two images differs by more than `levels`."""
    red, green, blue = ImageChops.difference(a, b).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    histogram = largest.histogram()
    return sum(histogram[levels + 1:]) / sum(histogram)


def record_of(game: Game) -> dict:
    record = to_record(game)
    record["moves"] = [str(move) for move in record["moves"]]
    return record


@pytest.mark.parametrize("sample", ["won", "mid"])
def test_each_frame_is_the_games_position_as_render_draws_it_and_the_last_holds(sample: str) -> None:
    game = won_game("canfield") if sample == "won" else mid_game("canfield", moves=60)
    record = record_of(game)
    moves = record["moves"]
    assert any(m == "d" for m in moves) and any(m != "d" for m in moves)
    if sample == "won":  # written in two parts, joined: the frames after the join are checked too
        assert CHUNK < len(moves) < 2 * CHUNK
    frames = frames_of(replay_gif(record, player="Zoë"))
    assert len(frames) == len(moves) + 1
    size = frames[0][0].size
    assert size == (max(f.width for f, _ in frames), max(f.height for f, _ in frames))
    for index in sorted({0, 1, len(moves) // 2, len(moves) - 1, len(moves)}):
        expected = drawn(position(record, index), size, "Zoë")
        # In the theme's palette, as render() sends a board: the same pixels, not the position before's.
        assert frames[index][0].tobytes() == expected.tobytes(), index
        if index:
            assert frames[index][0].tobytes() != drawn(position(record, index - 1), size, "Zoë").tobytes(), index
    durations = [duration for _, duration in frames]
    assert durations[0] == FIRST_MS and durations[-1] == LAST_MS
    for move, duration in zip(moves[:-1], durations[1:-1], strict=True):
        assert duration == (DRAW_MS if move == "d" else MOVE_MS)


def test_a_won_games_last_frame_shows_the_win_and_the_earlier_ones_do_not() -> None:
    game = won_game("canfield")
    record = record_of(game)
    frames = frames_of(replay_gif(record))
    won = drawn(game, frames[-1][0].size, "")
    assert share_off(frames[-1][0], won, 24) < 0.005
    # The banner is only on the last frame: the frame before it matches a board with no banner.
    before = position(record, len(record["moves"]) - 1)
    assert before.outcome is None
    assert share_off(frames[-2][0], drawn(before, won.size, ""), 24) < 0.005


def test_a_game_without_moves_is_one_frame_that_holds() -> None:
    record = record_of(mid_game("canfield", moves=0))
    image = Image.open(io.BytesIO(replay_gif(record)))
    assert image.n_frames == 1
    assert replay_frames([]) == [Frame(0, LAST_MS)]


def test_a_long_game_keeps_to_max_frames_with_the_deal_and_the_end() -> None:
    moves = (["d", "d", "d", "wt1"] * 150)[:599]  # 599 moves: the frames are only planned here
    frames = replay_frames(moves)
    assert len(frames) <= MAX_FRAMES
    assert frames[0] == Frame(0, FIRST_MS) and frames[-1] == Frame(599, LAST_MS)
    shown = [frame.moves for frame in frames]
    assert shown == sorted(set(shown))
    # Of each run of draws, only the last one is shown.
    assert all(not (moves[n - 1] == "d" and moves[n] == "d") for n in shown[1:-1])
    very_long = replay_frames(["wt1"] * 1999)
    assert len(very_long) == MAX_FRAMES and very_long[0].moves == 0 and very_long[-1].moves == 1999


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_replays_to_its_last_position(name: str) -> None:
    game = sample_game(name, "mid")
    record = record_of(game)
    frames = frames_of(replay_gif(record))
    assert len(frames) == len(record["moves"]) + 1
    assert share_off(frames[-1][0], drawn(game, frames[-1][0].size, ""), 24) < 0.005


def test_a_long_game_goes_faster_but_no_frame_is_shorter_than_browsers_show() -> None:
    frames = replay_frames(["wt1", "t1t2", "d"] * 666)
    middle = [frame.milliseconds for frame in frames[1:-1]]
    assert sum(middle) <= PLAY_MS * 1.1 and min(middle) >= FASTEST_MS  # rounded to 10 ms, the draws slowed to 100
    assert all(ms % 10 == 0 for ms in middle) and frames[0].milliseconds == FIRST_MS
    assert frames[-1].milliseconds == LAST_MS
    short = replay_frames(["wt1", "d"] * 20)
    assert [f.milliseconds for f in short[1:-1]] == [MOVE_MS, DRAW_MS] * 19 + [MOVE_MS]


@pytest.fixture(scope="module")
def longest() -> dict:
    """A game of two decks as long as the move cap allows, its columns tall and shifting."""
    return record_of(long_game(moves=2000))


def test_the_longest_game_of_two_decks_fits_a_small_upload_limit_with_room(longest: dict) -> None:
    limit = 2 * 1024 * 1024
    unlimited = replay_frames(longest["moves"])
    gif = replay_gif(longest, upload_limit=limit)
    assert len(gif) <= UPLOAD_SHARE * limit
    frames = frames_of(gif)
    # Fewer frames than without a limit, but still an animation of the whole game, whole-size.
    assert 30 <= len(frames) < len(unlimited)
    final = from_record(longest)
    assert frames[0][0].size[0] == Image.open(io.BytesIO(render(final))).width
    assert share_off(frames[-1][0], drawn(final, frames[-1][0].size, ""), 24) < 0.005
    assert share_off(frames[0][0], drawn(position(longest, 0), frames[0][0].size, ""), 24) < 0.005


def test_a_tiny_upload_limit_gets_the_end_still_and_one_too_small_for_that_an_error(longest: dict) -> None:
    still = replay_gif(longest, upload_limit=150_000)
    assert len(still) <= UPLOAD_SHARE * 150_000
    image = Image.open(io.BytesIO(still))
    assert image.n_frames == 1
    half = Image.open(io.BytesIO(render(from_record(longest)))).convert("RGB").reduce(2)  # the board, half-size
    assert image.size == half.size and share_off(image.convert("RGB"), half, 24) < 0.01
    with pytest.raises(ReplayTooLarge) as too_large:
        replay_gif(longest, upload_limit=20_000)
    assert too_large.value.upload_limit == 20_000 and too_large.value.smallest > 16_000


def test_a_frame_no_different_from_the_one_before_is_left_out_and_that_one_lasts_longer() -> None:
    # Before the parts are cut: Pillow would fold it into the frame before, which may be the
    # part before's last frame, drawn again only to start from and then left out.
    red, blue = Image.new("P", (4, 4), 1), Image.new("P", (4, 4), 2)
    kept = list(distinct(iter([(red, 100), (red, 50), (blue, 30), (red, 20), (red, 10)])))
    assert [(picture.getpixel((0, 0)), ms, index) for picture, ms, index in kept] == [(1, 150, 1), (2, 30, 2),
                                                                                       (1, 30, 4)]


def test_the_longest_games_replay_stays_within_max_bytes_and_the_frame_budget(longest: dict) -> None:
    # The costliest replay we know (two decks, the move cap's 2,000 moves, tall columns shifting):
    # however large the upload limit, at most MAX_BYTES and MAX_FRAMES, the deal and the end among them.
    gif = replay_gif(longest, upload_limit=100 * 1024 * 1024)
    assert len(gif) <= MAX_BYTES
    frames = frames_of(gif)
    assert 50 <= len(frames) <= MAX_FRAMES
    assert share_off(frames[0][0], drawn(position(longest, 0), frames[0][0].size, ""), 24) < 0.005
    final = from_record(longest)
    assert share_off(frames[-1][0], drawn(final, frames[-1][0].size, ""), 24) < 0.005
