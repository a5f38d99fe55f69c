"""The helpers generated expressions call (parts too long to write inline): plain values -> values, the
work they do paid from the budget.

Generated code reads them under the names of runtime/table.py. Helpers take plain values; none reads
author text.
"""
from __future__ import annotations

import operator
from itertools import repeat

from ..errors import GameError
from . import operators as X
from .budget import MAX_LIST, MAX_NUMBER, MAX_STEP_ITEMS, ONLY_LISTS, over_items, spend, too_large
from .builtins import BUILTINS, _counts, _distinct

TWO_ARGUMENTS = {"take", "drop", "index_of"}   # the builtins walkers call with a second argument


# the work budget (runtime/budget.py): every walk over a list pays its length ----------------------------
def walk(g, xs):
    """A list walked over (by `where`, `in`, a per-item function ...), paid for by its length."""
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise over_items()
    return xs


def walk_named(g, xs, name):
    """The list a builtin walks over, paid for by its length; anything else is refused in its words."""
    t = type(xs)
    if t is not list and t is not tuple:
        raise X.call_error(name, [xs])
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise over_items()
    return xs


def combos(g, xs, message):
    """A domain of a choice of several arguments, walked once per combination of the ones before it."""
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise GameError(message, "budget")
    return xs


def product(g, message, *domains) -> int:
    """The domains of a choice whose arguments are independent: their product is the work of listing it
    (refused as too many combinations past MAX_STEP_ITEMS, as engine/choices.py refuses it). -> how many
    combinations they make."""
    total = 1
    for xs in domains:
        total *= len(xs)
        if total > MAX_STEP_ITEMS:
            raise GameError(message, "budget")
    w = g.work - total
    g.work = w
    if w < 0:
        raise over_items()
    return total


def made(g, v):
    """A list a builtin made (a range), paid for by its length."""
    if type(v) is list:
        w = g.work - len(v)
        g.work = w
        if w < 0:
            raise over_items()
    return v


def total(xs):
    """sum(xs), within the cap of numbers."""
    v = sum(xs)
    if type(v) is int and not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise too_large(v)
    return v


def _walker(name, impl):
    """The W_ helper of a builtin that walks a list: the list checked and paid for, then `impl`, in one call."""
    if name in TWO_ARGUMENTS:
        def walking2(g, xs, y):
            t = type(xs)
            if t is not list and t is not tuple:
                raise X.call_error(name, [xs])
            w = g.work - len(xs)
            g.work = w
            if w < 0:
                raise over_items()
            return impl(xs, y)
        return walking2

    def walking(g, xs):
        t = type(xs)
        if t is not list and t is not tuple:
            raise X.call_error(name, [xs])
        w = g.work - len(xs)
        g.work = w
        if w < 0:
            raise over_items()
        return impl(xs)
    return walking


def join(g, a, b):
    """`a + b` of two lists of cards or players: joined, within the cap of lists, its length paid for (as
    `+` does for any value)."""
    if type(a) is list and type(b) is list:
        v = a + b
        n = len(v)
        if n <= MAX_LIST and list not in map(type, v):
            w = g.work - n
            g.work = w
            if w < 0:
                raise over_items()
            return v
    return X.plus(g, a, b)


def join_groups(g, a, b):
    """`a + b` of two lists of groups of cards (`combinations(me.hand, 3) + combinations(me.hand, 4)`): joined,
    its size (the groups and their cards) within the cap of lists and paid for. The compiler gives this kind
    only to lists of card lists, so the groups are not searched for lists inside them as `+` searches any
    list; a value of another shape is added as `+` adds it."""
    if type(a) is list and type(b) is list:
        v = a + b
        if ONLY_LISTS == set(map(type, v)):
            n = len(v) + sum(map(len, v))
            if n <= MAX_LIST:
                spend(g, n)
                return v
    return X.plus(g, a, b)


def too_large_number(v):
    raise too_large(v)


def filter_eq(g, items, table, value):
    return [x for x in walk(g, items) if table[x] == value]


def filter_ne(g, items, table, value):
    return [x for x in walk(g, items) if table[x] != value]


def attr_of(g, table, v):
    """A card attribute: of one card, of each card of a list (paid for), or none for none."""
    if type(v) is list:
        return [table[c] for c in walk(g, v)]
    return None if v is None else table[v]


def attr1(table, c):
    """A card attribute of one card (none for none)."""
    return None if c is None else table[c]


def card_var(g, name, v):
    """A card variable: of one card, of each card of a list, or none for none."""
    table = g.cvars[name]
    if type(v) is list:
        return [table[c] for c in walk_named(g, v, "." + name)]
    return None if v is None else table[v]


