"""`python -m bot` runs the bot; `python -m bot play [game]` plays a game in the terminal."""

from __future__ import annotations

import argparse
import gc
import signal
import sys


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Read the command line."""
    from bot.game import GAMES
    from bot.languages import ENGLISH, LANGUAGE_CHOICES

    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("health", help="exit 0 when the running bot is healthy: its /healthz says so (WEB_PORT set), "
                                   "else it has touched its health file lately")
    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", nargs="?", choices=sorted(GAMES),
                      help="default: the unfinished game in --db, else canfield")
    play.add_argument("--deal", type=int, help="PySolFC game number (default: random)")
    play.add_argument("--draw", type=int, help="cards turned by each draw (1-6)")
    play.add_argument("--redeals", help="number of redeals, or 'unlimited'")
    play.add_argument("--groups", choices=["top-or-whole", "any"])
    play.add_argument("--die", choices=["off", "game", "pass"], help="the Die of Justice")
    play.add_argument("--db", default=":memory:", help="keep games in this SQLite file (default: in memory)")
    play.add_argument("--lang", choices=LANGUAGE_CHOICES, default=ENGLISH, help="the language to play in")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point. Ctrl-C stops every command without a traceback, status 130: while it starts
    (importing) too, and when it was started with Ctrl-C ignored, as a script's background jobs are
    (the bot and the terminal game then stop on Ctrl-C as they do in the foreground)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return _command(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # before the command took Ctrl-C over (the bot, the game: once started)
        print("\nStopped.", flush=True)
        return 130


def _command(argv: list[str]) -> int:
    """Run the command the command line asks for; its exit status."""
    args = parse_args(argv)
    if args.command == "health":
        return health()
    if args.command != "play":
        # Importing the bot makes some 200,000 objects that all live on: the garbage collector's
        # passes over them meanwhile took some 0.06 s of the 0.7 s it imports in. The bot tunes
        # the collector once it is set up (bot.app `tune_garbage_collection`).
        gc.disable()
        try:
            from bot.app import run
            from bot.config import ConfigError, load_config
        finally:
            gc.enable()

        try:
            config = load_config()
        except ConfigError as error:
            print(error, file=sys.stderr)
            return 2
        return run(config)
    from bot.play import PlayError
    from bot.terminal import main as play_main
    from bot.words import TERMINAL, error_text

    options: dict[str, object] = {k: v for k in ("draw", "groups", "die") if (v := getattr(args, k)) is not None}
    if args.redeals is not None:
        options["redeals"] = None if args.redeals == "unlimited" else int(args.redeals)
    voice = TERMINAL.speaking(args.lang)
    try:
        return play_main(args.game, args.deal, options, args.db, voice)
    except PlayError as error:
        print(f"cannot start the game: {error_text(error, voice)}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"cannot start the game: {error}", file=sys.stderr)
        return 2


def health() -> int:
    """0 when the running bot is healthy, else 1: with WEB_PORT set, its /healthz answers 200;
    without, it touched its health file within the last two minutes."""
    import time

    from bot.config import HEALTHY_WITHIN, ConfigError, health_file, health_url

    try:
        url = health_url()
    except ConfigError as error:
        print(f"unhealthy: {error}")
        return 1
    if url is not None:
        return probe(url)
    path = health_file()
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        print(f"unhealthy: no health file {path}")
        return 1
    if age > HEALTHY_WITHIN:
        print(f"unhealthy: {path} last touched {age:.0f} s ago")
        return 1
    print(f"healthy: {path} touched {age:.0f} s ago")
    return 0


def probe(url: str, timeout: float = 8.0) -> int:
    """0 when `url` (the bot's /healthz) answers 200 within `timeout` seconds, else 1; what it
    said, printed. Straight to the address, whatever proxy the environment names."""
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as response:
            print(f"healthy: {url} says {response.read().decode(errors='replace')}")
            return 0
    except urllib.error.HTTPError as error:
        print(f"unhealthy: {url} says {error.code} {error.read().decode(errors='replace')}")
    except OSError as error:  # refused, timed out
        print(f"unhealthy: no answer from {url}: {getattr(error, 'reason', error)}")
    return 1

if __name__ == "__main__":
    sys.exit(main())
