"""Rulesets from strangers: loading never runs code, never reaches Python objects or files, and
refuses inputs made to exhaust the machine - quickly, with the project's own error."""
from __future__ import annotations

import time
import tracemalloc

import pytest

from interpreter import Game, GameError, RulesetError, load_text
from interpreter.expr.compiler import ExprError
from interpreter.source import MAX_FILE_BYTES, parse_text
from helpers import ROOT

CUBIRDS = (ROOT / "rulesets" / "cubirds.yaml").read_text()

BILLION_LAUGHS = """
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_is_refused_quickly_and_in_little_memory():
    tracemalloc.start()
    with pytest.raises(RulesetError) as info:
        parse_text(BILLION_LAUGHS, "laughs.yaml")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert info.value.diagnostics[0].code == "too-large"
    assert peak < 100 * 1024 * 1024   # refused before it expands (the clock is no test: machines differ)


def test_python_tags_are_not_constructed():
    for text in ["x: !!python/object/apply:os.system ['echo hacked']",
                 "x: !!python/name:builtins.eval ''",
                 "x: !!python/object:collections.OrderedDict {}"]:
        with pytest.raises(RulesetError) as info:
            parse_text(text, "evil.yaml")
        assert info.value.diagnostics[0].code == "yaml"


def test_huge_file_is_refused():
    with pytest.raises(RulesetError) as info:
        parse_text("a: " + "x" * (MAX_FILE_BYTES + 1), "big.yaml")
    assert info.value.diagnostics[0].code == "too-large"


def test_deep_nesting_is_refused():
    with pytest.raises(RulesetError) as info:
        parse_text("a: " + "[" * 200 + "]" * 200, "deep.yaml")
    assert info.value.diagnostics[0].code == "too-deep"


@pytest.mark.parametrize("text,where", [
    ("x: " + "[" * 500 + "]" * 500, (1, 68)),                      # flow lists, deeper than Python's stack
    ("x: " + "{a: " * 500 + "1" + "}" * 500, (1, 257)),             # flow maps: at the key of the 64th
    ("".join("  " * i + "k:\n" for i in range(400)) + "  " * 400 + "v\n", (65, 129)),  # block maps
    ("x:\n" + "".join("  " * i + "-\n" for i in range(1, 400)), (66, 131)),          # block lists
])
def test_nesting_deeper_than_python_recurses_is_refused_before_composing(text, where):
    with pytest.raises(RulesetError) as info:
        parse_text(text, "deep.yaml")
    d = info.value.diagnostics[0]
    assert (d.code, d.message) == ("too-deep", "the document nests deeper than 64 levels")
    assert (d.location.line, d.location.col) == where


@pytest.mark.parametrize("literal", ["9" * 5000, "-" + "9" * 4301, "1000000000000000001", "0b" + "1" * 5000,
                                     "0x" + "f" * 4000, "1" + ":59" * 20])
def test_huge_integer_literals_are_refused_where_they_are(literal):
    with pytest.raises(RulesetError) as info:
        parse_text("name: x\nparameters:\n  n: " + literal + "\n", "big.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "number-too-large" and (d.location.line, d.location.col) == (3, 6)
    assert d.message.startswith(f"the number {literal[:27]}") and "at most 10^18" in d.message


def test_the_largest_number_allowed_is_read():
    assert parse_text("n: 1000000000000000000\nm: -1000000000000000000").data == {"n": 10 ** 18, "m": -10 ** 18}


def test_dates_and_times_stay_as_written():
    src = parse_text("a: 2001-12-14\nb: 2001-12-14 21:59:43.10 -5\nc: [2002-01-01]\n")
    assert src.data == {"a": "2001-12-14", "b": "2001-12-14 21:59:43.10 -5", "c": ["2002-01-01"]}


def test_a_date_where_a_number_belongs_is_shown_as_written():
    with pytest.raises(RulesetError) as info:
        load_text("name: x\nplayers: {min: 2, max: 2001-12-14}\n", "date.yaml")
    assert "date.yaml:2:24: error[schema]: '2001-12-14' is not of type 'integer'" in str(info.value)
    assert "datetime" not in str(info.value)


@pytest.mark.parametrize("text", ["x: !!binary aGVsbG8=", "x: !!set {a, b}", "x: !!omap [a: 1]", "x: !custom 1"])
def test_tags_beyond_plain_values_are_refused(text):
    with pytest.raises(RulesetError) as info:
        parse_text(text, "tags.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "yaml" and d.message.startswith("the tag '") and d.location.line == 1


def test_a_second_document_is_named_as_such():
    with pytest.raises(RulesetError) as info:
        parse_text("name: x\n---\nname: y\n", "two.yaml")
    d = info.value.diagnostics[0]
    assert (d.code, d.message, d.location.line, d.location.col) == ("yaml", "a second YAML document starts here", 2, 1)
    assert "'---' starts another" in d.hint and "bracket" not in d.hint


def test_a_very_long_source_line_is_shown_around_the_column():
    line = "x: '" + "a" * 200_000 + "' " + "]" + " " * 10
    with pytest.raises(RulesetError) as info:
        parse_text(line, "long.yaml")
    rendered = info.value.render().splitlines()
    shown, caret = rendered[1], rendered[2]
    assert len(shown) <= 4 + 120 and shown.startswith("    ...") and len(caret) <= 4 + 120
    col = info.value.diagnostics[0].location.col
    assert shown[caret.index("^")] == line[col - 1] == "]"


@pytest.mark.parametrize("text", [
    "__import__('os').system('echo hacked')",
    "deck.__class__",
    "deck.__class__.__mro__",
    "().__class__.__bases__[0].__subclasses__()",
    "open('/etc/passwd')",
    "eval('1 + 1')",
    "exec('x = 1')",
    "getattr(deck, 'append')",
    "deck.append(1)",
    "globals()",
    "[x for x in deck]",
    "lambda: 1",
    "f'{1}'",
    "1 if True else 2",
    "deck; 1",
    "import os",
])
def test_expression_break_outs_are_refused_at_load(text):
    rules = load_text(CUBIRDS, "cubirds.yaml")
    with pytest.raises(ExprError):
        rules.expression(text)


def run_effect(effect_yaml, players=2):
    """Load cubirds with one extra effect at the start of setup and start a game."""
    text = CUBIRDS.replace("setup:\n  - shuffle: deck", "setup:\n" + effect_yaml + "\n  - shuffle: deck")
    rules = load_text(text, "cubirds-hostile.yaml")
    return Game.new(rules, players, seed=1)


@pytest.mark.parametrize("effect,message", [
    ("  - let: {x: 'range(1000000000000)'}", "range of 1000000000000 numbers is larger than the limit"),
    ("  - let: {x: '1000000000000 * 1000000000000'}", "a number grew past"),
])
def test_expressions_cannot_exhaust_memory(effect, message):
    with pytest.raises(GameError) as info:
        run_effect(effect)
    assert message in str(info.value)
    assert "cubirds-hostile.yaml:" in str(info.value)


def test_a_list_times_a_number_is_refused_when_the_ruleset_loads():
    with pytest.raises(RulesetError) as info:
        run_effect("  - let: {x: '[1] * 1000000000'}")
    assert "cubirds-hostile.yaml:" in str(info.value) and "'*' needs numbers, but this is a list" in str(info.value)


def test_text_times_a_number_is_refused_when_the_ruleset_loads():
    with pytest.raises(RulesetError) as info:
        run_effect("  - let: {x: '\"a\" * 1000000000'}")
    assert "cubirds-hostile.yaml:" in str(info.value) and "'*' needs numbers, but this is a text" in str(info.value)


def test_a_loop_with_a_huge_bound_stops_at_the_loop_limit():
    start = time.perf_counter()
    game = run_effect("  - while: true\n    max: 999999999999\n    do: [{set: {took: 1}}]")
    assert game.is_over and game.result["stalled"]
    assert "loop ran 100000 times" in game.result["reason"]
    assert time.perf_counter() - start < 30


CHURN = """\
name: churn
players: {min: 2, max: 2}
components:
  card:
    label: "c {value}"
    in: deck
    cards:
      - {value: 1, count: 10000}
