"""Decisions asked again (issue 28): `again` on a step and on a `choose`, the turn's `anytime` actions, and
who wins a reaction window (`priority`). Exact option lists, the limits, and the refusals."""
from __future__ import annotations

import pytest

from interpreter import Game, GameError, RulesetError, load_text

BASE = """
name: shop
players: {min: 2, max: 2}
components:
  coin:
    label: "coin {value}"
    in: bank
    cards:
      - {value: 1, count: 3}
      - {value: 2, count: 3}
zones:
  bank: {visibility: public}
  purse: {per_player: true, visibility: public}
player_variables:
  crops: 0
  points: 0
actions:
  buy:
    args: {c: 'distinct(bank.value)'}
    if: count(me.purse) < 3
    label: "buy {c}"
    do:
      - move: {cards: '[first(bank where value == c)]', from: bank, to: me.purse}
  plant:
    label: plant
    do:
      - add: {me.crops: 1}
  harvest:
    when: me.crops > 0
    label: harvest
    do:
      - add: {me.points: me.crops}
      - set: {me.crops: 0}
flow:
  ends:
    - when: count(bank) == 0
  round:
    turn:
      steps: STEPS
scoring:
  parts: {points: me.points}
"""


def game(steps: str, extra: str = "", players: int = 2) -> Game:
    text = BASE.replace("STEPS", steps) + extra
    return Game.new(load_text(text, "shop.yaml"), players, seed=1)


def test_a_step_with_again_is_offered_until_the_player_passes():
    g = game("[{name: buy, actions: [buy], again: true}, plant]")
    assert g.decision.options == ("buy 1", "buy 2", "pass")   # again makes the step optional
    g.apply("buy 1")
    assert g.decision.options == ("buy 1", "buy 2", "pass")   # the same player, the same step, options anew
    g.apply("buy 2")
    g.apply("pass")
    assert g.decision.options == ("plant",) and g.state.current == 0
    assert g.view(0)["zones"]["purse"]["P1"] == ["coin 1", "coin 2"]


def test_again_ends_when_the_step_offers_nothing_more():
    g = game("[{name: buy, actions: [buy], again: true}, plant]")
    for _ in range(3):
        g.apply(0)                        # buy 1 three times: the purse is full
    assert g.decision.options == ("plant",)


def test_again_n_offers_the_step_at_most_n_times():
    g = game("[{name: buy, actions: [buy], again: 2}, plant]")
    g.apply("buy 1")
    assert g.decision.options == ("buy 1", "buy 2", "pass")
    g.apply("buy 2")
    assert g.decision.options == ("plant",)


def test_again_with_optional_false_offers_until_nothing_is_left():
    g = game("[{name: buy, actions: [buy], again: true, optional: false}, plant]")
    assert g.decision.options == ("buy 1", "buy 2")
    for _ in range(3):
        g.apply(0)
    assert g.decision.options == ("plant",)


# a game with one card, that its actions never move: only their variables change
ONE_CHIP = """components:
  chip:
    in: pile
    cards:
      - {count: 1}
zones:
  pile: {}
"""

NEVER_PASS = """
name: forever
players: {min: 2, max: 2}
""" + ONE_CHIP + """variables:
  n: 0
actions:
  tick:
    label: tick
    do:
      - add: {n: 1}
flow:
  round:
    turn:
      steps: [{actions: [tick], again: true}]
"""


def test_a_step_offered_again_a_thousand_times_without_a_pass_ends_the_game_stalled():
    g = Game.new(load_text(NEVER_PASS, "forever.yaml"), 2, seed=0)
    for _ in range(1000):
        assert g.state.result is None and g.decision.options == ("tick", "pass")
        g.apply("tick")
    assert g.state.result["stalled"] is True and g.state.vars["n"] == 1000
    assert "asked again 1000 times" in g.state.result["reason"]


def test_a_choose_with_again_asks_again_and_keeps_its_values_for_its_do():
    extra = """
  sell:
    label: sell
    do:
      - choose:
          prompt: sell a coin
          again: 2
          args: {c: me.purse}
          label: "sell {c}"
          do:
            - move: {cards: '[c]', from: me.purse, to: bank}
            - add: {me.points: c.value}
"""
    text = BASE.replace("STEPS", "[{actions: [buy], again: 3, optional: false}, sell]").replace(
        "\nflow:", extra + "flow:", 1)
    g = Game.new(load_text(text, "shop.yaml"), 2, seed=1)
    for choice in ("buy 1", "buy 2", "buy 2", "sell"):
        g.apply(choice)
    assert g.decision.options == ("sell coin 1", "sell coin 2", "sell coin 2", "pass")
    g.apply("sell coin 2")
    assert g.decision.options == ("sell coin 1", "sell coin 2", "pass")
    g.apply("sell coin 1")                       # the second and last time
    assert g.state.current == 1 and g.state.pvars["points"][0] == 3


def test_anytime_actions_are_offered_beside_each_step_and_do_not_use_it_up():
    g = game("[plant, {name: buy, actions: [buy]}]", "")
    text = BASE.replace("STEPS", "[plant, {name: buy, actions: [buy]}]").replace(
        "      steps:", "      anytime: [harvest]\n      steps:")
    g = Game.new(load_text(text, "shop.yaml"), 2, seed=1)
    assert g.decision.options == ("plant",)          # no crops yet: nothing to harvest
    g.apply("plant")
    assert g.decision.options == ("buy 1", "buy 2", "harvest")
    g.apply("harvest")                               # the step is still to be decided
    assert g.decision.options == ("buy 1", "buy 2") and g.state.pvars["points"][0] == 1
    g.apply("buy 1")
    assert g.state.current == 1


