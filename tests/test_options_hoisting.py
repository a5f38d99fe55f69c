"""Option lists compute a part of an `if` once per value of the arguments it reads (codegen/options.py),
also where the condition gets to it only sometimes (the right side of `and`/`or`, a branch) or once per
item (a `where`, the test of `all`): the options, and the error where there is one, are those of the
condition checked combination by combination, in order (the oracle below evaluates it so, through the
expression compiler alone)."""
from __future__ import annotations

import pytest

from helpers import ROOT, shipped_rulesets
from interpreter import Game, load_text
from interpreter.codegen import python_source
from interpreter.errors import GameError

CONDITIONS = [
    'b == 0 or a == 2 or sort([10, 20])[a] > 5',            # fails for a = 2, never reached there
    'b == 1 and sort([10, 20])[a] > 15',                    # fails for a = 2, b = 1: the error, in order
    'b == 0 or count(me.hand where value > a) > 1',
    'b == 1 and count(deck where value > a) >= b + 2',
    'all(me.hand, value > b or count(deck where value > a) > 2)',
    '(sum(map(me.hand, value)) > a) if b == 0 else (count(deck + me.hand where value == a) == b)',
    'b == 0 or [5, 6][a - b] > 5',                           # reads b: nothing to compute once
]

TEXT = """
name: hoisting
players: {min: 2, max: 2}
components:
  card:
    label: "c{value}"
    in: deck
    cards:
      - {value: 1}
      - {value: 2}
      - {value: 3}
      - {value: 4}
      - {value: 5}
      - {value: 6, count: 6}
zones:
  deck: {}
  hand: {per_player: true, visibility: owner}
setup:
  - deal: {from: deck, to: hand, count: 2}
flow:
  round:
    turn:
      steps: [wait]
actions:
  wait: {}
  try:
    args: {a: 'range(3)', b: 'range(2)'}
    if: %s
"""


def oracle(rules, game, cond: str):
    """The options of `try` for P1, checking the condition for each (a, b) in order, or its error."""
    fn = rules.expression(cond, a="int", b="int")
    out = []
    for a in range(3):
        for b in range(2):
            try:
                ok = fn(game.state, {"me": 0, "a": a, "b": b}, None)
            except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
                return type(exc).__name__
            if ok:
                out.append((a, b))
    return out


def listed(rules, game):
    try:
        return [tuple(args) for args in rules.actions["try"].options(game.state, 0)]
    except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
        return type(exc).__name__


@pytest.mark.parametrize("cond", CONDITIONS)
def test_options_are_those_of_the_condition_checked_combination_by_combination(cond):
    rules = load_text(TEXT % repr(cond), "hoisting.yaml")
    for seed in range(6):
        game = Game.new(rules, 2, seed=seed)
        assert listed(rules, game) == oracle(rules, game, cond), seed


def test_parts_on_demand_are_computed_once_and_their_errors_wait():
    rules = load_text(TEXT % repr(CONDITIONS[0]), "hoisting.yaml")
    source = python_source(rules)
    assert " is not R_NO else " in source
    game = Game.new(rules, 2, seed=0)
    assert listed(rules, game) == [(a, b) for a in range(3) for b in range(2)]
    rules = load_text(TEXT % repr(CONDITIONS[1]), "hoisting.yaml")
    assert listed(rules, Game.new(rules, 2, seed=0)) == "GameError"
    rules = load_text(TEXT % repr(CONDITIONS[-1]), "hoisting.yaml")
    assert " is not R_NO else " not in python_source(rules)


def work_of(cond: str) -> int:
    rules = load_text(TEXT % repr(cond), "hoisting.yaml")
    game = Game.new(rules, 2, seed=0)
    game.state.work = 10 ** 6
    assert listed(rules, game) == [(a, b) for a in range(3) for b in range(2)]
    return 10 ** 6 - game.state.work


def test_a_part_on_demand_pays_once_per_value_of_what_it_reads():
    # 7 cards left in the deck, walked once per a (3 times), not once per (a, b) (6 times); the ranges (of
    # numbers known at load: shared lists, nothing to make) and their combinations walked: 3 + 3 x 2 with a
    # part computed per a, 6 in one go without
    assert work_of('b >= 0 and count(deck where value > a) >= 0') == 3 + 3 * 2 + 3 * 7
    assert work_of('b >= 0 and count(deck where value > a + b - b) >= 0') == 6 + 6 * 7


