"""A choice (arguments, their domains, an `if`) -> Python source of one function that lists its legal options.

The options are nested loops over the domains with the condition inline, in domain order (the
order the engine has always offered). Parts of a domain or of the condition that do not depend on
the innermost arguments are computed once per value of the arguments they do depend on ("loop
invariants"), and only when first needed: choices have no side effects (no random draws), so a
value computed once is the value every iteration would compute, and a part that is never needed is
never computed (it cannot raise an error the loops would not have raised).

A part that is evaluated only sometimes (the right side of `and`/`or`, a branch of `x if c else y`) or
once per item (a `where` filter, the per-item argument of `all`, `map` ...), that walks or builds a list,
and that reads neither the argument that changes fastest nor the item, is computed once too, where the
expression first gets to it (*on demand*): it is written as `(_h if _h is not R_NO else _h_f())`, where
`_h_f`, defined once at the top of the listing, computes the part and keeps it in `_h` (`nonlocal`), and
`_h = R_NO` is written again whenever an argument it reads changes. The value, the error and the place
of the error are those of the expression as written, and the work is paid once per value of the
arguments it reads instead of once per combination. (A function rather than an assignment expression:
Python forbids those in a comprehension's iterable, where such parts often are; one defined once per
listing rather than a lambda made where the part is first needed and handed to a helper: one call
instead of two and no function made per fill: docs/compile.md has the figures.)
"""
from __future__ import annotations

from typing import NamedTuple

from lark import Tree

from ..runtime.budget import MAX_STEP_ITEMS
from ..expr.compiler import _uses_it
from ..expr.parser import _names_in
from ..expr.emit import comment, local_name


class Shared(NamedTuple):
    """A part of a step's listing computed once for all its actions, on demand (see emit_listing)."""
    cell: str     # the variable that keeps it
    read: str     # how an expression reads it (read_on_demand)
    kind: str     # the kind of its value
    src: str      # the source that computes it, in its function (filler)
    owner: object   # whose error an error computing it is (the expression it comes from)


def read_on_demand(cell: str) -> str:
    """How an expression reads a part computed on demand into `cell` (see the module's docstring)."""
    return f"({cell} if {cell} is not R_NO else {cell}_f())"


def filler(cell: str, src: str) -> list:
    """The lines of the function that computes a part on demand into `cell`, defined once per listing."""
    return [f"def {cell}_f():", f"    nonlocal {cell}", f"    {cell} = {src}", f"    return {cell}"]


def on_demand(lines, index, domains: list, size: str, written: str) -> None:
    """Statements that add to `out` a step's options of independent domains (the variables `domains`, `size`
    combinations): past SMALL, made on demand (runtime/listing.py); fewer, `written` out as before."""
    lines.add(f"if {size} > R_SMALL:")
    lines.add(f"    out = R_lazy(out, {index}, ({', '.join(domains)},), {size})")
    lines.add("else:")
    lines.add(f"    out += {written}")


# parts worth computing once: anything more than reading a name or a literal
HOISTABLE = {"call", "where", "binary", "attr", "index", "neg", "cond", "list_", "in_op", "not_in_op", "compare",
             "and_op", "or_op", "not_op"}


def worth_computing_once(tree) -> bool:
    literal = tree.data == "list_" and all(isinstance(c, Tree) and c.data in ("int_", "string") for c in tree.children)
    return tree.data in HOISTABLE and not literal


def _children(tree) -> tuple[list, list]:
    """(strict, other): the children of a tree evaluated whenever it is, and those evaluated only sometimes
    (the lazy side of and/or, the branches of if-else) or once per item (a `where` filter, a per-item
    argument). A lambda's body, whose parameters this module does not track, is in neither."""
    data, kids = tree.data, tree.children
    if data in ("and_op", "or_op"):
        return [kids[0]], kids[1:]
    if data == "cond":
        return [kids[1]], [kids[0], kids[2]]
    if data == "where":
        return [kids[0]], kids[1:]
    if data == "call":
        from ..expr.functions import FUNCTIONS
        fn = FUNCTIONS.get(str(kids[0]))
        per_item = fn.per_item if fn is not None else ()
        args = [(i in per_item, c) for i, c in enumerate(kids[1:]) if isinstance(c, Tree) and c.data != "lambda_"]
        return [c for lazy, c in args if not lazy], [c for lazy, c in args if lazy]
    return [c for c in kids if isinstance(c, Tree)], []


