"""Generated code: it plays exactly as the interpreter does, keeps errors located, and cannot be broken out of
through names, labels, texts or numbers in a ruleset."""
from __future__ import annotations

import random
import re

import pytest
import yaml

from interpreter import Game, GameError, load, load_text
from interpreter.codegen import python_source
from interpreter.expr.emit import SAFE_BUILTINS, local_name
from interpreter.codegen.module import Segment
from helpers import ROOT, shipped_rulesets

CUBIRDS = (ROOT / "rulesets" / "cubirds.yaml").read_text()


def unprepared(rules):
    """The ruleset run by the interpreter alone: no generated code is installed."""
    rules.generated = "off"
    return rules


def play_random(rules, players, seed, steps):
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.randrange(game.option_count()))
    return game


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_generated_code_plays_exactly_as_the_interpreter(path):
    fast, slow = load(str(path)), unprepared(load(str(path)))
    for players in sorted({fast.min_players, fast.max_players}):
        for seed in (1, 2):
            a = play_random(fast, players, seed, 150)
            b = play_random(slow, players, seed, 150)
            assert a.state.history == b.state.history
            assert a.state.log == b.state.log
            assert a.state.zones == b.state.zones and a.state.vars == b.state.vars and a.state.pvars == b.state.pvars
            assert a.decisions() == b.decisions()
            assert a.result == b.result


def test_the_generated_code_is_used():
    rules = load("cubirds")
    Game.new(rules, 2, seed=1)
    assert all(a.listed is not None for a in rules.actions.values())
    assert any(isinstance(n, Segment) for block in rules.blocks for n in block)


def test_a_saved_game_from_the_interpreter_alone_loads_and_goes_on_alike():
    slow = unprepared(load("cubirds"))
    game = play_random(slow, 3, 5, 40)
    saved = game.to_json()
    fast = load("cubirds")
    back = Game.from_json(fast, saved)
    assert back.to_json() == saved
    rng = random.Random(9)
    for _ in range(60):
        if game.is_over:
            break
        i = rng.randrange(game.option_count())
        game.apply(i)
        back.apply(i)
    assert back.to_json() == game.to_json()


def test_an_error_inside_fused_effects_names_the_effect_that_failed():
    text = CUBIRDS.replace("  - deal: {from: deck, to: collection, count: 1}",
                           "  - for_each: p\n    in: players\n    do:\n      - if: true\n        then:\n"
                           "          - set: {took: '10 / (took - took)'}\n"
                           "  - deal: {from: deck, to: collection, count: 1}")
    line = text.splitlines().index("          - set: {took: '10 / (took - took)'}") + 1
    rules = load_text(text, "fused.yaml")
    with pytest.raises(GameError) as info:
        Game.new(rules, 2, seed=1)
    assert str(info.value) == f"fused.yaml:{line}:13: ruleset error in 'set': division by zero"


