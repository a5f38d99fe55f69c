"""Property tests: mutated shipped rulesets load into a Ruleset or fail with the project's own error -
never another exception, never a hang - and a game of whatever loads runs or fails the same way."""
from __future__ import annotations

import random

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from interpreter import Game, RulebookError, load_text
from interpreter.source import read_file
from helpers import shipped_rulesets

SOURCES = {p.stem: p.read_text(encoding="utf-8") for p in shipped_rulesets()
           if "extends" not in read_file(p).data}          # variants need their base file: use the bases
DATA = {name: read_file(p).data for name, p in ((p.stem, p) for p in shipped_rulesets()) if name in SOURCES}

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 20), st.sampled_from(
    ["", "deck", "me.hand", "count(", "it", "[1, 2]", "x.y.z", "end_turn", "-1", "true", "{a}", "players"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.sampled_from(
    ["from", "to", "count", "when", "do", "args", "if", "move", "x"]), SCALARS, max_size=3))


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths(v, prefix + (i,))


def mutate(data, path, how, value):
    data = yaml.safe_load(yaml.safe_dump(data))   # a deep copy
    if not path:
        return value
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if how == "delete":
        del parent[key]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = value
    return data


def check(text, name):
    """Loading and a short random game end well or in the project's own errors."""
    try:
        rules = load_text(text, f"{name}-mutant.yaml")
    except RulebookError:
        return
    try:
        game = Game.new(rules, rules.min_players, seed=1, record=False)
        rng = random.Random(1)
        for _ in range(60):
            if game.is_over:
                break
            game.apply(rng.randrange(game.option_count()))
    except RulebookError:
        pass


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SOURCES)), st.data())
def test_structural_mutations(name, data):
    tree = DATA[name]
    all_paths = list(paths(tree))
    path = data.draw(st.sampled_from(all_paths))
    how = data.draw(st.sampled_from(["delete", "replace", "duplicate"]))
    value = data.draw(VALUES)
    mutant = mutate(tree, path, how, value) if path else value
    check(yaml.safe_dump(mutant, allow_unicode=True, sort_keys=False), name)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SOURCES)), st.data())
def test_text_mutations(name, data):
    text = SOURCES[name]
    lines = text.splitlines(True)
    i = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["drop", "swap", "insert", "cut"]))
    if how == "drop":
        del lines[i]
    elif how == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == "insert":
        lines.insert(i, data.draw(st.text(alphabet=" -:{}[],'\"#&*!|>a1\t\n", max_size=20)) + "\n")
    else:
        line = lines[i]
        j = data.draw(st.integers(0, max(len(line) - 1, 0)))
        lines[i] = line[:j] + line[j + 1:]
    check("".join(lines), name)
