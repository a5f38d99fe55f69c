"""Choosing several items (subset arguments picked one at a time) and reactions out of turn."""
from __future__ import annotations

import json
import random

import pytest

from interpreter import Game, RulesetError, load_text
from interpreter.present.log import entries
from interpreter.agents import GreedyAgent, RandomAgent, play

PICKS = """
name: picks
players: {min: 2, max: 3}
parameters: {pass_count: 3}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {each: {colour: [red, blue], value: [1, 2, 5]}, count: 2}
zones:
  deck: {}
  hand: {per_player: true, visibility: owner}
  pile: {}
setup:
  - move: {cards: 'deck where colour == "red" and value <= 2', from: deck, to: me.hand}
  - move: {cards: 'take(deck where value == 5, 1)', from: deck, to: me.hand}
  - move: {cards: 'deck where colour == "blue" and value == 1', from: deck, to: next(me).hand}
actions:
  give:
    args:
      to: others(me)
      cards: {pick: me.hand, count: pass_count}
    if: sum(cards.value) >= 7
    label: "pass {cards} to {to}"
    do:
      - move: {cards: cards, from: me.hand, to: to.hand}
  dump:
    args:
      cards: {pick: me.hand, min: 1, max: 2}
    if: 'all(cards, colour == "red") and sum(cards.value) >= 2'
    label: "dump {cards}"
    do:
      - move: {cards: cards, from: me.hand, to: pile}
flow:
  round:
    turn:
      steps: [{name: act, actions: [give, dump]}]
  ends:
    - when: turn >= 6
scoring:
  parts:
    left: -count(me.hand)
"""


def new(text=PICKS, players=2, seed=1):
    return Game.new(load_text(text, "picks.yaml"), players, seed=seed)


def hand(game, p):
    return [game.rs.card_labels[c] for c in game.state.zones[game.rs.zone_slot("hand", game.state.n, p)]]


def test_an_option_names_how_many_items_are_still_to_pick():
    game = new()
    assert hand(game, 0) == ["red 1", "red 1", "red 2", "red 2", "red 5"]
    assert game.decision.options == ("pass 3 cards to P2", "dump 1 to 2 cards")


def test_each_pick_offers_only_items_that_can_still_make_a_legal_subset():
    game = new()
    game.apply("pass 3 cards to P2")
    d = game.decision
    assert d.prompt == "pass 3 cards to P2: pick 3 cards (0 picked)"
    assert d.options == ("red 1", "red 1", "red 2", "red 2", "red 5")
    game.apply("red 1")
    game.apply(0)                      # the other red 1: only the 5 completes 7
    d = game.decision
    assert d.prompt == "pass 3 cards to P2: pick 3 cards (2 picked; so far: red 1, red 1)"
    assert d.options == ("red 5",)
    game.apply("red 5")
    assert game.decision.player == 1 and hand(game, 1)[-3:] == ["red 1", "red 1", "red 5"]


def test_done_is_offered_once_the_subset_may_stop():
    game = new()
    game.apply("dump 1 to 2 cards")
    assert game.decision.options == ("red 1", "red 1", "red 2", "red 2", "red 5")
    game.apply("red 1")                # 1 alone is too little: no 'done' yet
    assert game.decision.options == ("red 1", "red 2", "red 2", "red 5")
    game = new()
    game.apply("dump 1 to 2 cards")
    game.apply("red 2")
    assert game.decision.options == ("red 1", "red 1", "red 2", "red 5", "done")
    game.apply("done")
    pile = game.state.zones[game.rs.zone_slot("pile", 2)]
    assert [game.rs.card_labels[c] for c in pile] == ["red 2"]


def test_a_complete_option_is_logged_once_and_replays_from_its_decisions():
    game = new()
    for choice in ("pass 3 cards to P2", "red 2", "red 5", "red 1"):
        game.apply(choice)
    log = entries(Game.replay(game.rs, 2, 1, game.state.history))
    assert [line for line in log if "pass" in line] == ["turn 1 P1: pass red 1, red 2, red 5 to P2"]
    assert len(game.state.history) == 4