def test_anytime_is_not_offered_where_the_step_itself_offers_nothing():
    text = BASE.replace("STEPS", "[plant, {name: buy, actions: [buy], if: turn > 100}, plant]").replace(
        "      steps:", "      anytime: [harvest]\n      steps:")
    g = Game.new(load_text(text, "shop.yaml"), 2, seed=1)
    g.apply("plant")
    # the buy step is skipped (its `if` is false) although a harvest is possible; the next step offers it
    assert g.decision.options == ("plant", "harvest")


def test_a_game_asked_again_saves_and_clones_where_it_stands():
    g = game("[{name: buy, actions: [buy], again: 3}, plant]")
    g.apply("buy 1")
    restored = Game.from_json(g.rs, g.to_json())
    twin = g.clone()
    for other in (restored, twin):
        assert other.decision.options == g.decision.options
        other.apply("buy 2")
        other.apply("buy 2")                     # the third and last time
        assert other.decision.options == ("plant",)


WINDOW = """
name: race
players: {min: 4, max: 4}
""" + ONE_CHIP + """player_variables:
  wins: 0
actions:
  open:
    label: open
    do:
      - react: {actions: [claim], PRIORITY}
  claim:
    label: claim
    do:
      - add: {me.wins: 1}
flow:
  ends:
    - when: turn >= 200
  round:
    turn:
      steps: [open]
"""


@pytest.mark.parametrize("priority, expected", [("priority: seat", {1}), ("priority: random", {1, 2, 3})])
def test_priority_says_who_of_those_who_reacted_is_applied(priority, expected):
    g = Game.new(load_text(WINDOW.replace("PRIORITY", priority), "race.yaml"), 4, seed=3)
    winners = set()
    while g.state.result is None and len(winners) < 3 and g.state.turn < 60:
        if g.state.current == 0 and g.decision.options == ("open",):
            before = list(g.state.pvars["wins"])
            g.apply("open")
            for _ in range(3):
                g.apply("claim")               # all three others claim at once
            after = g.state.pvars["wins"]
            winners |= {i for i in range(4) if after[i] != before[i]}
        else:
            g.apply(0)                         # another seat opens: the others pass or claim
            while g.decision is not None and g.state.current != 0 and "pass" in g.decision.options:
                g.apply("pass")
    assert winners == expected


def test_a_random_priority_is_the_same_in_a_replay():
    rs = load_text(WINDOW.replace("PRIORITY", "priority: random"), "race.yaml")
    g = Game.new(rs, 4, seed=5)
    for _ in range(40):
        g.apply(0 if g.decision.options[0] != "pass" else len(g.decision.options) - 1)
    again = Game.new(rs, 4, seed=5)
    for i in g.state.history:
        again.apply(i)
    assert again.state.pvars["wins"] == g.state.pvars["wins"] and sum(g.state.pvars["wins"]) >= 5
    assert Game.from_json(rs, g.to_json()).state.pvars["wins"] == g.state.pvars["wins"]


@pytest.mark.parametrize("steps, extra, message", [
    ("[{actions: [buy], players: players, again: true}]", "",
     "again is for one chooser"),
    ("[{actions: [buy], again: 'me'}]", "",
     "again is true (until the chooser passes) or the most times"),
    ("[{actions: [buy], until: all, priority: random, players: players}]", "",
     "priority says who of those who acted is applied in a reaction window: it needs until: first"),
    ("[{actions: [buy], until: first, priority: fastest, players: players}]", "",
     "priority is seat (the first who acted, in seat order from me) or random"),
])
def test_what_is_refused(steps, extra, message):
    with pytest.raises(RulesetError) as err:
        game(steps, extra)
    assert message in str(err.value)


def test_an_unknown_anytime_action_is_named_with_a_hint():
    text = BASE.replace("STEPS", "[plant]").replace("      steps:", "      anytime: [harvst]\n      steps:")
    with pytest.raises(RulesetError) as err:
        load_text(text, "shop.yaml")
    assert "unknown action 'harvst'" in str(err.value) and "harvest" in str(err.value)


def test_an_action_at_any_time_does_not_use_up_a_step_offered_n_times():
    text = BASE.replace("STEPS", "[plant, plant, {name: buy, actions: [buy], again: 2}, plant]").replace(
        "      steps:", "      anytime: [harvest]\n      steps:")
    g = Game.new(load_text(text, "shop.yaml"), 2, seed=1)
    g.apply("plant")
    g.apply("plant")
    assert g.decision.options == ("buy 1", "buy 2", "harvest", "pass")
    g.apply("harvest")
    g.apply("buy 1")
    assert g.decision.options == ("buy 1", "buy 2", "pass")   # the second of two buys is still to come
    g.apply("buy 2")
    assert g.decision.options == ("plant",)


def test_actions_at_any_time_taken_a_thousand_times_at_one_decision_end_the_game_stalled():
    text = NEVER_PASS.replace("      steps: [{actions: [tick], again: true}]",
                              "      anytime: [tick]\n      steps: [{actions: [wait]}]").replace(
        "actions:\n", "actions:\n  wait:\n    label: wait\n    do: []\n")
    g = Game.new(load_text(text, "forever.yaml"), 2, seed=0)
    for _ in range(1000):
        assert g.state.result is None and g.decision.options == ("wait", "tick")
        g.apply("tick")
    assert g.state.result["stalled"] is True and g.state.vars["n"] == 1000


def test_again_may_be_given_by_a_variable():
    text = BASE.replace("STEPS", "[{name: buy, actions: [buy], again: me.buys}, plant]").replace(
        "  points: 0\n", "  points: 0\n  buys: 1\n", 1)
    g = Game.new(load_text(text, "shop.yaml"), 2, seed=1)
    g.apply("buy 1")
    assert g.decision.options == ("plant",)      # me.buys is 1: one buy
