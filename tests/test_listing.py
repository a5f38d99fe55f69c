"""Options made on demand (runtime/listing.py) read exactly as the list they stand for.

A table of listings built the way generated listing functions build them (plain options appended, products
of independent domains, in any order), each compared, read every way options are read, with the list that
nested loops make; and every bundled ruleset's generated listings compared with the engine's own listing
at many positions of random games."""
from __future__ import annotations

import copy
import itertools
import pickle
import random

import pytest

from interpreter import Game, load
from interpreter.runtime.listing import SMALL, Listing, lazy
from helpers import hidden_games, shipped_rulesets

A = [[1, 2], [3], [4, 5, 6]]
B = [0, 1, 2, 3]
C = ["left", "right"]
D = list(range(SMALL + 1))   # past the size listed whole

# each build: steps ("add", options) | ("lazy", tag, domains) | ("append", option)
BUILDS = [
    [("lazy", 0, (A, B, C))],
    [("lazy", 0, (B,))],
    [("lazy", 0, (D,))],
    [("lazy", 0, (D, C)), ("append", (-1, ()))],
    [("lazy", 0, (D,)), ("lazy", 1, (B,)), ("lazy", 2, (D,))],
    [("lazy", 0, (A, B))],
    [("lazy", 0, (A, B, C, C))],
    [("lazy", 0, (A, B, C)), ("append", (-1, ()))],
    [("add", [(0, (1,)), (0, (2,))]), ("lazy", 1, (B, C))],
    [("lazy", 0, (B, C)), ("add", [(1, ("x",))]), ("lazy", 2, (A,)), ("append", (-1, ()))],
    [("lazy", 0, ([], B))],                       # an empty domain: nothing listed
    [("add", [(0, ())]), ("lazy", 1, (B, [])), ("append", (-1, ()))],
    [("lazy", 0, (B,)), ("lazy", 1, (C,))],
]


def build(steps):
    out, plain = [], []
    for step in steps:
        if step[0] == "add":
            out += step[1]
            plain += step[1]
        elif step[0] == "append":
            out.append(step[1])
            plain.append(step[1])
        else:
            _, tag, domains = step
            size = len(list(itertools.product(*domains)))
            if size > SMALL:   # as generated listings do: fewer options are listed whole
                out = lazy(out, tag, domains, size)
            else:
                out += [(tag, args) for args in itertools.product(*domains)]
            plain += [(tag, args) for args in itertools.product(*domains)]
    return out, plain


@pytest.mark.parametrize("steps", BUILDS)
def test_a_listing_reads_as_the_list_it_stands_for(steps):
    out, plain = build(steps)
    assert len(out) == len(plain) and bool(out) == bool(plain)
    assert list(out) == plain and out == plain
    assert type(out) is list or out == tuple(plain)   # a Listing equals any sequence of its options
    assert [out[i] for i in range(len(plain))] == plain
    assert [out[-i] for i in range(1, len(plain) + 1)] == [plain[-i] for i in range(1, len(plain) + 1)]
    assert out[1:3] == plain[1:3] and out[::-1] == plain[::-1]
    for bad in (len(plain), -len(plain) - 1):
        with pytest.raises(IndexError):
            out[bad]
    assert pickle.loads(pickle.dumps(out)) == plain and copy.deepcopy(out) == plain
    assert out != plain + [(9, ())]
    big = any(s[0] == "lazy" and len(list(itertools.product(*s[2]))) > SMALL for s in steps)
    assert (type(out) is Listing) == big   # made on demand exactly where a product is past SMALL


def test_a_listing_is_a_list_where_nothing_is_made_on_demand():
    out, plain = build([("add", [(0, (1,))]), ("lazy", 1, ([], B))])
    assert type(out) is list and out == plain


