"""Building explicit decks for rule tests: name the cards that matter, the rest fill the stock."""

from __future__ import annotations

from bot.game.cards import full_deck


def deck(base: str, reserve: list[str], columns: list[str], stock: list[str] | None = None) -> list[str]:
    """A `new_game(cards=...)` deck: `base` card (or the four base cards joined by spaces),
    the reserve bottom to top (the rest of the 13 are taken from the unused cards, at the
    bottom), t1..t4, then `stock` from the top down followed by every unused card."""
    named = base.split() + reserve + columns + (stock or [])
    assert len(set(named)) == len(named), "a card is named twice"
    unused = [str(card) for card in full_deck() if str(card) not in named]
    filler = unused[: 13 - len(reserve)]
    rest = unused[13 - len(reserve):]
    return base.split() + filler + reserve + columns + (stock or []) + rest
