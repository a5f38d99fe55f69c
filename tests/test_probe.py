"""validate --simulate: what playing reveals - goals the cards make impossible, actions never taken."""
from __future__ import annotations

import pytest

from interpreter import load, load_text
from interpreter.extends import load_merged
from interpreter.probe import probe
from interpreter.source import parse_text
from helpers import ROOT


def findings(name_or_path, games):
    source = load_merged(ROOT / "rulesets" / "variants" / f"{name_or_path}.yaml")
    return probe(load(name_or_path), source, games)


def test_pit_tutorial_goal_is_impossible_with_three_to_six_players():
    stalls = [d for d in findings("pit-tutorial", 1) if d.code == "stalls"]
    counts = [int(d.message.split()[1]) for d in stalls]
    assert counts == [3, 4, 5, 6]
    assert all(d.location.line and d.severity == "warning" for d in stalls)


def test_cubirds_pairs_rounds_nobody_can_play_are_reported_as_a_loop():
    # the tutorial has no rule for a round in which nobody can play: the turns go round without a
    # decision until the turn limit, which is an error of the ruleset, at its steps
    loops = [d for d in findings("cubirds-pairs", 3) if d.code == "no-decision-loop"]
    assert [d.message.split()[0] for d in loops] == ["2", "3", "4"]
    assert all(d.severity == "error" and "nobody was asked to choose" in d.message for d in loops)
    text = (ROOT / "rulesets" / "variants" / "cubirds-pairs.yaml").read_text().splitlines()
    assert {text[d.location.line - 2].strip() for d in loops} == {"steps:"}   # at the first step


def test_an_action_never_taken_is_reported_at_its_name():
    text = (ROOT / "docs" / "tutorial" / "harvest.yaml").read_text().replace(
        "    if: count(me.hand where kind == fruit) >= set_size",
        "    if: count(me.hand where kind == fruit) >= 99")
    source = parse_text(text, "harvest-never.yaml")
    rules = load_text(text, "harvest-never.yaml")
    found = [d for d in probe(rules, source, 5) if d.code == "never-taken"]
    assert [d.message for d in found] == ["action 'bank' was never taken in 5 games per player count"]
    assert found[0].location.line == text.splitlines().index("  bank:") + 1


LOOPING = """\
name: looping
players: {min: 2, max: 2}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 4}
zones:
  deck: {visibility: count}
  hand: {per_player: true}
actions:
  take:
    if: count(deck) > 0
    do:
      - move: {from: deck, to: me.hand}
flow:
  round:
    turn:
      steps: [take]
limits:
  turns: 50
"""


def test_turns_that_go_round_without_a_decision_to_the_limit_are_a_ruleset_error():
    # once the deck is empty nobody can take: the turns follow one another until the limit
    source = parse_text(LOOPING, "looping.yaml")
    found = [d for d in probe(load_text(LOOPING, "looping.yaml"), source, 2) if d.severity == "error"]
    assert [(d.code, d.location.line) for d in found] == [("no-decision-loop", LOOPING.splitlines().index(
        "      steps: [take]") + 1)]
    assert found[0].message == ("2 players, seed 0: from turn 4 to the turn limit (50 turns) nobody was asked "
                                "to choose: every turn passed without a decision, so the game could only stall")


def test_a_game_with_decisions_to_its_end_is_no_loop():
    text = LOOPING.replace("    if: count(deck) > 0\n", "").replace(
        "      - move: {from: deck, to: me.hand}", "      - move: {from: me.hand, to: deck}\n"
        "      - move: {from: deck, to: me.hand}")
    found = probe(load_text(text, "ok.yaml"), parse_text(text, "ok.yaml"), 2)
    assert [d.code for d in found] == ["stalls"]


@pytest.mark.parametrize("added,needle", [
    ("    label: 'take {1 / (count(deck) - 3)}'\n", "label:"),           # made when a player looks
    ("    do:\n      - log: 'left {[1][count(deck) - 3]}'\n", "- log:"),  # made when the log is written
])
def test_a_label_or_log_line_that_fails_is_found_by_playing(added, needle):
    text = LOOPING.replace("    if: count(deck) > 0\n    do:\n", "    if: count(deck) > 0\n" + added + (
        "" if "do:" in added else "    do:\n"))
    found = [d for d in probe(load_text(text, "texts.yaml"), parse_text(text, "texts.yaml"), 1)
             if d.code == "probe-error"]
    line = next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)
    assert len(found) == 1 and (found[0].location.file, found[0].location.line) == ("texts.yaml", line)
    assert found[0].render().startswith(f"texts.yaml:{line}:")   # told at the text, its line shown
