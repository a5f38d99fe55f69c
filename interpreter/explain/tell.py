"""Effects in plain sentences for the rulebook: an effect list of a ruleset + what its names mean -> lines
such as 'Deal 8 cards from the deck to each player's hand.', nested for the effects inside others.

Each effect has a teller here (TELLERS, one per effect of interpreter/effects/, checked by the tests);
expressions go through phrases.py and keep their written form where they have no sentence form. A
condition known from the parameters keeps only the branch the ruleset's values take; a short procedure
is told where it is called, its arguments read as the call gives them.
"""
from __future__ import annotations

import re

from ..effects.text import END_WORDS, flat
from .phrases import P, NoWords, Phrases, an, plural

INLINE_PROCEDURE = 3     # a procedure of at most this many effects is told where it is called
WORD = re.compile(r"[A-Za-z]{3,}")


def head(item) -> tuple[str, object, dict]:
    """An effect item -> (effect name, its value, the whole map)."""
    if isinstance(item, str):
        return item, None, {}
    name = next(k for k in item if k in TELLERS)
    return name, item[name], item


class Teller:
    """Tells the effects of one ruleset (`phrases`: what its names mean)."""

    def __init__(self, phrases: Phrases):
        self.ph = phrases
        self.rs = phrases.rs
        self.procs = phrases.rs.data.get("procedures") or {}
        self.inlining: list[str] = []
        self.called: list[str] = []     # procedures told by name: the rulebook tells them apart

    # lists --------------------------------------------------------------------------------------------
    def lines(self, effects, scope: dict | None = None, depth: int = 0) -> list[str]:
        """Markdown bullets for a list of effects; `scope` (the local names' phrases) grows with each `let`."""
        scope = dict(scope or {})
        out = []
        for item in effects or []:
            name, value, whole = head(item)
            text, groups = TELLERS[name](self, value, whole, scope)
            pad = "  " * depth
            if text is not None:
                out.append(f"{pad}- {text}")
            for heading, inner, inner_scope in groups:
                if not inner:
                    continue
                if text is None and heading is None:
                    out += self.lines(inner, inner_scope, depth)   # a branch the parameters choose: told in line
                    continue
                told = self.lines(inner, inner_scope, depth + 1)
                if told and heading:
                    out.append(f"{pad}- {heading}")
                out += told
        return out

    # phrases --------------------------------------------------------------------------------------------
    def say(self, text, scope, role="value") -> str:
        return self.ph.say(text, scope, role)

    def node(self, text, scope) -> P | None:
        try:
            return self.ph.node_of(text, scope)
        except NoWords:
            return None

    def cards(self, text, scope) -> str:
        p = self.node(text, scope)
        if p is None:
            return f"the cards `{flat(text)}`"
        return self.ph.cards_text(p) if p.kind == "zone" else p.text

    def count(self, n, scope) -> str:
        if n == "all":
            return "all the cards"
        if isinstance(n, int) and not isinstance(n, bool):
            return "1 card" if n == 1 else f"{n} cards"
        v = self.ph.static(n)
        if isinstance(v, int) and not isinstance(v, bool):
            return "1 card" if v == 1 else f"{v} cards"
        text = self.say(n, scope)
        return f"as many cards as {text}" if text.startswith("the ") else f"{text} cards"

    def end_of(self, where, zone: str, scope) -> str:
        """An end of a zone: 'the top of the pile', 'the chosen side of the chosen row'."""
        side = where if isinstance(where, str) and where in END_WORDS else self.ph.static(where)
        if isinstance(side, str) and side in END_WORDS:
            return f"the {side} end of {zone}" if side in ("left", "right") else f"the {side} of {zone}"
        text = self.say(where, scope)
        if text.endswith((" side", " end")):   # a chosen side: 'the chosen side of the chosen row'
            return f"{text} of {zone}"
        return f"the {text[4:] if text.startswith('the ') else text} end of {zone}"

    # arguments ------------------------------------------------------------------------------------------
    def pair(self, args: dict, cond) -> tuple[str, str] | None:
        """`a < b` over two arguments of one domain: an unordered pair of different items (a, b), or None."""
        found = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*<\s*([A-Za-z_]\w*)\s*", str(cond or ""))
        if not found or not args:
            return None
        a, b = found.groups()
        if a in args and b in args and args[a] == args[b] and not isinstance(args[a], dict):
            return a, b
        return None

    def choices(self, args: dict, scope: dict, label: str = "", cond=None) -> tuple[str, dict]:
        """What a player chooses, in words ('a card of your hand and a perch'), and the phrases the effects
        use for the chosen values ('the chosen card', 'the chosen perch'). With `cond` an unordered pair
        (`a < b`): 'two different cards of your hand'."""
        pair = self.pair(args, cond)
        if pair is not None:
            a, b = pair
            text, meaning = self.argument(a, args[a], scope, label)
            rest = {k: v for k, v in args.items() if k not in pair}
            more, meanings = self.choices(rest, scope, label) if rest else ("", {})
            noun = meaning.text.rsplit(" ", 1)[-1]
            both = P(f"the two chosen {plural(noun)}", "cards", where=f"{a} {b}")
            first = text.split(" ", 1)
            text = f"two different {plural(first[1].split(' ', 1)[0])} {first[1].split(' ', 1)[1]}" \
                if first[0] in ("a", "an") and " " in first[1] else f"two different items of {text}"
            meanings.update({a: P(f"one of the two chosen {plural(noun)}", "card"),
                             b: P(f"the other of the two chosen {plural(noun)}", "card"), "__pair__": both})
            return self.ph.items([text] + ([more] if more else []), "and"), meanings
        described, meanings, given = [], {}, []
        for name, domain in (args or {}).items():
            one = self.single(domain)
            p = self.node(one, dict(scope, **meanings)) if one is not None else None
            if p is not None:   # a list of one value: nothing to choose; the rules call it by its name
                given.append(f"*{name}* is {p.text}")
                meanings[name] = P(f"*{name}*", p.kind, poss=f"*{name}*'s", noun=p.noun)
                continue
            text, meaning = self.argument(name, domain, dict(scope, **meanings), label)
            if text:
                described.append(text)
            meanings[name] = meaning
        # two values told alike (two cards of a hand) keep their names
        seen: dict = {}
        for name, m in meanings.items():
            seen.setdefault(m.text, []).append(name)
        for text, names in seen.items():
            if len(names) > 1:
                for name in names:
                    m = meanings[name]
                    meanings[name] = P(f"{m.text} *{name}*", m.kind, poss=f"{m.text} *{name}*'s", noun=m.noun)
        text = self.ph.items(described, "and")
        if given:
            text += " (" + "; ".join(given) + ")"
        return text, meanings

    def argument(self, name: str, domain, scope: dict, label: str) -> tuple[str | None, P]:
        """One value to choose: its words ('a tile of your hand') and what the effects call it ('the chosen
        tile': the domain's noun, or the argument's name for a group or a list of words)."""
        wordy = len(name) >= 3 and name.isalpha()
        word = self.ph.words(name.replace("_", " "))
        if isinstance(domain, dict):   # {pick: zone, count | min/max}
            source = self.node(domain.get("pick"), scope)
            where = source.text if source is not None else f"`{flat(domain.get('pick'))}`"
            if source is not None and source.kind == "cards":
                where = self.ph.among(source)
            if "count" in domain:
                size = self.say(domain["count"], scope)
            else:
                size = f"{self.say(domain.get('min', 0), scope)} to {self.say(domain['max'], scope) if 'max' in domain else 'all'}"
            noun = self.noun()
            return f"{size} {plural(noun)} of {where}", P(f"the chosen {plural(noun)}", "cards")
        p = self.node(domain, scope)
        if p is None:
            return f"*{name}* from `{flat(domain)}`", P(f"*{word}*", "value")
        if p.kind == "groups":
            return p.text, P(f"the chosen {word if wordy else plural(self.noun())}", "cards")
        if p.kind in ("zone", "cards"):
            noun = self.noun()
            text = f"{an(noun)} of {p.text}" if p.kind == "zone" else f"{an(noun)} of {self.ph.among(p)}"
            return text, P(f"the chosen {noun}", "card")
        if p.kind == "players":
            if p.text.startswith("the other players"):
                one = "another player" + p.text[len("the other players"):]
            elif p.text.startswith("the players"):
                one = "a player" + p.text[len("the players"):]
            else:
                one = f"one of {p.text}"
            return one, P("the chosen player", "player", poss="the chosen player's")
        if p.kind == "list" and p.noun == "number":
            noun = self.index_noun(name, label)
            if noun is not None:
                return f"a {noun}", P("the chosen", "index", noun=noun)
            return "a number" + p.text[len("the numbers"):], P("the chosen number", "number")
        if p.kind == "family":
            return None, p
        values = self.ph.static(domain)
        if isinstance(values, list) and len(values) > 1:
            options = self.ph.items([self.ph.value(v).text for v in values], "or")
            return options, P(f"the chosen {word if wordy else 'value'}", "text")
        if p.kind == "list" and p.noun not in ("card", "value"):
            return f"{an(p.noun)}" + (f" (one of {p.text})" if not p.text.startswith(f"the {plural(p.noun)}") else ""), \
                P(f"the chosen {p.noun}", "text")
        if p.kind == "list":
            return f"one of {p.text}", P("the chosen value", "text")
        return f"one of {p.text}", P(f"the chosen {word if wordy else 'value'}", "value")

    @staticmethod
    def single(domain):
        """The text of the one item of a list written as '[x]', or None."""
        from lark import Tree
        from ..expr.parser import ExprError, parse
        if not isinstance(domain, str):
            return None
        try:
            tree = parse(domain)
        except ExprError:
            return None
        if isinstance(tree, Tree) and tree.data == "list_" and len(tree.children) == 1:
            inner = domain.strip()[1:-1]
            return inner
        return None

    def noun(self, p: P | None = None) -> str:
        """The word for one card: the type of the ruleset's cards when they are all of one ('tile')."""
        types = {c["type"] for c in self.rs.cards}
        return self.ph.words(types.pop()) if len(types) == 1 else "card"

    @staticmethod
    def index_noun(name: str, label) -> str | None:
        """The word an option's label puts before a numbered choice: 'in row {r + 1}' -> 'row'."""
        found = re.search(r"([A-Za-z]+) \{\s*" + re.escape(name) + r"\s*\+\s*1\s*\}", str(label or ""))
        return found.group(1) if found else None

    # the effects ----------------------------------------------------------------------------------------
    def t_move(self, f, whole, scope):
        what = self.cards(f["cards"], scope) if "cards" in f else self.count(f.get("count", 1), scope)
        src = self.say(f["from"], scope)
        dst = self.say(f["to"], scope)
        if "take" in f:
            src = self.end_of(f["take"], src, scope)
        if "at" in f:
            dst = self.end_of(f["at"], dst, scope)
        text = f"Move {what} from {src} to {dst}."
        if f.get("if_empty"):
            text += " If there are too few cards:"
        return text, [(None, f.get("if_empty"), scope)]

    def t_deal(self, f, whole, scope):
        z = self.rs.zones.get(f["to"])
        called = self.ph.display.called(z) if z is not None else f["to"]
        src = self.say(f["from"], scope)
        if "players" in f:
            who = f"to the {called} of each of {self.say(f['players'], scope)}, in that order"
        else:
            who = f"to each player's {called}"
        text = f"Deal {self.count(f['count'], scope)} from {src} {who}, one card at a time."
        if f.get("if_empty"):
            text += " If the cards run out:"
        return text, [(None, f.get("if_empty"), scope)]

    def t_shuffle(self, zone, whole, scope):
        return f"Shuffle {self.say(zone, scope)}.", []

    def t_sort(self, f, whole, scope):
        order = "the greatest first" if f.get("descending") else "the smallest first"
        return f"Sort {self.say(f.get('zone'), scope)} by {self.ph.words(str(f.get('by')))}, {order}.", []

    def target(self, name: str, scope) -> str:
        return self.say(name, scope)

    def t_set(self, f, whole, scope):
        parts = []
        for k, v in f.items():
            value = self.say(v, scope)
            parts.append(f"{self.target(k, scope)} to {value}" if value != "nothing" else f"clear {self.target(k, scope)}")
        text = "Set " + self.ph.items(parts, "and") + "."
        return text.replace("Set clear ", "Clear "), []

    def t_add(self, f, whole, scope):
        parts = []
        for k, v in f.items():
            n = self.ph.static(v)
            if isinstance(n, int) and not isinstance(n, bool) and n < 0:
                parts.append(f"take {-n} from {self.target(k, scope)}")
            else:
                text = self.say(v, scope)
                if text.startswith("minus "):
                    parts.append(f"take {text[6:]} from {self.target(k, scope)}")
                else:
                    parts.append(f"add {text} to {self.target(k, scope)}")
        text = self.ph.items(parts, "and") + "."
        return text[0].upper() + text[1:], []

    def t_let(self, f, whole, scope):
        parts = []
        for k, v in f.items():
            p = self.node(v, scope)
            parts.append(f"*{k}* be {p.text if p is not None else self.say(v, scope)}")
            kind = p.kind if p is not None else "value"
            kind = "flag" if kind == "bool" else kind
            scope[k] = P(f"*{k}*", kind, poss=f"*{k}*'s", noun=p.noun if p else "card",
                         zone=p.zone if p is not None else None)
        return "Let " + self.ph.items(parts, "and") + ".", []

    def t_if(self, cond, whole, scope):
        known = self.ph.static(cond)
        if isinstance(known, bool):   # decided by the parameters: only the branch they take is told
            return None, [(None, whole.get("then") if known else whole.get("else"), scope)]
        text = f"If {self.say(cond, scope, 'cond')}:"
        return text, [(None, whole.get("then"), scope), ("Otherwise:", whole.get("else"), scope)]

    def t_while(self, cond, whole, scope):
        return f"Repeat while {self.say(cond, scope, 'cond')}:", [(None, whole.get("do"), scope)]

    def t_until(self, cond, whole, scope):
        return f"Repeat until {self.say(cond, scope, 'cond')}:", [(None, whole.get("do"), scope)]

    def t_for_each(self, name, whole, scope):
        domain = whole.get("in")
        body = whole.get("do")
        p = self.node(domain, scope)
        inner = dict(scope)
        if p is not None and p.kind == "players":
            inner[name] = P("they", "player", poss="their")
            who = "each player" if p.text == "the players" else f"each of {p.text}"
            return f"For {who}:", [(None, body, inner)]
        family = self.indexed_family(name, body)
        if p is not None and p.noun == "number" and family is not None:
            inner[name] = P("that", "index")
            called = self.ph.display.called(family)
            noun = called.rsplit(" ", 1)[-1] if called.startswith("the ") else called
            size = self.ph.static(domain[len("range("):-1]) if str(domain).startswith("range(") else None
            if size == family.size or str(domain).replace(" ", "") == f"range(count({family.name}))":
                return f"For each {noun}:", [(None, body, inner)]
            top = self.say(str(domain)[len("range("):-1], scope) if str(domain).startswith("range(") else p.text
            return f"For each of the first {top} {plural(noun)}:", [(None, body, inner)]
        if p is not None and p.kind in ("zone", "cards"):
            inner[name] = P("that card", "card", poss="that card's")
            where = p.text if p.kind == "zone" else p.text[4:] if p.text.startswith("the ") else p.text
            return f"For each card of {where}:" if p.kind == "zone" else f"For each of the {where}:", [(None, body, inner)]
        inner[name] = self.named(name, body)
        what = p.text if p is not None else f"`{flat(domain)}`"
        return f"For each *{name}* of {what}:", [(None, body, inner)]

    def indexed_family(self, name: str, body):
        """The family a loop's variable numbers in its body (`row[r]`), or None."""
        text = str(body)
        for found in re.finditer(r"([A-Za-z_][A-Za-z0-9_]*)\[\s*" + re.escape(name) + r"\s*\]", text):
            z = self.rs.zones.get(found.group(1))
            if z is not None and z.is_family:
                return z
        return None

    def t_choose(self, f, whole, scope):
        if "players" in f:
            who = "Everyone" if str(f["players"]).strip() == "players" else f"Each of {self.say(f['players'], scope)}"
            verb = "chooses, all at the same time and in secret,"
        else:
            player = self.node(f.get("player", "me"), scope)
            who = player.text if player is not None else f"`{flat(f.get('player'))}`"
            who = who[0].upper() + who[1:]
            verb = "choose" if who == "You" else "chooses"
        inner = dict(scope)
        if "actions" in f:
            names = f["actions"] if isinstance(f["actions"], list) else [f["actions"]]
            what = "to " + self.ph.items([f"*{self.action_name(a)}*" for a in names], "or")
        else:
            what, meanings = self.choices(f.get("args"), scope, f.get("label", ""), f.get("if"))
            inner.update(meanings)
        text = f"{who} {verb} {what}"
        if "if" in f and "__pair__" not in inner:
            text += f", such that {self.say(f['if'], inner, 'cond')}"
        if f.get("optional"):
            text += ", or pass"
        if f.get("prompt"):
            text += f" (“{flat(f['prompt'])}”)"
        return text + (":" if f.get("do") else "."), [(None, f.get("do"), inner)]

    def action_name(self, name: str) -> str:
        return self.ph.words(name.replace("_", " "))

    def t_call(self, name, whole, scope):
        spec = self.procs.get(name)
        body = spec.get("do") if isinstance(spec, dict) else spec
        args = (spec.get("args") if isinstance(spec, dict) else None) or []
        given = whole.get("with") or {}
        rules = [e for e in body or [] if head(e)[0] != "log"]
        if body is not None and (len(rules) <= INLINE_PROCEDURE or self.calls(name) == 1) \
                and name not in self.inlining:
            inner = {k: v for k, v in scope.items() if k in ("me",)}
            for a in args:
                p = self.node(given.get(a), scope) if a in given else None
                inner[a] = p if p is not None else P(f"*{a}*", "value")
            self.inlining.append(name)
            try:
                told = self.lines(body, inner)
            finally:
                self.inlining.pop()
            if len(told) == 1 and told[0].startswith("- ") and "\n" not in told[0]:
                return told[0][2:], []
            return None, [(None, body, inner)]
        if name not in self.called:
            self.called.append(name)
        with_ = ""
        if given:
            with_ = " with " + self.ph.items([f"*{k}* = {self.say(v, scope)}" for k, v in given.items()], "and")
        return f"Carry out *{self.ph.words(name.replace('_', ' '))}*{with_} (see “{self.ph.words(name.replace('_', ' '))}” below).", []

    def calls(self, name: str) -> int:
        """How many `call`s of a procedure the ruleset makes."""
        return len(re.findall(r"'call': '" + re.escape(name) + "'", str(self.rs.data)))

    def named(self, name: str, body=None) -> P:
        """A local name in italics: a player where the ruleset reads a player's zone or variable of it."""
        return self.ph.local(name)

    def proc_scope(self, name: str) -> dict:
        """The phrases of a procedure's arguments where it is told on its own: a player where the body reads a
        player's zone or variable of it, else the argument in italics."""
        spec = self.procs.get(name)
        args = (spec.get("args") if isinstance(spec, dict) else None) or []
        return {a: self.named(a, spec) for a in args}

    def t_react(self, f, whole, scope):
        names = f.get("actions")
        names = names if isinstance(names, list) else [names]
        who = self.say(f["players"], scope) if "players" in f else "every other player"
        acts = self.ph.items([f"*{self.action_name(a)}*" for a in names], "or")
        which = ("every one who does is taken in turn" if f.get("until") == "all"
                 else "the first to act, going round the table from you, does it")
        if f.get("priority") == "random":
            which = "one of those who act, drawn at random, does it"
        who = who[0].upper() + who[1:]
        return f"{who} may at once {acts} out of turn; {which}.", []

    def t_reveal(self, f, whole, scope):
        until = {"turn": " until the end of the turn", "round": " until the end of the round"}.get(f.get("until"), "")
        to = self.node(f["to"], scope)
        whom = to.text if to is not None else self.say(f["to"], scope)
        whom = {"you": "yourself", "the players": "everyone"}.get(whom, whom)
        return f"Show {self.cards(f['cards'], scope)} to {whom}{until}.", []

    def t_log(self, f, whole, scope):
        return None, []     # what the story says: no rule

    def t_end_turn(self, f, whole, scope):
        return "The turn ends.", []

    def t_end_round(self, f, whole, scope):
        return "The round ends.", []

    def t_end_game(self, f, whole, scope):
        f = f or {}
        reason = f" ({flat(f['reason'])})" if f.get("reason") else ""
        if "winners" in f:
            return f"The game ends{reason}: {self.say(f['winners'], scope)} win.", []
        return f"The game ends{reason}; the scores decide who wins.", []


TELLERS = {name[2:]: fn for name, fn in vars(Teller).items() if name.startswith("t_")}
