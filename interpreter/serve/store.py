"""Games kept in SQLite: a table's start and each request's new choices -> rows; rows -> what rebuilds the games.

A game is stored as what replays it: the ruleset's source and fingerprint, the seed, the parameters,
the seats (agents, names, hashes of the seat tokens) and the list of option indexes chosen, plus a
digest of the position reached so that a replay that ends anywhere else is noticed. Each request's
choices are written in one transaction before the request is answered, so a server killed at any
moment comes back with every acknowledged choice and nothing half-written.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..runtime.values import encode

SCHEMA_VERSION = 2         # 2: the redeals of undos (a file of version 1 is read, and becomes 2)
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,        -- the ruleset's name
    source TEXT NOT NULL,         -- where it is loaded from: a bundled name or a file's absolute path
    fingerprint TEXT NOT NULL,    -- the ruleset's fingerprint when the game started
    seed INTEGER NOT NULL,
    players INTEGER NOT NULL,
    params TEXT NOT NULL,         -- JSON: the parameters given when it started
    agents TEXT NOT NULL,         -- JSON: each seat's agent ('human' for a person)
    names TEXT NOT NULL,          -- JSON: the seats' names
    tokens TEXT NOT NULL,         -- JSON: each seat's token hash (null for a bot's seat)
    ahead TEXT NOT NULL,          -- JSON: choices given ahead in a simultaneous decision, by seat
    moves INTEGER NOT NULL,       -- how many choices are stored
    version INTEGER NOT NULL,     -- how many requests changed it
    digest TEXT NOT NULL,         -- the position after those choices (see `digest`)
    over INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS choices (
    game TEXT NOT NULL,
    n INTEGER NOT NULL,
    choice INTEGER NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS redeals (
    game TEXT NOT NULL,
    at INTEGER NOT NULL,          -- the choices made when an undo dealt the cards again (engine/redeal.py)
    pairs TEXT NOT NULL,          -- JSON: [card, the card that took its place] ...
    seed TEXT NOT NULL            -- the generator's new seed (64 bits: kept as text)
);
"""


