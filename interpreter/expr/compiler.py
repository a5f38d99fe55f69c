"""Compile expression text -> checked Python source -> a callable `f(game, env, it)`, names resolved once at load.

Each grammar rule has a method that checks its part of the tree (names, kinds, arity; located
errors) and returns the Python source of that part with its static kind. `compile_expr` turns the
source into one function; code generation (interpreter/codegen) emits the same trees again inside
larger generated functions, with local names as Python variables (see `emit_expr`)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from lark import Tree

from ..errors import did_you_mean
from ..runtime.budget import MAX_LIST, MAX_NUMBER, MAX_TEXT
from ..runtime.table import GLOBALS
from ..runtime.values import ELEMENT
from .emit import Namespace, build, key, local_name
from .functions import FUNCTIONS, MAX_RANGE
from .parser import ExprError, _names_in, _offset, parse  # noqa: F401  (ExprError, parse: re-exported)

BUILTIN_NAMES = {
    "me": "player", "current": "player", "players": "players",
    "player_count": "int", "round": "int", "turn": "int",
}

ENTITIES = {"card", "player"}
KIND_WORDS = {"card": "card", "player": "player", "int": "number", "str": "text", "bool": "true/false",
              "cards": "list of cards", "players": "list of players", "values": "list of values",
              "groups": "list of lists", "number": "number"}
LIST_OF = {"card": "cards", "player": "players"}
# "number": what a variable that always holds a whole number is read as (compiler/ruleset.py, held_kinds): a
# number for arithmetic and `+`, but also a seat wherever a player is expected (a seat number is a player)
NUMBERS = ("int", "number")


def element_kind(kind: str, numbers: bool) -> str:
    """The kind of one item of a list of kind `kind`: a number where the list is known to hold whole numbers
    only (a range, a list of numbers), which its kind alone does not tell."""
    item = ELEMENT.get(kind, "any")
    return "int" if item == "any" and numbers else item


def item_kind(fn) -> str:
    """The kind of one item of the list a compiled expression gives (`fn.numbers`: whole numbers only)."""
    return element_kind(fn.kind, getattr(fn, "numbers", False))


def a_kind(kind: str) -> str:
    """A static kind in words, with its article, for an error: 'a number', 'a list of players', 'true/false'."""
    words = KIND_WORDS.get(kind, kind)
    return words if kind in ("bool", "none") else f"a {words}"


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
    param_values: dict = field(default_factory=dict)     # parameter -> every value it may take (tables, choices)
    param_kinds: dict = field(default_factory=dict)      # parameter -> the kind all its values have, if one
    visible: dict = field(default_factory=dict)          # variable -> public, owner or nobody
    assigned: dict = field(default_factory=dict)         # (var, pvar or cvar, name) -> kinds its `set`s assign
    var_kinds: dict = field(default_factory=dict)        # (var, pvar or cvar, name) -> the kind it always holds
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
    path: tuple | None = None   # where its expression is written (for an error inside it)


@dataclass
class Scope:
    """What is bound where an expression sits: local names with their kinds, and the kind of `it`.

    For generated code, `py` gives the Python source that reads a name (a local of the generated
    function; by default a name is read from the environment, `e['name']`) and `it_var` the Python
    name of the current item."""

    locals: dict = field(default_factory=dict)
    it: str | None = None
    py: dict = field(default_factory=dict)
    it_var: str = "it"
    other: object = None   # for names not in py: a function giving their Python source (else e['name'])

    def with_locals(self, **more) -> "Scope":
        return Scope({**self.locals, **more}, self.it, self.py, self.it_var, self.other)


Compiled = object  # type name used in annotations: a function carrying .kind, .text, .locals_used


def _finish(fn, kind: str, text: str, locals_used=frozenset(), tree=None, scope=None, zone=False):
    """Label a compiled function with its static kind, its source text, the local names it reads, and the
    checked tree it came from (code generation emits it again inside larger functions).

    The engine calls the function itself (`fn(game, env, it)`): no wrapper on the hot path.
    """
    fn.kind, fn.text, fn.locals_used, fn.loc = kind, text, frozenset(locals_used), None
    fn.uses_random = False
    fn.reads = frozenset()
    fn.tree, fn.scope, fn.zone = tree, scope, zone
    return fn


def _literal_function(value, kind, text):
    """A YAML number or true/false given where an expression belongs."""
    fn = _finish(lambda g, e, it: value, kind, text)
    fn.constant = (value,)
    return fn


def _function(src: str, ns: Namespace, name: str = "expr"):
    """One generated function `name(g, e, it)` returning `src`, with the helper functions it calls."""
    source = "".join(ns.defs) + f"def {name}(g, e, it):\n    return {src}\n"
    fn = build(source, ns, "<rulebook expression>", remember=False)[name]
    fn.source = source
    return fn


def new_namespace() -> Namespace:
    return Namespace(GLOBALS)


def compile_expr(text, names: Names, scope: Scope | None = None) -> Compiled:
    """Parse, name-check and compile one expression."""
    if isinstance(text, bool):
        return _literal_function(text, "bool", str(text).lower())
    if isinstance(text, int):
        if abs(text) > 10**12:
            raise ExprError("number too large", 0, code="number-too-large")
        return _literal_function(text, "int", str(text))
    tree = parse(text)
    scope = scope or Scope()
    if not names.calling:
        names.expanded = 0
    compiler = _Compiler(names, text, new_namespace())
    src, kind = compiler.compile(tree, scope)
    fn = _finish(_function(src, compiler.ns), kind, str(text), _locals_used(tree, scope), tree, scope)
    fn.uses_random = compiler.uses_random
    fn.reads = frozenset(compiler.reads)
    # a list of whole numbers: an argument chosen from it is a number (compiler/effects.py, EffectCompiler.choice)
    fn.numbers = id(tree) in compiler.numbers
    return fn


def compile_zone(text, names: Names, scope: Scope | None = None) -> Compiled:
    """Compile an expression that must name one zone (`deck`, `row[i]`, `me.hand`) to a slot number."""
    tree = parse(text)
    scope = scope or Scope()
    compiler = _Compiler(names, text, new_namespace())
    src = compiler.zone_ref(tree, scope)
    return _finish(_function(src, compiler.ns), "zone", str(text), _locals_used(tree, scope), tree, scope, zone=True)


def emit_quantifier(fn, names: Names, ns: Namespace, py: dict, subst=None):
    """When the whole expression is `any(xs, test)` or `all(xs, test)` with a test written per item (not one
    of the short forms): (the function's name, the item's variable, the test's source, the source of the
    list walked), for a condition written as a loop that stops where the generator would (no generator made
    and called, which costs more than the tests of a short list); else None. Emitted as `emit_expr` would."""
    if getattr(fn, "constant", None) is not None or fn.zone:
        return None
    compiler, src, _ = _emit(fn, names, ns, py, "it", subst, None, None, None, None)
    return compiler.quantified.get(src)


def emit_expr(fn, names: Names, ns: Namespace, py: dict, it_var: str = "it", subst=None, tree=None,
              with_kind: bool = False, other=None, tally=None, known=None):
    """The Python source of a compiled expression again, inside generated code: names in `py` are read
    from the Python variables given there (`other(name)` gives the others), the item from `it_var`;
    constants go to `ns`. `subst` maps
    parts of the tree (by id) to variables already holding their values (with their kinds); `tree`
    emits one part of the expression instead of the whole; `tally` (option listings, where nothing
    changes while they run): (a part of `subst`, an attribute's table) -> the source of the part's values
    counted by that table, computed once, or None (see _Compiler._tallied_count). `known`: Python variables
    whose every possible value is known at load (an applied option's argument chosen from a constant list),
    -> those values as a tuple: an index of a family that every one of them names is used without a check;
    or -> GROUP, a variable holding one of the groups R_groups_of made (an argument chosen from them).

    The tree was checked when it was first compiled: emitting it again runs the same checks, which
    pass."""
    if getattr(fn, "constant", None) is not None:
        value = fn.constant[0]
        src = repr(value) if type(value) in (int, bool) else ns.const(value)
        return (src, fn.kind) if with_kind else src
    _, src, kind = _emit(fn, names, ns, py, it_var, subst, tree, other, tally, known)
    return (src, kind) if with_kind else src


def _emit(fn, names, ns, py, it_var, subst, tree, other, tally, known):
    """emit_expr's work: (the compiler that wrote it, the source, its kind)."""
    scope = fn.scope
    if not names.calling:
        names.expanded = 0
    inner = Scope(scope.locals, scope.it, {**scope.py, **py}, it_var, other)
    compiler = _Compiler(names, fn.text, ns)
    compiler.subst = subst or {}
    compiler.tally = tally
    compiler.known = known or {}
    target = fn.tree if tree is None else tree
    compiler.skip = id(tree) if tree is not None else None
    if fn.zone and tree is None:
        return compiler, compiler.zone_ref(target, inner), "zone"
    src, kind = compiler.compile(target, inner)
    return compiler, src, kind


def kind_of_values(values) -> str:
    """The static kind every one of these values has (a parameter's, a variable's start): int, str, bool or
    list; any when they differ or are none."""
    kinds = {"bool" if type(v) is bool else "int" if type(v) is int else "str" if type(v) is str else
             "list" if type(v) is list else "any" for v in values}
    return kinds.pop() if len(kinds) == 1 else "any"


def has_tree(fn) -> bool:
    """Whether code generation can write a compiled expression again (it kept its checked tree)."""
    return getattr(fn, "tree", None) is not None or getattr(fn, "constant", None) is not None


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


def _empty_list(tree) -> bool:
    """Whether a tree is the literal `[]`."""
    return isinstance(tree, Tree) and tree.data == "list_" and not tree.children


def simple(src: str) -> bool:
    """Source that reads a variable or a literal: cheap, and the same when read twice."""
    return src.isidentifier() or src.isdigit() or (src.startswith("e[") and src.count("[") == 1)


def one_call(src: str) -> bool:
    """Whether source is one call and nothing after it (its first parenthesis closes at its end)."""
    depth = 0
    for i, ch in enumerate(src):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(src) - 1
    return False


def walked_source(src: str) -> str:
    """An assignment expression may not sit in a comprehension's iterable (not even inside a lambda): the
    inline checks of `capped` there become calls of R_number."""
    while ":=" in src:
        start = src.index(" := ")
        var = src[src.rindex("(", 0, start) + 1:start]
        head = f"({var} if -R_MAX <= ({var} := "
        tail = f") <= R_MAX else R_too_large({var}))"
        i = src.index(head)
        j = src.index(tail, i)
        src = src[:i] + "R_number(" + src[i + len(head):j] + ")" + src[j + len(tail):]
    return src


class _Group:
    """What `known` (see emit_expr) holds for a Python variable whose every value is one group of
    `groups(xs, attr)` written as R_groups_of or R_zone_groups: a non-empty list, no item of which is None (each was looked up
    in an attribute's table, which takes no None). `first(v).attr` and `last(v).attr` of it need no check."""

    def __repr__(self) -> str:
        return "GROUP"


GROUP = _Group()


def _call_of(node, name: str):
    """The node when it is a call of the function `name`, else None."""
    return node if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name else None


GROUPS_CALLS = ("R_groups_of", "R_zone_groups")   # groups(xs, attr) of any list, and of a zone's cards


def _groups_call(src: str):
    """The call of R_groups_of or R_zone_groups that generated source is (walked or not), else None."""
    if "R_groups_of(" not in src and "R_zone_groups(" not in src:
        return None
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None
    walk = _call_of(node, "R_walk")
    node = walk.args[1] if walk is not None and len(walk.args) == 2 else node
    return _call_of(node, GROUPS_CALLS[0]) or _call_of(node, GROUPS_CALLS[1])


def zone_slot_of(src: str):
    """The slot's source when generated source reads one zone's cards (`g.zones[...]` and nothing more), else
    None."""
    if not src.startswith("g.zones[") or not src.endswith("]"):
        return None
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "zones"
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "g"):
        return None   # not the zone itself: `g.zones[0][1]`, `g.zones[0] + g.zones[1]`
    return src[len("g.zones["):-1]


def is_groups_call(src: str) -> bool:
    """Whether generated source is one call of R_groups_of or R_zone_groups (walked or not): its values are
    groups (GROUP)."""
    return _groups_call(src) is not None


def chosen_from_groups(domain, names: Names, ns: Namespace) -> bool:
    """Whether a choice's argument is chosen from `groups(xs, attr)` (R_groups_of, R_zone_groups; a compiled domain):
    every value it takes is then a group (GROUP)."""
    return getattr(domain, "tree", None) is not None and is_groups_call(emit_expr(domain, names, ns, {"me": "me"}))


def walked(src: str) -> str:
    """The source of a list walked over, paid for by its length from the step's budget (runtime/budget.py);
    groups made by R_groups_of or R_zone_groups pay their walk there, in the same order, without a call more."""
    if src.startswith(("R_groups_of(g, ", "R_zone_groups(g, ")) and len(getattr(_groups_call(src), "args", ())) == 3:
        return f"{src[:-1]}, True)"
    return f"R_walk(g, {walked_source(src)})"


COUNT_MAX = max(MAX_LIST, MAX_TEXT)   # what count() can return: a list or a text is capped so


def bound(tree, subst=None):
    """The largest absolute value a number written as this tree can take, when the tree alone proves it
    (literals, counts, and -, +, *, /, % and `if ... else` of those); None when it cannot tell (a
    variable, a parameter, an attribute: what `set`, `--param` or a card may make any size). Arithmetic
    whose operands are bounded so that the result stays within MAX_NUMBER needs no check that it does."""
    if not isinstance(tree, Tree):
        return None
    data, kids = tree.data, tree.children
    if data == "call" and str(kids[0]) == "count":
        return COUNT_MAX   # written another way where it is substituted, it is still a count
    if subst and id(tree) in subst:
        return None
    if data == "int_":
        return abs(int(kids[0]))
    if data == "neg":
        return bound(kids[0], subst)
    if data == "cond":
        a, b = bound(kids[0], subst), bound(kids[2], subst)
        return None if a is None or b is None else max(a, b)
    if data == "binary":
        a, b = bound(kids[0], subst), bound(kids[2], subst)
        if a is None or b is None:
            return None
        op = str(kids[1])
        return a + b if op in "+-" else a * b if op == "*" else a if op == "/" else b
    return None


def capped(src: str, ns) -> str:
    """Integer arithmetic inline, checked against the cap of numbers (a call only when it is past it)."""
    v = ns.fresh("v")
    return f"({v} if -R_MAX <= ({v} := {src}) <= R_MAX else R_too_large({v}))"


# the cards of a zone read without computing anything: a shared zone, or a player's of `me` or of the current player
ZONE_READ = re.compile(r"g\.zones\[(\d+|g\.zbase\[\d+\] \+ (me|g\.current))\]")
_MEMBERS = re.compile(r"g\.zones\[(\d+):(\d+)\]")   # the source of a family of a fixed size (see _members)
_KEPT = re.compile(r"g\.(params|vars)\[('\w+')\]")   # a value kept by the game (read by the helper, see call)
_COUNT_VALUES = re.compile(r"R_count_values\(g, (\w+, len\(\w+\))\)")   # counts(...) of cards counted once
# the source of `xs where it OP value` whose value reads no item and cannot fail (a number, a parameter, a
# variable of the game, a name): counted by R_count_compared (see call)
_COMPARED = re.compile(r"\[(?P<x>_x\d+) for (?P=x) in R_walk\(g, (?P<xs>.+)\) if \((?P=x) (?P<op><=|>=|<|>|==|!=) "
                       r"(?P<value>-?\d+|\(-\d+\)|[A-Za-z_]\w*|g\.(?:params|vars)\['\w+'\])\)\]")
# the source of `cards.attr` (see attr)
_ATTRS = re.compile(r"\[(?P<table>A_\w+)\[(?P<item>_c\d+)\] for (?P=item) in R_walk\(g, (?P<cards>.+)\)\]")
_END_OF = re.compile(r"F_(first|last)\((.+)\)")   # the source of first(xs) or last(xs)
RANDOM_FUNCTIONS = {"random", "sample"}
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
# Functions whose cost grows with their first argument, a list: each call pays its length.
WALKS = {"sum", "min", "max", "distinct", "counts", "take", "drop", "reverse", "sort", "index_of", "sample"}
SCALAR_KINDS = {"int", "bool", "str", "player", "card", "none"}
LIST_KINDS = {"cards", "players", "list", "values", "groups"}
MAX_EXPANSIONS = 1000   # calls of the ruleset's functions inlined into one expression
SHARED_RANGE = 64   # a range of at most this many numbers known at load is a constant list


class _Compiler:
    """Walks a parse tree; each grammar rule has a method of the same name returning (source, kind)."""

    subst: dict = {}   # parts of the tree already computed into variables (see emit_expr)
    skip = None
    tally = None       # in an option listing: (part, table) -> the source of its tally, or None (_tallied_count)

    def __init__(self, names: Names, text: str, ns: Namespace):
        self.names, self.text, self.ns = names, text, ns
        self.uses_random = False
        self.reads = set()   # the variables read, (kind, name): a text that shows a private one is checked
        self.numbers = set()   # id of each tree whose value is a list of whole numbers (a range, [1, n])
        self.plain_attrs = set()   # id of each tree that reads a card attribute with no list among its values
        self.zone_items = {}   # the source of `zone[i]` written inline -> (the zone's source, i) (see index)
        self.quantified = {}   # the source of `any`/`all` with a test per item -> its parts (see emit_quantifier)
        self.known = {}   # a Python variable -> every value it can hold, known at load (see emit_expr)

    def fail(self, message: str, node, hint: str | None = None, code: str = "expr"):
        raise ExprError(message, _offset(node), hint, code)

    def compile(self, tree, scope: Scope):
        if self.subst and id(tree) in self.subst and id(tree) != self.skip:
            return self.subst[id(tree)]
        method = getattr(self, tree.data if isinstance(tree, Tree) else "token")
        return method(tree, scope)

    # literals -------------------------------------------------------------
    def int_(self, t, s):
        v = int(t.children[0])
        if v > 10**12:
            self.fail("number too large", t, code="number-too-large")
        return repr(v), "int"

    def string(self, t, s):
        v = str(t.children[0])[1:-1]
        return self.ns.const(v, "S_" + v if v.isidentifier() else "S_text"), "str"

    def true(self, t, s):
        return "True", "bool"

    def false(self, t, s):
        return "False", "bool"

    def none(self, t, s):
        return "None", "none"

    def list_(self, t, s):
        parts = [self.compile(c, s) for c in t.children]
        kinds = {p[1] for p in parts}
        if kinds == {"int"}:
            self.numbers.add(id(t))
        kind = LIST_OF.get(kinds.pop(), "list") if len(kinds) == 1 else "list"
        constants = [self._constant(c) for c in t.children]
        if all(c is not None for c in constants):
            # Nothing ever changes a list an expression returns (let and loops take copies): share one.
            return self.ns.const([c[0] for c in constants], "K_list"), kind
        return "[" + ", ".join(p[0] for p in parts) + "]", kind

    # names ----------------------------------------------------------------
    def local(self, name: str, s: Scope) -> str:
        found = s.py.get(name)
        if found is not None:
            return found
        return s.other(name) if s.other is not None else f"e[{key(name)}]"

    def name(self, t, s):
        name = str(t.children[0])
        n = self.names
        if name in s.locals:
            n.used.add(("local", name))
            return self.local(name, s), s.locals[name]
        if name == "it":
            if s.it is None:
                self.fail("'it' is only defined inside 'where' or a per-item function argument", t,
                          code="unknown-name")
            return s.it_var, s.it
        if name == "me":
            return self.local("me", s), "player"
        if name == "current":
            return "g.current", "player"
        if name == "players":
            return "g.players", "players"
        if name == "player_count":
            return "g.n", "int"
        if name == "round":
            return "g.round", "int"
        if name == "turn":
            return "g.turn", "int"
        if name in n.card_attrs and s.it in ("card", "any"):
            n.used.add(("attr", name))
            return f"{self.table(name)}[{s.it_var}]", "any"
        if name in n.card_vars and s.it in ("card", "any"):
            n.used.add(("cvar", name))
            self.reads.add(("cvar", name))
            return f"g.cvars[{key(name)}][{s.it_var}]", n.var_kinds.get(("cvar", name), "any")
        if name in n.shared_zones:
            n.used.add(("zone", name))
            return f"g.zones[{int(n.shared_zones[name])}]", "cards"
        if name in n.families:
            n.used.add(("zone", name))
            return self._members(n.families[name]), "list"
        if name in n.global_vars:
            n.used.add(("var", name))
            self.reads.add(("var", name))
            return f"g.vars[{key(name)}]", n.var_kinds.get(("var", name), "any")
        if name in n.params:
            n.used.add(("param", name))
            return f"g.params[{key(name)}]", n.param_kinds.get(name, "any")
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

    def table(self, name: str) -> str:
        """The namespace name of a card attribute's table (a list indexed by card id)."""
        return self.ns.const(self.names.card_attrs[name], "A_" + name)

    def getter(self, table: str) -> str:
        """The namespace name of a function giving a card's value in an attribute's table (by its name)."""
        values = self.ns.values[table]
        return self.ns.const(values.__getitem__, table + "_of", ("getitem", id(values)))

    def attr(self, t, s):
        base_tree, tok = t.children
        name = str(tok)
        n = self.names
        base, kind = self.compile(base_tree, s)
        if name in n.card_attrs:
            if kind in ("player", "players", "int", "str", "bool"):
                self.fail(f"'{name}' is a card attribute, but this is {a_kind(kind)}", tok, code="type")
            if kind in ("value", "values"):
                self.fail(f"'{name}' is a card attribute, but these are already attribute values, not cards",
                          tok, code="type")
            n.used.add(("attr", name))
            table = self.table(name)
            if kind == "card":
                if not any(type(v) is list for v in n.card_attrs[name]):
                    self.plain_attrs.add(id(t))   # no list among its values (a computed one may have): compared with ==
                item = self.zone_items.get(base)
                if item is not None:
                    # `zone[i].attr`: the card is there (a zone holds cards), or R_item tells why not
                    z, i = item
                    return f"({table}[{z}[{i}]] if len({z}) > {i} else R_attr1({table}, R_item({z}, {i})))", "value"
                if simple(base):
                    return f"(None if {base} is None else {table}[{base}])", "value"
                end = _END_OF.fullmatch(base)
                if end is not None and simple(end[2]) and not end[2].isdigit():
                    # first(xs).attr of a list in a variable: no call for the card nor for its attribute
                    xs, i = end[2], "0" if end[1] == "first" else "-1"
                    if self.known.get(xs) is GROUP:
                        return f"{table}[{xs}[{i}]]", "value"   # a group: never empty, no item None
                    return f"({table}[{xs}[{i}]] if {xs} and {xs}[{i}] is not None else None)", "value"
                return f"R_attr1({table}, {base})", "value"
            if kind == "cards":
                item = self.ns.fresh("c")
                return f"[{table}[{item}] for {item} in {walked(base)}]", "values"
            return f"R_attr(g, {table}, {base})", ("values" if kind in ("list", "groups") else "any")
        if name in n.card_vars:
            if kind in ("player", "players", "int", "str", "bool", "value", "values"):
                self.fail(f"'{name}' is a card variable, but this is {a_kind(kind)}", tok, code="type")
            n.used.add(("cvar", name))
            self.reads.add(("cvar", name))
            return f"R_card_var(g, {key(name)}, {base})", ("values" if kind in ("cards", "list", "groups")
                                                           else "any" if kind != "card"
                                                           else n.var_kinds.get(("cvar", name), "any"))
        if name in n.player_zones or name in n.player_families:
            if kind in ("card", "cards", "int", "str", "bool"):
                self.fail(f"'{name}' is a zone of each player, but this is {a_kind(kind)}", tok, code="type")
            n.used.add(("zone", name))
            z = n.player_zones.get(name) or n.player_families[name]
            if name in n.player_families:
                return f"R_player_family(g, {int(z.zid)}, {self._size(z)}, {base})", "list"
            zid = int(z.zid)
            bare = isinstance(base_tree, Tree) and base_tree.data == "name" and str(base_tree.children[0]) not in s.locals \
                and str(base_tree.children[0]) in ("me", "current")
            if bare or kind == "player":
                return f"g.zones[g.zbase[{zid}] + {base}]", "cards"
            return f"R_player_zone(g, {zid}, {base})", ("list" if kind == "players" else "cards")
        if name in n.player_vars:
            if kind in ("card", "cards", "str", "bool"):
                self.fail(f"'{name}' is a variable of each player, but this is {a_kind(kind)}", tok, code="type")
            n.used.add(("pvar", name))
            self.reads.add(("pvar", name))
            held = n.var_kinds.get(("pvar", name), "any")
            if kind == "player":
                return f"g.pvars[{key(name)}][{base}]", held
            return f"R_player_var(g, {key(name)}, {base})", held if kind != "players" else "any"
        known = set(n.card_attrs) | set(n.card_vars) | set(n.player_zones) | set(n.player_families) | n.player_vars
        self.fail(f"unknown attribute '{name}'", tok, did_you_mean(name, known), code="unknown-name")

    def index(self, t, s):
        base_tree, idx_tree = t.children
        member = self._member_slot(base_tree, idx_tree, s)
        if member is not None:
            return f"g.zones[{member}]", "cards"
        idx, _ = self.compile(idx_tree, s)
        base, kind = self.compile(base_tree, s)
        if idx.isdigit() and ZONE_READ.fullmatch(base):
            # an item of a zone at a place written in the ruleset: read in place (reading the zone again costs
            # less than a call), R_item telling a place past its end as before
            src = f"({base}[{idx}] if len({base}) > {idx} else R_item({base}, {idx}))"
            self.zone_items[src] = (base, idx)
            return src, "card"
        return f"R_item({base}, {idx})", ELEMENT.get(kind, "any")

    def _member_slot(self, base_tree, idx_tree, s):
        """`row[i]` or `p.stall[key]`: the source of the slot of one member of a family, or None when
        the tree names no family."""
        n = self.names
        if not isinstance(base_tree, Tree):
            return None
        if base_tree.data == "name" and str(base_tree.children[0]) in n.families \
                and str(base_tree.children[0]) not in s.locals:
            z = n.families[str(base_tree.children[0])]
            n.used.add(("zone", z.name))
            member = self._member_of(z, self.compile(idx_tree, s)[0])
            if z.slot >= 0:
                return f"{int(z.slot)} + {member}"
            return f"g.zbase[{int(z.zid)}] + {member}"
        if base_tree.data == "attr" and str(base_tree.children[1]) in n.player_families:
            z = n.player_families[str(base_tree.children[1])]
            p, kind = self.compile(base_tree.children[0], s)
            if kind not in ("player", "any", "int", "number"):
                self.fail(f"'{z.name}' is a family of zones of each player, but this is {a_kind(kind)}",
                          base_tree.children[1], code="type")
            n.used.add(("zone", z.name))
            member = self._member_of(z, self.compile(idx_tree, s)[0])
            return f"g.zbase[{int(z.zid)}] + {member} * g.n + {p}"
        return None

    def _size(self, z) -> str:
        """A family's number of members: fixed, or read from the game's layout."""
        if z.keys is not None or isinstance(z.count, int):
            return repr(int(z.size))
        return f"g.layout.size[{int(z.zid)}]"

    def _member_of(self, z, idx: str) -> str:
        """The member number a key or index names in a family; a wrong one stops the game with its name."""
        name = self.ns.const(z.name, "S_" + z.name)
        if z.keys is not None:
            table = self.ns.const({k: i for i, k in enumerate(z.keys)}, "K_" + z.name + "_keys")
            shown = self.ns.const(", ".join(map(str, z.keys)), "S_" + z.name + "_keys")
            slow = f"R_keyed({table}, {name}, {shown}, {idx})"
            types = {type(k) for k in z.keys}
            known = self.known.get(idx)
            if type(known) is tuple and len(types) == 1 and types <= {int, str} \
                    and all(type(v) in types and v in z.keys for v in known):
                return f"{table}[{idx}]"   # a key whatever it holds (an option's argument from `keys(stall)`)
            if simple(idx) and len(types) == 1 and types <= {int, str}:
                # a key of the keys' own type found in place; any other value gets R_keyed's answer or error
                return f"({table}[{idx}] if type({idx}) is {types.pop().__name__} and {idx} in {table} else {slow})"
            return slow
        size = self._size(z)
        known = self.known.get(idx)
        if type(known) is tuple and size.isdigit() and all(type(v) is int and 0 <= v < int(size) for v in known):
            return idx   # a member number whatever it holds (an option's argument from `range(count(row))`)
        if simple(idx):
            return f"({idx} if type({idx}) is int and 0 <= {idx} < {size} else R_numbered({name}, {size}, {idx}))"
        return f"R_numbered({name}, {size}, {idx})"

    def _members(self, z) -> str:
        """A shared family as a value: the list of its zones."""
        if z.slot >= 0:
            first, k = int(z.slot), int(z.size)
            return f"g.zones[{first}:{first + k}]"
        return f"R_family(g, {int(z.zid)}, {self._size(z)})"

    # operators ------------------------------------------------------------
    def neg(self, t, s):
        f, k = self.compile(t.children[0], s)
        self._number(k, t.children[0], "-")
        return f"(-{f})", "int"

    def _number(self, kind, node, op, other=None):
        """Arithmetic is on numbers: a player or a card is not one (their seat or id is not a value), nor a
        list; `+` also joins two texts or two lists, but never one of them and a number (`other`: the kind
        of the other side)."""
        if op == "+" and other in NUMBERS and kind == "str":
            self.fail("'+' adds two numbers or joins two texts: this is a text and the other side a number", node,
                      "text(number) turns a number into text, as in \"score \" + text(me.score)", code="kind")
        if kind in ENTITIES or (kind in ("str", "bool") and op != "+") or (kind in LIST_KINDS and op != "+") \
                or (other in NUMBERS and (kind == "str" or kind in LIST_KINDS)):
            self.fail(f"'{op}' needs numbers, but this is a {KIND_WORDS.get(kind, kind)}", node, code="kind")

    def binary(self, t, s):
        left, op, right = t.children
        a, ka = self.compile(left, s)
        b, kb = self.compile(right, s)
        op = str(op)
        if op != "+" or ka in NUMBERS or kb in NUMBERS:
            self._number(ka, left, op, kb)
            self._number(kb, right, op, ka)
        small = bound(t, self.subst)
        small = small is not None and small <= MAX_NUMBER   # proved within the cap: no check (see bound)
        if op == "+":
            kind = "int" if ka == kb == "int" else (ka if ka == kb else "any")
            if kind == "int":
                return (f"({a} + {b})" if small else capped(f"{a} + {b}", self.ns)), kind
            if kind in ("cards", "players"):
                return f"R_join(g, {a}, {b})", kind   # two lists of cards or players: joined in one call
            if kind == "groups":
                return f"R_join_groups(g, {a}, {b})", kind   # lists of card lists: no list is searched for inside
            return f"R_plus(g, {a}, {b})", kind
        if op == "-":
            if ka == kb == "int":
                return (f"({a} - {b})" if small else capped(f"{a} - {b}", self.ns)), "int"
            return f"R_minus({a}, {b})", "int"
        if op == "*":
            if small:
                return f"({a} * {b})", "int"
            if ka == kb == "int":   # two numbers (never a text or a list times a number): checked inline
                return capped(f"{a} * {b}", self.ns), "int"
            return f"R_times({a}, {b})", "int"
        if op == "/":
            return f"({a} // {b})", "int"
        return f"({a} % {b})", "int"

    def compare(self, t, s):
        left, op, right = t.children
        a, ka = self.compile(left, s)
        b, kb = self.compile(right, s)
        op = str(op)
        self._comparable(ka, kb, t)
        if op not in COMPARE:  # pragma: no cover - the grammar allows no other
            self.fail(f"unknown comparison {op!r}", t)
        plain = id(left) in self.plain_attrs or id(right) in self.plain_attrs
        if op in ("==", "!=") and not (ka in SCALAR_KINDS or kb in SCALAR_KINDS or self._constant(right) or plain):
            # lists may be compared: their length is paid for
            return f"({'' if op == '==' else 'not '}R_equal(g, {a}, {b}))", "bool"
        if op in ("<", "<=", ">", ">=") and b.isdigit() and a.startswith("R_count_distinct_of(g, g.zones[") \
                and one_call(a):
            # how many values a zone's cards show, against a number known at load: counted until it is reached
            at_least = int(b) + (op in ("<=", ">"))
            reach = f"R_distinct_reach(g, {a[len('R_count_distinct_of(g, '):-1]}, {at_least})"
            return (reach if op[0] == ">" else f"(not {reach})"), "bool"
        return f"({a} {op} {b})", "bool"

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
        b, kb = self.compile(t.children[1], s)
        if kb in LIST_KINDS:
            return f"({a} in {walked(b)})", "bool"
        return f"R_contains(g, {a}, {b})", "bool"

    def not_in_op(self, t, s):
        inside, _ = self.in_op(t, s)
        return f"(not {inside})", "bool"

    def and_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        b, _ = self.compile(t.children[1], s)
        return f"({a} and {b})", "bool"

    def or_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        b, _ = self.compile(t.children[1], s)
        return f"({a} or {b})", "bool"

    def not_op(self, t, s):
        a, _ = self.compile(t.children[0], s)
        return f"(not {a})", "bool"

    def cond(self, t, s):
        then_t, test_t, else_t = t.children
        a, ka = self.compile(then_t, s)
        c, _ = self.compile(test_t, s)
        b, kb = self.compile(else_t, s)
        # an empty list on one side takes the kind of the other (`take_while(...) if ... else []` is cards)
        if _empty_list(else_t) and ka in LIST_KINDS:
            kb = ka
        elif _empty_list(then_t) and kb in LIST_KINDS:
            ka = kb
        return f"({a} if {c} else {b})", (ka if ka == kb else "any")

    def _item_kind(self, tree, kind: str) -> str:
        """The kind of one item of the list `tree` (of kind `kind`), a number for a range or a list of numbers."""
        return element_kind(kind, id(tree) in self.numbers)

    def where(self, t, s):
        src, kind = self.compile(t.children[0], s)
        if kind in ("int", "bool", "str", "none", "player", "card", "value"):
            self.fail(f"'where' filters a list, but this is {a_kind(kind)}, not a list", t.children[1], code="type")
        out_kind = kind if kind in ("cards", "players", "groups") else "list"
        if id(t.children[0]) in self.numbers:
            self.numbers.add(id(t))   # some of a list of numbers
        item = self.ns.fresh("x")
        if is_groups_call(src):
            self.known = {**self.known, item: GROUP}   # each item a group (a fresh name: nothing else reads it)
        inner = Scope(s.locals, self._item_kind(t.children[0], kind), s.py, item, s.other)
        fused = self._fused_test(t.children[1], inner)
        if fused is not None:
            table, op, value = fused
            if simple(value):
                return f"[{item} for {item} in {walked(src)} if {table}[{item}] {op} {value}]", out_kind
            return f"R_filter_{'eq' if op == '==' else 'ne'}(g, {src}, {table}, {value})", out_kind
        pred, _ = self.compile(t.children[1], inner)
        return f"[{item} for {item} in {walked(src)} if {pred}]", out_kind

    def lambda_(self, t, s):
        self.fail("'name -> ...' names the item of a per-item argument (as in 'map(players, p -> p.score)'); "
                  "it is not allowed here", t, code="lambda")

    def _fused_test(self, pred_tree, inner: Scope):
        """For `attr == value` (or !=) where the value does not depend on the item: (table, op, value source).

        The commonest test of card games (`suit == chosen`): one lookup and one comparison per card,
        the value computed once per use where it is more than a variable."""
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
                    return self.table(attr), str(op), value
        return None

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
        if name == "range":
            self.numbers.add(id(t))   # Python's range takes and makes whole numbers only
        if name == "count" and self.tally is not None:
            tallied = self._tallied_count(arg_trees[0], s)
            if tallied is not None:
                return tallied, "int"
        args, kinds = [], []
        for i, a in enumerate(arg_trees):
            if i in fn.per_item:
                item_kind = self._item_kind(arg_trees[0], kinds[0]) if kinds else "any"
                item = self.ns.fresh("x")
                if isinstance(a, Tree) and a.data == "lambda_":
                    lname = str(a.children[0])
                    if lname in s.locals or lname in self.names.all_names():
                        self.fail(f"'{lname}' is already a name here; choose another for the item", a.children[0],
                                  code="name-clash")
                    inner = Scope({**s.locals, lname: item_kind}, item_kind, {**s.py, lname: item}, item, s.other)
                    body, k = self.compile(a.children[1], inner)
                    args.append(("item", (item, body)))
                    kinds.append(k)
                    continue
                inner = Scope(s.locals, item_kind, s.py, item, s.other)
                if isinstance(a, Tree) and a.data == "name" and str(a.children[0]) in self.names.card_attrs \
                        and str(a.children[0]) not in s.locals and item_kind in ("card", "any"):
                    # A bare attribute per item (`groups(me.hand, suit)`): look it up directly.
                    attr = str(a.children[0])
                    self.names.used.add(("attr", attr))
                    args.append(("key", attr))
                    kinds.append("any")
                    continue
                fused = self._fused_test(a, inner)
                if fused is not None and fn.kind != "list":
                    args.append(("fused", fused))
                    kinds.append("bool")
                    continue
                f, k = self.compile(a, inner)
                args.append(("item", (item, f)))
            else:
                f, k = self.compile(a, s)
                args.append(("value", f))
            kinds.append(k)
        kind = fn.kind
        if kind == "groups":
            kind = "groups" if kinds and kinds[0] == "cards" else "list"
        elif kind == "same":
            kind = kinds[0] if kinds and kinds[0] in ("cards", "players") else "list"
        elif kind == "flat":   # the lists of a list, one level down: groups of cards give cards
            kind = "cards" if kinds and kinds[0] == "groups" else "list"
        elif kind == "item":
            kind = ELEMENT.get(kinds[0], "any") if kinds else "any"
        return self._call(fn, args), kind

    def _tallied_count(self, tree, s) -> str | None:
        """`count(X where attr == v)` in an option listing, where X is a part the listing computes once (`tally`
        gives the cell of X's values counted by the attribute's table, made once, or None for a part that is
        not computed once) and v a variable or a literal: a lookup in that tally instead of a walk over X.
        Only an attribute whose values a dict can hold (not a computed one that holds lists) is tallied, so a
        v that is a list equals none of them: 0. None: written as any other count."""
        if not (isinstance(tree, Tree) and tree.data == "where") or id(tree) in self.subst:
            return None
        listed = tree.children[0]
        if id(listed) not in self.subst:
            return None
        kind = self.subst[id(listed)][1]
        inner = Scope(s.locals, ELEMENT.get(kind, "any"), s.py, self.ns.fresh("x"), s.other)
        fused = self._fused_test(tree.children[1], inner)
        if fused is None or fused[1] != "==" or not simple(fused[2]):
            return None
        table, _, value = fused
        if any(v.__hash__ is None for v in self.ns.values[table]):
            return None   # a computed attribute whose values are lists: a dict cannot hold them
        cell = self.tally(listed, table)
        if cell is None:
            return None
        if value.isdigit():
            return f"{cell}.get({value}, 0)"
        # a value a dict cannot hold (a list: the language's only values that cannot be keys) equals none
        return f"({cell}.get({value}, 0) if type({value}) is not list else 0)"

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
            return self.ns.const(list(z.keys), "K_" + z.name + "_keys"), "list"
        return f"list(range({self._size(z)}))", "list"

    def _user_call(self, uf, tok, arg_trees, s):
        """A call of one of the ruleset's functions: its body is compiled here, with the kinds of the
        arguments given, into a function of its own whose only names are `me` and the arguments."""
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
        params = [local_name(a) for a in uf.args]
        body_scope = Scope({a: k for a, (_, k) in zip(uf.args, args)}, None,
                           {"me": "me", **dict(zip(uf.args, params))})
        stack.append(uf.name)
        try:
            inner = _Compiler(self.names, uf.text, self.ns)
            body, kind = inner.compile(uf.tree, body_scope)
        except ExprError as exc:
            message = exc.message if exc.message.startswith("in function") else f"in function '{uf.name}': {exc.message}"
            err = ExprError(message, _offset(tok), exc.hint, exc.code)
            # the innermost function's text, where the error is: the context tells it there (compiler/context.py)
            # (not for the calls' own limits, told where the chain of calls starts)
            if exc.code not in ("too-large", "recursion"):
                err.inside = getattr(exc, "inside", None) or (uf.path, exc.offset, uf.name)
            raise err from None
        finally:
            stack.pop()
        self.uses_random = self.uses_random or inner.uses_random
        self.reads |= inner.reads
        helper = self.ns.fresh_global("U_" + uf.name)
        self.ns.values.setdefault("__functions__", {})[helper] = uf.name   # for errors (runtime/operators.py)
        self.ns.defs.append(f"def {helper}(g, me, {', '.join(params)}):\n    return {body}\n\n\n"
                            if params else f"def {helper}(g, me):\n    return {body}\n\n\n")
        me = s.py.get("me") or "e.get('me')"
        return f"{helper}(g, {', '.join([me] + [a for a, _ in args])})", kind

    def _call(self, fn, args) -> str:
        impl = f"F_{fn.name}"
        values = [a for _, a in args]
        if fn.name in WALKS and values and not fn.needs_game:
            of = _ATTRS.fullmatch(values[0]) if fn.name in ("distinct", "counts", "sum") else None
            if of is not None:
                # of a card attribute of a list of cards (`distinct(me.hand.suit)`): the values made,
                # paid for and worked on in one call
                return f"R_{fn.name}_of(g, {of['cards']}, {of['table']})"
            # a builtin that walks its first argument, a list: each call pays the list's length (its
            # W_ helper checks the list, pays and works in one call)
            return f"W_{fn.name}(g, {', '.join(values)})"
        if fn.name in WALKS and values:
            values[0] = f"R_walk_named(g, {values[0]}, {self.ns.const(fn.name, 'S_fn')})"
        if fn.needs_game:
            return f"{impl}(g, {', '.join(values)})"
        if not fn.per_item:
            if fn.name == "range":
                known = [int(v) for v in values if v.isdigit()]
                if len(known) == len(values) and known[-1] - (known[0] if len(known) == 2 else 0) <= SHARED_RANGE:
                    # a few numbers known at load: one list made once and shared (nothing changes a list an
                    # expression returns), which costs nothing to make; walking it still pays
                    return self.ns.const(list(range(*known)), "K_range")
                if len(known) == len(values) and known[-1] - (known[0] if len(known) == 2 else 0) <= MAX_RANGE:
                    return f"R_made(g, list(range({', '.join(values)})))"   # of numbers known at load: no checks
                return f"R_made(g, {impl}({', '.join(values)}))"   # a range pays for the list it makes
            joined = ", ".join(values)
            members = _MEMBERS.fullmatch(joined)
            if fn.name == "count" and members is not None:
                return repr(int(members[2]) - int(members[1]))   # a family of a fixed size
            if fn.name == "count" and joined.startswith("W_distinct(g, ") and joined.endswith(")"):
                return f"W_count_distinct(g, {joined[len('W_distinct(g, '):-1]})"   # how many differ: no order needed
            if fn.name == "count" and joined.startswith("R_distinct_of(g, ") and joined.endswith(")"):
                return f"R_count_distinct_of(g, {joined[len('R_distinct_of(g, '):-1]})"
            compared = _COMPARED.fullmatch(joined) if fn.name == "count" else None
            if compared is not None and compared["value"] != compared["x"]:
                # how many items compare so with a value read once, without a list of them: a number or a name
                # before the walk (it cannot fail: that changes nothing), a parameter or a variable where the
                # filter reads it
                op, value = repr(compared["op"]), compared["value"]
                kept = _KEPT.fullmatch(value)
                if kept is not None:   # read where the filter reads it: after the walk, for a list with items
                    value = f"{kept[2]}, {kept[1]!r}"
                counts = _COUNT_VALUES.fullmatch(compared["xs"])
                if counts is not None:   # of the counts of cards counted once (codegen/scoring.py, shared_lists)
                    return f"R_counts_compared(g, {counts[1]}, {op}, {value})"
                return f"R_count_compared(g, {compared['xs']}, {op}, {value})"
            return f"len({joined})" if fn.name == "count" else f"{impl}({joined})"
        (_, src), (how, per) = args
        if how == "key":
            # a bare card attribute per item: looked up in its table, without a call per item
            if fn.name == "groups":
                slot = zone_slot_of(src)
                if slot is not None:   # a zone's cards: grouped once per list the zone holds (runtime/helpers.py)
                    return f"R_zone_groups(g, {walked_source(slot)}, {self.table(per)})"
                return f"R_groups_of(g, {walked_source(src)}, {self.table(per)})"   # the walk paid inside
            if fn.name == "map":
                item = self.ns.fresh("x")
                return f"[{self.table(per)}[{item}] for {item} in {walked(src)}]"
            return f"{impl}({walked(src)}, {self.getter(self.table(per))})"
        if how == "fused":
            table, op, value = per
            if (fn.name, op) in (("any", "=="), ("all", "!=")):
                # `in` stops at the first equal value, as any() does, and calls no Python code per item
                values, no = self.getter(table), "" if fn.name == "any" else "not "
                if simple(value):
                    return f"({value} {no}in map({values}, {walked(src)}))"
                return f"({no}R_any_in({walked(src)}, {values}, {value}))"   # the list first, as written
            if (fn.name, op) in (("all", "=="), ("any", "!=")):
                # a loop that stops at the first item that differs, without a generator
                return f"R_{fn.name}_{'eq' if op == '==' else 'ne'}({walked(src)}, {table}, {value})"
            if fn.name in ("any", "all") and simple(value):
                item = self.ns.fresh("x")
                return f"{fn.name}({table}[{item}] {op} {value} for {item} in {walked(src)})"
            if fn.name == "filter" and simple(value):
                item = self.ns.fresh("x")
                return f"[{item} for {item} in {walked(src)} if {table}[{item}] {op} {value}]"
            if fn.name in ("take_while", "drop_while"):
                # the items up to (or from) the first that fails the test, without a call per item
                return f"R_{fn.name}_{'eq' if op == '==' else 'ne'}({walked(src)}, {table}, {value})"
            return f"R_per_{'eq' if op == '==' else 'ne'}({impl}, {walked(src)}, {table}, {value})"
        item, body = per
        if fn.name in ("any", "all"):
            out = f"{fn.name}({body} for {item} in {walked(src)})"
            self.quantified[out] = (fn.name, item, body, walked(src))
            return out
        if fn.name == "map":
            return f"[{body} for {item} in {walked(src)}]"
        if fn.name == "filter":
            return f"[{item} for {item} in {walked(src)} if {body}]"
        return f"{impl}({walked(src)}, lambda {item}: {body})"

    # zones as places ------------------------------------------------------
    def zone_ref(self, t, s) -> str:
        """Compile a tree that must denote one zone into the source of its slot."""
        n = self.names
        if isinstance(t, Tree) and t.data == "name":
            name = str(t.children[0])
            if name in n.shared_zones and name not in s.locals:
                n.used.add(("zone", name))
                return repr(int(n.shared_zones[name]))
            if name in n.families:
                self.fail(f"'{name}' is a family of zones: say which one, as in '{name}[0]'", t, code="zone")
            if name in n.player_zones or name in n.player_families:
                self.fail(f"'{name}' is a zone of each player: say whose, as in 'me.{name}'", t, code="zone")
            zones = set(n.shared_zones) | set(n.families) | set(n.player_zones) | set(n.player_families)
            self.fail(f"unknown zone '{name}'", t, did_you_mean(name, zones), code="unknown-zone")
        if isinstance(t, Tree) and t.data == "index":
            slot = self._member_slot(t.children[0], t.children[1], s)
            if slot is not None:
                return f"({slot})"
        if isinstance(t, Tree) and t.data == "attr":
            base_t, tok = t.children
            name = str(tok)
            if name in n.player_families:
                self.fail(f"'{name}' is a family of zones of each player: say which one, as in 'me.{name}[...]'",
                          tok, code="zone")
            if name in n.player_zones:
                p, kind = self.compile(base_t, s)
                if kind not in ("player", "any", "int", "number"):
                    self.fail(f"'{name}' is a zone of each player, but this is {a_kind(kind)}", tok, code="type")
                n.used.add(("zone", name))
                return f"(g.zbase[{int(n.player_zones[name].zid)}] + {p})"
            zones = set(n.player_zones) | set(n.player_families)
            self.fail(f"unknown zone '{name}'", tok, did_you_mean(name, zones), code="unknown-zone")
        self.fail("this is not a zone: write a zone name such as 'deck', 'row[i]' or 'me.hand'", t, code="zone")


def member_of(z, idx):
    """A callable giving the member number a key or index (a compiled expression) names in a family."""
    compiler = _Compiler(Names(), z.name, new_namespace())
    src = compiler._member_of(z, "_key")
    compiler.ns.defs.append(f"def member(g, e, it):\n    _key = K_idx(g, e, it)\n    return {src}\n")
    compiler.ns.values["K_idx"] = idx
    fn = build("".join(compiler.ns.defs), compiler.ns, "<rulebook member>", remember=False)["member"]
    fn.zone, fn.key = z, idx
    return fn
