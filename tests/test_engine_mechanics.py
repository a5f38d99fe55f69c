"""Engine mechanics on small rulesets: decisions inside effects and for other players, end_turn, loops,
procedures, deal and refill, visibility, runtime errors that leave the game unchanged."""
from __future__ import annotations

import pytest

from interpreter import Game, GameError, load_text
from interpreter.present.log import entries

BASE = """
name: mechanics
players: {min: 2, max: 3}
components:
  token:
    label: "{colour}{value}"
    in: deck
    cards:
      - {colour: r, value: 1, count: 3}
      - {colour: b, value: 2, count: 3}
      - {colour: g, value: 3, count: 2}
zones:
  deck: {visibility: hidden, refill_from: pile}
  pile: {visibility: top}
  hand: {per_player: true, visibility: owner}
variables:
  passes: 0
player_variables:
  points: 0
procedures:
  give:
    args: [who, n]
    do:
      - add: {who.points: n}
setup:
  - deal: {from: deck, to: hand, count: 2}
actions:
  steal:
    args: {victim: others(me)}
    if: count(victim.hand) > 0
    label: "steal from {victim}"
    do:
      - choose:
          player: victim
          prompt: give a card
          args: {card: victim.hand}
          label: "give {card}"
          do:
            - move: {cards: '[card]', from: victim.hand, to: me.hand}
            - call: give
              with: {who: victim, n: 1}
      - log: "{me} now holds {count(me.hand)} cards"
  skip:
    do:
      - add: {passes: 1}
      - end_turn
      - add: {passes: 100}
  bonus:
    do:
      - add: {me.points: 10}
flow:
  ends:
    - when: passes >= 3
      reason: three passes
  round:
    turn:
      steps:
        - {name: act, actions: [steal, skip]}
        - {name: bonus, actions: [bonus], optional: true}
scoring:
  parts:
    points: me.points
"""


def load(text=BASE):
    return load_text(text, "mechanics.yaml")


def test_a_decision_inside_an_effect_goes_to_another_player():
    game = Game.new(load(), 2, seed=1)
    assert game.decision.player == 0
    assert game.decision.options == ("steal from P2", "skip")
    game.apply("steal from P2")
    d = game.decision
    assert d.player == 1 and d.prompt == "give a card"
    victim_hand = [game.rs.card_labels[c] for c in game.state.zones[game.rs.zone_slot("hand", 2, 1)]]
    assert d.options == tuple(f"give {label}" for label in victim_hand)
    game.apply(0)
    assert game.state.pvars["points"] == [0, 1]
    assert len(game.state.zones[game.rs.zone_slot("hand", 2, 0)]) == 3
    assert entries(game)[-1] == "P1 now holds 3 cards"
    # back to the current player's optional step
    assert game.decision.player == 0 and game.decision.options == ("bonus", "pass")


def test_end_turn_skips_the_rest_of_the_action_and_the_later_steps():
    game = Game.new(load(), 2, seed=1)
    game.apply("skip")
    assert game.state.vars["passes"] == 1
    assert game.decision.player == 1 and game.decision.prompt == "act"


def test_end_condition_winners_default_to_scoring():
    game = Game.new(load(), 3, seed=1)
    game.apply("steal from P2")
    game.apply(0)
    game.apply("bonus")          # P1: 10 points
    for _ in range(3):
        game.apply("skip")
    assert game.is_over and game.result["reason"] == "three passes"
    assert game.result["winners"] == [0]
    assert [row["points"] for row in game.result["scores"]] == [10, 1, 0]


def test_loop_bound_ends_the_game_as_a_stalled_draw():
    text = BASE.replace("      - add: {me.points: 10}", "      - while: true\n        max: 3\n        do: [{add: {me.points: 1}}]")
    game = Game.new(load(text), 2, seed=1)
    game.apply("skip")
    game.apply("skip")
    game.apply("steal from P2")
    game.apply(0)
    game.apply("bonus")
    assert game.is_over and game.result["stalled"]
    assert game.result["winners"] == []
    assert "loop ran 3 times" in game.result["reason"]


def test_deal_refills_the_deck_from_its_refill_zone():
    text = BASE.replace("  - deal: {from: deck, to: hand, count: 2}",
                        "  - move: {from: deck, to: pile, count: 7}\n  - deal: {from: deck, to: hand, count: 2}")
    game = Game.new(load(text), 2, seed=3)
    sizes = [len(z) for z in game.state.zones]
    deck, pile = game.rs.zone_slot("deck", 2), game.rs.zone_slot("pile", 2)
    # 8 cards: 7 to the pile, 1 left; dealing 4 needs the pile shuffled back in
    assert sizes[deck] + sizes[pile] == 4
    assert sizes[pile] == 0


def test_top_visibility_shows_only_the_first_card():
    text = BASE.replace("  - deal: {from: deck, to: hand, count: 2}",
                        "  - move: {from: deck, to: pile, count: 3}\n  - deal: {from: deck, to: hand, count: 2}")
    game = Game.new(load(text), 2, seed=3)
    view = game.view(0)
    pile = game.state.zones[game.rs.zone_slot("pile", 2)]
    assert view["zones"]["pile"] == {"count": 3, "top": [game.rs.card_labels[pile[0]]]}
    assert view["zones"]["deck"] == {"hidden": True}
    assert isinstance(view["zones"]["hand"]["P1"], list) and view["zones"]["hand"]["P2"] == {"count": 2}


def test_runtime_error_in_an_effect_names_its_place_and_leaves_the_game_unchanged():
    text = BASE.replace("      - add: {me.points: 10}", "      - add: {me.points: 10 / (passes - passes)}")
    game = Game.new(load(text), 2, seed=1)
    game.apply("steal from P2")
    game.apply(0)
    before = game.to_json()
    with pytest.raises(GameError) as info:
        game.apply("bonus")
    assert "mechanics.yaml:" in str(info.value) and "division" in str(info.value)
    assert game.to_json() == before


def test_player_count_outside_the_range_is_refused():
    with pytest.raises(GameError, match="for 2 to 3 players, not 4"):
        Game.new(load(), 4)


def test_parameter_table_by_player_count():
    text = BASE.replace("components:", "parameters:\n  deal_n: {2: 3, 3: 1}\ncomponents:").replace(
        "count: 2}\nactions", "count: deal_n}\nactions")
    for players, size in ((2, 3), (3, 1)):
        game = Game.new(load(text), players, seed=0)
        assert len(game.state.zones[game.rs.zone_slot("hand", players, 0)]) == size


def test_end_turn_outside_a_turns_steps_is_an_error_with_its_line():
    text = BASE.replace("setup:\n  - deal:", "setup:\n  - end_turn\n  - deal:")
    with pytest.raises(GameError) as info:
        Game.new(load(text), 2, seed=1)
    line = text.splitlines().index("  - end_turn") + 1
    assert str(info.value) == (f"mechanics.yaml:{line}:5: end_turn is only possible during a turn's steps "
                               "(in actions and what they call) (it was used outside)")
