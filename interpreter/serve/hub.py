"""Games served to browsers: requests to start a game and choices by seat -> tables, stored and each seat's board.

The Hub owns every table; a table is addressed by its id and a seat by its number. A seat belongs to
whoever holds its token (given once, when the game starts; only its hash is kept). Each seat is shown
only its own board (present/board.py: its view, its narration, its options); an onlooker only what
every player may see. Every request that changes a game is stored (store.py) before it is answered,
and a request that fails changes nothing. The web layer only calls `create`, `get`, `listing`, `rematch` and the
tables' `allows`, `board`, `choose` and `undo`.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
import threading
import time

from ..agents import Request, make_agent
from ..engine.game import Game
from ..engine.redeal import choosers, undo
from ..errors import GameError, IllegalChoice, RulebookError
from ..present.board import board
from .store import Store, digest

MAX_TABLES = 200          # games kept in memory; finished ones make room (they stay stored)
MAX_BOT_MOVES = 100_000   # bot moves run in one request before a person must choose (a runaway guard)
MAX_REQUEST_SECONDS = 20.0   # and the time they may take: one request never holds a table (and a worker) longer
TOKEN_BYTES = 18          # 144 bits from `secrets` per seat token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Refused(GameError):
    """A request that is not allowed (no seat for this token); the web layer answers 403."""

    def __init__(self, message: str):
        super().__init__(message, "forbidden")


class Table:
    """One game: the ruleset, the game, who sits where, and choices given ahead in a simultaneous decision."""

    def __init__(self, table_id: str, rules, game: Game, agents: list[str], names: list[str], seed: int,
                 params: dict, token_hashes: list, store: Store):
        self.id, self.rules, self.game = table_id, rules, game
        self.agents = agents
        self.names = names
        self.seed = seed
        self.params = params
        self.token_hashes = token_hashes   # sha256 of each person's seat token; None for a bot's seat
        self.store = store
        self.bots = {i: make_agent(a, seed=seed * 1000 + i) for i, a in enumerate(agents) if a != "human"}
        self.ahead: dict = {}       # seat -> the label it chose before its turn in a simultaneous decision
        self.version = 0
        self.lock = threading.Lock()
        # a rematch of a game with several people: the new table, and each person's seat link in it (kept in
        # memory only, until that person asks for it; the store keeps only the hashes of tokens)
        self.next_table: str | None = None
        self.next_tokens: dict = {}

    @property
    def humans(self) -> list[int]:
        return [i for i, a in enumerate(self.agents) if a == "human"]

    def allows(self, seat: int, token) -> bool:
        """Whether `token` is seat `seat`'s (compared in constant time; a bot's seat has none)."""
        expected = self.token_hashes[seat] if 0 <= seat < len(self.token_hashes) else None
        given = token_hash(token) if isinstance(token, str) else ""
        # compare even when there is nothing to compare with, so that the time tells nothing
        same = hmac.compare_digest(given.encode(), (expected or "-" * 64).encode())
        return same and expected is not None

    def board(self, seat: int | None) -> dict:
        """What `seat` is shown (seat None: an onlooker), with the table's own facts."""
        with self.lock:
            b = board(self.game, seat, self.names)
            b["table"] = self.id
            b["version"] = self.version
            b["agents"] = list(self.agents)
            b["can_undo"] = self.can_undo(seat)
            b["rematch"] = self.next_table is not None
            if seat is not None and seat in self.ahead:
                b["chosen"] = self.ahead[seat]
                b["decision"] = None
            return b

    def choose(self, seat: int, index, at) -> None:
        """Seat `seat` picks option `index` of the decision numbered `at` (see Decision.asked_at); bots then
        play until a person must choose. Stored before it returns; on any failure nothing has changed."""
        with self.lock:
            if self.agents[seat] != "human":
                raise IllegalChoice(f"P{seat + 1} is played by a bot")
            if seat in self.ahead:
                raise IllegalChoice(f"P{seat + 1} has chosen already ({self.ahead[seat]}): waiting for the others")
            decision = next((d for d in self.game.decisions() if d.player == seat), None)
            if decision is None:
                raise IllegalChoice(f"P{seat + 1} has nothing to choose now"
                                    + (": the game is over" if self.game.is_over else ""))
            if type(at) is not int:
                raise IllegalChoice("a choice names the decision it answers: the 'at' of the board's decision")
            if at != decision.asked_at:
                raise IllegalChoice(f"that choice answers decision {at}, but decision {decision.asked_at} is the "
                                    "one open (taken already, or sent twice?): look at the board again")
            if type(index) is not int or not 0 <= index < len(decision.options):
                raise IllegalChoice(f"option {index!r} does not exist: choose 0 to {len(decision.options) - 1}")
            before, ahead, version = self.game.clone(), dict(self.ahead), self.version
            stored = len(self.game.state.history)
            try:
                if self.game.current_player == seat:
                    self.game.apply(index)
                else:
                    # a simultaneous decision: this seat's options are fixed; its choice waits for its turn
                    self.ahead[seat] = decision.options[index]
                self._advance()
                self.version += 1
                self._save(stored)
            except BaseException:
                self.game, self.ahead, self.version = before, ahead, version
                raise

    def can_undo(self, seat) -> bool:
        """Undo is for a game against bots, as at the terminal: one person at the table, who has chosen."""
        return (seat is not None and self.humans == [seat] and not self.game.is_over
                and bool(self.game.state.history))

    def undo(self, seat: int) -> None:
        """Take back this person's last choice and the bots' moves after it; the cards they cannot see are
        dealt again (engine/redeal.py: undoing never shows what a draw gives). Stored before it returns."""
        with self.lock:
            if self.agents[seat] != "human" or self.humans != [seat]:
                raise IllegalChoice("undo is for a game against bots, with one person at the table")
            if self.game.is_over:
                raise IllegalChoice("the game is over: start another one")
            mine = [i for i, p in enumerate(choosers(self.game)) if p == seat]
            if not mine:
                raise IllegalChoice("nothing to undo: you have not chosen yet")
            before, ahead, version = self.game, dict(self.ahead), self.version
            try:
                self.game = undo(self.game, mine[-1], seat)
                self.ahead = {}
                self.version += 1
                self.store.undo(self, mine[-1])
            except sqlite3.Error as exc:
                self.game, self.ahead, self.version = before, ahead, version
                raise GameError(f"the undo could not be stored ({exc}): nothing changed", "storage") from None
            except BaseException:
                self.game, self.ahead, self.version = before, ahead, version
                raise

    def _save(self, stored: int) -> None:
        try:
            self.store.save(self, stored)
        except sqlite3.Error as exc:
            raise GameError(f"the game could not be stored ({exc}): the choice was not taken", "storage") from None

    def _advance(self) -> None:
        """Play the bots' moves and the choices given ahead until a person has to choose or the game ends."""
        game = self.game
        deadline = time.monotonic() + MAX_REQUEST_SECONDS
        for _ in range(MAX_BOT_MOVES):
            if game.is_over:
                return
            if time.monotonic() > deadline:
                raise GameError(f"the bots played for more than {MAX_REQUEST_SECONDS:g} seconds without a person "
                                "choosing: the request was stopped and changed nothing", "runaway")
            p = game.current_player
            if p in self.bots:
                game.apply(self.bots[p].choose(Request(game, p)))
            elif p in self.ahead:
                label = self.ahead.pop(p)
                game.apply(game.decision.options.index(label))
            else:
                return
        raise GameError(f"the bots made {MAX_BOT_MOVES} moves without a person choosing", "runaway")


