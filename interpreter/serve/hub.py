"""Games served to browsers: requests to start a game and choices by seat -> tables and each seat's board.

The Hub owns every table; a table is addressed by its id and a seat by its number. Each seat is
shown only its own board (present/board.py: its view, its narration, its options). Storage and seat
tokens can be added here without touching the web layer: the web layer only calls `create`, `get`,
`board` and `choose`.
"""
from __future__ import annotations

import secrets
import threading

from ..agents import Request, make_agent
from ..engine.game import Game
from ..errors import GameError, IllegalChoice
from ..present.board import board

MAX_TABLES = 200
MAX_BOT_MOVES = 100_000   # bot moves run in one go before the table waits for a person (a runaway guard)


class Table:
    """One game: the ruleset, the game, who sits where, and choices given ahead in a simultaneous decision."""

    def __init__(self, table_id: str, rules, game: Game, agents: list[str], names: list[str], seed: int):
        self.id, self.rules, self.game = table_id, rules, game
        self.agents = agents
        self.names = names
        self.seed = seed
        self.bots = {i: make_agent(a, seed=seed * 1000 + i) for i, a in enumerate(agents) if a != "human"}
        self.ahead: dict = {}       # seat -> the label it chose before its turn in a simultaneous decision
        self.version = 0
        self.lock = threading.Lock()

    @property
    def humans(self) -> list[int]:
        return [i for i, a in enumerate(self.agents) if a == "human"]

    def board(self, seat: int | None) -> dict:
        """What `seat` is shown (seat None: an onlooker), with the table's own facts."""
        with self.lock:
            b = board(self.game, seat, self.names)
            b["table"] = self.id
            b["version"] = self.version
            b["agents"] = list(self.agents)
            if seat is not None and seat in self.ahead:
                b["chosen"] = self.ahead[seat]
                b["decision"] = None
            return b

    def choose(self, seat: int, index: int) -> None:
        """Seat `seat` picks option `index` of its decision; bots then play until a person must choose."""
        with self.lock:
            if self.agents[seat] != "human":
                raise IllegalChoice(f"P{seat + 1} is played by a bot")
            decision = next((d for d in self.game.decisions() if d.player == seat), None)
            if decision is None:
                raise IllegalChoice(f"P{seat + 1} has nothing to choose now")
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(decision.options):
                raise IllegalChoice(f"option {index!r} does not exist: choose 0 to {len(decision.options) - 1}")
            if self.game.current_player == seat:
                self.game.apply(index)
            else:
                # a simultaneous decision: this seat's options are fixed; its choice waits for its turn
                self.ahead[seat] = decision.options[index]
            self._advance()
            self.version += 1

    def start(self) -> None:
        with self.lock:
            self._advance()

    def _advance(self) -> None:
        """Play the bots' moves and the choices given ahead until a person has to choose or the game ends."""
        game = self.game
        for _ in range(MAX_BOT_MOVES):
            if game.is_over:
                return
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
    """Every table being played, by id."""

    def __init__(self, default_ruleset: str | None = None):
        self.tables: dict[str, Table] = {}
        self.default_ruleset = default_ruleset
        self.lock = threading.Lock()

    def create(self, rules, players: int, agents: list[str], seed: int, params: dict | None = None,
               names: list[str] | None = None) -> Table:
        """Start a game: `agents` gives each seat's agent ('human' for a person in a browser)."""
        game = Game.new(rules, players, seed=seed, params=params or {})
        with self.lock:
            if len(self.tables) >= MAX_TABLES:
                # the oldest finished table makes room; a server with only running games refuses
                done = [t for t in self.tables.values() if t.game.is_over]
                if not done:
                    raise GameError(f"{MAX_TABLES} games are running here already", "too-many-games")
                del self.tables[done[0].id]
            table_id = secrets.token_urlsafe(6)
            table = Table(table_id, rules, game, agents, list(names or []), seed)
            self.tables[table_id] = table
        table.start()
        return table

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)
