"""The engine's shortest ways change nothing but speed (docs/compile.md): a choice in a plain step applied by its
generated `A_` function (a `choose`'s by its `C_`) instead of Choose.resume and the VM, and moves done inline by generated code instead of
runtime/effects.py. Games played both ways reach the same states, and errors read the same, word for word."""
from __future__ import annotations

import random
import re

import pytest

from helpers import ROOT, shipped_rulesets
from interpreter import Game, GameError, load

PATTERNS = sorted((ROOT / "benchmarks" / "patterns").glob("*.yaml"))


def without_after(rules):
    """The ruleset with every generated `A_` and `C_` set aside: its choices go through Choose.resume."""
    for node in rules.nodes:
        if node.after is not None:
            node.after = None
    return rules


def played(rules, players, seed, record, decisions=300):
    """The states of a seeded random game, decision by decision (its log and events left out)."""
    game = Game.new(rules, players, seed=seed, record=record)
    rng = random.Random(seed)
    out = []
    for _ in range(decisions):
        if game.state.pending is None:
            break
        game.apply(rng.randrange(game.option_count()))
        state = game.to_json()["state"]
        state.pop("log"), state.pop("events")
        out.append(state)
    return out


@pytest.mark.parametrize("path", shipped_rulesets() + PATTERNS, ids=lambda p: p.stem)
def test_games_are_the_same_with_the_shortest_ways_or_without(path):
    fast, slow = load(str(path)), without_after(load(str(path)))
    assert fast is not slow
    players = fast.min_players
    for seed in (1, 2):
        with_them = played(fast, players, seed, record=False)
        assert with_them == played(slow, players, seed, record=False), seed   # A_ or Choose.resume
        assert with_them == played(fast, players, seed, record=True), seed    # inline moves or move_cards


def test_the_shortest_ways_are_taken():
    """Else the test above compares a way with itself."""
    rules = load("cubirds")
    steps = [n for n in rules.nodes if type(n).__name__ == "Step"]
    assert steps and all(s.after is not None for s in steps)
    source = rules.generated.source
    assert "_z" in source and ".remove(" in source and re.search(r"g\.zones\[_s\d+\] = _z\d+ = _z\d+\[\d*:", source)   # moves inline


FAILING = """
name: failing
players: {min: 2, max: 2}
components:
  card:
    label: "{colour}"
    in: deck
    cards:
      - {colour: red, count: 3}
      - {colour: blue, count: 3}
zones:
  deck: {visibility: count}
  pile: {visibility: public}
variables:
  x: 0
player_variables:
  points: 0
actions:
  grow:
    do:
      - set: {x: 1}
      - while: true
        max: 100
        do:
          - add: {x: x}
  mix:
    do:
      - add: {x: 'first(pile + deck).colour'}
  score:
    do:
      - add: {me.points: 2}
      - add: {me.points: 'first(deck where colour == "green")'}
  divide:
    args: {k: '[0, 1]'}
    do:
      - set: {x: 6 / k}
  misplace:
    do:
      - move: {from: deck, to: pile}
      - move: {cards: 'pile', from: deck, to: pile}
  ask:
    do:
      - choose: {actions: [divide, misplace, loop]}
  loop:
    do:
      - while: true
        max: 100000
        do:
          - set: {x: 'x %% 7 + count(range(20 + x %% 7)) + count(deck where colour == "red")'}
flow:
  round:
    turn:
      steps: [%s]
"""


@pytest.mark.parametrize("action, option", [("divide", "divide 0"), ("misplace", "misplace"), ("loop", "loop"),
                                            ("ask", "divide 0"), ("ask", "misplace"), ("ask", "loop"),
                                            ("grow", "grow"), ("mix", "mix"), ("score", "score")])
def test_an_error_reads_the_same_either_way(tmp_path, action, option):
    """In a step's action (its A_), or in an action chosen by a `choose` among actions (its C_)."""
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING % action)
    messages = []
    for rules, record in ((load(str(path)), False), (without_after(load(str(path))), False), (load(str(path)), True)):
        game = Game.new(rules, 2, seed=0, record=record)
        if action == "ask":
            game.apply("ask")   # the choose among actions is asked now
            assert game.decision.options == ("divide 0", "divide 1", "misplace", "loop")
        before = game.to_json()["state"]["zones"]
        with pytest.raises(GameError) as caught:
            game.apply(option)
        assert game.to_json()["state"]["zones"] == before   # a refused choice changes nothing
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == messages[2]
    assert "failing.yaml:" in messages[0]


EMPTY_BLOCKS = """
name: empty-blocks
players: {min: 2, max: 2}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {each: {colour: [red, blue], value: [1, 2, 3, 4]}}
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  pile: {visibility: public}
variables:
  x: 0
procedures:
  nothing:
    do: PROCEDURE
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
actions:
  wait:
    do: ACTION
  give:
    args: {c: me.hand}
    do:
      - move: {cards: '[c]', from: me.hand, to: pile}
      - call: nothing
      - if: x == 0
        then: THEN
      - choose:
          args: {k: '[1, 2]'}
          do: CHOOSE
flow:
  ends:
    - when: count(current.hand) == 0
  round:
    turn:
      start: START
      steps:
        - {name: go, actions: [wait, give]}
"""
PLACES = ["PROCEDURE", "ACTION", "THEN", "CHOOSE", "START"]


@pytest.mark.parametrize("empty", PLACES)
def test_a_block_with_no_effects_loads_and_plays_the_same_either_way(tmp_path, empty):
    """`do: []` and the like, wherever an author leaves effects out. Each of two once made the ruleset fail to
    load: a procedure with none (its generated function looked for a first effect), and the step's first
    action with none before one with effects (its applier opened the branches with `elif`)."""
    text = EMPTY_BLOCKS
    for place in PLACES:
        text = text.replace(place, "[]" if place == empty else "[{set: {x: 0}}]")
    path = tmp_path / "empty.yaml"
    path.write_text(text)
    fast, slow = load(str(path)), without_after(load(str(path)))
    for seed in (1, 2, 3):
        with_them = played(fast, 2, seed, record=False)
        assert with_them and with_them == played(slow, 2, seed, record=False)
