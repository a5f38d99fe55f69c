"""Scenario files: the shipped scenarios pass, the deliberately failing ones fail as they should, and the
pieces of the format (players, zone keys, card lists, expectations) read as documented."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from interpreter import Game
from interpreter.scenario import (ScenarioError, ScenarioResult, _Run, card_ids, expand, format_results,
                                  players_prefix, run_scenario, run_scenarios, same, seat, show, zone_slot)
from interpreter.source import read_file
from helpers import ROOT, labels, rules, slot

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
                                 "excludes", "top"])
def test_every_key_is_documented(key):
    assert re.search(rf"[`{{]{key}\b", DOC)     # `key` or {key: ...}


def test_a_player_that_does_not_exist_is_located_at_the_value(tmp_path):
    result = run_scenario(write(tmp_path, BASE + "setup:\n  current: P3\n  vars: {took: P1}\n"))
    assert result.failures == [f"{tmp_path}/s.yaml:5:12: 'P3' is not a player: write P1 to P2"]
