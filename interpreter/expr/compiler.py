"""Compile expression text -> a checked callable `f(game, env, it)`, resolving every name once at load."""
from __future__ import annotations

from dataclasses import dataclass, field

from lark import Tree

from ..engine.budget import MAX_NUMBER, over_items, too_large
from ..errors import did_you_mean
from . import runtime as R
from .functions import FUNCTIONS
from .parser import ExprError, _names_in, _offset, parse  # noqa: F401  (ExprError, parse: re-exported)

BUILTIN_NAMES = {
    "me": "player", "current": "player", "players": "players",
    "player_count": "int", "round": "int", "turn": "int",
}

ELEMENT = {"cards": "card", "players": "player", "groups": "cards"}
ENTITIES = {"card", "player"}
KIND_WORDS = {"card": "card", "player": "player", "int": "number", "str": "text", "bool": "true/false",
              "cards": "list of cards", "players": "list of players"}
LIST_OF = {"card": "cards", "player": "players"}


@dataclass
class Names:
    """Every name a ruleset defines, with where it lives in the game state."""

    card_attrs: dict = field(default_factory=dict)        # attribute -> list indexed by card id
    card_vars: dict = field(default_factory=dict)         # card variable -> its default value
    shared_zones: dict = field(default_factory=dict)      # name -> slot
    families: dict = field(default_factory=dict)          # name -> Zone: a shared family (row[0], stall["red"])
    player_zones: dict = field(default_factory=dict)      # name -> Zone: one zone per player (me.hand)
    player_families: dict = field(default_factory=dict)   # name -> Zone: a family per player (me.stall["red"])
    fixed_slots: int = 0                                   # slots before the per-player zones
    global_vars: set = field(default_factory=set)
    player_vars: set = field(default_factory=set)
    params: set = field(default_factory=set)
    visible: dict = field(default_factory=dict)          # variable -> public, owner or nobody
    functions: dict = field(default_factory=dict)        # the ruleset's own functions: name -> UserFunction
    used: set = field(default_factory=set)                 # (kind, name) pairs seen, for lint
    calling: list = field(default_factory=list)            # functions being compiled (to refuse recursion)
    expanded: int = 0                                      # calls of functions inlined in this expression

    def all_names(self) -> set:
        return (set(self.card_attrs) | set(self.card_vars) | set(self.shared_zones) | set(self.families)
                | set(self.player_zones) | set(self.player_families) | set(self.functions) | self.global_vars | self.player_vars | self.params | set(BUILTIN_NAMES) | set(FUNCTIONS))


@dataclass
class UserFunction:
    """A function of the ruleset (`functions:`): argument names and one expression, inlined where called."""

    name: str
    args: tuple
    text: str
    tree: object = None


@dataclass
class Scope:
    """What is bound where an expression sits: local names with their kinds, and the kind of `it`."""

    locals: dict = field(default_factory=dict)
    it: str | None = None

    def with_locals(self, **more) -> "Scope":
        return Scope({**self.locals, **more}, self.it)


def _finish(fn, kind: str, text: str, locals_used=frozenset()):
    """Label a compiled callable with its static kind, its source text and the local names it reads.

    The engine calls the function itself (`fn(game, env, it)`): no wrapper on the hot path.
    """
    fn.kind, fn.text, fn.locals_used, fn.loc = kind, text, frozenset(locals_used), None
    fn.uses_random = False
    fn.reads = frozenset()
    return fn


Compiled = object  # type name used in annotations: a function carrying .kind, .text, .locals_used


def compile_expr(text, names: Names, scope: Scope | None = None) -> Compiled:
    """Parse, name-check and compile one expression."""
    if isinstance(text, bool):
        return _finish(lambda g, e, it, v=text: v, "bool", str(text).lower())
    if isinstance(text, int):
        if abs(text) > 10**12:
            raise ExprError("number too large", 0, code="number-too-large")
        return _finish(lambda g, e, it, v=text: v, "int", str(text))
    tree = parse(text)
    scope = scope or Scope()
    if not names.calling:
        names.expanded = 0
    compiler = _Compiler(names, text)
    fn, kind = compiler.compile(tree, scope)
    fn = _finish(fn, kind, str(text), _locals_used(tree, scope))
    fn.uses_random = compiler.uses_random
    fn.reads = frozenset(compiler.reads)
    return fn


def compile_zone(text, names: Names, scope: Scope | None = None) -> Compiled:
    """Compile an expression that must name one zone (`deck`, `row[i]`, `me.hand`) to a slot number."""
    tree = parse(text)
    scope = scope or Scope()
    fn = _Compiler(names, text).zone_ref(tree, scope)
    return _finish(fn, "zone", str(text), _locals_used(tree, scope))


