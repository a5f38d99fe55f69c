"""A zone's list is never changed in place (runtime/effects.py): every write stores a new list in the zone's
slot, so that a clone (a bot's trial) shares its zones' lists with its original, and a list read from a zone
stays what it was. Checked at every decision of seeded games: every shipped ruleset, the language's patterns
and the hidden-information games, and a ruleset whose actions make every kind of write (counted moves from
either end to either end, given cards few and many, all the cards, refills, deals, shuffles, sorts), each
played recorded (the runtime's moves) and not (the moves written inline by generated code)."""
from __future__ import annotations

import json
import random

import pytest

from helpers import hidden_games, shipped_rulesets
from interpreter import Game, load, load_text
from interpreter.runtime.budget import MAX_STEP_ITEMS

EVERY_WRITE = """\
name: every-write
players: {min: 2, max: 3}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {colour: red, value: 1, count: 6}
      - {colour: blue, value: 2, count: 6}
      - {colour: green, value: 3, count: 6}
zones:
  deck: {refill_from: pile}
  pile: {}
  row: {}
  hand: {per_player: true}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
actions:
  play:
    args: {c: me.hand}
    do: [{move: {cards: '[c]', from: me.hand, to: pile, at: top}}]
  draw:
    do: [{move: {from: deck, to: me.hand, count: 2}}]
  bury:
    do: [{move: {from: deck, to: pile, count: 2, take: bottom, at: top}}]
  spread:
    when: count(me.hand) > 0
    do: [{move: {cards: 'me.hand where value >= 1', from: me.hand, to: row, at: left}}]
  gather:
    when: count(row) > 0
    do:
      - move: {from: row, to: me.hand, count: all}
      - sort: {zone: me.hand, by: value, descending: true}
  stir:
    do:
      - shuffle: pile
      - deal: {from: deck, to: hand, count: 1, players: 'others(me)'}
flow:
  round: {turn: {steps: [{actions: [play, draw, bury, spread, gather, stir]}]}}
limits: {turns: 120}
"""


def _rulesets():
    out = [pytest.param(load(str(path)), id=path.stem) for path in shipped_rulesets() + hidden_games()]
    return out + [pytest.param(load_text(EVERY_WRITE, "every-write.yaml"), id="every-write")]


def _unchanged(before) -> bool:
    return all(tuple(zone) == cards for zone, cards in before)


@pytest.mark.parametrize("record", [False, True], ids=["generated", "recorded"])
@pytest.mark.parametrize("rules", _rulesets())
def test_no_zone_list_changes_in_place_and_a_clone_shares_them(rules, record):
    players = rules.min_players
    for seed in range(2):
        game = Game.new(rules, players, seed=seed, record=record)
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            g = game.state
            before = [(zone, tuple(zone)) for zone in g.zones]
            twin = game.clone()
            assert all(a is b for a, b in zip(twin.state.zones, g.zones))   # shared, not copied
            saved = json.dumps(twin.to_json(), sort_keys=True)
            game.apply(rng.randrange(game.option_count()))
            assert _unchanged(before), f"a zone's list changed in place at turn {g.turn}"
            assert json.dumps(twin.to_json(), sort_keys=True) == saved   # the clone saw nothing of it


def test_the_every_write_ruleset_makes_every_kind_of_write():
    """Else the test above checks less than it says: each action is taken, and the deck is refilled."""
    rules = load_text(EVERY_WRITE, "every-write.yaml")
    taken, refilled = set(), False
    for seed in range(2):
        game = Game.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            labels = game.decision.options
            i = rng.randrange(game.option_count())
            taken.add(labels[i].split()[0])
            pile = len(game.state.zones[rules.zone_slot("pile", 2)])
            game.apply(i)
            refilled |= pile > 0 and len(game.state.zones[rules.zone_slot("pile", 2)]) == 0
    assert taken == {"play", "draw", "bury", "spread", "gather", "stir"} and refilled


CHURN = """\
name: churn
players: {min: 2, max: 2}
components:
  card:
    label: "c {value}"
    in: deck
    cards:
      - {value: 1, count: 150}
      - {value: 2, count: 50}
zones:
  deck: {}
  pile: {}
  hand: {per_player: true}
actions:
  churn:
    do:
      - for_each: i
        in: range(7)
        do:
          - move: {from: deck, to: pile, count: 1, take: bottom}
          - move: {from: deck, to: pile, count: 3, at: top}
          - move: {from: pile, to: deck, count: 2, at: bottom}
          - move: {cards: 'take(deck where value == 2, 2)', from: deck, to: me.hand}
          - move: {from: me.hand, to: deck, count: all, at: top}
          - move: {from: pile, to: deck, count: all}
flow:
  round: {turn: {steps: [churn]}}
limits: {turns: 6}
"""


def test_a_zones_new_list_past_64_cards_is_paid_for_alike_inline_and_by_the_runtime():
    """Each write of a zone of more than 64 cards pays the new list's length (runtime/effects.py, FREE_COPY): the
    moves generated code writes inline (record=False) and those the runtime makes (record=True) leave the
    same work after every step, and it is less than a step starts with."""
    rules = load_text(CHURN, "churn.yaml")
    left = []
    for record in (False, True):
        game = Game.new(rules, 2, seed=1, record=record)
        trail = []
        for _ in range(4):
            game.apply(0)
            trail.append(game.state.work)
        left.append(trail)
    assert left[0] == left[1] and all(w < MAX_STEP_ITEMS - 7 * 200 for w in left[0])
