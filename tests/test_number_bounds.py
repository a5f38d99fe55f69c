"""Arithmetic the compiler proves stays within the cap of numbers (expr/compiler.bound) is written without
the check; everything else keeps it, and a number past the cap still stops the game in the same words."""
from __future__ import annotations

import pytest

from helpers import rules
from interpreter.errors import GameError
from interpreter.expr.compiler import COUNT_MAX, bound
from interpreter.expr.parser import parse
from interpreter.runtime.budget import MAX_NUMBER

BOUNDS = [
    ("3 + 4", 7),
    ("-3 - 4", 7),
    ("count(deck) * 10", COUNT_MAX * 10),
    ("count(deck) * count(discard) * count(deck)", COUNT_MAX ** 3),
    ("(count(deck) if count(deck) > 2 else 5) + 1", COUNT_MAX + 1),
    ("count(deck) / 3", COUNT_MAX),
    ("7 % count(deck)", COUNT_MAX),
    ("count(deck) + hand_size", None),          # a parameter: --param may make it any size
    ("took + 1", None),                          # a variable: set may make it any size
    ("first(deck).small + 1", None),             # an attribute
    ("sum([1, 2]) + 1", None),
]


@pytest.mark.parametrize("text,expected", BOUNDS)
def test_what_the_compiler_proves_of_a_number(text, expected):
    assert bound(parse(text)) == expected


CHECKED = [
    # (expression, whether the generated code checks the cap)
    ("count(deck) * 10 + 3", False),
    ("count(deck) * count(discard) * count(deck) * count(discard)", True),   # 10^20 could pass 10^18
    ("took + 1", True),
    ("count(deck) - took", True),
    ("2 * hand_size", True),
]


@pytest.mark.parametrize("text,checked", CHECKED)
def test_only_numbers_that_may_grow_past_the_cap_are_checked(text, checked):
    source = rules("cubirds").expression(text).source
    # the inline check, or the helpers that check (for operands of kinds not known to be numbers)
    assert any(word in source for word in ("R_MAX", "R_times", "R_plus", "R_minus")) == checked


def test_a_number_past_the_cap_still_stops_the_step():
    from interpreter import Game
    cubirds = rules("cubirds")
    game = Game.new(cubirds, 2, seed=0)
    fn = cubirds.expression("1000000000000 * 1000000000000")    # literals: the product is 10^24
    assert bound(fn.tree) > MAX_NUMBER
    with pytest.raises(GameError, match="a number grew past"):
        fn(game.state, {"me": 0}, None)
    assert cubirds.expression("count(deck) * 1000000000000")(game.state, {"me": 0}, None) == \
        len(game.state.zones[cubirds.zone_slot("deck", 2)]) * 10 ** 12


KINDS = """\
name: kinds
players: {min: 2, max: 2}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 4}
zones:
  deck: {}
variables: {total: 0, options: [5, 6]}
actions:
  pick:
    args:
      k: range(1, 4)
      n: '[count(deck), 2]'
      m: options
    if: k + n - m > -3
    label: "{k} {n} {m}"
    do:
      - set: {total: 'total + k * n - m'}
flow:
  ends:
    - when: total > 30
      reason: done
  round:
    turn:
      steps: [pick]
"""


def test_an_argument_chosen_from_whole_numbers_is_a_number():
    """An argument chosen from a range or a list of numbers is known to be a number: arithmetic on it is
    checked inline against the cap, without the call that checks kinds; one chosen from a variable's list is
    not known, and keeps the call. The game plays as before (the values below)."""
    from interpreter import Game, load_text
    kinds = load_text(KINDS, "kinds.yaml")
    assert kinds.actions["pick"].kinds == ("int", "int", "any")
    source = kinds.generated.source
    assert "(_v5 := k + n) <= R_MAX" in source and "R_minus(_h3, m)" in source and "R_plus(g, k" not in source
    game = Game.new(kinds, 2, seed=0)
    # k + n - m > -3 leaves out 1 + 2 - 6 alone
    assert game.decision.options == ("1 4 5", "1 4 6", "1 2 5", "2 4 5", "2 4 6", "2 2 5", "2 2 6",
                                     "3 4 5", "3 4 6", "3 2 5", "3 2 6")
    for choice in ("3 4 5", "2 2 6", "3 4 6", "3 4 5", "3 4 5"):
        game.apply(choice)
    assert game.state.vars["total"] == 7 - 2 + 6 + 7 + 7 and game.result is None
    game.apply("3 4 5")
    assert game.result["reason"] == "done"


def test_a_number_argument_used_as_a_card_is_refused_at_load():
    from interpreter import load_text
    from interpreter.errors import RulesetError
    with pytest.raises(RulesetError) as info:
        load_text(KINDS.replace('label: "{k} {n} {m}"', 'label: "{k.value} {n} {m}"'), "kinds.yaml")
    assert "kinds.yaml:18:16: error[type]: 'value' is a card attribute, but this is a number" in str(info.value)


def test_the_items_of_a_range_are_numbers():
    """The item of a `for_each` over a range, `it` in a `where` over one and the item of a `map` are numbers:
    arithmetic on them is checked inline."""
    from interpreter import Game, load_text
    text = KINDS.replace("""      - set: {total: 'total + k * n - m'}""", """      - set: {total: 'total + k * n - m'}
      - for_each: i
        in: range(3)
        do:
          - set: {total: 'total + (i + 1)'}
      - set: {total: 'total + count(range(5) where it + 1 > 2) + sum(map(range(3), j -> j + k))'}""")
    kinds = load_text(text, "kinds.yaml")
    source = kinds.generated.source
    import re
    for inline in (r":= i \+ 1\)", r":= _x\d+ \+ 1\)", r":= _x\d+ \+ k\)"):   # i + 1, it + 1, j + k
        assert re.search(inline, source), inline
    assert "R_plus(g, i" not in source and "R_plus(g, _x" not in source
    game = Game.new(kinds, 2, seed=0)
    game.apply("2 4 5")
    # 2 * 4 - 5 = 3; then 1 + 2 + 3 = 6; then 3 (2, 3, 4 of 0..4) + (2 + 3 + 4) = 12
    assert game.state.vars["total"] == 3 + 6 + 12
