"""What the table's page is sent of a game: its piles as the player sees them (face-down cards
`??`), where each lies on the table (the boards' layout, render/layouts.py), the legal moves; and
of a finished game to replay, its piles at the deal and what each move changed."""

from __future__ import annotations

from typing import Any

from bot.game import GAMES, from_record, parse_move
from bot.play.replies import GameStatus, Reply
from bot.play.review import Replay
from bot.words import Voice
from bot.words.boards import board_status
from bot.words.voice import deal_text
from render.layouts import layout_for

# How each fan of render.layouts.Fan is named to the page.
FANS = {"TOP": "top", "STACK": "stack", "DOWN": "down", "RIGHT3": "right3"}


def game_state(reply: Reply, voice: Voice) -> dict[str, Any]:
    """The page's view of the game in a reply."""
    game = reply.game
    layout = layout_for(GAMES[game.name])
    piles = game.piles()
    over = reply.status != GameStatus.PLAYING
    return {
        "id": reply.game_id, "version": reply.version, "name": game.name, "title": game.title,
        "status": str(reply.status), "score": game.score, "label": deal_text(reply.label, voice),
        "line": board_status(game, reply.label, voice), "undo": reply.undo_allowed, "over": over,
        "columns": layout.columns,
        "piles": [{"name": spot.pile, "column": spot.column, "row": spot.row, "fan": FANS[spot.fan.name],
                   "counted": spot.counted, "cards": piles.get(spot.pile, []), "count": len(piles.get(spot.pile, []))}
                  for spot in layout.spots],
        "moves": [] if over else sorted({str(move) for move in game.legal_moves()}),
        "hint": str(reply.highlight) if reply.highlight is not None else None,
    }

def mini_board(reply: Reply) -> dict[str, Any]:
    """A small view of another member's game in an Activity: its piles where they lie, face-down
    cards `??`. Only for a viewer the secrecy rule lets see its cards."""
    layout = layout_for(GAMES[reply.game.name])
    piles = reply.game.piles()
    return {"columns": layout.columns,
            "piles": [{"name": spot.pile, "column": spot.column, "row": spot.row, "fan": FANS[spot.fan.name],
                       "cards": piles.get(spot.pile, [])} for spot in layout.spots]}


def replay_state(replay: Replay, voice: Voice) -> dict[str, Any]:
    """A finished game to replay on the page: its piles at the deal (as its player saw them) and,
    move by move, the piles the move changed and the score after it. Replays every move: run it
    off the event loop."""
    record = replay.record
    game = from_record({**record, "moves": []})
    layout = layout_for(GAMES[game.name])
    before = game.piles()
    start = before
    steps = []
    for text in record["moves"]:
        game.play(parse_move(text))
        now = game.piles()
        steps.append({"move": text, "score": game.score,
                      "piles": {name: cards for name, cards in now.items() if before.get(name) != cards}})
        before = now
    return {
        "id": replay.game_id, "name": game.name, "title": game.title, "player": replay.player.name,
        "status": replay.status, "score": replay.score, "label": deal_text(replay.label, voice),
        "columns": layout.columns,
        "piles": [{"name": spot.pile, "column": spot.column, "row": spot.row, "fan": FANS[spot.fan.name],
                   "counted": spot.counted, "cards": start.get(spot.pile, [])} for spot in layout.spots],
        "steps": steps,
    }
