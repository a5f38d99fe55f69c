"""Patterns of expressions that code generation writes in a shorter form (see docs/compile.md): each with its
exact value and the work it pays from the step's budget, which are those of the general form (the figures
were taken from the code before the shorter forms)."""
from __future__ import annotations

import pytest

from interpreter import Game, load_text
from interpreter.codegen import python_source

RULES = load_text("""
name: patterns
players: {min: 2, max: 2}
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
  deck: {}
  pile: {}
  row: {count: 3}
  hand: {per_player: true}
flow:
  round:
    turn:
      steps: [wait]
actions:
  wait: {}
""", "patterns.yaml")

BIG = 10**6


def run(text, xs=None, work=None):
    """(value, work paid) of an expression in a fixed position, or (its error, work paid); with `work`,
    (value or error, work left) when the step had that much work left."""
    g = Game.new(RULES, 2, seed=0)
    z = g.state.zones
    for s in range(len(z)):
        z[s] = []
    z[RULES.zone_slot("deck", 2)] = [0, 1, 2, 3, 5, 4]    # r1 r2 g3 g4 r6 b5
    z[RULES.zone_slot("row", 2, index=0)] = [2, 5]        # g3 r6
    fn = RULES.expression(text, xs="cards") if "xs" in text else RULES.expression(text)
    g.state.work = BIG if work is None else work
    try:
        value = fn(g.state, {"me": 0, "xs": xs}, None)
    except Exception as exc:   # the same error as the general form gives, word for word
        value = f"{type(exc).__name__}: {exc}"
    return (value, BIG - g.state.work) if work is None else (value, g.state.work)


