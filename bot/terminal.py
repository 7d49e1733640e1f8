"""Play a game in the terminal: `python -m bot play [game]`. A thin front end on the engine."""

from __future__ import annotations

import sys
from typing import TextIO

from bot.game import IllegalMoveError, NotationError, new_game
from bot.game.canfield import CanfieldGame
from bot.game.notation import EXAMPLES

HELP = f"""Type moves and press Enter; {EXAMPLES}.
Piles: s stock, w waste, r reserve, f1-f4 foundations, t1-t4 columns. h hint, q quit, ? this help."""


def play_in_terminal(game: CanfieldGame, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Read moves from `stdin` until the game ends, the input ends or the player types `q`;
    return the final score."""
    print(HELP, file=stdout)
    print(f"\n{game}", file=stdout)
    while game.outcome is None:
        print("> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line or line.strip().lower() in ("q", "quit", "exit"):
            break
        text = line.strip()
        if not text:
            continue
        if text == "?":
            print(HELP, file=stdout)
            continue
        if text.lower() == "h":
            hint = game.hint()
            print(f"hint: {hint}" if hint else "hint: nothing to do", file=stdout)
            continue
        try:
            played = game.play(text)
        except IllegalMoveError as error:
            if error.played:
                print(f"played {' '.join(map(str, error.played))}", file=stdout)
            print(error, file=stdout)
            if not error.played:
                continue
        except NotationError as error:
            print(error, file=stdout)
            continue
        else:
            if played:
                print(f"played {' '.join(map(str, played))}", file=stdout)
        print(f"\n{game}", file=stdout)
    outcome = game.outcome
    verdict = {None: "stopped", "won": "The demon is exorcised! You won", "blocked": "blocked: no move can help"}
    print(f"{verdict[outcome.value if outcome else None]}. Score {game.score}.", file=stdout)
    return game.score


def main(name: str, deal: int | None, options: dict[str, object]) -> int:
    """Start a game from the command line and play it."""
    game = new_game(name, deal=deal, **options)
    play_in_terminal(game)
    return 0
