"""`python -m bot` runs the bot; `python -m bot play [game]` plays a game in the terminal."""

from __future__ import annotations

import argparse
import sys

from bot.game import GAMES

NOT_BUILT = """Patient Exorcism: the Discord bot itself is not built yet (it is issue [3/8]).
What works today is the rules engine; play it in the terminal:
    .venv/bin/python -m bot play canfield
or `make play GAME=storehouse`. Games: """ + ", ".join(GAMES)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Read the command line."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", nargs="?", default="canfield", choices=sorted(GAMES))
    play.add_argument("--deal", type=int, help="PySolFC game number (default: random)")
    play.add_argument("--draw", type=int, help="cards turned by each draw (1-6)")
    play.add_argument("--redeals", help="number of redeals, or 'unlimited'")
    play.add_argument("--groups", choices=["top-or-whole", "any"])
    play.add_argument("--die", choices=["off", "game", "pass"], help="the Die of Justice")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command != "play":
        print(NOT_BUILT)
        return 0
    from bot.terminal import main as play_main

    options: dict[str, object] = {k: v for k in ("draw", "groups", "die") if (v := getattr(args, k)) is not None}
    if args.redeals is not None:
        options["redeals"] = None if args.redeals == "unlimited" else int(args.redeals)
    try:
        return play_main(args.game, args.deal, options)
    except ValueError as error:
        print(f"cannot start the game: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
