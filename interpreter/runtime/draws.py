"""A generator -> the same draws as `random.Random.shuffle` and `randrange(n)`, with fewer Python calls.

Shuffles are a large part of setting up a game and of dealing a bot's world again (a third of it), and
random bots and playouts draw an option at every decision. `random` makes one Python call per card
(per draw) to pick an index; these draw the same numbers from the same `getrandbits` stream, in the
same order, without it, and so leave the same results and the generator in the same state
(tests/test_draws.py compares them over many seeds and sizes). A generator of another kind (a forced
one, engine/chance.py) draws its own way.
"""
from __future__ import annotations

import random

# the draw this loop repeats: Random._randbelow is the getrandbits one unless a Python changes it
_SAME_DRAW = random.Random._randbelow is random.Random._randbelow_with_getrandbits


def shuffle(rng, x: list) -> None:
    """Shuffle `x` in place, as rng.shuffle(x) would."""
    if type(rng) is not random.Random or not _SAME_DRAW:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:   # rejection, as random does: uniform over 0..i
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def below(rng, n: int) -> int:
    """A number from 0 to n-1 (n at least 1), as rng.randrange(n) would draw it."""
    if type(rng) is not random.Random or not _SAME_DRAW:
        return rng.randrange(n)
    if n <= 0:
        return rng.randrange(n)   # the same error
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r