zones:
  deck: {}
  pile: {}
actions:
  churn:
    do:
      - for_each: i
        in: range(560)
        do:
          - for_each: j
            in: range(560)
            do:
              - move: {from: deck, to: pile, count: 1, take: bottom}
              - move: {from: pile, to: deck, count: 1, at: bottom}
flow:
  round: {turn: {steps: [churn]}}
"""


@pytest.mark.parametrize("record", [False, True])
def test_moves_in_a_zone_of_thousands_of_cards_are_stopped_by_the_budget(record):
    """A move gives a zone a new list (runtime/effects.py): past 64 cards it pays the list's length, so that
    moving cards back and forth in a deck of 10,000 ends at the step's budget, told at the move, in well under
    a second, rather than copying the deck 600,000 times."""
    rules = load_text(CHURN, "churn.yaml")
    game = Game.new(rules, 2, seed=1, record=record)
    start = time.process_time()
    with pytest.raises(GameError) as info:
        game.apply(0)
    assert time.process_time() - start < 1
    assert str(info.value).startswith("churn.yaml:22:17: ") and "more than 1,000,000 list items" in str(info.value)
    assert len(game.state.zones[0]) == 10000 and game.decision is not None   # the game as it was


def test_a_procedure_that_calls_itself_is_stopped():
    text = CUBIRDS.replace("procedures:\n", "procedures:\n  forever:\n    - call: forever\n").replace(
        "setup:\n  - shuffle: deck", "setup:\n  - call: forever\n  - shuffle: deck")
    rules = load_text(text, "recursive.yaml")
    with pytest.raises(GameError) as info:
        Game.new(rules, 2, seed=1)
    assert "nest deeper than" in str(info.value)


def test_too_many_cards_are_refused():
    text = CUBIRDS.replace("      - {species: flamingo, small: 2, big: 3, count: 7}",
                           "      - {species: flamingo, small: 2, big: 3, count: 99999999}")
    with pytest.raises(RulesetError):
        load_text(text, "many.yaml")


# The work budget (runtime/budget.py): no ruleset makes a step run away -------------------------------

HOSTILE = """\
name: hostile
players: {min: 2, max: 3}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 10}
zones:
  deck: {visibility: count}
  hand: {per_player: true}
