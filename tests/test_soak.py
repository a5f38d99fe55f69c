"""A soak run of the games random play cannot finish: every game of the Pit family at every player count,
played by random bots and by the ruleset's default bots up to a decision limit, with every invariant of
tests/invariants.py checked at every decision (`python benchmarks/soak.py` runs every ruleset longer)."""
from __future__ import annotations

import pytest

from interpreter import load
from helpers import shipped_rulesets
from invariants import findings, soak_game

PIT = [p for p in shipped_rulesets() if p.stem.startswith("pit")]
LIMIT = 60


def cases():
    for path in PIT:
        rules = load(str(path))
        for n in range(rules.min_players, rules.max_players + 1):
            yield pytest.param(path, n, id=f"{path.stem}-{n}p")


@pytest.mark.parametrize("path,players", list(cases()))
def test_a_pit_game_keeps_every_invariant_as_far_as_it_goes(path, players):
    rules = load(str(path))
    for agent, seed in (("random", 1), (rules.default_agent or "random", 2)):
        counts = soak_game(rules, players, seed, [agent] * players, LIMIT, every=20)
        assert findings(counts) == {}, (agent, counts)
        assert counts["decisions"] == LIMIT or counts["finished"]
