"""runtime/draws.py draws exactly what random.Random.shuffle and randrange do, and leaves the generator alike."""
from __future__ import annotations

import random

import pytest

from interpreter.engine.chance import ForcedRandom
from interpreter.runtime.draws import below, shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 110, 1000])
def test_the_same_order_and_the_same_generator_state_as_random_shuffle(length):
    for seed in range(60):
        mine, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(length)), list(range(length))
        shuffle(mine, a)
        theirs.shuffle(b)
        assert a == b, f"seed {seed}, {length} items"
        assert mine.getstate() == theirs.getstate()


def test_a_forced_generator_decides_its_own_shuffle():
    forced = ForcedRandom(random.Random(5), lambda op, items, k: [items[-1]] if op == "shuffle" else None)
    cards = list(range(10))
    shuffle(forced, cards)
    assert cards[0] == 9 and sorted(cards) == list(range(10))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 9, 64, 100, 1000, 2 ** 40 + 3])
def test_below_draws_what_randrange_draws(n):
    for seed in range(40):
        mine, theirs = random.Random(seed), random.Random(seed)
        assert [below(mine, n) for _ in range(30)] == [theirs.randrange(n) for _ in range(30)]
        assert mine.getstate() == theirs.getstate()


def test_below_refuses_what_randrange_refuses():
    with pytest.raises(ValueError):
        below(random.Random(1), 0)