parameters: {huge: 1000000000000000000}
variables: {x: 1, xs: [1], t: "ab", n: 0, none_yet: null}
setup:
SETUP
actions:
  take:
    args: {card: deck}
    label: LABEL
    do:
      - move: {cards: card, from: deck, to: me.hand}
DO
flow:
  round:
    turn:
      steps: [take]
limits:
  turns: 30
"""


def hostile(setup="  - shuffle: deck", do="", label='"take {card}"'):
    """The hostile ruleset's text with some effects in its setup, some in its action, and a label."""
    return HOSTILE.replace("SETUP", setup).replace("DO", do).replace("LABEL", label)


def line_of(text, needle):
    return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)


def start_fails(text, players=2):
    """Load the text (it must load) and start a game: the GameError it ends in."""
    rules = load_text(text, "hostile.yaml")
    with pytest.raises(GameError) as info:
        Game.new(rules, players, seed=1)
    return str(info.value)


def test_the_base_of_these_cases_plays():
    game = Game.new(load_text(hostile(), "hostile.yaml"), 2, seed=1)
    while not game.is_over:
        game.apply(0)
    assert game.result["reason"] == "turn limit of 30 turns reached"


def test_nested_loops_over_big_ranges_stop_at_the_budget_naming_the_loop():
    setup = ("  - for_each: a\n    in: range(100000)\n    do:\n"
             "      - for_each: b\n        in: range(100000)\n        do:\n"
             "          - for_each: c\n            in: range(100000)\n            do:\n"
             "              - for_each: d\n                in: range(100000)\n                do: [{set: {x: d}}]")
    text = hostile(setup)
    message = start_fails(text)
    row, loop = line_of(text, "- for_each: d"), line_of(text, "- for_each: c")
    # each pass of the inner loops takes a copy of a range of 100000: the list items run out first
    assert message == (f"hostile.yaml:{row}:17: this step went through more than 1,000,000 list items without a "
                       f"decision, in the 'for_each' loop at hostile.yaml:{loop}:13 "
                       "(see Limits in the language reference)")


