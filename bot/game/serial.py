"""A game as plain data: a record (name, options, deal or cards, moves) that is replayed, and a
compact snapshot that restores the position at once. Both are JSON, stable across Pythons."""

from __future__ import annotations

import json
from typing import Any

from bot.game.cards import Card
from bot.game.deals import check_deck
from bot.game.games import Game, new_game
from bot.game.moves import parse_move
from bot.game.phrases import Phrase, PhrasedError

SNAPSHOT_VERSION = 1


class SnapshotError(PhrasedError):
    """A record or snapshot that cannot be read back into a game."""


def to_record(game: Game) -> dict[str, Any]:
    """The game as its deal and its moves: a dict of plain values."""
    return {
        "game": game.name,
        "options": game.options,
        "deal": game.deal,
        "cards": None if game.deal is not None else [str(card) for card in game.cards],
        "moves": [str(move) for move in game.moves],
    }


def from_record(record: dict[str, Any]) -> Game:
    """Rebuild a game by replaying its moves; SnapshotError when the record is corrupt."""
    try:
        game = _new_from_header(record)
        for text in record["moves"]:
            game.play(parse_move(text))
    except (KeyError, TypeError, ValueError) as error:
        raise SnapshotError("cannot rebuild the game from its record: {problem}", problem=_problem(error)) from None
    return game


def to_snapshot(game: Game) -> str:
    """The game and its position as one compact JSON string."""
    record = to_record(game)
    record["cards"] = "".join(record["cards"]) if record["cards"] else None
    record["moves"] = " ".join(record["moves"])
    record["v"] = SNAPSHOT_VERSION
    record["piles"] = {name: "".join(cards) for name, cards in game.piles(reveal=True).items()}
    record["redeals_used"] = game.redeals_used
    record["die_roll"] = game.die_roll
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def from_snapshot(text: str) -> Game:
    """Restore a game from `to_snapshot` without replaying; undo still works (it replays
    when it first needs an earlier position). SnapshotError when the text is corrupt."""
    try:
        data = json.loads(text)
        if data.get("v") != SNAPSHOT_VERSION:
            raise ValueError(f"unknown snapshot version {data.get('v')!r}")
        if data["cards"] is not None:
            data["cards"] = _cards(data["cards"])
        game = _new_from_header(data)
        moves = [parse_move(move) for move in data["moves"].split()]
        strange = [str(move) for move in moves if {move.src, move.dst} - set(game.pile_order)]
        if strange:
            raise ValueError(f"moves {' '.join(strange[:3])} name piles that {game.name} does not have")
        piles = tuple(tuple(_cards(data["piles"][name])) for name in game.pile_order)
        check_deck([card for pile in piles for card in pile], len(game.cards) // 52)
        game.resume((piles, int(data["redeals_used"]), data["die_roll"]), moves)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise SnapshotError("cannot restore the game from its snapshot: {problem}", problem=_problem(error)) from None
    return game


def _problem(error: Exception) -> str | Phrase:
    """What went wrong in rebuilding a game: the engine's own phrase, or the error's text."""
    return error.phrase if isinstance(error, PhrasedError) else str(error)


def _new_from_header(data: dict[str, Any]) -> Game:
    return new_game(data["game"], deal=data["deal"], cards=data["cards"], **data["options"])


def _cards(text: str) -> list[Card]:
    if len(text) % 2:
        raise ValueError(f"{text!r} is not a list of two-character cards")
    return [Card.parse(text[i:i + 2]) for i in range(0, len(text), 2)]
