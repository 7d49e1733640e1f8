"""A game's boards drawn from its last one (render.redraw, `render(..., key=...)`): the same
pixels as drawn whole, valid PNGs, a cache bounded per process, and a game's boards drawn by
one worker process (render.workers)."""

from __future__ import annotations

import asyncio
import copy
import io
import os
import random
import signal
import struct
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.game import DRAW, GAMES, Game, Move, new_game
from bot.play.replies import DealLabel
from bot.words import DISCORD, board_captions
from render import THEMES, redraw, render, workers
from render.board import GEOMETRY, Painter
from render.themes import get_theme
from tests.samples import sample_game


@pytest.fixture(autouse=True)
def no_boards_kept() -> Iterator[None]:
    redraw.forget()
    yield
    redraw.forget()


def decoded(png: bytes) -> Image.Image:
    """The PNG as an image, checked: its IDAT inflates with zlib (Adler-32 included) to its rows,
    and Pillow reads and verifies it."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    chunks, offset = {}, 8
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        data = png[offset + 8:offset + 8 + length]
        assert struct.unpack(">I", png[offset + 8 + length:offset + 12 + length])[0] == zlib.crc32(kind + data)
        chunks[kind] = chunks.get(kind, b"") + data
        offset += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    assert len(zlib.decompress(chunks[b"IDAT"])) == height * (width + 1)
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def same_pixels(a: bytes, b: bytes) -> bool:
    """Whether two PNG boards show the same picture: the same palette and the same indices."""
    first, second = decoded(a), decoded(b)
    return (first.size == second.size and first.getpalette() == second.getpalette()
            and first.tobytes() == second.tobytes())


def check(game: Game, key: object = "game", **options: object) -> bytes:
    """Draw the board from the last one kept under `key`, and check it against a whole drawing."""
    again = render(game, key=key, **options)  # type: ignore[arg-type]
    assert same_pixels(again, render(game, **options))  # type: ignore[arg-type]
    return again


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_board_of_a_playout_drawn_again_is_the_same_as_drawn_whole(name: str) -> None:
    rng = random.Random(name)
    game = new_game(name, deal=rng.randrange(1000))
    voices = [DISCORD, DISCORD.speaking("de"), DISCORD.speaking("fr")]
    voice, player = voices[0], "Zoë"
    check(game, captions=board_captions(game, voice, DealLabel(number=game.deal)), player=player)
    for step in range(40):
        legal = game.legal_moves()
        if game.outcome is not None or not legal:
            break
        roll = rng.random()
        if roll < 0.1 and game.moves:
            game.undo()
        else:
            draws = [move for move in legal if move.is_draw]
            game.play(rng.choice(draws) if draws and roll < 0.5 else rng.choice(legal))
        if step % 9 == 4:
            voice = voices[(voices.index(voice) + 1) % len(voices)]
        if step % 7 == 3:
            player = rng.choice(["Zoë", "Ångström-Ñúñez", "Al"])
        highlight = rng.choice(game.legal_moves()) if roll > 0.7 and game.legal_moves() else None
        words = board_captions(game, voice, DealLabel(number=game.deal))
        check(game, captions=words, player=player, highlight=highlight)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_board_drawn_after_the_end_and_back_is_the_same_as_drawn_whole(name: str) -> None:
    for state in ("mid", "won", "blocked", "mid", "fresh", "won"):  # banners come and go, the size changes
        check(sample_game(name, state), player="Zoë")


def test_a_redeal_is_drawn_the_same() -> None:
    game = new_game("canfield", deal=3)
    check(game)
    for _ in range(30):
        game.play("d")
        check(game)
        if game.pass_number == 2:  # the waste went back to the stock
            break
    assert game.pass_number == 2 and game.can_move(DRAW)
    check(game, highlight=Move("t1", "t2"), losing=Move("w", "t3"))


def test_two_games_interleaved_each_drawn_from_its_own_last_board() -> None:
    games = [new_game("canfield", deal=8), new_game("demons-and-thieves", deal=8)]
    rng = random.Random(8)
    for step in range(30):
        game = games[step % 2]
        if game.outcome is None:
            game.play(rng.choice(game.legal_moves()))
        check(game, key=step % 2, player=f"player {step % 2}")
    assert len(redraw.kept()) == 2


def test_a_new_games_first_board_starts_from_another_games_and_leaves_it_as_it_was() -> None:
    first, second = sample_game("canfield", "mid"), new_game("canfield", deal=99)
    check(first, key="first")
    before = redraw.kept_png("first")
    check(second, key="second")  # from the first game's board
    assert before is not None and redraw.kept_png("first") == before
    first.play("d")
    second.play("d")
    check(first, key="first")
    check(second, key="second")


def test_a_draw_is_drawn_again_only_around_the_stock_and_the_waste() -> None:
    game = new_game("canfield", deal=7)
    game.play("d")
    before = Painter(game, get_theme("classic"), GEOMETRY)
    game.play("d")
    after = Painter(game, get_theme("classic"), GEOMETRY)
    rectangles = redraw.dirty(before.compose(None, None, "Zoë"), after.compose(None, None, "Zoë"), after.size)
    width, height = after.size
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rectangles) < width * height / 8
    waste = after.box_of(after.spot_of("w"))
    assert any(x0 <= waste[0] and y0 <= waste[1] for x0, y0, _, _ in rectangles)
    # The stock's cards show the same (one card fewer, as deep): its parts stay, only its label changes.
    stock = after.box_of(after.spot_of("s"))
    assert not any(x0 < stock[2] and stock[1] < y1 and y0 < stock[3] and stock[0] < x1
                   for x0, y0, x1, y1 in rectangles)


def test_the_parts_two_boards_share_are_the_same_objects_and_parts_made_anew_are_drawn_again() -> None:
    game = new_game("canfield", deal=7)
    game.play("d")
    before = Painter(game, get_theme("classic"), GEOMETRY).compose(None, None, "Zoë")
    game.play("d")
    after = Painter(game, get_theme("classic"), GEOMETRY).compose(None, None, "Zoë")
    shared = [part for part in after if any(part == old for old in before)]
    assert shared and all(any(part is old for old in before) for part in shared)  # kept: one object each
    copies = [copy.copy(part) for part in before]  # equal, but not the parts drawn before
    painter = Painter(game, get_theme("classic"), GEOMETRY)
    rectangles = redraw.dirty(before, copies, painter.size)
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rectangles) > painter.size[0] * painter.size[1] / 2


def test_dirty_boxes_are_merged_into_a_few_rectangles() -> None:
    assert redraw.merged([(0, 0, 10, 10), (5, 5, 20, 20), (200, 200, 210, 210)]) == [
        (0, 0, 20, 20), (200, 200, 210, 210)]
    scattered = [(100 * i, 100 * j, 100 * i + 5, 100 * j + 5) for i in range(4) for j in range(4)]
    assert redraw.merged(scattered) == [(0, 0, 305, 305)]  # too many: their bounding box


def test_parts_in_another_order_redraw_the_whole_board() -> None:
    painter = Painter(sample_game("canfield", "mid"), get_theme("classic"), GEOMETRY)
    parts = painter.compose(Move("t1", "t2"), None, None)
    assert redraw.dirty(parts, [*parts[1:], parts[0]], painter.size) == [(0, 0, *painter.size)]


def test_the_least_recently_drawn_boards_are_let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redraw, "GAMES", 2)
    games = {key: new_game("canfield", deal=key) for key in (1, 2, 3)}
    for key in (1, 2, 1, 3):  # 2 is the least recently drawn when 3 comes
        check(games[key], key=key)
    assert len(redraw.kept()) == 2
    assert set(redraw.kept()) == {1, 3}
    games[2].play("d")
    check(games[2], key=2)  # drawn whole again, the same


def test_the_rows_kept_stay_within_their_bytes_and_boards_drawn_without_them_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = {key: new_game("canfield", deal=key) for key in (1, 2, 3)}
    for key, game in games.items():
        check(game, key=key)
        game.play("d")
        check(game, key=key)  # written into its bands: they are kept as rows
    one_board = redraw.rows_bytes() // 3
    assert one_board > 50_000  # a draw rewrites several bands of the stock and waste
    monkeypatch.setattr(redraw, "RAW_BYTES", one_board + 1)
    for key in (1, 2, 3, 1, 3, 2):
        games[key].play("d")
        check(games[key], key=key)  # from rows where kept, else from the bands inflated: the same
        assert redraw.rows_bytes() <= 2 * one_board + 20_000  # the budget, and the board just drawn
    assert set(redraw.kept()) == {1, 2, 3}  # the boards stay: only their rows go


def test_a_theme_change_draws_the_board_whole_and_the_same() -> None:
    game = sample_game("canfield", "mid")
    check(game, theme="classic")
    check(game, theme=sorted(set(THEMES) - {"classic"})[0])


def test_boards_drawn_again_in_threads_at_once_are_the_same() -> None:
    games = [new_game("canfield", deal=deal) for deal in range(20, 23)]
    boards = []  # each game's positions, in order
    for game in games:
        positions = []
        for _ in range(6):
            positions.append(copy.deepcopy(game))
            game.play(DRAW if game.can_move(DRAW) else game.legal_moves()[0])
        boards.append(positions)

    def draw_all(index: int) -> list[bytes]:  # each game's boards in order, two threads to a game
        return [render(position, key=index % 3) for position in boards[index % 3]]

    with ThreadPoolExecutor(max_workers=6) as pool:
        drawn = list(pool.map(draw_all, range(6)))
    for index, pngs in enumerate(drawn):
        for png, position in zip(pngs, boards[index % 3], strict=True):
            assert same_pixels(png, render(position))


def pid_drawing(game: Game, key: object = None) -> bytes:
    """The id of the process that draws (as workers.draw calls a drawing function)."""
    return str(os.getpid()).encode()


def test_a_games_boards_go_to_one_drawing_process_and_a_dead_one_is_replaced() -> None:
    async def scenario() -> None:
        workers.use_processes(2)
        try:
            game = new_game("canfield", deal=1)
            first = {key: await workers.draw(pid_drawing, game, key=key) for key in range(6)}
            for key in range(6):
                assert await workers.draw(pid_drawing, game, key=key) == first[key]
            assert len(set(first.values())) == 2  # the games are spread over both
            assert str(os.getpid()).encode() not in first.values()
            os.kill(int(first[0]), signal.SIGKILL)
            await asyncio.sleep(0.2)
            answer = await workers.draw(pid_drawing, game, key=0)  # answered all the same, in a thread
            assert answer == str(os.getpid()).encode()
            replaced = await workers.draw(pid_drawing, game, key=0)
            assert replaced not in (first[0], answer)  # by a new process
            assert await workers.draw(pid_drawing, game, key=1) == first[1]  # the other one lives on
            png = await workers.draw(render, game, key=0)
            assert same_pixels(png, render(game))
        finally:
            workers.stop()

    asyncio.run(scenario())
