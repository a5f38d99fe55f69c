"""The items offered at each pick of a subset argument (engine/choices.py, pick_options): the shortcut for the
last subset without a final condition must offer exactly what asking `completable` item by item offers."""
from __future__ import annotations

import itertools
import random

import pytest

from interpreter.engine.choices import Choice, Subset


def _const(value):
    return lambda g, env, it: value


def _choice(domain, lo, hi, final):
    sub = Subset("s", _const(domain), _const(lo), _const(hi), "items")
    return Choice("c", (), (), None, None, subsets=(sub,), final=final)


ALWAYS = lambda g, env, it: True   # noqa: E731  a final condition that always holds: `completable` item by item


CASES = [
    # domain, least, most, picked so far
    ([1, 2, 3], 2, 2, []),
    ([1, 2, 3], 2, 2, [1]),
    ([1, 2, 3], 3, 3, [1, 2]),
    ([1, 1, 2], 2, 3, []),          # equal items: picking 1 takes both out of what is left
    ([1, 1, 2], 3, 3, [2]),
    ([5, 5, 5], 2, 2, []),
    ([4, 7], 0, 1, []),
    ([4, 7], 0, 1, [4]),            # the most reached: nothing more to pick
    ([], 0, 2, []),
    ([1, 2, 3, 4], 4, 9, [3]),      # more allowed than there are
    ([1, 2], 5, 5, []),             # never enough
]


@pytest.mark.parametrize("domain,lo,hi,partial", CASES)
def test_the_last_subsets_shortcut_offers_what_completable_offers(domain, lo, hi, partial):
    fast = _choice(domain, lo, hi, None).pick_options(None, {}, 0, list(partial))
    slow = _choice(domain, lo, hi, ALWAYS).pick_options(None, {}, 0, list(partial))
    assert fast == slow


def test_the_shortcut_agrees_on_many_random_domains_with_repeated_items():
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        domain = [rng.randrange(4) for _ in range(rng.randrange(0, 7))]
        lo = rng.randrange(0, 5)
        hi = lo + rng.randrange(0, 3)
        partial = [x for x in domain if rng.random() < 0.3][:hi]
        fast = _choice(domain, lo, hi, None).pick_options(None, {}, 0, list(partial))
        slow = _choice(domain, lo, hi, ALWAYS).pick_options(None, {}, 0, list(partial))
        assert fast == slow, (domain, lo, hi, partial)
        checked += bool(fast)
    assert checked > 50   # most cases offered something: the comparison was not of empty lists


# A final condition that reads the picked cards only as values, in no order: items of the same values get one
# answer (compiler/effects.py, values_read; Choice.by_values) -----------------------------------------------

from interpreter.compiler.effects import values_read  # noqa: E402
from interpreter.expr.parser import parse  # noqa: E402
from interpreter.runtime.values import Card  # noqa: E402

ATTRS = {"colour": [], "value": []}


@pytest.mark.parametrize("text,read", [
    ("sum(cards.value) == 7", ["value"]),
    ("count(distinct(cards.colour)) == 1", ["colour"]),
    ("max(cards.value) - min(cards.value) <= 2 and count(cards) >= 2", ["value"]),
    ("count(distinct(cards.colour)) == 1 and sum(cards.value) > 4", ["colour", "value"]),
    ("count(cards) == 2", []),                       # alike whatever they are
    ("count(cards.value) == 2", ["value"]),
    ("first(cards).value == 3", None),                # the order read
    ("cards.value == [1, 2]", None),
    ("distinct(cards.colour) == ['red']", None),      # distinct keeps the first seen order
    ("all(cards, value > 2)", None),                  # the items read one by one: not recognised
    ("sum(cards.owner) == 1", None),                  # not a printed attribute
    ("count(other) == 2", []),                        # the picked cards not read at all
])
def test_what_a_final_condition_reads_of_the_picked_cards(text, read):
    assert values_read(parse(text), "cards", ATTRS) == read


def _cards(values):
    return [Card(i) for i in range(len(values))]


