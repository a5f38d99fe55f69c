"""Compile the named values of a ruleset -> variables (with who sees them), card variables and functions.

A mixin of the ruleset builder (ruleset.py): it uses the builder's context and names.
"""
from __future__ import annotations

from ..expr.compiler import BUILTIN_NAMES, Scope, UserFunction
from ..expr.functions import FUNCTIONS
from ..expr.parser import ExprError, parse
from ..errors import did_you_mean
from ..ruleset import CardVariable, Variable
from .context import Abort

FUNCTION_KEYS = ("args", "value", "text")
VARIABLE_KEYS = ("value", "visible", "counter", "text")
CARD_VARIABLE_KEYS = ("value", "keep", "visible", "text")


class NamesBuilder:
    """`variables`, `player_variables`, `card_variables` and `functions`."""

    def variables(self):
        ctx = self.ctx
        self.global_vars, self.player_vars, self.var_specs = {}, {}, {}
        for key, target in (("variables", self.global_vars), ("player_variables", self.player_vars)):
            section = self.section(key, {})
            if not isinstance(section, dict):
                ctx.error((key,), "expected a map of name: initial value", "type")
                continue
            for name, value in section.items():
                try:
                    self._name((key, name), name)
                    spec = self._variable((key, name), name, value, key == "player_variables")
                except Abort:
                    continue
                target[name] = spec.value
                self.var_specs[name] = spec
        self.card_var_defs = {}
        section = self.section("card_variables", {})
        if not isinstance(section, dict):
            ctx.error(("card_variables",), "expected a map of name: default value", "type")
            section = {}
        for name, value in section.items():
            try:
                self._name(("card_variables", name), name)
                self.card_var_defs[name] = self._card_variable(("card_variables", name), name, value)
            except Abort:
                continue
        names = ctx.names
        names.global_vars, names.player_vars = set(self.global_vars), set(self.player_vars)
        seen = {n: "built-in name" for n in BUILTIN_NAMES}
        seen["it"] = "built-in name"
        defined = [("parameter", n, ("parameters", n)) for n in names.params]
        defined += [("card attribute", n, ("components",)) for n in names.card_attrs if n != "type"]
        defined += [("zone", n, ("zones", n)) for n in self.zone_defs]
        defined += [("variable", n, ("variables", n)) for n in names.global_vars]
        defined += [("player variable", n, ("player_variables", n)) for n in names.player_vars]
        defined += [("card variable", n, ("card_variables", n)) for n in self.card_var_defs]
        names.card_vars = {n: v.value for n, v in self.card_var_defs.items()}
        names.visible = {n: v.visible for n, v in self.var_specs.items()}
        for kind, n, path in defined:
            if n in seen:
                ctx.error(path, f"'{n}' is both a {seen[n]} and a {kind}; names must be unique", "name-clash",
                          key=len(path) > 1)
            seen[n] = kind

    def functions(self):
        """`functions:` name -> expression, or {args: [...], value: expression}: declared, then each body
        compiled once with arguments of any kind, so that a mistake is found at its own line."""
        ctx = self.ctx
        section = self.section("functions", {})
        if not isinstance(section, dict):
            ctx.fail(("functions",), "expected a map of name: expression (or {args, value})", "type")
        taken = ctx.names.all_names() | {"it"}
        for name, spec in section.items():
            path = ("functions", name)
            try:
                self._name(path, name)
                if name in FUNCTIONS:
                    ctx.fail(path, f"'{name}' is a built-in function; choose another name", "name-clash", key=True)
                if name in taken:
                    ctx.fail(path, f"'{name}' is already the name of something in this ruleset", "name-clash", key=True)
                args, vpath = [], path
                if isinstance(spec, dict):
                    for k in spec:
                        if k not in FUNCTION_KEYS:
                            ctx.unknown(path + (k,), "function field", k, FUNCTION_KEYS, "unknown-field", key=True)
                    if "value" not in spec:
                        ctx.fail(path, "a function needs 'value:', the expression it computes", "missing-field")
                    args = spec.get("args") or []
                    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                        ctx.fail(path + ("args",), "expected a list of argument names", "type")
                    for i, a in enumerate(args):
                        self._name(path + ("args", i), a)
                        if a in taken or a in section:
                            ctx.fail(path + ("args", i), f"'{a}' is already a name in this ruleset; "
                                     "choose another for the argument", "name-clash")
                    vpath, text = path + ("value",), spec["value"]
                else:
                    text = spec
                if not isinstance(text, (str, int, bool)):
                    ctx.fail(vpath, "expected an expression", "type")
                try:
                    tree = parse(str(text) if not isinstance(text, bool) else str(text).lower())
                except ExprError as exc:
                    ctx.fail(vpath, exc.message, exc.code, exc.hint, offset=exc.offset)
                ctx.names.functions[name] = UserFunction(name, tuple(args), str(text), tree,
                                                         vpath if isinstance(spec, dict) else path)
            except Abort:
                continue
        for name, uf in ctx.names.functions.items():
            spec = section[name]
            vpath = ("functions", name, "value") if isinstance(spec, dict) else ("functions", name)
            ctx.names.calling[:] = [name]
            try:
                ctx.expr(vpath, Scope({a: "any" for a in uf.args}))
            except Abort:
                pass
            finally:
                ctx.names.calling[:] = []

    def _initial(self, path, value):
        if not isinstance(value, (int, str, bool, list)) and value is not None:
            self.ctx.fail(path, "an initial value is a number, text, true/false, none or a list", "type")
        return value

    def _variable(self, path, name, value, per_player):
        """`name: value`, or the long form `{value, visible, counter, text}`."""
        ctx = self.ctx
        if not isinstance(value, dict):
            return Variable(name, self._initial(path, value), per_player=per_player)
        for k in value:
            if k not in VARIABLE_KEYS:
                ctx.unknown(path + (k,), "variable field", k, VARIABLE_KEYS, "unknown-field", key=True)
        if "value" not in value:
            ctx.fail(path, "the long form of a variable needs 'value:', its starting value", "missing-field")
        allowed = ("public", "owner", "nobody") if per_player else ("public", "nobody")
        visible = value.get("visible", "public")
        if visible not in allowed:
            hint = ("a game variable has no owner: public or nobody" if visible == "owner" else
                    did_you_mean(str(visible), allowed))
            ctx.fail(path + ("visible",), f"'visible' is one of {', '.join(allowed)}, not {visible!r}",
                     "bad-value", hint)
        counter = value.get("counter", False)
        if not isinstance(counter, bool):
            ctx.fail(path + ("counter",), "counter is true or false", "type")
        start = self._initial(path + ("value",), value["value"])
        if counter and (not isinstance(start, int) or isinstance(start, bool)):
            ctx.fail(path + ("counter",), "a counter holds a whole number", "type")
        return Variable(name, start, visible, counter, str(value.get("text", "")), per_player)

    def _card_variable(self, path, name, value):
        """`name: default`, or the long form `{value, keep, visible, text}`."""
        ctx = self.ctx
        if name in ctx.names.card_attrs:
            ctx.fail(path, f"'{name}' is already a card attribute; a card variable needs its own name",
                     "name-clash", key=True)
        if not isinstance(value, dict):
            return CardVariable(name, self._initial(path, value))
        for k in value:
            if k not in CARD_VARIABLE_KEYS:
                ctx.unknown(path + (k,), "card variable field", k, CARD_VARIABLE_KEYS, "unknown-field", key=True)
        if "value" not in value:
            ctx.fail(path, "the long form of a card variable needs 'value:', its default", "missing-field")
        keep = value.get("keep", False)
        if not isinstance(keep, bool):
            ctx.fail(path + ("keep",), "keep is true or false", "type")
        visible = value.get("visible", "card")
        if visible not in ("card", "public"):
            ctx.fail(path + ("visible",), f"'visible' is card (seen with the card) or public, not {visible!r}",
                     "bad-value", did_you_mean(str(visible), ("card", "public")))
        return CardVariable(name, self._initial(path + ("value",), value["value"]), keep, visible,
                            str(value.get("text", "")))