class Hub:
    """Every table, by id: those in memory, and those stored that are brought back when asked for.

    `resolve(source)` loads a ruleset from where a stored game says it came from (a bundled name or a
    file); a stored game whose ruleset changed since it started is not brought back: `broken` says why."""

    def __init__(self, store: Store | None = None, resolve=None):
        self.tables: dict[str, Table] = {}
        self.store = store if store is not None else Store()
        self.resolve = resolve
        self.broken: dict[str, str] = {}   # table id -> why it cannot continue
        self.lock = threading.Lock()

    def create(self, rules, players: int, agents: list[str], seed: int, params: dict | None = None,
               names: list[str] | None = None, source: str | None = None) -> tuple[Table, list]:
        """Start a game: `agents` gives each seat's agent ('human' for a person in a browser). Returns the
        table and each seat's token (None for a bot's seat): the only time the tokens are known."""
        params = dict(params or {})
        game = Game.new(rules, players, seed=seed, params=params)
        tokens = [secrets.token_urlsafe(TOKEN_BYTES) if a == "human" else None for a in agents]
        with self.lock:
            self._make_room()
            table_id = secrets.token_urlsafe(6)
            while table_id in self.tables or self.store.load(table_id) is not None:
                table_id = secrets.token_urlsafe(6)
            table = Table(table_id, rules, game, agents, list(names or []), seed, params,
                          [token_hash(t) if t else None for t in tokens], self.store)
            with table.lock:
                table._advance()
                try:
                    self.store.add(table, source or rules.name)
                except sqlite3.Error as exc:
                    raise GameError(f"the game could not be stored ({exc})", "storage") from None
            self.tables[table_id] = table
        return table, tokens

    def rematch(self, table: Table, seat: int) -> tuple[str, str]:
        """The next game of a finished table, like it (ruleset, seats, bots, names, parameters) on a new deal:
        made by the first person who asks, joined by the others; -> (its id, this seat's token in it). Each
        person gets their own seat's token once."""
        with table.lock:   # two people asking at once make one next game
            if not table.game.is_over:
                raise IllegalChoice("the game is not over")
            if table.agents[seat] != "human":
                raise IllegalChoice(f"P{seat + 1} is played by a bot")
            if table.next_table is None:
                new, tokens = self.create(table.rules, table.game.state.n, list(table.agents),
                                          int.from_bytes(os.urandom(4), "big"), dict(table.params), list(table.names),
                                          self.store.source_of(table.id))
                table.next_table = new.id
                table.next_tokens = {i: t for i, t in enumerate(tokens) if t is not None}
            token = table.next_tokens.pop(seat, None)
            if token is None:
                raise IllegalChoice("your seat in the next game was given already (its link was shown once)")
            return table.next_table, token

    def _make_room(self) -> None:
        if len(self.tables) < MAX_TABLES:
            return
        # the oldest finished table leaves memory (it stays stored); a server with only running games refuses
        done = [t for t in self.tables.values() if t.game.is_over]
        if not done:
            raise GameError(f"{MAX_TABLES} games are running here already", "too-many-games")
        del self.tables[done[0].id]

    def get(self, table_id: str) -> Table | None:
        """The table, brought back from storage if need be; None if there is none. A stored game that cannot
        continue raises a GameError (code 'cannot-continue') saying why."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken:
            raise GameError(self.broken[table_id], "cannot-continue")
        with self.lock:
            if table_id in self.tables:
                return self.tables[table_id]
            try:
                stored = self.store.load(table_id)
            except sqlite3.Error as exc:
                self.broken[table_id] = f"game {table_id} cannot continue: its stored record is damaged ({exc})"
                raise GameError(self.broken[table_id], "cannot-continue") from None
            if stored is None:
                return None
            problem = self._restore(stored)
            if problem is not None:
                self.broken[table_id] = problem
                raise GameError(problem, "cannot-continue")
            return self.tables[table_id]

    def restore_all(self) -> list[tuple[str, str]]:
        """Bring back the stored games still being played (the most recent first, as many as memory holds);
        returns (id, why) for each that cannot continue."""
        problems = []
        for table_id in self.store.ids(unfinished_only=True, limit=MAX_TABLES):
            try:
                self.get(table_id)
            except GameError as exc:
                problems.append((table_id, str(exc)))
        return problems

    def _restore(self, s) -> str | None:
        """Rebuild a stored game by replaying its choices; a reason instead if it would not be the same game."""
        where = f"game {s.id} ({s.ruleset})"
        try:
            rules = self.resolve(s.source) if self.resolve is not None else None
        except RulebookError as exc:
            return f"{where} cannot continue: its ruleset ({s.source}) does not load now: {str(exc).splitlines()[0]}"
        if rules is None:
            return f"{where} cannot continue: its ruleset ({s.source}) is not available here"
        if rules.fingerprint != s.fingerprint:
            return (f"{where} cannot continue: its ruleset ({s.source}) has changed since the game started, "
                    f"and replaying its choices could make a different game (put the old ruleset back to continue it)")
        try:
            if s.redeals:   # undos dealt cards again: replayed with them (engine/redeal.py)
                game = Game.rebuild(rules, s.players, s.seed, s.choices, rules.resolve_params(s.players, s.params),
                                    s.redeals)
            else:
                game = Game.replay(rules, s.players, s.seed, s.choices, s.params)
        except RulebookError as exc:
            return f"{where} cannot continue: its choices no longer replay: {exc}"
        if digest(game) != s.digest:
            return (f"{where} cannot continue: replaying its choices reaches a different position than was "
                    f"stored (this interpreter plays its ruleset differently)")
        self._make_room()
        table = Table(s.id, rules, game, s.agents, s.names, s.seed, s.params, s.tokens, self.store)
        table.ahead, table.version = dict(s.ahead), s.version
        self.tables[s.id] = table
        return None

    def listing(self, limit: int = 50) -> list[dict]:
        """The games here as anyone may see them: ruleset, seats (agents and names), progress; never a token."""
        out = self.store.listing(limit)
        for row in out:
            if row["table"] in self.broken:
                row["problem"] = self.broken[row["table"]]
        return out
