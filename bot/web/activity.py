"""The web table as a Discord Activity (docs/web.md, "The Activity"): the page in Discord's frame,
the OAuth2 code its SDK obtains exchanged here for who the member is, a session for their game in
the channel where the Activity was launched, and a hub through which the members of one Activity
instance see each other's progress.

Routes (with `Activity.add_routes`):
- `GET /activity`: the table's page, loading /static/activity.js (web/activity/main.js, bundled)
  before the table; framed by Discord only.
- `POST /activity/token` `{code}`: the code exchanged with Discord for an access token.
- `POST /activity/session` `{access_token, channel_id, instance_id}`: who the token is (asked of
  Discord, never taken from the page), their game there, and a session for it (`?session=` on the
  WebSocket, with `&instance=`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.config import Config
from bot.languages import choose_language
from bot.play.errors import ActivityRefused, PlayError
from bot.play.links import Pass
from bot.play.services import Play
from bot.web.state import mini_board
from bot.words import WEB, error_text
from bot.words.table import link_error_text

log = logging.getLogger(__name__)

DEFAULT_API_BASE = "https://discord.com/api/v10"
# The page may be framed by Discord's clients and its Activity proxy only.
FRAMED_BY = "https://discord.com https://*.discord.com https://*.discordsays.com"
CSP = ("default-src 'self'; img-src 'self' data:; connect-src 'self'; "
       f"frame-ancestors {FRAMED_BY}; base-uri 'none'; form-action 'none'")
REFRESH = 2.0  # seconds between looks at an instance's games, for moves made elsewhere (Discord's buttons)
DISCORD_TIMEOUT = aiohttp.ClientTimeout(total=10)
_TABLE_SCRIPT = re.compile(r'<script src="(?:\.\.)?/static/table\.js"[^>]*></script>')
_INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,100}")


@functools.cache
def activity_page(client_id: int) -> str:
    """The table's page with its table.js swapped for activity.js (which loads table.js once the
    SDK has said who plays), read once."""
    tag = f'<script src="/static/activity.js" data-client-id="{client_id}" defer></script>'
    page = (Path(__file__).parent / "static" / "table.html").read_text(encoding="utf-8")
    page, swapped = _TABLE_SCRIPT.subn(tag, page)
    if swapped != 1:  # table.js would run twice (once without PE_TABLE): the page and this must agree
        raise RuntimeError("table.html has no one table.js script tag for the Activity to swap")
    return page


class Activity:
    """The Activity's routes over the play layer `play`, with the settings `config` (its
    DISCORD_CLIENT_SECRET and DISCORD_API_BASE) and `application_id`, which says the bot's
    application id once logged in (the SDK's and OAuth2's client id)."""

    def __init__(self, play: Play, config: Config, application_id: Callable[[], int | None]) -> None:
        self.play = play
        self.secret = config.client_secret
        self._bot_token = config.token  # asks Discord who is in an instance; never logged
        self.api_base = (config.api_base or DEFAULT_API_BASE).rstrip("/")
        self.application_id = application_id
        self.hub = Hub(play)
        self._client: aiohttp.ClientSession | None = None

    def add_routes(self, app: web.Application) -> None:
        """Serve the Activity's routes on `app` (and close its Discord client with the app)."""
        app.router.add_get("/activity", self.page)
        app.router.add_post("/activity/token", self.token)
        app.router.add_post("/activity/session", self.session)
        app.on_cleanup.append(self._close)

    async def page(self, _request: web.Request) -> web.StreamResponse:
        """The table's page, its table.js loaded by activity.js once the SDK has said who plays."""
        return web.Response(text=activity_page(self.application_id() or 0), content_type="text/html",
                            headers={"Content-Security-Policy": CSP})

    async def token(self, request: web.Request) -> web.Response:
        """The page's OAuth2 code exchanged with Discord for an access token."""
        body = await _body(request)
        code = body.get("code")
        if not self.secret:
            return _refuse(ActivityRefused("off"))
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            return _refuse(ActivityRefused("unknown"))
        form = {"client_id": str(self.application_id() or ""), "client_secret": self.secret,
                "grant_type": "authorization_code", "code": code}
        answer = await self._discord("POST", "/oauth2/token", data=form)
        if not isinstance(answer.get("access_token"), str):
            return _refuse(ActivityRefused("unknown"))
        return web.json_response({"access_token": answer["access_token"]})

    async def session(self, request: web.Request) -> web.Response:
        """A session for the token's member, at their game in the Activity's channel."""
        body = await _body(request)
        access, channel, instance = body.get("access_token"), str(body.get("channel_id") or ""), body.get("instance_id")
        if not self.secret:
            return _refuse(ActivityRefused("off"))
        if (not isinstance(access, str) or not access or len(access) > 200 or not channel.isdigit()
                or not isinstance(instance, str) or not _INSTANCE.fullmatch(instance)):
            return _refuse(ActivityRefused("unknown"))
        me = await self._discord("GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
        if not str(me.get("id", "")).isdigit():
            return _refuse(ActivityRefused("unknown"))
        language = choose_language(me.get("locale"), None)
        # The instance and channel the page names, as Discord has them: the member in it, launched there.
        found = await self._discord("GET", f"/applications/{self.application_id() or 0}/activity-instances/{instance}",
                                    headers={"Authorization": f"Bot {self._bot_token}"})
        where, users = found.get("location"), found.get("users")
        in_it = isinstance(users, list) and str(me["id"]) in [str(user) for user in users]
        if not in_it or not isinstance(where, dict) or str(where.get("channel_id")) != channel:
            return _refuse(ActivityRefused("unknown"), language)
        try:
            grant, token = await self.play.table.activity(int(me["id"]), int(channel), instance, language)
        except PlayError as error:
            return _refuse(error, language)
        return web.json_response({"game": grant.game_id, "session": token, "instance": instance})

    async def _discord(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        """Discord's JSON answer, or {} when it refuses or cannot be reached."""
        if self._client is None:
            self._client = aiohttp.ClientSession(timeout=DISCORD_TIMEOUT)
        try:
            async with self._client.request(method, self.api_base + path, **kwargs) as response:
                if response.status != 200:
                    log.info("Discord answered %s %s with %d", method, path, response.status)
                    return {}
                answer = await response.json()
        except (TimeoutError, aiohttp.ClientError, ValueError) as error:
            log.warning("Discord did not answer %s %s: %s", method, path, type(error).__name__)
            return {}
        return answer if isinstance(answer, dict) else {}

    async def _close(self, _app: web.Application) -> None:
        await self.hub.close()
        if self._client is not None:
            await self._client.close()
            self._client = None


@dataclass(eq=False)
class _Seat:
    """One socket in an instance: whose, at which game, and what it was last sent of the others."""

    grant: Pass
    socket: web.WebSocketResponse
    sent: list[dict[str, Any]] | None = field(default=None)


class Hub:
    """The members of each Activity instance (by its id) and their sockets, in this process: each
    socket is sent the others' progress (`{"type": "others", "players": [...]}`) when it joins,
    after a move in the instance, and when a move made elsewhere shows (every REFRESH seconds)."""

    def __init__(self, play: Play, refresh: float = REFRESH) -> None:
        self.play = play
        self.refresh = refresh
        self._rooms: dict[str, list[_Seat]] = {}
        self._watchers: dict[str, asyncio.Task[None]] = {}

    async def enter(self, instance: str, grant: Pass, socket: web.WebSocketResponse) -> None:
        """A socket of `instance` opened, for the pass's game."""
        self._rooms.setdefault(instance, []).append(_Seat(grant, socket))
        if instance not in self._watchers:
            self._watchers[instance] = asyncio.create_task(self._watch(instance))
        await self.tell(instance)

    async def leave(self, instance: str, socket: web.WebSocketResponse) -> None:
        """A socket of `instance` closed."""
        seats = [seat for seat in self._rooms.get(instance, []) if seat.socket is not socket]
        if seats:
            self._rooms[instance] = seats
            await self.tell(instance)
            return
        self._rooms.pop(instance, None)
        watcher = self._watchers.pop(instance, None)
        if watcher is not None:
            watcher.cancel()

    async def tell(self, instance: str) -> None:
        """Send each socket of the instance the others' progress, when it changed since last sent."""
        seats = list(self._rooms.get(instance, []))
        for seat in seats:
            players = await self.others(seat.grant, [other.grant for other in seats])
            if players != seat.sent and not seat.socket.closed:
                seat.sent = players
                with contextlib.suppress(ConnectionError):  # its handler ends and leaves
                    await seat.socket.send_json({"type": "others", "players": players})

    async def others(self, viewer: Pass, grants: list[Pass]) -> list[dict[str, Any]]:
        """The progress of the games of `grants` but the viewer's own, as the viewer may see them:
        a mini board only where the secrecy rule shows that viewer the game's cards."""
        players, seen = [], {viewer.game_id}
        for grant in grants:
            if grant.member_id == viewer.member_id or grant.game_id in seen:
                continue
            seen.add(grant.game_id)
            try:
                glance = await self.play.table.glance(grant.game_id, viewer.member_id)
            except PlayError:
                continue
            game = glance.reply.game
            player = {"member": str(grant.member_id), "name": glance.name, "game": game.title,
                      "score": game.score, "foundations": game.foundation_cards, "cards": len(game.cards),
                      "moves": len(game.moves), "status": str(glance.reply.status)}
            if glance.cards:
                player["board"] = mini_board(glance.reply)
            players.append(player)
        return players

    async def close(self) -> None:
        """Stop watching every instance."""
        for watcher in self._watchers.values():
            watcher.cancel()
        self._watchers.clear()
        self._rooms.clear()

    async def _watch(self, instance: str) -> None:
        """Every `refresh` seconds, tell the instance when one of its games moved elsewhere: each
        game's version is looked at (the play layer keeps games in play in memory), and only when
        one changed are the others' progress and the secrecy rule asked again, seat by seat."""
        versions: list[tuple[int, int]] | None = None
        while True:
            await asyncio.sleep(self.refresh)
            try:
                now = [(seat.grant.game_id, (await self.play.solo.look(seat.grant.game_id)).version)
                       for seat in list(self._rooms.get(instance, []))]
                if now != versions:
                    versions = now
                    await self.tell(instance)
            except Exception:  # a look that fails now is tried again at the next
                log.exception("could not tell instance %s its players' progress", instance)


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _refuse(error: PlayError, language: str = "en") -> web.Response:
    """A refusal in one short line, as JSON for the page to show."""
    voice = WEB.speaking(language)
    return web.json_response({"said": link_error_text(error, voice) or error_text(error, voice)}, status=403)