CHEAP_CALLS = {"count"}   # a call that reads a length: not worth computing on demand itself (its argument may be)


def costly(tree) -> bool:
    """Whether a part walks a list or builds one (a `where`, a function other than count, a list joined
    with `+`, an attribute of a list of cards): worth computing on demand (see above)."""
    if not isinstance(tree, Tree):
        return False
    data, kids = tree.data, tree.children
    if data == "where" or (data == "call" and str(kids[0]) not in CHEAP_CALLS):
        return True
    if data == "binary" and any(isinstance(c, Tree) and c.data in ("attr", "list_") for c in kids):
        return True
    if data == "attr" and isinstance(kids[0], Tree) and kids[0].data != "name":
        return True
    return any(costly(c) for c in kids if isinstance(c, Tree) and c.data != "lambda_")


class Hoister:
    """Finds the parts of an expression to compute at an outer loop level: level = how many of the
    arguments (in order) the part needs."""

    def __init__(self, arg_level: dict, names, scope):
        self.arg_level, self.names, self.scope = arg_level, names, scope

    def level(self, tree) -> int:
        return max((self.arg_level[n] for n in _names_in(tree) if n in self.arg_level), default=0)

    def parts(self, tree, here: int) -> list:
        """[(level, tree, on_demand)] of the parts of `tree`, evaluated at level `here`, worth computing
        earlier; inner parts come before the parts that contain them. `on_demand`: a part the expression
        evaluates only sometimes or per item (see the module's docstring)."""
        found = []
        self._visit(tree, here, found, False)
        return found

    def _visit(self, tree, here, found, on_demand):
        if not isinstance(tree, Tree):
            return
        strict, other = _children(tree)
        lifted = worth_computing_once(tree) and not _uses_it(tree, self.names, self.scope) \
            and (not on_demand or costly(tree)) and self.level(tree) < here
        if lifted:   # computed once per value of what it reads: its own parts are relative to that level
            here = self.level(tree)
        for child in strict:
            self._visit(child, here, found, on_demand)
        for child in other:
            self._visit(child, here, found, True)
        if lifted:
            found.append((here, tree, on_demand))


def emit_options(builder, choice, fname: str, when=None) -> None:
    """Write `def fname(g, e, me)`: the choice's options as a list of argument tuples (`when`: an action's
    condition checked first, giving no options when false)."""
    lines = builder.lines
    lines.add(f"def {fname}(g, e, me):")
    with lines.indent():
        lines.add("out = []")
        emit_listing(builder, choice, when, None)
        lines.add("return out")
    lines.add("")


def emit_step(builder, step, fname: str) -> tuple[bool, bool]:
    """Write `def fname(g, e, me)`: every option of a decision's actions (a step's, a `react` window's, a
    `choose` of actions') as (action index, arguments), and its pass (-1, ()) when it is optional and there is
    something to pass on. An action with subset
    arguments gives the options its own function lists and the engine keeps (those whose subsets can be
    picked, engine/choices.py). Returns whether the listing reads its chooser `me` (when it does not, every
    chooser of a decision asked of several has the same options), and whether it may make options on demand
    (a Listing, runtime/listing.py: never empty, counted by a call of Python)."""
    lines = builder.lines
    lines.add(f"def {fname}(g, e, me):")
    with lines.indent():
        lines.add("out = []")
        at = lines.mark()
        # parts that read no argument, written alike in several actions (`me.hand + me.offer`), computed once
        shared = {} if len(step.actions) > 1 else None
        repeated = repeated_calls([a for a in step.actions if not a.subsets], builder.names) if shared is not None \
            else frozenset()
        for i, action in enumerate(step.actions):
            lines.add(comment(f"{action.name}"))
            if action.subsets:
                listed = builder.ns.const(action.options, "K_options")
                lines.add(f"out += [({i}, _a) for _a in {listed}(g, me)]")
                continue
            emit_listing(builder, action, action.when, i, shared, repeated)
        if shared:
            header = [f"{part.cell} = R_NO" for part in shared.values()]
            lines.insert(at, header, lines.node)
            at += len(header)
            for part in shared.values():
                body = filler(part.cell, part.src)
                lines.insert(at, body, part.owner)   # an error computing it is told at its expression
                at += len(body)
        if step.optional:
            lines.add("if out:")
            lines.add("    out.append((-1, ()))")
        lines.add("return out")
        chooser, on_demand = lines.reads("me", at), lines.reads("R_lazy", at)
    lines.add("")
    return chooser, on_demand


