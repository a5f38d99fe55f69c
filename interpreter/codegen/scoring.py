"""A ruleset's position values (`agents: evaluate`, the score parts) -> functions of (game state, player).

Bots score positions many times a decision, and final scoring runs at every game's end: where the
expressions kept their checked trees, code generation writes them as `V_evaluate(g, me)` (the value of
`agents: evaluate` for player `me`) and `V_parts(g, me)` (the values of the score parts, in order), with
`me` a Python variable rather than an environment built per call. They are the same expressions, so
they compute the same values and pay the same work budget as each expression called alone. An error
is told at the expression (file, line and column), as the VM tells an effect's.
"""
from __future__ import annotations

from ..expr.emit import comment
from ..expr.parser import argument_of


def top_level(tree):
    """The parts of an expression's tree evaluated in its own scope (not per item, not inside a lambda)."""
    from lark import Tree
    from ..expr.functions import FUNCTIONS
    yield tree
    if not isinstance(tree, Tree) or tree.data == "lambda_":
        return
    kids = tree.children
    if tree.data == "where":
        kids = kids[:1]
    elif tree.data == "call":
        fn = FUNCTIONS.get(str(kids[0]))
        per_item = fn.per_item if fn is not None else ()
        kids = [c for i, c in enumerate(kids[1:]) if i not in per_item]
    for child in kids:
        yield from top_level(child)


def shared_lists(b, expr):
    """A card attribute of a zone's cards read more than once in an expression (`me.hand.colour` in
    `count(distinct(me.hand.colour))` and `counts(me.hand.colour)`): the list is made once, first, and
    each place that read it pays the walk it paid, where it paid it (`R_walk` of the list, as long as
    the zone), so values, work and errors stay those of the expression as written. Making the list
    cannot fail: reading the zone and the attribute table of a card does not.
    -> (lines that make the lists, {id of each place: (source, kind)} for emit_expr)."""
    from lark import Tree
    from ..expr.compiler import ZONE_READ, emit_expr
    if getattr(expr, "tree", None) is None:
        return [], {}
    seen: dict = {}
    for t in top_level(expr.tree):
        if isinstance(t, Tree) and t.data == "attr" and _zone_like(t.children[0], Tree):
            seen.setdefault(t, []).append(t)
    before, subst = [], {}
    parents = {id(c): t for t in expr.tree.iter_subtrees() for c in t.children if isinstance(c, Tree)}
    for places in seen.values():
        if len(places) < 2:
            continue
        src, kind = emit_expr(expr, b.names, b.ns, {"me": "me"}, tree=places[0], with_kind=True)
        base = emit_expr(expr, b.names, b.ns, {"me": "me"}, tree=places[0].children[0])
        tail = f" in R_walk(g, {base})]"
        read = ZONE_READ.fullmatch(base)
        if kind != "values" or not src.startswith("[") or not src.endswith(tail) or read is None:
            continue
        table = src[1:src.index("[", 1)]
        counted = [_counted_use(t, parents) for t in places]
        if all(counted) and all(type(v) in _HASHED for v in b.ns.values[table]):
            # every place counts the values (`count(distinct(...))`, `counts(...)`): the cards counted by
            # value once, each place paying the two walks it paid (runtime/helpers.py, distinct_size);
            # the zone's list read once too: an expression changes no zone; counted once per list the zone holds
            var, zone = b.ns.fresh("counted"), b.ns.fresh("zone")
            before += [f"{zone} = {base}", f"{var} = R_zone_counted({read[1]}, {zone}, {table})"]
            for use, helper in counted:
                _, use_kind = emit_expr(expr, b.names, b.ns, {"me": "me"}, tree=use, with_kind=True)
                subst[id(use)] = (f"{helper}(g, {var}, len({zone}))", use_kind)
            continue
        var = b.ns.fresh("list")
        before.append(f"{var} = {src[:-len(tail)]} in {base}]")
        for t in places:
            subst[id(t)] = (f"R_walk(g, {var})", kind)
    return before, subst


_HASHED = (int, str, bool, float, type(None))   # attribute values a dict counts as distinct() and counts() do


def _counted_use(place, parents):
    """(the tree, the helper) where an attribute list is only counted by value: `count(distinct(place))`
    -> R_distinct_size, `counts(place)` -> R_count_values; else None."""
    parent = parents.get(id(place))
    if argument_of(parent, "counts") is place:
        return parent, "R_count_values"
    if argument_of(parent, "distinct") is not place:
        return None
    outer = parents.get(id(parent))
    return (outer, "R_distinct_size") if argument_of(outer, "count") is parent else None


def _zone_like(tree, Tree) -> bool:
    """Whether a tree may name a zone without computing anything (`deck`, `me.hand`, `current.hand`)."""
    if not isinstance(tree, Tree):
        return False
    if tree.data == "name":
        return True
    base = tree.children[0] if tree.data == "attr" else None
    return isinstance(base, Tree) and base.data == "name" and str(base.children[0]) in ("me", "current")


def emit_values(b) -> list:
    """Write `V_evaluate` (when the ruleset declares `agents: evaluate`) and `V_parts`
    -> [(what, function name)], what being "evaluate" or "parts"."""
    rs, lines = b.rs, b.lines
    out = []

    def guarded(expr, target: str) -> None:
        """`target <value of expr>`, an error told at the expression."""
        from ..expr.compiler import emit_expr
        fail, errors = "R_located", "R_errors"
        before, subst = shared_lists(b, expr)
        lines.add("try:")
        with lines.indent():
            for line in before:
                lines.add(line)
            lines.add(f"{target}{emit_expr(expr, b.names, b.ns, {'me': 'me'}, subst=subst)}")
        lines.add(f"except {errors} as _x:")
        lines.add(f"    raise {fail}(_x, {b.ns.const(expr, 'K_expr')}) from None")

    lines.node = None
    if rs.evaluate is not None:
        fname = b.ns.fresh_global("V_evaluate")
        lines.add(comment("how good the position is for player me: the ruleset's 'agents: evaluate' (bots)"))
        lines.add(f"def {fname}(g, me):")
        with lines.indent():
            guarded(rs.evaluate, "return ")
        lines.add("")
        out.append(("evaluate", fname))
    parts = [expr for _, expr in rs.scoring.parts]
    fname = b.ns.fresh_global("V_parts")   # without parts, it gives the empty list
    lines.add(comment("the score parts of player me, in order (final scoring; bots without 'evaluate')"))
    lines.add(f"def {fname}(g, me):")
    names = []
    with lines.indent():
        for expr in parts:
            names.append(b.ns.fresh("part"))
            guarded(expr, f"{names[-1]} = ")
        lines.add(f"return [{', '.join(names)}]")
    lines.add("")
    out.append(("parts", fname))
    return out


def install_values(rs, values: dict, written: list) -> None:
    """Put the compiled functions where the bots and final scoring find them (`rs.evaluation`, `values` of
    its Scoring)."""
    for what, fname in written:
        if what == "evaluate":
            rs.evaluation = values[fname]
        else:
            rs.scoring.values = values[fname]