def player_zone(g, zid, p):
    """A zone of each player: of one player, or the list of them for a list of players."""
    if type(p) is list:
        return [g.zones[g.zbase[zid] + q] for q in p]
    return g.zones[g.zbase[zid] + p]


def player_var(g, name, p):
    table = g.pvars[name]
    if type(p) is list:
        return [table[q] for q in p]
    return table[p]


def family(g, zid, size):
    """A shared family as a value: the list of its zones."""
    b = g.zbase[zid]
    return g.zones[b:b + size]


def player_family(g, zid, size, p):
    """`p.stall`: a player's zones of a family (for a list of players, a list of such lists)."""
    b, n = g.zbase[zid], g.n
    if type(p) is list:
        return [[g.zones[b + m * n + q] for m in range(size)] for q in p]
    return [g.zones[b + m * n + p] for m in range(size)]


def numbered(name, size, i):
    """The member number `i` of a numbered family; a wrong one stops the game with its name."""
    if type(i) is not int or not 0 <= i < size:
        raise IndexError(f"{name}[{i}] does not exist: {name} has {size} zones, numbered 0 to {size - 1}")
    return i


def keyed(table, name, shown, key):
    """The member number a key names in a keyed family."""
    m = table.get(key) if type(key) in (int, str) else None
    if m is None:
        raise IndexError(f"{name}[{key!r}] does not exist: the members of {name} are {shown}")
    return m


def count_distinct(items):
    """count(distinct(items))."""
    try:
        return len(set(items))
    except TypeError:   # unhashable items (lists): the slow way
        return len(_distinct(items))


def distinct_of(g, cards, table):
    """distinct(cards.attr): the values made and paid for (as R_walk does), then paid for again as
    distinct's walk (as its W_ helper does), in one call (the payments inline: these run often).

    The values are read in one loop, without a list of them; whatever that loop cannot take (values that are
    lists, an item that is not a card) is made again the general way, which answers or fails as before."""
    n = len(cards)
    g.work = w = g.work - n
    if w < 0:
        raise over_items()
    seen = {}
    try:
        for c in cards:
            seen[table[c]] = None   # first-seen order, as _distinct keeps it
    except Exception:
        values = [table[c] for c in cards]   # an item that is not a card fails here, the cards' walk paid
        g.work = w = w - n
        if w < 0:
            raise over_items()
        return _distinct(values)
    g.work = w = w - n
    if w < 0:
        raise over_items()
    return list(seen)


def sum_of(g, cards, table):
    """sum(cards.attr), paid for as distinct_of is, in one call (the sums of many small lists: a hand's
    combinations).

    Whole numbers are added in one loop, without a list of the values; anything else (fractions, which
    sum() adds its own way, values that are not numbers, an item that is not a card) is summed again the
    general way, which answers or fails as before."""
    n = len(cards)
    g.work = w = g.work - n
    if w >= n:   # neither walk goes over
        whole = 0
        try:
            for c in cards:
                whole += table[c]
        except Exception:
            whole = None
        if type(whole) is int:
            g.work = w - n
            if not -MAX_NUMBER <= whole <= MAX_NUMBER:
                raise too_large(whole)
            return whole
    elif w < 0:
        raise over_items()
    values = [table[c] for c in cards]   # an item that is not a card fails here, the cards' walk paid
    spend(g, n)   # the values' walk: values that are not numbers fail below, both walks paid
    return total(values)


def count_distinct_of(g, cards, table):
    """count(distinct(cards.attr)), paid for as distinct_of is."""
    n = len(cards)
    g.work = w = g.work - n
    if w < 0:
        raise over_items()
    try:
        k = len({table[c] for c in cards})
    except TypeError:   # an item that is not a card (raised again below), or values that are lists
        return count_distinct(_paid_values(g, cards, table))
    g.work = w = w - n   # the values' walk: one value per card
    if w < 0:
        raise over_items()
    return k


def distinct_reach(g, cards, table, k: int) -> bool:
    """count(distinct(cards.attr)) >= k for cards of a zone (nothing but cards), paid for as count_distinct_of
    is (the cards' walk, then their values'), and stopping at the k-th value (a row's "are they all alike?" is
    answered by its first card that differs from the first, not by the set of all its values)."""
    n = len(cards)
    g.work = w = g.work - n
    if w < 0:
        raise over_items()
    if k <= 0:
        reached = True
    elif k == 2:   # whether any differs from the first (values equal as distinct() takes them are one)
        reached = False
        if cards:
            first = table[cards[0]]
            for c in cards:
                if table[c] != first:
                    reached = True
                    break
    else:
        seen = set()
        try:
            for c in cards:
                seen.add(table[c])
                if len(seen) >= k:
                    break
        except TypeError:   # values that are lists: counted the slow way, as count_distinct_of counts them
            return count_distinct(_paid_values(g, cards, table)) >= k
        reached = len(seen) >= k
    g.work = w = w - n   # the values' walk: one value per card
    if w < 0:
        raise over_items()
    return reached