def _valued_choice(values, lo, hi, final, by_values):
    domain = _cards(values)
    sub = Subset("s", _const(domain), _const(lo), _const(hi), "cards")
    choice = Choice("c", (), (), None, None, subsets=(sub,), final=final)
    choice.by_values = by_values
    return choice


@pytest.mark.parametrize("name,final", [
    ("one value", lambda values: lambda g, env, it: len({values[c] for c in env["s"]}) == 1),
    ("a sum", lambda values: lambda g, env, it: sum(values[c] for c in env["s"]) == 6),
    ("a spread", lambda values: lambda g, env, it: not env["s"] or max(values[c] for c in env["s"]) -
     min(values[c] for c in env["s"]) >= 2),
])
def test_alike_items_answered_once_offer_what_each_item_asked_offers(name, final):
    """On many random hands with repeated values, items told apart by their values only offer exactly what
    asking completable for each item offers; and fewer questions are asked."""
    rng = random.Random(11)
    offered, fewer = 0, 0
    for _ in range(300):
        values = [rng.randrange(1, 5) for _ in range(rng.randrange(0, 8))]
        lo = rng.randrange(0, 4)
        hi = lo + rng.randrange(0, 3)
        cards = _cards(values)
        partial = [c for c in cards if rng.random() < 0.25][:hi]
        asked = []

        def counted(g, env, it, f=final(values)):
            asked.append(1)
            return f(g, env, it)
        by_values = _valued_choice(values, lo, hi, counted, (values,)).pick_options(None, {}, 0, list(partial))
        once = len(asked)
        each = _valued_choice(values, lo, hi, counted, None).pick_options(None, {}, 0, list(partial))
        assert by_values == each, (values, lo, hi, partial)
        offered += bool(by_values)
        fewer += once < len(asked) - once
    assert offered > 50 and fewer > 20


def test_completable_answers_what_trying_every_pick_in_domain_order_answers():
    """With nothing picked yet a combination of the domain is the pick itself; a condition that reads the
    pick's order sees it in the domain's order either way, items repeated or not."""
    rng = random.Random(5)
    answered = [0, 0]
    for _ in range(400):
        unique = rng.random() < 0.7
        domain = _cards([0] * rng.randrange(0, 7)) if unique else [rng.randrange(4) for _ in range(rng.randrange(0, 7))]
        value = {x: rng.randrange(5) for x in domain}
        lo = rng.randrange(0, 4)
        hi = lo + rng.randrange(0, 3)

        def rising(g, env, it):   # reads the order: the first item's value below the last's
            s = env["s"]
            return len(s) >= 1 and value[s[0]] < value[s[-1]] or len(s) == 1

        choice = _choice(domain, lo, hi, rising)
        want = any(rising(None, {"s": [x for x in domain if x in picked]}, None)
                   for size in range(max(lo, 0), min(hi, len(domain)) + 1)
                   for picked in map(set, itertools.combinations(domain, size)))
        assert choice.completable(None, {}, 0, []) == want, (domain, value, lo, hi)
        answered[want] += 1
    assert min(answered) > 50   # both answers met


# A final condition that the picked cards all show one value of an attribute is answered by counting
# (compiler/effects.py, one_value; Choice._one_value_completes) -----------------------------------------------

from interpreter.compiler.effects import one_value  # noqa: E402


@pytest.mark.parametrize("text,found", [
    ("count(distinct(cards.colour)) == 1", ("colour", False)),
    ("count(distinct(cards.colour)) <= 1", ("colour", True)),
    ("count(distinct(cards.colour)) < 2", ("colour", True)),
    ("count(distinct(cards.value)) == 2", None),
    ("count(distinct(cards.colour)) == 1 and count(cards) > 1", None),   # not the whole condition
    ("count(distinct(other.colour)) == 1", None),                        # not the picked cards
    ("count(distinct(cards.owner)) == 1", None),                         # not a printed attribute
    ("1 == count(distinct(cards.colour))", None),
    ("count(distinct(cards)) == 1", None),
])
def test_which_final_conditions_ask_for_one_value(text, found):
    assert one_value(parse(text), "cards", ATTRS) == found


