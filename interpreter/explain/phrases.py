"""Expressions of a ruleset in words: an expression's text + what its names mean here -> a phrase people read
('your hand is empty', 'the number of different species in your collection'), or NoWords where no sentence
form is known (the rulebook then shows the expression itself).

Only the common shapes have a sentence form: counts and sizes of zones, comparisons, the cards of a zone
that satisfy a condition, sums and distinct values of an attribute, first and last cards, players around
the table, and arithmetic. Parameters are read at their values (a condition on a parameter is decided
here: `side if refill_end == "laid" else refill_end` reads "side" when the parameter is "laid").
"""
from __future__ import annotations

from dataclasses import dataclass

from lark import Token, Tree

from ..expr.functions import FUNCTIONS
from ..expr.parser import ExprError, parse
from ..present.narrate import plural as _plural

COMPARE = {"==": "is", "!=": "is not", ">=": "is at least", "<=": "is at most", ">": "is more than",
           "<": "is less than"}
HOLDS = {"==": "holds exactly", "!=": "does not hold exactly", ">=": "holds at least", "<=": "holds at most",
         ">": "holds more than", "<": "holds fewer than"}
AS_MANY = {"==": "holds as many cards as", "!=": "does not hold as many cards as",
           ">=": "holds at least as many cards as", "<=": "holds at most as many cards as",
           ">": "holds more cards than", "<": "holds fewer cards than"}
ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}
ORDINAL = {1: "one", 2: "two", 3: "three", 4: "four"}


def plural(word: str, n: int = 2) -> str:
    """A word for several: 'row' -> 'rows'; a word already ending in s stays ('species')."""
    return word if n != 1 and word.endswith("s") else _plural(word, n)


class NoWords(Exception):
    """An expression, or a part of it, has no sentence form here."""


_UNKNOWN = object()


@dataclass
class P:
    """A phrase and what it stands for: kind is zone, family, cards, card, player, players, number, text,
    bool, list or value; `poss` is the possessive of a player ('your'); `noun` the word for one item."""

    text: str
    kind: str = "value"
    poss: str = ""
    noun: str = "card"
    zone: object = None       # the compiled Zone it names (zone, family), or None
    owner: object = None      # a player's family: the phrase of that player
    where: str = ""           # the values of an attribute: the place of their cards ('your hand')

    def __str__(self):
        return self.text


