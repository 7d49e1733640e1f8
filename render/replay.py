"""A finished game as an animated GIF that Discord plays inline: `replay_gif(record) -> bytes`.

Why GIF: Discord animates GIF attachments in every client. Animated WebP attachments animate
only in its clients since late 2024 (at first on desktop alone; older clients show one frame),
and APNG attachments are shown still on purpose (discord-api-docs issue 6359). Pillow also
writes a 300-frame GIF of these boards in about a second, where animated WebP took 5-9 s.

Each frame is `render_image` of one position of the game, replayed from its deal: the deal,
then the position after every move, each outlining its last move as the bot's boards do; only
what changed from the frame before is drawn again (render.redraw `dirty`: the same pixels). The
frames share one canvas (the tallest board's size; shorter boards on felt below) and the
theme's palette of 255 colours (render.palette, as the bot's boards), so that Pillow writes
each frame as the part that changed, the rest transparent: a 100-frame replay of a long game is
some 2 MB, made in about a second. A draw's frame is short, the first frame and the last (which
holds) long. A game of more than MAX_FRAMES positions keeps only the last of each run of draws,
then evenly spaced positions, the deal and the end always among them: the frames shown, not the
moves played; the moves of a long game go faster (PLAY_MS in all).

A replay is at most MAX_BYTES, and with an upload limit (Discord's, which the interaction states)
at most UPLOAD_SHARE of it: room for the message's other parts. The frames are written in parts,
and once the first ones show where the size is heading, a GIF that would not fit is given up at
once and made again by the next of STEPS that may fit: fewer frames, then a smaller frame. A game
even the smallest step cannot fit is its last position alone, still; ReplayTooLarge when not
even that fits.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.game import Game, from_record, parse_move
from render.board import GEOMETRY, Painter, board_size
from render.captions import BoardCaptions
from render.felt import felt
from render.palette import board_palette, quantize
from render.redraw import dirty
from render.themes import get_theme

FIRST_MS = 1500  # the deal, before the first move
MOVE_MS = 450
DRAW_MS = 150  # a draw: only the waste changes
LAST_MS = 6000  # the end holds before the animation starts again
PLAY_MS = 60_000  # the frames between the deal and the end last about this long at most: a long game goes faster
FASTEST_MS = 100  # but no frame is shorter (browsers slow shorter GIF delays down to 100 ms)
MAX_FRAMES = 100  # at most some 1.2 s of drawing and 2 MiB for the costliest game of two decks (benchmarks/replay.py)
MAX_BYTES = 4 * 1024 * 1024  # a replay's size at most, whatever the upload limit
UPLOAD_SHARE = 0.8  # of the upload limit, at most: room for the message's other parts, and for error
# What to try, in order, until the GIF fits: (the frame's scale, the most frames). Fewer frames
# first: a board made smaller shows its cards' corners blurred (each 2 x 2 pixels averaged), and
# saves less than its area (a 50-frame replay of two decks: 0.64 MB whole, 0.47 MB at half the
# size; smoother resampling saves nothing at all, its blends compressing worse).
STEPS = ((1.0, MAX_FRAMES), (1.0, 75), (1.0, 50), (0.5, 60), (0.5, 30))
# Frames Pillow is given at once: it holds each (a canvas' worth of bytes, up to 2 MB) until it has
# written them all, so a replay is written in parts of this many frames, joined (`join_gifs`).
CHUNK = 50
PROBE = 25  # the frames of the first part, after which the size it is heading for is first checked
LEEWAY = 0.25  # how far over its budget a GIF may be heading at its start and go on (none at its end)
GIF_TRAILER = b"\x3b"


class ReplayTooLarge(ValueError):
    """Not even the game's last position, still and at the smallest scale, fits `upload_limit`
    bytes with room (`smallest`: how many bytes it took)."""

    def __init__(self, upload_limit: int, smallest: int) -> None:
        super().__init__(upload_limit, smallest)
        self.upload_limit = upload_limit
        self.smallest = smallest


class _WouldNotFit(Exception):
    """A GIF being written is heading for `projected` bytes, over its budget: given up."""

    def __init__(self, projected: float) -> None:
        super().__init__(projected)
        self.projected = projected


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame to draw: the position after `moves` moves of the game, shown `milliseconds`."""

    moves: int
    milliseconds: int


