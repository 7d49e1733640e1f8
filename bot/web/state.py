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


def laid_out(name: str, piles: dict[str, list[str]]) -> dict[str, Any]:
    """A game's piles where its board lays them (render/layouts.py): each pile's name, place in
    card slots, fan, whether its label counts its cards, and its cards bottom to top."""
    layout = layout_for(GAMES[name])
    return {"columns": layout.columns,
            "piles": [{"name": spot.pile, "column": spot.column, "row": spot.row, "fan": FANS[spot.fan.name],
                       "counted": spot.counted, "cards": piles.get(spot.pile, []),
                       "count": len(piles.get(spot.pile, []))} for spot in layout.spots]}


def game_state(reply: Reply, voice: Voice) -> dict[str, Any]:
    """The page's view of the game in a reply."""
    game = reply.game
    over = reply.status != GameStatus.PLAYING
    return {
        "id": reply.game_id, "version": reply.version, "name": game.name, "title": game.title,
        "status": str(reply.status), "score": game.score, "label": deal_text(reply.label, voice),
        "line": board_status(game, reply.label, voice), "undo": reply.undo_allowed, "over": over,
        **laid_out(game.name, game.piles()),
        "moves": [] if over else sorted({str(move) for move in game.legal_moves()}),
        "hint": str(reply.highlight) if reply.highlight is not None else None,
    }


def mini_board(reply: Reply) -> dict[str, Any]:
    """A small view of another member's game in an Activity: its piles where they lie, face-down
    cards `??`. Only for a viewer the secrecy rule lets see its cards."""
    return laid_out(reply.game.name, reply.game.piles())


def replay_moves(record: dict[str, Any]) -> dict[str, Any]:
    """A game (its record: deal and moves) move by move: its piles at the deal, as its player saw
    them, laid out, and for each move the piles it changed and the score after it. Replays every
    move: run it off the event loop, once per game and moves (bot/web/server.py keeps it)."""
    game = from_record({**record, "moves": []})
    before = game.piles()
    start = before
    steps = []
    for text in record["moves"]:
        game.play(parse_move(text))
        now = game.piles()
        steps.append({"move": text, "score": game.score,
                      "piles": {name: cards for name, cards in now.items() if before.get(name) != cards}})
        before = now
    return {"name": game.name, "title": game.title, **laid_out(game.name, start), "steps": steps}


def replay_state(replay: Replay, moves: dict[str, Any], voice: Voice) -> dict[str, Any]:
    """A game to replay on the page (finished, or in play when watched): whose, how it stands,
    its deal's name in the voice's language, and its `replay_moves`."""
    return {"id": replay.game_id, "player": replay.player.name, "status": replay.status, "score": replay.score,
            "label": deal_text(replay.label, voice), **moves}
