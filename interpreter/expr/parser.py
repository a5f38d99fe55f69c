"""Parse expression text -> a Lark tree, with limits on size and depth and readable syntax errors."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

MAX_EXPR_CHARS = 2000
MAX_EXPR_DEPTH = 40

_parser: Lark | None = None


def parser() -> Lark:
    """The one Lark parser for expressions, built on first use from grammar.lark."""
    global _parser
    if _parser is None:
        grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
        _parser = Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)
    return _parser


class ExprError(Exception):
    """An expression that does not parse or names something unknown; `offset` is the column inside it."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None, code: str = "expr"):
        super().__init__(message)
        self.message, self.offset, self.hint, self.code = message, offset, hint, code


# A ruleset is compiled twice (compiler/ruleset.py, check_kinds): the second pass takes the trees the first
# parsed, by text, instead of parsing again (nothing changes a tree once parsed). Outside of it: None.
_kept: dict | None = None
_reusing = False


@contextmanager
def trees_kept():
    """Keep the trees parsed inside (by text), for `trees_reused`."""
    global _kept, _reusing
    _kept, _reusing = {}, False
    try:
        yield
    finally:
        _kept, _reusing = None, False


@contextmanager
def trees_reused():
    """Inside `trees_kept`: a text parsed before gives the same tree again."""
    global _reusing
    _reusing = True
    try:
        yield
    finally:
        _reusing = False


def parse(text: str) -> Tree:
    """Parse expression text into a Lark tree; raise ExprError with the offending column."""
    if not isinstance(text, str):
        text = str(text)
    if len(text) > MAX_EXPR_CHARS:
        raise ExprError(f"expression is longer than {MAX_EXPR_CHARS} characters", 0, code="expr-too-long")
    if _kept is not None:
        tree = _kept.get(text) if _reusing else None
        if tree is None:
            tree = _kept[text] = _parse(text)
        return tree
    return _parse(text)


def _parse(text: str) -> Tree:
    try:
        tree = parser().parse(text)
    except UnexpectedCharacters as exc:
        raise ExprError(f"unexpected character {text[exc.pos_in_stream]!r}", exc.pos_in_stream, code="expr-syntax")
    except UnexpectedEOF:
        raise ExprError("the expression ends too early", len(text), code="expr-syntax")
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            raise ExprError("the expression ends too early", len(text), code="expr-syntax")
        expected = sorted(_readable(t) for t in exc.expected)
        hint = "expected " + ", ".join(expected[:6]) if expected else None
        raise ExprError(f"unexpected {tok.value!r}", tok.start_pos or 0, hint=hint, code="expr-syntax")
    except UnexpectedInput as exc:  # pragma: no cover - other parse failures
        raise ExprError("syntax error", getattr(exc, "pos_in_stream", 0) or 0, code="expr-syntax")
    if _depth(tree) > MAX_EXPR_DEPTH:
        raise ExprError(f"expression nests deeper than {MAX_EXPR_DEPTH} levels", 0, code="expr-too-deep")
    return tree


_TOKEN_TEXT = {"RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
               "NAME": "a name", "INT": "a number", "STRING": "a string", "COMP_OP": "a comparison",
               "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'", "ELSE": "'else'", "MINUS": "'-'"}


def _readable(token_type: str) -> str:
    return _TOKEN_TEXT.get(token_type, token_type.lower())


def _depth(tree) -> int:
    if not isinstance(tree, Tree):
        return 0
    stack, deepest = [(tree, 1)], 1
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, d + 1))
    return deepest


def argument_of(tree, *names):
    """The one argument of a call to a function of `names` (`count(x)` -> the tree of x), else None."""
    if isinstance(tree, Tree) and tree.data == "call" and len(tree.children) == 2 and str(tree.children[0]) in names:
        return tree.children[1]
    return None


def _names_in(tree):
    """Every bare name in a tree, with whether it sits in a per-item position (where it means `it`)."""
    if not isinstance(tree, Tree):
        return
    if tree.data == "name":
        yield str(tree.children[0])
        return
    for child in tree.children:
        yield from _names_in(child)


def _offset(tree) -> int:
    if isinstance(tree, Token):
        return tree.start_pos or 0
    meta = getattr(tree, "meta", None)
    return getattr(meta, "start_pos", 0) or 0 if meta is not None and not meta.empty else 0
