"""Position values as generated code (codegen/scoring.py): `agents: evaluate` and the score parts give the
numbers of their expressions (each called alone) and pay the same work budget, tell errors at the
expression (so do the tie-breakers, read by calling their expressions), and keep author text out of the
source."""
from __future__ import annotations

import random

import pytest
import yaml

from interpreter import Game, GameError, load, load_text
from interpreter.agents import make_agent
from interpreter.agents.base import Request
from interpreter.codegen import python_source
from interpreter.engine.lookahead import evaluator, position_value
from helpers import shipped_rulesets

SCORED = shipped_rulesets()   # every bundled ruleset declares `evaluate` or score parts (its own or its base's)


def positions(rules, players: int, seed: int, steps: int = 160, every: int = 8):
    """States of a seeded random game, every few decisions (copies: the game goes on)."""
    game = Game.new(rules, players, seed=seed, record=False)
    rng = random.Random(seed)
    out = []
    for i in range(steps):
        if game.is_over:
            break
        if i % every == 0:
            out.append(game.clone().state)
        game.apply(rng.randrange(game.option_count()))
    return out + [game.state]


def charged(fn, g, *args):
    """fn's value and the work it took from the step's budget."""
    g.work = 500_000
    value = fn(g, *args)
    return value, 500_000 - g.work


@pytest.mark.parametrize("path", SCORED, ids=lambda p: p.stem)
def test_generated_values_are_the_expressions_with_the_same_work(path):
    rules = load(str(path))
    parts = [expr for _, expr in rules.scoring.parts]
    if rules.evaluate is None and not parts:
        pytest.skip("neither 'agents: evaluate' nor score parts")
    assert (rules.evaluation is not None) == (rules.evaluate is not None)
    assert (rules.scoring.values is not None) == bool(parts)
    checked = 0
    for players in sorted({rules.min_players, rules.max_players}):
        for seed in (1, 2):
            for g in positions(rules, players, seed):
                for p in g.players:
                    if rules.evaluate is not None:
                        want = charged(lambda g: rules.evaluate(g, {"me": p}, None), g)
                        assert charged(rules.evaluation, g, p) == want
                    if parts:
                        want = charged(lambda g: [expr(g, {"me": p}, None) for expr in parts], g)
                        assert charged(rules.scoring.values, g, p) == want
                    checked += 1
    assert checked > 20


BANK = """
name: bank
players: {min: 2, max: 2}
components:
  coin:
    label: "coin {value}"
    in: pile
    cards:
      - {each: {value: [1, 2, 3, 4, 5, 6, 7, 8]}}
zones:
  pile: {visibility: count}
  hand: {per_player: true, visibility: owner}
  bank: {per_player: true}
setup:
  - shuffle: pile
  - deal: {from: pile, to: hand, count: 4}
actions:
  keep:
    args: {coin: me.hand}
    label: "bank {coin}"
    do: [{move: {cards: coin, from: me.hand, to: me.bank}}]
flow:
  ends: [{when: 'all(players, count(it.hand) == 0)'}]
  round: {turn: {steps: [keep]}}
scoring:
  parts:
    coins: sum(me.bank.value)
    rate: PART
agents:
  evaluate: EVALUATE
"""


def bank(evaluate: str, part: str):
    text = BANK.replace("EVALUATE", evaluate).replace("PART", part)
    rules = load_text(text, "bank.yaml")
    lines = text.splitlines()
    where = {}
    for key, expr in (("evaluate", evaluate), ("rate", part)):
        line = next(i for i, t in enumerate(lines) if t.strip().startswith(f"{key}: {expr}"))
        where[key] = f"bank.yaml:{line + 1}:{lines[line].index(expr) + 1}"
    return rules, where


def raised(fn, *args) -> str:
    with pytest.raises(GameError) as info:
        fn(*args)
    return str(info.value)


