"""The effects on values: `set`, `add` and `let`."""
from __future__ import annotations

from lark import Tree

from ..expr.compiler import KIND_WORDS, ExprError
from ..expr.emit import key, local_name
from ..expr.parser import parse
from .base import Effect, ref
from .text import code, words

SCALAR_KINDS = {"int", "bool", "str", "player", "card", "none", "value"}


class Set(Effect):
    """`set`: game, player or card variables assigned (`add`: added to)."""

    key = "set"
    text = "Give variables new values, as in 'set: {took: 0, me.score: 3}'."
    value = ref("assignments", "Variable: new value.")
    defs = {
        "assignments": {
            "description": "Variable: value. A game variable by name (took), a player's variable as player.variable "
                           "(me.score, p.score).",
            "type": "object", "minProperties": 1, "propertyNames": {"$ref": "#/$defs/assignment_target"},
            "additionalProperties": ref("expression", "The value.")},
        "assignment_target": {
            "description": "A variable to change: a game variable (took), player.variable (me.score) or "
                           "card.variable (card.mark).",
            "type": "string", "pattern": "^(.+\\.)?[A-Za-z_][A-Za-z0-9_]*$"},
    }
    add = False

    def __init__(self, targets):
        self.targets = targets  # [(kind, name, owner fn or None, value fn)]

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + (cls.key,)
        if not isinstance(value, dict) or not value:
            c.ctx.fail(p, "expected a map of variable: value", "type")
        targets = []
        for name, v in value.items():
            kind, var, who = target(c, p + (name,), str(name), scope)
            targets.append((kind, var, who, c.ctx.expr(p + (name,), scope)))
            c.ctx.names.assigned.setdefault((kind, var), set()).add("add" if cls.add else targets[-1][3].kind)
        return cls(targets)

    def emit(self, w, py):
        add = self.add
        for kind, name, who, value in self.targets:
            v = w.expr(value, py)
            if kind == "var" and not add and value.kind in SCALAR_KINDS:
                # a single value needs no copy: assigned here, unless the change is recorded for narration
                w.add("if vm.record:")
                w.add(f"    N_set_var(vm, g, {key(name)}, {v}, False)")
                w.add("else:")
                w.add(f"    g.vars[{key(name)}] = {v}")
            elif kind == "var" and add:
                # a number added to a number here (within the numbers' bounds), unless recorded; else the runtime's
                val, old = w.fresh("v"), w.fresh("o")
                w.add(f"{val} = {v}")
                w.add("if vm.record:")
                w.add(f"    N_set_var(vm, g, {key(name)}, {val}, True)")
                w.add("else:")
                w.add(f"    {old} = g.vars[{key(name)}]")
                w.add(f"    g.vars[{key(name)}] = {_added(w, old, val)}")
            elif kind == "var":
                w.add(f"N_set_var(vm, g, {key(name)}, {v}, {add})")
            elif kind == "pvar" and (add or value.kind in SCALAR_KINDS):
                # a player's single value set, or a number added, here (the player checked as as_player checks it)
                val, p = w.fresh("v"), w.fresh("p")
                w.add(f"{val} = {v}")
                whom = w.expr(who, py)
                w.add("if vm.record:")
                w.add(f"    N_set_player_var(vm, g, {key(name)}, {whom}, {val}, {add})")
                w.add("else:")
                w.add(f"    {p} = {whom}")
                w.add(f"    if type({p}) is not R_Player or {p} >= g.n:")
                w.add(f"        {p} = N_as_player(g, {p})")
                if add:
                    table, old = w.fresh("t"), w.fresh("o")
                    w.add(f"    {table} = g.pvars[{key(name)}]")
                    w.add(f"    {old} = {table}[{p}]")
                    w.add(f"    {table}[{p}] = {_added(w, old, val)}")
                else:
                    w.add(f"    g.pvars[{key(name)}][{p}] = {val}")
            else:
                helper = "N_set_player_var" if kind == "pvar" else "N_set_card_var"
                w.add(f"_v = {v}")
                w.add(f"{helper}(vm, g, {key(name)}, {w.expr(who, py)}, _v, {add})")

    @classmethod
    def explain(cls, f, _):
        return f"Set {words(f'{code(k)} to {code(v)}' for k, v in f.items())}.", []


def _added(w, old: str, val: str) -> str:
    """`old + val` as `add` makes it (runtime/effects.py, grown): two numbers added here, the sum within the
    numbers' bounds; anything else (texts, lists, a sum out of bounds) by the runtime, with its checks."""
    total = w.fresh("n")
    return (f"({total} if type({old}) is int and type({val}) is int and -R_MAX <= ({total} := {old} + {val}) "
            f"<= R_MAX else N_grown(g, {old}, {val}))")