def _item_free_parts(tree, names, scope) -> list:
    """The parts of a domain's tree, inner ones first, that read no item of a per-item part (a `where`
    filter's `it`, a lambda's parameter): inside a lambda's body, `x -> count((me.hand + me.offer) where
    c == x)`, the join reads neither."""
    found = []

    def visit(t, params):
        if not isinstance(t, Tree):
            return
        strict, other = _children(t)
        for c in strict + [c for c in other if not _uses_it(c, names, scope)]:
            visit(c, params)
        if t.data == "call":
            for c in t.children[1:]:
                if isinstance(c, Tree) and c.data == "lambda_":
                    visit(c.children[-1], params | {str(c.children[0])})
        if not _uses_it(t, names, scope) and not (params and params.intersection(_names_in(t))):
            found.append(t)
    visit(tree, frozenset())
    return found


def repeated_calls(actions, names) -> set:
    """The texts of the calls that read no argument and are written in the domains of more than one of a
    step's actions (`distinct((me.hand + me.offer).suit)`, sorted in one action and filtered in another):
    computed once for the listing, as the joins are (see `shareable`)."""
    seen: dict = {}
    for action in actions:
        texts = set()
        for fn in action.domains:
            tree = getattr(fn, "tree", None)
            if tree is not None and not set(action.arg_names).intersection(_names_in(tree)):
                texts.update(str(t) for t in _item_free_parts(tree, names, fn.scope)
                             if t.data == "call" and costly(t))
        for text in texts:
            seen[text] = seen.get(text, 0) + 1
    return {text for text, n in seen.items() if n > 1}


def shareable(tree, names, scope, repeated=frozenset()) -> list:
    """The parts of a tree that reads no argument to compute once for a whole step: the lists it joins with
    `+` (`me.hand + me.offer`, often written in several actions) and the calls written in several actions'
    domains (`repeated`), then the tree itself, when worth it; not a part that reads the item of a
    per-item part (see _item_free_parts)."""
    found = [t for t in _item_free_parts(tree, names, scope)
             if (t.data == "binary" and str(t.children[1]) == "+" or t.data == "call" and str(t) in repeated)
             and costly(t)]
    if worth_computing_once(tree) and costly(tree) and not _uses_it(tree, names, scope) \
            and (not found or found[-1] is not tree):
        found.append(tree)
    return found


