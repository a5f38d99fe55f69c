"""The language's builtin functions at run time: their implementations, by name -> values.

expr/functions.py holds what the compiler checks of each (arity, per-item arguments, kinds, the text of
the reference); these are what runs. Plain functions receive evaluated values; a function with per-item
arguments receives the evaluated list and a callable f(it) for each; a function that needs the game
(`next`, `random`, ...) receives its state first.
"""
from __future__ import annotations

from itertools import combinations
from math import comb

from ..errors import GameError
from .budget import MAX_LIST, MAX_NUMBER, spend, too_large
from .values import Card, Player


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
    if type(p) is Player and p < n:   # a player of this game (the common case): the seats after, then before
        return seats[p + 1:] + seats[:p]
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


def _combinations(g, xs, k):
    """Every way to choose k items of a list, each in the list's order, in the order itertools makes them."""
    if type(k) is not int or isinstance(k, bool):
        raise GameError(f"combinations takes a number of items, not {k!r:.40}", "kind")
    n = len(xs)
    if k < 0 or k > n:
        return []
    # beyond 64 on either side there are at least 2^64 of them: not counted exactly (that alone is slow)
    many = comb(n, k) if min(k, n - k) <= 64 else None
    if many is None or many * (k + 1) > MAX_LIST:
        made = f"{many:,}" if many is not None else "more than 2^64"
        raise GameError(f"combinations of {k} of {n} items make {made} lists: more than a list may hold "
                        f"({MAX_LIST:,} items, see Limits in the language reference)", "too-large")
    spend(g, many * (k + 1))
    return list(map(list, combinations(xs, k)))


def _flatten(g, xs):
    """The items of the lists in a list, in order, one level down (an item that is not a list is kept)."""
    out = []
    for x in xs:
        if type(x) in (list, tuple):
            out.extend(x)
        else:
            out.append(x)
        if len(out) > MAX_LIST:
            raise GameError(f"flatten makes a list of more than {MAX_LIST:,} items", "too-large")
    spend(g, len(xs) + len(out))
    return out


def _text(x):
    """A number, a truth value, a text or a player as a text: 3 -> "3", true -> "true", P2 -> "P2"."""
    t = type(x)
    if t is Player:
        return repr(x)
    if t is bool:
        return "true" if x else "false"
    if t is int or t is str:
        return str(x)
    if x is None:
        return "none"
    what = "a card (a card shows by its label in a {hole})" if t is Card else "a list" if t in (list, tuple) \
        else type(x).__name__
    raise GameError(f"text() turns a number, a truth value or a player into text, not {what}", "kind")


def _pow(a, b):
    """a to the power b (b a whole number from 0), within the cap of numbers."""
    if type(a) is not int or type(b) is not int:
        raise GameError("pow takes two whole numbers", "kind")
    if b < 0:
        raise GameError(f"pow takes a power from 0, not {b}", "value")
    if abs(a) > 1 and b * (abs(a).bit_length() - 1) > MAX_NUMBER.bit_length():
        raise too_large(MAX_NUMBER + 1)
    v = a ** b
    if not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise too_large(v)
    return v


def _sort_by(xs, key):
    """The items in order of a value computed for each (numbers, texts or truth values); equal values keep
    the items' order. Values of different kinds cannot be ordered: the game stops, in the author's words."""
    keys = [key(x) for x in xs]
    try:
        order = sorted(range(len(xs)), key=keys.__getitem__)
    except TypeError:
        kinds = sorted({type(k).__name__.replace("str", "text").replace("int", "number").replace("NoneType", "none")
                        for k in keys})
        raise GameError(f"sort_by puts values of one kind in order (numbers or texts), not {' and '.join(kinds)}",
                        "kind") from None
    return [xs[i] for i in order]


def _min(xs):
    return min(xs) if xs else 0


def _max(xs):
    return max(xs) if xs else 0


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None


def _take(xs, k):
    return xs[:max(k, 0)] if type(xs) is list else list(xs[:max(k, 0)])   # a slice of a list is a new list


def _drop(xs, k):
    return xs[max(k, 0):] if type(xs) is list else list(xs[max(k, 0):])


def _reverse(xs):
    return xs[::-1] if type(xs) is list else list(reversed(xs))


def _filter(xs, f):
    return [x for x in xs if f(x)]


def _any(xs, f):
    return any(f(x) for x in xs)


def _all(xs, f):
    return all(f(x) for x in xs)


def _map(xs, f):
    return [f(x) for x in xs]


def _maxima(xs, f):
    return _best(xs, f, lambda a, b: a > b)


def _minima(xs, f):
    return _best(xs, f, lambda a, b: a < b)


def _keys(family):
    return family   # the compiler writes the keys themselves (expr/compiler.py, _keys)


BUILTINS = {
    "count": len, "sum": sum, "min": _min, "max": _max, "abs": abs, "distinct": _distinct, "counts": _counts,
    "first": _first, "last": _last, "take": _take, "drop": _drop, "reverse": _reverse, "sort": sorted,
    "index_of": _index_of, "range": _range, "take_while": _take_while, "drop_while": _drop_while,
    "filter": _filter, "sample": _sample, "any": _any, "all": _all, "map": _map, "groups": _groups,
    "maxima": _maxima, "minima": _minima, "next": _next, "previous": _previous, "others": _others,
    "keys": _keys, "random": _random, "combinations": _combinations, "flatten": _flatten, "text": _text,
    "pow": _pow, "sort_by": _sort_by,
}