def test_a_game_saved_or_cloned_in_the_middle_of_picking_goes_on_the_same():
    game = new()
    game.apply("pass 3 cards to P2")
    game.apply("red 2")
    back = Game.from_json(game.rs, json.loads(json.dumps(game.to_json())))
    clone = game.clone()
    assert back.decision == game.decision == clone.decision
    for g in (game, back, clone):
        g.apply("red 5")
        g.apply(0)
    assert back.to_json() == game.to_json() == clone.to_json()


def test_an_action_whose_items_cannot_be_picked_legally_is_not_offered():
    text = PICKS.replace("if: sum(cards.value) >= 7", "if: sum(cards.value) >= 20")
    assert new(text).decision.options == ("dump 1 to 2 cards",)
    text = PICKS.replace("parameters: {pass_count: 3}", "parameters: {pass_count: 9}")
    assert new(text).decision.options == ("dump 1 to 2 cards",)


@pytest.mark.parametrize("old,new_text,message", [
    ("      to: others(me)\n      cards: {pick: me.hand, count: pass_count}",
     "      cards: {pick: me.hand, count: pass_count}\n      to: others(me)",
     "'to' comes after a subset argument: subsets ({pick: ...}) are picked last"),
    ("{pick: me.hand, count: pass_count}", "{pick: 3, count: pass_count}", "pick chooses items of a list, but this is a number"),
    ("{pick: me.hand, min: 1, max: 2}", "{pick: me.hand, min: 1, count: 2}", "give either count or min and max"),
    ("{pick: me.hand, min: 1, max: 2}", "{pick: me.hand, least: 1}", "unknown subset field 'least'"),
    ("{pick: me.hand, min: 1, max: 2}", "{from: me.hand}", "unknown subset field 'from'"),
])
def test_subset_mistakes_are_located(old, new_text, message):
    assert old in PICKS
    with pytest.raises(RulesetError) as info:
        load_text(PICKS.replace(old, new_text), "picks.yaml")
    assert message in str(info.value) and "picks.yaml:" in str(info.value)


def test_bots_play_games_with_subsets_to_the_end():
    rules = load_text(PICKS, "picks.yaml")
    for seed in range(4):
        for agents in ([RandomAgent(seed), RandomAgent(seed + 9)], [GreedyAgent(seed), RandomAgent(seed)]):
            game = Game.new(rules, 2, seed=seed)
            play(game, agents)
            assert game.is_over


# reactions ------------------------------------------------------------------------------------------

REACT = """
name: reactions
players: {min: 3, max: 4}
components:
  card:
    label: "{value}"
    in: deck
    cards:
      - {value: 1, count: 30}
zones:
  deck: {}
  pile: {}
player_variables:
  points: 0
actions:
  play:
    do:
      - move: {from: deck, to: pile}
      - react: {actions: [snap, shout], prompt: "snap?", UNTIL}
  snap:
    do: [{add: {me.points: 1}}]
  shout:
    label: shout
    do: [{add: {me.points: 10}}]
flow:
  round:
    turn:
      steps: [play]
  ends:
    - when: turn >= 3
scoring:
  parts:
    points: me.points
"""


def react_game(until="until: first", players=3):
    return Game.new(load_text(REACT.replace("UNTIL", until), "react.yaml"), players, seed=1, record=True)


def test_a_reaction_window_asks_everyone_else_at_once_and_applies_the_first_in_seat_order():
    game = react_game(players=4)
    game.apply("play")                       # P1 plays: P2, P3, P4 may react
    assert game.decision.prompt == "snap?" and game.decision.options == ("snap", "shout", "pass")
    assert [d.player for d in game.decisions()] == [1, 2, 3]
    game.apply("pass")                       # P2
    game.apply("shout")                      # P3
    game.apply("snap")                       # P4
    assert game.state.pvars["points"] == [0, 0, 10, 0]
    assert entries(game)[-1] == "P3 reacts first: shout"
    assert [e for e in entries(game) if type(e) is list] == [
        [[1], "turn 1 P2: pass (snap?)"], [[2], "turn 1 P3: shout"], [[3], "turn 1 P4: snap"]]


