"""Compile a ruleset's plain data -> a frozen Ruleset: names, cards, zones, actions, flow and scoring."""
from __future__ import annotations

import hashlib
import json

from ..engine.choices import Action
from ..engine.layout import MAX_FAMILY
from ..engine.values import Card
from ..engine.view import LEVELS, VISIBILITIES
from ..expr.compiler import BUILTIN_NAMES, Names, Scope, UserFunction, compile_expr
from ..expr.functions import FUNCTIONS
from ..expr.parser import ExprError, _names_in, parse
from ..ruleset import CardVariable, Ruleset, Scoring, Variable, Zone
from ..errors import did_you_mean
from .context import Abort, Context, valid_name
from .effects import EffectCompiler
# The flow's key sets live with the flow compiler; they are named here too, beside the others.
from .flow import (AGENT_NAMES, AGENTS_KEYS, DEFAULT_TURN_LIMIT, END_KEYS, FLOW_KEYS, LIMITS_KEYS,  # noqa: F401
                   ROUND_KEYS, SCORING_KEYS, STEP_KEYS, TURN_KEYS, FlowBuilder)

TOP_KEYS = {"name", "title", "text", "sources", "players", "parameters", "components", "zones", "variables",
            "player_variables", "card_variables", "functions", "procedures", "setup", "actions", "flow", "scoring",
            "limits", "extends", "agents"}
ZONE_KEYS = {"per_player", "count", "keys", "visibility", "ordered", "refill_from", "text"}
ACTION_KEYS = {"text", "args", "when", "if", "label", "do"}
COMPONENT_KEYS = ("cards", "label", "in", "text", "total", "computed")
PLAYERS_KEYS = ("min", "max")
PROCEDURE_KEYS = ("args", "do")
PARAMETER_KEYS = ("value", "choices", "text")
FUNCTION_KEYS = ("args", "value", "text")
VARIABLE_KEYS = ("value", "visible", "counter", "text")
CARD_VARIABLE_KEYS = ("value", "keep", "visible", "text")
VISIBILITY_KEYS = ("owner", "others")
# what a word of `visibility:` means: (what the owner sees, what the others see)
VISIBILITY_WORDS = {"public": ("cards", "cards"), "owner": ("cards", "count"), "count": ("count", "count"),
                    "top": ("top", "top"), "hidden": ("none", "none")}


def compile_ruleset(source) -> Ruleset:
    """Compile a parsed Source into a Ruleset, or raise RulesetError with every problem found."""
    ctx = Context(source)
    data = source.data
    if not isinstance(data, dict):
        ctx.error((), "a ruleset is a map of sections (name, players, components, zones, ...)", "type")
        ctx.check()
    builder = _Builder(ctx, data)
    try:
        rs = builder.build()
    except Abort:
        rs = None
    ctx.check()
    return rs


