"""When a game is over. The one place that decides "blocked", so that a solver can replace it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.game.moves import DRAW, Move

if TYPE_CHECKING:
    from bot.game.canfield import CanfieldGame

_MAX_PROBE_DRAWS = 5000


def is_blocked(game: CanfieldGame) -> bool:
    """True when no legal move remains but cycling the stock, and no card that cycling can
    bring to the top of the waste can be played anywhere.

    This is the simple check of issue 1; it does not look further ahead (a tableau shuffle
    that leads nowhere still counts as a move). It cycles the stock on the game itself and
    takes every draw back, so the game is left exactly as it was.
    """
    moves = game.legal_moves()
    if any(not move.is_draw for move in moves):
        return False
    if DRAW not in moves:
        return True
    targets = [f"f{i}" for i in range(1, 5)] + [f"t{i}" for i in range(1, 5)]
    seen: set[tuple[int, int, int | None, int | None]] = set()
    draws = 0
    try:
        while game.can_move(DRAW) and draws < _MAX_PROBE_DRAWS:
            game.play(DRAW)
            draws += 1
            if any(game.can_move(Move("w", target)) for target in targets):
                return False
            limited_pass = game.redeals_used if game.redeals_left is not None else None
            key = (len(game.stock), len(game.waste), limited_pass, game.die_roll)
            if key in seen:
                break
            seen.add(key)
        return True
    finally:
        for _ in range(draws):
            game.undo()
