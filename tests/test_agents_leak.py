"""Bots never peek, and options never name what their chooser cannot see: for every bundled ruleset, the
language's patterns and the hidden-information test games (tests/hidden/), an agent's decision is the
same when what its player may not see is changed (same agent seed), for the random, greedy and mcts
agents; the player's options read the same; and deciding leaves the game as it was.

At moments of seeded random games, the player to move gets a disguised copy of the game: the cards it
may not see take each other's identities (wherever the game refers to them, effects in progress and the
options it is offered included: "the card at this place" is another card) and the variables hidden from
it other values. The disguise is computed here from the zone declarations, not by the bots' own code. A
fresh agent with the same seed must choose the same option in both. A peeking agent is caught by the
same check, and so is a label that names a hidden card, so the checks can fail."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, load
from interpreter.agents import Agent, Request, make_agent
from interpreter.runtime.listing import Listing
from interpreter.runtime.values import Card
from helpers import hidden_games, shipped_rulesets
from test_views_leak import TEST_PARAMS, hidden_positions

# cap=0: a search the CPU cap ends would depend on the machine's load, not on what the player sees
AGENTS = ["random", "greedy", "mcts:iterations=16:cap=0", "mcts:iterations=16:depth=0:cap=0", "mcts:iterations=16:depth=6:cap=0",
          "mcts:iterations=16:depth=6:reward=margin:cap=0"]
MOMENTS = 4          # decisions checked per game
EVERY = 9            # ... one every this many decisions


def disguised_fully(game, player, rng):
    """A copy in which everything hidden from `player` is changed: the cards it may not see take each
    other's identities (a card only another of its type: a type shows on the card's back) wherever the
    game refers to them (zones, variables, card variables, effects in progress), and the variables
    hidden from it take other values."""
    world = game.clone()
    rs, g = world.rs, world.state
    positions = hidden_positions(world, player)
    cards = [g.zones[s][i] for s, i in positions]
    groups = {}
    for c in cards:
        groups.setdefault(rs.cards[c]["type"], []).append(c)
    sigma = {}
    for group in groups.values():
        shuffled = group[:]
        rng.shuffle(shuffled)
        sigma.update(zip(group, shuffled))   # the card at a place now has another identity

    def swap(v):
        t = type(v)
        if t is Card:
            return sigma.get(v, v)
        if t is list or t is tuple:
            return t(swap(x) for x in v)
        if t is Listing:   # options listed on demand (runtime/listing.py): the list they stand for
            return [swap(x) for x in v]
        if t is dict:
            return {k: swap(x) for k, x in v.items()}
        return v
    g.zones = [z[:] for z in g.zones]   # a clone shares its zones' lists: they are replaced, never changed
    for s, i in positions:
        g.zones[s][i] = sigma[g.zones[s][i]]
    g.vars = {k: swap(v) for k, v in g.vars.items()}
    g.pvars = {k: [swap(x) for x in v] for k, v in g.pvars.items()}
    for table in g.cvars.values():
        old = table[:]
        for c in cards:
            table[sigma[c]] = swap(old[c])   # what lay on the card at a place stays at that place
    envs = {}
    for frame in g.stack:
        key = id(frame[2])
        envs.setdefault(key, {k: swap(v) for k, v in frame[2].items()})
        frame[2] = envs[key]
        frame[4] = swap(frame[4])
    if g.pending is not None:   # the option "take the card at this place" takes the card that lies there
        g.pending = (g.pending[0], g.pending[1], swap(g.pending[2]))
    for name, spec in rs.var_specs.items():
        if spec.visible == "public" or not isinstance(spec.value, int) or isinstance(spec.value, bool):
            continue
        for p in range(g.n) if spec.per_player else ():
            if spec.visible == "nobody" or p != player:
                g.pvars[name][p] = rng.randrange(1000)
        if not spec.per_player:
            g.vars[name] = rng.randrange(1000)
    return world


def moments(rules, players, seed):
    """MOMENTS positions of random games of this ruleset (seeds from `seed` on), one every EVERY decisions
    where there is a choice."""
    found, every = 0, EVERY
    while found < MOMENTS:
        game = Game.new(rules, players, seed=seed, params=TEST_PARAMS.get(rules.name), record=False)
        rng = random.Random(seed)
        step, before = 0, found
        while not game.is_over and found < MOMENTS:
            if step % every == every - 1 and game.option_count() > 1:
                found += 1
                yield game
            game.apply(rng.randrange(game.option_count()))
            step += 1
        if found == before:
            every = 1   # games shorter than EVERY decisions: every decision with a choice is a moment
        seed += 1


def decide(spec, game, seed):
    return make_agent(spec, seed).choose(Request(game, game.current_player))


def cases():
    for path in shipped_rulesets() + hidden_games():
        yield pytest.param(load(str(path)), id=path.stem)


@pytest.mark.parametrize("rules", list(cases()))
def test_an_agents_decision_does_not_change_when_what_its_player_may_not_see_changes(rules):
    players = rules.min_players
    rng = random.Random(7)
    checked = hidden = 0
    for game in moments(rules, players, seed=3):
        p = game.current_player
        before = game.to_json()
        other = disguised_fully(game, p, rng)
        assert other.view(p) == game.view(p)
        # what the player is offered reads the same: no label or prompt names a card it cannot see
        assert other.decision == game.decision, f"turn {game.state.turn}"
        hidden += any(other.state.zones[s][i] != game.state.zones[s][i] for s, i in hidden_positions(game, p)) \
            or other.state.pvars != game.state.pvars or other.state.vars != game.state.vars
        for spec in AGENTS:
            assert decide(spec, other, 11) == decide(spec, game, 11), f"{spec} at turn {game.state.turn}"
            checked += 1
        # a bot's worlds share unchanged data with the game (see State.clone): it must stay as it was
        assert game.to_json() == before, f"deciding changed the game at turn {game.state.turn}"
    assert checked == MOMENTS * len(AGENTS)
    assert hidden >= 1   # the disguise changed what the player may not see (cards or values) at least once


class Peeker(Agent):
    """Cheats: chooses by the cards in the zones its player may not see."""

    def choose(self, request):
        g = request._game.state
        hidden = [g.zones[s][i] for s, i in hidden_positions(request._game, request.player)]
        return sum(i * c for i, c in enumerate(hidden)) % request.count


def test_the_check_catches_an_agent_that_peeks():
    rules = load("cubirds")
    rng = random.Random(1)
    caught = 0
    for game in moments(rules, 2, seed=3):
        p = game.current_player
        other = disguised_fully(game, p, rng)
        caught += Peeker().choose(Request(other, p)) != Peeker().choose(Request(game, p))
    assert caught >= 2


@pytest.mark.parametrize("spec", ["mcts:iterations=16:belief=peek", "greedy:belief=peek"])
def test_the_check_catches_the_bots_that_are_told_to_peek(spec):
    """belief=peek (a cheat for measuring what hidden information is worth) sees what its player may
    not: the same check that every honest bot passes must catch it."""
    # which of two face-down cards to take: peeking tells
    rules = load(str(next(path for path in hidden_games() if path.stem == "guess-card")))
    rng = random.Random(1)
    caught = tried = 0
    for seed in range(40):
        for game in moments(rules, 2, seed=seed):
            p = game.current_player
            other = disguised_fully(game, p, rng)
            caught += decide(spec, other, 11) != decide(spec, game, 11)
            tried += 1
        if caught >= 3:
            break
    assert caught >= 3, f"{spec} was caught {caught} times in {tried}"
