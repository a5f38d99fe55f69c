"""The `sort` effect: a zone's cards in order of a value of each card, stably, either way; its errors told at
the effect, and refused when written wrong."""
from __future__ import annotations

import pytest

from interpreter import Game, GameError, RulesetError, load_text

SORTED = """\
name: sorted
players: {min: 2, max: 2}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {colour: red, value: 3}
      - {colour: blue, value: 1}
      - {colour: red, value: 2}
      - {colour: green, value: 3}
      - {colour: blue, value: 2}
      - {colour: red, value: 1}
zones:
  deck: {}
  hand: {per_player: true}
setup:
  - move: {from: deck, to: 'players[0].hand', count: all}
  - SORT
actions:
  wait: {}
flow:
  round: {turn: {steps: [wait]}}
"""
HAND = ["red 3", "blue 1", "red 2", "green 3", "blue 2", "red 1"]   # as the file lists them


def hand_after(sort: str) -> list:
    rules = load_text(SORTED.replace("SORT", sort), "sorted.yaml")
    return Game.new(rules, 2, seed=1).view(0)["zones"]["hand"]["P1"]


@pytest.mark.parametrize("sort, expected", [
    ("sort: {zone: 'players[0].hand', by: value}", ["blue 1", "red 1", "red 2", "blue 2", "red 3", "green 3"]),
    ("sort: {zone: 'players[0].hand', by: value, descending: true}",
     ["red 3", "green 3", "red 2", "blue 2", "blue 1", "red 1"]),   # equal values keep their order either way
    ("sort: {zone: 'players[0].hand', by: colour}", ["blue 1", "blue 2", "green 3", "red 3", "red 2", "red 1"]),
    ("sort: {zone: 'players[0].hand', by: 0}", HAND),                   # all equal: nothing moves
    ("sort: {zone: 'players[0].hand', by: 'it.value * 10 + (3 if colour == \"red\" else 0)'}",
     ["blue 1", "red 1", "blue 2", "red 2", "green 3", "red 3"]),     # an expression of the card as `it`
    ("sort: {zone: deck, by: value}", HAND),                          # an empty zone
])
def test_a_zone_is_put_in_order_of_a_value_of_each_card(sort, expected):
    assert hand_after(sort) == expected


def test_values_of_different_kinds_stop_the_game_at_the_sort():
    text = SORTED.replace("SORT", "sort: {zone: 'players[0].hand', by: 'value if value > 2 else colour'}")
    line = text.splitlines().index("  - sort: {zone: 'players[0].hand', by: 'value if value > 2 else colour'}") + 1
    with pytest.raises(GameError) as info:
        Game.new(load_text(text, "sorted.yaml"), 2, seed=1)
    assert str(info.value) == (f"sorted.yaml:{line}:5: ruleset error in 'sort': '<' compares two numbers or "
                               "two texts, not a text and a number")


@pytest.mark.parametrize("sort, message", [
    ("sort: {zone: 'players[0].hand'}", "missing 'by'"),
    ("sort: {zone: 'players[0].hand', by: value, order: up}", "unknown field 'order'"),
    ("sort: {zone: hand, by: value}", "'hand' is a zone of each player: say whose, as in 'me.hand'"),
    ("sort: {zone: 'players[0].hand', by: colr}", "unknown name 'colr'"),
    ("sort: {zone: 'players[0].hand', by: 'random(range(3))'}", "random() and sample() draw from the game's generator"),
])
def test_a_sort_written_wrong_is_refused_when_the_ruleset_loads(sort, message):
    with pytest.raises(RulesetError) as info:
        load_text(SORTED.replace("SORT", sort), "sorted.yaml")
    assert message in str(info.value)
