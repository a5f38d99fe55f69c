"""Illegal choices are explained: the condition that failed, with its values; the game is unchanged."""
from __future__ import annotations

import json

import pytest

from interpreter import Game, IllegalChoice
from helpers import place, rules


def fly_step_game():
    game = Game.new(rules("cubirds"), 2, seed=5)
    p = game.current_player
    place(game, "hand", ["owl", "owl", "owl", "parrot", "parrot", "robin"], owner=p)
    place(game, "row", ["robin", "duck", "toucan"], index=0)
    game.reconsider()
    game.apply("lay 1 robin in row 1 on the left")
    game.apply("pass")
    assert game.decision.options == ("fly a flock of 3 owl", "pass")
    return game


def refusal(game, label):
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalChoice) as info:
        game.apply(label)
    assert json.dumps(game.to_json(), sort_keys=True) == before
    return str(info.value)


def test_a_failed_if_names_the_condition_and_its_values():
    message = refusal(fly_step_game(), "fly a flock of 2 parrot")
    assert ("'fly a flock of 2 parrot' is not a legal option - fly: `count(flock) >= first(flock).small` "
            "is false (count(flock) = 2, first(flock).small = 4)") in message
    assert message.endswith("the options are: fly a flock of 3 owl; pass")


def test_an_action_that_is_not_offered_says_what_is():
    game = Game.new(rules("cubirds"), 2, seed=5)
    message = refusal(game, "draw 2 cards")
    assert f"draw is not offered now: P{game.current_player + 1} is to choose 'lay birds' (lay)" in message


def test_a_value_outside_an_argument_domain_lists_the_domain():
    game = Game.new(rules("cubirds"), 2, seed=5)
    p = game.current_player
    place(game, "hand", ["parrot", "parrot", "duck"], owner=p)
    game.reconsider()
    message = refusal(game, "lay 1 owl in row 1 on the left")
    assert "lay: birds from `groups(me.hand, species)` is one of: [parrot, parrot], [duck]" in message


def test_when_on_a_step_of_a_simultaneous_game():
    game = Game.new(rules("pit"), 3, seed=3)
    message = refusal(game, "withdraw your offer")
    assert "withdraw: `count(me.offer) > 0` is false (count(me.offer) = 0)" in message
