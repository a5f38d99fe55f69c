"""Baseline agents: a Request -> a uniformly random option (seeded) or always the first one."""
from __future__ import annotations

import random

from ..runtime.draws import below
from .base import Agent, Request


class RandomAgent(Agent):
    """Uniformly random legal options, from its own seeded generator (never the game's)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, request: Request) -> int:
        return below(self.rng, request.count)   # rng.randrange(count), with fewer calls

    def pick(self, count: int) -> int:
        """The same choice from the number of options alone (agents.play asks this way, without a Request)."""
        return below(self.rng, count)


class FirstAgent(Agent):
    """Always the first legal option: a deterministic baseline."""

    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, request: Request) -> int:
        return 0

    def pick(self, count: int) -> int:
        return 0
