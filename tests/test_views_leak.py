"""Views leak nothing: a player's view is unchanged when what is hidden from them is changed.

For every bundled ruleset, at many moments of seeded random games, the cards a player may not see
(other hands, face-down decks, zones shown as nothing; not the cards they were shown) are permuted
among the places they may not see, and the variables hidden from them are given other values: the
player's view must not change. The permutation is computed here from the zone declarations, not by
the engine's own code for bots, so that the two check each other."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, load
from helpers import shipped_rulesets

TEST_PARAMS = {"pit": {"target": 100}, "pit-bull-bear": {"target": 100}, "pit-classic": {"target": 100},
               "pit-tutorial": {"target": 20}}
DECISIONS = 120     # decisions played per game
EVERY = 7           # the views are checked every this many decisions


def hidden_positions(game, player):
    """(slot, index) of every card `player` may not see, from the zones' declared levels."""
    rs, g = game.rs, game.state
    out = []
    for z in rs.zones.values():
        for slot, owner, _ in g.layout.slots(z):
            level = z.owner_sees if owner == player else z.others_see
            if level == "cards":
                continue
            for i, c in enumerate(g.zones[slot]):
                if (level == "top" and i == 0) or player in g.known.get(c, {}):
                    continue
                out.append((slot, i))
    return out


def disguised(game, player, rng):
    """A copy in which everything hidden from `player` is changed."""
    world = game.clone()
    rs, g = world.rs, world.state
    positions = hidden_positions(world, player)
    cards = [g.zones[s][i] for s, i in positions]
    backs = {name: [g.cvars[name][c] for c in cards] for name, spec in rs.card_vars.items()
             if spec.visible == "public"}
    rng.shuffle(cards)
    for (s, i), c in zip(positions, cards):
        g.zones[s][i] = c
    for name, values in backs.items():
        for c, v in zip(cards, values):
            g.cvars[name][c] = v
    for name, spec in rs.var_specs.items():
        if spec.visible == "public" or not isinstance(spec.value, int) or isinstance(spec.value, bool):
            continue
        if spec.per_player:
            for p in range(g.n):
                if spec.visible == "nobody" or p != player:
                    g.pvars[name][p] = rng.randrange(1000)
        else:
            g.vars[name] = rng.randrange(1000)
    return world


def cases():
    for path in shipped_rulesets():
        rules = load(str(path))
        for n in sorted({rules.min_players, rules.max_players}):
            yield pytest.param(rules, n, id=f"{path.stem}-{n}p")


@pytest.mark.parametrize("rules,players", list(cases()))
def test_a_view_does_not_change_when_what_it_hides_changes(rules, players):
    checked = 0
    for seed in range(2):
        game = Game.new(rules, players, seed=seed, params=TEST_PARAMS.get(rules.name), record=False)
        rng = random.Random(seed)
        for step in range(DECISIONS):
            if game.is_over:
                break
            if step % EVERY == 0:
                for p in range(players):
                    assert disguised(game, p, rng).view(p) == game.view(p), f"seed {seed}, step {step}, P{p + 1}"
                    checked += 1
            game.apply(rng.randrange(game.option_count()))
    assert checked >= players * 4


def test_the_disguise_changes_something_the_others_see():
    """The check above could pass by changing nothing: in a game with hidden hands, the other players'
    views do change when one player's hidden cards are permuted."""
    rules = load("forehead-poker")
    game = Game.new(rules, 3, seed=5)
    rng = random.Random(1)
    changed = [any(disguised(game, 0, random.Random(k)).view(q) != game.view(q) for k in range(5)) for q in (1, 2)]
    assert changed == [True, True]
    assert all(disguised(game, 0, rng).view(0) == game.view(0) for _ in range(5))