HOSTILE_NAMES = ["__import__", "__class__", "g", "e", "vm", "out", "me_", "len", "R_NO", "F_first", "A_species",
                 "v_x", "_x1", "lambda", "class", "import", "return", "def", "match", "_", "stack", "frame", "T_turn_start"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_names_that_mean_something_in_python_are_only_names(name):
    """An argument and a local named like a Python keyword, builtin or generated name play like any other."""
    def rename(text, new):
        return (text.replace("      flock: groups(me.hand, species)", f"      {new}: groups(me.hand, species)")
                .replace("count(flock)", f"count({new})").replace("first(flock)", f"first({new})")
                .replace("'take(flock, kept)'", f"'take({new}, kept)'").replace("'drop(flock, kept)'", f"'drop({new}, kept)'")
                .replace("kept", f"{new}_kept"))
    plain = load_text(rename(CUBIRDS, "flock"), "plain.yaml")
    odd = load_text(rename(CUBIRDS, name), "odd.yaml")
    for seed in (3, 4):
        a, b = play_random(plain, 2, seed, 200), play_random(odd, 2, seed, 200)
        assert a.state.history == b.state.history and a.state.zones == b.state.zones
    assert local_name(name) != name or name.isidentifier()


PAYLOADS = ["'); __import__('os').system('echo pwned'); ('",
            "\\n__import__('os')\\n",
            "{__import__('os')}",
            "\"\"\"; import os; \"\"\""]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_texts_in_a_ruleset_never_reach_the_source(payload):
    """Strings in expressions, labels and log lines are values in the namespace, not source text."""
    data = yaml.safe_load(CUBIRDS)
    quote = '"' if '"' not in payload else "'"
    in_expression = payload.replace("\\", "").replace(quote, "")   # expression strings hold no \\ or their quote
    lay = data["actions"]["lay"]
    lay["do"][-1]["while"] = f"count(distinct(row[r].species)) < 2 and {quote}{in_expression}{quote} != 'x'"
    data["actions"]["draw"]["label"] = "draw {draw_option} cards " + payload.replace("{", "(").replace("}", ")")
    data["actions"]["fly"]["do"].append({"log": "flown " + payload.replace("{", "(").replace("}", ")")})
    rules = load_text(yaml.safe_dump(data), "payload.yaml")
    game = play_random(rules, 2, 1, 100)
    source = rules.generated.source
    assert "__import__" not in source and "import os" not in source and "pwned" not in source
    assert any(payload.replace("{", "(").replace("}", ")") in label for label in game.legal_options() + tuple(
        str(line) for line in game.state.log)) or game.state.log


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_step_name_is_only_ever_a_comment_or_a_cleaned_name(payload):
    """A step's name reaches generated code as a comment (printable ASCII, one line) and as a function name
    reduced to identifier characters, in its options and in the turn's transition."""
    data = yaml.safe_load(CUBIRDS)
    data["flow"]["round"]["turn"]["steps"][1]["name"] = "draw " + payload
    rules = load_text(yaml.safe_dump(data), "payload.yaml")
    play_random(rules, 2, 1, 60)
    source = rules.generated.source
    assert "def T_turn_start" in source and "# step draw " in source
    for line in source.splitlines():
        if "import" in line:
            code = line.strip()
            assert code.startswith("#") or re.fullmatch(r"(def )?[A-Za-z0-9_]+\((g, e, me|g, e, g\.current)\):?", code) \
                or re.fullmatch(r"_o = [A-Za-z0-9_]+\(g, e, g\.current\)", code), line


def test_a_file_name_cannot_end_a_comment_in_the_source(tmp_path):
    evil = tmp_path / "evil\nimport os\n'.yaml"
    evil.write_text(CUBIRDS)
    rules = load(str(evil))
    play_random(rules, 2, 1, 50)
    assert "\nimport os" not in rules.generated.source
    compile(python_source(rules), "<check>", "exec")


@pytest.mark.parametrize("literal,value", [("007", 7), ("0", 0), ("1000000000000", 10 ** 12)])
def test_numbers_are_numbers(literal, value):
    rules = load("cubirds")
    fn = rules.expression(f"{literal} + 0")
    assert fn(None, {}, None) == value
    assert "import" not in fn.source


def test_generated_code_sees_only_safe_builtins():
    rules = load("cubirds")
    Game.new(rules, 2, seed=1)
    allowed = set(SAFE_BUILTINS)
    for action in rules.actions.values():
        assert set(action.listed.__globals__["__builtins__"]) == allowed
    fn = rules.expression("count(deck)")
    assert set(fn.__globals__["__builtins__"]) == allowed
    assert not {"__import__", "open", "eval", "exec", "getattr", "compile"} & allowed


def test_explain_python_prints_code_that_compiles():
    rules = load("cubirds")
    text = python_source(rules)
    assert "def O_lay" in text and "def B_do_lay" in text and "# the options of fly" in text
    compile(text, "<explain>", "exec")
    # effects are told by the ruleset file's name, line and column, not by a folder of this machine
    places = re.findall(r"^\s*# \w+ \(([^)]*)\)$", text, re.M)
    assert places and all(re.fullmatch(r"cubirds\.yaml:\d+:\d+", p) for p in places), places[:3]


WALKER = """\
name: walker
players: {min: 2, max: 2}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 10}
zones:
  deck: {visibility: count}
  hand: {per_player: true}
variables: {x: 0, xs: [3, 1, 3, 2, 2, 3], t: "abc", n: 5}
actions:
  take:
    args: {card: deck}
    do:
      - move: {cards: card, from: deck, to: me.hand}
      - set: {x: EXPR}
flow:
  round:
    turn:
      steps: [take]
limits:
  turns: 4
"""


def outcome(rules, seed=1):
    """Play a few turns: the history and variables, or the error the game ended in."""
    try:
        game = play_random(rules, 2, seed, 3)
    except GameError as exc:
        return str(exc)
    return game.state.history, game.state.vars


@pytest.mark.parametrize("expr", [
    "distinct(xs)", "counts(xs)", "take(xs, 2)", "drop(xs, 4)", "reverse(xs)", "sort(xs)", "min(xs)",
    "max(xs)", "sum(xs)", "index_of(xs, 2)", "count(distinct(xs))", "count(distinct(me.hand))",
    "counts(me.hand.value)", "sum(map(xs, it * n))", "take(me.hand, 1)", "count(me.hand + deck)",
    "count(map(range(100000), count(deck + me.hand)))",
    # refused at run time, in the builtin's words
    "sum(t)", "counts(n)", "take(n, 1)", "count(distinct(n))", "sort(t)",
    # past the budget: a list walked a million times over
    "count(map(range(100000), count(distinct(range(100000)))))",
])
def test_walking_builtins_play_as_the_interpreter_in_an_actions_effects(expr):
    """An action whose effects ask nothing runs as one generated function (no frame): values, errors and
    their places are the interpreter's."""
    text = WALKER.replace("EXPR", f"'{expr}'")
    fast, slow = load_text(text, "walker.yaml"), unprepared(load_text(text, "walker.yaml"))
    Game.new(fast, 2, seed=1)
    assert fast.actions["take"].direct is not None
    assert outcome(fast) == outcome(slow)
    if expr in ("sum(t)", "counts(n)", "take(n, 1)", "sort(t)"):
        assert outcome(fast).startswith(f"walker.yaml:{text.splitlines().index(f'      - set: {{x: {chr(39)}{expr}{chr(39)}}}') + 1}:")


def test_an_action_run_without_a_frame_counts_its_effects_in_the_step():
    """A loop in an action's effects that never ends is stopped by the budget, at the loop, as the VM stops it."""
    text = WALKER.replace("      - set: {x: EXPR}", "      - while: true\n        max: 100000\n        do:\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}")
    fast, slow = load_text(text, "walker.yaml"), unprepared(load_text(text, "walker.yaml"))
    message = outcome(fast)
    assert message == outcome(slow)
    line = text.splitlines().index("      - while: true") + 1
    assert message.startswith(f"walker.yaml:{line}:") and "more than 1,000,000 effects ran in one step" in message
