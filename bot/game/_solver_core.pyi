"""The solver's search in C (bot/game/_solver_core.c), as Python sees it: for type checkers."""

from collections.abc import Sequence

def solve(
    tables: tuple[object, object, Sequence[int], Sequence[int], Sequence[int], object],
    options: tuple[bool, bool, int, int, bool, object, bool],
    position: tuple[object, int, object, object, int, int],
    limit: int,
    seconds: float,
    /,
) -> tuple[int, bytes, int, int]:
    """Search a position: (status code, the winning line's steps as bytes, positions looked at,
    whether the rules' tables were capped). ValueError for a position out of range."""
