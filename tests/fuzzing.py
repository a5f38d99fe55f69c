"""Fuzz targets shared by the fast suite (tests/test_fuzz.py) and the long run (benchmarks/fuzz_long.py):
Hypothesis strategies + one check per target, each counting what it saw in `COUNTS`.

Every target asserts the same thing: whatever the input, only the project's own errors
(RulebookError and its kinds) come out, and a game that takes an input either refuses it or goes
on playing. What each case ended in is counted, so that the long run can say what it tried.
"""
from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter, defaultdict

import yaml
from hypothesis import strategies as st

from interpreter import Game, GameError, RulebookError, RulesetError, load, load_text
from interpreter.source import read_file
from helpers import shipped_rulesets

COUNTS: dict[str, Counter] = defaultdict(Counter)
# Python's words leaking into a message meant for an author: counted (the long run prints examples)
PYTHON_WORDS = re.compile(r"NoneType|object is not|not supported between|unsupported operand|Traceback|"
                          r"'(int|str|list|dict|tuple)'")
LEAKS: list[str] = []

SOURCES = {p.stem: p.read_text(encoding="utf-8") for p in shipped_rulesets()
           if "extends" not in read_file(p).data}          # the bases (loaded from their text)
DATA = {name: read_file(p).data for name, p in ((p.stem, p) for p in shipped_rulesets()) if name in SOURCES}
# the variants: each extends a bundled base by name, so that a mutant written anywhere loads as `validate`
# loads it (read, merged over its base, checked, compiled)
VARIANTS = {p.stem: read_file(p).data for p in shipped_rulesets() if "extends" in read_file(p).data}

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 20), st.sampled_from(
    ["", "deck", "me.hand", "count(", "it", "[1, 2]", "x.y.z", "end_turn", "-1", "true", "{a}", "players"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.sampled_from(
    ["from", "to", "count", "when", "do", "args", "if", "move", "x"]), SCALARS, max_size=3))
# what an expression's word may be swapped for: other kinds of values, other names, big numbers
TOKENS = ["none", "'a'", "[]", "[1]", "0", "-1", "99", "1000000000000", "me", "deck", "players", "true",
          "me.hand", "first(deck)", "count(deck)", "turn", "current", "it"]
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths(v, prefix + (i,))


def mutate(data, path, how, value):
    data = copy.deepcopy(data)
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


def _message(target: str, exc: Exception) -> None:
    text = str(exc)
    if PYTHON_WORDS.search(text):
        COUNTS[target]["python words in the message"] += 1
        LEAKS.append(f"{target}: {text[:300]}")


def check_ruleset(text: str, name: str, target: str, moves: int = 60, seeds=(1,), folder=None) -> None:
    """Loading and a few short random games end well or in the project's own errors (`folder`: the
    mutant is written there and loaded from the file, its base merged, as `rulebook validate` does)."""
    counts = COUNTS[target]
    counts["cases"] += 1
    try:
        if folder is None:
            rules = load_text(text, f"{name}-mutant.yaml")
        else:
            path = folder / f"{name}-mutant.yaml"
            path.write_text(text, encoding="utf-8")
            rules = load(str(path))
    except RulesetError as exc:
        # generation refusing what the compiler accepted is the project's own fault, not the author's
        generated = [d.message for d in exc.diagnostics if d.code == "generate"]
        assert not generated, generated[0]
        counts["refused at load"] += 1
        return
    except RulebookError:
        counts["refused at load"] += 1
        return
    counts["loaded"] += 1
    for seed in seeds:
        try:
            game = Game.new(rules, rules.min_players, seed=seed, record=True)
            rng = random.Random(seed)
            for _ in range(moves):
                if game.is_over:
                    break
                game.decision                      # labels and prompt are made outside the VM
                game.apply(rng.randrange(game.option_count()))
            game.view(0)
            counts["games played"] += 1
        except RulebookError as exc:
            counts["games ended in a game error"] += 1
            _message(target, exc)


# (a) rulesets -------------------------------------------------------------------------------------

def structural(name, data):
    tree = DATA[name]
    path = data.draw(st.sampled_from(list(paths(tree))))
    how = data.draw(st.sampled_from(["delete", "replace", "duplicate"]))
    value = data.draw(VALUES)
    mutant = mutate(tree, path, how, value) if path else value
    check_ruleset(yaml.safe_dump(mutant, allow_unicode=True, sort_keys=False), name, "rulesets: structure")


def variant(name, data, folder):
    """A variant mutated (a key deleted, replaced or duplicated), loaded over its base from a file."""
    tree = VARIANTS[name]
    path = data.draw(st.sampled_from([p for p in paths(tree) if p != ("extends",)]))
    how = data.draw(st.sampled_from(["delete", "replace", "duplicate"]))
    mutant = mutate(tree, path, how, data.draw(VALUES)) if path else tree
    if not isinstance(mutant, dict):
        mutant = {"extends": tree["extends"], "name": name}
    check_ruleset(yaml.safe_dump(mutant, allow_unicode=True, sort_keys=False), name, "rulesets: variants",
                  folder=folder)


