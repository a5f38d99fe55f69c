"""Families of zones (numbered, keyed, sized by a parameter or the player count, per player), the
ruleset's own functions, computed card attributes, and a round's first player chosen after its start."""
from __future__ import annotations

import json

import pytest

from interpreter import Game, GameError, RulesetError, load_text
from interpreter.present.log import entries

BASE = """
name: families
players: {min: 2, max: 4}
parameters:
  rows: {value: 2, choices: [1, 2, 3]}
components:
  card:
    label: "{colour} {value}"
    in: deck
    computed:
      points: '3 if value == 1 else value'
      odd: value % 2 == 1
    cards:
      - {each: {colour: [red, blue, green], value: [1, 2, 3, 4, 5]}, count: 2}
zones:
  deck: {visibility: count}
  market: {count: player_count}
  row: {count: rows}
  bins: {keys: [low, high]}
  hand: {per_player: true, visibility: owner}
  stall: {per_player: true, keys: {attribute: colour}, visibility: {owner: cards, others: count}}
  slot: {per_player: true, count: 3}
functions:
  stall_points:
    args: [p, c]
    value: sum(p.stall[c].points)
  total: 'sum(map(distinct(deck.colour), c -> stall_points(me, c)))'
setup:
  - shuffle: deck
  - deal: {from: deck, to: 'stall["red"]', count: 2}
  - deal: {from: deck, to: hand, count: 2}
  - for_each: m
    in: range(count(market))
    do: [{move: {from: deck, to: 'market[m]'}}]
  - move: {from: deck, to: 'me.slot[2]'}
  - move: {from: deck, to: 'bins["high"]'}
SETUP_MORE
actions:
  file:
    args: {card: me.hand}
    label: "file {card} ({card.points} points)"
    do:
      - move: {cards: '[card]', from: me.hand, to: 'me.stall[card.colour]'}
flow:
  round:
    start:
      - log: "round start, me is {me}"
    first_player: 'first(maxima(players, total_of(it)))'
    turn:
      steps: [file]
    ends:
      - when: count(current.hand) == 0
scoring:
  parts:
    stalls: total()
"""
EXTRA_FN = """
  total_of:
    args: [p]
    value: sum(p.hand.points)
"""


def make(more="", players=3, params=None, text=None):
    text = text or BASE.replace("SETUP_MORE", more).replace("  total: 'sum", EXTRA_FN + "  total: 'sum")
    return Game.new(load_text(text, "families.yaml"), players, seed=2, params=params)


def cards(game, zone, owner=None, index=0):
    g = game.state
    return [game.rs.card_labels[c] for c in g.zones[game.rs.zone_slot(zone, g.n, owner, index, g.params)]]


def test_families_are_sized_by_the_player_count_and_by_parameters():
    for players, rows in ((2, 1), (4, 3)):
        game = make(players=players, params={"rows": rows})
        view = game.view(0)["zones"]
        assert len(view["market"]) == players and all(len(z) == 1 for z in view["market"])
        assert len(view["row"]) == rows
        assert game.rs.expression("count(market)")(game.state, {"me": 0}, None) == players


def test_keyed_families_take_their_keys_from_a_list_or_an_attribute():
    game = make()
    view = game.view(0)["zones"]
    assert list(view["bins"]) == ["low", "high"] and len(view["bins"]["high"]) == 1
    assert list(view["stall"]["P1"]) == ["red", "blue", "green"]
    assert [len(game.view(p)["zones"]["stall"][f"P{p + 1}"]["red"]) for p in range(3)] == [2, 2, 2]
    assert view["stall"]["P2"] == {"red": {"count": 2}, "blue": {"count": 0}, "green": {"count": 0}}
    assert [len(z) for z in view["slot"]["P1"]] == [0, 0, 1]


def test_a_card_goes_to_the_member_its_key_names():
    game = make()
    p = game.decision.player
    before = {c: len(cards(game, "stall", p, c)) for c in ("red", "blue", "green")}
    hand = cards(game, "hand", p)
    game.apply(0)
    colour = hand[0].split()[0]
    after = {c: len(cards(game, "stall", p, c)) for c in ("red", "blue", "green")}
    assert after[colour] == before[colour] + 1
    assert sum(after.values()) == sum(before.values()) + 1


