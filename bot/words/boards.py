"""A board's words besides the answer: its status line, the words drawn on its image, the board as
text (the terminal's), and its alt text (the image in words, for screen readers)."""

from __future__ import annotations

from collections.abc import Callable

from bot.game import Phrase
from bot.game.patience import Game
from bot.game.race import RaceGame
from bot.i18n import translations
from bot.play.replies import DealLabel
from bot.words.voice import Voice, card_words, deal_text
from render.captions import BoardCaptions, RaceCaptions, shorten
from render.captions import board_captions as worded_board
from render.captions import race_captions as worded_race

ALT_TEXT_LIMIT = 1024  # characters of Discord's attachment description
COLUMN_CAPS = (None, 6, 3, 1)  # the face-up cards named a column, tried in turn until the text fits


# --- a board message's status line -------------------------------------------------------------

def board_status(game: Game, label: DealLabel, voice: Voice) -> str:
    """A solo board's status line: the game, its deal (named by `label`), score, stock and redeals."""
    return voice.bold(game.title) + " · " + voice.gettext(
        "{deal} · score {score} · stock {stock} · {redeals}", deal=deal_text(label, voice), score=game.score,
        stock=len(game.stock), redeals=_redeals_words(game.redeals_left, voice))


def race_status(race_id: int, game: RaceGame, seat: int, voice: Voice) -> str:
    """A racer's own board's status line: the race and the cards they have left."""
    return voice.bold(voice.gettext("Demon race #{race}", race=race_id)) + " · " + voice.gettext(
        "your board · {cards} cards left", cards=game.cards_left(seat))


def _redeals_words(redeals_left: int | None, voice: Voice) -> str:
    """"unlimited redeals", "1 redeal left", "0 redeals left"."""
    if redeals_left is None:
        return voice.gettext("unlimited redeals")
    return voice.ngettext("{count} redeal left", "{count} redeals left", redeals_left)


# --- the words on a board's image, and the board as text ----------------------------------------

def board_captions(game: Game, voice: Voice, label: DealLabel) -> BoardCaptions:
    """The words drawn on `game`'s board image, in the voice's language, its deal named by `label`."""
    deal = None if label.day is None and label.match_id is None else deal_text(label, voice)
    return worded_board(game, voice.gettext, voice.ngettext, title=voice.engine(Phrase.marked(game.title)), deal=deal)


def board_text(game: Game, voice: Voice) -> str:
    """The board as plain text (the terminal's), its header in the voice's language."""
    return game.text(translations(voice.language, "engine"))


def race_captions(race: RaceGame, voice: Voice) -> RaceCaptions:
    """The words drawn on `race`'s board images (a player's own and the public table), in the
    voice's language."""
    return worded_race(race, voice.gettext, voice.ngettext, title=voice.engine(Phrase.marked(race.title)))


# --- alt text: a board image in words, for screen readers -------------------------------------

def board_alt_text(game: Game, label: DealLabel, voice: Voice, limit: int = ALT_TEXT_LIMIT) -> str:
    """A solo board's image in words, pile by pile, within `limit` characters: the game, its deal
    (named by `label`), the foundations' tops, the reserve's top and count, the waste's top, the
    stock, each column (its face-up cards, fewer when the text would be too long)."""
    head = voice.gettext("{title} board, {deal}, score {score}, {redeals}.", title=game.title,
                         deal=deal_text(label, voice), score=game.score,
                         redeals=_redeals_words(game.redeals_left, voice))
    return _alt_text(head, game.piles(), limit, voice, base=lambda pile: str(game.foundation_base(pile)))


def race_board_alt_text(game: RaceGame, seat: int, name: str, voice: Voice, limit: int = ALT_TEXT_LIMIT) -> str:
    """A racer's own board in words (their piles, and the shared foundations' tops), within `limit`."""
    head = voice.gettext("Race board of {name}: {cards} cards left. Shared foundations' tops: {tops}.", name=name,
                         cards=game.cards_left(seat), tops=_foundation_tops(game, voice))
    return _alt_text(head, game.piles(seat), limit, voice)


