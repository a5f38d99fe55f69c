"""The turn's transition in generated code (interpreter/codegen/turns.py): from the end of one turn's steps to
the next turn's first decision, it plays, saves and fails exactly as the VM does node by node."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, GameError, load_text
from test_codegen import unprepared

TURNS = """\
name: turns
players: {min: 2, max: 3}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 5}
      - {value: 2, count: 5}
      - {value: 3, count: 5}
zones:
  deck: {visibility: count}
  hand: {per_player: true}
  pile: {}
variables: {x: 0, seen: 0}
actions:
  take:
    args: {card: deck}
    if: card.value != 3 or x > 2
    do:
      - move: {cards: card, from: deck, to: me.hand}
  drop:
    args: {card: me.hand}
    do:
      - move: {cards: card, from: me.hand, to: pile}
      - set: {x: 'x + card.value'}
  stop:
    when: x > 4
    do: [end_turn]
flow:
  ends:
    - when: ENDS
      reason: the pile is full
  round:
    ends:
      - when: count(deck) < 3
        reason: the deck is low
    end:
      - move: {from: pile, to: deck, count: all}
      - shuffle: deck
    turn:
      next_player: NEXT
      start:
        - set: {seen: START}
      steps:
        - {name: taking, actions: [take], if: 'WHEN'}
        - {name: dropping, actions: [drop, stop], optional: true}
      end:
        - set: {x: END}
limits:
  turns: 40
"""

PLAIN = {"ENDS": "count(pile) >= 9", "NEXT": "next(current)", "START": "'seen + 1'", "WHEN": "turn % 3 != 0",
         "END": "'x + 1'"}


def ruleset(**parts):
    text = TURNS
    for k, v in {**PLAIN, **parts}.items():
        text = text.replace(k, v)
    return text


def both(text):
    fast = load_text(text, "turns.yaml")
    slow = unprepared(load_text(text, "turns.yaml"))
    return fast, slow


def played(rules, players, seed, steps=120):
    """The game after random choices, or the error it stopped at, with the choices that led there."""
    try:
        game = Game.new(rules, players, seed=seed)
    except GameError as exc:   # before the first decision
        return str(exc), []
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        i = rng.randrange(game.option_count())
        try:
            game.apply(i)
        except GameError as exc:
            return str(exc), game.state.history + [i]
    return game


@pytest.mark.parametrize("parts", [
    {},
    {"NEXT": "previous(current)", "WHEN": "count(me.hand) < 4"},
    {"WHEN": "false"},                      # a step never offered: the next one asks
    {"ENDS": "x > 12"},                     # the game ends at an end check after a turn
    {"END": "'x + 2'", "START": "'seen + turn'"},
])
def test_turns_play_saved_and_listed_exactly_as_the_vm_plays_them(parts):
    fast, slow = both(ruleset(**parts))
    for players in (2, 3):
        for seed in (1, 2):
            a, b = played(fast, players, seed), played(slow, players, seed)
            assert not isinstance(a, tuple), a
            assert a.to_json() == b.to_json()   # frames, positions, environments, log, history
            assert a.decisions() == b.decisions()
            assert a.result == b.result
    assert fast.nodes[fast.turn_loop_node].fused is not None and fast.nodes[fast.steps_node].fused is not None


def test_a_game_saved_mid_turn_by_the_vm_goes_on_alike_with_generated_turns():
    fast, slow = both(ruleset())
    game = played(slow, 3, 4, 25)
    back = Game.from_json(fast, game.to_json())
    rng = random.Random(7)
    for _ in range(80):
        if game.is_over:
            break
        i = rng.randrange(game.option_count())
        game.apply(i)
        back.apply(i)
        assert back.to_json() == game.to_json()


def line_of(text, needle):
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("parts, needle", [
    # each fails at the end of turn 2 or at the start of turn 3, where generated code runs the turn
    ({"NEXT": "players[turn * 5]"}, "next_player"),                     # the next player
    ({"START": "'seen + 10 / (turn - 3)'"}, "set: {seen:"),            # a turn's start effect
    ({"END": "'x + 10 / (turn - 2)'"}, "set: {x: 'x + 10"),            # a turn's end effect
    ({"WHEN": "10 / (turn - 3) > 1"}, "name: taking"),                 # a step's condition
    ({"ENDS": "10 / (turn - 2) > 1"}, "next_player"),                  # an end check (told at the turn map)
])
def test_an_error_in_the_turns_transition_is_told_where_the_vm_tells_it(parts, needle):
    text = ruleset(**parts)
    fast, slow = both(text)
    a, b = played(fast, 2, 1), played(slow, 2, 1)
    assert type(a) is tuple and a == b   # the error, and the choices that led to it
    assert a[0].startswith(f"turns.yaml:{line_of(text, needle)}:"), a[0]
    assert "division by zero" in a[0] or "past the end of a list" in a[0]


def test_turns_where_nobody_is_asked_are_stopped_by_the_budget_alike():
    text = ruleset(WHEN="false", END="x").replace("actions: [drop, stop], optional: true", "actions: [stop]")
    text = text.replace("turns: 40", "turns: 1000000")
    fast, slow = both(text)
    errors = []
    for rules in (fast, slow):
        with pytest.raises(GameError) as info:
            Game.new(rules, 2, seed=1)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert "more than 1,000,000 effects ran in one step" in errors[0]


def test_the_turn_limit_stalls_the_game_alike():
    text = ruleset(ENDS="false").replace("turns: 40", "turns: 5")
    fast, slow = both(text)
    a, b = played(fast, 2, 3), played(slow, 2, 3)
    assert a.result == b.result and a.result["stalled"] and a.result["turns"] == 5
    assert a.to_json() == b.to_json()