@pytest.mark.parametrize("effect,message", [
    ("  - move: {from: deck, to: 'market[9]'}", "market[9] does not exist: market has 3 zones, numbered 0 to 2"),
    ("  - move: {from: deck, to: 'bins[\"mid\"]'}", "bins['mid'] does not exist: the members of bins are low, high"),
    ("  - move: {from: deck, to: 'me.stall[\"gold\"]'}",
     "stall['gold'] does not exist: the members of stall are red, blue, green"),
    # a key held by a variable (looked up in place when it is one of the keys), of each kind that is not one
    *[(f"  - for_each: k\n    in: '[\"red\", {key}]'\n    do: [{{move: {{from: deck, to: 'me.stall[k]'}}}}]",
       f"stall[{shown}] does not exist: the members of stall are red, blue, green")
      for key, shown in (('\"gold\"', "'gold'"), ("1", "1"), ("true", "True"), ("[1]", "[1]"), ("none", "None"))],
    ("  - let: {k: '\"mid\"'}\n  - move: {from: deck, to: 'bins[k]'}",
     "bins['mid'] does not exist: the members of bins are low, high"),
])
def test_a_member_that_does_not_exist_stops_the_game_with_its_name(effect, message):
    with pytest.raises(GameError) as info:
        make(effect)
    assert message in str(info.value) and "families.yaml:" in str(info.value)


@pytest.mark.parametrize("old,new,message", [
    ("  row: {count: rows}", "  row: {count: rowz}", "families.yaml:18:16: error[unknown-name]: unknown parameter 'rowz'"),
    ("keys: {attribute: colour}", "keys: {attribute: color}", "error[unknown-name]: unknown card attribute 'color'"),
    ("  bins: {keys: [low, high]}", "  bins: {keys: [low, low]}", "error[zone]: the keys of a family must be different"),
    ("  bins: {keys: [low, high]}", "  bins: {keys: [low], count: 2}", "a family has either a count or keys, not both"),
    ("  - move: {from: deck, to: 'me.slot[2]'}", "  - move: {from: deck, to: 'me.slot'}",
     "'slot' is a family of zones of each player: say which one, as in 'me.slot[...]'"),
    ("to: 'stall[\"red\"]', count: 2", "to: stall, count: 2",
     "'stall' is a family of zones of each player: say which one, as in 'stall[...]'"),
])
def test_family_mistakes_are_located(old, new, message):
    text = BASE.replace("SETUP_MORE", "").replace("  total: 'sum", EXTRA_FN + "  total: 'sum")
    assert old in text
    with pytest.raises(RulesetError) as info:
        load_text(text.replace(old, new), "families.yaml")
    assert message in str(info.value)


def test_a_parameter_that_sizes_a_family_must_be_a_small_whole_number():
    text = BASE.replace("SETUP_MORE", "").replace("  total: 'sum", EXTRA_FN + "  total: 'sum").replace(
        "rows: {value: 2, choices: [1, 2, 3]}", "rows: 2")
    rules = load_text(text, "families.yaml")
    with pytest.raises(GameError) as info:
        Game.new(rules, 2, params={"rows": 0})
    assert str(info.value) == ("zone family 'row' takes its size from 'rows', which is 0 here: "
                               "it must be a whole number from 1 to 1000")


def test_saves_and_clones_keep_the_layout():
    game = make(params={"rows": 3}, players=4)
    back = Game.from_json(game.rs, json.loads(json.dumps(game.to_json())))
    assert back.view(0) == game.view(0)
    clone = game.clone()
    clone.apply(0)
    game.apply(0)
    assert clone.view(1) == game.view(1)


# functions ---------------------------------------------------------------------------------------

