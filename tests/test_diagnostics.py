"""Ruleset errors through the whole load pipeline: each mistake with its exact code, message and place."""
from __future__ import annotations

import pytest

from interpreter import RulesetError, load_text
from helpers import ROOT

CUBIRDS = (ROOT / "rulesets" / "cubirds.yaml").read_text()


def diagnostics(text):
    with pytest.raises(RulesetError) as info:
        load_text(text, "t.yaml")
    return info.value.diagnostics


def where(text, needle, offset=0):
    """1-based line and column of `needle` in `text` (plus an offset into it)."""
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i, line.index(needle) + 1 + offset
    raise AssertionError(needle)


# (replace this, with this, expected code, expected message, text to point at, offset into it)
CASES = [
    ("when: took == 0", "when: tok == 0", "unknown-name", "unknown name 'tok'", "tok == 0", 0),
    ("if: count(flock) >= first(flock).small", "if: count(flock) >= first(flock).smal",
     "unknown-name", "unknown attribute 'smal'", "first(flock).smal", 13),
    ("- shuffle: deck", "- shufle: deck", "unknown-effect", "unknown effect 'shufle'", "shufle", 0),
    ("to: me.collection", "to: me.colection", "unknown-zone", "unknown zone 'colection'", "colection", 0),
    ("{call: exhausted}]}", "{call: exhaust}]}", "unknown-procedure", "unknown procedure 'exhaust'", "exhaust}", 0),
    ("actions: [lay]}", "actions: [lya]}", "unknown-action", "unknown action 'lya'", "lya", 0),
    ("count(distinct(row[r].species)) < 2", "count(distinct(row[r].species) < 2",
     "expr-syntax", "the expression ends too early", "count(distinct(row[r].species) < 2", 34),
    ("setup_duplicate_destination == \"deck\"", "setup_duplicate_destination == \"deck\" +",
     "expr-syntax", "the expression ends too early", 'setup_duplicate_destination == "deck" +', 39),
    ("  hand: {per_player: true, visibility: owner, ordered: false}",
     "  hand: {per_player: true, visibility: owner, ordered: false}\n  hand: {}",
     "duplicate-key", "duplicate key 'hand' (first given on line {hand})", "hand: {}", 0),
]


@pytest.mark.parametrize("old,new,code,message,needle,offset", CASES, ids=[c[3] for c in CASES])
def test_located_diagnostic(old, new, code, message, needle, offset):
    assert old in CUBIRDS
    text = CUBIRDS.replace(old, new, 1)
    d = diagnostics(text)[0]
    line, col = where(text, needle, offset)
    message = message.replace("{hand}", str(where(text, "  hand: {per_player")[0]))
    assert (d.code, d.message) == (code, message)
    assert (d.location.file, d.location.line, d.location.col) == ("t.yaml", line, col)
    rendered = d.render().splitlines()
    assert rendered[0] == f"t.yaml:{line}:{col}: error[{code}]: {message}"
    assert rendered[2] == "    " + " " * (col - 1) + "^"


def test_every_problem_is_reported_not_only_the_first():
    text = CUBIRDS.replace("when: took == 0", "when: tok == 0").replace("- shuffle: deck", "- shufle: deck", 1)
    codes = sorted(d.code for d in diagnostics(text))
    assert codes == ["unknown-effect", "unknown-name"]


def test_yaml_syntax_error_is_located():
    d = diagnostics("name: x\nplayers: {min: 2, max: 3\n")[0]
    assert d.code == "yaml" and d.location.line == 3


def test_name_clash_between_parameter_and_zone():
    text = CUBIRDS.replace("  hand_size: 8", "  hand_size: 8\n  deck: 3")
    assert any(d.code == "name-clash" and "'deck' is both a parameter and a zone" in d.message
               for d in diagnostics(text))


def test_local_name_may_not_shadow_a_ruleset_name():
    text = CUBIRDS.replace("- let: {kept:", "- let: {deck:")
    d = [d for d in diagnostics(text) if d.code == "name-clash"][0]
    assert d.message == "'deck' is already the name of something in this ruleset; choose another"


# YAML pitfalls: the hint names the cause (replace this, with this, the expected message and hint)
COMMA = "inside { }, a comma ends a value: put quotes around a value that contains a comma"
PITFALLS = [
    ("deck: {visibility: count, refill_from: discard, text: face-down draw pile}",
     "deck: {visibility: count, refill_from: discard, text: draw pile, face down}",
     "unknown key ('face down' was unexpected)", COMMA),
    ("- {name: lay birds, actions: [lay]}", "- {name: lay birds, then more, actions: [lay]}",
     "unknown step field 'then more'", COMMA),
    ("- {name: lay birds, actions: [lay]}", "- {name: lay birds? yes, actions: [lay]}",
     "YAML syntax: expected ',' or '}', but got '?'",
     "inside { } or [ ], '? ' starts a key: put quotes around a value that contains '?'"),
    ("- {name: lay birds, actions: [lay]}", "- {name: birds: lay, actions: [lay]}",
     "YAML syntax: expected ',' or '}', but got ':'",
     "inside { } or [ ], ': ' separates a key from its value: put quotes around a value that contains ': '"),
    ("when: took == 0", 'when: ""', "the expression is empty",
     "YAML reads \"\" as an empty text, not as an expression; for the empty text write '\"\"' (the expression "
     "\"\" inside single quotes), for no value write none"),
    ("when: took == 0", "when:", "expected an expression (text, a number, true or false)",
     "nothing is written here: YAML reads an empty value as null"),
]


@pytest.mark.parametrize("old,new,message,hint", PITFALLS, ids=[c[2] for c in PITFALLS])
def test_yaml_pitfall_hint_names_the_cause(old, new, message, hint):
    assert old in CUBIRDS
    d = diagnostics(CUBIRDS.replace(old, new, 1))[0]
    assert (d.message, d.hint) == (message, hint)