VALUES = [
    ('groups(deck, colour)', [[0, 1, 5], [2, 3], [4]], 6),
    ('groups(pile, colour)', [], 0),
    ('groups(reverse(deck), value)', [[4], [5], [3], [2], [1], [0]], 12),
    ('map(deck, colour)', ['r', 'r', 'g', 'g', 'r', 'b'], 6),
    ('map(pile, value)', [], 0),
    ('take_while(deck, colour == "r")', [0, 1], 6),
    ('take_while(deck, colour != "b")', [0, 1, 2, 3, 5], 6),
    ('take_while(deck, colour != "x")', [0, 1, 2, 3, 5, 4], 6),
    ('drop_while(deck, colour == "r")', [2, 3, 5, 4], 6),
    ('drop_while(deck, colour != "g")', [2, 3, 5, 4], 6),
    ('drop_while(deck, colour == "x")', [0, 1, 2, 3, 5, 4], 6),
    ('take_while(deck, colour == first(row[0]).colour)', [], 6),
    ('drop_while(reverse(deck), colour != last(row[0]).colour)', [5, 3, 2, 1, 0], 12),
    ('take_while(pile, colour == "r")', [], 0),
    ('drop_while(pile, colour != "r")', [], 0),
    ('filter(deck, colour == "r")', [0, 1, 5], 6),
    ('filter(deck, colour != "r")', [2, 3, 4], 6),
    ('filter(deck, colour == first(row[0]).colour)', [2, 3], 6),
    ('distinct(deck.colour)', ['r', 'g', 'b'], 12),
    ('counts(deck.colour)', [3, 2, 1], 12),
    ('count(distinct(deck.colour))', 3, 12),
    # an item of a zone at a place written in the ruleset, and its attributes: read in place, compared with ==
    # where the attribute has no list among its values
    ('deck[0].colour', 'r', 0),
    ('deck[5].value', 5, 0),
    ('deck[2]', 2, 0),
    ('pile[0].colour', 'GameError: [0] is past the end of a list of 0 items', 0),
    ('pile[0]', 'GameError: [0] is past the end of a list of 0 items', 0),
    ('deck[6].value', 'GameError: [6] is past the end of a list of 6 items', 0),
    ('deck[6]', 'GameError: [6] is past the end of a list of 6 items', 0),
    ('me.hand[0].colour', 'GameError: [0] is past the end of a list of 0 items', 0),
    ('deck[0].colour == deck[4].colour', True, 0),
    ('deck[0].colour != deck[2].colour', True, 0),
    ('deck[0] == deck[1]', False, 0),
    ('pile[0].colour == deck[0].colour', 'GameError: [0] is past the end of a list of 0 items', 0),
    ('deck[1].value + deck[5].value', 7, 0),
    # against a number known at load: counted until it is reached (R_distinct_reach), paid in full
    ('count(distinct(deck.colour)) < 2', False, 12),
    ('count(distinct(deck.colour)) >= 3', True, 12),
    ('count(distinct(deck.colour)) > 3', False, 12),
    ('count(distinct(deck.colour)) <= 1', False, 12),
    ('count(distinct(deck.colour)) > 0', True, 12),
    ('count(distinct(deck.value)) >= 6', True, 12),
    ('count(distinct(pile.colour)) < 2', True, 0),
    ('count(distinct(pile.colour)) >= 0', True, 0),
    ('count(distinct(row[0].colour)) < 2', False, 4),
    ('count(distinct(row[0].colour)) <= 2', True, 4),
    ('count(distinct(row[0].value)) > 1', True, 4),
    ('distinct(pile.colour)', [], 0),
    ('counts(row[0].value)', [1, 1], 4),
    ('count(distinct(row[1].colour))', 0, 0),
    ('count(counts(deck.colour) where it >= 2)', 2, 15),
    ('any(deck, colour == "g")', True, 6),
    ('any(deck, colour == "x")', False, 6),
    ('all(deck, colour != "x")', True, 6),
    ('all(deck, colour != "g")', False, 6),
    ('any(deck, colour == first(row[0]).colour)', True, 6),
    ('all(deck, colour != last(row[0]).colour)', False, 6),
    ('any(pile, colour == "r")', False, 0),
    ('all(deck, colour == "r")', False, 6),
    ('all(pile, colour == "r")', True, 0),
    ('all(row[0], colour == "g")', False, 2),
    ('any(deck, colour != "r")', True, 6),
    ('any(deck, colour != "x")', True, 6),
    ('all(deck, colour == first(deck).colour)', False, 6),
    ('any(deck, value != first(deck).value)', True, 6),
    ('range(100001)', 'GameError: range of 100001 numbers is larger than the limit of 100000', 0),
    ('range(3, 100004)', 'GameError: range of 100001 numbers is larger than the limit of 100000', 0),
    ('count(range(100000))', 100000, 100000),
    ('count(range(2, 100002))', 100000, 100000),
    ('count(row)', 3, 0),
    ('range(count(row))', [0, 1, 2], 0),   # a few numbers known at load: a shared constant list
    ('range(2, 5)', [2, 3, 4], 0),
    ('range(65)', list(range(65)), 65),
    ('range(0)', [], 0),
    ('range(5, 2)', [], 0),
    ('[range(3), range(3)]', [[0, 1, 2], [0, 1, 2]], 0),
    # lists of card lists joined: the groups and their cards paid for, as `+` pays for any list
    ('combinations(row[0], 1) + combinations(row[0], 2)', [[2], [5], [2, 5]], 14),
    ('groups(deck, colour) + combinations(row[0], 2)', [[0, 1, 5], [2, 3], [4], [2, 5]], 21),
    ('combinations(pile, 1) + groups(pile, colour)', [], 0),
    ('count(combinations(deck, 3) + combinations(deck, 4))', 35, 310),
]


@pytest.mark.parametrize("text,value,work", VALUES, ids=[v[0] for v in VALUES])
def test_value_and_work(text, value, work):
    assert run(text) == (value, work)