class _Builder(FlowBuilder):
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
        self.guard(self.zones)
        self.variables()
        ctx.check()  # names must be complete before expressions are compiled
        self.guard(self.functions)
        ctx.check()
        refill = {}
        for z in self.zone_defs.values():
            if z.refill_from is not None:
                refill[z.slot] = self.zone_defs[z.refill_from].slot
        self.fx = EffectCompiler(ctx, refill)
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
        default_agent, evaluate = self.guard(self.agents) or (None, None)
        ctx.check()
        game_block, steps_id, turn_loop_id, turn_limit = flow
        labels = self.card_labels()
        ctx.check()
        self.lint()
        canonical = json.dumps(data, sort_keys=True, default=str)
        return Ruleset(
            name=str(data.get("name")), title=str(data.get("title") or data.get("name")),
            text=str(data.get("text") or ""), sources=list(data.get("sources") or []),
            min_players=lo, max_players=hi, params=self.params, cards=self.cards, card_labels=labels,
            card_attrs=ctx.names.card_attrs, zones=self.zone_defs, fixed_slots=ctx.names.fixed_slots,
            initial_cards=self.initial,
            global_vars=self.global_vars, player_vars=self.player_vars,
            param_choices=self.param_choices, param_texts=self.param_texts,
            card_values=self.card_values, card_vars=self.card_var_defs, var_specs=self.var_specs,
            counters=[v.name for v in self.var_specs.values() if v.counter],
            actions=self.actions, scoring=scoring, turn_limit=turn_limit, nodes=ctx.nodes,
            blocks=ctx.blocks, game_block=game_block, steps_node=steps_id, turn_loop_node=turn_loop_id,
            fingerprint=hashlib.sha256(canonical.encode()).hexdigest()[:16], path=ctx.source.file, data=data,
            names=ctx.names, warnings=ctx.warnings, default_agent=default_agent, evaluate=evaluate)

    def lint(self):
        """Design warnings that need the whole ruleset: names declared but never used."""
        ctx, used = self.ctx, self.ctx.names.used
        for name in self.params:
            if ("param", name) not in used:
                ctx.warn(("parameters", name), f"parameter '{name}' is never used", "unused", key=True)
        refills = {z.refill_from for z in self.zone_defs.values()}
        for name in self.zone_defs:
            if ("zone", name) not in used and name not in refills and not any(h[3] == name for h in self.card_homes):
                ctx.warn(("zones", name), f"zone '{name}' is never used", "unused", key=True)
        for key, kind in (("variables", "var"), ("player_variables", "pvar")):
            for name in self.section(key, {}):
                if (kind, name) not in used:
                    ctx.warn((key, name), f"variable '{name}' is never used", "unused", key=True)
        flow, scoring = self.section("flow", {}), self.section("scoring", {})
        if isinstance(flow, dict) and isinstance(scoring, dict) and not scoring.get("parts"):
            for i, entry in enumerate(flow.get("ends") or []):
                if isinstance(entry, dict) and "winners" not in entry:
                    ctx.warn(("flow", "ends", i), "this end names no winners and there is no scoring: "
                             "nobody can win this way", "no-winner")
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
            allowed = self.param_choices.get(name)
            values = value.values() if isinstance(value, dict) else [value]
            bad = [v for v in values if allowed is not None and v not in allowed]
            if bad:
                ctx.error(vpath, f"parameter '{name}' is {bad[0]!r}, which is not one of its choices: "
                          + ", ".join(map(str, allowed)), "parameter", did_you_mean(str(bad[0]), map(str, allowed)))
                continue
            out[name] = value
        ctx.names.params = set(out)
        return out

    def _name(self, path, name):
        if not valid_name(name):
            self.ctx.fail(path, f"'{name}' is not a valid name (ASCII letters, digits and _, not a keyword)",
                          "name", key=True)

    # components ---------------------------------------------------------------
    def components(self):
        ctx = self.ctx
        comps = self.section("components", {})
        if not isinstance(comps, dict) or not comps:
            ctx.fail(("components",), "expected a map of card type: {cards: [...]}", "type")
        self.cards, self.card_homes, attrs = [], [], []
        self.label_paths = {}
        for ctype, spec in comps.items():
            path = ("components", ctype)
            self._name(path, ctype)
            if not isinstance(spec, dict) or not isinstance(spec.get("cards"), list):
                ctx.error(path, "a card type needs 'cards:', a list of {attribute: value, count: N}", "type")
                continue
            for k in spec:
                if k not in COMPONENT_KEYS:
                    ctx.unknown(path + (k,), "field", k, COMPONENT_KEYS, key=True)
            first = len(self.cards)
            for i, row in enumerate(spec["cards"]):
                rpath = path + ("cards", i)
                if not isinstance(row, dict):
                    ctx.error(rpath, "a card row is a map of attribute: value (and count)", "type")
                    continue
                count = row.get("count", 1)
                if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 10000:
                    ctx.error(rpath + ("count",), "count must be a whole number from 0 to 10000", "type")
                    continue
                card = {"type": ctype}
                for k, v in row.items():
                    if k in ("count", "each"):
                        continue
                    self._name(rpath + (k,), k)
                    if not isinstance(v, (int, str, bool)):
                        ctx.error(rpath + (k,), "a card attribute is a number, text or true/false", "type")
                    card[k] = v
                    if k not in attrs:
                        attrs.append(k)
                for combo in self._each(rpath, row.get("each")):
                    for k in combo:
                        if k not in attrs:
                            attrs.append(k)
                    for _ in range(count):
                        self.cards.append({**card, **combo})
            self.card_homes.append((ctype, first, len(self.cards), spec.get("in"), path))
            total = spec.get("total")
            if total is not None and total != len(self.cards) - first:
                ctx.warn(path + ("total",), f"'{ctype}' declares {total} cards but its rows define "
                         f"{len(self.cards) - first}", "card-total")
            self.label_paths[ctype] = (path + ("label",)) if "label" in spec else None
        if "type" not in attrs:
            attrs.insert(0, "type")
        ctx.names.card_attrs = {a: [c.get(a) for c in self.cards] for a in attrs}
        for ctype, first, last, _, path in self.card_homes:
            computed = comps[ctype].get("computed")
            if computed is not None:
                self.guard(self._computed, path + ("computed",), computed, first, last)
        self.card_values = tuple(Card(i) for i in range(len(self.cards)))

    def _computed(self, path, spec, first, last):
        """`computed: {name: expression}`: attributes that follow from a card's other attributes, worked out
        once for every card of the type when the ruleset loads."""
        ctx = self.ctx
        if not isinstance(spec, dict):
            ctx.fail(path, "computed is a map of attribute: expression over the card's other attributes", "type")
        table = ctx.names.card_attrs
        for name, text in spec.items():
            apath = path + (name,)
            self._name(apath, name)
            if name in table and any(table[name][c] is not None for c in range(first, last)):
                ctx.fail(apath, f"'{name}' is already an attribute of these cards", "name-clash", key=True)
            try:
                tree = parse(text if isinstance(text, str) else str(text))
                calls = [t for t in tree.iter_subtrees() if t.data == "call"] if hasattr(tree, "iter_subtrees") else []
                lambdas = {str(t.children[0]) for t in tree.iter_subtrees() if t.data == "lambda_"} \
                    if hasattr(tree, "iter_subtrees") else set()
                for n in _names_in(tree):
                    if n not in table and n != "it" and n not in lambdas:
                        raise ExprError(f"'{n}' is not an attribute of the card: a computed attribute may use "
                                        "the card's own attributes only", self._offset_of(text, n), code="computed")
                for c in calls:
                    fname = str(c.children[0])
                    if fname not in FUNCTIONS or FUNCTIONS[fname].needs_game:
                        raise ExprError(f"{fname}() cannot be used in a computed attribute (it needs the game)",
                                        self._offset_of(text, fname), code="computed")
                fn = compile_expr(text, Names(card_attrs=table), Scope({}, "card"))
            except ExprError as exc:
                ctx.fail(apath, exc.message, exc.code, exc.hint, offset=exc.offset)
            values = table.setdefault(name, [None] * len(self.cards))
            for c in range(first, last):
                try:
                    values[c] = fn(None, {}, c)
                except (TypeError, ValueError, ZeroDivisionError, IndexError) as exc:
                    ctx.fail(apath, f"cannot compute '{name}' for the card {self.cards[c]}: {exc}", "computed")
                self.cards[c][name] = values[c]

    @staticmethod
    def _offset_of(text, word) -> int:
        at = str(text).find(word)
        return max(at, 0)

    def _each(self, path, each):
        """`each: {suit: [a, b], rank: [1, 2]}` -> one attribute map per combination (a card per combination)."""
        if each is None:
            return [{}]
        ctx = self.ctx
        if not isinstance(each, dict) or not each:
            ctx.fail(path + ("each",), "each is a map of attribute: list of values", "type")
        combos = [{}]
        for k, values in each.items():
            self._name(path + ("each", k), k)
            if not isinstance(values, list) or not values or \
                    not all(isinstance(v, (int, str, bool)) for v in values):
                ctx.fail(path + ("each", k), "expected a list of numbers, texts or true/false", "type")
            combos = [{**c, k: v} for c in combos for v in values]
        if len(combos) > 10000:
            ctx.fail(path + ("each",), "each makes more than 10000 cards", "too-large")
        return combos

    def card_labels(self):
        ctx = self.ctx
        labels = [None] * len(self.cards)
        for ctype, first, last, _, path in self.card_homes:
            lpath = self.label_paths.get(ctype)
            if lpath is None:
                # default: the card's first own attribute (as written in its row), else its type
                for c in range(first, last):
                    own = [k for k in self.cards[c] if k != "type"]
                    labels[c] = str(self.cards[c][own[0]]) if own else ctype
                continue
            try:
                template = ctx.template(lpath, Scope({}, "card"))
            except Abort:
                continue
            for c in range(first, last):
                labels[c] = "".join(p if isinstance(p, str) else str(p(None, {}, c)) for p in template.parts)
        return labels

    # zones ----------------------------------------------------------------------
    def zones(self):
        ctx = self.ctx
        zones = self.section("zones", {})
        if not isinstance(zones, dict) or not zones:
            ctx.fail(("zones",), "expected a map of zone name: {visibility: ...}", "type")
        defs = {}
        slot = 0
        for name, spec in zones.items():
            path = ("zones", name)
            self._name(path, name)
            spec = spec or {}
            if not isinstance(spec, dict):
                ctx.error(path, "a zone is a map such as {visibility: public}", "type")
                continue
            for k in spec:
                if k not in ZONE_KEYS:
                    ctx.unknown(path + (k,), "zone field", k, ZONE_KEYS, key=True)
            vis = spec.get("visibility", "public")
            z = Zone(name, bool(spec.get("per_player", False)), None, vis,
                     bool(spec.get("ordered", True)), spec.get("refill_from"), str(spec.get("text", "")))
            z.zid = len(defs)
            try:
                z.owner_sees, z.others_see = self._visibility(path + ("visibility",), vis, z.per_player)
            except Abort:
                pass   # reported; the zone stays public so that the rest can be checked
            try:
                z.count, z.keys = self._family(path, spec)
            except Abort:
                pass
            static = z.keys is not None or z.count is None or isinstance(z.count, int)
            if not z.per_player and static:
                z.slot = slot
                slot += z.size
            defs[name] = z
        for z in defs.values():
            if z.refill_from is not None:
                other = defs.get(z.refill_from)
                if other is None or other.per_player or other.is_family or z.per_player or z.is_family:
                    ctx.error(("zones", z.name, "refill_from"), "refill_from links two single shared zones; "
                              f"'{z.refill_from}' is not one", "zone")
        names = ctx.names
        names.shared_zones = {z.name: z.slot for z in defs.values() if not z.per_player and not z.is_family}
        names.families = {z.name: z for z in defs.values() if not z.per_player and z.is_family}
        names.player_zones = {z.name: z for z in defs.values() if z.per_player and not z.is_family}
        names.player_families = {z.name: z for z in defs.values() if z.per_player and z.is_family}
        names.fixed_slots = slot
        self.zone_defs = defs
        self.initial = {}
        for ctype, first, last, home, path in self.card_homes:
            if home is None:
                ctx.error(path, f"say where the cards of type '{ctype}' start, as in 'in: deck'", "missing-field")
            elif home not in names.shared_zones:
                ctx.unknown(path + ("in",), "shared zone", home, names.shared_zones, "unknown-zone")
            else:
                self.initial.setdefault(names.shared_zones[home], []).extend(self.card_values[first:last])

    def _family(self, path, spec):
        """`count:` (a number, a parameter or player_count) or `keys:` (a list, or {attribute: name}) ->
        (count, keys) of a family of zones; (None, None) for a single zone."""
        ctx = self.ctx
        if "count" in spec and "keys" in spec:
            ctx.fail(path + ("keys",), "a family has either a count or keys, not both", "zone", key=True)
        if "keys" in spec:
            keys = spec["keys"]
            kpath = path + ("keys",)
            if isinstance(keys, dict):
                if list(keys) != ["attribute"]:
                    ctx.fail(kpath, "keys is a list of values, or {attribute: name} for one zone per value of "
                             "a card attribute", "type")
                attr = keys["attribute"]
                table = ctx.names.card_attrs
                if attr not in table:
                    ctx.unknown(kpath + ("attribute",), "card attribute", attr, table)
                keys = [v for v in dict.fromkeys(table[attr]) if v is not None]
            if not isinstance(keys, list) or not keys or not all(isinstance(k, (int, str)) and not isinstance(k, bool)
                                                                  for k in keys):
                ctx.fail(kpath, "keys is a list of numbers or texts (or {attribute: name})", "type")
            if len(set(keys)) != len(keys):
                ctx.fail(kpath, "the keys of a family must be different", "zone")
            if len(keys) > MAX_FAMILY:
                ctx.fail(kpath, f"a family has at most {MAX_FAMILY} zones", "too-large")
            return None, list(keys)
        count = spec.get("count")
        if count is None:
            return None, None
        cpath = path + ("count",)
        if isinstance(count, bool) or not isinstance(count, (int, str)):
            ctx.fail(cpath, "count is a whole number, a parameter or player_count", "type")
        if isinstance(count, int):
            if not 1 <= count <= MAX_FAMILY:
                ctx.fail(cpath, f"count must be a whole number from 1 to {MAX_FAMILY}", "type")
            return count, None
        if count != "player_count":
            if count not in self.params:
                ctx.unknown(cpath, "parameter", count, list(self.params) + ["player_count"], "unknown-name")
            ctx.names.used.add(("param", count))
            values = self.params[count].values() if isinstance(self.params[count], dict) else [self.params[count]]
            if not all(type(v) is int and 1 <= v <= MAX_FAMILY for v in values):
                ctx.fail(cpath, f"the parameter '{count}' must be a whole number from 1 to {MAX_FAMILY} "
                         "to give the size of a family", "type")
        return count, None

    def _visibility(self, path, vis, per_player):
        """`visibility:` -> (what the owner sees, what the others see), each cards/top/count/none."""
        ctx = self.ctx
        if isinstance(vis, dict):
            if not per_player:
                ctx.fail(path, "a shared zone has no owner: its visibility is one word "
                         "(public, count, top or hidden)", "zone")
            for k in vis:
                if k not in VISIBILITY_KEYS:
                    ctx.unknown(path + (k,), "visibility field", k, VISIBILITY_KEYS, "unknown-field", key=True)
            levels = []
            for k in VISIBILITY_KEYS:
                level = vis.get(k, "cards")
                if level not in LEVELS:
                    ctx.unknown(path + (k,), "visibility level", level, LEVELS, "bad-value")
                levels.append(level)
            return tuple(levels)
        if vis not in VISIBILITY_WORDS:
            hint = did_you_mean(str(vis), VISIBILITIES)
            ctx.fail(path, f"unknown visibility '{vis}': use public, owner, count, top or hidden, or a map "
                     "{owner: ..., others: ...} of cards, top, count or none", "bad-value", hint)
        owner, others = VISIBILITY_WORDS[vis]
        return (others, others) if vis == "owner" and not per_player else (owner, others)

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
                ctx.names.functions[name] = UserFunction(name, tuple(args), str(text), tree)
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
                        self.fx._check_local(path + ("args", i), a)
                    except Abort:
                        args = []
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
                                when, None, str(spec.get("text", "")))
                action.kinds = choice.kinds
                out[name] = action
                self.fx.actions[name] = action
                pending.append((action, path, inner, "do" in spec))
            except Abort:
                continue
        self.pending_actions = pending
        return out
