"""Forced random outcomes: the game's generator + a caller's decisions -> draws the caller fixed, then the seeded ones.

Scenario tests use it to pin down what an effect with chance does (which cards a `sample` takes, the
order a `shuffle` leaves). It is installed with `Game.force_random` and never saved: a clone or a
saved game gets a plain generator with the same state.
"""
from __future__ import annotations

import random


class ForcedRandom(random.Random):
    """The game's generator, continuing from its state, that asks `decide(op, items, k)` before each draw.

    `op` is "choice" (one item of `items`, as the `random` function draws), "sample" (k distinct items)
    or "shuffle" (a new order of `items`). `decide` returns None to draw as usual, or the outcome: a list
    of items of `items` (one for a choice, k for a sample, and for a shuffle the first cards of the new
    order; the cards it leaves out follow, shuffled as usual). A draw that is decided does not advance
    the generator."""

    def __init__(self, base: random.Random, decide):
        super().__init__()
        self.setstate(base.getstate())
        self.decide = decide

    def choice(self, seq):
        forced = self.decide("choice", list(seq), 1)
        return super().choice(seq) if forced is None else forced[0]

    def sample(self, population, k, **kwargs):
        forced = self.decide("sample", list(population), k)
        return super().sample(population, k, **kwargs) if forced is None else list(forced)

    def shuffle(self, x):
        forced = self.decide("shuffle", list(x), len(x))
        if forced is None:
            super().shuffle(x)
            return
        rest = list(x)
        for item in forced:
            rest.remove(item)
        super().shuffle(rest)
        x[:] = list(forced) + rest


def plain(rng: random.Random) -> random.Random:
    """A plain generator in the same state (what a forced one becomes when the test is done with it)."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out