class Add(Set):
    """`add`: numbers added to variables (texts and lists joined)."""

    key = "add"
    text = "Add to number variables, as in 'add: {me.score: 2}' (use a negative number to subtract)."
    value = ref("assignments", "Variable: amount to add.")
    defs = {}   # the assignments are set's
    add = True

    @classmethod
    def explain(cls, f, _):
        return f"Add {words(f'{code(v)} to {code(k)}' for k, v in f.items())}.", []


def target(c, path, text, scope):
    """A variable to assign: `name` (a game variable), `player.name` or `card.name` -> (kind, name, owner)."""
    ctx, names = c.ctx, c.ctx.names
    try:
        tree = parse(text)
    except ExprError as exc:
        ctx.fail(path, exc.message, exc.code, key=True)
    if isinstance(tree, Tree) and tree.data == "name":
        name = str(tree.children[0])
        if name in names.global_vars:
            names.used.add(("var", name))
            return "var", name, None
        if name in names.player_vars:
            ctx.fail(path, f"'{name}' is a variable of each player: say whose, as in 'me.{name}'",
                     "unknown-name", key=True)
        if name in names.card_vars:
            ctx.fail(path, f"'{name}' is a variable of each card: say which card's, as in 'card.{name}'",
                     "unknown-name", key=True)
        if name in names.params:
            ctx.fail(path, f"'{name}' is a parameter, and parameters do not change during a game: "
                     "declare it under 'variables' to change it", "lvalue", key=True)
        if name in scope.locals:
            ctx.fail(path, f"'{name}' is a local name: give it a new value with 'let', not 'set'",
                     "lvalue", key=True)
        ctx.unknown(path, "variable", name, names.global_vars | names.player_vars, key=True)
    if isinstance(tree, Tree) and tree.data == "attr":
        name = str(tree.children[1])
        base_text = text[:text.rfind(".")]
        if name in names.player_vars:
            names.used.add(("pvar", name))
            who = ctx.expr(path, scope, value=base_text)
            if who.kind not in ("player", "any", "int", "number"):
                ctx.fail(path, f"'{name}' is a variable of each player, but '{base_text}' is a "
                         f"{KIND_WORDS.get(who.kind, who.kind)}", "kind", key=True)
            return "pvar", name, who
        if name in names.card_vars:
            names.used.add(("cvar", name))
            who = ctx.expr(path, scope, value=base_text)
            if who.kind not in ("card", "cards", "any", "list"):
                ctx.fail(path, f"'{name}' is a variable of each card, but '{base_text}' is a "
                         f"{KIND_WORDS.get(who.kind, who.kind)}", "kind", key=True)
            return "cvar", name, who
        ctx.unknown(path, "player or card variable", name, names.player_vars | set(names.card_vars), key=True)
    ctx.fail(path, "expected a variable name, player.variable or card.variable", "lvalue", key=True)


class Let(Effect):
    """`let`: local names bound for the rest of the action or procedure."""

    key = "let"
    text = "Name values for the effects after it in the same list, as in 'let: {top: first(pile).value}'."
    value = {"description": "New name: expression. Names must not clash with anything else in the ruleset.",
             "type": "object", "propertyNames": {"$ref": "#/$defs/identifier"},
             "additionalProperties": ref("expression", "The value this name stands for."), "minProperties": 1}

    def __init__(self, bindings):
        self.bindings = bindings

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("let",)
        if not isinstance(value, dict) or not value:
            c.ctx.fail(p, "expected a map of name: expression", "type")
        bindings = []
        for name, v in value.items():
            c.check_local(p + (name,), name)
            compiled = c.ctx.expr(p + (name,), scope)
            bindings.append((name, compiled))
            scope.locals[name] = compiled.kind
        return cls(bindings)

    def emit(self, w, py):
        for name, value in self.bindings:
            v = w.expr(value, py)
            var = local_name(name)
            if value.kind in ("cards", "players"):
                # a list of cards or players (never a list inside): paid for, inline, as N_keep does (kept as it
                # is: no list is changed in place, a zone's neither)
                w.add(f"{var} = {v}")
                w.add(f"if type({var}) is list:")
                w.add(f"    g.work = _w = g.work - len({var})")
                w.add("    if _w < 0:")
                w.add("        raise R_over_items()")
                w.keeps(name, var)
            else:
                v = v if value.kind in SCALAR_KINDS else f"N_keep(g, {v})"
                w.add(f"{var} = {v}")
                w.keeps(name, var)
            py[name] = var

    @classmethod
    def explain(cls, f, _):
        return f"Let {words(f'{code(k)} be {code(v)}' for k, v in f.items())}.", []
