"""The web app: HTTP and websocket requests -> the Hub's tables, each browser sent only its seat's board.

Routes: `/` the lobby (start a game, see the games here), `/t/{table}/{seat}#TOKEN` the play page of
one seat (`/t/{table}/watch` an onlooker's), `/t/{table}/rules` and `/rules/{ruleset}` the rulebook as a
page, `/api/...` JSON for the pages and for tools (a seat's choices, undo, rematch),
`/ws/{table}/{seat}?token=TOKEN` the seat's live board. A seat's requests carry its token (the
`token` query parameter or an `Authorization: Bearer` header); without it they get 403 and nothing
of the seat. See docs/serve.md.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents.spec import AgentSpecError, agent_problem, parse_spec
from ..bundled import bundled
from ..errors import GameError, RulebookError
from .. import load
from ..parameters import override_problem
from .hub import Hub, Refused
from .store import Store

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 1024        # bytes in one websocket message from a page (a choice is about 30)
MAX_SEED = 2 ** 63 - 1   # the games are kept in SQLite, whose numbers have 64 bits
MAX_BODY = 16 * 1024      # bytes in one request body
STATUS = {"forbidden": 403, "no-table": 404, "no-seat": 404, "cannot-continue": 409, "too-large": 413}
USAGE = 'a message is JSON: {"choose": option number, "at": the decision\'s "at"}'


class Rulesets:
    """The rulesets a browser may start: the bundled ones and the one named on the command line."""

    def __init__(self, extra: str | None = None):
        self.paths = {name: str(path) for name, path in bundled().items()}
        self.bundled = set(self.paths)
        self.first = None
        self.cache: dict = {}
        if extra is not None and extra in self.paths:
            self.first = extra
        elif extra is not None:
            rules = load(extra)   # a file that does not load is reported before the server starts
            self.first = rules.name if rules.name not in self.paths else extra
            self.paths[self.first] = str(Path(extra).resolve())
            self.cache[self.first] = rules

    def source(self, name: str) -> str:
        """Where a stored game says its ruleset comes from: a bundled name, or a file's absolute path."""
        return name if name in self.bundled else self.paths[name]

    def by_source(self, source: str):
        """The ruleset a stored game names, loaded as it is now (a file is read again)."""
        if source in self.bundled:
            return self.get(source)
        return load(source)

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


