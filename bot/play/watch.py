"""Watching: a member's board shown, read-only, to whoever asks in the channel where it is played.

What a watcher may see follows the secrecy rule (bot/play/secrecy.py): a live deal (today's
daily, a round of an open match, or a copy of either) only to a watcher who has finished their
own attempt at that daily or their own game of that round, and then to them alone
(`Watching.live`), never to the channel. Watching oneself is always fine. A watched board's
Refresh acts only in the channel where the game is played.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from bot.play.errors import ElsewhereGame, NothingToWatch
from bot.play.events import Watching
from bot.play.replies import Reply
from bot.play.secrecy import Secrecy, Sight
from bot.play.solo import Player, SoloPlay
from bot.store import Store


class WatchPlay:
    """Who may see whose board: `watch` finds a member's game, `refresh` shows it again."""

    def __init__(self, store: Store, solo: SoloPlay, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.solo = solo
        self.clock = clock
        self.secrecy = Secrecy(store, clock)

    async def watch(self, watcher: Player, member_id: int, channel_id: int | None) -> Reply:
        """Member `member_id`'s game in play in this channel, for `watcher` to see. NothingToWatch,
        or DealIsLive when its deal may not be shown to them."""
        stored = await self.store.games.running_game(member_id, channel_id)
        if stored is None:
            raise NothingToWatch(member_id)
        return await self.refresh(watcher, stored.id, channel_id)

    async def refresh(self, watcher: Player, game_id: int, channel_id: int | None) -> Reply:
        """Game `game_id` as it stands now (in play or ended), for `watcher` to see in channel
        `channel_id`: ElsewhereGame when the game is played in another channel; refused as
        `watch` refuses."""
        reply = await self.solo.look(game_id)
        if reply.channel_id != channel_id:
            raise ElsewhereGame(game_id)
        live = await self.secrecy.may_show(reply, Sight.CARDS, watcher.id)
        names = await self.store.games.player_names([reply.user_id])
        return dataclasses.replace(reply, events=(Watching(names.get(reply.user_id, ""), live),))
