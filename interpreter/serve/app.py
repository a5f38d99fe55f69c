"""The web app: HTTP and websocket requests -> the Hub's tables, each browser sent only its seat's board.

Routes: `/` the lobby (start a game, take seats), `/t/{table}/{seat}` the play page of one seat,
`/api/...` JSON for the pages and for tools, `/ws/{table}/{seat}` the seat's live board.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bundled import bundled
from ..errors import GameError, RulebookError
from .. import load
from ..parameters import override_problem
from .hub import Hub

STATIC = Path(__file__).resolve().parent / "static"


class Rulesets:
    """The rulesets a browser may start: the bundled ones and the one named on the command line."""

    def __init__(self, extra: str | None = None):
        self.paths = {name: str(path) for name, path in bundled().items()}
        self.first = None
        self.cache: dict = {}
        if extra is not None and extra in self.paths:
            self.first = extra
        elif extra is not None:
            rules = load(extra)   # a file that does not load is reported before the server starts
            self.first = rules.name if rules.name not in self.paths else extra
            self.paths[self.first] = extra
            self.cache[self.first] = rules

    def get(self, name: str):
        if name not in self.paths:
            raise GameError(f"unknown ruleset '{name}'", "unknown-ruleset")
        if name not in self.cache:
            self.cache[name] = load(self.paths[name])
        return self.cache[name]

    def listing(self) -> list[dict]:
        out = []
        for name in self.paths:
            try:
                r = self.get(name)
            except RulebookError:
                continue
            out.append({"name": name, "title": r.title, "min": r.min_players, "max": r.max_players,
                        "bot": r.default_agent or "random", "text": " ".join(r.text.split())})
        if self.first:
            out.sort(key=lambda x: x["name"] != self.first)
        return out


def create_app(ruleset: str | None = None, hub: Hub | None = None) -> Starlette:
    """The ASGI app; `ruleset` (a bundled name or a file) comes first in the lobby."""
    rulesets = Rulesets(ruleset)
    hub = hub or Hub()
    listeners: dict = {}     # table id -> {websocket: seat or None}

    def seat_of(table, text: str):
        if text == "watch":
            return None
        if not text.isdigit() or not 1 <= int(text) <= table.game.state.n:
            raise GameError(f"no seat '{text}' at this table", "no-seat")
        return int(text) - 1

    def table_of(table_id: str):
        table = hub.get(table_id)
        if table is None:
            raise GameError("no such game here (it may have ended or the server restarted)", "no-table")
        return table

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def play_page(request: Request):
        return FileResponse(STATIC / "play.html")

    async def list_rulesets(request: Request):
        return JSONResponse(rulesets.listing())

    async def create(request: Request):
        try:
            spec = await request.json()
        except ValueError:
            return _error("the request is not JSON", 400)
        try:
            rules = rulesets.get(str(spec.get("ruleset", "")))
            n = int(spec.get("players") or rules.min_players)
            if not rules.min_players <= n <= rules.max_players:
                return _error(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}", 400)
            agents = [str(a) for a in (spec.get("agents") or [])][:n]
            bot = rules.default_agent or "random"
            agents += [bot] * (n - len(agents))
            if any(a not in ("human", "random", "first", "greedy") for a in agents):
                return _error("agents are human, random, first or greedy", 400)
            params = spec.get("params") or {}
            for name, value in params.items():
                problem = override_problem(name, value, rules.params, rules.param_choices)
                if problem is not None:
                    return _error(problem[0], 400)
            seed = spec.get("seed")
            seed = int(seed) if seed not in (None, "") else int.from_bytes(os.urandom(4), "big")
            names = [str(x)[:24] for x in (spec.get("names") or [])][:n]
            table = hub.create(rules, n, agents, seed, params, names)
        except (ValueError, TypeError) as exc:
            return _error(f"bad request: {exc}", 400)
        except GameError as exc:
            return _error(str(exc), 400)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({"table": table.id, "seed": seed, "seats": [
            {"seat": f"P{i + 1}", "agent": a, "url": f"{base}/t/{table.id}/{i + 1}"} for i, a in enumerate(agents)],
            "watch": f"{base}/t/{table.id}/watch"})

    async def get_board(request: Request):
        try:
            table = table_of(request.path_params["table"])
            return JSONResponse(table.board(seat_of(table, request.path_params["seat"])))
        except GameError as exc:
            return _error(str(exc), 404)

    async def choose(request: Request):
        try:
            table = table_of(request.path_params["table"])
            seat = seat_of(table, request.path_params["seat"])
            spec = await request.json()
            if seat is None:
                raise GameError("an onlooker cannot choose", "onlooker")
            table.choose(seat, spec.get("index"))
        except GameError as exc:
            return _error(str(exc), 400)
        except ValueError:
            return _error("the request is not JSON", 400)
        await notify(table)
        return JSONResponse(table.board(seat))

    async def notify(table) -> None:
        """Send every browser at the table its own new board."""
        for ws, seat in list(listeners.get(table.id, {}).items()):
            try:
                await ws.send_text(json.dumps({"board": table.board(seat)}, ensure_ascii=False))
            except Exception:   # a closed page: forget it
                listeners.get(table.id, {}).pop(ws, None)

    async def live(ws: WebSocket):
        await ws.accept()
        try:
            table = table_of(ws.path_params["table"])
            seat = seat_of(table, ws.path_params["seat"])
        except GameError as exc:
            await ws.send_text(json.dumps({"error": str(exc)}))
            await ws.close()
            return
        listeners.setdefault(table.id, {})[ws] = seat
        await ws.send_text(json.dumps({"board": table.board(seat)}, ensure_ascii=False))
        try:
            while True:
                message = await ws.receive_text()
                try:
                    spec = json.loads(message)
                    if seat is None:
                        raise GameError("an onlooker cannot choose", "onlooker")
                    table.choose(seat, spec.get("choose"))
                except (ValueError, AttributeError):
                    await ws.send_text(json.dumps({"error": "a message is {\"choose\": option number}"}))
                    continue
                except GameError as exc:
                    await ws.send_text(json.dumps({"error": str(exc)}))
                    continue
                await notify(table)
        except WebSocketDisconnect:
            pass
        finally:
            listeners.get(table.id, {}).pop(ws, None)

    routes = [
        Route("/", page),
        Route("/t/{table}/{seat}", play_page),
        Route("/api/rulesets", list_rulesets),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table}/{seat}", get_board),
        Route("/api/tables/{table}/{seat}/choose", choose, methods=["POST"]),
        WebSocketRoute("/ws/{table}/{seat}", live),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    return app


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