def replay_frames(moves: list[str], most: int = MAX_FRAMES) -> list[Frame]:
    """The frames of a replay of these moves (canonical, as stored): the deal, then one frame a
    move, at most `most` (see the module's docstring), the last one holding LAST_MS."""
    draws = [parse_move(text).is_draw for text in moves]
    shown = list(range(len(moves) + 1))
    if len(shown) > most:  # a run of draws shows as its last draw
        shown = [n for n in shown if n == 0 or n == len(moves) or not (draws[n - 1] and draws[n])]
    if len(shown) > most:
        step = (len(shown) - 1) / (most - 1)
        shown = [shown[round(i * step)] for i in range(most)]
    times = [DRAW_MS if draws[n - 1] else MOVE_MS for n in shown[1:-1]]
    if sum(times) > PLAY_MS:  # a long game goes faster, in steps of GIF's 10 ms
        factor = PLAY_MS / sum(times)
        times = [max(FASTEST_MS, int(round(ms * factor, -1))) for ms in times]
    if len(shown) == 1:
        return [Frame(0, LAST_MS)]
    return [Frame(0, FIRST_MS), *(Frame(n, ms) for n, ms in zip(shown[1:-1], times, strict=True)),
            Frame(shown[-1], LAST_MS)]


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
               captions: Callable[[Game], BoardCaptions] | None = None, upload_limit: int | None = None) -> bytes:
    """The game of `record` (a finished game's deal and moves, as `to_record` gives them) as an
    animated GIF, looping, its frames as `replay_frames` says; `captions` words each position's
    board (a picklable function, such as a partial of bot.words `board_captions`; English by
    default). At most MAX_BYTES, and with `upload_limit` (bytes) at most UPLOAD_SHARE of it, made
    smaller as the module's docstring says: ReplayTooLarge when nothing fits. A module-level function of
    picklable arguments, to run in another process."""
    moves = record["moves"]
    budget = MAX_BYTES if upload_limit is None else min(MAX_BYTES, int(upload_limit * UPLOAD_SHARE))
    tried: list[tuple[float, int, float]] = []  # the steps given up: scale, frames, bytes they were heading for
    for scale, most in STEPS:
        frames = replay_frames(moves, most)
        if any(_heading_for(given_up, scale, len(frames)) > budget for given_up in tried):
            continue
        try:
            return _gif(record, frames, scale, budget, theme=theme, player=player, captions=captions)
        except _WouldNotFit as over:
            tried.append((scale, len(frames), over.projected))
    still = b""
    for scale in sorted({STEPS[0][0], STEPS[-1][0]}, reverse=True):  # the end alone, still
        still = _gif(record, [Frame(len(moves), LAST_MS)], scale, None, theme=theme, player=player, captions=captions)
        if len(still) <= budget:
            return still
    raise ReplayTooLarge(MAX_BYTES if upload_limit is None else upload_limit, len(still))


def _heading_for(given_up: tuple[float, int, float], scale: float, frames: int) -> float:
    """What a GIF of `frames` frames at `scale` may come to, from one given up: in proportion to
    the frame's area and to the number of frames: a guess (fewer frames change more each, but a
    projection given up early runs large): a step it rules out would most likely be given up too."""
    old_scale, old_frames, projected = given_up
    if scale >= old_scale and frames >= old_frames:
        return projected
    return projected * (scale / old_scale) ** 2 * frames / old_frames


