"""`rulebook tune`: targets and parameters read exactly, the search on a fitness known by construction, the
whole command on tests/course/length.yaml (whose length is its parameter), and its mistakes."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
import yaml

from helpers import ROOT
from interpreter import load
from interpreter.errors import RulebookError
from interpreter.tune import NTBEA, Target, parse_target, parse_vary, tune

LENGTH = str(ROOT / "tests" / "course" / "length.yaml")


@pytest.mark.parametrize("text,want", [
    ("first_seat=0", Target("first_seat", 0, 0)),
    ("turns=30..40", Target("turns", 30, 40)),
    ("comeback=-5..12.5", Target("comeback", -5, 12.5)),
])
def test_targets_are_read(text, want):
    assert parse_target(text) == want


@pytest.mark.parametrize("text,message", [
    ("speed=3", "a target is METRIC=VALUE or METRIC=LO..HI with a metric among first_seat, turns"),
    ("turns", "a target is METRIC=VALUE"),
    ("turns=abc", "target 'turns=abc': the value should be a number or LO..HI"),
    ("turns=9..3", "target 'turns=9..3': the range runs from the low value to the high one"),
])
def test_target_mistakes(text, message):
    with pytest.raises(RulebookError) as err:
        parse_target(text)
    assert message in str(err.value)


@pytest.mark.parametrize("text,want", [
    ("length=3..6", ("length", [3, 4, 5, 6])),
    ("length=2,8", ("length", [2, 8])),
    ("head_start", ("head_start", ["no", "yes"])),
])
def test_parameters_to_vary_are_read(text, want):
    assert parse_vary(text, load(LENGTH)) == want


@pytest.mark.parametrize("text,message", [
    ("lenght=2..5", "unknown parameter 'lenght'; did you mean 'length'?"),
    ("length", "--vary length: give the values to try"),
    ("length=5..2", "the range runs from the low value to the high one"),
    ("length=a..b", "LO..HI takes whole numbers"),
    ("length=4", "give at least two values"),
    ("head_start=no,maybe", "parameter 'head_start' may be no, yes, not 'maybe'"),
    ("length=2,x", "parameter 'length' takes a whole number, not 'x'"),
])
def test_vary_mistakes(text, message):
    with pytest.raises(RulebookError) as err:
        parse_vary(text, load(LENGTH))
    assert message in str(err.value)


def test_ntbea_finds_the_top_of_a_noisy_landscape():
    # fitness -|x - 7| - |y - 2| plus noise, on a 12 x 12 grid: the search's most tried point is the top
    rng = random.Random(1)
    model = NTBEA([12, 12], random.Random(5))
    point, counts = (0, 11), {}
    for _ in range(120):
        value = -abs(point[0] - 7) - abs(point[1] - 2) + rng.gauss(0, 0.5)
        model.add(point, value)
        counts[point] = counts.get(point, 0) + 1
        point = model.next_point(point)
    assert max(counts, key=counts.get) == (7, 2)
    assert model.mean((7, 2)) > model.mean((0, 11))


def test_tune_finds_the_length_known_by_construction():
    # turns = length exactly; an even length is a shared win unless P1 has a head start
    rules = load(LENGTH)
    r = tune(rules, 2, ["random"], [parse_vary("length=2..12", rules), parse_vary("head_start", rules)],
             [parse_target("turns=6"), parse_target("shared=0")], trials=30, games=2, confirm_games=4)
    assert r["best"] == {"length": 6, "head_start": "yes"}
    assert r["own"] == {"length": 4, "head_start": "no"}
    best, own = r["confirmed"]["best"], r["confirmed"]["own"]
    assert best["fitness"] == 0 and best["metrics"]["turns"]["value"] == 6 and best["metrics"]["turns"]["met"]
    assert own["metrics"]["turns"]["value"] == 4 and own["metrics"]["shared"]["value"] == 100
    assert len(r["trials"]) == 30 and len(r["finalists"]) == 3


def cli(*args, cwd=ROOT):
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_tune_writes_a_variant_that_loads_and_is_reproducible(tmp_path):
    args = ["tune", LENGTH, "--vary", "length=4..9", "--target", "turns=7", "--trials", "12", "--games", "2",
            "--confirm-games", "2", "--variant", str(tmp_path / "v.yaml")]
    code, out, err = cli(*args)
    assert code == 0, err
    assert "best: length=7" in out and f"variant: {tmp_path / 'v.yaml'}" in out
    data = yaml.safe_load((tmp_path / "v.yaml").read_text())
    assert data["parameters"] == {"length": 7} and data["extends"].endswith("length.yaml")
    assert load(str(tmp_path / "v.yaml")).params["length"] == 7
    one = json.loads(cli(*args, "--json")[1])
    two = json.loads(cli(*args, "--json")[1])
    assert one == two and one["best"] == {"length": 7}


@pytest.mark.parametrize("args,message", [
    (["--vary", "length=2..5"], "Missing option '--target'"),
    (["--target", "turns=3"], "Missing option '--vary'"),
    (["--vary", "lenght=2..5", "--target", "turns=3"], "unknown parameter 'lenght'"),
    (["--vary", "length=2..5", "--target", "speed=3"], "a target is METRIC=VALUE"),
    (["--vary", "length=2..5", "--vary", "length=3..4", "--target", "turns=3"], "a parameter is varied once"),
    (["--vary", "length=2..5", "--target", "turns=3", "--param", "length=3"], "a parameter is varied once"),
    (["--vary", "length=2..5", "--target", "turns=3", "--variant", "out.txt"], "should end in .yaml"),
    (["--vary", "length=2..5", "--target", "turns=3", "--variant", "no/such/v.yaml"], "no folder no/such"),
])
def test_tune_mistakes(args, message, tmp_path):
    code, out, err = cli("tune", LENGTH, *args, cwd=tmp_path)
    assert code == 2 and message in err and "Traceback" not in err


def test_the_same_search_on_two_jobs():
    from interpreter.analysis.runner import Runner
    rules = load("cubirds")
    args = (rules, 2, ["random"], [parse_vary("hand_size=6..9", rules)], [parse_target("turns=60")])
    one = tune(*args, trials=4, games=4, confirm_games=4, seed=2)
    two = tune(*args, trials=4, games=4, confirm_games=4, seed=2, runner=Runner(jobs=2))
    one.pop("jobs"), two.pop("jobs")
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_a_skill_target_plays_the_two_agents_against_each_other():
    # nothing to choose in the race: 'first' and 'random' play alike, so each finishes ahead in half the meetings
    rules = load(LENGTH)
    r = tune(rules, 2, ["random", "first"], [parse_vary("length=3..5", rules)],
             [parse_target("skill=50"), parse_target("turns=4")], trials=4, games=4, confirm_games=4)
    assert r["best"] == {"length": 4}
    skill = r["confirmed"]["best"]["metrics"]["skill"]
    assert skill["value"] == 50 and skill["met"] and skill["interval"][0] < 50 < skill["interval"][1]


def test_a_skill_target_needs_two_agents(tmp_path):
    code, out, err = cli("tune", LENGTH, "--vary", "length=3..5", "--target", "skill=60", cwd=tmp_path)
    assert code == 2 and "a skill target needs two agents" in err


def test_own_values_outside_the_grid_are_measured_as_they_are():
    rules = load(LENGTH)   # length 4, searched over 7..9: the own values are played at 4, not at a grid value
    r = tune(rules, 2, ["random"], [parse_vary("length=7..9", rules)], [parse_target("turns=4")],
             trials=3, games=2, confirm_games=2)
    assert r["own"] == {"length": 4} and r["confirmed"]["own"]["metrics"]["turns"]["value"] == 4
    from interpreter.tune import tune_text
    assert "the ruleset's own values are nearer the targets than any setting tried" in tune_text(r)