def counts_of(g, cards, table):
    """counts(cards.attr), paid for as distinct_of is."""
    n = len(cards)
    g.work = w = g.work - n
    if w < 0:
        raise over_items()
    tally = {}
    try:
        for c in cards:
            v = table[c]
            tally[v] = tally.get(v, 0) + 1
    except TypeError:   # an item that is not a card (raised again below), or values that are lists
        return _counts(_paid_values(g, cards, table))
    g.work = w = w - n   # the values' walk: one value per card
    if w < 0:
        raise over_items()
    return list(tally.values())


def _paid_values(g, cards, table):
    """cards.attr, paid for as the walk of a builtin over it (the walk over the cards is paid already)."""
    values = [table[c] for c in cards]
    spend(g, len(values))
    return values


def counted(cards, table) -> dict:
    """How many of the cards have each value of an attribute (`table`), unpaid: made once for an expression
    that reads the same cards' attribute in several places, each of which pays where it reads it
    (codegen/scoring.py, shared_lists)."""
    out = {}
    for c in cards:
        v = table[c]
        out[v] = out.get(v, 0) + 1
    return out


_ZONE_COUNTS = {}   # slot -> (the list of cards it held, a table, their counts by value): the last of each slot


def zone_counted(slot, cards, table) -> dict:
    """`counted` of the cards of the zone at `slot` (`cards`, its list), made once per list the zone holds and
    shared (a zone's list is never changed in place, nor are the counts: see zone_groups): the end checks of
    a collection that has not changed since the last count count nothing."""
    made = _ZONE_COUNTS.get(slot)
    if made is not None and made[0] is cards and made[1] is table:
        return made[2]
    out = counted(cards, table)
    _ZONE_COUNTS[slot] = (cards, table, out)
    return out


def _pay_twice(g, n: int) -> None:
    """A walk over n cards and one over their n values, paid as count_distinct_of and counts_of pay them."""
    g.work = w = g.work - n
    if w < 0:
        raise over_items()
    g.work = w = w - n
    if w < 0:
        raise over_items()


def distinct_size(g, counts: dict, n: int) -> int:
    """count(distinct(cards.attr)) from the cards' counts by value, paid as count_distinct_of is."""
    _pay_twice(g, n)
    return len(counts)


def count_values(g, counts: dict, n: int) -> list:
    """counts(cards.attr) from the cards' counts by value, paid as counts_of is."""
    _pay_twice(g, n)
    return list(counts.values())


_TESTS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne}


def count_compared(g, xs, op: str, value, kept=None) -> int:
    """count(xs where it OP value) for a value that reads no item and cannot fail in a game (expr/compiler.py
    writes it only then): the walk paid, as the filter pays it, then every item compared, without a list of
    them (each comparison of the language's values gives a bool, or fails as the filter's would, at the same
    item). `kept` ("params", "vars"): `value` names one, read as the filter reads it, after the walk and only
    for a list with items (a card's label, worked out at load, reads none)."""
    n = len(xs)
    g.work = w = g.work - n
    if w < 0:
        raise over_items()
    if not n:
        return 0
    if kept is not None:
        value = getattr(g, kept)[value]
    test = _TESTS[op]
    if n > 16:   # in C past a few items; a loop costs less below (5 counts: 0.40 µs against 0.52 by sum of map)
        return sum(map(test, xs, repeat(value)))
    k = 0
    for x in xs:
        if test(x, value):
            k += 1
    return k


def counts_compared(g, counts: dict, n: int, op: str, value, kept=None) -> int:
    """count(counts(cards.attr) where it OP value) from the cards' counts by value: paid as counts_of and the
    filter's walk pay it (count_values, count_compared), without the list of the counts."""
    _pay_twice(g, n)
    return count_compared(g, counts.values(), op, value, kept)


def tally(g, xs, table) -> dict:
    """How many items of xs have each value of a card attribute (`table`), paid for as the walk of a filter;
    an item that is not a card fails as it fails in the filter (an option listing counts `xs where attr == v`
    for several v in it: codegen/options.py)."""
    return counted(walk(g, xs), table)