@pytest.mark.parametrize("bad,evaluate,part,message", [
    ("evaluate", "me.bank[1].value", "count(me.bank) * 2", "[1] is past the end of a list of 0 items"),
    ("rate", "count(me.bank) * 2", "me.bank[1].value", "[1] is past the end of a list of 0 items"),
    ("evaluate", "100 / (count(me.bank) - count(me.bank))", "count(me.bank)",
     "ruleset error in '100 / (count(me.bank) - count(me.bank))': division by zero"),
    ("rate", "count(me.bank)", "7 % count(me.bank)", "ruleset error in '7 % count(me.bank)': division by zero"),
    ("evaluate", "1000000 * 1000000 * 1000000 * (count(me.hand) + 2)", "0",
     "a number grew past 1,000,000,000,000,000,000 (10^18)"),
])
def test_an_error_inside_an_evaluation_is_told_at_the_expression(bad, evaluate, part, message):
    """Wherever the position is scored (a bot's value, the score totals, final scoring, a greedy bot's
    choice), the error names the expression's file, line and column, then says what went wrong in the
    words the expression itself raises."""
    rules, where = bank(evaluate, part)
    game = Game.new(rules, 2, seed=1)
    g, p = game.state, game.current_player
    told = f"{where[bad]}: {message}"
    later = told.replace("of 0 items", "of 1 item")   # a bot's lookahead scores the bank after one coin
    if bad == "evaluate":
        assert raised(position_value(rules), g, p) == told
        assert raised(evaluator(rules), g) == told
        assert raised(make_agent("greedy", 1).choose, Request(game, p)) == later
        assert position_value(rules, "score")(g, p) == 0
    else:
        assert raised(position_value(rules, "score"), g, p) == told
        assert raised(rules.scoring.score, game, g) == told
        assert raised(make_agent("greedy:by=score", 1).choose, Request(game, p)) == later
        assert position_value(rules)(g, p) == 0
    expr = rules.evaluate if bad == "evaluate" else rules.scoring.parts[1][1]
    try:   # the expression alone: what the message says after its location
        expr(g, {"me": p}, None)
    except GameError as exc:
        assert told == f"{where[bad]}: {exc}"
    except ZeroDivisionError:
        assert told.endswith(": division by zero")
    else:
        raise AssertionError("the expression did not fail")


@pytest.mark.parametrize("breaker,message", [
    ("10 / (count(me.bank) - count(me.bank))", "ruleset error in '10 / (count(me.bank) - count(me.bank))': "
                                               "division by zero"),
    ("none if me == first(players) else 1", "a tie-breaker compares values of one kind, not a number and none"),
])
def test_an_error_in_a_tie_breaker_is_told_at_the_tie_breaker(breaker, message):
    """The tie-breakers stay interpreted (read once, at the game's end); their errors are still told at
    the tie-breaker, not at the end check that ended the game. Totals tie (one part, always 0), so the
    tie-breakers are compared."""
    text = BANK.replace("    coins: sum(me.bank.value)\n    rate: PART\n",
                        f"    flat: 0\n  tie_breakers:\n    - \"{breaker}\"\n").replace("EVALUATE", "0")
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines) if breaker in t)
    where = f"tied.yaml:{line + 1}:{lines[line].index(breaker) + 1}"
    game = Game.new(load_text(text, "tied.yaml"), 2, seed=1)
    with pytest.raises(GameError) as info:
        while not game.is_over:
            game.apply(0)
    assert str(info.value) == f"{where}: {message}"


def test_an_evaluation_past_the_work_budget_is_told_at_the_expression_after_the_same_work():
    """Whatever is left of the step's budget, the evaluation succeeds or fails as the expression does, at
    the same point; `me.hand.value`, read twice, is made once in generated code and paid for twice."""
    rules, where = bank("count(me.hand where value > 2) + count(distinct(me.hand.value)) + sum(me.hand.value)",
                        "sum(me.hand.value)")
    g = Game.new(rules, 2, seed=1).state
    value, cost = charged(lambda g: rules.evaluate(g, {"me": 0}, None), g)
    assert cost == 20   # `where` walks the hand's 4 cards, `.value` 4 twice, `distinct` and `sum` 4 each
    body = rules.generated.source.split("def V_evaluate")[1].split("def V_parts")[0]
    assert body.count("[A_value[") == 1   # one list of the values
    budget = "this step went through more than 1,000,000 list items without a decision (see Limits in the " \
             "language reference)"
    for left in range(cost + 1):
        g.work = left
        if left < cost:
            assert raised(position_value(rules), g, 0) == f"{where['evaluate']}: {budget}"
        else:
            assert position_value(rules)(g, 0) == value
        after = g.work
        g.work = left
        try:
            rules.evaluate(g, {"me": 0}, None)
        except GameError:
            pass
        assert g.work == after


