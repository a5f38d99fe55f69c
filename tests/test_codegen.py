"""Generated code, the only way effects run: installed when a ruleset loads, it keeps errors located, plays
as the engine played before it had one path (values, errors and places in tables), and cannot be broken
out of through names, labels, texts or numbers in a ruleset."""
from __future__ import annotations

import hashlib
import json
import random
import re

import pytest
import yaml

from interpreter import Game, GameError, load, load_text
from interpreter.present.log import entries
from interpreter.runtime.values import Card
from interpreter.codegen import python_source
from interpreter.engine.nodes import Segment
from interpreter.expr.emit import SAFE_BUILTINS, local_name
from helpers import ROOT
from test_codegen_turns import saved_in_words

CUBIRDS = (ROOT / "rulesets" / "cubirds.yaml").read_text()


def play_random(rules, players, seed, steps):
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.randrange(game.option_count()))
    return game


def test_the_generated_code_is_installed_when_the_ruleset_loads():
    rules = load("cubirds")
    assert rules.generated is not None
    assert all(a.listed is not None for a in rules.actions.values())
    assert any(isinstance(n, Segment) for block in rules.blocks for n in block)


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
        str(line) for line in entries(game))) or entries(game)


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
            assert code.startswith("#") or re.fullmatch(r"(def )?[A-Za-z0-9_]+\((g, e, me|g, e, g\.current|vm, g, _f, _option, _player)\):?", code) \
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


STATE = {"xs": [3, 1, 3, 2, 2, 3], "t": "abc", "n": 5}
ERROR_AT = "walker.yaml:17:9: "
BUDGET = "this step went through more than 1,000,000 list items without a decision (see Limits in the language reference)"


@pytest.mark.parametrize("expr,expected", [
    ("distinct(xs)", [3, 1, 2]), ("counts(xs)", [3, 1, 2]), ("take(xs, 2)", [3, 1]), ("drop(xs, 4)", [2, 3]),
    ("reverse(xs)", [3, 2, 2, 3, 1, 3]), ("sort(xs)", [1, 2, 2, 3, 3, 3]), ("min(xs)", 1), ("max(xs)", 3),
    ("sum(xs)", 14), ("index_of(xs, 2)", 3), ("count(distinct(xs))", 3), ("count(distinct(me.hand))", 2),
    ("counts(me.hand.value)", [2]), ("sum(map(xs, it * n))", 70), ("take(me.hand, 1)", [Card(2)]),
    ("count(me.hand + deck)", 9),
    ("count(map(range(100000), count(deck + me.hand)))", ERROR_AT + BUDGET),
    # refused at run time, in the builtin's words
    ("sum(t)", ERROR_AT + "sum() cannot work on a text"), ("counts(n)", ERROR_AT + "counts() cannot work on a number"),
    ("take(n, 1)", ERROR_AT + "take() cannot work on a number"),
    ("count(distinct(n))", ERROR_AT + "distinct() cannot work on a number"),
    ("sort(t)", ERROR_AT + "sort() cannot work on a text"),
    # past the budget: a list walked a million times over
    ("count(map(range(100000), count(distinct(range(100000)))))", ERROR_AT + BUDGET),
])
def test_walking_builtins_in_an_actions_effects(expr, expected):
    """An action whose effects ask nothing runs as one generated function (no frame): its values, errors and
    their places, as the engine gave them when it still had an interpreter of its own (taken from it)."""
    text = WALKER.replace("EXPR", f"'{expr}'")
    rules = load_text(text, "walker.yaml")
    assert rules.actions["take"].direct is not None
    want = expected if isinstance(expected, str) else ([2, 1, 4], {"x": expected, **STATE})
    assert outcome(rules) == want


def test_an_action_run_without_a_frame_counts_its_effects_in_the_step():
    """A loop in an action's effects that never ends is stopped by the budget, at the loop, as the VM stops it."""
    text = WALKER.replace("      - set: {x: EXPR}", "      - while: true\n        max: 100000\n        do:\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}\n"
                          "          - set: {x: 'x + 1'}\n          - set: {x: 'x + 1'}")
    message = outcome(load_text(text, "walker.yaml"))
    line = text.splitlines().index("      - while: true") + 1
    assert message == (f"walker.yaml:{line}:9: more than 1,000,000 effects ran in one step, without a decision, "
                       "in this 'while' loop (see Limits in the language reference)")


