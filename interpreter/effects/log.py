"""The effects that tell players something: `log` and `reveal`."""
from __future__ import annotations

from ..errors import did_you_mean
from ..expr.compiler import KIND_WORDS
from ..expr.emit import key
from .base import Effect, ref
from .text import code, flat

REVEAL_UNTIL = ("move", "turn", "round")


class Log(Effect):
    """`log`: a line of the game's log, for everyone or some players."""

    key = "log"
    text = ("Write a line to the game log, as in 'log: \"{current} draws {n} cards\"', or only for some players: "
            "'log: {text: ..., to: [me]}'.")
    value = {"oneOf": [{"$ref": "#/$defs/template"},
                       {"type": "object", "required": ["text"], "additionalProperties": False,
                        "properties": {"text": ref("template", "The line, with {expression} holes."),
                                       "to": ref("expression", "The players who read it (the others do not see it).")}}],
             "description": "The line, with {expression} holes; or {text, to} for a line some players only read."}
    FIELDS = ("text", "to")

    def __init__(self, template, to=None):
        self.template, self.to = template, to

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        """`log: text`, or `log: {text: ..., to: players}` for a line only those players read."""
        p = path + ("log",) if fields else path
        to = None
        if isinstance(value, dict):
            f = c.fields(p, value, cls.FIELDS, ("text",))
            to = c.ctx.expr(p + ("to",), scope) if "to" in f else None
            p = p + ("text",)
        template = c.ctx.template(p, scope, random_ok=True)
        if to is None:
            public_text(c, p, template)
        return cls(template, to)

    def emit(self, w, py):
        to = "None" if self.to is None else f"N_as_players(g, {w.expr(self.to, py)}, \"log's 'to'\")"
        w.add("if vm.record:")
        w.add(f"    vm.log_line({w.const(self.template, 'K_text')}.pieces(vm, g, {w.env(py)}), {to})")

    @classmethod
    def explain(cls, text, _):
        """The line, and who reads it when it is private."""
        if isinstance(text, dict):
            to = f" (only {code(text['to'])} read it)" if "to" in text else ""
            return f'Log "{flat(text.get("text", ""))}"{to}.', []
        return f'Log "{flat(text)}".', []


def public_text(c, path, template):
    """A line everyone reads may not show a value some players may not see."""
    names = c.ctx.names
    for part in template.parts:
        if isinstance(part, str):
            continue
        for kind, name in part.reads:
            visible = names.visible.get(name, "public")
            if visible != "public" and kind in ("var", "pvar"):
                c.ctx.fail(path, f"this text shows '{name}', which {'only its owner' if visible == 'owner' else 'nobody'}"
                           " may see, to everyone", "leak",
                           "say who may read the line: log: {text: ..., to: '[me]'}")


class Reveal(Effect):
    """`reveal`: cards shown to some players only, until they move or until the end of the turn or round."""

    key = "reveal"
    text = ("Show cards to some players only; they remember them until the cards move (or the turn or round ends), "
            "as in 'reveal: {cards: me.hand, to: [next(me)]}'.")
    about = "What is shown, to whom, and for how long."
    fields_text = "What a 'reveal' shows, to whom, and for how long."
    fields = {
        "cards": ref("expression", "The cards shown (a card or a list of cards)."),
        "to": ref("expression", "The players who see them (a player or a list)."),
        "until": {"description": "How long they remember: move (default: until the card changes zone), turn or "
                                 "round (also forgotten at the end of it).", "enum": list(REVEAL_UNTIL)},
        "log": ref("template", "The log line they read (default: who sees which cards where)."),
    }
    required = ("cards", "to")

    def __init__(self, cards, to, until, template):
        self.cards, self.to, self.until, self.template = cards, to, until, template

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        """`reveal: {cards, to, until, log}`: show cards to some players only."""
        p = path + ("reveal",)
        f = c.fields(p, value, cls.fields, cls.required)
        ctx = c.ctx
        cards = ctx.expr(p + ("cards",), scope)
        if cards.kind in ("int", "str", "bool", "player", "players", "none"):
            ctx.fail(p + ("cards",), f"reveal shows cards, but this is a {KIND_WORDS.get(cards.kind, cards.kind)}",
                     "kind")
        to = ctx.expr(p + ("to",), scope)
        if to.kind in ("int", "str", "bool", "card", "cards", "none"):
            ctx.fail(p + ("to",), f"'to' names players, but this is a {KIND_WORDS.get(to.kind, to.kind)}", "kind")
        until = f.get("until", "move")
        if until not in REVEAL_UNTIL:
            ctx.fail(p + ("until",), f"until is one of {', '.join(REVEAL_UNTIL)}", "bad-value",
                     did_you_mean(str(until), REVEAL_UNTIL))
        template = ctx.template(p + ("log",), scope, random_ok=True) if "log" in f else None
        return cls(cards, to, until, template)

    def emit(self, w, py):
        template = "None" if self.template is None else w.const(self.template, "K_text")
        w.add(f"N_reveal(vm, g, {w.expr(self.cards, py)}, {w.expr(self.to, py)}, {key(self.until)}, {template}, {w.env(py)})")

    @classmethod
    def explain(cls, f, _):
        """Which cards are shown to whom, and how long they are remembered."""
        until = {"turn": " until the end of the turn", "round": " until the end of the round"}.get(f.get("until"), "")
        return (f"Show {code(f.get('cards'))} to {code(f.get('to'))} only; they remember them{until} "
                "while the cards stay where they are."), []
