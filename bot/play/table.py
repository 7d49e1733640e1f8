"""The table in a browser (bot/web presents it): a member's game reached by a signed link, and
their moves from the page, through SoloPlay exactly as a button's (the same rules, the same store
commit before the page shows it, the same rate limits, secrecy and fairness).

A link (bot/play/links.py) is made for a member and one of their games; opened, within
LINK_SECONDS, once (its nonce claimed in the store), it becomes a session for that game. A link
that is forged, expired, opened before, or opened in a browser holding another member's session
opens nothing (BadLink)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.daily import new_secret
from bot.play.errors import BadLink, DealIsLive, NotYourGame
from bot.play.links import (
    SECRET,
    Pass,
    make_activity_session,
    make_link,
    make_session,
    make_view,
    read_activity_session,
    read_link,
    read_session,
    read_view,
)
from bot.play.replies import Reply
from bot.play.review import Replay, finished_game_for_review
from bot.play.secrecy import Secrecy, Sight
from bot.play.solo import Player, SoloPlay, check_limit, label_of, record_of
from bot.play.watch import WatchPlay
from bot.store import Store

ACTIONS = ("draw", "undo", "hint", "auto", "resign")
MOVE_TEXT = 200  # the most characters of moves a page sends at once (a button's worth, with room)


@dataclass(frozen=True, slots=True)
class Glance:
    """Another member's game as one viewer may see it in an Activity: whose it is, the game as it
    stands, and whether its cards may be shown to that viewer (the secrecy rule's CARDS)."""

    name: str
    reply: Reply
    cards: bool


class TablePlay:
    """Links, sessions and the page's actions."""

    def __init__(self, store: Store, solo: SoloPlay, watching: WatchPlay,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.solo = solo
        self.watching = watching
        self.clock = clock
        self.secrecy = Secrecy(store, clock)
        self._secret: str | None = None

    async def secret(self) -> str:
        """The deployment's secret links are signed with (made and stored at first use)."""
        if self._secret is None:
            self._secret = await self.store.stats.secret(SECRET, new_secret)
        return self._secret

    async def link(self, member_id: int, game_id: int, language: str) -> str:
        """A new link's token to the member's game; NotYourGame when it is another's (NoGameHere
        when there is no such game)."""
        reply = await self.solo.look(game_id)
        if reply.user_id != member_id:
            raise NotYourGame()
        return make_link(await self.secret(), member_id, game_id, language, self.clock())

    async def open(self, token: str, held: str | None) -> tuple[Pass, str]:
        """Open a link: its pass and the session cookie it becomes. BadLink when it is forged,
        expired or opened before (`used`), or when `held`, the session this browser holds, is
        another member's (`other`: that session stands)."""
        secret, now = await self.secret(), self.clock()
        grant = read_link(secret, token, now)
        if held:
            try:
                mine = read_session(secret, held, now)
            except BadLink:
                mine = None
            if mine is not None and mine.member_id != grant.member_id:
                raise BadLink("other")
        if not await self.store.stats.claim_link(grant.nonce, grant.member_id, grant.game_id):
            raise BadLink("used")
        return grant, make_session(secret, grant, now)

    async def session(self, cookie: str | None, game_id: int) -> Pass:
        """The pass of a session cookie for this game; BadLink when there is none, or it is
        forged, expired, or for another game."""
        grant = read_session(await self.secret(), cookie or "", self.clock())
        if grant.game_id != game_id:
            raise BadLink("forged")
        return grant

    async def activity(self, member_id: int, channel_id: int, instance_id: str, language: str) -> tuple[Pass, str]:
        """A session for the member's game in play in `channel_id`, where a Discord Activity's
        instance `instance_id` was launched (who they are, Discord told the caller): its pass and
        token. NoGameHere when they have none there."""
        game_id = await self.solo.running_id(Player(member_id, ""), channel_id)
        secret = await self.secret()
        token = make_activity_session(secret, member_id, game_id, language, instance_id, self.clock())
        return read_activity_session(secret, token, instance_id, self.clock()), token

    async def activity_session(self, token: str, instance_id: str, game_id: int) -> Pass:
        """The pass of an Activity's session for this instance and game; BadLink otherwise."""
        grant = read_activity_session(await self.secret(), token, instance_id, self.clock())
        if grant.game_id != game_id:
            raise BadLink("forged")
        return grant

    async def glance(self, game_id: int, viewer_id: int) -> Glance:
        """Another member's game as `viewer_id` may see it beside their own in an Activity: its
        cards only when the secrecy rule lets this viewer see them (never a live deal's to one
        who has not finished theirs)."""
        reply = await self.solo.look(game_id)
        try:
            await self.secrecy.may_show(reply, Sight.CARDS, viewer_id)
            cards = True
        except DealIsLive:
            cards = False
        names = await self.store.games.player_names([reply.user_id])
        return Glance(names.get(reply.user_id, str(reply.user_id)), reply, cards)

    async def board(self, grant: Pass) -> Reply:
        """The game as it stands, for its page."""
        return await self.solo.board(grant.game_id, Player(grant.member_id, ""))

    def pace(self, grant: Pass) -> None:
        """Count one message of the member's page: RateLimited past their share ("web", LIMITS),
        before it is read, so that a page sending too fast slows no one else."""
        check_limit(self.solo.limits, grant.member_id, "web")

    async def act(self, grant: Pass, *, action: str | None = None, text: str | None = None) -> Reply:
        """Carry out the page's action (one of ACTIONS) or typed moves (`text`, notation) on the
        pass's game, as its member, through SoloPlay."""
        player, game_id = Player(grant.member_id, ""), grant.game_id
        if action == "undo":
            return await self.solo.undo(game_id, player)
        if action == "hint":
            return await self.solo.hint(game_id, player)
        if action == "resign":
            return await self.solo.resign(game_id, player)
        moves = {"draw": "d", "auto": "a"}.get(action or "", (text or "")[:MOVE_TEXT])
        return await self.solo.move(game_id, player, moves)

    async def view_link(self, member_id: int, game_id: int, language: str) -> str:
        """A replay link's token for `member_id` to look at finished game `game_id` (the rules of
        /replay: bot.play.review.finished_game_for_review; its PlayErrors when they refuse)."""
        await finished_game_for_review(self.store, self.secrecy, game_id, Player(member_id, ""), replay=True)
        return make_view(await self.secret(), member_id, game_id, language, self.clock())

    async def watch_link(self, watcher_id: int, game_id: int, channel_id: int | None, language: str) -> str:
        """A link's token for `watcher_id` to watch game `game_id`, played in `channel_id`, move by
        move in a browser (the rules of /watch: bot.play.watch; its PlayErrors when they refuse)."""
        await self.watching.refresh(Player(watcher_id, ""), game_id, channel_id)
        return make_view(await self.secret(), watcher_id, game_id, language, self.clock(), watch=True)

    async def replay(self, token: str) -> tuple[Pass, Replay]:
        """What a look link shows now: its pass, and the game move by move (finished, or in play
        when watched), asked of its rules afresh for the link's member: a deal that became live
        since is not shown. BadLink for a link that does not open; the rules' PlayErrors."""
        grant, watching = read_view(await self.secret(), token, self.clock())
        viewer = Player(grant.member_id, "")
        if watching:
            stored = await self.store.games.get_game(grant.game_id)
            if stored is None:
                raise BadLink("forged")
            live = await self.secrecy.may_show(stored, Sight.CARDS, viewer.id)
        else:
            stored, live = await finished_game_for_review(self.store, self.secrecy, grant.game_id, viewer,
                                                          replay=True)
        name = (await self.store.games.player_names([stored.user_id])).get(stored.user_id, str(stored.user_id))
        return grant, Replay(game_id=stored.id, player=Player(stored.user_id, name), name=stored.name,
                             deal=stored.deal, status=stored.status, score=stored.score, record=record_of(stored),
                             label=label_of(stored), live=live)
