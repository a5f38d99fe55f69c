"""The compiled, ready-to-run form of a ruleset: cards, zones, parameters, node table and scoring."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .errors import GameError
from .layout import Layout, family_size
from .parameters import override_problem
from .runtime.operators import ERRORS, located


@dataclass
class Zone:
    """A zone definition: shared, a numbered family (`count`), or one per player; with its visibility."""

    name: str
    per_player: bool = False
    count: int | None = None
    visibility: object = "public"   # as written: a word, or {owner: level, others: level}
    ordered: bool = True
    refill_from: str | None = None
    text: str = ""
    slot: int = -1      # first slot of a shared zone or family
    index: int = -1     # position among the per-player zones
    owner_sees: str = "cards"    # cards, top, count or none: what the zone's owner is shown
    others_see: str = "cards"    # ... and what everyone else is shown (everyone, for a shared zone)
    keys: list | None = None     # a keyed family: its members' keys (count is then None)
    zid: int = -1                # position among the zones (in the game's layout)

    @property
    def is_family(self) -> bool:
        return self.keys is not None or self.count is not None

    @property
    def size(self) -> int:
        """The number of members when it is known at compile time (1 for a single zone)."""
        if self.keys is not None:
            return len(self.keys)
        return self.count if isinstance(self.count, int) else 1

    def member_keys(self, size: int) -> list:
        """The keys of the members: the keys given, 0..size-1 for a counted family, [None] for one zone."""
        if self.keys is not None:
            return list(self.keys)
        return list(range(size)) if self.count is not None else [None]

    def level(self, viewer: int, owner) -> str:
        """What `viewer` is shown of this zone (of `owner`'s copy, for a per-player zone)."""
        return self.owner_sees if owner is not None and owner == viewer else self.others_see


@dataclass
class Variable:
    """A declared variable: its starting value, who may see it, and whether statistics count it."""

    name: str
    value: object = 0
    visible: str = "public"   # public, owner (player variables only) or nobody
    counter: bool = False
    text: str = ""
    per_player: bool = False


@dataclass
class CardVariable:
    """A value every card carries during play: its default, whether it survives a change of zone, and
    whether it is seen with the card (`card`, the default) or by everyone (`public`)."""

    name: str
    value: object = None
    keep: bool = False
    visible: str = "card"
    text: str = ""


@dataclass
class Scoring:
    """Named score parts per player, summed into a total; ties broken by an ordered list of expressions."""

    parts: list = field(default_factory=list)         # [(name, Compiled)]
    tie_breakers: list = field(default_factory=list)  # [(text, Compiled)]
    values: object = None   # the parts' values as f(g, me) -> list: generated code (codegen/scoring.py)

    def score(self, game, g) -> list:
        values, names = self.values, [name for name, _ in self.parts]
        out = []
        for p in g.players:
            row = dict(zip(names, values(g, p)))
            row["total"] = sum(v for v in row.values() if isinstance(v, int) and not isinstance(v, bool))
            out.append(row)
        return out

    def rank(self, game, g, scores) -> tuple[list, bool]:
        """The players with the best total, then best tie-breakers; and whether a tie-breaker decided."""
        if not self.parts:
            return [], False
        breakers = [expr for _, expr in self.tie_breakers]
        values = interpreted_values(breakers)   # an error is told at its tie-breaker
        keys = {p: (scores[p]["total"],) + tuple(values(g, p)) for p in g.players}
        best_total = max(k[0] for k in keys.values())
        tied_on_total = [p for p in keys if keys[p][0] == best_total]
        try:
            best = max(keys.values())
        except TypeError:
            # told at the first tie-breaker whose values differ in kind (a number for one player, none for
            # another), else at the first one
            from .runtime.budget import describe
            i = next((i for i in range(1, len(breakers) + 1)
                      if len({type(k[i]) for k in keys.values()} - {bool}) > 1), 1)
            kinds = " and ".join(sorted({describe(k[i]) for k in keys.values()}))
            raise located(GameError(f"a tie-breaker compares values of one kind, not {kinds}", "kind"),
                          breakers[i - 1]) from None
        winners = [p for p in keys if keys[p] == best]
        return winners, len(tied_on_total) > 1 and len(winners) < len(tied_on_total)


def interpreted_values(exprs):
    """values(g, me): the list of the expressions' values for player `me`, in order."""
    def values(g, me):
        env, out = {"me": me}, []
        for expr in exprs:
            try:
                out.append(expr(g, env, None))
            except ERRORS as exc:
                raise located(exc, expr) from None
        return out
    return values


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
    card_values: tuple = ()        # Card(i) for every card id: the values zones hold
    pick_node: int = -1            # the node that asks for the items of subset arguments
    # the cards whose back tells which card they are: every card of their type is alike (same label and
    # attributes), so that nobody needs to see the face to know it (engine/view.py, told_format)
    by_back: frozenset = frozenset()
    # card id -> its face: cards alike (same label and attributes) share one, since nobody can tell them
    # apart by looking (engine/view.py, observation)
    faces: tuple = ()
    card_vars: dict = field(default_factory=dict)     # card variable -> CardVariable
    var_specs: dict = field(default_factory=dict)     # game and player variable -> Variable
    counters: list = field(default_factory=list)      # variables declared `counter: true`, for statistics
    param_choices: dict = field(default_factory=dict)  # parameter -> the values it may take
    param_texts: dict = field(default_factory=dict)
    default_agent: str | None = None   # the bots' agent when none is named
    evaluate: object = None            # how good a state is for `me` (greedy bots maximise it)
    warnings: list = field(default_factory=list)  # design lint: Diagnostics with severity "warning"
    names: object = None  # the expression names table, for tools that compile more expressions
    display: object = None  # what players see and how (compiler/display.py)

    def expression(self, text: str, **local_kinds):
        """Compile one more expression against this ruleset's names (tools, tests, scenario checks); the
        ruleset is not changed (what the expression uses is noted in a copy of the names)."""
        from .expr.compiler import Scope, compile_expr
        names = copy.copy(self.names)
        names.used, names.calling = set(), []
        return compile_expr(text, names, Scope(dict(local_kinds)))

    def __post_init__(self):
        if () not in self.blocks:
            self.blocks.append(())  # the block of a frame that only holds data (a simultaneous decision)
        self.reindex_blocks()
        self.generated = None   # the generated module (codegen/module.py), written while the ruleset compiles
        self.evaluation = None  # `evaluate` as generated code f(g, me) (codegen/scoring.py)
        # card variables that go back to their default when their card changes zone
        self.card_resets = tuple((name, spec.value) for name, spec in self.card_vars.items() if not spec.keep)
        # where the zones live at each player count with the parameters as written (a game whose
        # parameters change a family's size gets a layout of its own)
        self.layouts = {}
        for n in range(self.min_players, self.max_players + 1):
            try:
                params = self.resolve_params(n, {})
                self.layouts[self._layout_key(n, params)] = Layout(self, n, params)
            except GameError:
                continue   # a parameter without a value for n players: told when such a game starts

    def reindex_blocks(self) -> None:
        """Frames hold blocks themselves (one lookup less per effect); saving needs their numbers back."""
        self.block_index = {}
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

    @property
    def zone_list(self) -> list:
        """The zones in the order of the file (a zone's `zid` is its place here)."""
        return list(self.zones.values())

    def _layout_key(self, players: int, params: dict) -> tuple:
        return players, tuple(family_size(z, players, params) for z in self.zones.values())

    def layout(self, players: int, params: dict):
        """Where every zone lives in a game of this many players with these parameter values: one made when
        the ruleset was compiled, or (parameters that change a family's size) one made now."""
        found = self.layouts.get(self._layout_key(players, params))
        return found if found is not None else Layout(self, players, params)

    def slot_name(self, slot: int, layout) -> str:
        """A zone's name for people: 'deck', 'row 2' (counted families from 1), 'bin low', "P1's hand"."""
        z, p, key = layout.owner_of(slot)
        if z is None:
            return f"zone {slot}"
        name = z.name if key is None else f"{z.name} {key + 1 if z.count is not None else key}"
        return name if p is None else f"P{p + 1}'s {name}"

    def zone_slot(self, name: str, players: int, owner: int | None = None, index=0, params=None) -> int:
        """The state slot of a zone (for tests and tools): `index` is a member's number or key."""
        z = self.zones[name]
        layout = self.layout(players, params if params is not None else self.resolve_params(players, {}))
        member = z.keys.index(index) if z.keys is not None else index
        return layout.slot(z, owner, member)