TAILS = """\
name: tails
players: {min: 2, max: 3}
components:
  card:
    label: "{value}"
    in: deck
    cards:
      - {value: 1, count: 3}
      - {value: 2, count: 3}
      - {value: 3, count: 2}
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  pile: {}
variables: {refills: 0, picked: 0}
procedures:
  pick_one:
    args: [from_value]
    do:
      - choose:
          prompt: "keep a {from_value} or not"
          args: {keep: '[true, false]'}
          do:
            - if: keep
              then:
                - add: {picked: from_value}
      - log: "{me} picked {picked}"
actions:
  draw:
    do:
      - move:
          from: deck
          to: me.hand
          count: 2
          if_empty:
            - add: {refills: 1}
            - choose:
                prompt: "the deck ran out"
                args: {card: me.hand}
                do:
                  - move: {cards: card, from: me.hand, to: deck}
      - if: count(me.hand) > 3
        then:
          - choose:
              args: {card: me.hand}
              label: "drop {card}"
              do:
                - move: {cards: card, from: me.hand, to: pile}
        else:
          - set: {picked: 'picked + 1'}
  deal_round:
    when: count(deck) < 4
    do:
      - deal:
          from: deck
          to: hand
          count: 1
          if_empty:
            - move: {from: pile, to: deck, count: all}
            - choose:
                args: {n: '[1, 2]'}
                do:
                  - call: pick_one
                    with: {from_value: n}
  play:
    args: {card: me.hand}
    do:
      - move: {cards: card, from: me.hand, to: pile}
      - call: pick_one
        with: {from_value: card.value}
flow:
  ends:
    - when: picked >= 12
  round:
    turn:
      steps: [{actions: [draw, deal_round, play]}]
scoring:
  parts:
    picked: picked
limits:
  turns: 60
"""


def test_effects_around_a_decision_end_their_segment_and_play_as_the_vm_played_them():
    """An `if` whose branch asks, a procedure that asks, a move's and a deal's `if_empty` that ask: each ends
    its segment (its condition, arguments or cards handled in generated code, the block that waits pushed
    for the VM); so does a `choose` asked once after effects (asked there). The games play as the VM played
    them node by node (digests taken from it, at bde3809)."""
    rules = load_text(TAILS, "tails.yaml")
    tails = {type(n.nodes[-1]).__name__ for block in rules.blocks for n in block if isinstance(n, Segment) and n.tail}
    assert tails == {"If", "Call", "Move", "Deal", "Choose"}
    assert rules.actions["draw"].direct is None   # a segment that may push is never run without its frame
    digests = {(2, 1): "6966c75e2ef20c26", (2, 2): "d65f87a2ab36e525", (2, 3): "80528ac2990f9bc1",
               (3, 1): "e9b37ad5fa9ce34c", (3, 2): "247986b2d2939c55", (3, 3): "99b38e1d7d5da1a7"}
    refilled = 0
    for (players, seed), digest in digests.items():
        game = play_random(rules, players, seed, 300)
        assert game.is_over
        refilled += game.state.vars["refills"]
        data = json.dumps({"save": saved_in_words(game), "result": game.result}, sort_keys=True, default=repr)
        assert hashlib.sha256(data.encode()).hexdigest()[:16] == digest, (players, seed)
    assert refilled > 0   # the if_empty branches ran