@pytest.mark.parametrize("empty_fine", [False, True])
def test_one_value_counted_offers_what_trying_every_pick_offers(empty_fine):
    """On many random hands, counting the cards of each value answers each pick (the items offered, and
    whether the subset may stop) and whether an option can be picked at all exactly as trying every
    completion against the condition does."""
    rng = random.Random(17 + empty_fine)
    offered = 0
    for _ in range(400):
        values = [rng.choice("rgb") for _ in range(rng.randrange(0, 8))]
        lo = rng.randrange(0, 4)
        hi = lo + rng.randrange(0, 3)
        cards = _cards(values)
        partial = [c for c in cards if rng.random() < 0.25][:hi]

        def final(g, env, it):
            distinct = len({values[c] for c in env["s"]})
            return distinct <= 1 if empty_fine else distinct == 1

        counted = _valued_choice(values, lo, hi, final, None)
        counted.one_value = (values, empty_fine)
        tried = _valued_choice(values, lo, hi, final, None)
        assert counted.pick_options(None, {}, 0, list(partial)) == tried.pick_options(None, {}, 0, list(partial))
        assert counted.completable(None, {}, 0, list(partial)) == tried.completable(None, {}, 0, list(partial))
        offered += bool(tried.pick_options(None, {}, 0, list(partial)))
    assert offered > 100


def test_one_value_leaves_items_that_are_not_cards_to_the_search():
    """Items that are not cards: the search as before (its answer, or its error)."""
    sub = Subset("s", _const([0, 1, 2]), _const(1), _const(2), "items")
    choice = Choice("c", (), (), None, None, subsets=(sub,),
                    final=lambda g, env, it: len({["r", "g", "r"][x] for x in env["s"]}) == 1)
    choice.one_value = (["g", "g", "g"], False)   # would answer otherwise, were the items read as cards
    assert choice.pick_options(None, {}, 0, [1]) == [(-2, ())]


# (compiler/effects.py, summed; Choice._sum_completes) --------------------------------------------------------

from interpreter.compiler.effects import summed  # noqa: E402


@pytest.mark.parametrize("text,found", [
    ("sum(cards.value) == 7", ("value", ("int", 7))),
    ("sum(cards.value) == target", ("value", ("param", "target"))),          # a parameter
    ("sum(cards.value) >= 10", None),                                        # only ==
    ("sum(cards.value) == other", None),                                     # a name that is not one
    ("sum(cards.value) == 7 and count(cards) == 2", None),                   # not the whole condition
    ("sum(others.value) == 7", None),                                        # not the picked cards
    ("sum(cards.owner) == 7", None),                                         # not a printed attribute
    ("7 == sum(cards.value)", None),
    ("sum(cards.value) == 3 + 4", None),
    ("sum(cards.value) in [7]", None),
])
def test_which_final_conditions_ask_for_a_sum(text, found):
    assert summed(parse(text), "cards", ATTRS, lambda name: name == "target") == found


def test_a_final_sum_is_told_by_the_compiler_only_where_its_target_is_a_parameter():
    """The target read as the compiler reads it: a parameter, not a name of the choice called alike."""
    from interpreter import load_text
    text = """
name: sums
players: {min: 2, max: 2}
parameters: {target: 7}
components:
  card: {in: deck, cards: [{each: {value: [1, 2, 3, 4, 5, 6]}, count: 2}]}
zones:
  deck: {}
  hand: {per_player: true}
setup:
  - deal: {from: deck, to: hand, count: 6}
actions:
  lay:
    args:
      ARGS
      cards: {pick: me.hand, count: 2}
    if: sum(cards.value) == target
    do: []
flow:
  round: {turn: {steps: [lay]}}
  ends: [{when: turn > 2}]
scoring: {parts: {n: count(me.hand)}}
"""
    rules = load_text(text.replace("ARGS", ""), "sums.yaml")
    assert rules.actions["lay"].summed[1:] == (("param", "target"),)
    with pytest.raises(Exception):   # an argument cannot take a parameter's name
        load_text(text.replace("ARGS", "target: range(1, 3)"), "sums.yaml")