def textual(name, data):
    lines = SOURCES[name].splitlines(True)
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
    check_ruleset("".join(lines), name, "rulesets: text")


def expression(name, data):
    """A word of one expression swapped for a value of another kind: what passes the kinds at load
    must fail at run time in the author's words, if at all."""
    tree = DATA[name]
    spots = [p for p in paths(tree) if p and isinstance(_at(tree, p), str) and WORD.search(_at(tree, p))]
    path = data.draw(st.sampled_from(spots))
    text = _at(tree, path)
    words = list(WORD.finditer(text))
    m = words[data.draw(st.integers(0, len(words) - 1))]
    new = text[:m.start()] + data.draw(st.sampled_from(TOKENS)) + text[m.end():]
    mutant = mutate(tree, path, "replace", new)
    check_ruleset(yaml.safe_dump(mutant, allow_unicode=True, sort_keys=False), name, "rulesets: expressions",
                  moves=80, seeds=(1, 2))


def _at(tree, path):
    for k in path:
        tree = tree[k]
    return tree


# (b) saves ----------------------------------------------------------------------------------------

_SAVES = {}


def saves():
    """A few saves of bundled games at different moments (made once)."""
    if not _SAVES:
        for name, players, moves in (("cubirds", 3, 7), ("pit", 4, 5), ("piepmatz", 2, 12), ("souk", 3, 6),
                                     ("forehead-poker", 3, 3)):
            try:
                rules = load(name)
            except RulebookError:
                continue
            game = Game.new(rules, players, seed=3)
            rng = random.Random(3)
            for _ in range(moves):
                if game.is_over:
                    break
                game.apply(rng.randrange(game.option_count()))
            _SAVES[name] = (rules, json.loads(json.dumps(game.to_json())))
    return _SAVES


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.integers(), st.text(max_size=5),
                 st.just([]), st.just({}), st.just({"$card": 10 ** 6}), st.just({"$player": -1}),
                 st.lists(st.integers(-2, 120), max_size=4))


def damaged_save(name, data):
    rules, save = saves()[name]
    damaged = copy.deepcopy(save)
    for _ in range(data.draw(st.integers(1, 3))):
        spots = list(paths(damaged))
        path = data.draw(st.sampled_from(spots))
        if not path:
            continue
        how = data.draw(st.sampled_from(["delete", "replace", "duplicate"]))
        damaged = mutate(damaged, path, how, data.draw(JUNK))
    counts = COUNTS["saves"]
    counts["cases"] += 1
    try:
        game = Game.from_json(rules, damaged)
    except GameError:
        counts["refused"] += 1
        return
    counts["accepted"] += 1
    try:
        for p in range(game.state.n):
            game.view(p)
        rng = random.Random(1)
        for _ in range(20):
            if game.is_over:
                break
            game.decision
            game.apply(rng.randrange(game.option_count()))
        counts["accepted and played on"] += 1
    except RulebookError as exc:
        counts["accepted, then a game error"] += 1
        _message("saves", exc)


# (c) the API --------------------------------------------------------------------------------------

ARGS = st.one_of(st.none(), st.booleans(), st.integers(-5, 50), st.integers(), st.floats(allow_nan=True),
                 st.text(max_size=6), st.lists(st.integers(-1, 5), max_size=3), st.just({}), st.just("pass"))
CALLS = ["apply", "apply_index", "apply_label", "view", "decision", "clone", "save", "replay", "new", "decisions"]


def api_calls(data):
    rules = load(data.draw(st.sampled_from(["cubirds", "pit", "piepmatz"])))
    counts = COUNTS["api"]
    counts["sequences"] += 1
    game = Game.new(rules, rules.min_players, seed=data.draw(st.integers(0, 5)))
    for _ in range(data.draw(st.integers(1, 12))):
        call = data.draw(st.sampled_from(CALLS))
        counts["calls"] += 1
        before = game.to_json()
        try:
            if call == "apply":
                game.apply(data.draw(ARGS))
            elif call == "apply_index" and not game.is_over:
                game.apply(data.draw(st.integers(0, game.option_count() - 1)))
            elif call == "apply_label" and not game.is_over:
                game.apply(data.draw(st.sampled_from(game.decision.options)))
            elif call == "view":
                game.view(data.draw(ARGS), ids=data.draw(st.booleans()))
            elif call == "decision":
                game.decision
            elif call == "decisions":
                game.decisions()
            elif call == "clone":
                game = game.clone()
            elif call == "save":
                game = Game.from_json(rules, json.loads(json.dumps(game.to_json())))
            elif call == "replay":
                Game.replay(rules, rules.min_players, 1, data.draw(st.one_of(ARGS, st.lists(ARGS, max_size=4))))
            elif call == "new":
                Game.new(rules, data.draw(ARGS), seed=data.draw(ARGS), params=data.draw(st.one_of(st.none(), ARGS)))
            counts["returned"] += 1
        except RulebookError as exc:
            counts["refused"] += 1
            _message("api", exc)
            if call.startswith("apply"):
                assert game.to_json() == before, "a refused choice changed the game"
