"""The expression language as tables: each expression with its exact value, or its exact error."""
from __future__ import annotations

import pytest

from interpreter import Game, load_text
from interpreter.expr.compiler import ExprError

RULES = load_text("""
name: exprtest
players: {min: 3, max: 3}
parameters:
  goal: 7
  table: {3: 11}
components:
  card:
    label: "{colour}{value}"
    in: deck
    cards:
      - {colour: r, value: 1}
      - {colour: r, value: 2}
      - {colour: g, value: 3}
      - {colour: g, value: 4}
      - {colour: b, value: 5}
      - {colour: r, value: 6}
zones:
  deck: {visibility: hidden}
  pile: {}
  row: {count: 2}
  hand: {per_player: true, visibility: owner}
variables:
  flag: true
  word: hello
player_variables:
  score: 0
flow:
  round:
    turn:
      steps: [wait]
actions:
  wait: {}
""", "exprtest.yaml")


def game():
    g = Game.new(RULES, 3, seed=0)
    z = g.state.zones
    for s in range(len(z)):
        z[s] = []
    slot = RULES.zone_slot
    z[slot("deck", 3)] = [0, 1, 2]          # r1 r2 g3
    z[slot("row", 3, index=0)] = [3, 4]      # g4 b5
    z[slot("row", 3, index=1)] = [5]         # r6
    g.state.pvars["score"] = [5, 9, 9]
    g.state.current = 1
    return g


VALUES = [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 / 2", 3),
    ("-7 / 2", -4),
    ("7 % 3", 1),
    ("-(2 - 5)", 3),
    ("1 < 2 and 2 < 3", True),
    ("1 > 2 or not false", True),
    ("3 in [1, 2, 3]", True),
    ("4 not in [1, 2, 3]", True),
    ('"a" if 1 == 1 else "b"', "a"),
    ("goal", 7),
    ("table", 11),
    ("flag", True),
    ("word", "hello"),
    ("player_count", 3),
    ("players", [0, 1, 2]),
    ("current", 1),
    ("me", 0),
    ("count(deck)", 3),
    ("deck.colour", ["r", "r", "g"]),
    ("deck.value", [1, 2, 3]),
    ("sum(deck.value)", 6),
    ("min(deck.value)", 1),
    ("max(deck.value)", 3),
    ("max([])", 0),
    ("count(deck where colour == \"r\")", 2),
    ("count(deck where colour != \"r\")", 1),
    ("deck where value >= 2", [1, 2]),
    ("distinct(deck.colour)", ["r", "g"]),
    ("counts(deck.colour)", [2, 1]),
    ("counts([1, 1, 2, 1])", [3, 1]),
    ("first(deck)", 0),
    ("last(deck)", 2),
    ("first(pile)", None),
    ("first(pile).value", None),
    ("first(deck).colour", "r"),
    ("take(deck, 2)", [0, 1]),
    ("drop(deck, 2)", [2]),
    ("take(deck, -1)", []),
    ("reverse(deck)", [2, 1, 0]),
    ("sort([3, 1, 2])", [1, 2, 3]),
    ("index_of(deck.colour, \"g\")", 2),
    ("index_of(deck.colour, \"b\")", -1),
    ("range(3)", [0, 1, 2]),
    ("range(1, 3)", [1, 2]),
    ("take_while(deck, colour == \"r\")", [0, 1]),
    ("drop_while(deck, colour == \"r\")", [2]),
    ("take_while(reverse(deck), colour != \"r\")", [2]),
    ("any(deck, value > 2)", True),
    ("all(deck, value > 2)", False),
    ("map(deck, value * 10)", [10, 20, 30]),
    ("groups(deck, colour)", [[0, 1], [2]]),
    ("maxima(players, it.score)", [1, 2]),
    ("minima(players, it.score)", [0]),
    ("map(players, it.score)", [5, 9, 9]),
    ("players.score", [5, 9, 9]),
    ("me.score + current.score", 14),
    ("next(me)", 1),
    ("next(2)", 0),
    ("next(me, 2)", 2),
    ("previous(me)", 2),
    ("others(1)", [2, 0]),
    ("row[0]", [3, 4]),
    ("count(row[1])", 1),
    ("count(row)", 2),
    ("row[0].colour", ["g", "b"]),
    ("count(counts(deck.colour) where it >= 2)", 1),
    ("[1, 2] + [3]", [1, 2, 3]),
    ("abs(2 - 5)", 3),
    ("\"x\" == 'x'", True),
]


@pytest.mark.parametrize("text,expected", VALUES, ids=[v[0] for v in VALUES])
def test_value(text, expected):
    g = game()
    fn = RULES.expression(text)
    assert fn(g.state, {"me": 0}, None) == expected


ERRORS = [
    # text, code, message, column inside the expression (0-based)
    ("1 +", "expr-syntax", "the expression ends too early", 3),
    ("1 + * 2", "expr-syntax", "unexpected '*'", 4),
    ("a @ b", "expr-syntax", "unexpected character '@'", 2),
    ("gaol + 1", "unknown-name", "unknown name 'gaol'", 0),
    ("count(hand)", "unknown-name", "'hand' is a zone of each player: say whose, as in 'me.hand' or 'current.hand'", 6),
    ("score", "unknown-name", "'score' is a variable of each player: say whose, as in 'me.score' "
     "(or 'it.score' inside 'where')", 0),
    ("colour", "unknown-name", "'colour' is a card attribute: use it inside 'where' (as in 'me.hand where colour == ...') "
     "or after a card (as in 'first(deck).colour')", 0),
    ("me.hnd", "unknown-name", "unknown attribute 'hnd'", 3),
    ("cnt(deck)", "unknown-function", "unknown function 'cnt'", 0),
    ("count(deck, 2)", "arity", "count() takes 1 argument, got 2", 0),
    ("range()", "arity", "range() takes 1 to 2 arguments, got 0", 0),
    ("it", "unknown-name", "'it' is only defined inside 'where' or a per-item function argument", 0),
    ("me.colour", "type", "'colour' is a card attribute, but this is a player", 3),
    ("count", "unknown-name", "'count' is a function: call it as count(...)", 0),
    ("99999999999999", "number-too-large", "number too large", 0),
    ("x" * 2001, "expr-too-long", "expression is longer than 2000 characters", 0),
    ("-" * 50 + "1", "expr-too-deep", "expression nests deeper than 40 levels", 0),
    ("1 + 2 where it > 0", "type", "'where' filters a list, but this is a number, not a list", 12),
    ("deck.value.colour", "type", "'colour' is a card attribute, but these are already attribute values, not cards", 11),
]


@pytest.mark.parametrize("text,code,message,column", ERRORS, ids=[e[0][:30] for e in ERRORS])
def test_error(text, code, message, column):
    with pytest.raises(ExprError) as info:
        RULES.expression(text)
    assert (info.value.code, info.value.message, info.value.offset) == (code, message, column)


def test_did_you_mean_on_unknown_names():
    with pytest.raises(ExprError) as info:
        RULES.expression("count(dek)")
    assert info.value.hint == "did you mean 'deck'?"


def test_no_python_reachable():
    for text in ["__import__('os')", "deck.__class__", "().__class__", "open('x')", "eval('1')",
                 "deck.append(1)", "[x for x in deck]", "lambda: 1"]:
        with pytest.raises(ExprError):
            RULES.expression(text)
