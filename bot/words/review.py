"""What a player reads when looking back on a finished game: where it was lost, a short winning
line, a replay, and the refusals of all three (bulk drawing's, a replay's, among them)."""

from __future__ import annotations

from bot.game import TITLES
from bot.game.analysis import Verdict as AnalysisVerdict
from bot.play.errors import (
    AlreadyDrawing,
    LineFull,
    NoFinishedDaily,
    NoFinishedGame,
    NoPages,
    NoSolver,
    PlayError,
    StillPlaying,
    TookTooLong,
    TooLargeToSend,
)
from bot.play.events import Analysing, Event
from bot.play.review import Analysed, Replay
from bot.play.solution import NoWinningLine, WinningLine
from bot.words.secrecy import kept_private_text
from bot.words.voice import Voice, deal_text, draws_text, size_text, status_text

SOLUTION_PAGE_MOVES = 20  # the moves (besides draws) a page of a winning line shows


def review_event_text(event: Event, voice: Voice) -> str:
    """What an answer says when a lost game's analysis has begun ("" for another event)."""
    return voice.gettext("Looking for where it was lost…") if isinstance(event, Analysing) else ""


def review_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads when a finished game cannot be looked back on, or a replay cannot be
    drawn ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case NoFinishedGame():
            return _("You have no finished game to look back on yet: play one with {play}.",
                     play=voice.command("play"))
        case StillPlaying(game_id=game_id):
            return _("Game {game} is still in play: you can look back on it once it has ended.", game=game_id)
        case NoPages(game_id=game_id):
            return _("Game {game}'s deal has no winning line to turn the pages of.", game=game_id)
        case NoSolver(name=name):
            return _("No solver for {title}: it knows the one-deck Canfield games.", title=TITLES.get(name, name))
        case NoFinishedDaily():
            return _("That player has no finished daily yet.")
        case LineFull():
            return _("Too many replays are being drawn right now: please try again in a minute.")
        case AlreadyDrawing():
            return _("Your other replay is still being drawn: one at a time, please.")
        case TookTooLong():
            return _("That replay took too long to draw and was given up: please try again later.")
        case TooLargeToSend(limit=limit):
            return _("Even the smallest replay of this game is over the upload limit here ({size}).",
                     size=size_text(limit))
    return ""


def analysis_text(analysed: Analysed, voice: Voice) -> str:
    """Where a game was lost, in a sentence or two: "After move 37 (wt2) the deal could no
    longer be won; t3t1 instead still wins"."""
    analysis, _ = analysed.analysis, voice.gettext
    head = _("Game {game}, {moves} moves:", game=analysed.game_id, moves=analysed.moves) + " "
    match analysis.verdict:
        case AnalysisVerdict.WON:
            return head + _("you won it, so nothing was lost.")
        case AnalysisVerdict.NEVER:
            return head + _("even with every card known, this deal could never have been won: no move of yours "
                            "lost it.")
        case AnalysisVerdict.UNKNOWN:
            return head + _("the solver gave up before it could tell where this game was lost.")
    after, better = analysis.lost_after, voice.bold(analysis.better_move)
    if analysis.losing_move is None and not after:
        return head + _("you resigned at the deal, though it could be won: {better} starts a winning line.",
                        better=better)
    if analysis.losing_move is None:
        return head + _("when you resigned after move {after}, the deal could still be won: {better} still wins.",
                        after=after, better=better)
    losing = voice.bold(analysis.losing_move)
    return head + _("after move {after} ({losing}) the deal could no longer be won; {better} instead still wins.",
                    after=after, losing=losing, better=better)


def solution_pages(line: WinningLine) -> int:
    """How many pages of SOLUTION_PAGE_MOVES moves a winning line takes."""
    return max(1, -(-len(line.moves) // SOLUTION_PAGE_MOVES))


def solution_text(line: WinningLine | NoWinningLine, voice: Voice, page: int | None = None) -> str:
    """A short winning line in words: its heading, then its moves one a line, numbered, with
    the draws before each; only page `page` (from 0) of them when given, with where it is."""
    _ = voice.gettext
    title = TITLES.get(line.name, line.name)
    if isinstance(line, NoWinningLine):
        if line.gave_up:
            return _("Game {game} ({title}): the solver gave up before it found a win for this deal.",
                     game=line.game_id, title=title)
        return _("Game {game} ({title}): even with every card known, this deal cannot be won.",
                 game=line.game_id, title=title)
    first, last = 0, len(line.moves)
    if page is not None:
        first = min(max(page, 0), solution_pages(line) - 1) * SOLUTION_PAGE_MOVES
        last = min(last, first + SOLUTION_PAGE_MOVES)
    head = _("Game {game} ({title}): a winning line from the deal's start, {moves} moves besides {draws} draws "
             "({help} explains the notation).", game=line.game_id, title=title, moves=len(line.moves),
             draws=line.draws, help=voice.command("help"))
    rows = [f"{number:>3}. {_drawn_first(step.draws)}{step.move} ({step.card})"
            for number, step in enumerate(line.moves[first:last], start=first + 1)]
    foot = [] if page is None else [_("Page {page} of {pages}", page=first // SOLUTION_PAGE_MOVES + 1,
                                      pages=solution_pages(line))]
    return "\n".join([head, *rows, *foot])


def _drawn_first(draws: int) -> str:
    """The draws before a move, such as "draw ×3, " ("" for none)."""
    return f"{draws_text(draws)}, " if draws else ""


def replay_text(replay: Replay, voice: Voice) -> str:
    """What a replay's message says: whose game, which, and how it ended."""
    moves = voice.ngettext("{count} move", "{count} moves", replay.moves)
    details = {"player": voice.bold(voice.name(replay.player.name)), "title": TITLES.get(replay.name, replay.name),
               "game": replay.game_id, "moves": moves, "status": status_text(replay.status, voice),
               "score": replay.score}
    label = replay.label
    if label.day is not None or label.match_id is not None:
        text = voice.gettext("Replay of {player}'s {title}, {deal} (game {game}): {moves}, {status}, score {score}.",
                             deal=deal_text(label, voice), **details)
    elif label.number is None:
        text = voice.gettext("Replay of {player}'s {title} (game {game}): {moves}, {status}, score {score}.",
                             **details)
    else:
        text = voice.gettext("Replay of {player}'s {title} #{deal} (game {game}): {moves}, {status}, score {score}.",
                             deal=label.number, **details)
    return text if replay.live is None else f"{text}\n{kept_private_text(replay.live, voice)}"
