"""The compiled, ready-to-run form of a ruleset: cards, zones, parameters, node table and scoring."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import GameError
from .parameters import override_problem


@dataclass
class Zone:
    """A zone definition: shared, a numbered family (`count`), or one per player; with its visibility."""

    name: str
    per_player: bool = False
    count: int | None = None
    visibility: str = "public"
    ordered: bool = True
    refill_from: str | None = None
    text: str = ""
    slot: int = -1      # first slot of a shared zone or family
    index: int = -1     # position among the per-player zones


@dataclass
class Scoring:
    """Named score parts per player, summed into a total; ties broken by an ordered list of expressions."""

    parts: list = field(default_factory=list)         # [(name, Compiled)]
    tie_breakers: list = field(default_factory=list)  # [(text, Compiled)]

    def score(self, game, g) -> list:
        out = []
        for p in range(g.n):
            env = {"me": p}
            row = {name: expr(g, env, None) for name, expr in self.parts}
            row["total"] = sum(v for v in row.values() if isinstance(v, int) and not isinstance(v, bool))
            out.append(row)
        return out

    def rank(self, game, g, scores) -> tuple[list, bool]:
        """The players with the best total, then best tie-breakers; and whether a tie-breaker decided."""
        if not self.parts:
            return [], False
        keys = {}
        for p in range(g.n):
            env = {"me": p}
            keys[p] = (scores[p]["total"],) + tuple(expr(g, env, None) for _, expr in self.tie_breakers)
        best_total = max(k[0] for k in keys.values())
        tied_on_total = [p for p in keys if keys[p][0] == best_total]
        best = max(keys.values())
        winners = [p for p in keys if keys[p] == best]
        return winners, len(tied_on_total) > 1 and len(winners) < len(tied_on_total)


@dataclass
class Ruleset:
    """Everything the engine needs, compiled once; shared read-only by every game of this ruleset."""

    name: str
    title: str
    text: str
    sources: list
    min_players: int
    max_players: int
    params: dict
    cards: list
    card_labels: list
    card_attrs: dict
    zones: dict
    fixed_slots: int
    player_zone_names: list
    initial_cards: dict
    global_vars: dict
    player_vars: dict
    actions: dict
    scoring: Scoring
    turn_limit: int
    nodes: list
    blocks: list
    game_block: int
    steps_node: int
    turn_loop_node: int
    fingerprint: str
    path: str = ""
    data: dict = field(default_factory=dict)
    param_choices: dict = field(default_factory=dict)  # parameter -> the values it may take
    param_texts: dict = field(default_factory=dict)
    default_agent: str | None = None   # the bots' agent when none is named
    evaluate: object = None            # how good a state is for `me` (greedy bots maximise it)
    warnings: list = field(default_factory=list)  # design lint: Diagnostics with severity "warning"
    names: object = None  # the expression names table, for tools that compile more expressions

    def expression(self, text: str, **local_kinds):
        """Compile one more expression against this ruleset's names (tools, tests, scenario checks)."""
        from .expr.compiler import Scope, compile_expr
        return compile_expr(text, self.names, Scope(dict(local_kinds)))

    def __post_init__(self):
        # Frames hold blocks themselves (one lookup less per effect); saving needs their numbers back.
        self.block_index = {}
        if () not in self.blocks:
            self.blocks.append(())  # the block of a frame that only holds data (a simultaneous decision)
        for i, block in enumerate(self.blocks):
            self.block_index.setdefault(id(block), i)

    def resolve_params(self, players: int, overrides: dict) -> dict:
        """Parameter values for this player count, with overrides applied by name (checked as a
        variant's values are: the name, the kind of value, the choices)."""
        values = dict(self.params)
        for name, value in overrides.items():
            problem = override_problem(name, value, self.params, self.param_choices)
            if problem is not None:
                message, hint = problem
                raise GameError(message + (f"; {hint}" if hint else ""), "parameter")
            values[name] = value
        out = {}
        for name, value in values.items():
            if isinstance(value, dict):
                if players not in value:
                    raise GameError(f"parameter '{name}' has no value for {players} players", "parameter")
                value = value[players]
            out[name] = value
        return out

    def zone_slot(self, name: str, players: int, owner: int | None = None, index: int = 0) -> int:
        """The state slot of a zone (for tests and tools)."""
        z = self.zones[name]
        if z.per_player:
            return self.fixed_slots + z.index * players + owner
        return z.slot + index