def emit_listing(builder, choice, when, index, shared=None, repeated=frozenset()) -> None:
    """Statements that append the choice's options to `out`: argument tuples, or (index, arguments).

    `shared` (a step's listing of several actions): the parts that read no argument are computed on demand
    into cells of the whole function, one per text, so that a part written alike in several actions is
    computed once (text, or a tally's key -> Shared; the cells and their functions are made at the function's
    start)."""
    from ..expr.compiler import GROUP, chosen_from_groups, emit_expr, walked, walked_source
    lines, ns, names = builder.lines, builder.ns, builder.names
    node = lines.node   # whose error a line is that evaluates more than one expression (the step's, or none)

    def placed(fn):
        """Who a line that evaluates the expression `fn` only belongs to, for the place of its errors (Generated.
        fused_origin): the expression itself, told at its file, line and column, as an effect's is."""
        return fn if getattr(fn, "loc", None) is not None else node

    def add(fn, text):
        lines.node = placed(fn)
        lines.add(text)
        lines.node = node

    def comprehension(row, parts):
        """`out += [row for ... for ... if ...]`, a part (fn, text) a line: an error in a domain or in the condition
        is told at it (a traceback names the line of a comprehension's part that raised)."""
        lines.add(f"out += [{row}")
        for i, (fn, text) in enumerate(parts):
            add(fn, f"        {text}" + ("]" if i == len(parts) - 1 else ""))

    args = choice.arg_names
    variables = [local_name(a) for a in args]
    # an argument chosen from groups(xs, attr) holds a group wherever it is read (emit_expr's `known`)
    known = {var: GROUP for var, fn in zip(variables, choice.domains) if chosen_from_groups(fn, names, ns)}
    arg_level = {a: i + 1 for i, a in enumerate(args)}
    depth = 0
    start = lines.mark()
    fillers = []      # the functions of the parts computed on demand (see the module's docstring)
    if when is not None:
        add(when, f"if {emit_expr(when, names, ns, {'me': 'me'})}:")
        lines.depth += 1
        depth += 1
    # what each level computes: the domain of its argument, then (innermost) the condition
    exprs = [(i, d) for i, d in enumerate(choice.domains)] + ([(len(args), choice.cond)] if choice.cond else [])
    subst = {}        # id(tree) -> (variable, kind), for hoisted parts once written
    planned = set()
    resets = {}       # level -> [variables to mark as not computed yet]
    fills = {}        # use level -> [(variable, tree, fn)], inner parts first
    eager = []        # domains that need no argument: computed first, as the engine always did
    for here, fn in exprs:
        if fn is None or getattr(fn, "tree", None) is None:
            continue
        hoister = Hoister(arg_level, names, fn.scope)
        if 0 < here < len(args) and hoister.level(fn.tree) == 0 and worth_computing_once(fn.tree):
            eager.append((ns.fresh("d"), fn.tree, fn))
            planned.add(id(fn.tree))
        for lv, tree, lazy in hoister.parts(fn.tree, here):
            if id(tree) in planned:
                continue
            planned.add(id(tree))
            var = ns.fresh("h")
            resets.setdefault(lv, []).append(var)
            fills.setdefault(here, []).append((var, tree, fn, lazy))

    def tally(tree, table):
        """The tally of a shared part by an attribute's table (`count(part where attr == v)` for several v):
        computed once for the listing, on demand, in a cell beside the part's (a part not shared: None)."""
        key = str(tree)
        part = shared.get(key) if shared is not None else None
        if part is None or subst.get(id(tree), (None,))[0] != part.read:
            return None
        found = shared.get(("tally", key, table))
        if found is None:
            cell = ns.fresh("t")
            found = shared[("tally", key, table)] = Shared(cell, read_on_demand(cell), "dict",
                                                           f"R_tally(g, {part.read}, {table})", part.owner)
        return found.read

    def emit(fn, py):
        return emit_expr(fn, names, ns, py, subst=subst, tally=tally, known=known)

    def share(fn, tree, py):
        """A part that reads no argument, in a cell of the step's function that every action reads (made
        on demand, so an action whose `when` fails or that never gets to it computes nothing)."""
        key = str(tree)   # the same text: the same value (no argument read, nothing changes while listing)
        found = shared.get(key)
        if found is None:
            src, kind = emit_expr(fn, names, ns, py, subst=subst, tree=tree, with_kind=True, tally=tally)
            cell = ns.fresh("s")
            found = shared[key] = Shared(cell, read_on_demand(cell), kind, src, placed(fn))
        return found.read, found.kind

    if shared is not None:
        # the domains that read no argument: they and the lists they join, shared too
        for fn in choice.domains:
            tree = getattr(fn, "tree", None)
            if tree is not None and Hoister(arg_level, names, fn.scope).level(tree) == 0:
                for part in shareable(tree, names, fn.scope, repeated):
                    subst[id(part)] = share(fn, part, {"me": "me"})

    # every domain walked pays its length from the step's budget (runtime/budget.py); with several
    # arguments that is their combinations, refused as such when they are too many
    if len(args) > 1:
        too_many = ns.const(f"the arguments of '{choice.name}' make more than {MAX_STEP_ITEMS:,} "
                            "combinations to try (see Limits in the language reference)", "S_combos")

        def domain(fn, py):
            return f"R_combos(g, {walked_source(emit(fn, py))}, {too_many})"
    else:
        def domain(fn, py):
            return walked(emit(fn, py))

    row = "(" + ", ".join(variables) + ("," if len(variables) == 1 else "") + ")"
    if index is not None:
        row = f"({index}, {row})"
    py = {"me": "me"}
    if not fills and len(args) > 1 and choice.independent and all(getattr(d, "tree", None) is not None
                                                                 for d in choice.domains):
        # no domain reads an argument: as the engine does, every domain once, in order, and their
        # product paid for in one call (not one per combination of the arguments before the last)
        names_of = []
        for fn in choice.domains:
            var = ns.fresh("d")
            src = walked_source(emit(fn, py))
            add(fn, f"{var} = {src}")
            names_of.append(var)
        paid = f"R_product(g, {too_many}, {', '.join(names_of)})"   # -> how many combinations
        if choice.cond is None:
            # every combination, in the same order as the nested loops, made by itertools in C
            every = f"R_cartesian({', '.join(names_of)})"
            if index is None:
                lines.add(paid)
                lines.add(f"out += {every}")
            else:   # a step's: past a few options, made on demand (runtime/listing.py), an option when read
                n = ns.fresh("n")
                lines.add(f"{n} = {paid}")
                on_demand(lines, index, names_of, n, f"[({index}, _args) for _args in {every}]")
            lines.depth -= depth
            return
        lines.add(paid)
        py = {**py, **dict(zip(args, variables))}
        comprehension(row, [(None, f"for {var} in {d}") for var, d in zip(variables, names_of)]
                      + [(choice.cond, f"if {emit(choice.cond, py)}")])
        lines.depth -= depth
        return
    for var, tree, fn in eager:
        if shared is not None and costly(tree):
            subst[id(tree)] = share(fn, tree, py)
            add(fn, f"{var} = {subst[id(tree)][0]}")
            continue
        src, kind = emit_expr(fn, names, ns, py, subst=subst, tree=tree, with_kind=True, tally=tally,
                              known=known)
        subst[id(tree)] = (var, kind)
        add(fn, f"{var} = {src}")
    if not fills:
        # no part waits for an argument: one list comprehension
        loops, sources = [], []
        for name, var in zip(args, variables):
            sources.append(domain(choice.domains[len(loops)], py))
            loops.append(f"for {var} in {sources[-1]}")
            py = {**py, name: var}
        test = emit(choice.cond, py) if choice.cond is not None else None
        cond = f" if {test}" if test is not None else ""
        if len(loops) == 1:
            # the list first, on a line of its own, then the condition: an error in either is told at it
            d = ns.fresh("d")
            add(choice.domains[0], f"{d} = {sources[0]}")
            written = f"[{row} for {variables[0]} in {d}{cond}]"
            if not cond and index is not None:
                # a step's, unfiltered: past a few options, made on demand (runtime/listing.py)
                on_demand(lines, index, [d], f"len({d})", written)
            else:
                add(choice.cond, f"out += {written}")
        elif loops:
            comprehension(row, list(zip(choice.domains, loops)) + ([(choice.cond, f"if {test}")] if cond else []))
        elif cond:
            add(choice.cond, f"if {test}:")
            lines.add(f"    out.append({row})")
        else:
            lines.add(f"out.append({row})")
        lines.depth -= depth
        return

    def fill(level, py):
        for var, tree, fn, lazy in fills.get(level, ()):
            if shared is not None and var in level0 and costly(tree):
                subst[id(tree)] = share(fn, tree, py)
                continue
            src, kind = emit_expr(fn, names, ns, py, subst=subst, tree=tree, with_kind=True, tally=tally,
                                  known=known)
            if lazy:   # computed where the expression gets to it, once (see the module's docstring)
                subst[id(tree)] = (read_on_demand(var), kind)
                fillers.append((filler(var, src), placed(fn)))
                continue
            subst[id(tree)] = (var, kind)
            add(fn, f"if {var} is R_NO:")
            add(fn, f"    {var} = {src}")

    def reset(level):
        for v in resets.get(level, ()):
            if v not in level0:
                lines.add(f"{v} = R_NO")

    # parts that read no argument and walk or make a list: shared (see `share`)
    level0 = {v for v, tree, _, _ in (e for entries in fills.values() for e in entries)
              if v in resets.get(0, ()) and costly(tree)} if shared is not None else set()
    for i, (name, var) in enumerate(zip(args, variables)):
        reset(i)
        fill(i, py)
        add(choice.domains[i], f"for {var} in {domain(choice.domains[i], py)}:")
        lines.depth += 1
        depth += 1
        py = {**py, name: var}
    reset(len(args))
    fill(len(args), py)
    if choice.cond is not None:
        add(choice.cond, f"if {emit(choice.cond, py)}:")
        lines.add(f"    out.append({row})")
    else:
        lines.add(f"out.append({row})")
    lines.depth -= depth
    for body, owner in reversed(fillers):   # defined once, before the loops that read them, in order
        lines.insert(start, body, owner)
