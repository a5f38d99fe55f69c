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
