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


def test_a_deal_gives_each_player_the_cards_one_at_a_time_would():
    """Dealt at once when the source has enough (every n-th card to a player), or one at a time: the same
    hands, the same source left, the same work paid; a player twice, or the source among the hands, too."""
    from types import SimpleNamespace

    from interpreter.runtime.effects import deal

    rng = random.Random(3)
    for _ in range(500):
        players = rng.randrange(1, 5)
        who = [rng.randrange(players) for _ in range(rng.randrange(0, 5))]
        if rng.random() < 0.6:
            who = rng.sample(range(players), rng.randrange(0, players + 1))
        k = rng.randrange(0, 5)
        base = 1 if rng.random() < 0.9 else 0   # base 0: the source (slot 0) is player 0's hand
        zones = [list(range(100, 100 + rng.randrange(0, 20)))] + [[p] for p in range(players)]
        want = [z[:] for z in zones]
        short = False
        for _ in range(k if who else 0):   # one card at a time, round by round
            for p in who:
                if not want[0]:
                    short = True
                    break
                card = want[0].pop(0)
                want[base + p].append(card)
            if short:
                break
        vm = SimpleNamespace(record=False, rs=SimpleNamespace(card_resets=()), _choice_logs=None)
        g = SimpleNamespace(zones=zones, known={}, work=10_000)
        assert deal(vm, g, 0, base, k, who, {}) == short
        assert zones == want, (who, k, base)
        assert g.work == 10_000 - len(who) * k or short
