"""The rules engine: pure Python, no Discord, no images, no storage.

    from bot.game import new_game
    game = new_game("canfield", deal=12345)
    game.legal_moves(); game.play("rt2"); game.undo(); game.outcome; game.score
"""

from bot.game.canfield import CanfieldGame
from bot.game.cards import Card, Colour, Suit
from bot.game.deals import DealError
from bot.game.errors import IllegalMoveError, NotationError
from bot.game.games import (
    GAMES,
    TITLES,
    Game,
    GameKind,
    dealt_cards,
    describe_game,
    game_kind,
    game_rules,
    new_game,
    option_names,
)
from bot.game.moves import DRAW, Move, parse_move
from bot.game.patience import Hint, Outcome
from bot.game.patriarchs import PatriarchsGame
from bot.game.phrases import Phrase, PhrasedError, Sentences
from bot.game.rules import UnknownGameError
from bot.game.serial import SnapshotError, from_record, from_snapshot, to_record, to_snapshot

__all__ = [
    "DRAW", "GAMES", "TITLES", "CanfieldGame", "Card", "Colour", "DealError", "Game", "GameKind", "Hint",
    "IllegalMoveError", "Move", "NotationError", "Outcome", "PatriarchsGame", "Phrase", "PhrasedError", "Sentences",
    "SnapshotError", "Suit", "UnknownGameError", "dealt_cards", "describe_game", "from_record", "from_snapshot",
    "game_kind", "game_rules", "new_game", "option_names", "parse_move", "to_record", "to_snapshot",
]
