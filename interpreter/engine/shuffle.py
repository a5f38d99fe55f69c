"""A generator + a list -> the list shuffled in place, exactly as `random.Random.shuffle` would leave it.

Shuffles are a large part of setting up a game and of dealing a bot's world again (a third of it).
`random.shuffle` makes one Python call per card to draw an index; this loop draws the same numbers
from the same `getrandbits` stream, in the same order, without it, and so leaves the same order and
the generator in the same state (tests/test_shuffle.py compares them over many seeds and lengths).
A generator of another kind (a forced one, engine/chance.py) shuffles its own way.
"""
from __future__ import annotations

import random

# the draw this loop repeats: Random._randbelow is the getrandbits one unless a Python changes it
_SAME_DRAW = random.Random._randbelow is random.Random._randbelow_with_getrandbits


def shuffle(rng, x: list) -> None:
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
