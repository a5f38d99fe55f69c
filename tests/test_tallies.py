"""A step's listing counts `part where attr == v` for several v by a tally of the part made once (codegen/
options.py, expr/compiler.py `_tallied_count`): the options must be those of the count as written."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, load_text
from interpreter.codegen import python_source
from interpreter.expr.compiler import _Compiler

TEXT = """
name: tallies
players: {min: 2, max: 3}
components:
  card:
    label: "c{value}"
    in: deck
    computed:
      pair: '[value, value]'
    cards:
      - {value: 1}
      - {value: 2}
      - {value: 2}
      - {value: 3}
      - {value: 6, count: 6}
zones:
  deck: {}
  hand: {per_player: true, visibility: owner}
setup:
  - deal: {from: deck, to: hand, count: 3}
flow:
  round:
    turn:
      steps:
        - name: act
          actions: [keep, toss]
actions:
  keep:
    args: {v: %s, k: '[1, 2]'}
    if: count((me.hand + deck) %s) >= k
    do:
      - move: {from: deck, to: me.hand}
  toss:
    args: {v: %s}
    if: count((me.hand + deck) %s) == 1
    do:
      - move: {cards: 'take(me.hand, 1)', from: me.hand, to: deck}
"""

CASES = {
    # the values counted, the filter: a tally of `value`
    "ints": ("range(8)", "where value == v", True),
    "a value that is a list equals none": ("[[1], 2, [2], 6]", "where value == v", True),
    # a filter that is not `attr == v`: counted as written
    "not equal": ("range(8)", "where value != v", False),
    # a computed attribute whose values are lists: a dict cannot hold them, counted as written
    "list values": ("[[1, 1], [2, 2], 3, [6, 6]]", "where pair == v", False),
}


def options_of(text, tallied: bool, monkeypatch):
    with monkeypatch.context() as m:
        if not tallied:
            m.setattr(_Compiler, "_tallied_count", lambda self, tree, s: None)
        rules = load_text(text, "tallies.yaml")
        source = python_source(rules)
    out = []
    for seed in range(4):
        game = Game.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        for _ in range(12):
            if game.is_over:
                break
            out.append(list(game.state.pending[2]))
            game.apply(rng.randrange(game.option_count()))
    return source, out


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_tallied_count_offers_what_the_count_as_written_offers(case, monkeypatch):
    values, test, tallies = CASES[case]
    text = TEXT % (repr(values), test, repr(values), test)
    source, tallied = options_of(text, True, monkeypatch)
    plain_source, plain = options_of(text, False, monkeypatch)
    assert ("R_tally(" in source) is tallies and "R_tally(" not in plain_source
    assert tallied == plain
    assert sum(len(o) for o in plain) > 40   # options were offered: the comparison is not of empty lists