SHARED = [
    "count(distinct(me.hand.value)) + sum(me.hand.value) + max(me.hand.value)",
    "(count(me.bank) > 0 and max(me.bank.value) > 4) + sum(me.bank.value)",
    "max(me.hand.value) if count(me.hand) > 2 else sum(me.hand.value) + count(me.hand.value)",
    "count(me.hand where value in me.bank.value) + sum(me.bank.value) + max(me.bank.value)",
    "sum(map(players, p -> sum(p.bank.value))) + sum(me.bank.value) - sum(me.bank.value)",
    "count(distinct(pile.value)) * 2 + sum(pile.value) + sum(current.hand.value) - sum(current.hand.value)",
]


@pytest.mark.parametrize("evaluate", SHARED)
def test_a_list_read_twice_is_made_once_and_counts_as_read_twice(evaluate):
    """Short-circuits, conditions, per-item parts, other players: the generated value and work are the
    expression's alone at every position of seeded games."""
    rules, _ = bank(evaluate, "0")
    seen = 0
    for seed in (1, 2, 3):
        for g in positions(rules, 2, seed, 12, 1):
            for p in g.players:
                assert charged(rules.evaluation, g, p) == charged(lambda g: rules.evaluate(g, {"me": p}, None), g)
                seen += 1
    assert seen > 20
    body = rules.generated.source.split("def V_evaluate")[1].split("def V_parts")[0]
    assert "_list" in body


COUNTED = [
    ("count(distinct(me.hand.value)) + count(counts(me.hand.value) where it >= 2)", "_counted"),
    ("count(distinct(pile.value)) * 2 + count(counts(pile.value)) + count(distinct(current.hand.value))",
     "_counted"),
    ("(count(distinct(me.bank.value)) > 2 and count(counts(me.bank.value) where it > 1) > 0) + 1", "_counted"),
    ("10 * count(distinct(me.hand.value)) + sum(counts(me.hand.value))", "_counted"),
    # one place reads the values for more than a count of them: the list form
    ("count(distinct(me.hand.value)) + sum(me.hand.value)", "_list"),
    ("count(distinct(me.hand.value)) + count(me.hand.value)", "_list"),
]


@pytest.mark.parametrize("evaluate,form", COUNTED)
def test_values_only_counted_are_counted_once_and_paid_where_each_place_paid(evaluate, form):
    """`count(distinct(X.attr))` and `counts(X.attr)` of the same cards in one expression: the cards are counted
    by value once (R_counted), and each place pays the walks it paid: the value and the work are the
    expression's alone at every position, and with any budget left it succeeds or fails at the same point."""
    rules, _ = bank(evaluate, "0")
    body = rules.generated.source.split("def V_evaluate")[1].split("def V_parts")[0]
    assert form in body and ("_counted" not in body if form == "_list" else True)
    seen = 0
    for seed in (1, 2, 3):
        for g in positions(rules, 2, seed, 12, 1):
            for p in g.players:
                value, cost = charged(lambda g: rules.evaluate(g, {"me": p}, None), g)
                assert charged(rules.evaluation, g, p) == (value, cost)
                for left in range(cost):
                    g.work = left
                    with pytest.raises(GameError):
                        rules.evaluation(g, p)
                    after, g.work = g.work, left
                    with pytest.raises(GameError):
                        rules.evaluate(g, {"me": p}, None)
                    assert g.work == after
                seen += 1
    assert seen > 20


def test_end_conditions_counted_once_end_the_game_as_the_conditions_do():
    """An end condition with both counts of the same cards' attribute (a set collection's goal) is written
    with the cards counted once; at every position of seeded games it picks the same end, paying the same
    work, as the conditions evaluated one by one."""
    rules = load("cubirds")
    node = next(n for n in rules.nodes if type(n).__name__ == "EndChecks")
    assert "R_zone_counted(" in rules.generated.source
    checked = 0
    for seed in (1, 2):
        for g in positions(rules, 3, seed, 200, 3):
            env = {"me": g.current}
            g.work = 500_000
            got = node.first_end(g, env)
            paid = 500_000 - g.work
            g.work = 500_000
            want = next((i for i, (cond, *_) in enumerate(node.game_ends + node.round_ends)
                         if cond(g, env, None)), -1)
            assert (got, paid) == (want, 500_000 - g.work)
            checked += 1
    assert checked > 40