def _engine_listing(game):
    """The pending decision's options as the engine lists them without generated code."""
    g = game.state
    node = game.rs.nodes[g.pending[0]]
    listed = node.listed
    node.listed = None
    try:
        frame = g.stack[-1]
        return node._options(g, frame[2], g.pending[1])
    finally:
        node.listed = listed


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_generated_listings_match_the_engines(path):
    rules = load(str(path))
    compared = lazily = 0
    for seed in range(3):
        game = Game.new(rules, rules.min_players, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            g = game.state
            node = game.rs.nodes[g.pending[0]]
            options = g.pending[2]
            if type(options) is Listing and hasattr(node, "_options") and g.stack and g.stack[-1][0] != ():
                assert list(options) == list(_engine_listing(game))
                compared += 1
            lazily += type(options) is Listing
            game.apply(rng.randrange(game.option_count()))
    assert compared == lazily   # every listing made on demand was compared
    if path.stem == "cubirds":   # its lay: a group of the hand, a row, a side (more than SMALL options)
        assert lazily > 0


@pytest.mark.parametrize("players", [2, 3])
def test_mcts_tells_options_made_on_demand_as_the_list_they_stand_for(players):
    """mcts's keys of the options (agents/mcts.py, _offered): from a product's domains, the same keys in the
    same order as option by option; and a hand's duplicates (equal labels) keep the first index."""
    from interpreter.agents.mcts import _offered
    rules = load("cubirds")
    compared = 0
    for seed in range(4):
        game = Game.new(rules, players, seed=seed, record=False)
        rng = random.Random(seed)
        while not game.is_over:
            g = game.state
            if type(g.pending[2]) is Listing:
                plain = (g.pending[0], g.pending[1], list(g.pending[2]))
                made = _offered(g, g.pending, rules.card_labels, rules.by_back)
                assert list(made.items()) == list(_offered(g, plain, rules.card_labels, rules.by_back).items())
                compared += 1
            game.apply(rng.randrange(game.option_count()))
    assert compared > 20


def test_mcts_keys_of_a_product_with_values_told_alike_keep_the_first_index():
    from interpreter.agents.mcts import _offered
    listing = lazy([], 0, ([1, 1, 2], list(range(SMALL))), 3 * SMALL)
    made = _offered(None, (5, 0, listing), {}, ())
    assert made == _offered(None, (5, 0, list(listing)), {}, ())
    assert len(made) == 2 * SMALL and made[(5, 0, 0, (1, 0))] == 0 and made[(5, 0, 0, (2, 0))] == 2 * SMALL


def test_a_clone_reads_the_options_it_was_made_with_after_the_original_moves_on():
    """A listing's domain may be a zone of the state that listed it (Piepmatz's `bird: me.hand`): a clone made
    at the decision (a server's copy to roll back to, the RL environment's labels read later) still reads the
    options it was made with once the original has played on."""
    rules = load("piepmatz")
    compared = 0
    for seed in range(4):
        game = Game.new(rules, 4, seed=seed, params={"hand_size": 5}, record=False)
        rng = random.Random(seed)
        for _ in range(200):
            if game.is_over:
                break
            if type(game.state.pending[2]) is Listing:
                before = game.clone()
                options, labels = list(before.state.pending[2]), before.decision.options
                game.apply(rng.randrange(game.option_count()))
                assert list(before.state.pending[2]) == options and before.decision.options == labels
                compared += 1
                continue
            game.apply(rng.randrange(game.option_count()))
    assert compared > 20


BLIND = """
name: blind-pick
players: {min: 2, max: 2}
components:
  card:
    label: "c{value}"
    in: deck
    cards:
      - {each: {value: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]}}
zones:
  deck: {visibility: count}
  pile: {visibility: count}
  hand: {per_player: true, visibility: owner}
setup:
  - shuffle: deck
  - move: {from: deck, to: pile, count: 16}
flow:
  ends:
    - when: count(pile) < 14
      reason: the pile is low
  round:
    turn:
      steps: [pick]
actions:
  pick:
    args: {c: pile}
    label: "take {c}"
    do:
      - move: {cards: '[c]', from: pile, to: me.hand}
"""


def test_an_undo_that_deals_hidden_cards_again_offers_the_cards_where_they_now_lie():
    """Options made on demand from a zone of face-down cards (16 > SMALL), then undo's new deal, which swaps
    the cards in the zones in place and relabels the pending options: each option takes the card now at
    its place, as the engine lists them (engine/redeal.py)."""
    from interpreter import load_text
    from interpreter.engine.redeal import undo
    rules = load_text(BLIND, "blind.yaml")
    for seed in range(10):
        game = Game.new(rules, 2, seed=seed)
        assert type(game.state.pending[2]) is Listing
        fresh = undo(game, 0, 0, random.Random(seed))
        assert list(fresh.state.pending[2]) == list(_engine_listing(fresh))
        assert [a[0] for _, a in fresh.state.pending[2]] == fresh.state.zones[1]   # card i of the pile, in order
        fresh.apply(15)
        assert len(fresh.state.zones[1]) == 15


def _among_actions(rules) -> set:
    """The ids of the decisions among actions that are not a turn's steps (`react` windows, a `choose` of
    actions), each listed by a generated function too."""
    from interpreter.engine.flow import Step
    from interpreter.engine.nodes import Choose
    return {n.id for n in rules.nodes if isinstance(n, Choose) and n.actions is not None and type(n) is not Step}


@pytest.mark.parametrize("path", shipped_rulesets() + hidden_games(), ids=lambda p: p.stem)
def test_every_decision_among_actions_lists_as_the_engine_does(path):
    rules = load(str(path))
    ids = _among_actions(rules)
    assert all(rules.nodes[i].listed is not None for i in ids)
    compared = 0
    for seed in range(4):
        game = Game.new(rules, min(rules.min_players + seed % 2, rules.max_players), seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            if game.state.pending[0] in ids:
                assert list(game.state.pending[2]) == list(_engine_listing(game))
                compared += 1
            game.apply(rng.randrange(game.option_count()))
    assert (compared > 0) == bool(ids), compared   # the games meet such decisions where a ruleset has them