def any_in(items, values, value):
    """any(items, attr == value): `values` gives an item's value (the list is evaluated before `value`)."""
    return value in map(values, items)


def all_eq(items, table, value) -> bool:
    """all(items, attr == value), stopping at the first item that differs (the list is evaluated before
    `value`): a loop, not a generator, which costs more than the comparisons of a short list."""
    for x in items:
        if not table[x] == value:
            return False
    return True


def any_ne(items, table, value) -> bool:
    """any(items, attr != value), stopping at the first item that differs, as all_eq."""
    for x in items:
        if table[x] != value:
            return True
    return False


def groups_of(g, items, table, walked: bool = False):
    """groups(items, attr): the items split into lists by a card attribute's value, in first-seen order; the
    walk over the items paid for (as R_walk would, in the same call), and with `walked` the walk over the
    groups made (a domain of options, a `where`: expr/compiler.py, walked)."""
    w = g.work - len(items)
    g.work = w
    if w < 0:
        raise over_items()
    groups = {}
    for x in items:
        groups.setdefault(table[x], []).append(x)
    out = list(groups.values())
    if walked:
        g.work = w = w - len(out)
        if w < 0:
            raise over_items()
    return out


_ZONE_GROUPS = {}   # slot -> (the list of cards it held, a table, their groups): the last groups made of each slot


def zone_groups(g, slot, table, walked: bool = False):
    """groups_of of the cards of the zone at `slot`, paid as groups_of pays. A zone's list is never changed in
    place (a move replaces it: runtime/effects.py), so the groups made of one list by one table stay true while
    any state holds that list: a decision's listing, its applier, the next end check, a bot's trials of the
    same world, each group the same hand once between two moves of it. The groups are shared, as every value
    is: nothing changes them."""
    items = g.zones[slot]
    made = _ZONE_GROUPS.get(slot)
    if made is None or made[0] is not items or made[1] is not table:
        out = groups_of(g, items, table, walked)
        _ZONE_GROUPS[slot] = (items, table, out)
        return out
    out = made[2]   # paid as groups_of pays
    g.work = w = g.work - len(items)
    if w < 0:
        raise over_items()
    if walked:
        g.work = w = w - len(out)
        if w < 0:
            raise over_items()
    return out


def _leading(items, table, value, equal: bool) -> int:
    """How many items from the first have an attribute equal to `value` (equal) or not equal (not equal)."""
    i = 0
    for x in items:
        if (table[x] == value) is not equal:
            break
        i += 1
    return i


def take_while_eq(items, table, value):
    """take_while(items, attr == value)."""
    return _slice(items, 0, _leading(items, table, value, True))


def take_while_ne(items, table, value):
    """take_while(items, attr != value)."""
    return _slice(items, 0, _leading(items, table, value, False))


def drop_while_eq(items, table, value):
    """drop_while(items, attr == value)."""
    return _slice(items, _leading(items, table, value, True), None)


def drop_while_ne(items, table, value):
    """drop_while(items, attr != value)."""
    return _slice(items, _leading(items, table, value, False), None)


def _slice(items, i, j):
    """A new list of items[i:j] (of a list, a tuple or a text, as the builtins' loops make it)."""
    return items[i:j] if type(items) is list else list(items[i:j])


def per_eq(impl, items, table, value):
    return impl(items, lambda x: table[x] == value)


def per_ne(impl, items, table, value):
    return impl(items, lambda x: table[x] != value)


# take, drop and reverse: checked, paid for and sliced in one call (a slice of a list is a new list)
def take_of(g, xs, k):
    if type(xs) is not list:
        walk_named(g, xs, "take")
        return list(xs[:max(k, 0)])
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise over_items()
    return xs[:max(k, 0)]


def drop_of(g, xs, k):
    if type(xs) is not list:
        walk_named(g, xs, "drop")
        return list(xs[max(k, 0):])
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise over_items()
    return xs[max(k, 0):]


def reverse_of(g, xs):
    if type(xs) is not list:
        walk_named(g, xs, "reverse")
        return list(reversed(xs))
    w = g.work - len(xs)
    g.work = w
    if w < 0:
        raise over_items()
    return xs[::-1]


def walkers() -> dict:
    """The W_ helper of every builtin that walks its first argument, by name."""
    out = {name: _walker(name, BUILTINS[name]) for name in ("min", "max", "distinct", "counts", "sort", "index_of")}
    out.update(take=take_of, drop=drop_of, reverse=reverse_of)
    # count(distinct(xs)) without the list of distinct values; sum within the cap of numbers
    out.update({"count_distinct": _walker("distinct", count_distinct), "sum": _walker("sum", total)})
    return out