def _locals_used(tree, scope: Scope) -> set:
    return {n for n in _names_in(tree) if n in scope.locals}


def _uses_it(tree, names: Names, scope: Scope) -> bool:
    """Whether a tree reads the current item: `it` or a bare card attribute, outside nested per-item parts."""
    if not isinstance(tree, Tree):
        return False
    if tree.data == "name":
        n = str(tree.children[0])
        return n not in scope.locals and (n == "it" or n in names.card_attrs or n in names.card_vars)
    if tree.data == "where":
        return _uses_it(tree.children[0], names, scope)
    if tree.data == "call":
        fn = FUNCTIONS.get(str(tree.children[0]))
        per_item = fn.per_item if fn else ()
        return any(_uses_it(c, names, scope) for i, c in enumerate(tree.children[1:]) if i not in per_item)
    return any(_uses_it(c, names, scope) for c in tree.children)


def _filter_eq(g, items, table, value):
    w = g.work - len(items)   # every walk over a list pays its length (engine/budget.py)
    g.work = w
    if w < 0:
        raise over_items()
    return [x for x in items if table[x] == value]


def _filter_ne(g, items, table, value):
    w = g.work - len(items)
    g.work = w
    if w < 0:
        raise over_items()
    return [x for x in items if table[x] != value]


def _walked(g, xs, name):
    """A list a function or `where` walks over, paid for by its length; anything else is refused."""
    t = type(xs)
    if t is not list and t is not tuple:
        raise R.call_error(name, [xs])
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise over_items()
    return xs


# Functions whose cost grows with their first argument, a list: each call pays its length.
WALKS = {"sum", "min", "max", "distinct", "counts", "take", "drop", "reverse", "sort", "index_of", "sample"}
SCALAR_KINDS = {"int", "bool", "str", "player", "card", "none"}


RANDOM_FUNCTIONS = {"random", "sample"}
MAX_EXPANSIONS = 1000   # calls of the ruleset's functions inlined into one expression


