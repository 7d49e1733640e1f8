"""The web page's test double of the table server (bot/web/server.py): a tiny aiohttp app that
keeps the contract of /work/notes/web_contract.md (docs: issue 29) for one game and no more.

It serves bot/web/static/ at /static/, the page at /table/<id>, the server's own sprite sheet
(bot/web/sprites.py) at /sprites/classic.png and .json, and the WebSocket /ws/<id>, which plays a
real Canfield deal through bot.game and answers every message with the game's state, all with the
server's security headers (its Content-Security-Policy). No links, sessions, store or words: the
said sentences are plain English. tests/web/test_page_served.py runs the page on the real server.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import WSMsgType, web

from bot.game import Game, PhrasedError, new_game
from bot.web.server import SECURITY_HEADERS, STATIC
from bot.web.sprites import sprite_sheet
from render.layouts import Fan, layout_for

GAME_ID = 12
ENGLISH = {"draw": "Draw", "undo": "Undo", "hint": "Hint", "auto": "Auto", "resign": "Resign",
           "type_here": "Type moves, such as wt4", "send": "Send", "language": "en"}
GERMAN = {"draw": "Ziehen", "undo": "Zurücknehmen", "hint": "Tipp", "auto": "Automatisch", "resign": "Aufgeben",
          "type_here": "Züge eintippen, zum Beispiel wt4", "send": "Senden", "language": "de", "score": "Punkte",
          "over": "Das Spiel ist vorbei"}  # long words, to look at the page in (tests/web/test_page.py)
SHOWN = {Fan.DOWN: None, Fan.RIGHT3: 3, Fan.STACK: 2, Fan.TOP: 1}  # cards sent of a pile: all, or its top few


class FakeTable:
    """One game (deal `deal`) behind the contract's routes; `words` as the server
    would send them (English by default). `sockets` are the pages connected now."""

    def __init__(self, deal: int = 7, words: dict[str, str] | None = None, name: str = "canfield") -> None:
        """A fresh game (of Canfield unless `name` says another), nothing played."""
        self.game: Game = new_game(name, deal=deal)
        self.words = words or ENGLISH
        self.version = 0
        self.hint: str | None = None
        self.resigned = False
        self.received: list[dict[str, Any]] = []  # every message the page sent, in order
        self.sockets: set[web.WebSocketResponse] = set()

    def make_app(self) -> web.Application:
        """The aiohttp app."""
        app = web.Application()
        app.on_response_prepare.append(_secure)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/table/{game_id}", self._page)
        app.router.add_get("/sprites/classic.png", self._sheet)
        app.router.add_get("/sprites/classic.json", self._places)
        app.router.add_get("/ws/{game_id}", self._socket)
        return app

    async def drop(self) -> None:
        """Close every page's WebSocket, as a restarting server would."""
        for socket in list(self.sockets):
            await socket.close()

    def state(self, said: str) -> dict[str, Any]:
        """The state message."""
        game, piles = self.game, self.game.piles()
        outcome = None if self.resigned else game.outcome
        status = "resigned" if self.resigned else outcome.name.lower() if outcome else "playing"
        layout = layout_for(game.kind)
        shown = [{"name": spot.pile, "column": spot.column, "row": spot.row, "fan": spot.fan.name.lower(),
                  "counted": spot.counted, "cards": piles[spot.pile][-(SHOWN[spot.fan] or 99):],
                  "count": len(piles[spot.pile])} for spot in layout.spots]
        over = status != "playing"
        return {"type": "state", "said": said, "words": self.words,
                "game": {"id": GAME_ID, "version": self.version, "name": game.name, "title": game.title,
                         "status": status, "score": game.score, "label": f"deal #{game.deal}",
                         "line": f"{game.title} · deal #{game.deal} · score {game.score} · stock {len(game.stock)}",
                         "undo": game.can_undo() and not over, "over": over, "columns": layout.columns,
                         "piles": shown, "moves": [] if over else [str(move) for move in game.legal_moves()],
                         "hint": self.hint}}

    def act(self, message: dict[str, Any]) -> str:
        """Carry out one message from the page; what to say about it."""
        if self.resigned or self.game.outcome is not None:
            return "The game is over."
        self.hint = None
        action = message.get("action") if message.get("type") == "action" else None
        if action == "hint":
            hint = self.game.hint()
            self.hint = None if hint is None else str(hint.next_move)
            return "No move can help." if hint is None else f"Hint: {hint.next_move}."
        if action == "resign":
            self.resigned = True
            self.version += 1
            return "Resigned."
        typed = message.get("text") if message.get("type") == "move" else None
        text = {"draw": "d", "undo": "u", "auto": "a"}.get(action or "", typed)
        if not isinstance(text, str):
            return "That message could not be read."
        try:
            played = self.game.play(text)
        except PhrasedError as error:
            return f"{error}."
        self.version += 1
        return f"Played {' '.join(map(str, played)) or 'nothing'}."

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "table.html")

    async def _sheet(self, request: web.Request) -> web.Response:
        return web.Response(body=sprite_sheet("classic")[0], content_type="image/png")

    async def _places(self, request: web.Request) -> web.Response:
        return web.Response(text=sprite_sheet("classic")[1], content_type="application/json")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.sockets.add(socket)
        try:
            await socket.send_json(self.state(""))
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(message.data)
                except ValueError:
                    await socket.send_json({"type": "error", "said": "That message could not be read."})
                    continue
                self.received.append(data)
                version = self.version
                said = self.act(data)
                ok = self.version != version or data.get("action") == "hint"  # false: refused, nothing changed
                await socket.send_json({**self.state(said), "ok": ok})
        finally:
            self.sockets.discard(socket)
        return socket


async def _secure(_request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
