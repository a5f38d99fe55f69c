"""The one-call helpers of a cards' attribute (`distinct(cards.a)`, `sum(cards.a)`, `count(distinct(cards.a))`,
`counts(cards.a)`: runtime/helpers.py) against what they stand for: the cards walked and paid for, their
values made, the values walked and paid for, then the builtin. Same value or same error (type and words),
and the same work left, for every budget from none to enough, on a table of inputs that includes the
mistakes a ruleset can make (an item that is not a card, values that are not numbers, values that are lists).
"""
from __future__ import annotations

import pytest

from interpreter.runtime import helpers as H
from interpreter.runtime.budget import spend
from interpreter.runtime.builtins import _counts, _distinct


class Budget:
    __slots__ = ("work",)

    def __init__(self, work):
        self.work = work


def _count_distinct(values):
    return len(_distinct(values))


# helper -> the builtin it ends with
HELPERS = [(H.distinct_of, _distinct), (H.sum_of, H.total), (H.count_distinct_of, _count_distinct),
           (H.counts_of, _counts)]

NUMBERS = [3, 1, 4, 1, 5, 9, 2, 6]
TABLES = {
    "numbers": NUMBERS,
    "fractions": [0.1, 0.2, 0.3, 0.1, 0.25, 1.5, 2.0, 0.7],
    "words": ["a", "b", "a", "c", "b", "a", "d", "e"],
    "mixed": [1, "b", 2, None, 3.5, True, 4, 5],
    "booleans": [True, False, True, True, False, True, True, False],
    "lists": [[1], [2], [1], [3], [2], [4], [1], [5]],
    "huge": [10 ** 18, 10 ** 18, -10 ** 18, 1, 2, 3, 4, 5],
    "past floats": [10 ** 400, 0.5, 1, 2, 3, 4, 5, 6],   # a whole number too large for a float meets a fraction
    "keyed": {i: v for i, v in enumerate(NUMBERS)},
}
CARDS = [[], [0], [0, 1, 2], [2, 0, 2, 7], list(range(8)), [0, 1, 9], [0, "x", 1], [1, 2, None], [3, [1], 2],
         [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2]]


def _reference(builtin, g, cards, table):
    spend(g, len(cards))   # the cards' walk (R_walk)
    values = [table[c] for c in cards]
    spend(g, len(values))   # the builtin's walk over the values
    return builtin(values)


def _outcome(fn, work, *args):
    g = Budget(work)
    try:
        result = fn(g, *args)
    except Exception as exc:   # the error itself is what is compared
        result = (type(exc).__name__, str(exc))
    return result, g.work


@pytest.mark.parametrize("helper,builtin", HELPERS, ids=[h[0].__name__ for h in HELPERS])
@pytest.mark.parametrize("table_name", sorted(TABLES))
def test_a_helper_is_what_it_stands_for(helper, builtin, table_name):
    table = TABLES[table_name]
    for cards in CARDS:
        for work in range(2 * len(cards) + 2):
            expected = _outcome(lambda g, c, t: _reference(builtin, g, c, t), work, cards, table)
            got = _outcome(helper, work, cards, table)
            assert got == expected, (cards, work)


@pytest.mark.parametrize("table_name", sorted(TABLES))
def test_counting_until_a_number_is_reached(table_name):
    """`count(distinct(cards.a)) >= k` (and <, <=, >) of a zone's cards against a number known at load stops
    counting at the k-th value, and pays and answers as the count does. Only a zone's cards, nothing but
    cards, are counted so (the compiler writes it for zones only): an item that is not a card after the
    k-th value would not be reached, where the count tells it."""
    table = TABLES[table_name]
    for cards in CARDS:
        if not all(type(c) is int and 0 <= c < 8 for c in cards):
            continue
        for k in range(-1, 7):
            for work in range(2 * len(cards) + 2):
                expected = _outcome(lambda g, c, t: _reference(_count_distinct, g, c, t) >= k, work, cards, table)
                assert _outcome(H.distinct_reach, work, cards, table, k) == expected, (cards, k, work)


def test_the_table_reaches_each_way_out():
    """The inputs above meet each way a helper can end at least once: a value, each kind of error, the
    budget's error, and (the large numbers and the fractions) an overflow and a number past the cap."""
    seen = set()
    for helper, _ in HELPERS:
        for table in TABLES.values():
            for cards in CARDS:
                for work in (0, 100):
                    result, _ = _outcome(helper, work, cards, table)
                    failed = type(result) is tuple and len(result) == 2 and type(result[0]) is str \
                        and result[0].endswith("Error")
                    seen.add((result[0], result[1].split(" ")[0]) if failed else "value")
    assert seen == {"value", ("TypeError", "unhashable"), ("TypeError", "unsupported"),
                    ("TypeError", "list"), ("IndexError", "list"), ("KeyError", "9"), ("KeyError", "'x'"),
                    ("KeyError", "None"), ("OverflowError", "int"), ("GameError", "a"),
                    ("GameError", "this")}, seen