def create_app(ruleset: str | None = None, db: str | os.PathLike | None = None, hub: Hub | None = None) -> Starlette:
    """The ASGI app; `ruleset` (a bundled name or a file) comes first in the lobby. Games are stored in the
    SQLite file `db` (None: in memory only, gone with the process); stored games still being played
    are brought back at once (`app.state.problems` lists those that cannot continue, and why)."""
    rulesets = Rulesets(ruleset)
    if hub is None:
        hub = Hub(Store(db if db is not None else ":memory:"), rulesets.by_source)
    problems = hub.restore_all()
    listeners: dict = {}     # table id -> {websocket: seat or None}

    def table_of(table_id: str):
        table = hub.get(table_id)
        if table is None:
            raise GameError("no such game here", "no-table")
        return table

    def seat_of(table, text: str, token):
        """The seat a request is for (None: an onlooker); refused unless `token` is that seat's."""
        if text == "watch":
            return None
        if not (text.isascii() and text.isdigit() and len(text) <= 3) or not 1 <= int(text) <= table.game.state.n:
            raise GameError(f"no seat '{text[:12]}' at this table", "no-seat")
        seat = int(text) - 1
        if table.agents[seat] != "human":
            raise Refused(f"P{seat + 1} is played by a bot: nobody sees its seat or acts for it")
        if not table.allows(seat, token):
            raise Refused(f"this link does not give seat P{seat + 1}: its token is missing or wrong")
        return seat

    def token_of(request) -> str | None:
        auth = request.headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            return auth[7:].strip()
        return request.query_params.get("token")

    async def body_of(request: Request):
        chunks, size = [], 0
        async for chunk in request.stream():   # read no further than the limit
            size += len(chunk)
            if size > MAX_BODY:
                raise GameError(f"the request is larger than {MAX_BODY} bytes", "too-large")
            chunks.append(chunk)
        body = b"".join(chunks)
        try:
            spec = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise GameError("the request is not JSON", "not-json") from None
        if not isinstance(spec, dict):
            raise GameError("the request is not a JSON object", "not-json")
        return spec

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def play_page(request: Request):
        return FileResponse(STATIC / "play.html")

    async def list_rulesets(request: Request):
        return JSONResponse(rulesets.listing())

    async def list_tables(request: Request):
        base = str(request.base_url).rstrip("/")
        rows = await run_in_threadpool(hub.listing)
        for row in rows:
            row["watch"] = f"{base}/t/{row['table']}/watch"
        return JSONResponse(rows)

    def seed_of(value):
        """A game's seed as asked: a whole number (or its digits) within what the store keeps; none: a fresh
        one; anything else: None."""
        if value is None or value == "":
            return int.from_bytes(os.urandom(4), "big")
        if type(value) is str and value.strip().isdigit():
            value = int(value.strip())
        if type(value) is float and value.is_integer() and abs(value) < 2 ** 63:
            value = int(value)
        return value if type(value) is int and 0 <= value <= MAX_SEED else None

    async def create(request: Request):
        try:
            spec = await body_of(request)
            rules = rulesets.get(str(spec.get("ruleset", "")))
            n = int(spec.get("players") or rules.min_players)
            if not rules.min_players <= n <= rules.max_players:
                return _error(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}", 400)
            agents = [str(a) for a in (spec.get("agents") or [])][:n]
            bot = rules.default_agent or "random"
            agents += [bot] * (n - len(agents))
            for i, a in enumerate(agents):
                problem = seat_problem(a, rules)
                if problem is not None:
                    return _error(problem, 400)
                agents[i] = a.strip()
            params = spec.get("params") or {}
            if not isinstance(params, dict):
                return _error("params is a map of parameter names to values", 400)
            for name, value in params.items():
                problem = override_problem(name, value, rules.params, rules.param_choices)
                if problem is not None:
                    return _error(problem[0], 400)
            seed = seed_of(spec.get("seed"))
            if seed is None:
                return _error(f"the seed is a whole number from 0 to {MAX_SEED}", 400)
            names = [str(x)[:24] for x in (spec.get("names") or [])][:n]
            table, tokens = await run_in_threadpool(hub.create, rules, n, agents, seed, params, names,
                                                    rulesets.source(rules.name))
        except (ValueError, TypeError, AttributeError, OverflowError) as exc:
            return _error(f"bad request: {exc}", 400)
        except GameError as exc:
            return _refused(exc, "start this game; nothing changed")
        base = str(request.base_url).rstrip("/")
        seats = []
        for i, (agent, token) in enumerate(zip(agents, tokens)):
            seat = {"seat": f"P{i + 1}", "agent": agent}
            if token is not None:
                # the page reads the token from the fragment, which browsers never send to a server
                seat.update(url=f"{base}/t/{table.id}/{i + 1}#{token}", token=token)
            seats.append(seat)
        return JSONResponse({"table": table.id, "seed": seed, "seats": seats, "watch": f"{base}/t/{table.id}/watch"})

    rulebooks: dict = {}   # ruleset fingerprint -> its rulebook as a page

    def rulebook_page(rules) -> str:
        if rules.fingerprint not in rulebooks:
            from ..explain import markdown_page, rulebook_markdown
            rulebooks[rules.fingerprint] = markdown_page(rulebook_markdown(rules), f"{rules.title}: rules")
        return rulebooks[rules.fingerprint]

    async def table_rules(request: Request):
        """The rules of a table's game, as a page (the rules are no secret: no token)."""
        try:
            table = await run_in_threadpool(table_of, request.path_params["table"])
            return HTMLResponse(await run_in_threadpool(rulebook_page, table.rules))
        except GameError as exc:
            return _refused(exc, "show its rules")

    async def ruleset_rules(request: Request):
        try:
            rules = await run_in_threadpool(rulesets.get, request.path_params["name"])
            return HTMLResponse(await run_in_threadpool(rulebook_page, rules))
        except RulebookError as exc:
            return _error(str(exc), 404)

    async def undo(request: Request):
        try:
            table = await run_in_threadpool(table_of, request.path_params["table"])
            seat = seat_of(table, request.path_params["seat"], token_of(request))
            if seat is None:
                raise GameError("an onlooker cannot undo", "onlooker")
            await run_in_threadpool(table.undo, seat)
        except GameError as exc:
            return _refused(exc, "take this back; nothing changed")
        await notify(table)
        return board_answer(await run_in_threadpool(board_or_why, table, seat))

    async def rematch(request: Request):
        try:
            table = await run_in_threadpool(table_of, request.path_params["table"])
            seat = seat_of(table, request.path_params["seat"], token_of(request))
            if seat is None:
                raise GameError("an onlooker has no seat in the next game", "onlooker")
            new_id, token = await run_in_threadpool(hub.rematch, table, seat)
        except GameError as exc:
            return _refused(exc, "start the next game; nothing changed")
        await notify(table)   # the others' game-over boxes offer to join it
        base = str(request.base_url).rstrip("/")
        return JSONResponse({"table": new_id, "url": f"{base}/t/{new_id}/{seat + 1}#{token}"})

    async def get_board(request: Request):
        try:
            table = await run_in_threadpool(table_of, request.path_params["table"])
            seat = seat_of(table, request.path_params["seat"], token_of(request))
        except GameError as exc:
            return _refused(exc, "show this game")
        return board_answer(await run_in_threadpool(board_or_why, table, seat))

    async def choose(request: Request):
        try:
            table = await run_in_threadpool(table_of, request.path_params["table"])
            seat = seat_of(table, request.path_params["seat"], token_of(request))
            spec = await body_of(request)
            if seat is None:
                raise GameError("an onlooker cannot choose", "onlooker")
            await run_in_threadpool(table.choose, seat, spec.get("index"), spec.get("at"))
        except GameError as exc:
            return _refused(exc, "play this choice; nothing changed")
        await notify(table)
        return board_answer(await run_in_threadpool(board_or_why, table, seat))

    async def notify(table, chooser=None, reply=None) -> None:
        """Send every browser at the table its own new board (the chooser's says which choice it answers)."""
        for ws, seat in list(listeners.get(table.id, {}).items()):
            try:
                message, _ = await run_in_threadpool(board_or_why, table, seat)
                if ws is chooser:
                    message["reply"] = reply
                await ws.send_text(json.dumps(message, ensure_ascii=False))
            except Exception:   # a closed page: forget it
                listeners.get(table.id, {}).pop(ws, None)

    async def deny(ws: WebSocket, exc: GameError) -> None:
        """Refuse a websocket before it opens: an HTTP answer (403 for a wrong token) and nothing else."""
        try:
            await ws.send_denial_response(_error(str(exc), STATUS.get(exc.code, 400)))
        except RuntimeError:   # a server without the denial extension answers 403 to a close before accept
            await ws.close(code=1008)

    async def live(ws: WebSocket):
        try:
            table = await run_in_threadpool(table_of, ws.path_params["table"])
            seat = seat_of(table, ws.path_params["seat"], ws.query_params.get("token"))
        except GameError as exc:
            await deny(ws, exc)
            return
        await ws.accept()
        listeners.setdefault(table.id, {})[ws] = seat
        try:
            first, _ = await run_in_threadpool(board_or_why, table, seat)
            await ws.send_text(json.dumps(first, ensure_ascii=False))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                answer, at = await _answer(table, seat, message)
                if answer is None:
                    await notify(table, ws, at)
                else:
                    await ws.send_text(json.dumps(answer, ensure_ascii=False))
        except WebSocketDisconnect:
            pass
        finally:
            listeners.get(table.id, {}).pop(ws, None)

    async def _answer(table, seat, message) -> tuple:
        """Take one message from a page: (None, its 'at') once its choice is taken, else (why not, its 'at')."""
        text = message.get("text")
        if text is None:
            return {"error": "messages are text: " + USAGE}, None
        if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
            return {"error": f"a message is at most {MAX_MESSAGE} bytes"}, None
        try:
            spec = json.loads(text)
        except ValueError:
            return {"error": USAGE}, None
        if not isinstance(spec, dict) or "choose" not in spec:
            return {"error": USAGE}, None
        at = spec.get("at")
        if seat is None:
            return {"error": "an onlooker cannot choose", "reply": at}, at
        try:
            await run_in_threadpool(table.choose, seat, spec["choose"], at)
        except GameError as exc:
            # with the board as it is now: a page that answered an old decision sees the new one
            now, _ = await run_in_threadpool(board_or_why, table, seat)
            board = {"board": now["board"]} if "board" in now else {}   # none when the board itself fails
            return {**told(exc, "play this choice; nothing changed"), "reply": at, **board}, at
        except Exception as exc:   # a bug must not take the server down; the table is as it was
            logging.getLogger("rulebook.serve").exception("choice failed at table %s", table.id)
            return {"error": f"the server failed on this choice and changed nothing ({type(exc).__name__})",
                    "reply": at}, at
        return None, at

    routes = [
        Route("/", page),
        Route("/t/{table}/rules", table_rules),
        Route("/t/{table}/{seat}", play_page),
        Route("/rules/{name}", ruleset_rules),
        Route("/api/rulesets", list_rulesets),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table}/{seat}", get_board),
        Route("/api/tables/{table}/{seat}/choose", choose, methods=["POST"]),
        Route("/api/tables/{table}/{seat}/undo", undo, methods=["POST"]),
        Route("/api/tables/{table}/{seat}/rematch", rematch, methods=["POST"]),
        WebSocketRoute("/ws/{table}/{seat}", live),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    app.state.problems = problems
    return app


