"""Operators at run time: values -> the result, within the caps of the work budget, or a GameError that
says in the author's words what went wrong ("'<' compares two numbers or two texts, not none and a text").

The expression compiler (expr/compiler.py) calls these where a value's kind is not known when the
ruleset loads; where it is, it compiles a shorter path of its own. The hot paths stay plain Python
operators: when one fails, `translate` turns Python's message into the author's words, in one place
(the VM's guard, and `located` for an expression run outside the VM).
"""
from __future__ import annotations

import re

from .budget import MAX_NUMBER, describe, grown, spend, too_large
from ..errors import GameError, placed


def _kinds(x, y) -> str:
    return f"{describe(x)} and {describe(y)}"


def plus(g, x, y):
    """`x + y`: numbers add up, texts and lists are joined; the result stays within its cap."""
    try:
        v = x + y
    except TypeError:
        raise GameError(f"'+' adds numbers or joins two texts or two lists, not {_kinds(x, y)}", "kind") from None
    return grown(g, v)


def minus(x, y):
    try:
        v = x - y
    except TypeError:
        raise GameError(f"'-' subtracts numbers, not {_kinds(x, y)}", "kind") from None
    if type(v) is int and not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise too_large(v)
    return v


def times(x, y):
    """Multiplication of numbers only (a text or list times a number could fill the memory)."""
    if type(x) not in (int, bool) or type(y) not in (int, bool):
        raise GameError(f"'*' multiplies numbers, not {_kinds(x, y)}", "kind")
    v = x * y
    if not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise too_large(v)
    return v


def contains(g, x, xs) -> bool:
    """`x in xs`: membership in a list (paid for by its length) or a text."""
    t = type(xs)
    if t is list or t is tuple:
        spend(g, len(xs))
        return x in xs
    if t is str and type(x) is str:
        return x in xs
    raise GameError(f"'in' looks in a list or a text, not in {describe(xs)}", "kind")


def equal(g, x, y) -> bool:
    """`x == y` where lists may be compared (paid for by their length)."""
    if type(x) is list and type(y) is list:
        spend(g, min(len(x), len(y)))
    return x == y


def item(xs, i):
    """`xs[i]`: an item of a list by its position from 0."""
    if type(xs) not in (list, tuple, str):
        raise GameError(f"[...] takes an item of a list, but this is {describe(xs)}", "kind")
    if not isinstance(i, int) or type(i) is bool:
        raise GameError(f"[...] takes an item of a list by its position (a number), not by {describe(i)}", "kind")
    if not -len(xs) <= i < len(xs):
        raise GameError(f"[{i}] is past the end of a list of {len(xs)} item{'s' if len(xs) != 1 else ''}", "index")
    return xs[i]


def call_error(name: str, args) -> GameError:
    """A builtin function given values it cannot work on: its name and the kinds of the values."""
    shown = ", ".join(describe(a) for a in args)
    return GameError(f"{name}() cannot work on {shown}", "kind")


# Python's names of the types a game value can have, in the words of the language reference.
TYPE_WORDS = {"NoneType": "none", "str": "a text", "int": "a number", "bool": "true/false", "list": "a list",
              "tuple": "a list", "dict": "a map", "Card": "a card", "Player": "a player", "float": "a decimal number"}
OPERATOR_WORDS = {"+": "'+' adds numbers or joins two texts or two lists", "-": "'-' subtracts numbers",
                  "*": "'*' multiplies numbers", "//": "'/' divides numbers", "%": "'%' divides numbers"}


def _word(name: str) -> str:
    return TYPE_WORDS.get(name, name)


_TRANSLATIONS = [
    (re.compile(r"'([<>]=?)' not supported between instances of '(\w+)' and '(\w+)'"),
     lambda m: f"'{m[1]}' compares two numbers or two texts, not {_word(m[2])} and {_word(m[3])}"),
    (re.compile(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'"),
     lambda m: f"{OPERATOR_WORDS.get(m[1], repr(m[1]))}, not {_word(m[2])} and {_word(m[3])}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: f"'+' joins two texts or two lists, not {_word(m[1])} and {_word(m[2])}"),
    (re.compile(r"bad operand type for unary -: '(\w+)'"), lambda m: f"'-' negates a number, not {_word(m[1])}"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"), lambda m: f"a list is needed here, not {_word(m[1])}"),
    (re.compile(r"'(\w+)' object is not iterable"), lambda m: f"a list is needed here, not {_word(m[1])}"),
    (re.compile(r"'(\w+)' object is not subscriptable"), lambda m: f"[...] takes an item of a list, not of {_word(m[1])}"),
    (re.compile(r"list indices must be integers or slices, not (\w+)"),
     lambda m: f"[...] takes a position (a number), not {_word(m[1])}"),
    (re.compile(r"integer (division|modulo) by zero|integer division or modulo by zero"), lambda m: "division by zero"),
    (re.compile(r"list index out of range"), lambda m: "a position past the end of a list"),
    (re.compile(r"'(\w+)' object cannot be interpreted as an integer"), lambda m: f"a number is needed here, not {_word(m[1])}"),
    (re.compile(r"unhashable type: '(\w+)'"), lambda m: f"{_word(m[1])} cannot be used here (a card, a player, a number or a text can)"),
]


def translate(exc: Exception) -> str:
    """Python's message for an operation that failed on a game's values, in the author's words where
    it is one of the usual ones (else Python's own)."""
    text = str(exc)
    for pattern, words in _TRANSLATIONS:
        m = pattern.search(text)
        if m:
            return words(m)
    return text


# what an expression may raise on a game's values (the VM catches the same; see engine/game.py)
ERRORS = (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError,
          OverflowError, RecursionError)


def in_function(exc) -> str:
    """'in function 'f': ' when `exc` was raised inside one of the ruleset's functions (the innermost), else ''.
    Each call of a function is a generated helper (expr/compiler.py, _user_call) that its module's table
    `__functions__` names."""
    name, tb = None, exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        found = frame.f_globals.get("__functions__")
        if found is not None and frame.f_code.co_name in found:
            name = found[frame.f_code.co_name]
        tb = tb.tb_next
    return "" if name is None or str(exc).startswith("in function") else f"in function '{name}': "


def located(exc, expr) -> GameError:
    """`exc`, raised while the compiled expression `expr` ran, told at the expression: its location, then
    the error in the author's words."""
    if isinstance(exc, GameError):
        if exc.located or expr.loc is None:
            return exc
        return placed(expr.loc, f"{in_function(exc)}{exc}", exc.code)
    return placed(expr.loc or "?", f"ruleset error in '{expr.text}': {in_function(exc)}{translate(exc)}", "runtime")
