"""Load test of `rulebook serve` on localhost: many games with bots, many simulated people on websockets.

Run: python benchmarks/bench_serve.py [games] [moves per person] [seconds at most]
(defaults 50, 20, 180). Starts `rulebook serve` in a process of its own with a fresh database in a
temporary folder, starts the games (half CuBirds with 3 seats, half Pit with 4; two people per game,
bots in the other seats), and connects one websocket client per person (100 for 50 games). Each
client answers its seat's decisions with random legal options until the people at its table have
made their moves (moves per person x people), its game is over or the time is up. Prints choices per second, the 50th and 99th percentile of the time from
sending a choice to its answer, refusals and errors (both should be 0), then stops the server and
checks that every game's stored choices replay to the position the server showed last.
Traffic goes only to 127.0.0.1; the run is bounded in moves and in time, and stops by itself.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402  (the web extra)

from interpreter import Game  # noqa: E402
from interpreter.bundled import bundled  # noqa: E402
from interpreter.present.board import board as board_of  # noqa: E402
from interpreter import load  # noqa: E402
from interpreter.serve.store import Store, digest  # noqa: E402

GAMES = [("cubirds", 3, ["human", "human"]), ("pit", 4, ["human", "human"])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, path: str, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def start_server(db: Path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    end = time.time() + 30
    while time.time() < end:
        try:
            call(base, "/api/rulesets")
            return proc, base, port
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("the server stopped: " + proc.stderr.read())
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


class Tally:
    def __init__(self):
        self.latencies: list[float] = []
        self.moves = 0
        self.at_table: dict = {}    # table -> the people's choices taken there
        self.refused: list[str] = []
        self.errors: list[str] = []


async def person(port: int, table: str, seat: int, token: str, target: int, deadline: float, seed: int,
                 tally: Tally) -> None:
    """One simulated person: answers its seat's decisions with random options, timing each answer, until
    the people at its table have made `target` choices between them (a person who stopped early would
    leave the others waiting for their turn), the game is over or the time is up."""
    rng = random.Random(seed)
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/{table}/{seat}?token={token}", max_size=2 ** 24) as ws:
            board = json.loads(await ws.recv())["board"]
            waiting = None     # (at, when sent) of the choice not answered yet
            while (tally.at_table[table] < target or waiting is not None) and time.time() < deadline:
                if waiting is None and board.get("decision") and not board.get("result"):
                    d = board["decision"]
                    waiting = (d["at"], time.perf_counter())
                    await ws.send(json.dumps({"choose": rng.randrange(len(d["options"])), "at": d["at"]}))
                if board.get("result") and waiting is None:
                    return
                try:
                    # wake now and then: the table's last choice may have been another person's
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.05, min(1.0, deadline - time.time())))
                except asyncio.TimeoutError:
                    continue
                message = json.loads(text)
                if "board" in message and message["board"]["version"] >= board.get("version", -1):
                    board = message["board"]
                if waiting is not None and message.get("reply") == waiting[0]:
                    tally.latencies.append(time.perf_counter() - waiting[1])
                    if "error" in message:
                        tally.refused.append(f"{table}/{seat}: {message['error']}")
                    else:
                        tally.moves += 1
                        tally.at_table[table] += 1
                    waiting = None
                elif "error" in message:
                    tally.errors.append(f"{table}/{seat}: {message['error']}")
            if waiting is not None:
                tally.errors.append(f"{table}/{seat}: no answer in time")
    except Exception as exc:   # a dropped connection or a bad frame is an error of the run
        tally.errors.append(f"{table}/{seat}: {type(exc).__name__}: {exc}")


def check_replays(db: Path, finals: dict) -> list[str]:
    """Every stored game, replayed from its choices, reaches the stored digest and the board the server
    showed last to an onlooker."""
    store = Store(db)
    problems = []
    rules = {}
    for table_id in store.ids():
        s = store.load(table_id)
        r = rules.setdefault(s.source, load(str(bundled()[s.source])))
        game = Game.replay(r, s.players, s.seed, s.choices, s.params)
        if digest(game) != s.digest:
            problems.append(f"{table_id}: the replay reaches another position than stored")
        shown = dict(finals[table_id])
        for extra in ("table", "version", "agents"):
            shown.pop(extra, None)
        if json.loads(json.dumps(board_of(game, None, s.names))) != shown:
            problems.append(f"{table_id}: the replay differs from what the server showed")
    store.close()
    return problems


async def run(games: int, moves: int, seconds: float) -> int:
    folder = Path(tempfile.mkdtemp(prefix="rulebook-bench-"))
    db = folder / "games.sqlite3"
    proc, base, port = start_server(db)
    try:
        tables = []
        for i in range(games):
            name, players, agents = GAMES[i % len(GAMES)]
            tables.append(call(base, "/api/tables", {"ruleset": name, "players": players, "agents": agents, "seed": i}))
        people = [(t["table"], int(s["seat"][1:]), s["token"]) for t in tables for s in t["seats"] if "token" in s]
        tally = Tally()
        tally.at_table = {t["table"]: 0 for t in tables}
        seats = {t["table"]: sum("token" in s for s in t["seats"]) for t in tables}
        deadline = time.time() + seconds
        started = time.perf_counter()
        await asyncio.gather(*(person(port, table, seat, token, moves * seats[table], deadline, k, tally)
                               for k, (table, seat, token) in enumerate(people)))
        wall = time.perf_counter() - started
        finals = {t["table"]: call(base, f"/api/tables/{t['table']}/watch") for t in tables}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    with sqlite3.connect(db) as con:
        stored = con.execute("SELECT count(*) FROM choices").fetchone()[0]
    problems = check_replays(db, finals)
    lat = sorted(tally.latencies)
    p = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
    print(f"games: {games} ({', '.join(f'{n} x{-(-games // len(GAMES))}' for n, _, _ in GAMES)}), "
          f"people on websockets: {len(people)}, choices per game: {moves} per person")
    # the machine's load tells how far the figures are the server's own (a shared machine slows it)
    print(f"wall time: {wall:.1f} s (of at most {seconds:.0f}); load average at the end: "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"people's choices taken: {tally.moves} (asked for: {len(people) * moves}) ({tally.moves / wall:.0f}/s); "
          f"all choices stored, bots' included: {stored} ({stored / wall:.0f}/s over the run)")
    print(f"time from a choice to its answer: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, "
          f"max {p(1.0):.1f} ms, mean {statistics.mean(lat) * 1000 if lat else float('nan'):.1f} ms")
    print(f"refused choices: {len(tally.refused)}; errors: {len(tally.errors)}")
    for line in (tally.refused + tally.errors)[:10]:
        print("  " + line)
    print(f"stored choices replayed to the server's last position: {games - len(problems)} of {games} games")
    for line in problems[:10]:
        print("  " + line)
    return 1 if tally.errors or tally.refused or problems else 0


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 180
    sys.exit(asyncio.run(run(games, moves, seconds)))


if __name__ == "__main__":
    main()
