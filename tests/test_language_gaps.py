"""What authors of real card games met (issue 28), each with its exact expectation."""
from __future__ import annotations

from interpreter import Game, load_text
from interpreter.present.narrate import story

LEADER = """
name: leader
players: {min: 2, max: 3}
components:
  card:
    label: "c{value}"
    in: deck
    cards:
      - {value: 1, count: 6}
zones:
  deck: {}
variables:
  leader: 0
  rounds_led: 0
  best: 0
player_variables:
  partner: 0
flow:
  ends:
    - when: rounds_led >= 3
      winners: '[leader]'
  round:
    turn:
      steps: [lead]
actions:
  lead:
    do:
      - set: {leader: me, me.partner: next(me), best: count(deck)}
      - add: {rounds_led: 1}
"""


def test_a_variable_only_ever_set_to_a_player_shows_a_player_from_the_start():
    game = Game.new(load_text(LEADER, "leader.yaml"), 2, seed=0)
    view = game.view(1)
    # leader and partner are only set to players: seat 0 is P1 from the start; the others stay numbers
    assert view["vars"] == {"leader": "P1", "rounds_led": 0, "best": 0}
    assert view["player_vars"] == {"partner": {"P1": "P1", "P2": "P1"}}
    game.apply(0)
    assert game.view(1)["vars"]["leader"] == "P1" and game.view(1)["player_vars"]["partner"]["P1"] == "P2"


GIVE = """
name: give
players: {min: 2, max: 2}
components:
  card:
    label: "c{value}"
    in: deck
    cards:
      - {value: 1, count: 8}
zones:
  deck: {}
  hand: {per_player: true, visibility: owner}
setup:
  - deal: {from: deck, to: hand, count: 3}
flow:
  round:
    turn:
      steps: [give]
actions:
  give:
    args:
      who: others(me)
      cards: {pick: me.hand, min: 1, max: 2}
    label: "give {count(cards)} cards to {who}"
    do:
      - move: {cards: cards, from: me.hand, to: who.hand}
"""


def test_a_label_counting_a_subset_not_picked_yet_says_how_many_it_will_hold():
    game = Game.new(load_text(GIVE, "give.yaml"), 2, seed=0)
    assert game.decision.options == ("give 1 to 2 cards to P2",)
    game.apply(0)
    assert game.decision.prompt == "give 1 to 2 cards to P2: pick 1 to 2 cards (0 picked)"
    game.apply(0)
    game.apply(0)   # two picked: the subset is complete and the action is taken
    assert any("give 2 cards to P2" in line for line in story(game, 0))
