"""`rulebook serve` keeps its games in SQLite: stored before answered, brought back after a restart or a
SIGKILL, and a game whose ruleset changed is reported, never replayed into a different game."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from starlette.testclient import TestClient

from helpers import ROOT
from interpreter import Game
from interpreter.serve.app import create_app
from interpreter.serve.store import default_path, digest


def start(client, **spec) -> dict:
    r = client.post("/api/tables", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def bearer(t, seat: int) -> dict:
    return {"Authorization": "Bearer " + t["seats"][seat - 1]["token"]}


def board(client, t, seat) -> dict:
    r = client.get(f"/api/tables/{t['table']}/{seat}", headers=bearer(t, seat) if seat != "watch" else {})
    assert r.status_code == 200, r.text
    return r.json()


def choose(client, t, seat: int, index: int = 0) -> dict:
    at = board(client, t, seat)["decision"]["at"]
    r = client.post(f"/api/tables/{t['table']}/{seat}/choose", json={"index": index, "at": at},
                    headers=bearer(t, seat))
    assert r.status_code == 200, r.text
    return r.json()


def read_back(path, table_id):
    """The choices and the digest stored for a game, read by a connection of its own (as after a crash)."""
    db = sqlite3.connect(path)
    try:
        choices = [c for (c,) in db.execute("SELECT choice FROM choices WHERE game=? ORDER BY n", (table_id,))]
        (dig,) = db.execute("SELECT digest FROM games WHERE id=?", (table_id,)).fetchone()
        return choices, dig
    finally:
        db.close()


def test_the_default_place_follows_xdg_data_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "rulebook" / "games.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "rulebook" / "games.sqlite3"


def test_each_choice_is_stored_before_it_is_answered(tmp_path):
    path = tmp_path / "games.sqlite3"
    client = TestClient(create_app("cubirds", db=path))
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=3)
    table = client.app.state.hub.get(t["table"])
    for _ in range(12):
        answered = choose(client, t, 1)
        choices, dig = read_back(path, t["table"])
        assert choices == table.game.state.history and dig == digest(table.game)
        # and the stored choices alone rebuild that position
        assert digest(Game.replay(table.rules, 2, t["seed"], choices)) == dig
        if answered.get("result"):
            break


def test_a_restarted_server_serves_every_game_from_the_same_point(tmp_path):
    path = tmp_path / "games.sqlite3"
    first = TestClient(create_app("cubirds", db=path))
    games = [start(first, ruleset="cubirds", players=2, agents=["human", "first"], seed=4),
             start(first, ruleset="pit", players=3, agents=["human", "human", "first"], seed=5),
             start(first, ruleset="forehead-poker", players=3, agents=["human", "random"], seed=6)]
    for t in (games[0], games[2]):
        for _ in range(3):
            b = board(first, t, 1)
            if b["decision"] and b["decision"]["now"]:
                choose(first, t, 1)
    # Pit: a person chooses ahead in a simultaneous decision; the choice waits, stored with the game
    pit = games[1]
    later = next(s for s in (1, 2) if board(first, pit, s)["decision"] and not board(first, pit, s)["decision"]["now"])
    assert choose(first, pit, later, 0)["chosen"]
    seats = [(t, s) for t in games for s in [i + 1 for i, x in enumerate(t["seats"]) if "token" in x] + ["watch"]]
    before = [board(first, t, s) for t, s in seats]
    first.app.state.hub.store.close()

    again = TestClient(create_app("cubirds", db=path))
    assert again.app.state.problems == []
    assert [board(again, t, s) for t, s in seats] == before
    # and every game goes on
    for t in games:
        seat = next(s for s in (1, 2) if "token" in t["seats"][s - 1] and (board(again, t, s)["decision"] or {}).get("now"))
        assert choose(again, t, seat)["version"] == before[seats.index((t, seat))]["version"] + 1


def test_a_changed_ruleset_is_reported_and_never_replayed(tmp_path):
    rules_path = tmp_path / "my-game.yaml"
    original = (ROOT / "rulesets" / "cubirds.yaml").read_text()
    rules_path.write_text(original.replace("name: cubirds", "name: my-game", 1))
    path = tmp_path / "games.sqlite3"
    client = TestClient(create_app(str(rules_path), db=path))
    t = start(client, ruleset="my-game", players=2, agents=["human", "first"], seed=7)
    for _ in range(3):
        choose(client, t, 1)
    stored = read_back(path, t["table"])
    shown = board(client, t, 1)
    client.app.state.hub.store.close()

    # a comment changes nothing the game is made of: the game goes on
    text = rules_path.read_text()
    rules_path.write_text("# a note\n" + text)
    client = TestClient(create_app(str(rules_path), db=path))
    assert client.app.state.problems == [] and board(client, t, 1) == shown
    client.app.state.hub.store.close()

    # a changed rule: reported at start, to the seat's page and in the lobby; the stored game is untouched
    changed = text.replace("title: CuBirds", "title: CuBirds (house rules)", 1)
    assert changed != text
    rules_path.write_text(changed)
    client = TestClient(create_app(str(rules_path), db=path))
    why = (f"game {t['table']} (my-game) cannot continue: its ruleset ({rules_path}) has changed since the game "
           "started, and replaying its choices could make a different game (put the old ruleset back to continue it)")
    assert client.app.state.problems == [(t["table"], why)]
    r = client.get(f"/api/tables/{t['table']}/1", headers=bearer(t, 1))
    assert r.status_code == 409 and r.json() == {"error": why}
    r = client.post(f"/api/tables/{t['table']}/1/choose", json={"index": 0, "at": shown["decision"]["at"]},
                    headers=bearer(t, 1))
    assert r.status_code == 409
    assert [g["problem"] for g in client.get("/api/tables").json()] == [why]
    assert read_back(path, t["table"]) == stored
    client.app.state.hub.store.close()

    # the file gone: reported the same way
    rules_path.unlink()
    bundled_only = TestClient(create_app(None, db=path))
    (gid, problem), = bundled_only.app.state.problems
    assert gid == t["table"] and problem.startswith(f"game {t['table']} (my-game) cannot continue: its ruleset "
                                                    f"({rules_path}) does not load now")
    bundled_only.app.state.hub.store.close()


def test_a_replay_that_reaches_another_position_is_reported(tmp_path):
    """An interpreter that plays the same ruleset differently: the stored digest no longer matches."""
    path = tmp_path / "games.sqlite3"
    client = TestClient(create_app(None, db=path))
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=8)
    choose(client, t, 1)
    client.app.state.hub.store.close()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE games SET digest='0' WHERE id=?", (t["table"],))
    db.close()
    client = TestClient(create_app(None, db=path))
    assert client.app.state.problems == [(t["table"], f"game {t['table']} (cubirds) cannot continue: replaying its "
                                          "choices reaches a different position than was stored (this interpreter "
                                          "plays its ruleset differently)")]


def _newer(path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()


@pytest.mark.parametrize("prepare,name,error", [
    (_newer, "games.sqlite3", "{path}: cannot keep games there: {path} holds games in a newer format (99) than this "
                              "rulebook reads (2)"),
    (lambda path: path.write_text("not a database " * 100), "games.sqlite3",
     "{path}: cannot keep games there: file is not a database"),
    (lambda path: path.parent.parent.joinpath("file").write_text("x"), "file/games.sqlite3",
     "{path}: cannot keep games there: File exists ({folder})"),
])
def test_a_database_that_cannot_be_used_is_refused_clearly(tmp_path, prepare, name, error):
    path = tmp_path / name
    prepare(path)
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), "serve", "--db", str(path), "--port", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == "Error: " + error.format(path=path, folder=path.parent) + "\n"


# a real server killed with SIGKILL -------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`rulebook serve` in a process of its own."""

    def __init__(self, db):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--port", str(self.port),
                                      "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, text=True)
        end = time.time() + 30
        while time.time() < end:
            try:
                with urllib.request.urlopen(self.base + "/api/rulesets", timeout=2):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise AssertionError("the server stopped: " + self.proc.stdout.read())
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def call(self, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        req = urllib.request.Request(self.base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def board(self, t, seat):
        return self.call(f"/api/tables/{t['table']}/{seat}", token=t["seats"][seat - 1]["token"])

    def choose(self, t, seat, board):
        return self.call(f"/api/tables/{t['table']}/{seat}/choose",
                         {"index": 0, "at": board["decision"]["at"]}, t["seats"][seat - 1]["token"])

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


def test_a_server_killed_mid_game_comes_back_with_every_game_where_it_was(tmp_path):
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        games = [server.call("/api/tables", {"ruleset": "cubirds", "players": 2, "agents": ["human", "first"], "seed": 1}),
                 server.call("/api/tables", {"ruleset": "pit", "players": 3, "agents": ["human", "first"], "seed": 2}),
                 server.call("/api/tables", {"ruleset": "cubirds", "players": 3, "agents": ["human", "random"],
                                             "seed": 3})]
        quiet = games[:2]
        for t in quiet:
            for _ in range(4):
                b = server.board(t, 1)
                if b["decision"] and b["decision"]["now"]:
                    server.choose(t, 1, b)
        # the last game is being played while the server is killed: its last answer and the one in flight
        busy = games[2]
        answered = []

        def play():
            try:
                b = server.board(busy, 1)
                while b["decision"]:
                    b = server.choose(busy, 1, b)
                    answered.append(b)
            except (OSError, urllib.error.URLError, ConnectionError):
                pass   # the server is gone
        player = threading.Thread(target=play)
        player.start()
        end = time.time() + 20
        while len(answered) < 5 and time.time() < end:
            time.sleep(0.01)
        before = [server.board(t, 1) for t in quiet]
        server.kill()
        player.join(timeout=30)
        assert len(answered) >= 5
    finally:
        if server.proc.poll() is None:
            server.kill()

    again = Server(db)
    try:
        assert [again.board(t, 1) for t in quiet] == before
        now = again.board(busy, 1)
        last = answered[-1]
        # every answered choice is there; the one in flight is there too or not at all
        assert now["version"] in (last["version"], last["version"] + 1)
        if now["version"] == last["version"]:
            assert now == last
        for t in games:
            b = again.board(t, 1)
            after = again.choose(t, 1, b)
            assert after["version"] == b["version"] + 1
        # a frame far over the limit closes only its own socket (1009: too big); the server goes on
        t = games[0]
        before = again.board(t, 1)
        assert asyncio.run(send_oversized(again.port, t)) == 1009
        assert again.board(t, 1) == before
    finally:
        again.kill()


async def send_oversized(port, t) -> int:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    async with connect(f"ws://127.0.0.1:{port}/ws/{t['table']}/1?token={t['seats'][0]['token']}",
                       max_size=2 ** 24) as ws:
        json.loads(await ws.recv())
        await ws.send("x" * (200 * 1024))
        try:
            while True:
                await asyncio.wait_for(ws.recv(), timeout=20)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None
