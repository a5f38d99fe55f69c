"""The effects that run other effects: `if`, `while`, `until`, `for_each` and `call`.

A loop whose body never waits for a decision is a Python loop of generated code; one whose body waits is
run by the VM (engine/nodes.py: Repeat, ForEach), which these classes derive from.
"""
from __future__ import annotations

from ..engine import nodes as vm
from ..expr.compiler import Scope, item_kind
from ..expr.emit import key, local_name
from ..runtime.effects import MAX_LOOP
from .base import Effect, ref
from .text import code, words

DEFAULT_LOOP_MAX = 1000


class If(Effect):
    """`if`: `then` or `else` run depending on a condition."""

    key = "if"
    text = "Run 'then' effects when a condition holds, else the 'else' effects."
    value = ref("expression", "The condition, as in 'count(deck) == 0'.")
    beside = {"then": ref("effect_list", "Effects run when the condition holds."),
              "else": ref("effect_list", "Effects run when it does not.")}
    required = ("then",)
    pushes = True

    def __init__(self, cond, then_block, else_block):
        self.cond, self.then_block, self.else_block = cond, then_block, else_block

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        cond = c.ctx.expr(path + ("if",), scope)
        if "then" not in fields:
            c.ctx.fail(path, "an 'if' needs 'then:' effects", "missing-field")
        then_block = c.block(path + ("then",), scope)
        else_block = c.block(path + ("else",), scope) if "else" in fields else None
        return cls(cond, then_block, else_block)

    def blocks(self):
        return tuple(b for b in (self.then_block, self.else_block) if b is not None)

    def emit(self, w, py):
        w.add(f"if {w.expr(self.cond, py)}:")
        with w.indent():
            w.block(self.then_block, py)
        if self.else_block is not None:
            w.add("else:")
            with w.indent():
                w.block(self.else_block, py)

    @classmethod
    def explain(cls, cond, e):
        return f"If {code(cond)}:", [(None, e.get("then")), ("Otherwise:", e.get("else"))]


class While(Effect, vm.Repeat):
    """`while`: the body run as long as a condition holds, at most `max` times."""

    key = "while"
    text = "Repeat the 'do' effects as long as a condition holds, at most 'max' times (default 1000)."
    value = ref("expression", "The condition, checked before each repetition.")
    beside = {"max": ref("expression", "The most repetitions allowed (default 1000)."),
              "do": ref("effect_list", "The effects to repeat.")}
    required = ("do",)
    until = False

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        ctx = c.ctx
        cond = ctx.expr(path + (cls.key,), scope)
        if "do" not in fields:
            ctx.fail(path, f"a '{cls.key}' loop needs 'do:' effects", "missing-field")
        limit = ctx.expr(path + ("max",), scope) if "max" in fields else ctx.expr(path, scope, value=DEFAULT_LOOP_MAX)
        body = c.block(path + ("do",), scope)
        c.body_check(path + ("do",), body)
        return cls(cond, cls.until, limit, body)

    def blocks(self):
        return (self.body,)

    def emit(self, w, py):
        cond = w.expr(self.cond, py)
        go_on = f"(not {cond})" if self.until else cond
        limit, n = w.fresh("limit"), w.fresh("n")
        where = w.const(self.where(), "S_where")
        w.add(f"if {go_on}:")
        with w.indent():
            most = getattr(self.limit, "constant", None)
            if most is not None and type(most[0]) is int and 1 <= most[0] <= MAX_LOOP:
                w.add(f"{limit} = {int(most[0])}")   # a `max` written as a number: N_loop_limit has nothing to do
            else:
                w.add(f"{limit} = N_loop_limit(vm, {w.expr(self.limit, py)}, {where})")
                w.add(f"if {limit} < 1:")
                w.add(f"    {w.stop}")
            w.add(f"{n} = 1")
            w.add("while True:")
            with w.indent():
                # each pass counts its effects towards the step's budget, as the VM counts a block's
                w.loop_pass(self)
                with w.inside(self):
                    w.block(self.body, py)
                w.add(f"if not {go_on}:")
                w.add("    break")
                w.add(f"if {n} >= {limit}:")
                w.add(f"    N_loop_spent(vm, {limit}, {where})")
                w.add(f"    {w.stop}")
                w.add(f"{n} += 1")

    @classmethod
    def explain(cls, cond, e):
        limit = e.get("max", DEFAULT_LOOP_MAX)
        return f"Repeat {cls.key} {code(cond)} (at most {code(limit)} times):", [(None, e.get("do"))]