def test_what_generation_refuses_is_an_error_of_the_ruleset_at_the_effect(monkeypatch, tmp_path, capsys):
    """Code is generated when a ruleset loads, so `validate` tells what generation would refuse, at the
    effect it was writing (here a refusal is made to happen in the effect that writes `shuffle`)."""
    import sys
    from interpreter.effects import Shuffle
    from cli import main

    def refuse(self, w, py):
        raise ValueError("not an identifier: 'a b'")
    monkeypatch.setattr(Shuffle, "emit", refuse)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", "off")
    path = tmp_path / "refused.yaml"
    path.write_text(CUBIRDS)
    line = CUBIRDS.splitlines().index("  - shuffle: deck") + 1
    monkeypatch.setattr(sys, "argv", ["rulebook", "validate", str(path)])
    with pytest.raises(SystemExit) as stop:
        main()
    out, err = capsys.readouterr()
    assert stop.value.code == 1 and "Traceback" not in out + err
    assert f"refused.yaml:{line}:5: error[generate]: this ruleset could not be turned into Python: " \
           "not an identifier: 'a b'" in out + err


COUNTED_MOVE = """
name: counted-move
players: {min: 2, max: 2}
parameters: {n: 3}
components:
  card:
    in: deck
    cards:
      - {each: {value: [1, 2, 3, 4, 5, 6]}, count: 1}
zones:
  deck: {}
  pile: {}
  hand: {per_player: true}
setup:
  - move: {from: deck, to: pile, count: all}
  - move: {from: pile, to: deck, count: START}
actions:
  take:
    do:
      - move: {from: deck, to: me.hand, count: COUNT, if_empty: [{set: {short: 1}}]}
flow:
  round: {turn: {steps: [take]}}
  ends: [{when: turn > 1}]
variables: {short: 0}
scoring: {parts: {held: count(me.hand)}}
"""


@pytest.mark.parametrize("start", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("count", ["1", "3"])
def test_a_count_written_in_the_ruleset_moves_as_a_count_computed_does(start, count):
    """A move of a count written in the ruleset asks only whether the zone holds that many (the count is a whole
    number above 0); with every number of cards in the zone, it moves the same cards, runs the same `if_empty`
    and leaves the same state as the same count read from a parameter."""
    written = load_text(COUNTED_MOVE.replace("START", str(start)).replace("COUNT", count), "counted.yaml")
    param = COUNTED_MOVE.replace("START", str(start)).replace("COUNT", "n").replace("{n: 3}", f"{{n: {count}}}")
    computed = load_text(param, "counted.yaml")
    def applier(rules):
        return rules.generated.source.split("def A_take")[1].split("\ndef ")[0]
    assert f") < {count}:" in applier(written) and f") < {count}:" not in applier(computed)
    states = []
    for rules in (written, computed):
        game = Game.new(rules, 2, seed=1)
        game.apply(0)
        states.append((game.state.zones, game.state.vars))
    assert states[0] == states[1]


CHOSEN_DO = """
name: chosen-do
players: {min: 2, max: 2}
variables: {zero: 0, got: 0}
components:
  card: {in: deck, cards: [{value: 1, count: 4}]}
zones:
  deck: {}
actions:
  ask:
    do:
      - choose:
          args: {n: 'range(1, 4)'}
          do:
            - set: {got: n}
            - set: {got: 'got + 10 / (n - zero - 2)'}
flow:
  round: {turn: {steps: [ask]}}
  ends: [{when: turn > 3}]
scoring: {parts: {g: got}}
"""


@pytest.mark.parametrize("n", [0, 1, 2])
def test_a_chooses_do_that_never_waits_runs_at_once_as_when_pushed(n):
    """A `choose` whose `do` never waits for a decision runs it at once, without a frame (as an action's effects
    run): the same state after it, and the same error at the same place (the second option, n = 2, divides by
    zero), as when its
    block is pushed for the VM."""
    outcomes = []
    for direct in (True, False):
        rules = load_text(CHOSEN_DO, "chosen.yaml")
        node = next(x for x in rules.nodes if type(x).__name__ == "Choose")
        assert node.direct is not None
        if not direct:
            node.direct = None
        game = Game.new(rules, 2, seed=1)
        game.apply(0)
        try:
            game.apply(n)
            outcomes.append((game.state.vars, [f[1] for f in game.state.stack], game.state.pending))
        except GameError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1]
    assert (type(outcomes[0]) is str) is (n == 1)