PAYLOADS = ["'); __import__('os').system('echo pwned'); ('", "\"\"\"; import os; \"\"\"", "x\n__import__('os')"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_names_and_texts_of_scoring_never_reach_the_source(payload):
    """A part's name is a key of the score table only; a text in an expression is a namespace constant."""
    data = yaml.safe_load(BANK.replace("EVALUATE", "count(me.bank)").replace("PART", "0"))
    quote = '"' if '"' not in payload else "'"
    text = payload.replace(quote, "").replace("\n", " ")
    data["scoring"]["parts"] = {payload: "sum(me.bank.value)",
                                "flag": f"count(me.bank) + ({quote}{text}{quote} == 'x')"}
    data["agents"]["evaluate"] = f"count(me.bank) * 3 + ({quote}{text}{quote} != 'x')"
    rules = load_text(yaml.safe_dump(data), "payload.yaml")
    game = Game.new(rules, 2, seed=1)
    source = rules.generated.source
    assert "__import__" not in source and "import os" not in source and "pwned" not in source
    assert "def V_evaluate" in source and "def V_parts" in source
    game.apply(0)
    p = game.state.players[0]
    coin = rules.cards[game.state.zones[rules.zone_slot("bank", 2, p)][0]]["value"]
    assert rules.scoring.score(game, game.state)[p] == {payload: coin, "flag": 1, "total": coin + 1}
    assert position_value(rules)(game.state, p) == 4


def test_explain_python_shows_the_evaluation_functions_with_what_they_are():
    source = python_source(load("pit"))
    lines = source.splitlines()
    for name, words in (("def V_evaluate", "'agents: evaluate'"), ("def V_parts", "the score parts")):
        at = next(i for i, line in enumerate(lines) if line.startswith(name))
        assert lines[at - 1].startswith("# ") and words in lines[at - 1]


QUANTIFIED_ENDS = """
name: quantified-ends
players: {min: 2, max: 4}
components:
  chip:
    in: deck
    total: 12
    cards:
      - {each: {n: [1, 2, 3]}, count: 4}
zones:
  deck: {visibility: hidden}
  stack: {per_player: true, visibility: count}
player_variables:
  points: 0
setup:
  - deal: {from: deck, to: stack, count: 2}
actions:
  pass:
    do:
      - add: {me.points: 1}
flow:
  ends:
    - when: any(players, 6 / (it.points - 4) > 5)
      reason: a division
    - when: all(players, count(it.stack) == 0)
      reason: every stack is empty
    - when: any(players where it.points > 1, it.points == 3)
      reason: three
  round:
    turn:
      steps: [pass]
scoring:
  parts:
    points: me.points
"""


def _first_end(fn, g, env):
    """What an end check gives: the index and the work paid, or the error and the work paid."""
    g.work = 500_000
    try:
        return fn(g, env), 500_000 - g.work
    except (GameError, ZeroDivisionError) as exc:   # the VM tells a Python error at the condition
        return f"{type(exc).__name__}: {exc}", 500_000 - g.work


def test_end_conditions_any_and_all_written_as_loops_stop_where_the_generators_stopped():
    """`any(xs, test)` and `all(xs, test)` as a whole end condition are written as a loop that stops at the
    first item that decides (no generator): for every mix of points and stacks of three players, the same end,
    the same error (a division by zero only when reached) and the same work as the conditions evaluated one by
    one; with less budget, both stop at the same point."""
    from itertools import product
    rules = load_text(QUANTIFIED_ENDS, "quantified.yaml")
    node = next(n for n in rules.nodes if type(n).__name__ == "EndChecks")
    body = rules.generated.source.split("def E_ends")[1].split("\ndef ")[0]
    assert body.count("\n    for _x") == 3 and "any(" not in body and "all(" not in body   # loops, no generator
    conds = [cond for cond, *_ in node.game_ends + node.round_ends]

    def one_by_one(g, env):
        return next((i for i, cond in enumerate(conds) if cond(g, env, None)), -1)

    game = Game.new(rules, 3, seed=1, record=False)
    g = game.state
    stacks = [rules.zone_slot("stack", 3, p) for p in g.players]
    full = [list(g.zones[s]) for s in stacks]
    outcomes = set()
    for points in product((0, 2, 3, 4, 5), repeat=3):
        for empty in product((False, True), repeat=3):
            g.pvars["points"] = list(points)
            for s, cards, e in zip(stacks, full, empty):
                g.zones[s] = [] if e else list(cards)
            env = {"me": g.players[0]}
            want = _first_end(one_by_one, g, env)
            assert _first_end(node.first_end, g, env) == want, (points, empty)
            outcomes.add(want[0] if type(want[0]) is int else "error")
            for left in range(want[1]):
                g.work = left
                with pytest.raises(GameError) as generated:
                    node.first_end(g, env)
                g.work = left
                with pytest.raises(GameError) as expected:
                    one_by_one(g, env)
                assert str(generated.value) == str(expected.value)
    assert outcomes == {-1, 0, 1, 2, "error"}


# count(xs where it OP value): counted in C (runtime/helpers.py, count_compared) where the value reads no item
# and cannot fail; the same test written `(it OP value) or false` is left as a filter: the reference
COMPARED = [
    ("me.hand.value", ">=", "3"), ("me.hand.value", ">", "-1"), ("me.hand.value", "<", "5"),
    ("me.hand.value", "<=", "0"), ("me.hand.value", "==", "2"), ("me.hand.value", "!=", "2"),
    ("me.bank.value", ">", "1"),                                # empty at the start
    ("counts(me.hand.value)", ">=", "1"),
    ("me.hand.value + [0, 9]", "<", "4"),
    ('me.hand.value + ["a"]', ">=", "2"),                       # fails at the text, as the filter does
    ("me.hand.value", ">=", '"x"'),                             # fails at the first card (none: no error)
    ("me.hand.value + range(20)", ">", "4"),                    # past 16 items: compared in C
    ('range(20) + ["a"] + me.hand.value', "<", "4"),            # fails at the text, past 16 items too
    ("count(distinct(me.hand.value)) + count(counts(me.hand.value)", ">=", "2"),   # counted once: see below
]


@pytest.mark.parametrize("items,op,value", COMPARED)
def test_a_count_of_items_compared_with_a_value_is_the_filters_count(items, op, value):
    """`count(xs where it OP value)` is counted without making the list when the value reads no item and cannot
    fail: at every position of seeded games, the same number, the same work, the same error (or none), and with
    any smaller budget the same failure at the same point as the filter it stands for."""
    if items.startswith("count(distinct"):
        fused, plain = (f"{items} where it {op} {value})", f"{items} where (it {op} {value}) or false)")
    else:
        fused, plain = (f"count({items} where it {op} {value})", f"count({items} where (it {op} {value}) or false)")
    rules, _ = bank(fused, "0")
    reference, _ = bank(plain, "0")
    body = rules.generated.source.split("def V_evaluate")[1].split("def V_parts")[0]
    assert ("R_counts_compared(" if "distinct" in items else "R_count_compared(") in body
    assert "compared(" not in reference.generated.source.split("def V_evaluate")[1].split("def V_parts")[0]

    def run(r, g, p):
        try:
            return charged(r.evaluation, g, p), None
        except GameError as exc:
            return 500_000 - g.work, str(exc).replace(plain, fused)
    seen = errors = 0
    for seed in (1, 2, 3):
        for g in positions(rules, 2, seed, 12, 1):
            for p in g.players:
                got, want = run(rules, g, p), run(reference, g, p)
                assert got == want
                errors += got[1] is not None
                cost = got[0][1] if got[1] is None else 0
                for left in range(cost):
                    g.work = left
                    with pytest.raises(GameError) as a:
                        rules.evaluation(g, p)
                    after, g.work = g.work, left
                    with pytest.raises(GameError) as b:
                        reference.evaluation(g, p)
                    assert (g.work, str(a.value)) == (after, str(b.value).replace(plain, fused))
                seen += 1
    assert seen > 20
    assert (errors > 0) is ('"' in items + value and "bank" not in items)


def test_groups_walked_pay_as_groups_then_their_walk():
    """`R_groups_of(g, items, table, True)` (groups walked over: a domain, a `where`) pays the items, then the
    groups, as R_walk of R_groups_of does: the same groups, the same work, and at every smaller budget the same
    error with the same budget left."""
    from interpreter.runtime import helpers as H

    class Budget:
        work = 0
    table = [c % 3 for c in range(12)]
    for items in ([], [4], [0, 3, 6], [1, 2, 3, 4, 5], list(range(12)), [5, 5, 2]):
        one, two = Budget(), Budget()
        one.work = two.work = 100
        assert H.groups_of(one, items, table, True) == H.walk(two, H.groups_of(two, items, table))
        assert one.work == two.work
        for left in range(100 - one.work):
            one.work = two.work = left
            with pytest.raises(GameError):
                H.groups_of(one, items, table, True)
            with pytest.raises(GameError):
                H.walk(two, H.groups_of(two, items, table))
            assert one.work == two.work


def test_a_zones_groups_and_counts_are_made_once_per_list_and_paid_as_before():
    """`R_zone_groups` and `R_zone_counted` (a zone's cards grouped or counted by an attribute) give what
    groups_of and counted give of the zone's list, with the same work and, at every smaller budget, the same
    error with the same budget left; the same list by the same table is grouped once (the groups shared), and
    a list a move put in the slot is grouped anew."""
    from interpreter.runtime import helpers as H

    class State:
        work = 0
        zones = None
    table, other = [c % 3 for c in range(12)], [c % 2 for c in range(12)]
    for items in ([], [4], [0, 3, 6], [1, 2, 3, 4, 5], list(range(12)), [5, 8, 2]):
        for walked in (False, True):
            one, two = State(), State()
            one.zones, one.work, two.work = [[], items], 100, 100
            made = H.zone_groups(one, 1, table, walked)
            assert made == H.groups_of(two, items, table, walked) and one.work == two.work
            one.work = 100
            assert H.zone_groups(one, 1, table, walked) is made and one.work == two.work   # made once, paid again
            assert H.zone_groups(one, 1, other, walked) == H.groups_of(two, items, other, walked)
            one.work = 100
            H.zone_groups(one, 1, table, walked)
            for left in range(100 - one.work):   # every budget short of one call's work
                one.work = two.work = left
                with pytest.raises(GameError):
                    H.zone_groups(one, 1, table, walked)
                with pytest.raises(GameError):
                    H.groups_of(two, items, table, walked)
                assert one.work == two.work
        one.zones = [[], items + [7]]   # a move replaced the zone's list: its groups made anew
        one.work = two.work = 100
        assert H.zone_groups(one, 1, table) == H.groups_of(two, items + [7], table)
        counts = H.zone_counted(1, items, table)
        assert counts == H.counted(items, table) and H.zone_counted(1, items, table) is counts
        assert H.zone_counted(1, items[:-1], table) == H.counted(items[:-1], table)
    rules = load("cubirds")
    assert "R_zone_groups(g, g.zbase[" in rules.generated.source and "R_zone_counted(" in rules.generated.source


def test_a_where_over_groups_reads_each_groups_first_card_without_a_check():
    """The items of `groups(...) where ...` are groups: `first(it).value` reads the table at it[0], and the count
    is the one worked out from the cards directly (their labels, "coin 5")."""
    rules, _ = bank("count(groups(me.hand + me.bank, value) where first(it).value >= 3 and last(it).value < 7)", "0")
    body = rules.generated.source.split("def V_evaluate")[1].split("def V_parts")[0]
    assert "is not None else None" not in body and "R_groups_of(" in body
    seen = 0
    for seed in (1, 2):
        for g in positions(rules, 2, seed, 12, 1):
            for p in g.players:
                cards = g.zones[rules.zone_slot("hand", 2, p)] + g.zones[rules.zone_slot("bank", 2, p)]
                values = {int(rules.card_labels[c].split()[-1]) for c in cards}
                assert rules.evaluation(g, p) == sum(3 <= v < 7 for v in values)
                seen += 1
    assert seen > 10


LABELLED = """
name: lab
players: {min: 2, max: 2}
parameters:
  limit: 3
components:
  card:
    label: "{colour} {rank}{' high' if count(range(rank - 1) where TEST) > 0 else ''}"
    in: deck
    cards:
      - {each: {colour: [red, blue], rank: RANKS}}
zones:
  deck: {}
  hand: {per_player: true}
actions:
  take:
    args: {c: deck}
    do:
      - move: {cards: c, from: deck, to: me.hand}
flow:
  ends: [{when: count(deck) == 0}]
  round: {turn: {steps: [take]}}
"""


@pytest.mark.parametrize("ranks", ["[1]", "[1, 3]"])
def test_a_compared_value_the_game_keeps_is_read_where_the_filter_reads_it(ranks):
    """A card's label is worked out at load, where no parameter can be read: `count(xs where it >= limit)` reads
    `limit` only after the walk, for a list with items, as the filter does, so a label whose list is always
    empty loads, and one whose list has items fails with the filter's error."""
    def loaded(test):
        try:
            return load_text(LABELLED.replace("TEST", test).replace("RANKS", ranks), "lab.yaml").card_labels
        except Exception as exc:   # the ruleset's error, told as the filter's
            return type(exc).__name__, str(exc).replace(test, "TEST")
    fused = loaded("it >= limit")
    assert fused == loaded("(it >= limit) or false")
    assert (fused == ["red 1", "blue 1"]) is (ranks == "[1]")