class _Compiler:
    """Walks a parse tree; each grammar rule has a method of the same name returning (callable, kind)."""

    def __init__(self, names: Names, text: str):
        self.names, self.text = names, text
        self.uses_random = False
        self.reads = set()   # the variables read, (kind, name): a text that shows a private one is checked

    def fail(self, message: str, node, hint: str | None = None, code: str = "expr"):
        raise ExprError(message, _offset(node), hint, code)

    def compile(self, tree, scope: Scope):
        method = getattr(self, tree.data if isinstance(tree, Tree) else "token")
        return method(tree, scope)

    # literals -------------------------------------------------------------
    def int_(self, t, s):
        v = int(t.children[0])
        if v > 10**12:
            self.fail("number too large", t, code="number-too-large")
        return (lambda g, e, it: v), "int"

    def string(self, t, s):
        v = str(t.children[0])[1:-1]
        return (lambda g, e, it: v), "str"

    def true(self, t, s):
        return (lambda g, e, it: True), "bool"

    def false(self, t, s):
        return (lambda g, e, it: False), "bool"

    def none(self, t, s):
        return (lambda g, e, it: None), "none"

    def list_(self, t, s):
        parts = [self.compile(c, s) for c in t.children]
        fns = [p[0] for p in parts]
        kinds = {p[1] for p in parts}
        kind = LIST_OF.get(kinds.pop(), "list") if len(kinds) == 1 else "list"
        constants = [self._constant(c) for c in t.children]
        if all(c is not None for c in constants):
            # Nothing ever changes a list an expression returns (let and loops take copies): share one.
            value = [c[0] for c in constants]
            return (lambda g, e, it: value), kind
        return (lambda g, e, it: [f(g, e, it) for f in fns]), kind

    # names ----------------------------------------------------------------
    def name(self, t, s):
        name = str(t.children[0])
        n = self.names
        if name in s.locals:
            n.used.add(("local", name))
            return (lambda g, e, it: e[name]), s.locals[name]
        if name == "it":
            if s.it is None:
                self.fail("'it' is only defined inside 'where' or a per-item function argument", t,
                          code="unknown-name")
            return (lambda g, e, it: it), s.it
        if name == "me":
            return (lambda g, e, it: e["me"]), "player"
        if name == "current":
            return (lambda g, e, it: g.current), "player"
        if name == "players":
            return (lambda g, e, it: g.players), "players"
        if name == "player_count":
            return (lambda g, e, it: g.n), "int"
        if name == "round":
            return (lambda g, e, it: g.round), "int"
        if name == "turn":
            return (lambda g, e, it: g.turn), "int"
        if name in n.card_attrs and s.it in ("card", "any"):
            n.used.add(("attr", name))
            table = n.card_attrs[name]
            return (lambda g, e, it: table[it]), "any"
        if name in n.card_vars and s.it in ("card", "any"):
            n.used.add(("cvar", name))
            self.reads.add(("cvar", name))
            return (lambda g, e, it: g.cvars[name][it]), "any"
        if name in n.shared_zones:
            n.used.add(("zone", name))
            slot = n.shared_zones[name]
            return (lambda g, e, it: g.zones[slot]), "cards"
        if name in n.families:
            n.used.add(("zone", name))
            return _members(n.families[name]), "list"
        if name in n.global_vars:
            n.used.add(("var", name))
            self.reads.add(("var", name))
            return (lambda g, e, it: g.vars[name]), "any"
        if name in n.params:
            n.used.add(("param", name))
            return (lambda g, e, it: g.params[name]), "any"
        if name in n.player_zones or name in n.player_families:
            self.fail(f"'{name}' is a zone of each player: say whose, as in 'me.{name}' or 'current.{name}'",
                      t, code="unknown-name")
        if name in n.player_vars:
            self.fail(f"'{name}' is a variable of each player: say whose, as in 'me.{name}' "
                      f"(or 'it.{name}' inside 'where')", t, code="unknown-name")
        if name in n.card_attrs or name in n.card_vars:
            what = "card attribute" if name in n.card_attrs else "card variable"
            self.fail(f"'{name}' is a {what}: use it inside 'where' (as in 'me.hand where {name} == ...') "
                      f"or after a card (as in 'first(deck).{name}')", t, code="unknown-name")
        if name in FUNCTIONS:
            self.fail(f"'{name}' is a function: call it as {name}(...)", t, code="unknown-name")
        known = n.all_names() | set(s.locals) - set(FUNCTIONS)
        self.fail(f"unknown name '{name}'", t, did_you_mean(name, known), code="unknown-name")

    def attr(self, t, s):
        base_tree, tok = t.children
        name = str(tok)
        n = self.names
        base, kind = self.compile(base_tree, s)
        if name in n.card_attrs:
            if kind in ("player", "players", "int", "str", "bool"):
                self.fail(f"'{name}' is a card attribute, but this is a {kind}", tok, code="type")
            if kind in ("value", "values"):
                self.fail(f"'{name}' is a card attribute, but these are already attribute values, not cards",
                          tok, code="type")
            n.used.add(("attr", name))
            table = n.card_attrs[name]
            if kind == "card":
                def one_card_attr(g, e, it):
                    c = base(g, e, it)
                    return None if c is None else table[c]
                return one_card_attr, "value"

            def card_attr(g, e, it):
                v = base(g, e, it)
                if type(v) is list:
                    w = g.work - len(v)
                    g.work = w
                    if w < 0:
                        raise over_items()
                    return [table[c] for c in v]
                return None if v is None else table[v]
            return card_attr, ("values" if kind in ("cards", "list", "groups") else "any")
        if name in n.card_vars:
            if kind in ("player", "players", "int", "str", "bool", "value", "values"):
                self.fail(f"'{name}' is a card variable, but this is a {kind}", tok, code="type")
            n.used.add(("cvar", name))
            self.reads.add(("cvar", name))

            def card_var(g, e, it):
                v = base(g, e, it)
                table = g.cvars[name]
                if type(v) is list:
                    _walked(g, v, "." + name)
                    return [table[c] for c in v]
                return None if v is None else table[v]
            return card_var, ("values" if kind in ("cards", "list", "groups") else "any")
        if name in n.player_zones or name in n.player_families:
            if kind in ("card", "cards", "int", "str", "bool"):
                self.fail(f"'{name}' is a zone of each player, but this is a {kind}", tok, code="type")
            n.used.add(("zone", name))
            z = n.player_zones.get(name) or n.player_families[name]
            if name in n.player_families:
                return _player_members(z, base), ("list" if kind != "players" else "list")
            zid = z.zid
            if isinstance(base_tree, Tree) and base_tree.data == "name" and str(base_tree.children[0]) not in s.locals:
                who = str(base_tree.children[0])
                if who == "me":
                    return (lambda g, e, it: g.zones[g.zbase[zid] + e["me"]]), "cards"
                if who == "current":
                    return (lambda g, e, it: g.zones[g.zbase[zid] + g.current]), "cards"

            def player_zone(g, e, it):
                p = base(g, e, it)
                if type(p) is list:
                    return [g.zones[g.zbase[zid] + q] for q in p]
                return g.zones[g.zbase[zid] + p]
            return player_zone, ("list" if kind == "players" else "cards")
        if name in n.player_vars:
            if kind in ("card", "cards", "str", "bool"):
                self.fail(f"'{name}' is a variable of each player, but this is a {kind}", tok, code="type")
            n.used.add(("pvar", name))
            self.reads.add(("pvar", name))

            def player_var(g, e, it):
                p = base(g, e, it)
                table = g.pvars[name]
                if type(p) is list:
                    return [table[q] for q in p]
                return table[p]
            return player_var, "any"
        known = set(n.card_attrs) | set(n.card_vars) | set(n.player_zones) | set(n.player_families) | n.player_vars
        self.fail(f"unknown attribute '{name}'", tok, did_you_mean(name, known), code="unknown-name")

    def index(self, t, s):
        base_tree, idx_tree = t.children
        member = self._member_slot(base_tree, idx_tree, s)
        if member is not None:
            return (lambda g, e, it: g.zones[member(g, e, it)]), "cards"
        idx, _ = self.compile(idx_tree, s)
        base, kind = self.compile(base_tree, s)

        def index(g, e, it):
            return R.item(base(g, e, it), idx(g, e, it))
        return index, ELEMENT.get(kind, "any")

    def _member_slot(self, base_tree, idx_tree, s):
        """`row[i]` or `p.stall[key]`: a callable giving the slot of one member of a family, or None when
        the tree names no family."""
        n = self.names
        if not isinstance(base_tree, Tree):
            return None
        if base_tree.data == "name" and str(base_tree.children[0]) in n.families \
                and str(base_tree.children[0]) not in s.locals:
            z = n.families[str(base_tree.children[0])]
            n.used.add(("zone", z.name))
            member = _member_of(z, self.compile(idx_tree, s)[0])
            if z.slot >= 0:
                first = z.slot
                return lambda g, e, it: first + member(g, e, it)
            zid = z.zid
            return lambda g, e, it: g.zbase[zid] + member(g, e, it)
        if base_tree.data == "attr" and str(base_tree.children[1]) in n.player_families:
            z = n.player_families[str(base_tree.children[1])]
            p, kind = self.compile(base_tree.children[0], s)
            if kind not in ("player", "any", "int"):
                self.fail(f"'{z.name}' is a family of zones of each player, but this is a {kind}",
                          base_tree.children[1], code="type")
            n.used.add(("zone", z.name))
            member = _member_of(z, self.compile(idx_tree, s)[0])
            zid = z.zid
            return lambda g, e, it: g.zbase[zid] + member(g, e, it) * g.n + p(g, e, it)
        return None

    # operators ------------------------------------------------------------
    def neg(self, t, s):
        f, k = self.compile(t.children[0], s)
        self._number(k, t.children[0], "-")
        return (lambda g, e, it: -f(g, e, it)), "int"

    def _number(self, kind, node, op):
        """Arithmetic is on numbers: a player or a card is not one (their seat or id is not a value)."""
        if kind in ENTITIES or kind in ("str", "bool") and op != "+":
            self.fail(f"'{op}' needs numbers, but this is a {KIND_WORDS.get(kind, kind)}", node, code="kind")

    def binary(self, t, s):
        left, op, right = t.children
        a, ka = self.compile(left, s)
        b, kb = self.compile(right, s)
        op = str(op)
        if op != "+" or "int" in (ka, kb):
            self._number(ka, left, op)
            self._number(kb, right, op)
        if op == "+":
            kind = "int" if ka == kb == "int" else (ka if ka == kb else "any")
            if kind == "int":
                def add_numbers(g, e, it):
                    v = a(g, e, it) + b(g, e, it)
                    if -MAX_NUMBER <= v <= MAX_NUMBER:
                        return v
                    raise too_large(v)
                return add_numbers, kind
            return (lambda g, e, it: R.plus(g, a(g, e, it), b(g, e, it))), kind
        if op == "-":
            if ka == kb == "int":
                def subtract_numbers(g, e, it):
                    v = a(g, e, it) - b(g, e, it)
                    if -MAX_NUMBER <= v <= MAX_NUMBER:
                        return v
                    raise too_large(v)
                return subtract_numbers, "int"
            return (lambda g, e, it: R.minus(a(g, e, it), b(g, e, it))), "int"
        if op == "*":
            return (lambda g, e, it: R.times(a(g, e, it), b(g, e, it))), "int"
        if op == "/":
            return (lambda g, e, it: a(g, e, it) // b(g, e, it)), "int"
        return (lambda g, e, it: a(g, e, it) % b(g, e, it)), "int"

    def compare(self, t, s):
        left, op, right = t.children
        a, ka = self.compile(left, s)
        b, kb = self.compile(right, s)
        op = str(op)
        self._comparable(ka, kb, t)
        const = self._constant(right)
        if const is not None:
            v = const[0]
            ops = {"==": lambda g, e, it: a(g, e, it) == v, "!=": lambda g, e, it: a(g, e, it) != v,
                   "<": lambda g, e, it: a(g, e, it) < v, "<=": lambda g, e, it: a(g, e, it) <= v,
                   ">": lambda g, e, it: a(g, e, it) > v, ">=": lambda g, e, it: a(g, e, it) >= v}
            return ops[op], "bool"
        if op in ("==", "!="):
            if ka in SCALAR_KINDS or kb in SCALAR_KINDS:
                if op == "==":
                    return (lambda g, e, it: a(g, e, it) == b(g, e, it)), "bool"
                return (lambda g, e, it: a(g, e, it) != b(g, e, it)), "bool"
            # lists may be compared: their length is paid for
            if op == "==":
                return (lambda g, e, it: R.equal(g, a(g, e, it), b(g, e, it))), "bool"
            return (lambda g, e, it: not R.equal(g, a(g, e, it), b(g, e, it))), "bool"
        table = {
            "<": lambda g, e, it: a(g, e, it) < b(g, e, it),
            "<=": lambda g, e, it: a(g, e, it) <= b(g, e, it),
            ">": lambda g, e, it: a(g, e, it) > b(g, e, it),
            ">=": lambda g, e, it: a(g, e, it) >= b(g, e, it),
        }
        return table[op], "bool"

    @staticmethod
    def _constant(tree):
        """(value,) for a literal number or string, else None."""
        if isinstance(tree, Tree) and tree.data == "int_":
            return (int(tree.children[0]),)
        if isinstance(tree, Tree) and tree.data == "string":
            return (str(tree.children[0])[1:-1],)
        return None

    def _comparable(self, ka, kb, node):
        """A card, a player and a number are different things: comparing them is a mistake."""
        kinds = {ka, kb}
        if len(kinds) == 2 and kinds & ENTITIES and kinds <= ENTITIES | {"int", "str", "bool"}:
            self.fail(f"this compares a {KIND_WORDS[ka]} with a {KIND_WORDS[kb]}, which are never equal",
                      node, code="kind")

    def in_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        b, _ = self.compile(t.children[1], s)

        def in_op(g, e, it):
            x, xs = a(g, e, it), b(g, e, it)
            if type(xs) is list:
                w = g.work - len(xs)
                g.work = w
                if w < 0:
                    raise over_items()
                return x in xs
            return R.contains(g, x, xs)
        return in_op, "bool"

    def not_in_op(self, t, s):
        inside, _ = self.in_op(t, s)
        return (lambda g, e, it: not inside(g, e, it)), "bool"

    def and_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        b, _ = self.compile(t.children[1], s)
        return (lambda g, e, it: a(g, e, it) and b(g, e, it)), "bool"

    def or_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        b, _ = self.compile(t.children[1], s)
        return (lambda g, e, it: a(g, e, it) or b(g, e, it)), "bool"

    def not_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        return (lambda g, e, it: not a(g, e, it)), "bool"

    def cond(self, t, s):
        then_t, test_t, else_t = t.children
        a, ka = self.compile(then_t, s)
        c, _ = self.compile(test_t, s)
        b, kb = self.compile(else_t, s)
        return (lambda g, e, it: a(g, e, it) if c(g, e, it) else b(g, e, it)), (ka if ka == kb else "any")

    def where(self, t, s):
        src, kind = self.compile(t.children[0], s)
        if kind in ("int", "bool", "str", "none", "player", "card", "value"):
            self.fail(f"'where' filters a list, but this is a single {kind}", t.children[1], code="type")
        inner = Scope(s.locals, ELEMENT.get(kind, "any"))
        fused = self._fused_filter(src, t.children[1], inner)
        if fused is not None:
            return fused, (kind if kind in ("cards", "players") else "list")
        pred, _ = self.compile(t.children[1], inner)

        def where(g, e, it):
            xs = src(g, e, it)
            w = g.work - len(xs)
            g.work = w
            if w < 0:
                raise over_items()
            return [x for x in xs if pred(g, e, x)]
        return where, (kind if kind in ("cards", "players") else "list")

    def lambda_(self, t, s):
        self.fail("'name -> ...' names the item of a per-item argument (as in 'map(players, p -> p.score)'); "
                  "it is not allowed here", t, code="lambda")

    def _fused_test(self, pred_tree, inner: Scope):
        """For `attr == value` (or !=) where the value does not depend on the item: (table, op, value fn).

        The commonest test of card games (`suit == chosen`); fused, it costs one comparison per card
        instead of several calls, and the value is computed once per use, not once per card."""
        if not (isinstance(pred_tree, Tree) and pred_tree.data == "compare" and str(pred_tree.children[1]) in ("==", "!=")):
            return None
        if inner.it not in ("card", "any"):
            return None
        left, op, right = pred_tree.children
        for a, b in ((left, right), (right, left)):
            if isinstance(a, Tree) and a.data == "name":
                attr = str(a.children[0])
                if attr in self.names.card_attrs and attr not in inner.locals and not _uses_it(b, self.names, inner):
                    self.names.used.add(("attr", attr))
                    value, _ = self.compile(b, inner)
                    return self.names.card_attrs[attr], str(op), value
        return None

    def _fused_filter(self, src, pred_tree, inner: Scope):
        fused = self._fused_test(pred_tree, inner)
        if fused is None:
            return None
        table, op, value = fused
        if op == "==":
            return lambda g, e, it: _filter_eq(g, src(g, e, it), table, value(g, e, it))
        return lambda g, e, it: _filter_ne(g, src(g, e, it), table, value(g, e, it))

    def call(self, t, s):
        tok, *arg_trees = t.children
        name = str(tok)
        if name in self.names.functions:
            return self._user_call(self.names.functions[name], tok, arg_trees, s)
        if name == "keys":
            return self._keys(tok, arg_trees, s)
        fn = FUNCTIONS.get(name)
        if fn is None:
            self.fail(f"unknown function '{name}'", tok, did_you_mean(name, FUNCTIONS), code="unknown-function")
        if not fn.min_args <= len(arg_trees) <= fn.max_args:
            want = str(fn.min_args) if fn.min_args == fn.max_args else f"{fn.min_args} to {fn.max_args}"
            self.fail(f"{name}() takes {want} argument{'s' if fn.max_args != 1 else ''}, "
                      f"got {len(arg_trees)}", tok, code="arity")
        self.names.used.add(("function", name))
        if name in RANDOM_FUNCTIONS:
            self.uses_random = True
        args, kinds = [], []
        for i, a in enumerate(arg_trees):
            if i in fn.per_item:
                item_kind = ELEMENT.get(kinds[0], "any") if kinds else "any"
                if isinstance(a, Tree) and a.data == "lambda_":
                    name = str(a.children[0])
                    if name in s.locals or name in self.names.all_names():
                        self.fail(f"'{name}' is already a name here; choose another for the item", a.children[0],
                                  code="name-clash")
                    body, k = self.compile(a.children[1], Scope({**s.locals, name: item_kind}, item_kind))
                    args.append(("named", (name, body)))
                    kinds.append(k)
                    continue
                inner = Scope(s.locals, item_kind)
                if isinstance(a, Tree) and a.data == "name" and str(a.children[0]) in self.names.card_attrs \
                        and str(a.children[0]) not in s.locals and item_kind in ("card", "any"):
                    # A bare attribute per item (`groups(me.hand, suit)`): look it up directly.
                    self.names.used.add(("attr", str(a.children[0])))
                    args.append(("key", self.names.card_attrs[str(a.children[0])].__getitem__))
                    kinds.append("any")
                    continue
                fused = self._fused_test(a, inner)
                if fused is not None and fn.kind != "list":
                    args.append(("fused", fused))
                    kinds.append("bool")
                    continue
                f, k = self.compile(a, inner)
                args.append(("item", f))
            else:
                f, k = self.compile(a, s)
                args.append(("value", f))
            kinds.append(k)
        kind = fn.kind
        if kind == "groups":
            kind = "groups" if kinds and kinds[0] == "cards" else "list"
        elif kind == "same":
            kind = kinds[0] if kinds and kinds[0] in ("cards", "players") else "list"
        elif kind == "item":
            kind = ELEMENT.get(kinds[0], "any") if kinds else "any"
        return self._call(fn, args), kind

    def _keys(self, tok, arg_trees, s):
        """`keys(family)`: the keys of a family of zones (a keyed family's keys, or 0..N-1), in order."""
        n = self.names
        arg = arg_trees[0] if len(arg_trees) == 1 else None
        name = str(arg.children[0]) if isinstance(arg, Tree) and arg.data == "name" else None
        z = n.families.get(name) or n.player_families.get(name) if name not in s.locals else None
        if z is None:
            self.fail("keys() takes the name of a family of zones, as in keys(row) or keys(stall)", tok, code="arity")
        n.used.add(("zone", z.name))
        n.used.add(("function", "keys"))
        if z.keys is not None:
            keys = list(z.keys)
            return (lambda g, e, it: keys), "list"
        size = _size(z)
        return (lambda g, e, it: list(range(size(g)))), "list"

    def _user_call(self, uf, tok, arg_trees, s):
        """A call of one of the ruleset's functions: its body is compiled here, with the kinds of the
        arguments given, and runs with `me` and the arguments as its only local names."""
        if len(arg_trees) != len(uf.args):
            self.fail(f"{uf.name}() takes {len(uf.args)} argument{'s' if len(uf.args) != 1 else ''}, "
                      f"got {len(arg_trees)}", tok, code="arity")
        stack = self.names.calling
        if uf.name in stack:
            chain = " -> ".join(stack[stack.index(uf.name):] + [uf.name])
            self.fail(f"function '{uf.name}' calls itself ({chain}): a function cannot be recursive", tok,
                      code="recursion")
        self.names.used.add(("function", uf.name))
        self.names.expanded += 1
        if self.names.expanded > MAX_EXPANSIONS:
            # each call compiles the function's body again: calls that call others twice, nested,
            # would double at every level
            self.fail(f"the functions called here expand to more than {MAX_EXPANSIONS} calls "
                      f"(through {' -> '.join(stack + [uf.name]) if stack else uf.name})", tok, code="too-large")
        args = [self.compile(a, s) for a in arg_trees]
        body_scope = Scope({a: k for a, (_, k) in zip(uf.args, args)})
        stack.append(uf.name)
        try:
            inner = _Compiler(self.names, uf.text)
            body, kind = inner.compile(uf.tree, body_scope)
        except ExprError as exc:
            message = exc.message if exc.message.startswith("in function") else f"in function '{uf.name}': {exc.message}"
            self.fail(message, tok, exc.hint, code=exc.code)
        finally:
            stack.pop()
        self.uses_random = self.uses_random or inner.uses_random
        self.reads |= inner.reads
        fns = [f for f, _ in args]
        names = uf.args

        def user_call(g, e, it):
            env = {"me": e["me"]} if "me" in e else {}
            for n, f in zip(names, fns):
                env[n] = f(g, e, it)
            return body(g, env, None)
        return user_call, kind

    @staticmethod
    def _call(fn, args):
        impl, fname = fn.impl, fn.name
        if fn.needs_game:
            fs = [f for _, f in args]
            if fname in WALKS:
                f0, f1 = fs

                def call_walking_game(g, e, it):
                    return impl(g, _walked(g, f0(g, e, it), fname), f1(g, e, it))
                return call_walking_game
            if len(fs) == 1:
                f0 = fs[0]
                return lambda g, e, it: impl(g, f0(g, e, it))
            return lambda g, e, it: impl(g, *[f(g, e, it) for f in fs])
        if not fn.per_item:
            fs = [f for _, f in args]
            if fname in WALKS or fname == "range":
                return _walking_call(fn, fs)
            if len(fs) == 1:
                f0 = fs[0]
                return lambda g, e, it: impl(f0(g, e, it))
            return _walking_call(fn, fs)
        (_, src), (how, per) = args
        if how == "named":
            name, body = per

            def call_named(g, e, it):
                inner = dict(e)

                def item(x):
                    inner[name] = x
                    return body(g, inner, x)
                return impl(_walked(g, src(g, e, it), fname), item)
            return call_named
        if how == "key":
            def call_key(g, e, it):
                xs = src(g, e, it)
                w = g.work - len(xs)
                g.work = w
                if w < 0:
                    raise over_items()
                return impl(xs, per)
            return call_key
        if how == "fused":
            table, op, value = per
            if fname == "any" and op == "==":
                return lambda g, e, it: value(g, e, it) in [table[x] for x in _walked(g, src(g, e, it), fname)]
            if op == "==":
                def call_fused_eq(g, e, it):
                    v = value(g, e, it)
                    xs = src(g, e, it)
                    w = g.work - len(xs)
                    g.work = w
                    if w < 0:
                        raise over_items()
                    return impl(xs, lambda x: table[x] == v)
                return call_fused_eq

            def call_fused_ne(g, e, it):
                v = value(g, e, it)
                return impl(_walked(g, src(g, e, it), fname), lambda x: table[x] != v)
            return call_fused_ne

        def call_per_item(g, e, it):
            xs = src(g, e, it)
            w = g.work - len(xs)
            g.work = w
            if w < 0:
                raise over_items()
            return impl(xs, lambda x: per(g, e, x))
        return call_per_item

    # zones as places ------------------------------------------------------
    def zone_ref(self, t, s):
        """Compile a tree that must denote one zone into a callable giving its slot."""
        n = self.names
        if isinstance(t, Tree) and t.data == "name":
            name = str(t.children[0])
            if name in n.shared_zones and name not in s.locals:
                n.used.add(("zone", name))
                slot = n.shared_zones[name]
                return lambda g, e, it: slot
            if name in n.families:
                self.fail(f"'{name}' is a family of zones: say which one, as in '{name}[0]'", t, code="zone")
            if name in n.player_zones or name in n.player_families:
                self.fail(f"'{name}' is a zone of each player: say whose, as in 'me.{name}'", t, code="zone")
            zones = set(n.shared_zones) | set(n.families) | set(n.player_zones) | set(n.player_families)
            self.fail(f"unknown zone '{name}'", t, did_you_mean(name, zones), code="unknown-zone")
        if isinstance(t, Tree) and t.data == "index":
            slot = self._member_slot(t.children[0], t.children[1], s)
            if slot is not None:
                return slot
        if isinstance(t, Tree) and t.data == "attr":
            base_t, tok = t.children
            name = str(tok)
            if name in n.player_families:
                self.fail(f"'{name}' is a family of zones of each player: say which one, as in 'me.{name}[...]'",
                          tok, code="zone")
            if name in n.player_zones:
                p, kind = self.compile(base_t, s)
                if kind not in ("player", "any", "int"):
                    self.fail(f"'{name}' is a zone of each player, but this is a {kind}", tok, code="type")
                n.used.add(("zone", name))
                zid = n.player_zones[name].zid
                return lambda g, e, it: g.zbase[zid] + p(g, e, it)
            zones = set(n.player_zones) | set(n.player_families)
            self.fail(f"unknown zone '{name}'", tok, did_you_mean(name, zones), code="unknown-zone")
        self.fail("this is not a zone: write a zone name such as 'deck', 'row[i]' or 'me.hand'", t, code="zone")


def _walking_call(fn, fs):
    """A builtin that walks its first argument, a list: each call pays the list's length (a range pays
    for the list it makes); a sum stays within the cap of numbers."""
    impl, fname = fn.impl, fn.name
    if fname == "sum":
        f0 = fs[0]

        def call_sum(g, e, it):
            xs = _walked(g, f0(g, e, it), "sum")
            v = impl(xs)
            if type(v) is int and not -MAX_NUMBER <= v <= MAX_NUMBER:
                raise too_large(v)
            return v
        return call_sum
    if len(fs) == 1 and fname in WALKS:
        f0 = fs[0]

        def call_walking1(g, e, it):
            xs = f0(g, e, it)
            w = g.work - len(xs)
            g.work = w
            if w < 0:
                raise over_items()
            return impl(xs)
        return call_walking1
    if len(fs) == 2 and fname in WALKS:
        f0, f1 = fs

        def call_walking2(g, e, it):
            xs = f0(g, e, it)
            w = g.work - len(xs)
            g.work = w
            if w < 0:
                raise over_items()
            return impl(xs, f1(g, e, it))
        return call_walking2

    if fname == "range" and len(fs) == 1:
        f0 = fs[0]

        def call_range(g, e, it):
            v = impl(f0(g, e, it))
            w = g.work - len(v)   # what it made is paid for
            g.work = w
            if w < 0:
                raise over_items()
            return v
        return call_range

    def call(g, e, it):
        v = impl(*[f(g, e, it) for f in fs])
        if type(v) is list:   # a range: what it made is paid for
            w = g.work - len(v)
            g.work = w
            if w < 0:
                raise over_items()
        return v
    return call


def _size(z):
    """A family's number of members: fixed, or read from the game's layout."""
    if z.keys is not None or isinstance(z.count, int):
        k = z.size
        return lambda g: k
    zid = z.zid
    return lambda g: g.layout.size[zid]


def _member_of(z, idx):
    """The member number a key or index names in a family; a wrong one stops the game with its name."""
    name = z.name
    if z.keys is not None:
        table = {k: i for i, k in enumerate(z.keys)}
        shown = ", ".join(map(str, z.keys))

        def member(g, e, it):
            key = idx(g, e, it)
            m = table.get(key) if type(key) in (int, str) else None
            if m is None:
                raise IndexError(f"{name}[{key!r}] does not exist: the members of {name} are {shown}")
            return m
        return member
    size = _size(z)

    def numbered(g, e, it):
        i = idx(g, e, it)
        k = size(g)
        if type(i) is not int or not 0 <= i < k:
            raise IndexError(f"{name}[{i}] does not exist: {name} has {k} zones, numbered 0 to {k - 1}")
        return i
    return numbered


def _members(z):
    """A shared family as a value: the list of its zones."""
    if z.slot >= 0:
        first, k = z.slot, z.size
        return lambda g, e, it: g.zones[first:first + k]
    zid, size = z.zid, _size(z)

    def members(g, e, it):
        b = g.zbase[zid]
        return g.zones[b:b + size(g)]
    return members


def _player_members(z, base):
    """`p.stall`: the list of a player's zones of a family (for a list of players, a list of such lists)."""
    zid, size = z.zid, _size(z)

    def of(g, p):
        b, n = g.zbase[zid], g.n
        return [g.zones[b + m * n + p] for m in range(size(g))]

    def members(g, e, it):
        p = base(g, e, it)
        if type(p) is list:
            return [of(g, q) for q in p]
        return of(g, p)
    return members