def race_table_alt_text(game: RaceGame, names: list[str], voice: Voice, limit: int = ALT_TEXT_LIMIT) -> str:
    """A race's public table in words: the shared foundations' tops and each racer's cards left."""
    racers = "; ".join(f"{name}: " + voice.gettext("{cards} cards left, {founded} on the foundations",
                                                   cards=game.cards_left(seat), founded=game.on_foundations(seat))
                       for seat, name in enumerate(names))
    return shorten(voice.gettext("Race table. Shared foundations' tops: {tops}. {racers}.",
                                 tops=_foundation_tops(game, voice), racers=racers), limit)


def _foundation_tops(game: RaceGame, voice: Voice) -> str:
    """The shared foundations' top cards in words, or "none yet"."""
    return ", ".join(card_words(str(top.card), voice) for top in game.foundation_tops()) or voice.gettext("none yet")


def _alt_text(head: str, layout: dict[str, list[str]], limit: int, voice: Voice,
              base: Callable[[str], str] | None = None) -> str:
    """`head`, then the piles of `layout` in words, naming fewer column cards until it fits;
    `base` names the card an empty foundation starts with."""
    text = head
    for cap in COLUMN_CAPS:
        text = " ".join([head, *_piles_in_words(layout, cap, voice, base)])
        if len(text) <= limit:
            return text
    return shorten(text, limit)


def _piles_in_words(layout: dict[str, list[str]], cap: int | None, voice: Voice,
                    base: Callable[[str], str] | None = None) -> list[str]:
    """One sentence a group of piles: foundations, reserve(s), waste, stock, columns."""
    _ = voice.gettext
    foundations = [pile for pile in layout if pile.startswith("f")]
    reserves = [pile for pile in layout if pile.startswith("r")]
    columns = [pile for pile in layout if pile.startswith("t")]
    sentences = []

    def named(pile: str) -> str:
        return f"{pile} {_top_words(layout[pile], voice)}"

    def foundation(pile: str) -> str:
        if base is None or layout[pile]:
            return named(pile)
        return named(pile) + " " + _("(from the {card})", card=card_words(base(pile), voice))

    if foundations:
        sentences.append(_("Foundations: {piles}.", piles=", ".join(map(foundation, foundations))))
    if reserves == ["r"]:
        cards = layout["r"]
        sentences.append(_("Reserve: {top}, {count} cards.", top=_top_words(cards, voice), count=len(cards))
                         if cards else _("Reserve: {top}.", top=_top_words(cards, voice)))
    elif reserves:
        sentences.append(_("Reserve piles: {piles}.", piles=", ".join(named(pile) for pile in reserves)))
    if "w" in layout:
        sentences.append(_("Waste: {top}.", top=_top_words(layout["w"], voice)))
    if "s" in layout:
        sentences.append(_("Stock: {count} cards.", count=len(layout["s"])))
    for pile in columns:
        sentences.append(_("Column {pile}: {cards}.", pile=pile, cards=_column_words(layout[pile], cap, voice)))
    return sentences


def _top_words(cards: list[str], voice: Voice) -> str:
    """A pile's top card in words, "face down" or "empty"."""
    if not cards:
        return voice.gettext("empty")
    return voice.gettext("face down") if cards[-1] == "??" else card_words(cards[-1], voice)


def _column_words(cards: list[str], cap: int | None, voice: Voice) -> str:
    """A column from the bottom: its face-down count, then its face-up cards (the top `cap`)."""
    _ = voice.gettext
    if not cards:
        return _("empty")
    face_up = [card for card in cards if card != "??"]
    hidden = len(cards) - len(face_up)
    shown = face_up if cap is None else face_up[-cap:]
    named = ", ".join(card_words(card, voice) for card in shown)
    if len(shown) < len(face_up):
        named = _("{count} face up, the top ones {cards}", count=len(face_up), cards=named)
    if not hidden:
        return named
    return _("{hidden} face down, then {cards}", hidden=hidden, cards=named) if face_up else \
        _("{hidden} face down", hidden=hidden)
