"""Compile effect lists (plain data) -> blocks of nodes, each effect by its definition (interpreter/effects/),
every expression in them name-checked; and the choices of actions and `choose` (their arguments, subsets,
conditions and labels)."""
from __future__ import annotations

from lark import Token, Tree

from ..effects import BARE, EFFECTS
from ..engine.choices import Choice, Subset
from ..errors import did_you_mean
from ..expr.compiler import ELEMENT, Scope, a_kind, emit_expr, item_kind
from ..expr.emit import Namespace
from ..expr.parser import argument_of
from .context import Abort, Context, valid_name

SUBSET_FIELDS = ("pick", "count", "min", "max", "label", "alike")


# What reads a list of values whatever their order: `sum(X.a)`, `min(X.a)`, `max(X.a)`, `count(X.a)`
ORDERLESS = frozenset({"sum", "min", "max", "count"})


def picked_attr(t, name: str, card_attrs: dict) -> str | None:
    """`X.a`, an attribute printed on the cards, of the picked items `X` (the subset `name`) -> a; else None."""
    if isinstance(t, Tree) and t.data == "attr" and isinstance(t.children[0], Tree) and t.children[0].data == "name" \
            and str(t.children[0].children[0]) == name and str(t.children[1]) in card_attrs:
        return str(t.children[1])
    return None


def values_read(tree, name: str, card_attrs: dict) -> list | None:
    """The card attributes a subset's final condition reads of the picked items (`name`), when it reads
    nothing else of them and never their order: only `count(X)`, `count(distinct(X.a))` and `sum`, `min`,
    `max` or `count` of `X.a`, for attributes `a` printed on the cards. Then whether the condition holds
    depends on the multiset of those values only: picking either of two cards of the same values leaves the
    same completions, asked once for both (engine/choices.py, pick_options). None when it reads them
    otherwise (or the tree is unknown)."""
    if tree is None:
        return None
    found: list = []

    def picked(t) -> bool:
        return isinstance(t, Tree) and t.data == "name" and str(t.children[0]) == name

    def attr_of(t):
        return picked_attr(t, name, card_attrs)

    def fine(t) -> bool:
        if not isinstance(t, Tree):
            return True
        if picked(t):
            return False   # the items read otherwise: as a list, in order
        arg = argument_of(t, *ORDERLESS)
        if arg is not None:
            if str(t.children[0]) == "count" and picked(arg):
                return True
            distinct = argument_of(arg, "distinct") if str(t.children[0]) == "count" else None
            attr = attr_of(arg if distinct is None else distinct)
            if attr is not None:
                found.append(attr)
                return True
        return all(fine(c) for c in t.children)

    return sorted(set(found)) if fine(tree) else None


def one_value(tree, name: str, card_attrs: dict):
    """The attribute of `count(distinct(X.a)) == 1` (or `<= 1`, `< 2`, which an empty pick meets too) when it
    is the whole final condition of the subset X: the picked cards all show one value of `a` -> (a, whether
    an empty pick meets it); else None. Then whether a pick can be completed is a matter of counting the
    cards left of each value (engine/choices.py, _one_value_completes)."""
    if not isinstance(tree, Tree) or tree.data != "compare":
        return None
    left, op, right = tree.children
    attr = picked_attr(argument_of(argument_of(left, "count"), "distinct"), name, card_attrs)
    if attr is None or not (isinstance(right, Tree) and right.data == "int_"):
        return None
    bound = (str(op), int(right.children[0]))
    if bound == ("==", 1):
        return attr, False
    if bound in (("<=", 1), ("<", 2)):
        return attr, True
    return None


def summed(tree, name: str, card_attrs: dict, parameter=lambda name: False):
    """The parts of `sum(X.a) == target` when it is the whole final condition of the subset X, `a` a card
    attribute and the target a whole number written in the ruleset or a name that is a parameter there
    (`parameter(name)`): (a, ("int", n) or ("param", name)); else None. Then whether a pick of one or two
    cards more can be completed is a matter of looking for the values that make up the rest
    (engine/choices.py, _sum_completes)."""
    if not isinstance(tree, Tree) or tree.data != "compare":
        return None
    left, op, right = tree.children
    attr = picked_attr(argument_of(left, "sum"), name, card_attrs)
    if str(op) != "==" or attr is None or not isinstance(right, Tree):
        return None
    if right.data == "int_":
        return attr, ("int", int(right.children[0]))
    if right.data == "name" and parameter(str(right.children[0])):
        return attr, ("param", str(right.children[0]))
    return None


