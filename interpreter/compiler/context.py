"""Shared state of one compilation: the source, the names table, the node table, and the diagnostics found."""
from __future__ import annotations

import re

from ..engine.choices import Template
from ..errors import Diagnostic, RulesetError, did_you_mean
from ..source import comma_hint
from lark import Tree

from ..expr.compiler import Compiled, ExprError, Names, Scope, compile_expr, compile_zone
from ..expr.parser import parse


NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
KEYWORDS = {"and", "or", "not", "in", "if", "else", "where", "true", "false", "none"}
# kinds that are never players, as the author would name them
NOT_PLAYERS = {"int": "a number", "str": "a text", "bool": "true/false", "card": "a card", "cards": "a list of cards",
               "none": "none", "value": "an attribute of a card", "values": "attributes of cards"}


def valid_name(name) -> bool:
    """A name expressions can refer to: ASCII letters, digits and _, not a keyword."""
    return isinstance(name, str) and bool(NAME_PATTERN.match(name)) and name not in KEYWORDS


class Abort(Exception):
    """Stop compiling one part after its diagnostic was recorded; the rest goes on."""


class Context:
    """Collects diagnostics with locations; compiles expressions at a data path; registers nodes and blocks."""

    def __init__(self, source):
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.names = Names()
        self.nodes: list = []
        self.blocks: list = []

    # diagnostics ------------------------------------------------------------
    def error(self, path, message, code="ruleset", hint=None, offset=0, key=False):
        self.diagnostics.append(Diagnostic(code, message, self.source.location(tuple(path), offset, key), hint=hint,
                                           path=tuple(path)))

    def warn(self, path, message, code="lint", hint=None, key=False):
        """A design problem that does not stop the ruleset from running."""
        self.warnings.append(Diagnostic(code, message, self.source.location(tuple(path), 0, key), "warning", hint))

    def fail(self, path, message, code="ruleset", hint=None, offset=0, key=False):
        self.error(path, message, code, hint, offset, key)
        raise Abort()

    def check(self):
        if self.diagnostics:
            raise RulesetError(self.diagnostics)

    def unknown(self, path, what, name, known, code="unknown-name", key=False):
        hint = did_you_mean(str(name), known)
        if hint is None and key:
            hint = comma_hint(self.source.location(tuple(path), key=True), self._value(path))
        if hint is None and isinstance(name, str) and any(ch in name for ch in " ()[]'\"<>=+*/"):
            # A key that looks like the tail of a value: a comma inside `{a: x, y}` split it.
            hint = "inside { }, a comma ends a value: put quotes around a value that contains a comma"
        self.fail(path, f"unknown {what} '{name}'", code, hint, key=key)

    # expressions ------------------------------------------------------------
    def _value(self, path):
        """The value at `path`, or None where there is none."""
        try:
            return self.get(path)
        except (KeyError, IndexError, TypeError):
            return None

    def get(self, path):
        node = self.source.data
        for k in path:
            node = node[k]
        return node

    def expr(self, path, scope: Scope | None = None, value=None, random_ok: bool = True) -> Compiled:
        text = self.get(path) if value is None else value
        if not isinstance(text, (str, int, bool)):
            hint = None
            if isinstance(text, list):
                hint = "write a list as an expression in quotes, as in '[\"left\", \"right\"]'"
            elif text is None:
                hint = "nothing is written here: YAML reads an empty value as null"
            self.fail(path, "expected an expression (text, a number, true or false)", "type", hint)
        if isinstance(text, str) and not text.strip():
            # `led: ""` is an empty text to YAML, and no expression at all
            self.fail(path, "the expression is empty", "expr-syntax",
                      "YAML reads \"\" as an empty text, not as an expression; for the empty text write "
                      "'\"\"' (the expression \"\" inside single quotes), for no value write none")
        try:
            compiled = compile_expr(text, self.names, scope)
        except ExprError as exc:
            hint = exc.hint
            line = self.source.location(tuple(path)).source_line
            if exc.code == "expr-syntax" and isinstance(text, str) and "{" in line and (
                    text.count("(") > text.count(")") or text.count("[") > text.count("]")):
                # `{cards: f(a, b)}` in YAML: the comma ended the value at `f(a`.
                hint = "inside { }, a comma ends a value: put quotes around an expression that contains a comma"
            self.expr_error(path, exc, hint, exc.offset)
        compiled.loc = self.source.location(tuple(path))
        if compiled.uses_random and not random_ok:
            self.fail(path, "random() and sample() draw from the game's generator and may be used in effects "
                      "only, not in conditions, choices, labels or scores (looking at the options would "
                      "change the game)", "random-outside-effect")
        return compiled

    def winners(self, path, scope: Scope | None = None, random_ok: bool = True) -> Compiled:
        """Compile `winners:`, refusing what is known now not to be players (the game would refuse it
        when it ends): a number, a card, a text, or a list written with numbers in it."""
        compiled = self.expr(path, scope, random_ok=random_ok)
        if compiled.kind in NOT_PLAYERS:
            self.fail(path, f"winners are players (as in '[me]' or 'players where ...'), but this is "
                      f"{NOT_PLAYERS[compiled.kind]}", "kind")
        text = self.get(path)
        try:
            tree = parse(text) if isinstance(text, str) else None
        except ExprError:
            tree = None
        items = tree.children if isinstance(tree, Tree) and tree.data == "list_" else [tree]
        for item in items:
            if isinstance(item, Tree) and (item.data == "int_" or item.data == "neg"):
                number = text[item.meta.start_pos:item.meta.end_pos]
                self.fail(path, f"winners are players, and {number} is a number, not a player "
                          "(the first seat is players[0])", "kind", offset=item.meta.start_pos)
        if isinstance(text, int) and not isinstance(text, bool):
            self.fail(path, f"winners are players, and {text} is a number, not a player "
                      "(the first seat is players[0])", "kind")
        return compiled

    def who(self, path, scope: Scope | None = None, random_ok: bool = True) -> Compiled:
        """Compile an expression that names players (a chooser, the players who deal or react, the next
        player): refused when it is known now to be something else (a seat's number is a player too)."""
        compiled = self.expr(path, scope, random_ok=random_ok)
        if compiled.kind in NOT_PLAYERS and compiled.kind != "int":
            self.fail(path, f"this names players (as in me, next(me), players[0] or others(me)), but this is "
                      f"{NOT_PLAYERS[compiled.kind]}", "kind")
        return compiled

    def zone(self, path, scope: Scope | None = None) -> Compiled:
        text = self.get(path)
        if not isinstance(text, str):
            self.fail(path, "expected a zone, such as 'deck', 'row[i]' or 'me.hand'", "type")
        try:
            return compile_zone(text, self.names, scope)
        except ExprError as exc:
            self.expr_error(path, exc, exc.hint, exc.offset)

    def expr_error(self, path, exc, hint, offset):
        """Fail with an expression's error at `path` (`offset`: its column there); an error inside a function,
        with the values of this call, is told in the function, where it is written, naming the call."""
        inside = getattr(exc, "inside", None)
        if inside is not None and inside[0] is not None:
            fpath, at, fname = inside
            called = self.source.location(tuple(path), offset)
            where = f"{called}: {called.source_line.strip()}" if called.line else str(called)
            self.fail(fpath, exc.message, exc.code, (f"{hint}; " if hint else "") + f"'{fname}' is called from {where}",
                      offset=at)
        self.fail(path, exc.message, exc.code, hint, offset=offset)

    def template(self, path, scope: Scope | None = None, random_ok: bool = False) -> Template:
        """Compile a text with `{expression}` holes."""
        text = self.get(path)
        if not isinstance(text, str):
            self.fail(path, "expected a text", "type")
        parts, i = [], 0
        while i < len(text):
            start = text.find("{", i)
            if start < 0:
                parts.append(text[i:])
                break
            if start > i:
                parts.append(text[i:start])
            end = text.find("}", start)
            if end < 0:
                self.fail(path, "a '{' in this text is never closed", "template", offset=start)
            try:
                part = compile_expr(text[start + 1:end], self.names, scope)
            except ExprError as exc:
                self.expr_error(path, exc, exc.hint, start + 1 + exc.offset)
            if part.uses_random and not random_ok:
                self.fail(path, "random() and sample() may not be used in a text", "random-outside-effect",
                          offset=start + 1)
            parts.append(part)
            i = end + 1
        return Template(parts, self.source.location(tuple(path)), text)

    # the node table -----------------------------------------------------------
    def node(self, node, path, text=""):
        node.id = len(self.nodes)
        node.loc = self.source.location(tuple(path))
        node.text = text
        self.nodes.append(node)
        return node

    def block(self, nodes) -> int:
        self.blocks.append(tuple(nodes))
        return len(self.blocks) - 1
