"""Option forms: a ruleset + an option label -> whether any action or choice of it could ever offer that label.

A form is a label template ('play {count(cards)} {first(cards).colour} on pile {p + 1} at the {side}')
with holes. A label fits a form when its text matches the template's words and every hole holds a
value the ruleset can produce there: a number where the hole is a number, a player, a card label, and
otherwise words of the ruleset's vocabulary (card labels, attribute and parameter values, the texts
its expressions write). An `illegal:` choice must fit a form, so that a typo cannot pass as refused.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..engine.nodes import Choose
from ..errors import did_you_mean
from .words import show

NUMBER = re.compile(r"-?\d+(\.\d+)?$")
STRING = re.compile(r'"([^"\\\n]*)"|\'([^\'\\\n]*)\'')
LIST_KINDS = {"cards": "card", "players": "player", "groups": "card", "list": "any", "values": "any"}
MAX_SPLITS = 500     # ways of cutting one label into holes: labels are short, this is never reached in practice


@dataclass
class Form:
    """One action's or choice's label: literal texts and holes (kind, expression text), and its own texts."""

    name: str
    parts: list
    literals: set = field(default_factory=set)

    def pattern(self) -> str:
        return "".join(p if isinstance(p, str) else "{" + p[1] + "}" for p in self.parts)


class Vocabulary:
    """The words a ruleset's labels can be made of, for a game of `players` players."""

    def __init__(self, rules, players: int):
        self.labels = set(rules.card_labels)
        self.players = {f"P{p + 1}" for p in range(players)}
        words = set(self.labels) | self.players | {"yes", "no", "none", "true", "false"}
        for attrs in rules.cards:
            words.update(show(v) for v in attrs.values())
        for values in (rules.params, rules.param_choices, rules.global_vars, rules.player_vars):
            for value in values.values():
                for v in (value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value]):
                    words.add(show(v))
        self.words = {w for w in words if w}

    def fits(self, kind: str, text: str, literals: set) -> bool:
        """Could a hole of this kind print this text?"""
        if text == "none":
            return True
        if kind == "int":
            return bool(NUMBER.match(text))
        if kind == "bool":
            return text in ("yes", "no")
        if kind == "player":
            return text in self.players
        if kind == "card":
            return text in self.labels
        if kind in LIST_KINDS:
            inner = LIST_KINDS[kind]
            if text == "" or inner != "any" and all(self.fits(inner, t, literals) for t in text.split(", ")):
                return True
        return self.segments(text, self.words | literals)

    @staticmethod
    def segments(text: str, words: set) -> bool:
        """Can the text be cut into words, numbers and runs of punctuation or spaces?"""
        reach = [True] + [False] * len(text)
        for i in range(len(text)):
            if not reach[i]:
                continue
            for j in range(i + 1, len(text) + 1):
                piece = text[i:j]
                if piece in words or NUMBER.match(piece) or not any(ch.isalnum() for ch in piece):
                    reach[j] = True
        return reach[-1]

    def nearest(self, kind: str, text: str, literals: set) -> str | None:
        """The closest text a hole of this kind could print, for a did-you-mean."""
        pool = self.labels if kind == "card" else self.players if kind == "player" else self.words | literals
        if kind in ("int", "bool"):
            return None
        found = difflib.get_close_matches(text, sorted(pool), n=1, cutoff=0.6)
        return found[0] if found else None


def forms(rules) -> list[Form]:
    """Every label form the ruleset can offer: its actions, the choices inside effects, and pass."""
    choices = list(rules.actions.values()) + [n.choice for n in rules.nodes
                                              if isinstance(n, Choose) and n.choice is not None]
    out = []
    for choice in choices:
        texts = [d.text for d in choice.domains] + [getattr(f, "text", "") for f in
                                                     (choice.cond, getattr(choice, "when", None)) if f is not None]
        if choice.label_template is not None:
            parts = [p if isinstance(p, str) else (p.kind, p.text) for p in choice.label_template.parts]
        else:
            parts = [choice.name]
            for name, kind in zip(choice.arg_names, choice.kinds):
                parts += [" ", (kind, name)]
        texts += [p[1] for p in parts if not isinstance(p, str)]
        literals = {a or b for text in texts for a, b in STRING.findall(text)}
        if choice.subsets:
            # before its items are picked, a subset shows as its size: '2 cards', '1 to 3 cards'
            literals |= {"to"} | {sub.noun for sub in choice.subsets}
        out.append(Form(choice.name, parts, literals))
    if any(choice.subsets for choice in choices):
        # the items of a subset are then picked one by one, and 'done' may end a range
        out += [Form("pick", [("any", "item")]), Form("done", ["done"])]
    return out + [Form("pass", ["pass"])]


def splits(parts: list, text: str, i: int = 0, pos: int = 0):
    """Every way to read `text` as these parts: the texts of the holes, in order."""
    if i == len(parts):
        if pos == len(text):
            yield ()
        return
    part = parts[i]
    if isinstance(part, str):
        if text.startswith(part, pos):
            yield from splits(parts, text, i + 1, pos + len(part))
        return
    after = parts[i + 1] if i + 1 < len(parts) else None
    for end in range(pos, len(text) + 1):
        if isinstance(after, str) and not text.startswith(after, end):
            continue
        for rest in splits(parts, text, i + 1, end):
            yield (text[pos:end],) + rest


class Forms:
    """The label forms of a ruleset and its vocabulary, for a game of `players` players."""

    def __init__(self, rules, players: int):
        self.forms, self.vocab = forms(rules), Vocabulary(rules, players)

    def problem(self, label: str, options=()) -> str | None:
        """None when the label fits a form; else why not, with the nearest label that would."""
        vocab, best = self.vocab, None    # best: (cost, the holes that do not fit, form, hole texts)
        for form in self.forms:
            holes = [p for p in form.parts if not isinstance(p, str)]
            for n, texts in enumerate(splits(form.parts, label)):
                if n >= MAX_SPLITS:
                    break
                bad = [(h, t) for h, t in zip(holes, texts) if not vocab.fits(h[0], t, form.literals)]
                if not bad:
                    return None
                cost = (len(bad), sum(len(t) for _, t in bad))   # the fewest and shortest holes that do not fit
                if best is None or cost < best[0]:
                    best = (cost, bad, form, texts)
        if best is None:
            hint = did_you_mean(label, list(options) + ["pass"])
            return (f"'{label}' names no action form" + (f"; {hint}" if hint else "")
                    + "; the forms are: " + "; ".join(f.pattern() for f in self.forms))
        _, bad, form, texts = best
        (kind, expr), text = bad[0]
        message = f"'{label}' names no action form: in '{form.pattern()}', '{text}' is no value of {{{expr}}}"
        fixed, holes = [], iter(texts)
        for part in form.parts:
            if isinstance(part, str):
                fixed.append(part)
                continue
            text = next(holes)
            if not vocab.fits(part[0], text, form.literals):
                text = vocab.nearest(part[0], text, form.literals)
                if text is None:
                    return message
            fixed.append(text)
        return message + f"; did you mean '{''.join(fixed)}'?"
