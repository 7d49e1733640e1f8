"""The bot's web server (aiohttp, in the bot's process, on WEB_PORT behind PUBLIC_URL): the table's
page, its WebSocket, its sprites, and the signed links that open it (bot/play/table.py decides
everything; this module only carries it over HTTP).

Routes:
- `GET /t/<token>`: open a link: a session cookie, then `303` to the table; a refusal page otherwise.
- `GET /table/<game>`: the page (bot/web/static/table.html) for the session's game.
- `GET /ws/<game>`: the page's WebSocket: the game's state, then one answer per action (docs/web.md);
  with the session cookie, or in a Discord Activity `?session=<token>&instance=<id>` (bot/web/activity.py).
- `GET /view/<token>` and `/view/<token>/data`: a finished game's replay, move by move, and its data.
- `GET /sprites/<theme>.png|.json`: the card faces, drawn once (bot/web/sprites.py).
- `GET /static/...`: the page's files.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot import metrics
from bot.play.errors import BadLink, PlayError
from bot.play.links import SESSION_SECONDS, Pass
from bot.play.replies import Reply
from bot.play.services import Play
from bot.play.table import ACTIONS
from bot.web.activity import Hub
from bot.web.sprites import sprite_sheet
from bot.web.state import game_state, replay_moves, replay_state
from bot.words import WEB, Voice, error_text, reply_text
from bot.words.table import link_error_text, page_words, view_words

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
COOKIE = "pe_session"
MESSAGE_BYTES = 4096  # the largest message a page may send on its WebSocket
HEARTBEAT = 30.0  # seconds between pings on an idle WebSocket
# Games worked out move by move for their replay pages, kept: a watched game is asked for every few
# seconds by each of its watchers, and is replayed once for all of them while it has not moved.
REPLAYS_KEPT = 32
# What the browser may do with the page: its own scripts, styles and images only; no framing
# except by Discord's Activity host (bot/web/activity.py widens it for that route).
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class TableServer:
    """The web server of one bot process: its routes over the play layer `play`, its links under
    `public_url`. `more_routes` adds routes of other features (health and metrics)."""

    def __init__(self, play: Play, public_url: str, *,
                 more_routes: Callable[[web.Application], None] | None = None, hub: Hub | None = None) -> None:
        self.play = play
        self.public_url = public_url.rstrip("/")
        self.more_routes = more_routes
        self.hub = hub  # the Activity's instances (bot/web/activity.py), when it is served
        self._runner: web.AppRunner | None = None
        self._replays: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application(client_max_size=MESSAGE_BYTES)
        app.router.add_get("/t/{token}", self.open_link)
        app.router.add_get("/table/{game:[0-9]{1,19}}", self.table_page)
        app.router.add_get("/ws/{game:[0-9]{1,19}}", self.websocket)
        app.router.add_get("/sprites/{theme:[a-z_-]{1,20}}.{kind:png|json}", self.sprites)
        app.router.add_get("/view/{token}", self.view_page)
        app.router.add_get("/view/{token}/data", self.view_data)
        app.router.add_static("/static/", STATIC, follow_symlinks=False)
        if self.more_routes is not None:
            self.more_routes(app)
        app.on_response_prepare.append(_secure)
        return app

    async def start(self, port: int, host: str = "0.0.0.0") -> None:
        """Serve on this port until `stop`."""
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        log.info("the web table listens on port %d, as %s", port, self.public_url)

    async def stop(self) -> None:
        """Stop serving (open WebSockets are closed)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def link(self, member_id: int, game_id: int, language: str) -> str:
        """The address of a new link to the member's game (bot/play/table.py's errors for another's)."""
        return f"{self.public_url}/t/{await self.play.table.link(member_id, game_id, language)}"

    async def watch_link(self, watcher_id: int, game_id: int, channel_id: int | None, language: str) -> str:
        """The address of a new link for the watcher to follow a game in a browser (the rules of /watch)."""
        token = await self.play.table.watch_link(watcher_id, game_id, channel_id, language)
        return f"{self.public_url}/view/{token}"

    async def view_link(self, member_id: int, game_id: int, language: str) -> str:
        """The address of a new replay link for the member to look at a finished game (the rules of /replay)."""
        return f"{self.public_url}/view/{await self.play.table.view_link(member_id, game_id, language)}"

    # --- routes ---------------------------------------------------------------------------------------

    async def open_link(self, request: web.Request) -> web.StreamResponse:
        """Open a link: its session as a cookie, and the way to the table; or a short refusal."""
        try:
            grant, cookie = await self.play.table.open(request.match_info["token"], request.cookies.get(COOKIE))
        except BadLink as error:
            return refusal(error)
        response = web.Response(status=303, headers={"Location": f"/table/{grant.game_id}"})
        response.set_cookie(COOKIE, cookie, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="Lax",
                            secure=self.public_url.startswith("https://"))
        return response

    async def table_page(self, request: web.Request) -> web.StreamResponse:
        """The page, to the session's member."""
        try:
            await self._pass(request)
        except BadLink as error:
            return refusal(error)
        return web.FileResponse(STATIC / "table.html")

    async def view_page(self, request: web.Request) -> web.StreamResponse:
        """The replay page, while its link opens and the game may be shown to its member."""
        try:
            await self.play.table.replay(request.match_info["token"])
        except PlayError as error:
            return refusal(error)
        return web.FileResponse(STATIC / "table.html")  # table.js shows a replay's controls there

    async def view_data(self, request: web.Request) -> web.StreamResponse:
        """The game to replay (its deal's piles and each move's changes), worked out in the
        member's turn of the engine threads (bot/play/work.py), never on the event loop."""
        try:
            grant, replay = await self.play.table.replay(request.match_info["token"])
        except PlayError as error:
            return web.json_response({"said": error_text(error, WEB)}, status=403)
        voice = WEB.speaking(grant.language)
        key = (replay.game_id, " ".join(replay.record["moves"]))  # an undo then another move is another key
        moves = self._replays.get(key)
        if moves is None:
            moves = await self.play.solo.work.engine(grant.member_id, replay_moves, replay.record)
            self._replays[key] = moves
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        else:
            self._replays.move_to_end(key)
        return web.json_response({"replay": replay_state(replay, moves, voice), "words": view_words(voice)})

    async def sprites(self, request: web.Request) -> web.StreamResponse:
        """The sprite sheet or its map (drawn in a thread the first time)."""
        try:
            png, where = await asyncio.to_thread(sprite_sheet, request.match_info["theme"])
        except ValueError:
            raise web.HTTPNotFound() from None
        if request.match_info["kind"] == "png":
            return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "max-age=86400"})
        return web.Response(text=where, content_type="application/json", headers={"Cache-Control": "max-age=86400"})

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """The page's WebSocket: the state at once, then an answer to each message, in order."""
        try:
            grant = await self._pass(request)
        except BadLink as error:
            return refusal(error)
        socket = web.WebSocketResponse(max_msg_size=MESSAGE_BYTES, heartbeat=HEARTBEAT)
        await socket.prepare(request)
        voice = WEB.speaking(grant.language)
        try:
            await socket.send_json(await self._state(grant, await self.play.table.board(grant), "", voice))
        except PlayError as error:
            await socket.send_json({"type": "error", "said": error_text(error, voice)})
            await socket.close()
            return socket
        instance = _instance(request) if self.hub is not None else None
        if self.hub is not None and instance is not None:
            await self.hub.enter(instance, grant, socket)
        try:
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    break
                started = time.perf_counter()
                answer = await self._answer(grant, message.data, voice)
                await socket.send_json(answer)
                metrics.handled("web", "answered" if answer.get("ok", True) else "refused",
                                time.perf_counter() - started)
                if self.hub is not None and instance is not None:
                    await self.hub.tell(instance)
        finally:
            if self.hub is not None and instance is not None:
                await self.hub.leave(instance, socket)
        return socket

    # --- helpers ----------------------------------------------------------------------------------------

    async def _pass(self, request: web.Request) -> Pass:
        game_id = int(request.match_info["game"])
        instance = _instance(request)
        if instance is not None:  # a Discord Activity's: no cookie reaches a page in Discord's frame
            return await self.play.table.activity_session(request.query.get("session", ""), instance, game_id)
        return await self.play.table.session(request.cookies.get(COOKIE), game_id)

    async def _answer(self, grant: Pass, data: str, voice: Voice) -> dict[str, Any]:
        """The answer to one message of the page: the new state, with what the action did or why
        it was refused; an error for a message that is not one, or one sent too fast."""
        try:
            self.play.table.pace(grant)
        except PlayError as error:
            return {"type": "error", "ok": False, "said": error_text(error, voice)}
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            message = {}
        kind = message.get("type")
        if kind == "move" and isinstance(message.get("text"), str):
            action, text = None, message["text"]
        elif kind == "action" and message.get("action") in ACTIONS:
            action, text = message["action"], None
        else:
            return {"type": "error", "ok": False,
                    "said": voice.gettext("The page sent something the table does not know.")}
        try:
            reply = await self.play.table.act(grant, action=action, text=text)
        except PlayError as error:
            said = error_text(error, voice)
            try:
                reply = await self.play.table.board(grant)
            except PlayError:
                return {"type": "error", "ok": False, "said": said}
            return {**await self._state(grant, reply, said, voice), "ok": False}
        return {**await self._state(grant, reply, reply_text(reply, voice), voice), "ok": reply.ok}

    async def _state(self, grant: Pass, reply: Reply, said: str, voice: Voice) -> dict[str, Any]:
        return {"type": "state", "game": game_state(reply, voice), "said": said, "words": page_words(voice)}


def _instance(request: web.Request) -> str | None:
    """The Activity instance a request with `?session=` speaks for (its `&instance=`; "" when
    missing, which no session is bound to); None for a request without: a cookie's."""
    if "session" not in request.query:
        return None
    return request.query.get("instance", "")


def refusal(error: PlayError) -> web.Response:
    """A short page saying why a link or page does not open (403)."""
    text = html.escape(link_error_text(error, WEB) or error_text(error, WEB))
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>Patient Exorcism</title><body style='font:16px system-ui;margin:2em;max-width:40em'>"
            f"<h1>Patient Exorcism</h1><p>{text}</p></body></html>")
    return web.Response(status=403, text=body, content_type="text/html")


async def _secure(_request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
