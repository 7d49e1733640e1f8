"""The rules engine: pure Python, no Discord, no images, no storage.

    from bot.game import new_game
    game = new_game("canfield", deal=12345)
    game.legal_moves(); game.play("rt2"); game.undo(); game.outcome; game.score
"""

from bot.game.canfield import CanfieldGame, Outcome, dealt_cards, new_game
from bot.game.cards import Card, Colour, Suit
from bot.game.deals import DealError
from bot.game.errors import IllegalMoveError, NotationError
from bot.game.moves import DRAW, Move, parse_move
from bot.game.rules import GAMES, TITLES, UnknownGameError
from bot.game.serial import SnapshotError, from_record, from_snapshot, to_record, to_snapshot

Game = CanfieldGame

__all__ = [
    "DRAW", "GAMES", "TITLES", "CanfieldGame", "Card", "Colour", "DealError", "Game", "IllegalMoveError",
    "Move", "NotationError", "Outcome", "SnapshotError", "Suit", "UnknownGameError", "dealt_cards",
    "from_record", "from_snapshot", "new_game", "parse_move", "to_record", "to_snapshot",
]