def test_priority_goes_round_the_table_from_the_player_who_opened_the_window():
    game = react_game()
    game.apply("play")
    for choice in ("pass", "pass"):
        game.apply(choice)                   # turn 1: nobody reacts
    assert game.state.pvars["points"] == [0, 0, 0]
    game.apply("play")                       # P2 plays: P3 then P1 have priority
    game.apply("snap")                       # P3
    game.apply("shout")                      # P1
    assert game.state.pvars["points"] == [0, 0, 1]


def test_until_all_applies_every_reaction():
    game = react_game("until: all")
    game.apply("play")
    game.apply("snap")
    game.apply("shout")
    assert game.state.pvars["points"] == [0, 1, 10]


def test_a_step_can_be_a_reaction_window():
    text = REACT.replace("UNTIL", "until: first").replace(
        "      steps: [play]",
        "      steps:\n        - play\n        - {name: 'snap?', players: others(current), actions: [snap], optional: true,"
        " until: first}").replace("      - react: {actions: [snap, shout], prompt: \"snap?\", until: first}\n", "")
    game = Game.new(load_text(text, "react.yaml"), 3, seed=1)
    game.apply("play")
    game.apply("snap")      # P2
    game.apply("snap")      # P3
    assert game.state.pvars["points"] == [0, 1, 0]


def test_until_first_needs_several_players():
    text = REACT.replace("UNTIL", "until: first").replace("      steps: [play]",
                                                          "      steps: [{actions: [play], until: first}]")
    with pytest.raises(RulesetError) as info:
        load_text(text, "react.yaml")
    assert "until: first needs several players choosing at once ('players')" in str(info.value)


def test_reactions_are_replayable_and_bots_finish():
    rules = load_text(REACT.replace("UNTIL", "until: first"), "react.yaml")
    for seed in range(3):
        game = Game.new(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.randrange(game.option_count()))
        again = Game.replay(rules, 4, seed, game.state.history)
        assert again.to_json() == game.to_json()


@pytest.mark.parametrize("when,same", [("", True), ("\n    when: count(pile) > 1", True),
                                       ("\n    when: me.points < 1", False)])
def test_a_window_whose_options_read_no_chooser_is_listed_once_for_all(when, same):
    """A reaction window's listing that reads nothing of its chooser (`me`) gives every chooser the same options:
    it is made once per window (before the choosers, which are needed only when it offers something), every
    chooser still asked with them; a listing that reads `me` is made for each chooser, and one with nothing to
    offer them is not asked."""
    rules = load_text(REACT.replace("UNTIL", "until: all").replace("  snap:", "  snap:" + when), "react.yaml")
    window = next(n for n in rules.nodes if getattr(n, "text", "") == "react")
    assert window.same_options is same
    calls = []
    listed = window.listed
    window.listed = lambda g, e, p: calls.append(p) or listed(g, e, p)
    try:
        game = Game.new(rules, 4, seed=1)
        game.apply("play")                   # P1 plays: P2, P3, P4 may react
        asked = [d.player for d in game.decisions()]
        if same:
            assert calls == [None] and asked == [1, 2, 3]   # listed before the choosers are made, for none of them
            offered = ("shout", "pass") if "pile" in when else ("snap", "shout", "pass")   # one card on the pile
            assert [d.options for d in game.decisions()] == [offered] * 3
        else:
            assert calls == [1, 2, 3] and asked == [1, 2, 3]
            game.apply("snap")                   # P2 snaps
            game.apply("pass")
            game.apply("pass")
            game.apply("play")                   # P2 plays: P3, P4 and P1 may react; P2 is not a chooser
            assert [d.player for d in game.decisions()] == [2, 3, 0]
            assert game.decision.options == ("snap", "shout", "pass")
    finally:
        window.listed = listed