def default_path() -> Path:
    """Where games are kept unless told otherwise: rulebook/games.sqlite3 in the user's data directory."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulebook" / "games.sqlite3"


def digest(game) -> str:
    """A short hash of the position: zones, variables, turn, the random generator, the result and who is to
    choose among how many options. The narration and the engine's internal numbering are left out, so
    that the same position reached by a newer interpreter has the same digest."""
    g = game.state
    pending = None if g.pending is None else [int(g.pending[1]), len(g.pending[2])]
    facts = [[[int(c) for c in z] for z in g.zones], encode(g.vars), encode(g.pvars), encode(g.cvars),
             int(g.current), g.round, g.turn, list(g.rng.getstate()[1]), pending,
             None if g.result is None else [list(map(int, g.result.get("winners") or [])), g.result.get("reason")]]
    return hashlib.sha256(json.dumps(facts, default=str).encode()).hexdigest()[:32]


@dataclass
class Stored:
    """One stored game as read back."""

    id: str
    ruleset: str
    source: str
    fingerprint: str
    seed: int
    players: int
    params: dict
    agents: list
    names: list
    tokens: list
    ahead: dict
    version: int
    digest: str
    over: bool
    choices: list
    updated: float
    redeals: tuple = ()


class Store:
    """A SQLite file (or ':memory:') holding every game started here. Safe to use from several threads."""

    def __init__(self, path: str | os.PathLike = ":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.lock = threading.Lock()
        with self.lock:
            if self.path != ":memory:":
                self.db.execute("PRAGMA journal_mode=WAL")
            # a committed choice survives a crash of the machine, not only of the server
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA busy_timeout=5000")
            found = self.db.execute("PRAGMA user_version").fetchone()[0]
            if found > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"{self.path} holds games in a newer format ({found}) than this "
                                            f"rulebook reads ({SCHEMA_VERSION})")
            self.db.executescript(SCHEMA)
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def add(self, table, source: str) -> None:
        """Store a new game with the choices made before anyone was asked (bots that moved first)."""
        game, now = table.game, time.time()
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (table.id, table.rules.name, source, table.rules.fingerprint, table.seed, game.state.n,
                 json.dumps(table.params), json.dumps(table.agents), json.dumps(table.names),
                 json.dumps(table.token_hashes), json.dumps(_ahead(table.ahead)), len(game.state.history),
                 table.version, digest(game), int(game.is_over), now, now))
            self._append(table.id, game.state.history, 0)

    def save(self, table, stored_moves: int) -> None:
        """Store a request's new choices (those after the first `stored_moves`) and the table's new facts,
        all in one transaction: after it returns they survive a crash; if it fails, none of them is kept."""
        game = table.game
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._append(table.id, game.state.history[stored_moves:], stored_moves)
            changed = self.db.execute(
                "UPDATE games SET ahead=?, moves=?, version=?, digest=?, over=?, updated=? WHERE id=? AND moves=?",
                (json.dumps(_ahead(table.ahead)), len(game.state.history), table.version, digest(game),
                 int(game.is_over), time.time(), table.id, stored_moves)).rowcount
            if changed != 1:
                raise sqlite3.IntegrityError(f"game {table.id} is not stored with {stored_moves} choices")

    def undo(self, table, keep: int) -> None:
        """Store an undo: the choices after the first `keep` are dropped, the game's redeals are those of
        its state (the new one at `keep`); one transaction, like a choice."""
        game = table.game
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM choices WHERE game=? AND n>=?", (table.id, keep))
            self.db.execute("DELETE FROM redeals WHERE game=?", (table.id,))
            self.db.executemany("INSERT INTO redeals VALUES (?,?,?,?)",
                                [(table.id, at, json.dumps([list(p) for p in pairs]), str(seed))
                                 for at, pairs, seed in game.state.redeals])
            changed = self.db.execute(
                "UPDATE games SET ahead=?, moves=?, version=?, digest=?, over=?, updated=? WHERE id=?",
                (json.dumps(_ahead(table.ahead)), len(game.state.history), table.version, digest(game),
                 int(game.is_over), time.time(), table.id)).rowcount
            if changed != 1 or len(game.state.history) != keep:
                raise sqlite3.IntegrityError(f"game {table.id} cannot be taken back to {keep} choices")

    def _append(self, game_id: str, choices, first: int) -> None:
        self.db.executemany("INSERT INTO choices VALUES (?,?,?)",
                            [(game_id, first + i, int(c)) for i, c in enumerate(choices)])

    def load(self, game_id: str) -> Stored | None:
        with self.lock:
            row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                return None
            choices = [c for (c,) in self.db.execute("SELECT choice FROM choices WHERE game=? ORDER BY n",
                                                      (game_id,))]
            redeals = tuple((at, tuple(tuple(p) for p in json.loads(pairs)), int(seed)) for at, pairs, seed in
                            self.db.execute("SELECT at, pairs, seed FROM redeals WHERE game=? ORDER BY rowid",
                                            (game_id,)))
        stored = _stored(row, choices)
        stored.redeals = redeals
        return stored

    def source_of(self, game_id: str) -> str | None:
        """Where a stored game's ruleset is loaded from (a bundled name or a file), or None."""
        with self.lock:
            row = self.db.execute("SELECT source FROM games WHERE id=?", (game_id,)).fetchone()
        return row[0] if row else None

    def ids(self, unfinished_only: bool = False, limit: int | None = None) -> list[str]:
        """Game ids, the most recently played first."""
        sql = "SELECT id FROM games" + (" WHERE over=0" if unfinished_only else "") + " ORDER BY updated DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self.lock:
            return [i for (i,) in self.db.execute(sql)]

    def listing(self, limit: int = 50) -> list[dict]:
        """The most recently played games as the lobby lists them: never their tokens."""
        with self.lock:
            rows = self.db.execute("SELECT id, ruleset, players, params, agents, names, moves, over, updated "
                                   "FROM games ORDER BY updated DESC LIMIT ?", (limit,)).fetchall()
        return [{"table": i, "ruleset": r, "players": n, "params": json.loads(p), "agents": json.loads(a),
                 "names": json.loads(nm), "moves": m, "over": bool(o), "updated": u}
                for i, r, n, p, a, nm, m, o, u in rows]


def _ahead(ahead: dict) -> dict:
    return {str(seat): label for seat, label in ahead.items()}


def _stored(row, choices) -> Stored:
    (gid, ruleset, source, fingerprint, seed, players, params, agents, names, tokens, ahead, moves, version,
     dig, over, _created, updated) = row
    if len(choices) != moves:
        raise sqlite3.DatabaseError(f"game {gid} should have {moves} choices stored, not {len(choices)}")
    return Stored(gid, ruleset, source, fingerprint, seed, players, json.loads(params), json.loads(agents),
                  json.loads(names), json.loads(tokens), {int(k): v for k, v in json.loads(ahead).items()},
                  version, dig, bool(over), choices, updated)
