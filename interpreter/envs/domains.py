"""A choice's argument domain (its compiled expression) -> the kinds of values it can give: the vocabulary of
its slot in the action numbering (actions.py).

The values are read from the expression, never from a game: a list written out (`["left", "right"]`), the
attribute read from cards (`sort(distinct(me.hand.suit))`: every suit of the ruleset's cards), the
keys of a family (`keys(stall)`), a parameter's value, whole numbers from `range`, `count` and arithmetic
(bounded by the numbers, parameters and family sizes they name), players (`others(me)`), cards (a zone) and
lists of cards (`groups`, `combinations`). What the reading cannot bound gets the numbers 0 to INT_CAP - 1;
a value outside its slot's vocabulary still has an index, in the overflow (actions.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

INT_CAP = 16      # whole numbers a slot offers where the expression does not bound them
MAX_INTS = 64     # ... and at most this many where it does (a larger bound is the overflow's)
MAX_DEPTH = 8     # user functions read inside user functions

# functions whose result holds items of their first argument (a sorted, filtered or shortened list)
SAME_ITEMS = {"sort", "distinct", "reverse", "take", "drop", "filter", "sample", "take_while", "drop_while",
              "maxima", "minima"}
NUMBERS = {"count", "sum", "min", "max", "abs", "index_of"}
ONE_ITEM = {"first", "last", "random"}


@dataclass
class Values:
    """What a domain's items can be: players, cards, lists of cards, whole numbers 0..ints-1, and constants."""

    players: bool = False
    cards: bool = False
    lists: bool = False
    ints: int = 0
    consts: set = field(default_factory=set)

    def add(self, other: "Values") -> "Values":
        self.players |= other.players
        self.cards |= other.cards
        self.lists |= other.lists
        self.ints = max(self.ints, other.ints)
        self.consts |= other.consts
        return self


def unknown() -> Values:
    return Values(ints=INT_CAP)


def const_key(v):
    """A value as the key of a vocabulary: lists as tuples, true and false apart from 1 and 0."""
    t = type(v)
    if t is bool:
        return ("bool", v)
    if t is list or t is tuple:
        return tuple(const_key(x) for x in v)
    return v


