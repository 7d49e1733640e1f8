"""A plain-text picture of a game, for tests, logs and the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.game.cards import rank_name
from bot.game.patience import Outcome
from bot.game.phrases import ENGLISH, Phrase, Sentences, Translator

if TYPE_CHECKING:
    from bot.game.canfield import CanfieldGame
    from bot.game.patience import Game

OUTCOME_WORDS = {Outcome.WON: Phrase("WON"), Outcome.BLOCKED: Phrase("BLOCKED")}


def header(game: Game, *, draw: bool = True) -> Sentences:
    """One line: game, deal, base rank (when the game has one), pass and redeals, draw count or
    die (unless `draw` is False), score, and how it ended; its parts joined by " · "."""
    deal = Phrase("deal {deal}", deal=game.deal) if game.deal is not None else Phrase("custom deal")
    left = game.redeals_left
    redeals = (Phrase("unlimited redeals") if left is None
               else Phrase.counted("{count} redeal left", "{count} redeals left", left))
    parts = [Phrase.marked(game.title), deal]
    if game.base_rank is not None:
        parts.append(Phrase("base {rank}", rank=rank_name(game.base_rank)))
    parts.append(Phrase("pass {number}, {redeals}", number=game.pass_number, redeals=redeals))
    if draw:
        parts.append(Phrase("die {roll}: draw {count}", roll=game.die_roll, count=game.draw_count)
                     if game.die_roll is not None else Phrase("draw {count}", count=game.draw_count))
    parts.append(Phrase("score {score}", score=game.score))
    outcome = game.outcome
    if outcome is not None:
        parts.append(OUTCOME_WORDS[outcome])
    return Sentences(tuple(parts), separator=" · ")


def picture(game: CanfieldGame, translator: Translator = ENGLISH) -> str:
    """The whole board, every pile labelled with its notation name, cards bottom to top; the
    header said through `translator`."""
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
        header(game).render(translator),
        f"s  [{len(piles['s'])}]   w  {waste_text} ({len(waste)})",
        f"{foundations}",
        f"r  {reserve_text}",
    ]
    lines += [f"{name} {' '.join(cards) if cards else '--'}" for name, cards in piles.items() if name.startswith("t")]
    return "\n".join(lines)
