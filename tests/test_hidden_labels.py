"""Options never name a card their chooser cannot see (issue 29): such a card is told by its place ("card 2
of P2's hand") in labels, prompts and the steps of a long list, and apply takes that label; a card whose
back tells which card it is keeps its label; the log tells the chooser only what it saw; bots tell such
options apart by place; `validate` warns where a label's own text would name a hidden card.

The generic check over every bundled ruleset (permuting what a player cannot see changes none of its
options' labels) is in tests/test_agents_leak.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load, load_text
from interpreter.agents import Request, make_agent
from interpreter.present.log import lines
from interpreter.present.steps import option_parts

HIDDEN = Path(__file__).resolve().parent / "hidden"
GUESS = (HIDDEN / "guess-card.yaml").read_text()


def guess(text: str = GUESS, seed: int = 1) -> Game:
    return Game.new(load_text(text, "guess-card.yaml"), 2, seed=seed)


def hand(game, seat):
    g = game.state
    return [game.rs.card_labels[c] for c in g.zones[game.rs.zone_slot("hand", 2, seat)]]


def test_a_card_the_chooser_cannot_see_is_offered_by_its_place():
    game = guess()
    assert game.decision.options == ("take card 1 of P2's hand", "take card 2 of P2's hand")
    second = hand(game, 1)[1]
    game.apply("take card 2 of P2's hand")
    assert hand(game, 0) == [second]


def test_the_labels_do_not_depend_on_where_the_hidden_cards_lie():
    seen = {guess(seed=s).decision.options for s in range(12)}
    assert len(seen) == 1
    assert len({tuple(hand(guess(seed=s), 1)) for s in range(12)}) > 1   # the hands did differ


def test_the_steps_of_a_long_list_name_places_too():
    assert option_parts(guess(), 0) == [["take card 1 of P2's hand"], ["take card 2 of P2's hand"]]


def taken_to(to: str, zone: str, declared: str) -> str:
    """Guess a hidden card, with the taken card moved `to` a zone (`zone` in P1's terms, declared as
    `declared`) instead of P1's hand."""
    return GUESS.replace("hand: {per_player: true, visibility: owner}",
                         "hand: {per_player: true, visibility: owner}\n  " + declared) \
        .replace("to: me.hand}", f"to: {to}}}").replace("count(players[0].hand) == 1", f"count({zone}) == 1") \
        .replace("first(players[0].hand)", f"first({zone})")


def test_the_chooser_reads_in_the_log_only_what_it_saw():
    # taken face up: everyone sees the card once it lies in P1's open row
    game = guess(taken_to("me.row", "players[0].row", "row: {per_player: true}"))
    game.apply(1)
    card = game.rs.card_labels[game.state.zones[game.rs.zone_slot("row", 2, 0)][0]]
    assert f"turn 1 P1: take {card}" in lines(game, 0)
    # thrown face down: the chooser never saw it, and is told "a card" like the others
    game = guess(taken_to("box", "box", "box: {visibility: hidden}"))
    game.apply(0)
    assert "turn 1 P1: take a card" in lines(game, 0)
    assert not any("blue" in line or "red" in line for line in lines(game, 0))
    assert any("take blue" in line or "take red" in line for line in lines(game, 1))   # P2 held it: told


ALIKE = """
name: alike
players: {min: 2, max: 2}
components:
  coin:
    label: coin
    in: purse
    cards: [{value: 1, count: 3}]
  gem:
    label: "{colour} gem"
    in: purse
    cards: [{colour: red}, {colour: blue}]
zones:
  purse: {visibility: count}
  hand: {per_player: true}
setup:
  - shuffle: purse
actions:
  take:
    args: {c: purse}
    label: "take {c}"
    do:
      - move: {cards: '[c]', from: purse, to: me.hand}
flow:
  ends:
    - when: count(purse) == 0
  round:
    turn:
      steps: [take]
scoring:
  parts: {cards: count(me.hand)}
"""


def test_a_card_whose_back_tells_it_keeps_its_label():
    game = Game.new(load_text(ALIKE, "alike.yaml"), 2, seed=3)
    options = game.decision.options
    places = [i for i, label in enumerate(options) if label.startswith("take card ")]
    assert sorted(label for label in options if not label.startswith("take card ")) == ["take coin"] * 3
    assert [options[i] for i in places] == [f"take card {i + 1} of purse" for i in places]   # the gems


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=30", "mcts:iterations=30:depth=0"])
def test_bots_take_a_hidden_card_by_its_place(spec):
    # in a bot's world the cards really in P2's hand may lie in the deck: the option is the place
    rules = load(str(HIDDEN / "guess-card.yaml"))
    for seed in range(20):
        game = Game.new(rules, 2, seed=seed)
        game.apply(make_agent(spec, seed).choose(Request(game, 0)))
        assert game.is_over


def test_mcts_keys_a_hidden_card_by_its_place():
    game = guess()
    agent = make_agent("mcts:iterations=20:cap=0", 1)   # no CPU cap: a pause of the worker cannot cut it to one
    agent.choose(Request(game, 0))
    slot = game.rs.zone_slot("hand", 2, 1)
    assert sorted(key[3] for key in agent.tree.children) == [((slot, 0),), ((slot, 1),)]


LINT = [
    ("players[1].hand", "take {card.colour}", True),
    ("players[1].hand", "take {card}", False),
    ("me.hand", "play {card.colour}", False),
    ('next(me).hand where colour == \\"red\\"', "take {count(card.colour)}", True),
    ("deck", "draw {card.colour}", True),
    ("pile", "take {card.colour}", False),   # a top zone: its top card shows
    # a call around the zone: the zone it reads says who may see the cards (the chooser's own hand, another's)
    ('groups(me.hand where colour != \\"red\\", colour)', "play {first(card).colour}", False),
    ('sort(next(me).hand where colour != \\"red\\")', "take {card.colour}", True),
    ("groups(players[1].hand, colour)", "take {first(card).colour}", True),
]


@pytest.mark.parametrize("domain, label, warned", LINT)
def test_validate_warns_where_a_label_would_name_a_hidden_card(domain, label, warned):
    text = GUESS.replace("hand: {per_player: true, visibility: owner}",
                         "hand: {per_player: true, visibility: owner}\n  pile: {visibility: top}") \
        .replace("args: {card: 'players[1].hand'}", f'args: {{card: "{domain}"}}') \
        .replace('label: "take {card}"', f'label: "{label}"')
    warnings = [w for w in load_text(text, "guess-card.yaml").warnings if w.code == "hidden-label"]
    assert bool(warnings) == warned
    if warned:
        assert warnings[0].location.source_line.strip() == f'label: "{label}"' and "a card of" in warnings[0].message
