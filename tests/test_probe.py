"""validate --simulate: what playing reveals - goals the cards make impossible, actions never taken."""
from __future__ import annotations

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


def test_cubirds_pairs_stalls_are_reported():
    stalls = [d for d in findings("cubirds-pairs", 3) if d.code == "stalls"]
    assert [d.message.split()[1] for d in stalls] == ["2", "3", "4"]


def test_an_action_never_taken_is_reported_at_its_name():
    text = (ROOT / "docs" / "tutorial" / "harvest.yaml").read_text().replace(
        "    if: count(me.hand where kind == fruit) >= set_size",
        "    if: count(me.hand where kind == fruit) >= 99")
    source = parse_text(text, "harvest-never.yaml")
    rules = load_text(text, "harvest-never.yaml")
    found = [d for d in probe(rules, source, 5) if d.code == "never-taken"]
    assert [d.message for d in found] == ["action 'bank' was never taken in 5 games per player count"]
    assert found[0].location.line == text.splitlines().index("  bank:") + 1
