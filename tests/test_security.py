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
    start = time.perf_counter()
    with pytest.raises(RulesetError) as info:
        parse_text(BILLION_LAUGHS, "laughs.yaml")
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert info.value.diagnostics[0].code == "too-large"
    assert elapsed < 10 and peak < 100 * 1024 * 1024


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
    ("  - let: {x: '[1] * 1000000000'}", "'*' multiplies numbers, not list and int"),
    ("  - let: {x: '1000000000000 * 1000000000000'}", "a number grew past"),
])
def test_expressions_cannot_exhaust_memory(effect, message):
    with pytest.raises(GameError) as info:
        run_effect(effect)
    assert message in str(info.value)
    assert "cubirds-hostile.yaml:" in str(info.value)


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