def test_functions_compute_where_expressions_are():
    game = make()
    total = game.rs.expression("total()")
    for p in range(3):
        mine = sum(game.rs.cards[c]["points"] for c in
                   sum((game.state.zones[game.rs.zone_slot("stall", 3, p, k)] for k in ("red", "blue", "green")), []))
        assert total(game.state, {"me": game.state.players[p]}, None) == mine


@pytest.mark.parametrize("old,new,message", [
    ("    value: sum(p.hand.points)", "    value: sum(p.hand.points) + total_of(p)",
     "function 'total_of' calls itself (total_of -> total_of): a function cannot be recursive"),
    ("    value: sum(p.stall[c].points)", "    value: sum(p.stall[c].points) + total()",
     "function 'stall_points' calls itself (stall_points -> total -> stall_points)"),
    ("  total: 'sum", "  count: 'sum", "'count' is a built-in function; choose another name"),
    ("    value: sum(p.hand.points)", "    value: sum(p.hand.pointz)", "unknown attribute 'pointz'"),
    ("    stalls: total()", "    stalls: total(me)", "total() takes 0 arguments, got 1"),
])
def test_function_mistakes_are_located(old, new, message):
    text = BASE.replace("SETUP_MORE", "").replace("  total: 'sum", EXTRA_FN + "  total: 'sum")
    assert old in text
    with pytest.raises(RulesetError) as info:
        load_text(text.replace(old, new), "families.yaml")
    assert message in str(info.value) and "families.yaml:" in str(info.value)


def test_a_function_checks_kinds_where_it_is_called():
    text = BASE.replace("SETUP_MORE", "").replace("  total: 'sum", EXTRA_FN + "  total: 'sum").replace(
        "    stalls: total()", "    stalls: total_of(first(deck))")
    with pytest.raises(RulesetError) as info:
        load_text(text, "families.yaml")
    assert "in function 'total_of': 'hand' is a zone of each player, but this is a card" in str(info.value)


# computed attributes -----------------------------------------------------------------------------

def test_computed_attributes_are_worked_out_once_per_card():
    rules = make().rs
    assert [(c["value"], c["points"], c["odd"]) for c in rules.cards[:10:2]] == \
        [(1, 3, True), (2, 2, False), (3, 3, True), (4, 4, False), (5, 5, True)]
    assert rules.card_attrs["points"][:10:2] == [3, 2, 3, 4, 5]


@pytest.mark.parametrize("expr,message", [
    ("value + hand_size", "'hand_size' is not an attribute of the card: a computed attribute may use the card's own"),
    ("count(deck)", "'deck' is not an attribute of the card"),
    ("next(value)", "next() cannot be used in a computed attribute (it needs the game)"),
    ("value / 0", "cannot compute 'points' for the card"),
])
def test_computed_attributes_use_the_card_only(expr, message):
    text = BASE.replace("SETUP_MORE", "").replace("  total: 'sum", EXTRA_FN + "  total: 'sum").replace(
        "points: '3 if value == 1 else value'", f"points: '{expr}'")
    with pytest.raises(RulesetError) as info:
        load_text(text, "families.yaml")
    assert message in str(info.value)


# a round's first player -----------------------------------------------------------------------

def test_the_first_player_of_a_round_is_chosen_after_its_start_effects():
    game = make()
    rules, g = game.rs, game.state
    best = max(range(3), key=lambda p: (sum(rules.cards[c]["points"] for c in g.zones[rules.zone_slot("hand", 3, p)]), -p))
    assert game.decision.player == best
    log = entries(Game.new(rules, 3, seed=2, record=True))
    assert log[:2] == ["round start, me is P1", f"round 1: P{best + 1} starts"]


def test_lint_knows_functions_and_card_variables():
    text = BASE.replace("SETUP_MORE", "").replace("  total: 'sum", EXTRA_FN + "  spare: 1\n  total: 'sum").replace(
        "functions:", "card_variables:\n  mark: 0\nfunctions:")
    warnings = [w.message for w in load_text(text, "families.yaml").warnings]
    # `stalls: total()` reads zones through the function: it is not a constant score
    assert warnings == ["zone 'row' is never used", "variable 'mark' is never used", "function 'spare' is never called"]
