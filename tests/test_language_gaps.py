"""What authors of real card games met (issue 28), each with its exact expectation."""
from __future__ import annotations

from interpreter import Game, load_text

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
