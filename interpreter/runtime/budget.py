"""The work budget: what one step of a game may cost -> a GameError when a ruleset asks for more.

A step is everything the engine does from one decision to the next (or from the start of a game to
its first decision). Its cost is bounded twice, so that no ruleset can hang a simulation, a game at
the terminal or a server, whatever its loops and expressions say:

- the VM runs at most MAX_STEP_NODES effects (nodes) in a step (`Game._run` counts them per block; the
  error names the loop that ran them, engine/limits.py);
- expressions and effects walk at most MAX_STEP_ITEMS list items in a step: every operation whose
  cost grows with a list (a `where`, `map`, `sum`, `sort`, `in`, a list joined with `+`, a range, a
  move of many cards, the combinations of a choice's arguments) takes its length from `State.work`.

Values are capped too, for every operation that can grow them: a number stays within MAX_NUMBER, a
list (counting the items of the lists inside it) within MAX_LIST items, a text within MAX_TEXT
characters, a decision within MAX_OPTIONS options. The numbers are documented in docs/language.md
("Limits").
"""
from __future__ import annotations

from itertools import chain

from ..errors import GameError
from .values import Card, Player

MAX_STEP_NODES = 1_000_000
MAX_STEP_ITEMS = 1_000_000
MAX_NUMBER = 10 ** 18
MAX_LIST = 100_000
MAX_TEXT = 100_000
MAX_OPTIONS = 100_000


class LoadBudget:
    """Stands in for a game state where expressions run while a ruleset loads (computed attributes and
    card labels): only the budget is there."""

    __slots__ = ("work",)

    def __init__(self):
        self.work = MAX_STEP_ITEMS


def over_items() -> GameError:
    return GameError(f"this step went through more than {MAX_STEP_ITEMS:,} list items without a decision "
                     "(see Limits in the language reference)", "budget")


def spend(g, n: int) -> None:
    """Take `n` items of work from the step's budget."""
    w = g.work - n
    g.work = w
    if w < 0:
        raise over_items()


def too_large(value) -> GameError:
    """The error for a value past its cap (a number, a list or a text)."""
    if type(value) is str:
        return GameError(f"a text grew past {MAX_TEXT:,} characters", "too-large")
    if type(value) is list:
        return GameError(f"a list grew past {MAX_LIST:,} items", "too-large")
    return GameError(f"a number grew past {MAX_NUMBER:,} (10^18)", "too-large")


def number(v):
    """`v` if it is a number within the cap (any other value passes through)."""
    if type(v) is int and not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise too_large(v)
    return v


MAX_NESTING = 32   # lists inside lists inside ...: deeper is refused (copying and saving recurse)
ONLY_LISTS = {list}   # the types in a list of lists


def size(value, limit: int = MAX_LIST, depth: int = 0) -> int:
    """The number of items in a list, counting the items of the lists inside it; past `limit`, an error."""
    n = len(value)
    if n > limit:
        raise too_large(value)
    if list not in map(type, value):   # a flat list (the common case), checked at C speed
        return n
    if ONLY_LISTS == set(map(type, value)):
        # a list of lists (combinations, groups): when none of them holds a list, counted at C speed
        if list not in set(map(type, chain.from_iterable(value))):
            n += sum(map(len, value))
            if n > limit:
                raise too_large(value)
            return n
    if depth >= MAX_NESTING:
        raise GameError(f"a list nests deeper than {MAX_NESTING} levels", "too-large")
    for v in value:
        if type(v) is list:
            n += size(v, limit - n, depth + 1)
            if n > limit:
                raise too_large(value)
    return n


def kept(g, value: list) -> list:
    """A list about to be kept (in a variable, a local name, a loop), within the caps, its size paid for. It is
    kept as it is: no list is changed in place, a zone's neither (a move replaces it: runtime/effects.py)."""
    n = len(value)
    if n <= MAX_LIST and list not in map(type, value):   # a flat list (the common case), at C speed
        w = g.work - n
        g.work = w
        if w < 0:
            raise over_items()
        return value
    spend(g, size(value))
    return value


def grown(g, value):
    """The result of `+`: a number within the cap, a list or text within its cap, its length paid for."""
    t = type(value)
    if t is int:
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
        raise too_large(value)
    if t is list:
        spend(g, size(value))
    elif t is str:
        n = len(value)
        if n > MAX_TEXT:
            raise too_large(value)
        spend(g, n)
    return value


def describe(value) -> str:
    """A value's kind in the words of the language reference: 'a number', 'none', 'a list' ..."""
    t = type(value)
    if value is None:
        return "none"
    if t is bool:
        return "true/false"
    if t is Card:
        return "a card"
    if t is Player:
        return "a player"
    if t is int:
        return "a number"
    if t is str:
        return "a text"
    if t is list or t is tuple:
        return "a list"
    return "a value"