@pytest.mark.parametrize("sizes", ["fixed", "any"])
def test_a_sum_counted_offers_what_trying_every_pick_offers(sizes):
    """On many random hands (values with repeats and negatives, picks of a fixed size or of a range, partial
    picks), looking for the values that make up the rest answers each pick (the items offered, and whether the
    subset may stop) and whether an option can be picked at all exactly as trying every completion against
    `sum(cards.value) == target` does."""

    class G:
        params = {"target": 0}

    rng = random.Random(5 + len(sizes))
    offered = refused = 0
    for _ in range(600):
        values = [rng.randrange(-2, 7) for _ in range(rng.randrange(0, 9))]
        lo = rng.randrange(0, 4)
        hi = lo if sizes == "fixed" else lo + rng.randrange(0, 3)
        target = rng.randrange(-3, 16)
        cards = _cards(values)
        partial = [c for c in cards if rng.random() < 0.2][:hi]

        def final(g, env, it):
            return sum(values[c] for c in env["s"]) == target

        counted = _valued_choice(values, lo, hi, final, None)
        counted.summed = (values, ("param", "target") if rng.random() < 0.5 else ("int", target))
        G.params = {"target": target}
        tried = _valued_choice(values, lo, hi, final, None)
        want = tried.pick_options(G, {}, 0, list(partial))
        assert counted.pick_options(G, {}, 0, list(partial)) == want, (values, lo, hi, target, partial)
        assert counted.completable(G, {}, 0, list(partial)) == tried.completable(G, {}, 0, list(partial))
        offered += bool(want)
        refused += not tried.completable(G, {}, 0, list(partial))
    assert offered > 50 and refused > 50


def test_a_sum_leaves_values_that_are_not_whole_numbers_and_long_domains_to_the_search():
    """A value that is not a whole number, a target that is not one, or more than two cards to go: the search as
    before (its answer, or its error)."""
    from fractions import Fraction

    class G:
        params = {"target": 3}

    values = [1, Fraction(1, 2), 2]
    choice = _valued_choice(values, 2, 2, lambda g, env, it: sum(values[c] for c in env["s"]) == 3, None)
    choice.summed = (values, ("int", 3))
    three = _cards(values)
    assert choice._sum_completes(G, [], three, 2, 2, three, [100]) is None
    choice.summed = ([1, 1, 2], ("param", "target"))
    G.params = {"target": "3"}
    assert choice._sum_completes(G, [], three, 2, 2, three, [100]) is None
    G.params = {"target": 3}
    assert choice._sum_completes(G, [], three, 2, 2, three, [100]) is True
    assert choice._sum_completes(G, [], three, 3, 3, three, [100]) is None
    assert choice._sum_completes(G, [], three, 1, 2, three, [100]) is None


def test_a_sum_is_left_to_the_search_where_an_item_is_twice_and_says_yes_past_the_searchs_limit():
    """A domain with an item twice (`me.hand + me.hand`): a pick holds every copy of what is picked, which the
    search adds up, so the search answers. With no pair found, the answer is the search's: no, unless it would
    have given up before trying every pair (more pairs than its tries left), when it says yes."""

    class G:
        params = {}

    cards = _cards([1, 6, 2])
    choice = _valued_choice([1, 6, 2], 2, 2, lambda g, env, it: False, None)
    choice.summed = ([1, 6, 2], ("int", 7))
    assert choice._sum_completes(G, [], cards, 2, 2, cards + cards, [100]) is None
    assert choice._sum_completes(G, [], cards, 2, 2, cards, [100]) is True     # 1 + 6
    choice.summed = ([1, 6, 2], ("int", 20))
    assert choice._sum_completes(G, [], cards, 2, 2, cards, [3]) is False      # 3 pairs, 3 tries: all tried
    assert choice._sum_completes(G, [], cards, 2, 2, cards, [2]) is True       # the search would give up