MAX_SEAT_SEARCHES = 2000   # ten times mcts's default
MAX_SEAT_SECONDS = 2.0
MAX_SEAT_STEPS = 100_000  # ten times mcts's default


def seat_problem(agent: str, rules) -> str | None:
    """Why a seat cannot be given to `agent` here, or None: a person (`human`) or a built-in bot with its
    settings (`mcts:iterations=100`); never a Python class named by a request (it would be imported)."""
    if agent.strip() == "human":
        return None
    try:
        spec = parse_spec(agent)
    except AgentSpecError as exc:
        return f"agent '{agent}': {exc}"
    if spec.user or spec.name == "human":
        return (f"agent '{agent}': a seat is human or a built-in bot (random, first, greedy, mcts, with "
                "settings such as mcts:iterations=100)")
    # a server shares its processors: a bot asked for by a request may search only so much per decision
    settings = dict(spec.options)
    searches = settings.get("iterations", 1) * settings.get("trials", 1) * settings.get("worlds", 1)
    seconds = settings.get("time", 0)
    if spec.name == "mcts" and settings.get("iterations") == 0 and not seconds:
        return (f"agent '{agent}': mcts with iterations=0 (no limit) needs a time per decision at this server: "
                "mcts:iterations=0:time=SECONDS")
    if searches > MAX_SEAT_SEARCHES or seconds > MAX_SEAT_SECONDS or settings.get("steps", 1) == 0 \
            or settings.get("steps", 0) > MAX_SEAT_STEPS:
        return (f"agent '{agent}': a bot at this server looks ahead at most {MAX_SEAT_SEARCHES} times (mcts's "
                f"iterations, greedy's trials x worlds), {MAX_SEAT_STEPS} decisions played (mcts's steps, 0 is no "
                f"limit) and {MAX_SEAT_SECONDS:g} seconds per decision")
    return agent_problem(spec, rules)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def told(exc: GameError, doing: str) -> dict:
    """A refusal as a page shows it: the message (`error`), and for an error of the ruleset's own text (one told
    at a place of it) the ruleset's line with a caret under the column (`source`), as the terminal shows it,
    the message saying that the ruleset, not the player, cannot `doing` ("play this choice; nothing changed")."""
    if exc.location is None:
        return {"error": str(exc)}
    out = {"error": f"the ruleset cannot {doing}: {exc}"}
    source = exc.source_lines()
    if source:
        out["source"] = source
    return out


def _refused(exc: GameError, doing: str) -> JSONResponse:
    return JSONResponse(told(exc, doing), status_code=STATUS.get(exc.code, 400))


def board_or_why(table, seat) -> tuple[dict, int]:
    """({"board": the seat's board}, 200), or why the ruleset cannot show it (its text fails making it: a
    label) with the HTTP status of that error."""
    try:
        return {"board": table.board(seat)}, 200
    except GameError as exc:
        return told(exc, "show this game"), STATUS.get(exc.code, 400)


def board_answer(answer: tuple[dict, int]) -> JSONResponse:
    """board_or_why's answer over HTTP: the board itself, or the error with its status."""
    message, status = answer
    return JSONResponse(message.get("board", message), status_code=status)