# a local list of cards `xs` given each of these values (a list may hold none: first(empty) is none)
XS = [[], [1], [4, 2, 0], [3], [None, 1], [1, None], 0, 7, "ab"]
NOT_A_LIST = "TypeError: object of type 'int' has no len()"
NOT_AN_INDEX = "TypeError: list indices must be integers or slices, not "
NOT_SUBSCRIPTABLE = "TypeError: 'int' object is not subscriptable"
WITH_XS = [
    ('first(xs).colour', [
        (None, 0), ('r', 0), ('b', 0), ('g', 0), (None, 0), ('r', 0), (None, 0), (NOT_SUBSCRIPTABLE, 0),
        (NOT_AN_INDEX + 'str', 0),
    ]),
    ('last(xs).value', [
        (None, 0), (2, 0), (1, 0), (4, 0), (2, 0), (None, 0), (None, 0), (NOT_SUBSCRIPTABLE, 0),
        (NOT_AN_INDEX + 'str', 0),
    ]),
    ('first(xs).value + last(xs).value', [
        ("GameError: '+' adds numbers or joins two texts or two lists, not none and none", 0), (4, 0), (6, 0),
        (8, 0), ("GameError: '+' adds numbers or joins two texts or two lists, not none and a number", 0),
        ("GameError: '+' adds numbers or joins two texts or two lists, not a number and none", 0),
        ("GameError: '+' adds numbers or joins two texts or two lists, not none and none", 0),
        (NOT_SUBSCRIPTABLE, 0), (NOT_AN_INDEX + 'str', 0),
    ]),
    ('take_while(xs, colour == "r")', [
        ([], 0), ([1], 1), ([], 3), ([], 1), (NOT_AN_INDEX + 'NoneType', 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('drop_while(xs, colour != "g")', [
        ([], 0), ([], 1), ([2, 0], 3), ([3], 1), (NOT_AN_INDEX + 'NoneType', 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('groups(xs, colour)', [
        ([], 0), ([[1]], 1), ([[4], [2], [0]], 3), ([[3]], 1), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_AN_INDEX + 'NoneType', 2), (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('distinct(xs.colour)', [
        ([], 0), (['r'], 2), (['b', 'g', 'r'], 6), (['g'], 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_AN_INDEX + 'NoneType', 2), (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('sum(xs.value)', [
        (0, 0), (2, 2), (9, 6), (4, 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_AN_INDEX + 'NoneType', 2), (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('counts(xs.colour)', [
        ([], 0), ([1], 2), ([1, 1, 1], 6), ([1], 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_AN_INDEX + 'NoneType', 2), (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('count(distinct(xs.colour))', [
        (0, 0), (1, 2), (3, 6), (1, 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_AN_INDEX + 'NoneType', 2), (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    # any stops at the first card that has the value: a later item that is not a card is not looked at
    ('any(xs, colour == "r")', [
        (False, 0), (True, 1), (True, 3), (False, 1), (NOT_AN_INDEX + 'NoneType', 2), (True, 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('all(xs, colour != "r")', [
        (True, 0), (False, 1), (False, 3), (True, 1), (NOT_AN_INDEX + 'NoneType', 2), (False, 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    # all(== ) and any(!=) stop at the first card whose value differs
    ('all(xs, colour == "r")', [
        (True, 0), (True, 1), (False, 3), (False, 1), (NOT_AN_INDEX + 'NoneType', 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('any(xs, colour != "r")', [
        (False, 0), (False, 1), (True, 3), (True, 1), (NOT_AN_INDEX + 'NoneType', 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('all(xs, colour == first(row[0]).colour)', [
        (True, 0), (False, 1), (False, 3), (True, 1), (NOT_AN_INDEX + 'NoneType', 2), (False, 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('any(xs, colour == first(row[0]).colour)', [
        (False, 0), (False, 1), (True, 3), (True, 1), (NOT_AN_INDEX + 'NoneType', 2), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('map(xs, value)', [
        ([], 0), ([2], 1), ([5, 3, 1], 3), ([4], 1), (NOT_AN_INDEX + 'NoneType', 2),
        (NOT_AN_INDEX + 'NoneType', 2), (NOT_A_LIST, 0), (NOT_A_LIST, 0), (NOT_AN_INDEX + 'str', 2),
    ]),
    ('combinations(xs, 1) + combinations(xs, 2)', [
        ([], 0), ([[1]], 4), ([[4], [2], [0], [4, 2], [4, 0], [2, 0]], 30), ([[3]], 4), ([[None], [1], [None, 1]], 14),
        ([[1], [None], [1, None]], 14), (NOT_A_LIST, 0), (NOT_A_LIST, 0), ([['a'], ['b'], ['a', 'b']], 14),
    ]),
]


@pytest.mark.parametrize("text,expected", WITH_XS, ids=[v[0] for v in WITH_XS])
def test_local_list(text, expected):
    assert [run(text, xs) for xs in XS] == expected


# the payments each expression makes, in order: with less work left than they add up to, it stops with the
# budget's error at the first payment past it (the work left shows which one that was)
PAYMENTS = [
    ("distinct(deck.colour)", [6, 6]),
    ("counts(deck.colour)", [6, 6]),
    ("count(distinct(deck.colour))", [6, 6]),
    ("count(distinct(deck.colour)) < 2", [6, 6]),
    ("count(distinct(deck.colour)) >= 3", [6, 6]),
    ("sum(deck.value)", [6, 6]),
    ("groups(deck, colour)", [6]),
    ('take_while(deck, colour != "b")', [6]),
    ("map(deck, value)", [6]),
    ("range(65)", [65]),
    ("combinations(deck, 3) + combinations(deck, 2)", [80, 45, 125]),
]
OVER = ("GameError: this step went through more than 1,000,000 list items without a decision "
        "(see Limits in the language reference)")


@pytest.mark.parametrize("text,payments", PAYMENTS, ids=[p[0] for p in PAYMENTS])
def test_budget_runs_out_where_it_did(text, payments):
    value, _ = run(text)
    for limit in range(sum(payments) + 2):
        paid = 0
        for p in payments:
            paid += p
            if paid > limit:
                expected = (OVER, limit - paid)
                break
        else:
            expected = (value, limit - paid)
        assert run(text, work=limit) == expected, limit


def test_attributes_that_may_be_lists_are_compared_as_lists():
    """A computed attribute may hold lists: compared as lists are (their length paid for); an attribute
    with no list among its values is compared with == (nothing to pay), for the same answers."""
    rules = load_text("""
name: pairs
players: {min: 2, max: 2}
components:
  card:
    in: deck
    computed:
      pair: '[value, value] if value < 3 else value'
    cards:
      - {value: 1}
      - {value: 1}
      - {value: 3}
zones:
  deck: {}
flow:
  round:
    turn:
      steps: [wait]
actions:
  wait: {}
""", "pairs.yaml")
    cases = [("deck[0].pair == deck[1].pair", True, 2), ("deck[0].pair != deck[1].pair", False, 2),
             ("deck[0].pair == deck[2].pair", False, 0), ("deck[0].value == deck[1].value", True, 0),
             ("deck[0].value != deck[2].value", True, 0)]
    for text, value, work in cases:
        g = Game.new(rules, 2, seed=0)
        g.state.zones[rules.zone_slot("deck", 2)] = [0, 1, 2]
        g.state.work = BIG
        assert (rules.expression(text)(g.state, {"me": 0}, None), BIG - g.state.work) == (value, work), text


def test_shorter_forms_are_written():
    """The generated module uses the shorter forms (else the table above tests the general ones)."""
    rules = load_text(RULES_WITH_ACTIONS, "patterns2.yaml")
    source = python_source(rules)
    for form in ("R_zone_groups(", "R_take_while_ne(", "R_drop_while_eq(", "K_range", "if xs and xs[0] is not None",
                 "R_count_distinct_of(", "R_counts_of(", "in map(A_colour_of, ", "R_cartesian(",
                 "g.vars['seen'] = ", "R_all_eq(", "R_any_ne(", "R_join_groups(", "R_distinct_reach(",
                 "(A_colour[g.zones[0][0]] if len(g.zones[0]) > 0 else R_attr1(A_colour, R_item(g.zones[0], 0)))"):
        assert form in source, form
    for general in ("F_groups(", "F_take_while", "F_drop_while", "R_attr1(A_colour, F_first", "F_range(",
                    "R_equal("):
        assert general not in source, general
    assert "len(g.zones[1:4])" not in source   # count(row), a family of three


RULES_WITH_ACTIONS = """
name: patterns2
players: {min: 2, max: 2}
components:
  card:
    in: deck
    cards:
      - {colour: r, count: 3}
      - {colour: g, count: 3}
zones:
  deck: {}
  row: {count: 3}
  hand: {per_player: true}
variables:
  seen: 0
setup:
  - deal: {from: deck, to: hand, count: 3}
flow:
  round:
    turn:
      steps: [play]
actions:
  play:
    args:
      xs: groups(me.hand, colour)
      r: range(count(row))
    do:
      - let:
          c: first(xs).colour
          head: take_while(me.hand, colour != c)
          tail: drop_while(me.hand, colour == c)
          n: count(distinct(me.hand.colour)) + count(counts(me.hand.colour) where it > 1)
          both: any(me.hand, colour == c) and all(me.hand, colour != "x")
          alike: all(me.hand, colour == c) or any(me.hand, colour != "x")
          pairs: count(combinations(me.hand, 1) + combinations(me.hand, 2))
          mixed: count(distinct(row[r].colour)) < 2
          top: deck[0].colour == deck[1].colour
      - set: {seen: n}
      - move: {cards: xs, from: me.hand, to: 'row[r]'}
"""
