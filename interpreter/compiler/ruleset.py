"""Compile a ruleset's plain data -> a frozen Ruleset: names, cards, zones, actions, flow and scoring."""
from __future__ import annotations

import hashlib
import json

from ..engine.choices import Action
from ..engine.picks import Pick
from ..expr.compiler import Scope, kind_of_values
from ..expr.parser import trees_kept, trees_reused
from ..ruleset import Ruleset, Scoring
from ..runtime.values import PLAYERS
from ..errors import Diagnostic, RulesetError, did_you_mean
from ..parameters import value_problem
from .cards import COMPONENT_KEYS, CardsBuilder  # noqa: F401  (the key sets are named here too)
from .context import Abort, Context, valid_name
from .display import compile_display
from .effects import EffectCompiler
from .lint import constant_score_parts, hidden_in_labels, unshuffled_deals
from .names import CARD_VARIABLE_KEYS, FUNCTION_KEYS, VARIABLE_KEYS, NamesBuilder  # noqa: F401
from .zones import VISIBILITY_KEYS, VISIBILITY_WORDS, ZONE_KEYS, ZonesBuilder  # noqa: F401
# The flow's key sets live with the flow compiler; they are named here too, beside the others.
from .flow import (AGENT_NAMES, AGENTS_KEYS, DEFAULT_TURN_LIMIT, END_KEYS, FLOW_KEYS, LIMITS_KEYS,  # noqa: F401
                   ROUND_KEYS, SCORING_KEYS, STEP_KEYS, TURN_KEYS, FlowBuilder)

TOP_KEYS = {"name", "title", "text", "sources", "players", "parameters", "components", "zones", "variables",
            "player_variables", "card_variables", "functions", "procedures", "setup", "actions", "flow", "scoring",
            "limits", "extends", "agents", "display"}
ACTION_KEYS = {"text", "args", "when", "if", "label", "do"}
PLAYERS_KEYS = ("min", "max")
PROCEDURE_KEYS = ("args", "do")
PARAMETER_KEYS = ("value", "choices", "text")


class Unreadable(RulesetError):
    """The cards or the zones could not be read, so compiling stops there: its diagnostics, for when the
    schema has nothing more precise to say (interpreter/__init__.py, load_source)."""


def compile_ruleset(source) -> Ruleset:
    """Compile a parsed Source into a Ruleset, or raise RulesetError with every problem found."""
    ctx = Context(source)
    data = source.data
    if not isinstance(data, dict):
        ctx.error((), "a ruleset is a map of sections (name, players, components, zones, ...)", "type")
        ctx.check()
    builder = _Builder(ctx, data)
    with trees_kept():
        try:
            rs = builder.build()
        except Abort:
            rs = None
        ctx.check()
        with trees_reused():
            check_kinds(source, data, held_kinds(builder))
    generate_code(ctx, rs)
    return rs


# a whole number is read as "number" (expr/compiler.py, NUMBERS): a number, or a seat where a player is expected
SCALARS = {int: "number", str: "str", bool: "bool"}


def held_kinds(builder) -> dict:
    """The variables that always hold the kind of their starting value: a number, a text or true/false that
    every `set` of the ruleset gives a value of the same kind (and only numbers are added to) -> (var, pvar
    or cvar, name) -> kind. A variable given something else anywhere, or something of a kind unknown at load
    (an attribute, a parameter of mixed values), may hold anything."""
    names = builder.ctx.names
    out = {}
    for kind, table in (("var", builder.global_vars), ("pvar", builder.player_vars), ("cvar", names.card_vars)):
        for name, value in table.items():
            held = SCALARS.get(type(value))
            if held is None:
                continue
            given = names.assigned.get((kind, name), set())
            if given <= ({"int", "add"} if held == "number" else {held}):
                out[(kind, name)] = held
    return out


def check_kinds(source, data, kinds: dict) -> None:
    """Compile the ruleset once more, with each variable of `kinds` read as the kind it always holds: a
    value used as a kind it can never be (a text joined to a number variable, in a function only a label
    calls) is then an error at load, told where it is written. The first compile stands (its nodes and
    blocks); this one only looks for such errors."""
    if not kinds:
        return
    ctx = Context(source)
    ctx.names.var_kinds = kinds
    try:
        _Builder(ctx, data).build()
    except Abort:
        pass
    ctx.check()


