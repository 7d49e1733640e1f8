"""A finished game as an animated GIF that Discord plays inline: `replay_gif(record) -> bytes`.

Why GIF: Discord animates GIF attachments in every client. Animated WebP attachments animate
only in its clients since late 2024 (at first on desktop alone; older clients show one frame),
and APNG attachments are shown still on purpose (discord-api-docs issue 6359). Pillow also
writes a 300-frame GIF of these boards in about a second, where animated WebP took 5-9 s.

Each frame is `render_image` of one position of the game, replayed from its deal: the deal,
then the position after every move, each outlining its last move as the bot's boards do. The
frames share one canvas (the tallest board's size; shorter boards on felt below) and the
theme's palette of 255 colours (render.palette, as the bot's boards), so that Pillow writes
each frame as the part that changed, the rest transparent: a 300-move game is some 3 MB. A
draw's frame is short, the first frame and the last (which holds) long. A game of more than
MAX_FRAMES positions keeps only the last of each run of draws, then evenly spaced positions,
the deal and the end always among them.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.game import Game, from_record, parse_move
from render.board import board_size, render_image
from render.captions import BoardCaptions
from render.felt import felt
from render.palette import board_palette, quantize
from render.themes import get_theme

FIRST_MS = 1500  # the deal, before the first move
MOVE_MS = 450
DRAW_MS = 150  # a draw: only the waste changes
LAST_MS = 6000  # the end holds before the animation starts again
MAX_FRAMES = 400  # about 3 s of drawing, and some 4 MB
# Frames Pillow is given at once: it holds each (a canvas' worth of bytes, up to 2 MB) until it has
# written them all, so a replay is written in parts of this many frames, joined (`join_gifs`).
CHUNK = 50
GIF_TRAILER = b"\x3b"


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame to draw: the position after `moves` moves of the game, shown `milliseconds`."""

    moves: int
    milliseconds: int


def replay_frames(moves: list[str]) -> list[Frame]:
    """The frames of a replay of these moves (canonical, as stored): the deal, then one frame a
    move, at most MAX_FRAMES (see the module's docstring), the last one holding LAST_MS."""
    draws = [parse_move(text).is_draw for text in moves]
    shown = list(range(len(moves) + 1))
    if len(shown) > MAX_FRAMES:  # a run of draws shows as its last draw
        shown = [n for n in shown if n == 0 or n == len(moves) or not (draws[n - 1] and draws[n])]
    if len(shown) > MAX_FRAMES:
        step = (len(shown) - 1) / (MAX_FRAMES - 1)
        shown = [shown[round(i * step)] for i in range(MAX_FRAMES)]
    frames = [Frame(n, FIRST_MS if n == 0 else DRAW_MS if draws[n - 1] else MOVE_MS) for n in shown]
    frames[-1] = Frame(frames[-1].moves, LAST_MS)
    return frames


def replay_positions(record: dict[str, Any], frames: list[Frame]) -> Iterator[Game]:
    """The game at each frame's position, replayed from the deal of `record` (`to_record`'s
    fields: game, options, deal, cards, moves). One game is played on: each is the same object,
    to draw before the next is asked for."""
    game = from_record({**record, "moves": []})
    moves = record["moves"]
    played = 0
    for frame in frames:
        while played < frame.moves:
            game.play(parse_move(moves[played]))
            played += 1
        yield game


def replay_gif(record: dict[str, Any], *, theme: str = "classic", player: str | None = None,
               captions: Callable[[Game], BoardCaptions] | None = None) -> bytes:
    """The game of `record` (a finished game's deal and moves, as `to_record` gives them) as an
    animated GIF, looping, its frames as `replay_frames` says; `captions` words each position's
    board (a picklable function, such as a partial of bot.words `board_captions`; English by
    default). A module-level function of picklable arguments, to run in a drawing worker
    (render.workers.draw)."""

    def drawn(game: Game, in_play: bool) -> Image.Image:
        return render_image(game, theme=theme, player=player, in_play=in_play,
                            captions=captions(game) if captions is not None else None)

    frames = replay_frames(record["moves"])
    last = len(frames) - 1
    size = _canvas(record, frames)
    first = drawn(from_record({**record, "moves": []}), last > 0)
    final = drawn(from_record(record), False)
    palette = board_palette(get_theme(theme))
    cloth = quantize(felt(get_theme(theme), size), palette)

    def frame(board: Image.Image) -> Image.Image:
        """The board in the palette's colours, on a canvas of `size` (felt below a shorter board)."""
        picture = quantize(board, palette)
        if picture.size == size:
            return picture
        canvas = cloth.copy()
        canvas.paste(picture, (0, 0))
        return canvas

    images = (frame(first if index == 0 else final if index == last
                    else drawn(game, True))
              for index, game in enumerate(replay_positions(record, frames)))
    durations = [f.milliseconds for f in frames]
    parts = []
    for start in range(0, len(frames), CHUNK):
        count = min(CHUNK, len(frames) - start)
        output = io.BytesIO()
        next(images).save(output, "GIF", save_all=True, append_images=itertools.islice(images, count - 1),
                          duration=durations[start:start + count], optimize=True, **({"loop": 0} if start == 0 else {}))
        parts.append(output.getvalue())
    return join_gifs(parts)


def join_gifs(parts: list[bytes]) -> bytes:
    """One GIF of the frames of several, in order: the first's header (size, palette, loop), then
    every part's frames. The parts must share the header's size and palette (ValueError if not)."""
    first = parts[0]
    header = _header_length(first)
    joined = [first[:-1]]  # all but the trailer
    for part in parts[1:]:
        if part[:header] != first[:header] or part[-1:] != GIF_TRAILER:
            raise ValueError("the GIFs to join do not share their size and palette")
        joined.append(part[_frames_start(part):-1])
    return b"".join([*joined, GIF_TRAILER])


def _header_length(gif: bytes) -> int:
    """The length of a GIF's signature, screen descriptor and global palette."""
    flags = gif[10]
    return 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)


def _frames_start(gif: bytes) -> int:
    """Where a GIF's first frame begins: after its header and any application or comment
    extension (the loop's), at its first graphic control extension or image."""
    at = _header_length(gif)
    while gif[at] == 0x21 and gif[at + 1] in (0xFF, 0xFE):
        at += 2
        while gif[at]:  # data sub-blocks, each its length then its bytes, up to an empty one
            at += gif[at] + 1
        at += 1
    return at


def _canvas(record: dict[str, Any], frames: list[Frame]) -> tuple[int, int]:
    """The size every frame shares: the widest and tallest board among the frames'."""
    last = len(frames) - 1  # only the last frame is drawn with its outcome's banner
    sizes = [board_size(game, in_play=index != last) for index, game in enumerate(replay_positions(record, frames))]
    return max(width for width, _ in sizes), max(height for _, height in sizes)
