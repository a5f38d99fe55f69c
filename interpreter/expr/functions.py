"""The whitelist of functions an expression may call: name -> arity, which arguments are per-item, implementation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import GameError


@dataclass(frozen=True)
class Function:
    """A builtin: its arity, which argument positions are evaluated once per item (with `it` bound), and its code.

    Plain functions receive evaluated values. Functions with `per_item` positions receive the
    evaluated list plus a callable `f(it)` for each per-item argument.
    """

    name: str
    min_args: int
    max_args: int
    impl: Callable
    kind: str = "any"
    per_item: tuple = ()
    doc: str = ""
    needs_game: bool = False


def _distinct(xs):
    try:
        return list(dict.fromkeys(xs))   # keeps first-seen order
    except TypeError:                    # unhashable items (lists): the slow way
        seen = []
        for x in xs:
            if x not in seen:
                seen.append(x)
        return seen


def _counts(xs):
    tally = {}
    try:
        for x in xs:
            tally[x] = tally.get(x, 0) + 1
    except TypeError:                    # unhashable items (lists): count by equality
        order = _distinct(xs)
        return [sum(1 for x in xs if x == v) for v in order]
    return list(tally.values())


def _take_while(xs, pred):
    out = []
    for x in xs:
        if not pred(x):
            break
        out.append(x)
    return out


def _drop_while(xs, pred):
    i = 0
    for x in xs:
        if not pred(x):
            break
        i += 1
    return list(xs[i:])


def _best(xs, f, better):
    best, out = None, []
    for x in xs:
        v = f(x)
        if best is None or better(v, best):
            best, out = v, [x]
        elif v == best:
            out.append(x)
    return out


def _groups(xs, key):
    groups = {}
    for x in xs:
        k = key(x)
        group = groups.get(k)
        if group is None:
            groups[k] = [x]
        else:
            group.append(x)
    return list(groups.values())


MAX_RANGE = 100_000


def _range(a, b=None):
    lo, hi = (0, a) if b is None else (a, b)
    try:
        n = hi - lo
    except TypeError:
        raise TypeError("range() takes numbers") from None
    if n > MAX_RANGE:
        raise GameError(f"range of {n} numbers is larger than the limit of {MAX_RANGE}", "too-large")
    return list(range(lo, hi))


def _index_of(xs, v):
    try:
        return list(xs).index(v)
    except ValueError:
        return -1


def _next(g, p, k=1):
    return g.players[(p + k) % g.n]


def _previous(g, p, k=1):
    return g.players[(p - k) % g.n]


def _others(g, p):
    n, seats = g.n, g.players
    return [seats[(p + k) % n] for k in range(1, n)]


def _sample(g, xs, k):
    xs = list(xs)
    if k >= len(xs):
        return xs
    return g.rng.sample(xs, max(k, 0))


def _random(g, xs):
    if not xs:
        return None
    return g.rng.choice(xs)   # the same draw as randrange(len(xs)); a forced generator sees the items


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("count", 1, 1, len, "int", doc="number of items in a list or cards in a zone: `count(me.hand)`"),
    Function("sum", 1, 1, sum, "int", doc="sum of a list of numbers: `sum(me.hand.value)`"),
    Function("min", 1, 1, lambda xs: min(xs) if xs else 0, "int", doc="smallest number of a list (0 if empty)"),
    Function("max", 1, 1, lambda xs: max(xs) if xs else 0, "int", doc="largest number of a list (0 if empty)"),
    Function("abs", 1, 1, abs, "int", doc="absolute value: `abs(x - 3)`"),
    Function("distinct", 1, 1, _distinct, "list", doc="the different values of a list, in first-seen order"),
    Function("counts", 1, 1, _counts, "list", doc="how often each distinct value occurs, in first-seen order"),
    Function("first", 1, 1, lambda xs: xs[0] if xs else None, "item", doc="first item of a list or zone (none if empty)"),
    Function("last", 1, 1, lambda xs: xs[-1] if xs else None, "item", doc="last item of a list or zone (none if empty)"),
    Function("take", 2, 2, lambda xs, k: list(xs[:max(k, 0)]), "same", doc="the first k items: `take(deck, 2)`"),
    Function("drop", 2, 2, lambda xs, k: list(xs[max(k, 0):]), "same", doc="all but the first k items"),
    Function("reverse", 1, 1, lambda xs: list(reversed(xs)), "same", doc="the list from its other end"),
    Function("sort", 1, 1, sorted, "same", doc="the list in ascending order"),
    Function("index_of", 2, 2, _index_of, "int", doc="position of a value in a list, or -1"),
    Function("range", 1, 2, _range, "list", doc="`range(n)` is 0..n-1, `range(a, b)` is a..b-1"),
    Function("take_while", 2, 2, _take_while, "same", per_item=(1,),
             doc="items from the start while a condition on `it` holds: `take_while(row[0], suit != s)`"),
    Function("drop_while", 2, 2, _drop_while, "same", per_item=(1,),
             doc="the rest after the items `take_while` would take"),
    Function("filter", 2, 2, lambda xs, f: [x for x in xs if f(x)], "same", per_item=(1,),
             doc="the items for which a condition holds, like `where`, with a name for the item: "
                 "`filter(me.hand, c -> count(me.hand where suit == c.suit) >= 2)`"),
    Function("sample", 2, 2, _sample, "same", needs_game=True,
             doc="k items drawn at random by the game's generator (all if fewer; use in effects only)"),
    Function("any", 2, 2, lambda xs, f: any(f(x) for x in xs), "bool", per_item=(1,),
             doc="true if the condition on `it` holds for some item: `any(players, count(it.hand) == 0)`"),
    Function("all", 2, 2, lambda xs, f: all(f(x) for x in xs), "bool", per_item=(1,),
             doc="true if the condition on `it` holds for every item"),
    Function("map", 2, 2, lambda xs, f: [f(x) for x in xs], "list", per_item=(1,),
             doc="the value of an expression of `it` for each item: `map(players, count(it.collection))`"),
    Function("groups", 2, 2, _groups, "groups", per_item=(1,),
             doc="the items split into lists by the value of an expression of `it`, in first-seen order: "
                 "`groups(me.hand, suit)`"),
    Function("maxima", 2, 2, lambda xs, f: _best(xs, f, lambda a, b: a > b), "same", per_item=(1,),
             doc="every item with the greatest value of an expression of `it` (ties kept)"),
    Function("minima", 2, 2, lambda xs, f: _best(xs, f, lambda a, b: a < b), "same", per_item=(1,),
             doc="every item with the smallest value of an expression of `it` (ties kept)"),
    Function("next", 1, 2, _next, "player", needs_game=True,
             doc="the player after p in seat order (`next(p, 2)`: two seats on)"),
    Function("previous", 1, 2, _previous, "player", needs_game=True, doc="the player before p in seat order"),
    Function("others", 1, 1, _others, "players", needs_game=True,
             doc="every player but p, in seat order starting after p"),
    Function("keys", 1, 1, lambda family: family, "list",
             doc="the keys of a family of zones, in order: `keys(stall)` (0 to N-1 for a numbered family)"),
    Function("random", 1, 1, _random, "item", needs_game=True,
             doc="one item drawn by the game's random generator (use in effects only)"),
]}