def test_a_long_while_loop_is_stopped_by_the_budget_not_by_the_clock():
    text = hostile("  - while: true\n    max: 99999\n    do: [{set: {x: 1}}, {set: {x: 2}}, {set: {x: 3}}, "
                   "{set: {x: 4}}, {set: {x: 5}}, {set: {x: 6}}, {set: {x: 7}}, {set: {x: 8}}, {set: {x: 9}}, "
                   "{set: {x: 10}}, {set: {x: 11}}]")
    message = start_fails(text)
    assert message.startswith(f"hostile.yaml:{line_of(text, '- while: true')}:5: more than 1,000,000 effects")
    assert message.endswith("in this 'while' loop (see Limits in the language reference)")


def test_turns_without_decisions_are_stopped_at_the_turn_loop():
    text = hostile().replace("      steps: [take]", "      steps: [{actions: [take], if: 'false'}]").replace(
        "  turns: 30", "  turns: 1000000")
    message = start_fails(text)
    assert message == (f"hostile.yaml:{line_of(text, '      steps:')}:7: more than 1,000,000 effects ran in one step, "
                       "without a decision: the turns here follow one another and nobody is asked to choose "
                       "(see Limits in the language reference)")


@pytest.mark.parametrize("setup,needle,message", [
    # a number doubled 20,000 times
    ("  - while: true\n    max: 20000\n    do: [{add: {x: x}}]", "{add: {x: x}}", "a number grew past 1,000,000,000,000,000,000"),
    ("  - while: true\n    max: 20000\n    do: [{set: {x: x + x}}]", "{set: {x: x + x}}", "a number grew past"),
    ("  - while: true\n    max: 20000\n    do: [{set: {x: x * 3}}]", "{set: {x: x * 3}}", "a number grew past"),
    ("  - while: true\n    max: 20000\n    do: [{set: {x: '0 - x - x'}}]", "0 - x - x", "a number grew past"),
    ("  - set: {x: 'sum([huge, huge])'}", "sum([huge, huge])", "a number grew past"),
    ("  - set: {x: 'huge + huge'}", "huge + huge", "a number grew past"),
    # a list doubled 40 times
    ("  - while: true\n    max: 40\n    do: [{add: {xs: xs}}]", "{add: {xs: xs}}", "a list grew past 100,000 items"),
    ("  - while: true\n    max: 40\n    do: [{set: {xs: xs + xs}}]", "xs + xs", "a list grew past 100,000 items"),
    ("  - while: true\n    max: 40\n    do: [{let: {ys: xs + xs}}, {set: {xs: ys}}]", "xs + xs", "a list grew past"),
    # a text doubled 40 times
    ("  - while: true\n    max: 40\n    do: [{add: {t: t}}]", "{add: {t: t}}", "a text grew past 100,000 characters"),
    # a list inside a list inside a list ...
    ("  - while: true\n    max: 100\n    do: [{set: {xs: '[xs]'}}]", "'[xs]'", "a list nests deeper than 32 levels"),
    # lists walked by nested expressions
    ("  - let: {ys: 'map(range(100000), count(map(range(100000), it)))'}", "map(range(100000)",
     "this step went through more than 1,000,000 list items without a decision"),
    ("  - let: {ys: 'map(range(100000), sum(range(100000)))'}", "map(range(100000)",
     "this step went through more than 1,000,000 list items"),
    ("  - let: {ys: 'range(100000)'}\n  - for_each: i\n    in: range(1000)\n    do: [{set: {x: 'count(ys where it > i)'}}]",
     "count(ys where", "this step went through more than 1,000,000 list items"),
    ("  - let: {ys: 'range(100000)'}\n  - for_each: i\n    in: range(1000)\n    do: [{set: {x: 'sum(ys)'}}]",
     "sum(ys)", "this step went through more than 1,000,000 list items"),
    ("  - let: {ys: 'range(100000)'}\n  - for_each: i\n    in: range(1000)\n    do: [{if: 'i in ys', then: [{set: {x: 1}}]}]",
     "i in ys", "this step went through more than 1,000,000 list items"),
    ("  - let: {ys: 'range(100000)'}\n  - for_each: i\n    in: range(1000)\n    do: [{let: {zs: ys}}]",
     "{let: {zs: ys}}", "this step went through more than 1,000,000 list items"),
])
def test_growth_and_work_have_caps_for_every_operation(setup, needle, message):
    tracemalloc.start()
    text = hostile(setup)
    found = start_fails(text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert message in found
    assert found.startswith(f"hostile.yaml:{line_of(text, needle)}:")
    assert peak < 200 * 1024 * 1024


def test_a_choice_with_too_many_combinations_is_refused_before_listing_them():
    text = hostile().replace("args: {card: deck}", "args: {card: deck, a: range(100000), b: range(100000)}")
    message = start_fails(text)
    assert message == (f"hostile.yaml:{line_of(text, 'steps: [take]')}:15: the arguments of 'take' make more than "
                       "1,000,000 combinations to try (see Limits in the language reference)")


def test_a_decision_has_at_most_100000_options():
    text = hostile().replace("args: {card: deck}", "args: {card: deck, a: range(200), b: range(100)}")
    message = start_fails(text)
    assert message == (f"hostile.yaml:{line_of(text, 'steps: [take]')}:15: a decision with 200,000 options: at most "
                       "100,000 may be offered (see Limits in the language reference)")


@pytest.mark.parametrize("effect,message", [
    ("{set: {x: 'x / (x - 1)'}}", "ruleset error in 'set': division by zero"),
    ("{set: {x: 'x % 0'}}", "ruleset error in 'set': division by zero"),
    ("{if: 'none_yet < t', then: [end_game]}", "'<' compares two numbers or two texts, not none and a text"),
    ("{set: {x: 'x + t'}}", "'+' adds numbers or joins two texts or two lists, not a number and a text"),
    ("{set: {x: 'count(x)'}}", "a list is needed here, not a number"),
    ("{set: {x: 'xs[5]'}}", "[5] is past the end of a list of 1 item"),
    ("{set: {x: 'xs[t]'}}", "[...] takes an item of a list by its position (a number), not by a text"),
    ("{set: {x: 'sum(t)'}}", "sum() cannot work on a text"),
    ("{set: {x: 'x in x'}}", "'in' looks in a list or a text, not in a number"),
])
def test_runtime_mistakes_are_told_in_the_authors_words(effect, message):
    text = hostile(f"  - {effect}")
    found = start_fails(text)
    assert found.startswith(f"hostile.yaml:{line_of(text, effect)}:5: ") and message in found
    assert "NoneType" not in found and "'int'" not in found


def test_functions_that_double_at_every_level_are_refused_at_load_quickly():
    fns = "functions:\n  f0: {args: [y], value: 'y + 1'}\n" + "".join(
        f"  f{i}: {{args: [y], value: 'f{i - 1}(y) + f{i - 1}(y)'}}\n" for i in range(1, 30))
    text = hostile().replace("\nzones:", "\n" + fns + "zones:")
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "too-large" and "expand to more than 1000 calls" in d.message
    assert d.location.line == line_of(text, "  f8: ")


@pytest.mark.parametrize("row,message", [
    ("- {value: 1, count: 10000}\n      - {value: 2, count: 10000}", "the cards come to more than 10000"),
    ("- {each: {a: RANGE, b: RANGE, c: RANGE}}", "each makes more than 10000 cards"),
])
def test_card_tables_that_multiply_are_refused_before_they_are_built(row, message):
    values = "[" + ", ".join(str(i) for i in range(1000)) + "]"
    text = hostile().replace("- {value: 1, count: 10}", row.replace("RANGE", values))
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    assert message in str(info.value) and info.value.diagnostics[0].code == "too-large"


def test_a_computed_attribute_has_a_budget_while_the_ruleset_loads():
    text = hostile().replace("    in: deck\n", "    in: deck\n    computed:\n"
                                                "      w: 'count(map(range(100000), map(range(100000), it)))'\n")
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "computed" and "went through more than 1,000,000 list items" in d.message


# Texts made outside the VM (labels, prompts) and inside it (log lines) fail at their place -------------

def test_a_label_that_fails_is_located_in_decision_and_apply_and_changes_nothing():
    text = hostile(label='"take {card} ({x / (x - 1)})"')
    game = Game.new(load_text(text, "hostile.yaml"), 2, seed=1)   # labels are made when asked for
    where = f"hostile.yaml:{line_of(text, 'label:')}:"
    with pytest.raises(GameError) as info:
        game.decision
    assert str(info.value).startswith(where) and "division by zero" in str(info.value)
    before = game.to_json()
    with pytest.raises(GameError) as info:
        game.apply(0)
    assert str(info.value).startswith(where) and "division by zero" in str(info.value)
    assert game.to_json() == before


def test_a_prompt_that_fails_is_located():
    text = hostile("  - choose:\n      prompt: 'pick {xs[3]}'\n      args: {v: '[1, 2]'}\n      do: []")
    game = Game.new(load_text(text, "hostile.yaml"), 2, seed=1)
    with pytest.raises(GameError) as info:
        game.decision
    assert str(info.value).startswith(f"hostile.yaml:{line_of(text, 'prompt:')}:")
    assert "[3] is past the end of a list of 1 item" in str(info.value)


def test_a_log_line_that_fails_is_located_and_the_choice_is_undone():
    # t starts as a text and is set to a number too: what it holds is known only when the line is written
    text = hostile(do="      - log: 'took {t / 2}'\n      - set: {t: x}")
    game = Game.new(load_text(text, "hostile.yaml"), 2, seed=1)
    before = game.to_json()
    with pytest.raises(GameError) as info:
        game.apply(0)
    assert str(info.value).startswith(f"hostile.yaml:{line_of(text, '- log:')}:")
    assert "'/' divides numbers, not a text and a number" in str(info.value)
    assert game.to_json() == before


def test_a_variable_that_always_holds_a_text_is_divided_only_by_mistake_refused_at_load():
    text = hostile(do="      - log: 'took {t / 2}'")   # t is "ab" and nothing sets it
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "kind" and d.message == "'/' needs numbers, but this is a text"
    assert d.location.line == line_of(text, "- log:")


# Winners are players of the game -----------------------------------------------------------------------

@pytest.mark.parametrize("winners,message", [
    ("'[99]'", "winners are players, and 99 is a number, not a player"),
    ("'[-1]'", "winners are players, and -1 is a number, not a player"),
    ("99", "winners are players (as in '[me]' or 'players where ...'), but this is a number"),
    ("'[players[0], 2]'", "winners are players, and 2 is a number, not a player"),
    ("count(deck)", "winners are players (as in '[me]' or 'players where ...'), but this is a number"),
    ("'first(deck)'", "winners are players (as in '[me]' or 'players where ...'), but this is a card"),
])
def test_winners_that_are_not_players_are_refused_at_load(winners, message):
    text = hostile(f"  - end_game: {{winners: {winners}}}")
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    d = info.value.diagnostics[0]
    assert message in d.message and d.location.line == line_of(text, "end_game")


@pytest.mark.parametrize("value,shown", [(99, "99"), (-1, "-1"), (2, "2")])
def test_winners_outside_the_seats_are_refused_when_the_game_ends(value, shown):
    text = hostile(f"  - set: {{x: {value}}}\n  - end_game: {{winners: '[x]'}}")
    message = start_fails(text)
    assert message == (f"hostile.yaml:{line_of(text, 'end_game')}:5: winners must be a player of this game "
                       f"(P1 to P2), not {shown}")


@pytest.mark.parametrize("word", ["me", "current", "turn", "count(deck)", "x"])
def test_a_card_label_that_reads_the_game_is_refused_at_load(word):
    # found by benchmarks/fuzz_long.py: labels are written at load, when there is no game to read
    text = hostile().replace("    in: deck\n", "    in: deck\n    label: '{value} " + "{" + word + "}'\n")
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "label" and "not what changes in a game" in d.message
    assert d.location.line == line_of(text, "label: '{value}")


@pytest.mark.parametrize("python,words", [
    ("'list' object cannot be interpreted as an integer", "a number is needed here, not a list"),
    ("'NoneType' object cannot be interpreted as an integer", "a number is needed here, not none"),
    ("unhashable type: 'list'", "a list cannot be used here (a card, a player, a number or a text can)"),
    ("'<' not supported between instances of 'NoneType' and 'str'",
     "'<' compares two numbers or two texts, not none and a text"),
])
def test_pythons_messages_seen_by_the_fuzz_run_are_told_in_the_authors_words(python, words):
    from interpreter.runtime.operators import translate
    assert translate(TypeError(python)) == words


def test_a_display_note_that_reads_the_game_is_refused_at_load():
    # found by benchmarks/fuzz_long.py (KeyError: 'me')
    text = hostile().replace("limits:", "display:\n  zones:\n    deck: {note: '{me}'}\nlimits:")
    with pytest.raises(RulesetError) as info:
        load_text(text, "hostile.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "note" and "not what changes in a game" in d.message
