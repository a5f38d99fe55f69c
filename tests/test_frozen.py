"""A ruleset is compiled once, when it loads, and then frozen: games, clones, saves, views, bots, explain
and scenario checks read it and never change it, nor anything hanging from it (its nodes, blocks, choices,
layouts, names, generated module)."""
from __future__ import annotations

import hashlib
import random
import types

import pytest
from lark import Token, Tree

from interpreter import Game, load
from interpreter.agents import make_agent
from interpreter.agents.base import Request
from interpreter.codegen import python_source
from interpreter.explain import explain_markdown
from helpers import shipped_rulesets

SKIP = (types.ModuleType, type)   # what a ruleset refers to but does not own


def fingerprint(rules) -> str:
    """A digest of everything reachable from the ruleset: every value, and which objects are the same
    object (a value replaced by an equal copy shows too). Functions count by identity and by their
    attributes (compiled expressions carry their kind, text, tree, ...), not by their globals."""
    h = hashlib.sha256()
    seen: dict = {}
    alive = []   # what was visited stays alive, so that no id is used twice
    todo = [rules]
    while todo:
        v = todo.pop()
        alive.append(v)
        if isinstance(v, (str, int, float, bool, bytes, type(None), Token)) or isinstance(v, SKIP):
            h.update(repr(v).encode() + b"\x00")
            continue
        if id(v) in seen:
            h.update(b"@%d\x00" % seen[id(v)])
            continue
        seen[id(v)] = len(seen)
        h.update(type(v).__name__.encode() + b"\x01")
        if isinstance(v, dict):
            items = list(v.items())
            h.update(b"{%d" % len(items))
            for k, x in reversed(items):
                todo += [x, k]
        elif isinstance(v, (list, tuple)):
            h.update(b"[%d" % len(v))
            todo += list(reversed(v))
        elif isinstance(v, (set, frozenset)):
            h.update(b"(%d" % len(v))
            todo += sorted(v, key=repr)
        elif isinstance(v, Tree):
            todo += [v.data, v.children]
        elif isinstance(v, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
            h.update(getattr(v, "__qualname__", "?").encode())
            todo.append(getattr(v, "__dict__", {}))
            if isinstance(v, types.MethodType):
                todo.append(v.__self__)
        else:
            attrs = dict(getattr(v, "__dict__", {}))
            for name in getattr(type(v), "__slots__", ()):
                if hasattr(v, name):
                    attrs[name] = getattr(v, name)
            todo.append(attrs)
    return h.hexdigest()


def use_everything(rules, players: int, seed: int) -> None:
    """Play a game with the bots, look at it as every player and an onlooker, clone it, save and restore it,
    read its options and story, explain the ruleset and print its code, and compile an expression."""
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    bots = [make_agent("greedy", seed), make_agent("mcts:iterations=8", seed)]
    for i in range(60):
        if game.is_over:
            break
        game.decisions()
        [game.view(p) for p in range(players)] + [game.view(None)]
        if i % 10 == 3:
            choice = bots[i % 2].choose(Request(game, game.current_player))
        else:
            choice = rng.randrange(game.option_count())
        copy = game.clone()
        copy.apply(choice)
        game.apply(choice)
        if i % 15 == 0:
            game = Game.from_json(rules, game.to_json())
    from interpreter.present.narrate import story
    story(game, 0)
    explain_markdown(rules)
    python_source(rules)
    rules.expression("count(deck) + 1") if "deck" in rules.zones else rules.expression("1 + 1")
    Game.replay(rules, players, seed, game.state.history)


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_a_ruleset_is_not_changed_by_games_clones_saves_bots_or_tools(path):
    rules = load(str(path))
    before = fingerprint(rules)
    use_everything(rules, rules.min_players, 1)
    use_everything(rules, rules.max_players, 2)
    assert fingerprint(rules) == before


def test_the_fingerprint_sees_a_change_anywhere():
    """The check above can fail: a value changed deep inside (a compiled expression's text, a layout's
    slot, an attribute of a node) or replaced by an equal copy changes the digest."""
    rules = load("cubirds")
    before = fingerprint(rules)
    step = next(n for n in rules.nodes if type(n).__name__ == "Step")
    step.optional = not step.optional
    assert fingerprint(rules) != before
    step.optional = not step.optional
    assert fingerprint(rules) == before
    layout = next(iter(rules.layouts.values()))
    rules.layouts[next(iter(rules.layouts))] = type(layout).__new__(type(layout))
    assert fingerprint(rules) != before
    rules = load("cubirds")
    before = fingerprint(rules)
    action = rules.actions["lay"]
    action.domains[0].text = action.domains[0].text + " "
    assert fingerprint(rules) != before
