"""A plain-text picture of a game, for tests, logs and the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.game.cards import rank_name

if TYPE_CHECKING:
    from bot.game.canfield import CanfieldGame


def header(game: CanfieldGame) -> str:
    """One line: game, deal, base rank, pass and redeals, draw count or die, score."""
    deal = f"deal {game.deal}" if game.deal is not None else "custom deal"
    left = game.redeals_left
    redeals = "unlimited redeals" if left is None else f"{left} redeal{'s' if left != 1 else ''} left"
    draw = f"die {game.die_roll}: draw {game.draw_count}" if game.die_roll is not None else f"draw {game.draw_count}"
    parts = [game.title, deal, f"base {rank_name(game.base_rank)}", f"pass {game.pass_number}, {redeals}",
             draw, f"score {game.score}"]
    outcome = game.outcome
    if outcome is not None:
        parts.append(outcome.value.upper())
    return " · ".join(parts)


def picture(game: CanfieldGame) -> str:
    """The whole board, every pile labelled with its notation name, cards bottom to top."""
    piles = game.piles()
    waste = piles["w"]
    waste_text = " ".join(waste[-3:]) if waste else "--"
    if len(waste) > 3:
        waste_text = "… " + waste_text
    reserve = piles["r"]
    shown = reserve if game.rules.reserve_face_up else reserve[-1:]
    reserve_text = f"{' '.join(shown)} ({len(reserve)})" if reserve else "--"
    foundations = "  ".join(
        f"{name} {cards[-1] if cards else '--'}" for name, cards in piles.items() if name.startswith("f")
    )
    lines = [
        header(game),
        f"s  [{len(piles['s'])}]   w  {waste_text} ({len(waste)})",
        f"{foundations}",
        f"r  {reserve_text}",
    ]
    lines += [f"{name} {' '.join(cards) if cards else '--'}" for name, cards in piles.items() if name.startswith("t")]
    return "\n".join(lines)
