"""Fair play: the one secrecy rule that every route asks before it shows anything of a deal (its
cards, a board, a replay, a line or an analysis of it), whatever the front end.

A deal is *live* while others may still be dealt it:
- a daily's: from its day until 01:00 UTC the next day and until every attempt at it has ended
  (an attempt may be finished until then, DAILY_GRACE; those still in play are ended, resigned,
  by `DailyPlay.end_overdue`);
- a round's of a match still open (in its lobby or running: anyone may still join and be dealt it);
- and any game's dealt the same deck as one of those (a solo copy, `/play deal:N`, however N
  was learnt: the same PySolFC number with as many cards, or the same explicit deck).

What may be shown of a live deal (`Sight`):
- CARDS (a board, a watched board, a replay): to the game's own player, and to whoever has
  finished their own attempt at that daily or their own game of that round; privately only.
- SOLVER (a winning line, an analysis): to nobody until it is no longer live.
- COPY (a new solo game on it): nobody is dealt one.
Nothing of a live deal is posted to a channel: where a route would post publicly, `may_show`'s
answer (the Live) tells the presenter to show it to the viewer alone, and say why.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.game import dealt_cards
from bot.play.days import DAILY_GRACE, DAY_SECONDS, attempt_deadline, utc_day
from bot.play.errors import DealIsLive
from bot.play.replies import GameStatus
from bot.store import Store, StoredGame
from bot.store.base import DealUse

if TYPE_CHECKING:
    from bot.play.replies import Reply
    from bot.play.solo import Table

    Dealt = StoredGame | Reply | Table


class Sight(StrEnum):
    """What a route would show of a deal."""

    CARDS = "cards"  # its cards: a board, a watched board, a replay
    SOLVER = "solver"  # what the solver finds: a winning line, an analysis
    COPY = "copy"  # a new solo game dealt the same cards


@dataclass(frozen=True, slots=True)
class LiveDaily:
    """The deal is that of the daily of `game` of `day` (YYYY-MM-DD), live until `until` (a Unix
    time: 01:00 UTC the next day) and after it while attempts at it are still in play. `day_over`:
    the day itself is over (its last attempts are being finished; nobody can begin one now)."""

    game: str
    day: str
    until: float
    day_over: bool = False


@dataclass(frozen=True, slots=True)
class LiveRound:
    """The deal is that of round `round` of match `match_id`, still open."""

    match_id: int
    round: int


Live = LiveDaily | LiveRound


@functools.cache
def deck_size(name: str) -> int:
    """How many cards game `name` deals (52 or 104): a PySolFC number deals the same deck to every
    game with as many cards."""
    return len(dealt_cards(name, 1))


class Secrecy:
    """The rule, on the store's records of dailies and matches, by this clock."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def live(self, game: Dealt) -> Live | None:
        """Why the game's deal is live now (the first reason found), or None when it is not."""
        lives = await self._lives(game)
        return lives[0] if lives else None

    async def may_show(self, game: Dealt, sight: Sight, viewer_id: int | None = None) -> Live | None:
        """May `sight` of this game's deal be shown to `viewer_id` (None: anyone) now? None: yes,
        anywhere (the deal is not live). A Live: yes, but to the viewer alone, never in a channel
        (CARDS of a live deal for its own player, or for one who has finished their own games of
        it). DealIsLive when not."""
        lives = await self._lives(game)
        if not lives:
            return None
        copy = game.kind == "solo"
        if sight is not Sight.CARDS or viewer_id is None:
            raise DealIsLive(lives[0], sight, copy=copy)
        if viewer_id != game.user_id:
            for live in lives:
                if not await self._finished_by(viewer_id, live):
                    raise DealIsLive(live, sight, copy=copy)
        return lives[0]

    async def check_solver(self, game: Dealt) -> None:
        """DealIsLive (SOLVER) while the game's deal is live: what the solver finds is shown to nobody."""
        await self.may_show(game, Sight.SOLVER)

    async def check_copy(self, name: str, deal: int | None) -> None:
        """DealIsLive (COPY) when a new solo game of `name` on PySolFC game `deal` would be dealt a
        live deal's cards."""
        if deal is None:
            return
        lives = await self._deck_lives(name, deal, None)
        if lives:
            raise DealIsLive(lives[0], Sight.COPY, copy=True)

    async def _lives(self, game: Dealt) -> list[Live]:
        """Every reason the game's deal is live now (none: it is not)."""
        return await self._deck_lives(*_deck(game))

    async def _deck_lives(self, name: str, deal: int | None, cards: str | None) -> list[Live]:
        """Every reason the deck of game `name`, PySolFC game `deal` (or the explicit deck `cards`), is live now."""
        now = self.clock()
        since = utc_day(now - DAY_SECONDS - DAILY_GRACE)  # older dailies are over, whatever is still in play
        lives = []
        for use in await self.store.games.deal_uses(deal, cards, since):
            if deal is not None and deck_size(use.name) != deck_size(name):
                continue  # the same number, another deck
            live = await self._live_use(use, now)
            if live is not None:
                lives.append(live)
        return lives

    async def _live_use(self, use: DealUse, now: float) -> Live | None:
        """The use as a Live when it still is one (the store gives only open matches' rounds)."""
        if use.kind == "match" and use.match_id is not None and use.round is not None:
            return LiveRound(use.match_id, use.round)
        if use.kind == "daily" and use.day is not None:
            until = attempt_deadline(use.day)
            if now < until or await self.store.stats.daily_in_play(use.day, use.name):
                return LiveDaily(use.name, use.day, until, day_over=now >= until - DAILY_GRACE)
        return None

    async def _finished_by(self, viewer_id: int, live: Live) -> bool:
        """Whether the viewer has finished their own attempt at that daily, or their own game of that round."""
        if isinstance(live, LiveDaily):
            attempt = await self.store.stats.daily_attempt(live.day, live.game, viewer_id)
            return attempt is not None and attempt.status != GameStatus.PLAYING
        own = await self.store.games.round_game(live.match_id, live.round, viewer_id)
        return own is not None and own.status != GameStatus.PLAYING


def _deck(game: Dealt) -> tuple[str, int | None, str | None]:
    """The game's name, PySolFC number and explicit deck (two characters a card), as stored."""
    if isinstance(game, StoredGame):
        return game.name, game.deal, game.cards if game.deal is None else None
    engine = game.game
    return engine.name, engine.deal, None if engine.deal is not None else "".join(map(str, engine.cards))