def an(noun: str) -> str:
    """'a hand', 'an offer'."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def bare(text: str) -> str:
    """'the cards of your hand' -> 'cards of your hand' (for 'the number of ...')."""
    return text[4:] if text.startswith("the ") else text


def relative(cond: str) -> str:
    """A condition about 'it' as a relative clause: 'its colour is red' -> 'whose colour is red'."""
    if cond.startswith("its "):
        return "whose " + cond[4:]
    if cond.startswith("it "):
        return "that " + cond[3:]
    return "such that " + cond


class Phrases:
    """What the names of one ruleset mean to its readers: zones by what people call them, parameters at their
    values, variables in italics, players as 'you' and 'the current player'. `scope` maps the local names of
    the effect being told (a choice's arguments, a loop's variable, a `let`) to their phrases."""

    def __init__(self, rules):
        self.rs = rules
        self.display = rules.display
        self.words = rules.display.words
        self.params = rules.params
        self.functions = dict((rules.data.get("functions") or {}))
        self.attrs = {a for a in rules.card_attrs if a != "type"}
        self.used_functions: list[str] = []   # the ruleset's functions phrases named, for a glossary
        self.seats = self.player_names(rules)

    @staticmethod
    def player_names(rules) -> set:
        """The names the ruleset reads a player's zone or variable of (`offer_to.hand`): they hold players."""
        import re
        own = {z.name for z in rules.zones.values() if z.per_player} | \
              {n for n, v in rules.var_specs.items() if v.per_player}
        return {a for a, b in re.findall(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)", str(rules.data)) if b in own}

    def local(self, name: str) -> P:
        """A name of the ruleset's own (a variable, a function's argument) in italics; a player where the
        ruleset reads a player's zone or variable of it."""
        word = f"*{self.words(name).replace('_', ' ')}*"
        if name in self.seats:
            return P(word, "player", poss=f"{word}'s")
        return P(word, "value")

    # the whole expression ---------------------------------------------------------------------------
    def say(self, text, scope=None, role: str = "value") -> str:
        """The phrase of an expression, or the expression in backticks where it has no sentence form."""
        try:
            return self.phrase(text, scope, role)
        except NoWords:
            return f"`{' '.join(str(text).split())}`"

    def phrase(self, text, scope=None, role: str = "value") -> str:
        """The phrase of an expression (role 'cond': as a condition); NoWords where it has none."""
        if isinstance(text, bool):
            return "true" if text else "false"
        if isinstance(text, (int, float)):
            return str(text)
        if text is None:
            return "nothing"
        if isinstance(text, list):
            return self.items([self.phrase(t, scope) for t in text], "and")
        try:
            tree = parse(str(text))
        except ExprError:
            raise NoWords() from None
        p = self.node(tree, dict(scope or {}))
        if role == "cond":
            return self.truth(p)
        return p.text

    def node_of(self, text, scope=None) -> P:
        """The phrase of an expression with what it stands for."""
        try:
            tree = parse(str(text))
        except ExprError:
            raise NoWords() from None
        return self.node(tree, dict(scope or {}))

    def static(self, text):
        """The value of an expression known without a game (numbers, texts, parameters that do not depend on
        the player count, and what is made of them), or _UNKNOWN."""
        try:
            return self._static(parse(str(text)))
        except ExprError:
            return _UNKNOWN

    # zones ------------------------------------------------------------------------------------------
    def zone_phrase(self, z, owner: P | None = None, key=None, chosen: str | None = None) -> P:
        """A zone as people call it: 'the deck', 'your hand', 'row 2'; `chosen`, a member named by a word
        ('the chosen', 'that'): 'the chosen row', 'the queue at that perch'."""
        if chosen is not None:
            called = self.display.called(z)
            if called.startswith("the ") and " " in called[4:]:
                head, _, last = called.rpartition(" ")
                name = f"{head} {chosen} {last}"
            else:
                name = f"{chosen} {called[4:] if called.startswith('the ') else called}"
        else:
            name = self.display.called(z, key)
        if owner is not None:
            name = f"{owner.poss} {name}"
        return P(name, "zone", zone=z)

    def family(self, z, owner: P | None = None) -> P:
        called = self.display.called(z)
        text = plural(self.words(z.name.replace("_", " ")) if called.startswith("the ") else called, 2)
        return P(f"{owner.poss} {text}" if owner is not None else f"the {text}", "family", zone=z, owner=owner)

    # truth ----------------------------------------------------------------------------------------------
    def truth(self, p: P) -> str:
        """A phrase read as a condition: a true/false name gets 'is true'."""
        if p.kind == "flag":
            return f"{p.text} is true"
        if p.kind == "zone":
            return f"{p.text} is not empty"
        return p.text

    # the tree ---------------------------------------------------------------------------------------------
    def node(self, t, scope) -> P:
        if isinstance(t, Token):
            raise NoWords()
        kind = t.data
        fn = getattr(self, f"_{kind}", None)
        if fn is None:
            raise NoWords()
        value = self._static(t, scope)
        if value is not _UNKNOWN and kind not in ("name", "list_"):
            return self.value(value)
        return fn(t, scope)

    def value(self, v) -> P:
        """A value known in advance, in words."""
        if isinstance(v, bool):
            return P("true" if v else "false", "bool")
        if isinstance(v, int):
            return P(str(v), "number")
        if isinstance(v, str):
            return P(self.words(v).replace("_", " "), "text")
        if v is None:
            return P("nothing", "value")
        if isinstance(v, list):
            return P(self.items([self.value(x).text for x in v], "and"), "list")
        raise NoWords()

    def items(self, texts, last: str) -> str:
        texts = list(texts)
        if not texts:
            return "nothing"
        return ", ".join(texts[:-1]) + f" {last} " + texts[-1] if len(texts) > 1 else texts[0]

    def _static(self, t, scope=None):
        """A subtree's value when it is known without a game, else _UNKNOWN."""
        scope = scope or {}
        if isinstance(t, Token):
            return _UNKNOWN
        k = t.data
        if k == "int_":
            return int(t.children[0])
        if k == "string":
            return str(t.children[0])[1:-1]
        if k in ("true", "false"):
            return k == "true"
        if k == "none":
            return None
        if k == "name":
            name = str(t.children[0])
            if name in scope or name not in self.params:
                return _UNKNOWN
            v = self.params[name]
            return _UNKNOWN if isinstance(v, dict) else v
        if k == "list_":
            vals = [self._static(c, scope) for c in t.children]
            return _UNKNOWN if any(v is _UNKNOWN for v in vals) else vals
        if k == "neg":
            v = self._static(t.children[0], scope)
            return -v if isinstance(v, int) and not isinstance(v, bool) else _UNKNOWN
        if k == "not_op":
            v = self._static(t.children[0], scope)
            return (not v) if isinstance(v, bool) else _UNKNOWN
        if k in ("and_op", "or_op"):
            a, b = (self._static(c, scope) for c in t.children)
            if k == "and_op" and (a is False or b is False):
                return False
            if k == "or_op" and (a is True or b is True):
                return True
            return a and b if k == "and_op" and isinstance(a, bool) and isinstance(b, bool) else \
                (a or b if isinstance(a, bool) and isinstance(b, bool) else _UNKNOWN)
        if k == "compare":
            a, op, b = self._static(t.children[0], scope), str(t.children[1]), self._static(t.children[2], scope)
            if a is _UNKNOWN or b is _UNKNOWN:
                return _UNKNOWN
            try:
                return {"==": a == b, "!=": a != b, ">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[op]
            except TypeError:
                return _UNKNOWN
        if k == "binary":
            a, op, b = self._static(t.children[0], scope), str(t.children[1]), self._static(t.children[2], scope)
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
                return _UNKNOWN
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op in ("/", "%") and b:
                return a // b if op == "/" else a % b
            return _UNKNOWN
        if k == "cond":
            then, test, other = t.children
            c = self._static(test, scope)
            if isinstance(c, bool):
                return self._static(then if c else other, scope)
            return _UNKNOWN
        return _UNKNOWN

    # leaves ------------------------------------------------------------------------------------------------
    def _int_(self, t, scope):
        return P(str(t.children[0]), "number")

    def _string(self, t, scope):
        return P(self.words(str(t.children[0])[1:-1]), "text")

    def _true(self, t, scope):
        return P("true", "bool")

    def _false(self, t, scope):
        return P("false", "bool")

    def _none(self, t, scope):
        return P("nothing", "value")

    def _name(self, t, scope):
        name = str(t.children[0])
        if name in scope:
            return scope[name]
        if "it" in scope and name in self.attrs:   # a card's attribute, read on the item at hand
            return self.attr_of(scope["it"], name)
        rs = self.rs
        if name == "me":
            return P("you", "player", poss="your")
        if name == "current":
            return P("the current player", "player", poss="the current player's")
        if name == "players":
            return P("the players", "players", noun="player")
        if name == "player_count":
            return P("the number of players", "number")
        if name in ("turn", "round"):
            return P(f"the {name} number", "number")
        if name in rs.zones:
            z = rs.zones[name]
            if z.per_player:
                raise NoWords()
            return self.family(z) if z.is_family else self.zone_phrase(z)
        if name in self.params:
            v = self.params[name]
            if isinstance(v, dict):   # by player count: the setup's table gives it
                return P(f"*{name.replace('_', ' ')}*", "number")
            return self.value(v)
        if name in rs.var_specs and not rs.var_specs[name].per_player:
            v = rs.var_specs[name].value
            if name in self.seats:
                return self.local(name)
            kind = "flag" if isinstance(v, bool) else "number" if isinstance(v, int) else "value"
            return P(f"*{self.words(name).replace('_', ' ')}*", kind)
        raise NoWords()

    def attr_of(self, subject: P, name: str) -> P:
        """`x.name`: a player's zone or variable, a card's attribute, the attribute of every card of a list."""
        rs = self.rs
        if subject.kind == "player":
            z = rs.zones.get(name)
            if z is not None and z.per_player:
                return self.family(z, subject) if z.is_family else self.zone_phrase(z, subject)
            spec = rs.var_specs.get(name)
            if spec is not None and spec.per_player:
                kind = "flag" if isinstance(spec.value, bool) else "number" if isinstance(spec.value, int) else "value"
                return P(f"{subject.poss} *{self.words(name).replace('_', ' ')}*", kind)
            raise NoWords()
        word = self.words(name.replace("_", " "))
        if subject.kind in ("card", "value") and name in self.attrs:
            values = {v for v in rs.card_attrs.get(name, []) if v is not None}
            kind = "flag" if values and all(isinstance(v, bool) for v in values) else "value"
            if subject.text == "it":
                return P(f"its {word}", kind)
            return P(f"the {word} of {subject.text}", kind)
        if subject.kind in ("zone", "cards"):
            if subject.kind == "zone":
                where = f"in {subject.text}"
            elif subject.text.startswith("the cards of "):
                where = f"in {subject.text[len('the cards of '):]}"
            else:
                where = f"of {subject.text}"
            return P(f"the {plural(word, 2)} {where}", "list", noun=word, where=where)
        if subject.kind in ("card", "value") and name in rs.card_vars:
            return P(f"the *{word}* of {subject.text}", "list")
        raise NoWords()

    # structure --------------------------------------------------------------------------------------------
    def _attr(self, t, scope):
        subject, name = t.children
        return self.attr_of(self.node(subject, scope), str(name))

    def _index(self, t, scope):
        family, index = t.children
        if isinstance(family, Tree) and family.data == "name" and str(family.children[0]) == "players":
            return self.seat_at(index, scope)
        f = self.node(family, scope)
        if f.kind != "family":
            raise NoWords()
        z, owner = f.zone, f.owner
        i = index.children[0] if isinstance(index, Tree) and index.data == "name" else None
        if i is not None and str(i) in scope and scope[str(i)].kind == "index":
            return self.zone_phrase(z, owner, chosen=scope[str(i)].text)
        v = self._static(index, scope)
        if isinstance(v, int) and not isinstance(v, bool):
            return self.zone_phrase(z, owner, key=v)
        if isinstance(v, str) and z.keys is not None:
            return self.zone_phrase(z, owner, key=v)
        # `seeds[d - 1]`: the member numbered d (counted from 1, as people count them)
        if isinstance(index, Tree) and index.data == "binary" and str(index.children[1]) == "-" \
                and self._static(index.children[2], scope) == 1:
            number = self.node(index.children[0], scope).text
        elif z.keys is not None:   # 'your stall for the good of ...'
            called = self.display.called(z)
            text = f"the {called} for {self.node(index, scope).text}"
            return P(f"{owner.poss} {called} for {self.node(index, scope).text}" if owner is not None else text,
                     "zone", zone=z)
        else:
            raise NoWords()   # a member counted from 0 by an expression: no words people would say
        called = self.display.called(z)
        name = f"{called} {number}"
        return P(f"{owner.poss} {name}" if owner is not None else name, "zone", zone=z)

    def seat_at(self, index, scope) -> P:
        """`players[i]`: a seat, in seat order: 'the first player', 'the last player'."""
        v = self._static(index, scope)
        if v == 0:
            text = "the first player"
        elif isinstance(index, Tree) and index.data == "binary" and str(index.children[1]) == "-" \
                and self._is_name(index.children[0], "player_count") and self._static(index.children[2], scope) == 1:
            text = "the last player"
        elif isinstance(v, int) and not isinstance(v, bool):
            text = f"the player in seat {v + 1}"
        else:
            raise NoWords()
        return P(text, "player", poss=f"{text}'s")

    @staticmethod
    def _is_name(t, name: str) -> bool:
        return isinstance(t, Tree) and t.data == "name" and str(t.children[0]) == name

    def _list_(self, t, scope):
        pair = scope.get("__pair__")
        if pair is not None and sorted(str(c.children[0]) for c in t.children if self._is_name(c, str(c.children[0]))) \
                == sorted(pair.where.split()) and len(t.children) == 2:
            return pair   # '[a, b]' of an unordered pair: 'the two chosen cards'
        parts = [self.node(c, scope) for c in t.children]
        if not parts:
            return P("no cards", "cards")
        if len(parts) == 1:
            return parts[0]
        kind = "cards" if all(p.kind in ("card", "cards") for p in parts) else "list"
        return P(self.items([p.text for p in parts], "and"), kind)

    def _neg(self, t, scope):
        return P(f"minus {self.node(t.children[0], scope).text}", "number")

    def _binary(self, t, scope):
        a, op, b = t.children
        op = str(op)
        pa, pb = self.node(a, scope), self.node(b, scope)
        if op == "+" and pa.kind == "zone" and pb.kind == "zone":
            return P(f"the cards of {pa.text} and {pb.text}", "cards")
        if op == "+" and pa.kind == "cards" and pa.text.startswith("the cards of ") and pb.kind == "zone":
            head, _, last = pa.text.rpartition(" and ")
            return P(f"{head}, {last} and {pb.text}" if head else f"{pa.text} and {pb.text}", "cards")
        if op == "+" and pa.kind in ("zone", "cards") and pb.kind in ("zone", "cards", "card"):
            return P(f"{self.cards_text(pa)} and {self.cards_text(pb)}", "cards")
        if op == "%":
            return P(f"the remainder of {pa.text} divided by {pb.text}", "number")
        if op == "+" and pb.text.startswith("minus "):
            return P(f"{pa.text} minus {pb.text[6:]}", "number")
        return P(f"{pa.text} {ARITH[op]} {pb.text}", "number")

    def _maybe(self, t, scope) -> P | None:
        try:
            return self.node(t, scope)
        except NoWords:
            return None

    @staticmethod
    def among(p: P) -> str:
        """Where some cards are, for 'the first card of ...': 'your hand', 'the deck whose kind is seed'."""
        if p.text.startswith("the cards of "):
            return p.text[len("the cards of "):]
        return p.text

    def cards_text(self, p: P) -> str:
        return f"the cards of {p.text}" if p.kind == "zone" else p.text

    def _compare(self, t, scope):
        a, op, b = t.children
        op = str(op)
        # count(zone) compared with a number: 'your hand is empty', 'the row holds fewer than 3 cards'
        inner = self._maybe(a.children[1], scope) if self._is_call(a, "count") else None
        if inner is not None:
            n = self._static(b, scope)
            if inner.kind == "zone":
                if n == 0 and op in ("==", "<="):
                    return P(f"{inner.text} is empty", "bool")
                if (n == 0 and op in ("!=", ">")) or (n == 1 and op == ">="):
                    return P(f"{inner.text} is not empty", "bool")
                number = self.node(b, scope).text
                if isinstance(n, int) and not isinstance(n, bool):
                    return P(f"{inner.text} {HOLDS[op]} {number} card{'s' if n != 1 else ''}", "bool")
                return P(f"{inner.text} {AS_MANY[op]} {number}", "bool")
            if inner.kind in ("cards", "players", "list") and n == 0 and op in ("==", "<="):
                return P(f"there are no {bare(inner.text)}", "bool")
            if inner.kind in ("cards", "players", "list") and ((n == 0 and op in ("!=", ">")) or (n == 1 and op == ">=")):
                return P(f"there is at least one of {inner.text}", "bool")
        # x % y == 0: a multiple
        if isinstance(a, Tree) and a.data == "binary" and str(a.children[1]) == "%" and op == "==" \
                and self._static(b, scope) == 0:
            return P(f"{self.node(a.children[0], scope).text} is a multiple of {self.node(a.children[2], scope).text}",
                     "bool")
        pa, pb = self.node(a, scope), self.node(b, scope)
        if pb.kind == "bool" and op in ("==", "!=") and pb.text in ("true", "false"):
            yes = (pb.text == "true") == (op == "==")
            return P(f"{pa.text} is {'true' if yes else 'false'}", "bool")
        verb = COMPARE[op]
        if pa.text in ("you",):
            verb = {"is": "are", "is not": "are not"}.get(verb, verb.replace("is ", "are "))
        return P(f"{pa.text} {verb} {pb.text}", "bool")

    def _in_op(self, t, scope):
        a, b = t.children
        return P(f"{self.node(a, scope).text} is one of {self.node(b, scope).text}", "bool")

    def _not_in_op(self, t, scope):
        a, b = t.children
        return P(f"{self.node(a, scope).text} is not one of {self.node(b, scope).text}", "bool")

    def _and_op(self, t, scope):
        # 'either a or b, and c': the grouping an 'or' inside an 'and' needs
        grouped = any(isinstance(c, Tree) and c.data == "or_op" for c in t.children)
        parts = []
        for c in t.children:
            text = self.truth(self.node(c, scope))
            parts.append(f"either {text.replace(', or ', ' or ')}" if isinstance(c, Tree) and c.data == "or_op" else text)
        return P((", and " if grouped else " and ").join(parts), "bool")

    def _or_op(self, t, scope):
        a, b = (self.truth(self.node(c, scope)) for c in t.children)
        # 'its colour is red or its colour is blue' -> 'its colour is red or blue'
        left, _, one = a.rpartition(" is ")
        other_left, _, other = b.rpartition(" is ")
        plain = not one.startswith(("not ", "at ", "more ", "less ")) and not other.startswith(("not ", "at ", "more ", "less "))
        if left and left == other_left and plain and " and " not in a + b and ", or " not in a:
            return P(f"{left} is {one} or {other}", "bool")
        return P(f"{a}, or {b}", "bool")

    def _not_op(self, t, scope):
        inner = self.node(t.children[0], scope)
        if inner.kind == "flag":
            return P(f"{inner.text} is false", "bool")
        if " is " in inner.text and " and " not in inner.text and " or " not in inner.text:
            return P(inner.text.replace(" is ", " is not ", 1), "bool")
        return P(f"it is not so that {self.truth(inner)}", "bool")

    def _cond(self, t, scope):
        then, test, other = t.children
        c = self._static(test, scope)
        if isinstance(c, bool):
            return self.node(then if c else other, scope)
        a, b = self.node(then, scope), self.node(other, scope)
        return P(f"{a.text} if {self.truth(self.node(test, scope))}, otherwise {b.text}", a.kind, noun=a.noun)

    def _where(self, t, scope):
        items, cond = t.children
        p = self.node(items, scope)
        it = self.item_of(p)
        text = relative(self.truth(self.node(cond, dict(scope, it=it))))
        if text.startswith("that is "):   # several cards or players: 'that are'
            text = "that are " + text[len("that is "):]
        if p.kind == "zone":
            return P(f"the cards of {p.text} {text}", "cards", noun=p.noun)
        if p.kind == "players":
            return P(f"{p.text} {text}", "players", noun="player")
        return P(f"{p.text} {text}", p.kind, noun=p.noun)

    def item_of(self, p: P) -> P:
        """What `it` stands for among the items of a phrase: a card, a player, a value."""
        if p.kind == "players":
            return P("it", "player", poss="its")
        if p.kind in ("zone", "cards"):
            return P("it", "card", poss="its")
        return P("it", "value", poss="its")

    # calls --------------------------------------------------------------------------------------------------
    @staticmethod
    def _is_call(t, name: str) -> bool:
        return isinstance(t, Tree) and t.data == "call" and str(t.children[0]) == name

    def _call(self, t, scope):
        name = str(t.children[0])
        args = t.children[1:]
        if name not in FUNCTIONS:
            if name in self.functions:
                return self.user_function(name, [self.node(a, scope) for a in args])
            raise NoWords()
            raise NoWords()
        fn = getattr(self, f"_fn_{name}", None)
        if fn is None:
            raise NoWords()
        return fn(args, scope)

    def user_function(self, name: str, args: list) -> P:
        """A function of the ruleset, by its name in italics (the rulebook defines it): 'your *worth*', 'it is
        *plain*' (a function whose value is a condition), '*stock* of you and *g*'."""
        if name not in self.used_functions:
            self.used_functions.append(name)
        word = f"*{name.replace('_', ' ')}*"
        spec = self.functions[name]
        body = spec.get("value") if isinstance(spec, dict) else spec
        try:
            tree = parse(str(body))
            condition = isinstance(tree, Tree) and tree.data in ("compare", "and_op", "or_op", "not_op", "in_op",
                                                                 "not_in_op")
        except ExprError:
            condition = False
        if len(args) == 1 and args[0].kind in ("player", "card"):
            a = args[0]
            if condition:
                return P(f"{a.text} {'are' if a.text == 'you' else 'is'} {word}", "bool")
            return P(f"{a.poss} {word}", "value")
        if args:
            return P(f"{word} of {self.items([a.text for a in args], 'and')}", "value")
        return P(word, "bool" if condition else "value")

    def _per_item(self, items: P, body, scope) -> str:
        """A per-item argument in words, with `it` (or its named item) standing for one item of `items`."""
        it = self.item_of(items)
        if isinstance(body, Tree) and body.data == "lambda_":
            name, inner = body.children
            noun = {"player": "player", "card": "card"}.get(it.kind, "value")
            that = P(f"that {noun}", it.kind, poss=f"that {noun}'s")
            return self.truth(self.node(inner, dict(scope, it=that, **{str(name): that})))
        return self.truth(self.node(body, dict(scope, it=it)))

    def _fn_count(self, args, scope):
        inner = args[0]
        # count(distinct(x.attr)): the number of different values
        if self._is_call(inner, "distinct"):
            p = self.node(inner.children[1], scope)
            if p.kind == "list" and p.where:
                return P(f"the number of different {plural(p.noun, 2)} {p.where}", "number")
        # count(counts(x.attr) where it >= n): the values held at least n times
        if isinstance(inner, Tree) and inner.data == "where" and self._is_call(inner.children[0], "counts"):
            values = self.node(inner.children[0].children[1], scope)
            cond = inner.children[1]
            if values.kind == "list" and values.where and isinstance(cond, Tree) and cond.data == "compare" \
                    and isinstance(cond.children[0], Tree) and cond.children[0].data == "name" \
                    and str(cond.children[0].children[0]) == "it":
                op, n = str(cond.children[1]), self.node(cond.children[2], scope).text
                holds = HOLDS[op].replace("holds ", "")
                return P(f"the number of {plural(values.noun, 2)} of which {values.where[3:]} holds {holds} {n} cards",
                         "number")
        p = self.node(inner, scope)
        if p.kind == "zone":
            return P(f"the number of cards in {p.text}", "number")
        if p.kind == "family" or (p.kind == "cards" and p.text.startswith("the cards of ")):
            return P(f"the number of {bare(p.text)}", "number")
        if p.kind in ("cards", "zone", "value"):
            return P(f"the number of cards in {p.text}", "number")
        return P(f"the number of {bare(p.text)}", "number")

    def _fn_sum(self, args, scope):
        p = self.node(args[0], scope)
        if p.kind == "list" and p.where:
            cards = "of the cards " if p.where.startswith("in ") else ""
            return P(f"the total {p.noun} {cards}{p.where}", "number")
        return P(f"the sum of {p.text}", "number")

    def _fn_max(self, args, scope):
        return P(f"the highest of {self.node(args[0], scope).text}", "number")

    def _fn_min(self, args, scope):
        return P(f"the lowest of {self.node(args[0], scope).text}", "number")

    def _fn_abs(self, args, scope):
        return P(f"the size of {self.node(args[0], scope).text}", "number")

    def _fn_distinct(self, args, scope):
        p = self.node(args[0], scope)
        if p.kind == "list" and p.where:
            return P(f"the different {plural(p.noun, 2)} {p.where}", "list", noun=p.noun, where=p.where)
        return P(f"the different values of {p.text}", "list")

    def _fn_first(self, args, scope):
        return self._end(args, scope, "first")

    def _fn_last(self, args, scope):
        return self._end(args, scope, "last")

    def _end(self, args, scope, word):
        p = self.node(args[0], scope)
        if p.kind in ("zone", "cards"):
            return P(f"the {word} card of {self.among(p)}", "card")
        if p.kind == "players":
            return P(f"the {word} of {p.text}", "player", poss=f"the {word} of {p.text}'s")
        return P(f"the {word} of {p.text}", "value")

    def _fn_take(self, args, scope):
        p, k = self.node(args[0], scope), self.node(args[1], scope)
        one = k.text == "1"
        if p.kind in ("zone", "cards"):
            if k.text.startswith("the "):    # 'the chosen number of cards of your hand'
                return P(f"{k.text} of cards of {self.among(p)}", "cards")
            return P(f"the first {'card' if one else k.text + ' cards'} of {self.among(p)}", "card" if one else "cards")
        return P(f"the first {'one' if one else k.text} of {p.text}", p.kind)

    def _fn_drop(self, args, scope):
        p, k = self.node(args[0], scope), self.node(args[1], scope)
        if p.kind in ("zone", "cards"):
            return P(f"all but the first {k.text} cards of {self.among(p)}", "cards")
        return P(f"all but the first {k.text} of {p.text}", p.kind)

    def _fn_reverse(self, args, scope):
        p = self.node(args[0], scope)
        return P(f"{p.text}, from its other end", p.kind, noun=p.noun, zone=p.zone)

    def _fn_sort(self, args, scope):
        return self.node(args[0], scope)

    def _fn_take_while(self, args, scope):
        p = self.node(args[0], scope)
        cond = relative(self._per_item(p, args[1], scope))
        return P(f"the cards at the start of {self.among(p)} {cond} (up to the first card that is not)", "cards")

    def _fn_any(self, args, scope):
        p = self.node(args[0], scope)
        cond = self._per_item(p, args[1], scope)
        if p.kind == "players":
            return P(self._someone(p, cond, "some"), "bool")
        if p.kind == "zone":
            return P(f"{p.text} holds a card {relative(cond)}", "bool")
        if p.kind not in ("cards", "list"):
            raise NoWords()
        return P(f"one of {p.text} is one {relative(cond)}", "bool")

    def _someone(self, p: P, cond: str, which: str) -> str:
        """'some player whose score is at least 500' -> "some player's score is at least 500"."""
        subject = "player" if p.text == "the players" else f"one of {p.text}"
        if cond.startswith("its "):
            return f"{which} {subject}'s {cond[4:]}" if subject == "player" else f"{which} {subject} {relative(cond)}"
        return f"{which} {subject} is such that {cond}"

    def _fn_all(self, args, scope):
        p = self.node(args[0], scope)
        cond = self._per_item(p, args[1], scope)
        if p.kind == "players":
            return P(self._someone(p, cond, "every"), "bool")
        return P(f"every card of {p.text if p.kind == 'zone' else bare(p.text)} is one {relative(cond)}", "bool")

    def _fn_filter(self, args, scope):
        p = self.node(args[0], scope)
        cond = relative(self._per_item(p, args[1], scope))
        return P(f"{self.cards_text(p)} {cond}", "cards" if p.kind in ("zone", "cards") else p.kind, noun=p.noun)

    def _fn_groups(self, args, scope):
        p = self.node(args[0], scope)
        key = args[1]
        if isinstance(key, Tree) and key.data == "name" and str(key.children[0]) in self.attrs:
            word = self.words(str(key.children[0]).replace("_", " "))
            return P(f"all the cards of one {word} in {p.text if p.kind == 'zone' else bare(p.text)}", "groups",
                     noun=word)
        raise NoWords()

    def _extreme(self, args, scope, word):
        p = self.node(args[0], scope)
        value = self._per_item(p, args[1], scope)
        most = {"highest": "most", "lowest": "fewest"}[word]
        if value.startswith("the number of cards in its "):
            value = f"{most} cards in {'their' if p.kind == 'players' else 'its'} " + value[len("the number of cards in its "):]
        else:
            value = f"{word} " + (value[4:] if value.startswith(("its ", "the ")) else value)
        if p.kind == "players":
            return P(f"the players with the {value}", "players", noun="player")
        return P(f"{self.cards_text(p)} with the {value}", p.kind if p.kind != "zone" else "cards")

    def _fn_maxima(self, args, scope):
        return self._extreme(args, scope, "highest")

    def _fn_minima(self, args, scope):
        return self._extreme(args, scope, "lowest")

    def _fn_next(self, args, scope):
        return self._seat(args, scope, "after")

    def _fn_previous(self, args, scope):
        return self._seat(args, scope, "before")

    def _seat(self, args, scope, word):
        p = self.node(args[0], scope)
        steps = self._static(args[1], scope) if len(args) > 1 else 1
        if len(args) > 1 and steps is _UNKNOWN:
            raise NoWords()
        if p.text == "the current player" and steps == 1:
            text = "the next player" if word == "after" else "the previous player"
        elif steps == 1:
            text = f"the player {word} {p.text}"
        else:
            text = f"the player {ORDINAL.get(steps, steps)} seats {word} {p.text}"
        return P(text, "player", poss=f"{text}'s")

    def _fn_others(self, args, scope):
        p = self.node(args[0], scope)
        text = "the other players" if p.text == "you" else f"the players other than {p.text}"
        return P(text, "players", noun="player")

    def _fn_random(self, args, scope):
        p = self.node(args[0], scope)
        if p.kind == "players":
            return P("a player drawn at random", "player", poss="that player's")
        if p.kind in ("zone", "cards"):
            return P(f"a card of {self.among(p)}, drawn at random", "card")
        return P(f"one of {p.text}, drawn at random", "value")

    def _fn_sample(self, args, scope):
        p, k = self.node(args[0], scope), self.node(args[1], scope)
        if p.kind not in ("zone", "cards"):
            if k.text == "the number of players":
                return P(f"one of {p.text} for each player, drawn at random", "list")
            return P(f"{k.text} of {p.text}, drawn at random", "list")
        return P(f"{k.text} cards of {self.among(p)}, drawn at random", "cards")

    def _fn_range(self, args, scope):
        if len(args) == 1:
            hi = self._static(args[0], scope)
            return P(f"the numbers from 0 to {self.below(args[0], hi, scope)}", "list", noun="number")
        lo, hi = (self._static(a, scope) for a in args)
        low = str(lo) if lo is not _UNKNOWN else self.node(args[0], scope).text
        return P(f"the numbers from {low} to {self.below(args[1], hi, scope)}", "list", noun="number")

    def below(self, t, value, scope) -> str:
        """The number one less than an expression: 'x + 1' -> 'x'."""
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value - 1)
        if isinstance(t, Tree) and t.data == "binary" and str(t.children[1]) == "+" \
                and self._static(t.children[2], scope) == 1:
            return self.node(t.children[0], scope).text
        return f"{self.node(t, scope).text} minus 1"

    def _fn_keys(self, args, scope):
        a = args[0]
        z = self.rs.zones.get(str(a.children[0])) if self._is_name(a, str(a.children[0])) else None
        if z is None:
            z = self.node(a, scope).zone
        attribute = self.key_word(z) if z is not None else None
        if attribute:
            return P(f"the {plural(attribute, 2)}", "list", noun=attribute)
        raise NoWords()

    def key_word(self, z) -> str | None:
        """The word for the keys of a keyed family (the attribute that makes them), or None."""
        spec = (self.rs.data.get("zones") or {}).get(z.name) or {}
        keys = spec.get("keys") if isinstance(spec, dict) else None
        if isinstance(keys, dict) and isinstance(keys.get("attribute"), str):
            return self.words(keys["attribute"].replace("_", " "))
        return None

    def _fn_text(self, args, scope):
        return self.node(args[0], scope)