@pytest.mark.parametrize("path", shipped_rulesets() + sorted((ROOT / "benchmarks" / "patterns").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_every_bundled_ruleset_offers_the_same_options_with_guarded_parts_or_without(path, monkeypatch):
    import random

    from interpreter import load
    from interpreter.codegen import options as codegen_options
    lazy = load(str(path))
    monkeypatch.setattr(codegen_options, "costly", lambda tree: False)   # no part on demand
    plain = load(str(path))
    assert " is not R_NO else " not in python_source(plain)
    players = lazy.max_players
    for seed in range(3):
        a, b = Game.new(lazy, players, seed=seed), Game.new(plain, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            assert a.state.pending == b.state.pending
            if a.is_over:
                break
            choice = rng.randrange(a.option_count())
            a.apply(choice)
            b.apply(choice)
        assert a.decision == b.decision


NEVER_REACHED = [
    # (a condition, the same with its part that is never reached made almost free): computed on demand,
    # a part the condition never gets to costs nothing, so both pay the same work
    ('b == 5 and count(range(5000) where it > a) > 0', 'b == 5 and count([a] where it > a) > 0'),
    ('all(me.hand where value > 100, count(range(5000) where it > a) > b)',
     'all(me.hand where value > 100, count([a] where it > a) > b)'),
    ('b == 5 and count(deck where value > a) > 0', 'b == 5 and count([a] where it > a) > 0'),
]


def paid(cond: str, work: int = 10 ** 6):
    """(options or error, work paid) of `try` with a: range(300)."""
    rules = load_text(TEXT.replace("a: 'range(3)'", "a: 'range(300)'") % repr(cond), "hoisting.yaml")
    game = Game.new(rules, 2, seed=0)
    game.state.work = work
    found = listed(rules, game)
    return found, work - game.state.work


@pytest.mark.parametrize("cond,free", NEVER_REACHED)
def test_a_part_the_condition_never_gets_to_is_never_computed(cond, free):
    assert " is not R_NO else " in python_source(load_text(TEXT % repr(cond), "hoisting.yaml"))
    assert paid(cond) == paid(free)
    # with just the work the listing needs, no budget error either
    assert paid(cond, paid(free)[1]) == paid(free)


SHARED_CALL = """
name: shared-call
players: {min: 2, max: 2}
components:
  card:
    label: "{colour}{value}"
    in: deck
    cards:
      - {colour: red, value: 1, count: 2}
      - {colour: blue, value: 2, count: 2}
      - {colour: red, value: 3, count: 2}
      - {colour: gold, value: 4, count: 2}
      - {colour: blue, value: 5, count: 2}
zones:
  deck: {}
  hand: {per_player: true}
  pile: {}
setup:
  - deal: {from: deck, to: hand, count: 1}
flow:
  round:
    turn:
      steps: [{name: trade, actions: [keep, lose, name]}]
actions:
  keep:
    args: {c: 'sort(distinct(me.hand.colour))'}
    do: [{move: {cards: 'me.hand where colour == c', from: me.hand, to: pile}}]
  lose:
    args: {c: 'filter(distinct(me.hand.colour), x -> x != "red")', k: 'range(2)'}
    if: k < count(me.hand)
  name:
    args: {c: 'distinct(me.hand.colour)'}
"""


def _step_listing(rules) -> str:
    """The generated function that lists the options of the step `trade`."""
    source = python_source(rules)
    start = source.index("def S_trade_")
    return source[start:source.index("\n\n", start)]


def test_a_call_written_in_several_actions_is_computed_once(monkeypatch):
    """A call that reads no argument, written alike in the domains of several actions of a step (Pit's
    `distinct((me.hand + me.offer).commodity)`), is computed once for the listing: the same options, and
    its work paid once (its two walks over the hand: 2 x 5 items) where each action paid it."""
    from interpreter.codegen import options as codegen_options
    shared = load_text(SHARED_CALL, "shared-call.yaml")
    assert _step_listing(shared).count("R_distinct_of(") == 1
    monkeypatch.setattr(codegen_options, "repeated_calls", lambda actions, names: set())
    apart = load_text(SHARED_CALL, "shared-call.yaml")
    assert _step_listing(apart).count("R_distinct_of(") == 3
    paid = []
    for rules in (shared, apart):
        game = Game.new(rules, 2, seed=0)
        game.state.zones[rules.zone_slot("hand", 2, owner=game.state.current)] = [0, 2, 4, 6, 8]   # r b r g b
        node_id, player, _ = game.state.pending
        game.state.work = 10 ** 6
        options = rules.nodes[node_id].listed(game.state, game.state.stack[-1][2], player)
        paid.append((options, 10 ** 6 - game.state.work))
    (options, shared_work), (options_apart, apart_work) = paid
    assert options == options_apart and len(options) == 3 + 2 * 2 + 3   # keep 3 colours, lose 2 x 2, name 3
    assert apart_work - shared_work == 2 * (2 * 5)