class Until(While):
    """`until`: the body run until a condition holds, at most `max` times."""

    key = "until"
    text = "Repeat the 'do' effects until a condition holds, at most 'max' times (default 1000)."
    until = True


class ForEach(Effect, vm.ForEach):
    """`for_each`: the body run once per item of a list (taken when the loop starts), the item named."""

    key = "for_each"
    text = "Run the 'do' effects once for each item of a list, as in 'for_each: p' with 'in: players'."
    value = ref("identifier", "The name each item gets in turn, as in p or r.")
    beside = {"in": ref("expression", "The list to go through, as in players or range(rows)."),
              "do": ref("effect_list", "The effects run for each item.")}
    required = ("in", "do")

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        ctx = c.ctx
        if not isinstance(value, str):
            ctx.fail(path + ("for_each",), "expected the name to bind each item to", "type")
        c.check_local(path + ("for_each",), value)
        for k in ("in", "do"):
            if k not in fields:
                ctx.fail(path, f"a 'for_each' needs '{k}:'", "missing-field")
        items = ctx.expr(path + ("in",), scope)
        inner = Scope({**scope.locals, value: item_kind(items)}, scope.it)
        body = c.block(path + ("do",), inner)
        c.body_check(path + ("do",), body)
        return cls(value, items, body)

    def blocks(self):
        return (self.body,)

    def emit(self, w, py):
        var = local_name(self.name)
        w.add(f"for {var} in N_keep(g, {w.expr(self.items, py)}):")   # the items paid for, kept as they are
        with w.indent():
            w.loop_pass(self)
            w.keeps(self.name, var)
            with w.inside(self):
                w.block(self.body, {**py, self.name: var})

    @classmethod
    def explain(cls, name, e):
        return f"For each {code(name)} in {code(e.get('in'))}:", [(None, e.get("do"))]


class Call(Effect):
    """`call`: a named procedure run with its own local names, `me` and the arguments given."""

    key = "call"
    text = "Run a procedure, as in 'call: exhausted'."
    value = ref("identifier", "The name of the procedure (from 'procedures').")
    beside = {"with": {"description": "Argument: value, one for each of the procedure's args.",
                       "type": ["object", "null"], "propertyNames": {"$ref": "#/$defs/identifier"},
                       "additionalProperties": ref("expression", "The value for this argument.")}}
    pushes = True

    def __init__(self, block, args, name=None):
        self.block, self.args, self.name = block, args, name

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        ctx = c.ctx
        if not isinstance(value, str):
            named = next(iter(value)) if isinstance(value, dict) and len(value) == 1 else None
            if named in c.procedures:   # `call: {give: {...}}`: the arguments go under `with`
                ctx.fail(path + ("call",), "call names a procedure", "type",
                         f"write the procedure's name, and its arguments under 'with': "
                         f"{{call: {named}, with: {{...}}}}")
            ctx.fail(path + ("call",), "call names a procedure", "type")
        if value not in c.procedures:
            ctx.unknown(path + ("call",), "procedure", value, c.procedures, "unknown-procedure")
        block, arg_names = c.procedures[value]
        given = fields.get("with") or {}
        if not isinstance(given, dict):
            ctx.fail(path + ("with",), "expected a map of argument: expression", "type")
        args = []
        for k in given:
            if k not in arg_names:
                ctx.unknown(path + ("with", k), "argument", k, arg_names, "unknown-argument", key=True)
            args.append((k, ctx.expr(path + ("with", k), scope)))
        for k in arg_names:
            if k not in given:
                ctx.fail(path, f"procedure '{value}' needs the argument '{k}'", "missing-field")
        return cls(block, args, value)

    def blocks(self):
        return (self.block,)

    def emit(self, w, py):
        env = ", ".join([f"'me': {py.get('me', 'me')}"] +
                        [f"{key(name)}: N_keep(g, {w.expr(value, py)})" for name, value in self.args])
        if not w.block_fusible(self.block):
            # the procedure waits for a decision (or calls itself): pushed for the VM, whose stack limit holds
            w.add(f"vm.push({int(self.block)}, {{{env}}})")
            w.add("return False")
            return
        fname = w.procedure(self.block, self.name or f"block{self.block}")
        w.add(f"if {fname}(vm, g, {{{env}}}):")
        w.add(f"    {w.stop}")

    @classmethod
    def explain(cls, name, e):
        given = e.get("with") or {}
        args = " (with " + words(f"{code(k)} = {code(v)}" for k, v in given.items()) + ")" if given else ""
        return f"Do *{name}*{args}.", []