def _reads_parameter(fn, name: str, names) -> bool:
    """Whether the bare name `name`, written in the compiled expression fn, reads a parameter (as the compiler
    resolves names there: a local name or anything else called so comes first)."""
    return emit_expr(fn, names, Namespace(), {}, tree=Tree("name", [Token("NAME", name)])) \
        == f"g.params[{name!r}]"


def _no_fewer():
    """A subset's `min` when none is written: 0 (it reads no local name)."""
    def low(g, e, it):
        return 0
    low.locals_used = frozenset()
    return low


def _at_most_all(domain):
    """A subset's `max` when none is written: every item of its domain (it reads what the domain reads)."""
    def high(g, e, it):
        return len(domain(g, e, it))
    high.locals_used = getattr(domain, "locals_used", None)
    return high


class EffectCompiler:
    """Turns effect lists into blocks, each effect by its definition's `compile(c, ...)` (this object is
    `c`: its context, blocks, procedures, actions and helpers); procedures are compiled on first use and
    shared."""

    valid_name = staticmethod(valid_name)

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.procedures: dict = {}  # name -> (block id, arg names)
        self.actions: dict = {}     # name -> Action, filled in as actions compile (for choose: {actions})
        self.chosen_actions: set = set()

    def block(self, path, scope: Scope) -> int | None:
        """Compile the effect list at `path` into a block id (None when the list is absent or empty)."""
        ctx = self.ctx
        items = ctx.get(path)
        if items is None:
            return None
        if not isinstance(items, list):
            ctx.error(path, "expected a list of effects", "type")
            return None
        nodes = []
        scope = Scope(dict(scope.locals), scope.it)
        for i, item in enumerate(items):
            try:
                node = self.effect(tuple(path) + (i,), item, scope)
            except Abort:
                continue
            if node is not None:
                nodes.append(node)
        return ctx.block(nodes) if nodes else None

    def body_check(self, path, body):
        """A loop needs effects; a body whose every effect had an error was reported already."""
        if body is None:
            if self.ctx.get(path):
                raise Abort()
            self.ctx.fail(path, "the loop body is empty", "effect")

    def effect(self, path, item, scope: Scope):
        ctx = self.ctx
        if isinstance(item, str):
            head, fields, value = item, {}, None
            if head not in EFFECTS:
                ctx.unknown(path, "effect", head, EFFECTS, "unknown-effect")
            if head not in BARE:
                ctx.fail(path, f"'{head}' needs a value, as in '{head}: ...'", "effect")
        elif isinstance(item, dict):
            heads = [k for k in item if k in EFFECTS]
            if not heads:
                first = next(iter(item), "?")
                ctx.unknown(path + (first,), "effect", first, EFFECTS, "unknown-effect", key=True)
            if len(heads) > 1:
                ctx.fail(path + (heads[1],), f"one effect per list item: '{heads[0]}' and '{heads[1]}' "
                         "are both here", "effect", key=True)
            head = heads[0]
            allowed = tuple(EFFECTS[head].beside)
            for k in item:
                if k != head and k not in allowed:
                    hint = did_you_mean(str(k), allowed) if allowed else None
                    ctx.fail(path + (k,), f"'{k}' does not belong to a '{head}' effect"
                             + (f" (it takes {', '.join(allowed)})" if allowed else ""), "effect", hint, key=True)
            fields, value = item, item[head]
        else:
            ctx.fail(path, "expected an effect: a name such as 'end_turn' or a map such as 'move: {...}'", "type")
        node = EFFECTS[head].compile(self, path, fields, value, scope)
        return ctx.node(node, path, head)

    # helpers --------------------------------------------------------------
    def fields(self, path, value, allowed, required=()):
        """An effect's map of fields: refused when it is not a map, has a key it does not take, or lacks one
        it needs."""
        ctx = self.ctx
        if not isinstance(value, dict):
            ctx.fail(path, f"expected a map with {', '.join(sorted(allowed))}", "type")
        for k in value:
            if k not in allowed:
                ctx.unknown(path + (k,), "field", k, allowed, "unknown-field", key=True)
        for k in required:
            if k not in value:
                ctx.fail(path, f"missing '{k}'", "missing-field")
        return value

    def check_local(self, path, name):
        """A new local name (an argument, a `let`, a loop's item): valid, and no other thing's name."""
        ctx, names = self.ctx, self.ctx.names
        if not valid_name(name):
            ctx.fail(path, f"'{name}' is not a valid name (ASCII letters, digits and _, not a keyword)",
                     "name", key=True)
        clash = name in names.all_names() or name == "it"
        if clash:
            ctx.fail(path, f"'{name}' is already the name of something in this ruleset; choose another",
                     "name-clash", key=True)

    def choice(self, path, f, scope, name):
        """Compile `args` (name: domain, in order), `if` and `label` into a Choice; return it and its scope.

        An argument written `{pick: domain, count: k}` (or `min`/`max`) is a subset, picked item by item
        after the option is taken; subsets come after the other arguments."""
        ctx = self.ctx
        args = f.get("args") or {}
        if not isinstance(args, dict):
            ctx.fail(path + ("args",), "expected a map of argument name: list of values", "type")
        inner = Scope(dict(scope.locals), scope.it)
        names, domains, kinds, subsets = [], [], [], []
        for arg, dom in args.items():
            apath = path + ("args", arg)
            self.check_local(apath, arg)
            if isinstance(dom, dict):
                subsets.append(self._subset(apath, arg, dom, inner))
                continue
            if subsets:
                ctx.fail(apath, f"'{arg}' comes after a subset argument: subsets ({{pick: ...}}) are picked "
                         "last, so write them after the other arguments", "effect", key=True)
            compiled = ctx.expr(apath, inner, random_ok=False)
            if compiled.kind in ("int", "bool", "none", "card", "player"):
                ctx.fail(apath, f"'{arg}' is chosen from a list of values, but this is {a_kind(compiled.kind)}",
                         "kind", "write the values to choose from as a list, as in '[1, 2, 3]' or range(n)")
            # chosen from a range or a list of numbers: a number, on which arithmetic needs no kind check
            kind = inner.locals[arg] = item_kind(compiled)
            names.append(arg)
            domains.append(compiled)
            kinds.append(kind)
        cond = ctx.expr(path + ("if",), inner, random_ok=False) if "if" in f else None
        final = None
        if cond is not None and subsets and cond.locals_used & {sub.name for sub in subsets}:
            cond, final = None, cond     # it needs the picked items: checked on complete picks
        label = ctx.template(path + ("label",), inner) if "label" in f else None
        choice = Choice(name, names, domains, cond, label, subsets, final)
        choice.kinds = tuple(kinds)
        if final is not None and len(subsets) == 1:
            read = values_read(getattr(final, "tree", None), subsets[0].name, ctx.names.card_attrs)
            if read is not None:
                choice.by_values = tuple(ctx.names.card_attrs[a] for a in read)
            alike = one_value(getattr(final, "tree", None), subsets[0].name, ctx.names.card_attrs)
            if alike is not None and all(v.__hash__ is not None for v in ctx.names.card_attrs[alike[0]]):
                choice.one_value = (ctx.names.card_attrs[alike[0]], alike[1])
            added = summed(getattr(final, "tree", None), subsets[0].name, ctx.names.card_attrs,
                           lambda target: _reads_parameter(final, target, ctx.names))
            if added is not None:
                choice.summed = (ctx.names.card_attrs[added[0]], added[1])
        return choice, inner

    def _subset(self, path, arg, spec, inner):
        """`{pick: domain, count: k}` or `{pick: domain, min: a, max: b}` -> a Subset."""
        ctx = self.ctx
        for k in spec:
            if k not in SUBSET_FIELDS:
                ctx.unknown(path + (k,), "subset field", k, SUBSET_FIELDS, "unknown-field", key=True)
        if "pick" not in spec:
            ctx.fail(path, "a subset argument is {pick: list, count: k} (or min and max)", "missing-field")
        if "count" in spec and ("min" in spec or "max" in spec):
            ctx.fail(path + ("count",), "give either count or min and max", "effect", key=True)
        domain = ctx.expr(path + ("pick",), inner, random_ok=False)
        if domain.kind in ("int", "str", "bool", "none", "card", "player"):
            ctx.fail(path + ("pick",), f"pick chooses items of a list, but this is {a_kind(domain.kind)}", "kind")
        if "count" in spec:
            low = high = ctx.expr(path + ("count",), inner, random_ok=False)
        else:
            low = ctx.expr(path + ("min",), inner, random_ok=False) if "min" in spec else _no_fewer()
            high = ctx.expr(path + ("max",), inner, random_ok=False) if "max" in spec else _at_most_all(domain)
        noun = {"cards": "cards", "players": "players"}.get(domain.kind, "items")
        subset = Subset(arg, domain, low, high, noun)
        item = Scope(dict(inner.locals), ELEMENT.get(domain.kind, "any"))   # `it`: one item of the domain
        if "label" in spec:
            subset.label = ctx.template(path + ("label",), item)
        if "alike" in spec:
            subset.alike = ctx.expr(path + ("alike",), item, random_ok=False)
        inner.locals[arg] = domain.kind if domain.kind in ("cards", "players") else "list"
        return subset