def _gif(record: dict[str, Any], frames: list[Frame], scale: float, budget: int | None, *, theme: str,
         player: str | None, captions: Callable[[Game], BoardCaptions] | None) -> bytes:
    """The GIF of these frames at `scale`; _WouldNotFit as soon as it is heading over `budget` bytes."""

    last = len(frames) - 1
    full = _canvas(record, frames)
    size = _scaled(full, scale)
    final = from_record(record)
    palette = board_palette(get_theme(theme))
    cloth = quantize(felt(get_theme(theme), size), palette)
    # Every part keeps the theme's palette whole: given none, Pillow would trim a small frame's
    # palette to the colours it uses, and the parts' palettes would differ.
    colours = palette.getpalette()
    before: tuple[Painter, Image.Image] | None = None  # the last board drawn, and its frame

    def frame(game: Game, in_play: bool) -> Image.Image:
        """The board in the palette's colours, on a canvas of `size` (felt below a shorter board):
        whole-size, only what changed from the board before is drawn again (as render.redraw)."""
        nonlocal before
        painter = Painter(game, get_theme(theme), GEOMETRY, captions(game) if captions is not None else None,
                          in_play=in_play)
        painter.compose(None, None, player)
        if scale == 1 and before is not None and before[0].frame() == painter.frame() \
                and before[0].size == painter.size:
            canvas = before[1].copy()
            for box in dirty(before[0].parts, painter.parts, painter.size):
                canvas.paste(quantize(painter.picture(box), palette), box[:2])
        else:
            board = painter.picture()
            if scale != 1:  # each square of 1/scale pixels averaged
                factor = round(1 / scale)
                board = board.reduce(factor) if factor == 1 / scale else board.resize(_scaled(board.size, scale),
                                                                                       Image.Resampling.BOX)
            canvas = cloth.copy()
            canvas.paste(quantize(board, palette), (0, 0))
        before = (painter, canvas)
        return canvas

    images = (frame(final, False) if index == last else frame(game, last > 0)
              for index, game in enumerate(replay_positions(record, frames)))
    timed = distinct(zip(images, (f.milliseconds for f in frames), strict=True))
    parts: list[bytes] = []
    written = done = first_bytes = 0
    previous: Image.Image | None = None  # the last frame written: each later part starts from it
    while batch := list(itertools.islice(timed, CHUNK if parts else PROBE)):
        output = io.BytesIO()
        pictures = [picture for picture, _, _ in batch]
        durations = [ms for _, ms, _ in batch]
        if previous is None:
            pictures[0].save(output, "GIF", save_all=True, append_images=pictures[1:], duration=durations,
                             optimize=True, palette=colours, loop=0)
            part = output.getvalue()
            first_bytes = _frame_end(part, _frames_start(part)) - _frames_start(part)
        else:  # drawn as the change from the part before's last frame, which is then left out
            previous.save(output, "GIF", save_all=True, append_images=pictures, duration=[10, *durations],
                          optimize=True, palette=colours)
            part = output.getvalue()
            part = part[:_frames_start(part)] + part[_frame_end(part, _frames_start(part)):]
        parts.append(part)
        previous = pictures[-1]
        done = batch[-1][2] + 1
        written += len(part) - (_frames_start(part) + 1 if len(parts) > 1 else 0)
        if budget is not None:
            # Heading for: what is written, and the rest at the rate so far (the first frame is whole,
            # the others only what changed). Early on a game's frames may change more than later:
            # a projection a little over is given the benefit of the doubt until the end.
            left = (len(frames) - done) / len(frames)
            projected = written + (written - first_bytes) / max(1, done - 1) * (len(frames) - done)
            if projected > budget * (1 + LEEWAY * left):
                raise _WouldNotFit(projected)
    if budget is not None and written > budget:
        raise _WouldNotFit(written)
    return join_gifs(parts)


def distinct(timed: Iterator[tuple[Image.Image, int]]) -> Iterator[tuple[Image.Image, int, int]]:
    """The frames with their durations and indexes, a frame the same as the one before it left out
    and its time added to that one's (as Pillow would merge them: here, before the parts are cut)."""
    held: tuple[Image.Image, int, int] | None = None
    held_bytes = b""
    for index, (picture, ms) in enumerate(timed):
        data = picture.tobytes()
        if held is not None and data == held_bytes:
            held = (held[0], held[1] + ms, index)
            continue
        if held is not None:
            yield held
        held, held_bytes = (picture, ms, index), data
    if held is not None:
        yield held


def _scaled(size: tuple[int, int], scale: float) -> tuple[int, int]:
    """A size times `scale`, rounded up (as `Image.reduce` does)."""
    return math.ceil(size[0] * scale), math.ceil(size[1] * scale)


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
        at = _sub_blocks_end(gif, at + 2)
    return at


def _frame_end(gif: bytes, at: int) -> int:
    """Where the frame that begins at `at` ends: after its extensions (its graphic control), its
    image descriptor, any local palette, and its image data."""
    while gif[at] == 0x21:  # an extension: its label, then data sub-blocks up to an empty one
        at = _sub_blocks_end(gif, at + 2)
    if gif[at] != 0x2C:
        raise ValueError("no image where a GIF frame should be")
    flags = gif[at + 9]
    at += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    return _sub_blocks_end(gif, at + 1)  # after the LZW code size


def _sub_blocks_end(gif: bytes, at: int) -> int:
    """Where GIF data sub-blocks starting at `at` end: each its length then its bytes, up to an empty one."""
    while gif[at]:
        at += gif[at] + 1
    return at + 1


def _canvas(record: dict[str, Any], frames: list[Frame]) -> tuple[int, int]:
    """The size every frame shares: the widest and tallest board among the frames'."""
    last = len(frames) - 1  # only the last frame is drawn with its outcome's banner
    sizes = [board_size(game, in_play=index != last) for index, game in enumerate(replay_positions(record, frames))]
    return max(width for width, _ in sizes), max(height for _, height in sizes)
