"""Scenario files: the shipped scenarios pass, the deliberately failing ones fail as they should, and the
pieces of the format (players, zone keys, card lists, expectations) read as documented."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import yaml

from interpreter import Game, load
from interpreter.scenario import (ScenarioError, ScenarioResult, _Run, card_ids, expand, format_results, junit_xml,
                                  players_prefix, results_json, run_scenario, run_scenarios, same, seat, show,
                                  zone_slot)
from interpreter.scenario.chance import pick
from interpreter.scenario.expect import readable
from interpreter.scenario.forms import Forms
from interpreter.scenario.words import differs
from interpreter.source import read_file
from helpers import ROOT, labels, rules, shipped_rulesets, slot

SCENARIOS = ROOT / "tests" / "scenarios"
FAILING = SCENARIOS / "failing"


# the shipped scenarios ---------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_scenario_passes(path):
    result = run_scenario(path)
    assert result.failures == []
    assert result.passed


def test_every_shipped_ruleset_has_a_scenario():
    used = {yaml.safe_load(p.read_text(encoding="utf-8"))["ruleset"] for p in SCENARIOS.glob("*.yaml")}
    shipped = {p.stem for p in (ROOT / "rulesets").rglob("*.yaml")}
    assert shipped <= used


# the deliberately failing ones -------------------------------------------------------------

def failures(name: str) -> list[str]:
    result = run_scenario(FAILING / name)
    assert not result.passed
    return result.failures


def test_a_wrong_zone_expectation_names_the_step_the_zone_and_both_values():
    assert failures("wrong-zone-expectation.yaml") == [
        "step 2: expected row[1] = [parrot, parrot, parrot, robin], found [robin, parrot, parrot, parrot]"]


def test_an_illegal_choice_that_is_legal():
    assert failures("illegal-is-legal.yaml") == [
        "step 1: expected P1's choice 'lay 2 parrot in row 2 on the left' to be refused, but it is legal"]


def test_an_unknown_option_is_located_suggests_the_nearest_and_lists_the_options():
    path = FAILING / "unknown-option.yaml"
    options = "; ".join(f"lay 2 parrot in row {r} on the {side}" for r in range(1, 5) for side in ("left", "right"))
    assert failures("unknown-option.yaml") == [
        f"{path}:10:9: step 1: P1 has no option 'lay 2 parrots in row 2 on the left' "
        f"(did you mean 'lay 2 parrot in row 2 on the left'?) - lay: birds from `groups(me.hand, species)` "
        f"is one of: [parrot, parrot]; r from `range(count(row))` is one of: 0, 1, 2, 3; side from "
        f"`[\"left\", \"right\"]` is one of: left, right; the options are: {options}"]


def test_a_choice_by_the_wrong_player_stops_the_scenario():
    assert failures("wrong-player.yaml") == [
        "step 1: expected decision.player = P2, found P1",
        "step 2: P2 chose, but the decision is P1's"]


def test_an_illegal_label_must_name_an_action_form():
    path = FAILING / "illegal-names-no-form.yaml"
    assert failures("illegal-names-no-form.yaml") == [
        f"{path}:11:19: step 1: 'lay 2 duk in row 2 on the left' names no action form: in "
        "'lay {count(birds)} {first(birds).species} in row {r + 1} on the {side}', 'duk' is no value of "
        "{first(birds).species}; did you mean 'lay 2 duck in row 2 on the left'?"]


def test_a_refusal_for_another_reason():
    assert failures("illegal-other-reason.yaml") == [
        "step 1: expected the refusal of P1's choice 'fly a flock of 2 duck' to say 'a flock of duck needs 4 birds', "
        "but it says: fly is not offered now: P1 is to choose 'lay birds' (lay)"]


def test_random_outcomes_that_are_not_used_or_cannot_be_drawn():
    path = FAILING / "random-outcomes.yaml"
    assert failures("random-outcomes.yaml") == [
        "step 2: the random outcomes [{value: 2}] of step 1 were not used: the game drew 0 times at random in this "
        "step",
        f"{path}:13:14: step 4: '7' is not among what the game draws from here: [1, 2, 3, 4, 5, 6]"]


def test_views_and_log_lines_that_differ():
    assert failures("views-and-log.yaml") == [
        "step 2: expected view P2 of P1.offer = [coffee, coffee], found {count: 2}",
        "step 2: expected view P2 of P1.hand = {count: 9}, found {count: 7}",
        "step 2: expected view P2 of P2.hand = {count: 9}, found [corn, corn, corn, soybeans, soybeans, sugar, sugar, "
        "sugar, sugar]",
        "step 2: expected a log line that P2 may read containing 'offer 2 (coffee)', found [(P2 only) turn 1 P2: pass (trade), "
        "P1 offers 2] since the log was last checked",
        "step 2: expected no log line containing 'P1 offers 2', found [P1 offers 2]"]


def test_values_that_read_the_same_but_differ_say_their_kinds():
    assert failures("kinds-differ.yaml") == [
        "step 1: expected count(players[0].hand) == 3 = true, found true (a text expected, true or false found)"]


def test_format_results_and_exit_codes():
    results, code = run_scenarios([FAILING / "illegal-is-legal.yaml", SCENARIOS / "cubirds-big-flock-wins.yaml"])
    assert code == 1
    assert format_results(results) == (
        "FAIL an illegal choice that is legal\n"
        "    step 1: expected P1's choice 'lay 2 parrot in row 2 on the left' to be refused, but it is legal\n"
        "PASS CuBirds: a big flock of owls wins\n"
        "1 passed, 1 failed")
    results, code = run_scenarios([SCENARIOS / "cubirds-big-flock-wins.yaml"])
    assert code == 0 and format_results(results).endswith("\n1 passed, 0 failed")


def test_a_folder_runs_the_scenarios_directly_inside_it(tmp_path):
    results, code = run_scenarios([FAILING])
    assert sorted(Path(r.path).name for r in results) == sorted(p.name for p in FAILING.glob("*.yaml"))
    assert code == 1
    results, code = run_scenarios([tmp_path])
    assert code == 1 and results[0].failures == ["no scenario files were found"]


# broken scenario files: located errors ------------------------------------------------------

def write(tmp_path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BASE = "ruleset: cubirds\nplayers: 2\nseed: 5\n"
NUMBERS = f"ruleset: {SCENARIOS / 'games' / 'numbers.yaml'}\nplayers: 2\nseed: 1\n"


@pytest.mark.parametrize("body,message", [
    ("ruleset: cubirds\nplayers: [2\n", "s.yaml:3:1: YAML syntax: expected ',' or ']', but got '<stream end>'"),
    (BASE + "step: []\n", "s.yaml:4:1: unknown key 'step' in a scenario (did you mean 'steps'?); the keys are: "
                          "ruleset, players, seed, params, name, setup, steps"),
    ("ruleset: cubird\n", "s.yaml:1:10: the ruleset 'cubird' does not load: no bundled ruleset named 'cubird' "
                          "(try 'rulebook list'); did you mean 'cubirds'?"),
    ("ruleset: cubirds\nplayers: 9\n", "s.yaml:2:10: cubirds is for 2 to 5 players, not 9"),
    (BASE + "params: {hand_sise: 3}\n",
     "s.yaml:4:9: unknown parameter 'hand_sise'; did you mean 'hand_size'?"),
    (BASE + "setup:\n  zones:\n    rows[1]: [owl]\n",
     "s.yaml:6:5: 'rows[1]' is not a zone: unknown name 'rows'"),
    (BASE + "setup:\n  zones:\n    rows: [owl]\n", "s.yaml:6:5: 'rows' is not a zone: unknown zone 'rows'"),
    (BASE + "setup:\n  zones:\n    P1.hnd: [owl]\n",
     "s.yaml:6:8: 'P1.hnd' is not a zone: unknown zone 'hnd'"),
    (BASE + "setup:\n  zones:\n    row[7]: [owl]\n",
     "s.yaml:6:5: row[7] does not exist: row has 4 zones, numbered 0 to 3"),
    (BASE + "setup:\n  zones:\n    P3.hand: [owl]\n", "s.yaml:6:5: 'P3' is not a player: write P1 to P2"),
    (BASE + "setup:\n  zones:\n    P1.hand: [owl, oul]\n",
     "s.yaml:6:20: no card is labelled 'oul'; did you mean 'owl'?"),
    (BASE + "setup:\n  zones:\n    P1.hand: [flamingo*8]\n",
     "s.yaml:6:14: no free card flamingo is left: this zone takes all 7 already"),
    (BASE + "setup:\n  zones:\n    row[0]: [flamingo*2]\n    P1.hand: [flamingo*6]\n",
     "s.yaml:7:14: no free card flamingo is left: all 7 are placed already (row[0] has 2, and this zone takes 5)"),
    (BASE + "setup:\n  zones:\n    deck: {top: [flamingo]}\n    P1.hand: [flamingo*7]\n",
     "s.yaml:7:14: no free card flamingo is left: all 7 are placed already (deck has 1, and this zone takes 6)"),
    (BASE + "setup:\n  zones:\n    row[0]: [owl*3]\n    P1.hand: [owl*4]\n    P2.hand: [owl*4]\n",
     "s.yaml:8:14: no free card owl is left: all 10 are placed already (row[0] has 3, P1.hand has 4, "
     "and this zone takes 3)"),
    (BASE + "setup:\n  vars: {tok: 1}\n", "s.yaml:5:10: unknown key 'tok' in vars (did you mean 'took'?); "
                                          "the keys are: took"),
    (BASE + "steps:\n  - expect: {\"count(me.hnd)\": 8}\n",
     "s.yaml:5:24: step 1: bad expression 'count(me.hnd)': unknown attribute 'hnd'; did you mean 'hand'?"),
    (BASE + "steps:\n  - expect: {P1.hnd: []}\n",
     "s.yaml:5:17: step 1: bad expression 'P1.hnd': unknown attribute 'hnd'; did you mean 'hand'?"),
    (BASE + "steps:\n  - expect: {P3.hand: []}\n", "s.yaml:5:14: step 1: 'P3' is not a player: write P1 to P2"),
    (BASE + "setup: {current: P1}\nsteps:\n  - P1: {option: 99}\n",
     "s.yaml:6:18: step 1: P1 has no option 99: there are 24"),
    (BASE + "steps:\n  - P1: pass\n    expect: {}\n", "s.yaml:5:5: step 1: 'expect' is a step of its own"),
    (BASE + "steps:\n  - expect: {options: {contains: [pass]}}\n",
     "s.yaml:5:24: step 1: unknown key 'contains' in options (did you mean 'count'?); the keys are: "
     "sorted, count, includes, excludes"),
    (BASE + "steps:\n  - expect: {over: {count: 1}}\n",
     "s.yaml:5:20: step 1: over is false, not a list: sorted, count, includes, excludes do not apply"),
    (BASE + "steps:\n  - expct: {}\n", "s.yaml:5:5: step 1: unknown step 'expct' (did you mean 'expect'?): a step "
                                       "is P1: <option>, or one of expect, set, random"),
    (BASE + "steps:\n  - set: {turn: 2}\n    expect: {}\n", "s.yaml:5:5: step 1: 'expect' is a step of its own"),
    (BASE + "steps:\n  - set: {turns: 3}\n", "s.yaml:5:11: step 1: unknown key 'turns' in set (did you mean 'turn'?); "
                                             "the keys are: current, turn, round, reservoir, zones, vars, player_vars"),
    (BASE + "steps:\n  - set: {turn: -1}\n", "s.yaml:5:17: step 1: turn: expected a whole number, 0 or more"),
    (BASE + "steps:\n  - random: [P1]\n  - expect: {}\n",
     "s.yaml:5:13: step 2: random: the outcomes are for the draws of the next step, which must be a choice, "
     "not 'expect'"),
    (BASE + "steps:\n  - random: [P1]\n", "s.yaml:5:13: step 1: random: the outcomes are for the draws of the next "
                                           "step, which must be a choice, but there is none"),
    (BASE + "steps:\n  - random: P1\n", "s.yaml:5:13: step 1: random: a list of outcomes, one per draw of the game's "
                                         "generator in the next step (an item, or a list of items for a sample or a "
                                         "shuffle)"),
    (BASE + "setup: {current: P1}\nsteps:\n  - P1: {illegal: {because: x}}\n",
     "s.yaml:6:19: step 1: illegal: give the option, as {option: <label>, because: <text>}"),
    (BASE + "setup: {current: P1}\nsteps:\n  - P1: {illegal: {option: draw 2 cards, because: [x]}}\n",
     "s.yaml:6:51: step 1: because: a text that the refusal's reason contains"),
    (BASE + "setup: {current: P1, zones: {P1.hand: [parrot*2]}}\nsteps:\n"
            "  - P1: {illegal: lay 2 parrot in rwo 2 on the left}\n",
     "s.yaml:6:19: step 1: 'lay 2 parrot in rwo 2 on the left' names no action form; did you mean "
     "'lay 2 parrot in row 2 on the left'?; the forms are: "
     "lay {count(birds)} {first(birds).species} in row {r + 1} on the {side}; draw {draw_option} cards; "
     "fly a flock of {count(flock)} {first(flock).species}; pass"),
    (BASE + "steps:\n  - expect: {view P1: {hnd: []}}\n",
     "s.yaml:5:24: step 1: 'hnd' is not a zone: unknown zone 'hnd'"),
    (BASE + "steps:\n  - expect: {view P1: {staging: []}}\n",
     "s.yaml:5:24: step 1: the staging zone is the scenario's own: no player sees it"),
    (BASE + "steps:\n  - expect: {view P1: {deck: {count: 3, hidden: true}}}\n",
     "s.yaml:5:30: step 1: in a view, {count: n} means that only the number is seen; it does not go with hidden"),
    (BASE + "steps:\n  - expect: {log contains: {a: 1}}\n",
     "s.yaml:5:28: step 1: log contains: give a text, or a list of texts"),
    (BASE + "steps:\n  - expect: {options P3: []}\n", "s.yaml:5:14: step 1: 'P3' is not a player: write P1 to P2"),
    (BASE + "steps:\n  - expect: {view P3: {}}\n", "s.yaml:5:14: step 1: 'P3' is not a player: write P1 to P2"),
    (BASE + "steps:\n  - expect: {decision: {chooser: [P1]}}\n",
     "s.yaml:5:25: step 1: unknown key 'chooser' in decision (did you mean 'choosers'?); the keys are: player, prompt, "
     "choosers"),
    (NUMBERS + "setup: {current: P1}\nsteps:\n  - random: [4]\n  - P1: roll the die\n",
     "s.yaml:6:14: step 2: '4' could be the card or the value of that name: write {card: 4} or {value: 4}"),
    (NUMBERS + "setup: {current: P1}\nsteps:\n  - random: [[1, 2]]\n  - P1: roll the die\n",
     "s.yaml:6:14: step 2: the game draws one item here, but this outcome names 2: [1, 2]"),
])
def test_broken_files_are_reported_with_file_line_and_column(tmp_path, body, message):
    result = run_scenario(write(tmp_path, body))
    assert result.failures == [f"{tmp_path}/{message}"]


def test_a_ruleset_path_is_relative_to_the_scenario_file(tmp_path):
    (tmp_path / "games").mkdir()
    write(tmp_path, f"extends: {ROOT / 'rulesets' / 'cubirds.yaml'}\nname: short\nparameters: {{hand_size: 3}}\n",
          "games/short.yaml")
    (tmp_path / "tests").mkdir()
    path = write(tmp_path, "ruleset: ../games/short.yaml\nplayers: 2\nsteps:\n  - expect: {\"count(me.hand)\": 3}\n",
                 "tests/s.yaml")
    assert run_scenario(path).failures == []


# the steps -------------------------------------------------------------------------------

def test_several_players_choose_in_the_order_the_game_asks(tmp_path):
    text = ("ruleset: pit\nplayers: 3\nseed: 3\nsetup:\n  zones:\n    P2.hand: [wheat*9]\n"
            "steps:\n  - {P3: pass, P2: offer 2 (wheat), P1: pass}\n"
            "  - expect: {P2.offer: [wheat, wheat], P1.offer: [], decision: {player: P1}}\n")
    assert run_scenario(write(tmp_path, text)).failures == []


def test_a_step_without_a_choice_for_the_player_asked(tmp_path):
    text = "ruleset: pit\nplayers: 3\nsteps:\n  - {P1: pass, P3: pass}\n"
    assert run_scenario(write(tmp_path, text)).failures == [
        "step 1: the decision is P2's, but this step has no choice for P2"]


def test_choosing_after_the_game_is_over(tmp_path):
    text = (BASE + "setup:\n  current: P1\n  zones:\n    P1.hand: [owl*4, robin]\n"
            "    P1.collection: [owl, duck*3]\n    row[0]: [robin, duck, toucan]\n"
            "steps:\n  - P1: lay 1 robin in row 1 on the left\n  - P1: pass\n  - P1: fly a flock of 4 owl\n"
            "  - P2: pass\n  - expect: {over: true}\n")
    assert run_scenario(write(tmp_path, text)).failures == ["step 4: P2 chose, but the game is over"]


def test_winners_are_checked_only_when_the_game_is_over_and_scores_at_any_step(tmp_path):
    text = (BASE + "setup:\n  zones:\n    P1.collection: [owl, duck]\n"
            "steps:\n  - expect: {winners: [P1], over: false, reason: x, scores: {P1: 1, P2: {birds: 1}}}\n")
    assert run_scenario(write(tmp_path, text)).failures == [
        "step 1: expected winners = [P1], but the game is not over",
        "step 1: expected reason = x, but the game is not over",
        "step 1: expected scores.P1.total = 1, found 2"]


def test_setup_sets_variables_and_the_current_player(tmp_path):
    text = ("ruleset: pit\nplayers: 3\nsetup:\n  current: P3\n  vars: {dealer: P2, trades: 4}\n"
            "  player_vars: {P2: {score: 30}}\n"
            "steps:\n  - expect: {trades: 4, dealer: P2, \"players[dealer]\": P2, P2.score: 30, P1.score: 0,"
            " current: P3}\n")
    assert run_scenario(write(tmp_path, text)).failures == []


def test_matchers_report_what_is_missing_or_present(tmp_path):
    text = (BASE + "setup:\n  zones:\n    P1.hand: [owl, owl, duck]\n"
            "steps:\n  - expect:\n      P1.hand: {sorted: [duck, owl, robin], count: 2, includes: [owl*3, duck],"
            " excludes: [duck, robin]}\n")
    assert run_scenario(write(tmp_path, text)).failures == [
        "step 1: expected P1.hand in any order = [duck, owl, robin], found [duck, owl, owl]",
        "step 1: expected P1.hand to hold 2, found 3: [owl, owl, duck]",
        "step 1: expected P1.hand to include [owl], found [owl, owl, duck]",
        "step 1: expected P1.hand not to include [duck], found [owl, owl, duck]"]


def test_expression_values_are_compared_in_the_authors_words(tmp_path):
    text = (BASE + "setup:\n  current: P1\n  zones:\n    P1.hand: [owl, duck]\n"
            "steps:\n  - expect:\n      me: P1\n      first(me.hand): owl\n      'count(me.hand) == 2': true\n"
            "      count(me.hand): 2\n      me.hand.species: [owl, duck]\n      'count(me.hand) > 5': 1\n")
    assert run_scenario(write(tmp_path, text)).failures == ["step 1: expected count(me.hand) > 5 = 1, found false"]


# the pieces ------------------------------------------------------------------------------

def test_seat():
    assert seat("P1", 3) == 0 and seat("P3", 3) == 2
    for bad in ("P4", "P0", "p1", "1", "P1.hand"):
        with pytest.raises(ScenarioError):
            seat(bad, 3)


def test_players_prefix():
    assert players_prefix("P2.hand", 3) == ("players[1].hand", 8)
    assert players_prefix("P10.score", 10) == ("players[9].score", 7)
    assert players_prefix("count(P2.hand)", 3) == ("count(P2.hand)", 0)
    assert players_prefix("row[1]", 3) == ("row[1]", 0)
    with pytest.raises(ScenarioError):
        players_prefix("P4.hand", 3)


def test_zone_keys():
    game = Game.new(rules("cubirds"), 3, seed=1)
    assert zone_slot(game, "deck") == slot(game, "deck")
    assert zone_slot(game, "row[2]") == slot(game, "row", index=2)
    assert zone_slot(game, "P3.hand") == slot(game, "hand", owner=2)
    assert zone_slot(game, "me.collection", me=1) == slot(game, "collection", owner=1)
    for key, message in [("row", "'row' is not a zone: 'row' is a family of zones: say which one, as in 'row[0]'"),
                         ("hand", "'hand' is not a zone: 'hand' is a zone of each player: say whose, as in 'me.hand'"),
                         ("P1.hands", "'P1.hands' is not a zone: unknown zone 'hands'"),
                         ("count(deck)", "'count(deck)' is not a zone: this is not a zone: write a zone name such as "
                                         "'deck', 'row[i]' or 'me.hand'")]:
        with pytest.raises(ScenarioError) as info:
            zone_slot(game, key)
        assert info.value.message == message


def test_card_lists_expand_repetitions():
    assert expand(["owl*2", "duck", "robin × 3", "seed 2 eggs"]) == ["owl"] * 2 + ["duck"] + ["robin"] * 3 + [
        "seed 2 eggs"]
    assert expand([{"species": "owl"}]) == [{"species": "owl"}]
    with pytest.raises(ScenarioError):
        expand("owl")


def test_cards_by_label_or_by_attributes():
    rs = rules("cubirds")
    owls = card_ids(rs, "owl")
    assert len(owls) == 10 and all(rs.card_labels[c] == "owl" for c in owls)
    assert card_ids(rs, {"species": "owl"}) == owls
    assert len(card_ids(rs, {"small": 2})) == 7   # the flamingos
    with pytest.raises(ScenarioError) as info:
        card_ids(rs, {"species": "dodo"})
    assert info.value.message == "no card has {species: dodo}"


def test_show_and_same():
    assert show(["a", True, None, 3, {"k": [1]}]) == "[a, true, none, 3, {k: [1]}]"
    assert same(["P1", 3], ["P1", 3]) and same(1, "P2") and not same(1, True) and not same(True, 1)
    assert not same([1, 2], [1, 2, 3])


def test_arranging_moves_cards_and_never_makes_or_loses_one(tmp_path):
    text = (BASE + "setup:\n  zones:\n    row[0]: [owl, owl, owl]\n    P1.hand: [owl*7, duck]\n"
            "    discard: [toucan]\n    deck: {top: [duck, robin]}\n    P2.collection: []\n")
    path = write(tmp_path, text)
    before = Game.new(rules("cubirds"), 2, seed=5)
    source = read_file(path)
    run = _Run(source, ScenarioResult("s", str(path)))
    run.start(source.data)
    game = run.game
    assert sorted(c for z in game.state.zones for c in z) == sorted(c for z in before.state.zones for c in z)
    assert labels(game, "row", index=0) == ["owl"] * 3
    assert sorted(labels(game, "hand", owner=0)) == ["duck"] + ["owl"] * 7
    assert labels(game, "discard") == ["toucan"]
    assert labels(game, "deck")[:2] == ["duck", "robin"]
    assert labels(game, "collection", owner=1) == []
    assert Counter(labels(game, "deck"))["owl"] == 0   # all ten owls are placed


# the examples of docs/scenarios.md -----------------------------------------------------------

DOC = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
DOC_SCENARIOS = [block for block in re.findall(r"^```yaml\n(.*?)^```", DOC, re.S | re.M)
                 if block.startswith("ruleset: ") and "/" not in block.splitlines()[0]]


def test_the_document_has_whole_scenarios():
    assert len(DOC_SCENARIOS) >= 3


@pytest.mark.parametrize("text", DOC_SCENARIOS, ids=lambda t: t.splitlines()[0])
def test_each_whole_scenario_in_the_document_passes(tmp_path, text):
    assert run_scenario(write(tmp_path, text)).failures == []


@pytest.mark.parametrize("key", ["ruleset", "players", "seed", "params", "name", "setup", "steps", "current",
                                 "reservoir", "zones", "vars", "player_vars", "option", "illegal", "decision",
                                 "options", "over", "winners", "reason", "scores", "sorted", "count", "includes",
                                 "excludes", "top", "because", "set", "random", "turn", "round", "choosers",
                                 "options P2", "view P2", "log contains", "log lacks", "staging", "hidden", "card",
                                 "player", "value"])
def test_every_key_is_documented(key):
    assert re.search(rf"[`{{]{key}\b", DOC)     # `key` or {key: ...}


def test_a_player_that_does_not_exist_is_located_at_the_value(tmp_path):
    result = run_scenario(write(tmp_path, BASE + "setup:\n  current: P3\n  vars: {took: P1}\n"))
    assert result.failures == [f"{tmp_path}/s.yaml:5:12: 'P3' is not a player: write P1 to P2"]


# numbers, kinds and labels ------------------------------------------------------------------

@pytest.mark.parametrize("found,want,equal", [
    ("10", 10, True), ("10", "10", True), (10, "10", True), (["10", "3"], [10, 3], True), (2.5, "2.5", True),
    (True, "true", False), (1, True, False), (True, 1, False), (None, "none", False), (1, "P2", True),
    (0, "P2", False), ("10", 11, False), ([1], "[1]", False),
])
def test_same_compares_in_the_authors_words(found, want, equal):
    assert same(found, want) is equal


@pytest.mark.parametrize("want,found,message", [
    ("true", True, "expected x = true, found true (a text expected, true or false found)"),
    ("[1]", [1], "expected x = [1], found [1] (a text expected, a list of a number found)"),
    (None, "none", "expected x = none, found none (none expected, a text found)"),
    (3, 4, "expected x = 3, found 4"),
])
def test_differs_says_the_kinds_when_two_values_read_the_same(want, found, message):
    assert differs("x", want, found) == message


def test_a_numeric_label_names_its_card():
    rs = load(str(SCENARIOS / "games" / "numbers.yaml"))
    assert [rs.card_labels[c] for c in card_ids(rs, 10)] == ["10", "10"]
    assert card_ids(rs, "10") == card_ids(rs, 10)


# option forms: what `illegal` accepts ---------------------------------------------------------

@pytest.mark.parametrize("ruleset,label,problem", [
    ("cubirds", "lay 2 duck in row 2 on the left", None),
    ("cubirds", "lay 2 duck in row 9 on the left", None),      # numbers are not checked against the game's range
    ("cubirds", "draw 3 cards", None),
    ("cubirds", "pass", None),
    ("cubirds", "fly a flock of 3 owls", "'fly a flock of 3 owls' names no action form: in 'fly a flock of "
     "{count(flock)} {first(flock).species}', 'owls' is no value of {first(flock).species}; did you mean "
     "'fly a flock of 3 owl'?"),
    ("cubirds", "lay two duck in row 2 on the left", "'lay two duck in row 2 on the left' names no action form: in "
     "'lay {count(birds)} {first(birds).species} in row {r + 1} on the {side}', 'two' is no value of {count(birds)}"),
    ("pit", "offer 2 (barley and coffee)", "'offer 2 (barley and coffee)' names no action form: in 'offer {k} ({c})', "
     "'barley and coffee' is no value of {c}"),
    ("pit", "take P3's offer of 2, giving wheat", None),
    ("pit", "take P4's offer of 2, giving wheat", "'take P4's offer of 2, giving wheat' names no action form: in "
     "'take {other}'s offer of {k}, giving {c}', 'P4' is no value of {other}"),
    ("pit", "corner on weat!", "'corner on weat!' names no action form: in 'corner on {c}!', 'weat' is no value of "
     "{c}; did you mean 'corner on wheat!'?"),
    ("pit-bull-bear", "offer 1 (0 no commodity + bear)", None),
    ("piepmatz", "play sparrow 2♂ at perch 1", None),
    ("piepmatz", "play sparrow 2 at perch 1", "'play sparrow 2 at perch 1' names no action form: in 'play {bird} at "
     "perch {p + 1}', 'sparrow 2' is no value of {bird}; did you mean 'play sparrow 2♂ at perch 1'?"),
    ("piepmatz", "discard sparrow 1♀ and sparrow 2♂", None),  # the final discard, a choice inside an effect
    ("docs/tutorial/harvest.yaml", "bank your apples", None),
])
def test_option_forms(ruleset, label, problem):
    rs = load(str(ROOT / ruleset) if ruleset.endswith(".yaml") else ruleset)
    assert Forms(rs, 3).problem(label) == problem


@pytest.mark.parametrize("path", shipped_rulesets() + [SCENARIOS / "games" / "numbers.yaml"], ids=lambda p: p.stem)
def test_every_option_a_game_offers_fits_a_form(path):
    rs = load(str(path))
    for players in (rs.min_players, rs.max_players):
        forms = Forms(rs, players)
        game, rng = Game.new(rs, players, seed=players), random.Random(players)
        for _ in range(40):
            if game.is_over:
                break
            for d in game.decisions():
                assert [label for label in d.options if forms.problem(label)] == []
            game.apply(rng.randrange(game.option_count()))


# the engine's hooks: every pending chooser, forced random draws ------------------------------------

def test_decisions_lists_every_chooser_with_the_options_they_will_be_asked():
    game = Game.new(rules("pit"), 4, seed=2)
    for _ in range(30):
        waiting = game.decisions()
        assert waiting[0] == game.decision
        predicted = {d.player: d.options for d in waiting}
        while waiting:
            assert game.decision.options == predicted[game.decision.player]
            game.apply(len(game.decision.options) - 1)      # pass: nothing changes before all have chosen
            waiting = waiting[1:]
            if waiting:
                assert game.decision.player == waiting[0].player
    assert Game.new(rules("cubirds"), 2, seed=1).decisions() == [Game.new(rules("cubirds"), 2, seed=1).decision]


def test_a_generator_that_decides_nothing_plays_the_same_game():
    rng = random.Random(7)
    plain_game = Game.new(rules("piepmatz"), 2, seed=3)
    forced = Game.new(rules("piepmatz"), 2, seed=3)
    asked = []
    forced.force_random(lambda op, items, k: asked.append(op))
    while not plain_game.is_over:
        choice = rng.randrange(plain_game.option_count())
        plain_game.apply(choice)
        forced.apply(choice)
    assert forced.to_json() == plain_game.to_json()
    assert asked      # the game did draw at random while the hook was in place


def test_forced_draws_give_what_was_decided_and_do_not_advance_the_generator():
    game = Game.new(rules("cubirds"), 2, seed=1)
    reference = random.Random()
    reference.setstate(game.state.rng.getstate())
    outcomes = {"shuffle": [3, 1], "sample": [5, 4], "choice": [9]}
    game.force_random(lambda op, items, k: outcomes[op])
    forced = game.state.rng
    deck = list(range(10))
    forced.shuffle(deck)
    rest = [0, 2, 4, 5, 6, 7, 8, 9]
    reference.shuffle(rest)             # the cards the outcome leaves out are shuffled as usual
    assert deck == [3, 1] + rest
    assert forced.sample(list(range(10)), 2) == [5, 4] and forced.choice(list(range(10))) == 9
    game.force_random(None)
    assert type(game.state.rng) is random.Random and game.state.rng.getstate() == reference.getstate()


def test_random_outcomes_name_items_in_the_authors_words():
    game = Game.new(rules("cubirds"), 4, seed=1)
    owl, duck, parrot = (game.rs.card_labels.index(label) for label in ("owl", "duck", "parrot"))
    for pool, want, op, found in [
        ([0, 1, 2], "P2", "choice", 1),
        (["owl", "duck"], "duck", "choice", 1),
        ([duck, owl], "owl", "sample", 1),
        ([duck, owl], {"species": "owl"}, "sample", 1),
        ([duck, parrot], "parrot", "shuffle", 1),
        ([3, 4, 5], {"value": 4}, "choice", 1),
        ([3, 4, 5], {"player": "P4"}, "choice", 0),
        ([owl, 3, duck], {"card": "duck"}, "choice", 2),
    ]:
        assert pick(game, pool, want, op, (), pool) == found


# staging, set steps and the log -----------------------------------------------------------------

def test_a_deck_given_exactly_sends_its_other_cards_to_staging_and_back(tmp_path):
    text = (BASE + "setup:\n  zones:\n    deck: [owl, duck]\n"
            "steps:\n  - expect: {deck: [owl, duck], 'count(deck)': 2}\n"
            "  - set: {zones: {P1.hand: [owl*9]}}\n  - expect: {P1.hand: [owl*9]}\n")
    path = write(tmp_path, text)
    source = read_file(path)
    run = _Run(source, ScenarioResult("s", str(path)))
    run.start(source.data)
    fresh = Game.new(rules("cubirds"), 2, seed=5)
    before = sorted(c for z in fresh.state.zones for c in z)
    assert len(run.table.staged) == len(labels(fresh, "deck")) - 2     # the deck's cards but the two it keeps
    assert sorted([c for z in run.game.state.zones for c in z] + run.table.staged) == before
    run.run(source.data["steps"])
    assert run.result.failures == []
    assert sorted([c for z in run.game.state.zones for c in z] + run.table.staged) == before


def test_a_card_placed_on_top_of_a_deck_stays_there(tmp_path):
    text = (BASE + "setup:\n  zones:\n    deck: {top: [flamingo, owl]}\n    P1.hand: [flamingo*6]\n"
            "steps:\n  - expect: {'take(deck, 2)': [flamingo, owl], P1.hand: [flamingo*6]}\n")
    assert run_scenario(write(tmp_path, text)).failures == []


def test_a_set_takes_cards_from_zones_an_earlier_setup_arranged(tmp_path):
    text = (BASE + "setup:\n  zones:\n    P1.hand: [owl*10]\n"
            "steps:\n  - set: {zones: {P2.hand: [owl*2]}}\n  - expect: {P1.hand: {count: 8}, P2.hand: [owl, owl]}\n")
    assert run_scenario(write(tmp_path, text)).failures == []


def test_the_log_is_read_from_where_it_was_last_checked(tmp_path):
    text = (BASE + "setup:\n  current: P1\n  zones:\n    P1.hand: [parrot, duck]\n"
            "steps:\n  - P1: lay 1 parrot in row 1 on the left\n  - expect: {log contains: lay 1 parrot}\n"
            "  - P1: pass\n  - expect: {log lacks: lay 1 parrot, log contains: 'turn 1 P1: pass'}\n")
    assert run_scenario(write(tmp_path, text)).failures == []


def test_readable_log_lines():
    class Run:
        def log_entries(self):
            return ["turn 1 P1: pass", [[1], "turn 1 P2: pass"], [[0], "turn 1 P1: offer 2 (wheat)"]]
    assert readable(Run(), 1) == ["turn 1 P1: pass", "(P2 only) turn 1 P2: pass"]
    assert readable(Run(), 0) == ["turn 1 P1: pass", "(P1 only) turn 1 P1: offer 2 (wheat)"]


# reports --------------------------------------------------------------------------------------

def test_reports_as_text_json_and_junit():
    results, _ = run_scenarios([FAILING / "illegal-names-no-form.yaml", SCENARIOS / "cubirds-big-flock-wins.yaml"])
    text = format_results(results).splitlines()
    assert text[2:4] == ["          - P1: {illegal: lay 2 duk in row 2 on the left}",
                         "                          ^"]
    assert text[-1] == "1 passed, 1 failed"
    data = results_json(results)
    assert (data["passed"], data["failed"]) == (1, 1)
    failure = data["scenarios"][0]["failures"][0]
    assert (failure["step"], failure["line"], failure["column"]) == (1, 11, 19)
    assert failure["file"].endswith("illegal-names-no-form.yaml")
    suite = ET.fromstring(junit_xml(results).split("\n", 1)[1])
    cases = suite.findall("./testsuite/testcase")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert [c.find("failure") is not None for c in cases] == [True, False]
    assert cases[0].find("failure").text == str(results[0].failures[0])


def test_a_mismatch_knows_where_it_was_written():
    result = run_scenario(FAILING / "wrong-zone-expectation.yaml")
    (failure,) = result.failures
    assert (failure.step, failure.location.line, failure.location.col, failure.located) == (2, 14, 15, False)


POKER = """ruleset: forehead-poker
players: 3
seed: 1
setup:
  current: P1
  zones:
    P1.crown: [sun 3]
    P2.crown: [star 9]
    P3.crown: [moon 5]