def generate_code(ctx: Context, rs: Ruleset) -> None:
    """Write and install the ruleset's generated code (codegen/): it is compiled once, here, and never
    changed afterwards; what generation refuses is an error of the ruleset, told at the effect or
    expression it was writing (or at the file)."""
    from ..codegen.module import REFUSED, generate
    try:
        generate(rs)
    except REFUSED as exc:
        node = getattr(exc, "node", None)
        loc = getattr(node, "loc", None) or ctx.source.location(())
        ctx.diagnostics.append(Diagnostic("generate", f"this ruleset could not be turned into Python: {exc}", loc))
        ctx.check()


class _Builder(CardsBuilder, ZonesBuilder, NamesBuilder, FlowBuilder):
    """Reads the sections in dependency order: names first, then expressions that use them."""

    def __init__(self, ctx: Context, data: dict):
        self.ctx, self.data = ctx, data

    def section(self, key, default):
        value = self.data.get(key, default)
        return default if value is None else value

    def guard(self, fn, *args):
        try:
            return fn(*args)
        except Abort:
            return None

    def build(self) -> Ruleset:
        ctx, data = self.ctx, self.data
        for key in data:
            if key not in TOP_KEYS:
                ctx.unknown((key,), "section", key, TOP_KEYS, "unknown-section", key=True)
        if "name" not in data:
            ctx.error((), "a ruleset needs a 'name'", "missing-field")
        lo, hi = self.players()
        self.params = self.guard(self.parameters, lo, hi) or {}
        self.guard(self.components)
        if not hasattr(self, "card_values"):
            raise Unreadable(ctx.diagnostics)   # the zones and all that follows stand on the cards
        self.guard(self.zones)
        if not hasattr(self, "zone_defs"):
            raise Unreadable(ctx.diagnostics)   # and on the zones
        self.variables()
        ctx.check()  # names must be complete before expressions are compiled
        self.guard(self.functions)
        ctx.check()
        self.fx = EffectCompiler(ctx)   # which zone refills which is the layout's (layout.py)
        reserved = self.guard(self.procedures) or {}
        self.actions = self.guard(self.compile_actions) or {}
        # Bodies compile once every procedure and action is known: each may name the others.
        self.guard(self.procedure_bodies, reserved)
        for action, path, inner, has_block in self.pending_actions:
            if has_block:
                action.block = self.guard(self.fx.block, path + ("do",), inner)
        setup_block = self.fx.block(("setup",), Scope({})) if "setup" in data else None
        flow = self.guard(self.flow, setup_block)
        scoring = self.guard(self.scoring) or Scoring()
        default_agent, evaluate = self.guard(self.agents, scoring) or (None, None)
        display = compile_display(ctx, data, self.zone_defs, self.var_specs, scoring.parts, self.cards,
                                  ctx.names.card_attrs, ctx.names.functions)
        ctx.check()
        game_block, steps_id, turn_loop_id, turn_limit = flow
        pick = ctx.node(Pick(), (), "pick")
        labels = self.card_labels()
        ctx.check()
        self.lint()
        ctx.check()
        canonical = json.dumps(data, sort_keys=True, default=str)
        self.seats_from_the_start(lo)
        return Ruleset(
            name=str(data.get("name")), title=str(data.get("title") or data.get("name")),
            text=str(data.get("text") or ""), sources=list(data.get("sources") or []),
            min_players=lo, max_players=hi, params=self.params, cards=self.cards, card_labels=labels,
            card_attrs=ctx.names.card_attrs, zones=self.zone_defs, fixed_slots=ctx.names.fixed_slots,
            initial_cards=self.initial,
            global_vars=self.global_vars, player_vars=self.player_vars,
            param_choices=self.param_choices, param_texts=self.param_texts,
            card_values=self.card_values, card_vars=self.card_var_defs, var_specs=self.var_specs, pick_node=pick.id,
            counters=[v.name for v in self.var_specs.values() if v.counter],
            actions=self.actions, scoring=scoring, turn_limit=turn_limit, nodes=ctx.nodes,
            blocks=ctx.blocks, game_block=game_block, steps_node=steps_id, turn_loop_node=turn_loop_id,
            fingerprint=hashlib.sha256(canonical.encode()).hexdigest()[:16], path=ctx.source.file, data=data,
            names=ctx.names, warnings=ctx.warnings, default_agent=default_agent, evaluate=evaluate,
            display=display, by_back=by_back(self.cards, labels), faces=faces(self.cards, labels))

    def lint(self):
        """Design warnings that need the whole ruleset: names declared but never used."""
        ctx, used = self.ctx, self.ctx.names.used
        overrides = getattr(ctx.source, "overrides", {})
        for name in self.params:
            if ("param", name) in used:
                continue
            override = overrides.get(name)
            if override is None:
                ctx.warn(("parameters", name), f"parameter '{name}' is never used", "unused", key=True)
            elif override.in_base:
                ctx.warn(self.param_path(name), f"this variant sets parameter '{name}', but no expression "
                         "reads it (anything that read it was replaced or removed)", "unused")
            else:
                # A parameter a variant adds is read by something the variant adds; unread, it is a typo.
                theirs = [n for n in self.params if n not in overrides or overrides[n].in_base]
                hint = did_you_mean(name, theirs)
                ctx.error(self.param_path(name), f"the base ruleset has no parameter '{name}' and nothing "
                          "reads it", "unknown-parameter", hint or "a variant adds a parameter only for "
                          "expressions it adds as well")
        refills = {z.refill_from for z in self.zone_defs.values()}
        for name in self.zone_defs:
            if ("zone", name) not in used and name not in refills and not any(h[3] == name for h in self.card_homes):
                ctx.warn(("zones", name), f"zone '{name}' is never used", "unused", key=True)
        for key, kind in (("variables", "var"), ("player_variables", "pvar"), ("card_variables", "cvar")):
            for name in self.section(key, {}):
                if (kind, name) not in used:
                    ctx.warn((key, name), f"variable '{name}' is never used", "unused", key=True)
        for name in ctx.names.functions:
            if ("function", name) not in used:
                ctx.warn(("functions", name), f"function '{name}' is never called", "unused", key=True)
        flow, scoring = self.section("flow", {}), self.section("scoring", {})
        if isinstance(flow, dict) and isinstance(scoring, dict) and not scoring.get("parts"):
            for i, entry in enumerate(flow.get("ends") or []):
                if isinstance(entry, dict) and "winners" not in entry:
                    ctx.warn(("flow", "ends", i), "this end names no winners and there is no scoring: "
                             "nobody can win this way", "no-winner")
        for path, zone in unshuffled_deals(self.data, {h[3] for h in self.card_homes}):
            ctx.warn(path, f"cards are taken from '{zone}' before it is shuffled: they come in the order "
                     "the file lists them", "unshuffled", "add '- shuffle: " + zone + "' before this")
        for path, hole, arg, zone in hidden_in_labels(self.data, self.zone_defs):
            ctx.warn(path, f"this label shows '{hole}' of '{arg}', a card of '{zone}' that its chooser may not "
                     "see: the label would name a hidden card", "hidden-label",
                     f"write '{{{arg}}}' alone (a card its chooser cannot see is shown by its place, \"card 2 of "
                     "P2's hand\"), or let the player choose among cards it sees")
        for name in constant_score_parts(self.data):
            ctx.warn(("scoring", "parts", name), f"score part '{name}' cannot change: it reads no zone or "
                     "variable that any effect changes", "constant-score")
        steps = {a for s in self.step_actions for a in s} | self.fx.chosen_actions
        for name in self.actions:
            if name not in steps:
                ctx.warn(("actions", name), f"action '{name}' is in no step of the turn, so it is never offered",
                         "unused", key=True)

    # metadata and parameters -------------------------------------------------
    def players(self):
        ctx = self.ctx
        p = self.data.get("players")
        if not isinstance(p, dict) or not isinstance(p.get("min"), int) or not isinstance(p.get("max"), int):
            ctx.error(("players",), "expected 'players: {min: N, max: M}'", "players")
            return 1, 1
        for k in p:
            if k not in PLAYERS_KEYS:
                ctx.error(("players", k), f"unknown field '{k}' (players takes min and max)", "unknown-field", key=True)
        lo, hi = p["min"], p["max"]
        if not 1 <= lo <= hi <= 64:
            ctx.error(("players",), f"player range {lo} to {hi} is not possible (1 to 64, min <= max)", "players")
            return 1, 1
        return lo, hi

    def parameters(self, lo, hi):
        ctx = self.ctx
        params = self.section("parameters", {})
        if not isinstance(params, dict):
            ctx.fail(("parameters",), "expected a map of parameter: value", "type")
        out = {}
        self.param_choices, self.param_texts = {}, {}
        overrides = getattr(ctx.source, "overrides", {})
        for name, value in params.items():
            path = ("parameters", name)
            self._name(path, name)
            if isinstance(value, dict) and "value" in value:
                # the long form: {value: ..., choices: [...], text: ...}
                for k in value:
                    if k not in PARAMETER_KEYS:
                        ctx.unknown(path + (k,), "parameter field", k, PARAMETER_KEYS, key=True)
                choices = value.get("choices")
                if choices is not None:
                    if not isinstance(choices, list) or not choices:
                        ctx.error(path + ("choices",), "choices is a list of the values allowed", "type")
                        continue
                    self.param_choices[name] = choices
                self.param_texts[name] = str(value.get("text", ""))
                vpath, value = path + ("value",), value["value"]
            else:
                vpath = path
            if isinstance(value, dict):
                if not value or not all(isinstance(k, int) and not isinstance(k, bool) for k in value):
                    ctx.error(vpath, "a table by player count has player counts as keys, "
                              "as in {2: 7, 3: 5}", "parameter")
                    continue
            elif value is not None and not isinstance(value, (int, str, bool, list)):
                ctx.error(vpath, "a parameter is a number, text, true/false, a list, "
                          "or a table by player count", "parameter")
                continue
            if isinstance(value, dict):
                missing = [n for n in range(lo, hi + 1) if n not in value]
                if missing:
                    ctx.warn(vpath, f"parameter '{name}' has no value for "
                             + ", ".join(map(str, missing)) + f" player{'s' if missing != [1] else ''}"
                             f" (the ruleset is for {lo} to {hi})", "parameter-table")
            # a variant's value keeps the kind of the base's value; every value keeps to the choices
            override = overrides.get(name)
            old = override.old if override is not None and override.in_base else None
            problem = value_problem(name, value, old, self.param_choices.get(name))
            if problem is not None:
                ctx.error(vpath, problem[0], "parameter", problem[1])
                continue
            out[name] = value
        ctx.names.params = set(out)
        # a parameter's kind is the one all its values share (a --param keeps it: parameters.py)
        ctx.names.param_values = {name: (list(v.values()) if isinstance(v, dict) else [v])
                                  + list(self.param_choices.get(name, [])) for name, v in out.items()}
        ctx.names.param_kinds = {name: kind_of_values(values) for name, values in ctx.names.param_values.items()}
        return out

    def seats_from_the_start(self, fewest: int) -> None:
        """A variable that starts at a number and is only ever set to a player (`dealer: 0`, then
        `set: {dealer: ...}`) holds that seat from the start, so that views show a player, not a number."""
        assigned = self.ctx.names.assigned
        for kind, table in (("var", self.global_vars), ("pvar", self.player_vars)):
            for name, value in table.items():
                if type(value) is int and 0 <= value < fewest and assigned.get((kind, name)) == {"player"}:
                    table[name] = PLAYERS[value]
                    self.var_specs[name].value = PLAYERS[value]

    def param_path(self, name) -> tuple:
        """Where a parameter's value is written: under `value` in the long form."""
        spec = self.section("parameters", {}).get(name)
        return ("parameters", name) + (("value",) if isinstance(spec, dict) and "value" in spec else ())

    def _name(self, path, name):
        if not valid_name(name):
            self.ctx.fail(path, f"'{name}' is not a valid name (ASCII letters, digits and _, not a keyword)",
                          "name", key=True)

    # procedures and actions ------------------------------------------------------
    def procedures(self):
        ctx = self.ctx
        procs = self.section("procedures", {})
        if not isinstance(procs, dict):
            ctx.fail(("procedures",), "expected a map of name: {args: [...], do: [...]}", "type")
        reserved = {}
        for name, spec in procs.items():
            path = ("procedures", name)
            try:
                self._name(path, name)
            except Abort:
                continue
            if isinstance(spec, dict) and not isinstance(spec.get("do"), list):
                ctx.error(path, "a procedure with args needs 'do:', its list of effects", "missing-field")
                continue
            args = []
            if isinstance(spec, dict):
                for k in spec:
                    if k not in PROCEDURE_KEYS:
                        ctx.error(path + (k,), f"unknown field '{k}' (a procedure takes args and do)",
                                  "unknown-field", key=True)
                args = spec.get("args") or []
                if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                    ctx.error(path + ("args",), "expected a list of argument names", "type")
                    args = []
                for i, a in enumerate(args):
                    try:
                        self.fx.check_local(path + ("args", i), a)
                    except Abort:
                        pass   # told once, here: the procedure keeps its arguments, so neither its body
                        #        nor its calls add errors about names the author did declare
            elif not isinstance(spec, list):
                ctx.error(path, "a procedure is a list of effects, or {args: [...], do: [...]}", "type")
                continue
            bid = ctx.block(())
            reserved[name] = (bid, args)
            self.fx.procedures[name] = (bid, tuple(args))
        return reserved

    def procedure_bodies(self, reserved):
        ctx = self.ctx
        procs = self.section("procedures", {})
        for name, (bid, args) in reserved.items():
            spec = procs[name]
            path = ("procedures", name) + (("do",) if isinstance(spec, dict) else ())
            body = self.fx.block(path, Scope({a: "any" for a in args}))
            ctx.blocks[bid] = ctx.blocks[body] if body is not None else ()

    def compile_actions(self):
        ctx = self.ctx
        actions = self.section("actions", {})
        if not isinstance(actions, dict):
            ctx.fail(("actions",), "expected a map of action name: {args, if, do}", "type")
        out = {}
        pending = self.pending_actions = []
        for name, spec in actions.items():
            path = ("actions", name)
            try:
                self._name(path, name)
                spec = spec or {}
                if not isinstance(spec, dict):
                    ctx.fail(path, "an action is a map with args, when, if, label, do", "type")
                for k in spec:
                    if k not in ACTION_KEYS:
                        ctx.unknown(path + (k,), "action field", k, ACTION_KEYS, key=True)
                base = Scope({})
                when = ctx.expr(path + ("when",), base, random_ok=False) if "when" in spec else None
                choice, inner = self.fx.choice(path, spec, base, name)
                action = Action(name, choice.arg_names, choice.domains, choice.cond, choice.label_template,
                                when, None, str(spec.get("text", "")), choice.subsets, choice.final)
                action.kinds, action.by_values, action.one_value = choice.kinds, choice.by_values, choice.one_value
                action.summed = choice.summed
                out[name] = action
                self.fx.actions[name] = action
                pending.append((action, path, inner, "do" in spec))
            except Abort:
                continue
        self.pending_actions = pending
        return out


def by_back(cards: list, labels: list) -> frozenset:
    """The ids of the cards whose type's cards are all alike (one label, the same attributes): their back
    tells which card they are."""
    faces: dict = {}
    for c, (card, label) in enumerate(zip(cards, labels)):
        faces.setdefault(card["type"], set()).add((label, tuple(sorted((k, repr(v)) for k, v in card.items()))))
    return frozenset(c for c, card in enumerate(cards) if len(faces[card["type"]]) == 1)


def faces(cards: list, labels: list) -> tuple:
    """For each card id, the number of its face: cards with the same label and attributes share one."""
    seen: dict = {}
    return tuple(seen.setdefault((label, tuple(sorted((k, repr(v)) for k, v in card.items()))), len(seen))
                 for card, label in zip(cards, labels))
