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
from interpreter.runtime.values import Card
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
    """A copy in which everything hidden from `player` is changed: the cards they may not see get each
    other's identities (wherever the game refers to them: zones, variables, card variables), and the
    variables hidden from them other values."""
    world = game.clone()
    rs, g = world.rs, world.state
    positions = hidden_positions(world, player)
    cards = [g.zones[s][i] for s, i in positions]
    shuffled = cards[:]
    rng.shuffle(shuffled)
    sigma = dict(zip(cards, shuffled))       # the card at a place now has another identity

    def relabel(v):
        if type(v) is list:
            return [relabel(x) for x in v]
        return sigma.get(v, v) if isinstance(v, Card) else v

    g.zones = [z[:] for z in g.zones]   # a clone shares its zones' lists
    for (s, i), c in zip(positions, shuffled):
        g.zones[s][i] = c
    g.vars = {k: relabel(v) for k, v in g.vars.items()}
    g.pvars = {k: [relabel(x) for x in v] for k, v in g.pvars.items()}
    for name, table in g.cvars.items():
        old = table[:]
        for c in cards:
            table[sigma[c]] = relabel(old[c])   # what lay on the card at a place stays at that place
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


def test_a_variable_holding_a_card_shows_it_only_to_who_may_see_the_card():
    rules = load("souk")
    game = Game.new(rules, 3, seed=2)
    g = game.state
    hand = g.zones[rules.zone_slot("hand", 3, 0)]
    g.vars["offer_give"] = hand[:2]
    g.known[hand[0]] = {g.players[1]: "move"}      # P2 was shown the first card only
    labels = [rules.card_labels[c] for c in hand[:2]]
    assert game.view(0)["vars"]["offer_give"] == labels
    assert game.view(1)["vars"]["offer_give"] == [labels[0], {"hidden": True}]
    assert game.view(2)["vars"]["offer_give"] == [{"hidden": True}, {"hidden": True}]