steps:
  - P1: back P2's crown (1 chip)
  - expect:
      view P2:
"""


@pytest.mark.parametrize("expect, message", [
    ("P2.crown: {count: 1}", None),                        # the tokens on the backs are not checked unless given
    ("P2.crown: {count: 1, backs: [{backers: [P1]}]}", None),
    ("P1.crown: [{card: sun 3, backers: []}]", None),
    ("P1.crown: {sorted: [sun 3]}", None),
    ("P1.crown: {excludes: [{card: sun 3, backers: [P2]}]}", None),
    ("P2.crown: {count: 1, backs: [{backers: []}]}",
     "step 2: expected view P2 of P2.crown = {count: 1, backs: [{backers: []}]}, "
     "found {count: 1, backs: [{backers: [P1]}]}"),
    ("P1.crown: [{card: sun 3, backers: [P2]}]",
     "step 2: expected view P2 of P1.crown = [{card: sun 3, backers: [P2]}], found [{card: sun 3, backers: []}]"),
    ("P1.crown: {includes: [{card: sun 3, backers: [P3]}]}",
     "step 2: expected view P2 of P1.crown to include [{card: sun 3, backers: [P3]}], "
     "found [{card: sun 3, backers: []}]"),
    ("P1.crown: [{card: sun 3, backrs: []}]",
     "step 2: a card with its variables is written {card: label, variable: value...}; the ruleset has no card "
     "variable 'backrs' (it has backers)"),
])
def test_views_of_cards_that_carry_card_variables(tmp_path, expect, message):
    result = run_scenario(write(tmp_path, POKER + "        " + expect + "\n"))
    if message is None:
        assert result.passed, result.failures
    else:
        assert not result.passed and any(message in f for f in result.failures), result.failures


def test_a_yaml_list_split_at_commas_is_told_as_such(tmp_path):
    text = ("ruleset: lanterns\nplayers: 2\nseed: 1\nsetup:\n  current: P1\n  zones:\n"
            "    P1.hand: [crimson 1, crimson 9, gold 5, jade 6, violet 4, gold 7]\n    pile: [crimson 5]\nsteps:\n"
            "  - P1: take crimson 5 from the pile\n  - P1: hang crimson 1, crimson 9, crimson 5 (20 points)\n"
            "  - expect:\n      options: [hang gold 5, jade 6, violet 4 (15 points), pass]\n")
    result = run_scenario(write(tmp_path, text))
    assert result.failures == [
        "step 3: expected options = [hang gold 5, jade 6, violet 4 (15 points), pass], found [hang gold 5, jade 6, "
        "violet 4 (15 points), pass] (4 items expected, 2 found: in a YAML [ ] list a comma ends an item, so quote "
        "an item that holds one, or write the list one item a line)"]


@pytest.mark.parametrize("found, wants, left", [
    # a want by label alone must not take the only card a more precise want fits
    ([{"card": "A", "m": 1, "x": 2}, {"card": "A", "m": 1, "x": 0}], [{"card": "A", "m": 1}, {"card": "A", "x": 2}], []),
    ([{"card": "A", "m": 1}], [{"card": "A", "m": 1}, "A"], ["A"]),
    ([{"card": "A", "m": 1}, {"card": "B", "m": 0}], ["B", {"card": "A", "m": 0}], [{"card": "A", "m": 0}]),
])
def test_cards_with_variables_are_matched_as_well_as_they_can_be(found, wants, left):
    from interpreter.scenario.expect import unmatched
    assert unmatched(found, wants) == left
