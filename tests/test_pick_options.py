"""The items offered at each pick of a subset argument (engine/choices.py, pick_options): the shortcut for the
last subset without a final condition must offer exactly what asking `completable` item by item offers."""
from __future__ import annotations

import itertools
import random

import pytest

from interpreter.engine.choices import Choice, Subset


def _const(value):
    return lambda g, env, it: value


def _choice(domain, lo, hi, final):
    sub = Subset("s", _const(domain), _const(lo), _const(hi), "items")
    return Choice("c", (), (), None, None, subsets=(sub,), final=final)


ALWAYS = lambda g, env, it: True   # noqa: E731  a final condition that always holds: `completable` item by item


CASES = [
    # domain, least, most, picked so far
    ([1, 2, 3], 2, 2, []),
    ([1, 2, 3], 2, 2, [1]),
    ([1, 2, 3], 3, 3, [1, 2]),
    ([1, 1, 2], 2, 3, []),          # equal items: picking 1 takes both out of what is left
    ([1, 1, 2], 3, 3, [2]),
    ([5, 5, 5], 2, 2, []),
    ([4, 7], 0, 1, []),
    ([4, 7], 0, 1, [4]),            # the most reached: nothing more to pick
    ([], 0, 2, []),
    ([1, 2, 3, 4], 4, 9, [3]),      # more allowed than there are
    ([1, 2], 5, 5, []),             # never enough
]


@pytest.mark.parametrize("domain,lo,hi,partial", CASES)
def test_the_last_subsets_shortcut_offers_what_completable_offers(domain, lo, hi, partial):
    fast = _choice(domain, lo, hi, None).pick_options(None, {}, 0, list(partial))
    slow = _choice(domain, lo, hi, ALWAYS).pick_options(None, {}, 0, list(partial))
    assert fast == slow


def test_the_shortcut_agrees_on_many_random_domains_with_repeated_items():
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        domain = [rng.randrange(4) for _ in range(rng.randrange(0, 7))]
        lo = rng.randrange(0, 5)
        hi = lo + rng.randrange(0, 3)
        partial = [x for x in domain if rng.random() < 0.3][:hi]
        fast = _choice(domain, lo, hi, None).pick_options(None, {}, 0, list(partial))
        slow = _choice(domain, lo, hi, ALWAYS).pick_options(None, {}, 0, list(partial))
        assert fast == slow, (domain, lo, hi, partial)
        checked += bool(fast)
    assert checked > 50   # most cases offered something: the comparison was not of empty lists
