"""Compile the `components` section -> the card table, computed attributes and card labels.

A mixin of the ruleset builder (ruleset.py): it uses the builder's context and names.
"""
from __future__ import annotations

from ..runtime.budget import LoadBudget
from ..runtime.values import Card
from ..errors import GameError
from ..expr.compiler import Names, Scope, compile_expr
from ..expr.functions import FUNCTIONS
from ..expr.parser import ExprError, _names_in, parse
from .context import Abort, valid_name

COMPONENT_KEYS = ("cards", "label", "in", "text", "total", "computed")
MAX_CARDS = 10_000   # cards in a ruleset, all types together


class CardsBuilder:
    """The `components` section: card types, rows, `each`, `computed` attributes and labels."""

    def components(self):
        ctx = self.ctx
        comps = self.section("components", {})
        if not isinstance(comps, dict) or not comps:
            ctx.fail(("components",), "expected a map of card type: {cards: [...]}", "type")
        self.cards, self.card_homes, attrs = [], [], []
        self.label_paths = {}
        for ctype, spec in comps.items():
            path = ("components", ctype)
            if not valid_name(ctype):
                self.guard(self._name, path, ctype)
                continue   # reported; the other card types are still checked
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
                combos = self._each(rpath, row.get("each"))
                if len(self.cards) + count * len(combos) > MAX_CARDS:
                    ctx.fail(rpath, f"the cards come to more than {MAX_CARDS} (a ruleset has at most that many)",
                             "too-large")
                for combo in combos:
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
            budget = LoadBudget()   # what the expressions may spend while the ruleset loads
            for c in range(first, last):
                try:
                    values[c] = fn(budget, {}, c)
                except (TypeError, ValueError, ZeroDivisionError, IndexError, GameError) as exc:
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
            if len(combos) * len(values) > MAX_CARDS:
                ctx.fail(path + ("each",), f"each makes more than {MAX_CARDS} cards", "too-large")
            combos = [{**c, k: v} for c in combos for v in values]
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
            budget = LoadBudget()
            try:
                for c in range(first, last):
                    labels[c] = "".join(p if isinstance(p, str) else str(p(budget, {}, c)) for p in template.parts)
            except (TypeError, ValueError, ZeroDivisionError, IndexError, GameError) as exc:
                ctx.error(lpath, f"cannot write the label of the card {self.cards[c]}: {exc}", "label")
            except (AttributeError, KeyError):
                # labels are written once, when the ruleset loads: there is no game yet to read
                ctx.error(lpath, "a card's label reads the card's attributes and the ruleset's fixed values "
                          "only, not what changes in a game (me, current, turn, zones, variables)", "label")
        return labels