class Reader:
    """Reads the values of domains of one ruleset at one player count and set of parameters."""

    def __init__(self, rs, layout, params: dict):
        self.rs, self.layout, self.params = rs, layout, params
        names = rs.names
        self.attrs = names.card_attrs
        self.functions = names.functions
        self.zones = {z.name: z for z in rs.zone_list}
        self.depth = 0
        self.scope = {}   # local name -> (its items, its value): a function's arguments, a `map`'s item

    def domain(self, fn, kind: str) -> Values:
        """The values of a compiled domain `fn` whose static kind is `kind`."""
        if kind == "players":
            return Values(players=True)
        if kind == "cards":
            return Values(cards=True)
        if kind == "groups":
            return Values(lists=True)
        constant = getattr(fn, "constant", None)
        if constant is not None:   # a YAML list given where an expression belongs
            return self._constants(constant[0])
        tree = getattr(fn, "tree", None)
        return self.items(tree) if tree is not None else unknown()

    def _constants(self, value) -> Values:
        if isinstance(value, (list, tuple)):
            return Values(consts={const_key(v) for v in value})
        return unknown()

    # the items of a list -------------------------------------------------------------------------------
    def items(self, t) -> Values:
        data = getattr(t, "data", None)
        ch = getattr(t, "children", [])
        if data == "list_":
            out = Values()
            for c in ch:
                out.add(self.value(c))
            return out
        if data in ("where",):
            return self.items(ch[0])
        if data == "binary" and str(ch[1]) == "+":
            return self.items(ch[0]).add(self.items(ch[2]))
        if data == "cond":
            return self.items(ch[0]).add(self.items(ch[2]))
        if data == "attr":
            return self._attr(ch[0], str(ch[1]))
        if data == "index":
            return Values(cards=True)   # a member of a family of zones
        if data == "name":
            name = str(ch[0])
            return self.scope[name][0] if name in self.scope else self._name_items(name)
        if data == "call":
            return self._call_items(str(ch[0]), ch[1:])
        return unknown()

    def _attr(self, base, name: str) -> Values:
        if name in self.attrs:
            return Values(consts={const_key(v) for v in self.attrs[name]})
        if name in self.zones:
            return Values(cards=True)
        return unknown()

    def _name_items(self, name: str) -> Values:
        if name == "players":
            return Values(players=True)
        if name in self.zones:
            return Values(cards=True)
        if name in self.params:
            return self._constants(self.params[name])
        return unknown()

    def _call_items(self, name: str, args) -> Values:
        if name == "range" and args:
            top = self.bound(args[-1])
            return Values(ints=INT_CAP if top is None else max(0, min(top, MAX_INTS)))
        if name == "keys" and args:
            z = self.zones.get(str(args[0].children[0])) if getattr(args[0], "data", None) == "name" else None
            if z is not None and z.keys is not None:
                return Values(consts={const_key(k) for k in z.keys})
            if z is not None:
                return Values(ints=min(self.layout.size[z.zid], MAX_INTS))
            return unknown()
        if name in ("groups", "combinations"):
            return Values(lists=True)
        if name == "others":
            return Values(players=True)
        if name == "flatten" and args:
            inner = self.items(args[0])
            return Values(cards=True) if inner.lists else unknown()
        if name in SAME_ITEMS and args:
            return self.items(args[0])
        if name == "map" and len(args) == 2:
            each = self.items(args[0])
            # the item's own items: the cards of a group
            bound = (Values(cards=True) if each.lists else unknown(), each)
            f = args[1]
            if getattr(f, "data", None) == "lambda_":
                return self._inside(f.children[1], self.value, {str(f.children[0]): bound})
            return self._inside(f, self.value, {"it": bound})
        if name in self.functions and self.depth < MAX_DEPTH:
            return self._call(self.functions[name], args, self.items)
        return unknown()

    def _call(self, function, args, read) -> Values:
        """What a user function gives, its arguments bound to what the call passes."""
        bound = {a: (self.items(t), self.value(t)) for a, t in zip(function.args, args)}
        return self._inside(function.tree, read, bound)

    def _inside(self, tree, read, bound: dict) -> Values:
        if self.depth >= MAX_DEPTH:
            return unknown()
        self.depth += 1
        before, self.scope = self.scope, {**self.scope, **bound}
        try:
            return read(tree)
        finally:
            self.depth -= 1
            self.scope = before

    # the value of one item -----------------------------------------------------------------------------
    def value(self, t) -> Values:
        data = getattr(t, "data", None)
        ch = getattr(t, "children", [])
        if data == "string":
            return Values(consts={str(ch[0])[1:-1]})
        if data == "int_":
            return Values(consts={int(ch[0])})
        if data in ("true", "false"):
            return Values(consts={const_key(data == "true")})
        if data == "none":
            return Values(consts={None})
        if data == "list_":
            constant = self.constant(t)
            return Values(consts={const_key(constant)}) if constant is not None else unknown()
        if data == "name":
            name = str(ch[0])
            if name in self.scope:
                return self.scope[name][1]
            if name in ("me", "current"):
                return Values(players=True)
            if name in self.params:
                return Values(consts={const_key(self.params[name])})
            if name in self.zones:
                return Values(lists=True)   # a zone's value is the list of its cards
            return unknown()
        if data == "attr":
            name = str(ch[1])
            if name in self.zones:
                return Values(lists=True)
            return Values(consts={const_key(v) for v in self.attrs[name]}) if name in self.attrs else unknown()
        if data == "call":
            name = str(ch[0])
            if name in NUMBERS or name in ("range",):
                top = self.bound(t)
                return Values(ints=INT_CAP if top is None else max(0, min(top + 1, MAX_INTS)))
            if name in ONE_ITEM and len(ch) > 1:
                return self.items(ch[1])
            if name in ("next", "previous"):
                return Values(players=True)
            if name in self.functions:
                return self._call(self.functions[name], ch[1:], self.value)
            return unknown()
        if data in ("binary", "neg"):
            top = self.bound(t)
            return Values(ints=INT_CAP if top is None else max(0, min(top + 1, MAX_INTS)))
        if data == "cond":
            return self.value(ch[0]).add(self.value(ch[2]))
        return unknown()

    def constant(self, t):
        """The value of a list written out of constants (`["red", "blue"]`, `[[], [1]]`), else None."""
        data = getattr(t, "data", None)
        ch = getattr(t, "children", [])
        if data == "string":
            return str(ch[0])[1:-1]
        if data == "int_":
            return int(ch[0])
        if data in ("true", "false"):
            return data == "true"
        if data == "list_":
            items = [self.constant(c) for c in ch]
            return None if any(i is None for i in items) else items
        return None

    # the largest whole number an expression can give ---------------------------------------------------
    def bound(self, t) -> int | None:
        data = getattr(t, "data", None)
        ch = getattr(t, "children", [])
        if data == "int_":
            return int(ch[0])
        if data == "name":
            v = self.params.get(str(ch[0]))
            return v if type(v) is int else None
        if data == "binary":
            a, op, b = self.bound(ch[0]), str(ch[1]), self.bound(ch[2])
            if op == "-":
                return a
            if a is None or b is None:
                return None
            return a + b if op == "+" else a * b if op == "*" else a if op in ("/", "%") else None
        if data == "call":
            name, args = str(ch[0]), ch[1:]
            if name == "count" and args:
                return self._family_size(args[0])
            if name == "range" and args:
                top = self.bound(args[-1])
                return None if top is None else top - 1
            if name in ("min", "max") and args and getattr(args[0], "data", None) == "list_":
                known = [self.bound(c) for c in args[0].children]
                found = [k for k in known if k is not None]
                if name == "min":
                    return min(found) if found else None
                return max(found) if found and len(found) == len(known) else None
        return None

    def _family_size(self, t) -> int | None:
        """`count(row)`, `count(me.stall)`: the number of members of a family of zones."""
        data = getattr(t, "data", None)
        name = str(t.children[0]) if data == "name" else str(t.children[1]) if data == "attr" else None
        z = self.zones.get(name)
        return self.layout.size[z.zid] if z is not None and z.is_family else None
