"""The course of a game: the metrics on sequences whose values are known by construction, the scripted race
of tests/course/ end to end, the --course-out rows, and the same metrics on any number of jobs."""
from __future__ import annotations

import csv
import json
import math
import sys

import pytest

from helpers import ROOT
from interpreter import load
from interpreter.analysis.course import METRICS, game_metrics
from interpreter.analysis.runner import Runner
from interpreter.analysis.simulation import run_simulation

SCRIPTED = str(ROOT / "tests" / "course" / "scripted.yaml")

# (positions' score totals, options of each decision, winners, players) -> the metrics expected exactly
CASES = [
    # P1 leads from the first scored position to the end: no change, no drama, settled at once, sure
    ([[1, 0], [2, 0], [3, 1], [4, 1]], [2, 2, 2], [0], 2,
     {"lead_changes": 0, "drama": 0.0, "comeback": 0, "settled": 0.0, "uncertainty": 0.0,
      "branching": 2.0, "forced": 0.0}),
    # the scripted race: 0-0, 3-0, 3-5, 7-5, 7-9; P2 wins after trailing by 3 and by 2
    ([[0, 0], [3, 0], [3, 5], [7, 5], [7, 9]], [2, 2, 2, 2], [1], 2,
     {"lead_changes": 3, "drama": 2.5, "comeback": 1, "settled": 1.0, "uncertainty": 0.5,
      "branching": 2.0, "forced": 0.0}),
    # ties are skipped: P1 - tie - P1 is no change; P2 takes over at position 3 for good (settled 3/4)
    ([[1, 0], [1, 1], [2, 1], [2, 4], [2, 6]], [1, 3, 1, 3], [1], 2,
     {"lead_changes": 1, "drama": 1.0, "comeback": 0, "settled": 0.75, "uncertainty": 0.5,
      "branching": 2.0, "forced": 0.5}),
    # three players, a shared win: no sole winner, so no drama, comeback or settled; the tied leaders at
    # the end are both winners (1 - 1/2 there), the all-tied start 1 - 1/3, P3 leading alone 1
    ([[0, 0, 0], [0, 0, 2], [3, 3, 2]], [4, 4], [0, 1], 3,
     {"lead_changes": 0, "drama": None, "comeback": None, "settled": None,
      "uncertainty": ((1 - 1 / 3) + 1 + 0.5) / 3, "branching": 4.0, "forced": 0.0}),
    # no score parts: only what the options tell
    (None, [1, 1, 5], [0], 2,
     {"lead_changes": None, "drama": None, "comeback": None, "settled": None, "uncertainty": None,
      "branching": 7 / 3, "forced": 2 / 3}),
    # a stalled game (no winner): lead changes still count, the rest needs a winner
    ([[1, 0], [0, 1], [1, 0]], [2, 2], [], 2,
     {"lead_changes": 2, "drama": None, "comeback": None, "settled": None, "uncertainty": None,
      "branching": 2.0, "forced": 0.0}),
]


@pytest.mark.parametrize("positions,options,winners,players,want", CASES)
def test_metrics_of_sequences_known_by_construction(positions, options, winners, players, want):
    got = game_metrics(positions, options, [None] * len(options), winners, players)
    assert set(got) == set(METRICS)
    for name, value in want.items():
        if value is None:
            assert got[name] is None, name
        else:
            assert got[name] == pytest.approx(value), name
    assert got["estimate_uncertainty"] is None


@pytest.mark.parametrize("estimates,want", [([0.5, None, 0.5], 1.0), ([1.0, 0.0], 0.0), ([0.75], 0.5),
                                            ([None], None)])
def test_the_bots_uncertainty_is_a_coin_flip_at_one_half_and_none_when_sure(estimates, want):
    got = game_metrics(None, [2] * len(estimates), estimates, [0], 2)["estimate_uncertainty"]
    assert got == (None if want is None else pytest.approx(want))


def test_the_scripted_race_end_to_end():
    rules = load(SCRIPTED)
    run = run_simulation(rules, 5, 2, ["first"], course=1)
    course = run.summary["course"]
    # 'first' always gains: every game is the script's, so every mean is exact and its interval a point
    assert course["lead_changes"]["mean"] == 3 and course["lead_changes"]["mean_95"] == [3, 3]
    assert course["drama"]["mean"] == 2.5
    assert course["comeback"]["count"] == 5 and course["comeback"]["games"] == 5
    assert course["settled"]["mean"] == 1.0
    assert course["uncertainty"]["mean"] == 0.5
    assert course["branching"]["mean"] == 2.0 and course["forced"]["mean"] == 0.0
    assert course["estimate_uncertainty"] is None


def test_no_course_without_asking():
    run = run_simulation(load(SCRIPTED), 2, 2, ["first"])
    assert "course" not in run.summary


def test_a_searching_bot_gives_its_estimates():
    rows = []
    run = run_simulation(load(SCRIPTED), 2, 2, ["mcts:iterations=60", "first"], course=2, on_course=rows.append)
    estimates = [r["estimate"] for r in rows if r["player"] == "P1"]
    assert estimates and all(0.0 <= v <= 1.0 for v in estimates)
    assert all(r["estimate"] is None for r in rows if r["player"] == "P2")   # 'first' does not search
    assert run.summary["course"]["estimate_uncertainty"]["games"] == 2


def test_the_metrics_are_the_same_on_two_jobs():
    rules = load("cubirds")
    one = run_simulation(rules, 8, 2, ["random"], seed=4, course=1).summary["course"]
    two = run_simulation(rules, 8, 2, ["random"], seed=4, course=1, runner=Runner(jobs=2)).summary["course"]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert one["lead_changes"]["games"] == 8


def cli(*args):
    import subprocess
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_course_out_writes_a_row_per_decision_and_out_gets_the_metrics(tmp_path):
    decisions, games = tmp_path / "d.csv", tmp_path / "g.jsonl"
    code, out, err = cli("simulate", SCRIPTED, "--games", "2", "--agents", "first", "--course-out",
                         str(decisions), "--out", str(games))
    assert code == 0, err
    assert "course of the game" in out and "lead changes per game" in out
    assert f"decisions: {decisions}" in out
    rows = list(csv.DictReader(decisions.open()))
    assert len(rows) == 8
    assert [(r["turn"], r["player"], r["options"], r["score_P1_points"], r["score_P2_points"]) for r in rows[:4]] == \
        [("1", "P1", "2", "0", "0"), ("2", "P2", "2", "3", "0"), ("3", "P1", "2", "3", "5"), ("4", "P2", "2", "7", "5")]
    assert rows[4]["game"] == "1" and rows[4]["decision"] == "0"
    per_game = [json.loads(line) for line in games.open()]
    assert [g["course_lead_changes"] for g in per_game] == [3, 3]
    assert all(math.isclose(g["course_drama"], 2.5) for g in per_game)


@pytest.mark.parametrize("args,message", [
    (["--course-out", "d.txt"], "should end in .jsonl or .csv"),
    (["--course-out", "same.csv", "--out", "same.csv"], "--course-out must be another file than --out"),
])
def test_course_out_mistakes(args, message, tmp_path):
    code, out, err = cli("simulate", SCRIPTED, "--games", "1", *[str(tmp_path / a) if a.endswith(("csv", "txt"))
                                                                else a for a in args])
    assert code == 2 and message in err and "Traceback" not in err


def test_compare_shows_the_course_as_exploratory_statistics():
    from interpreter.analysis.compare import compare
    from interpreter.analysis.simulation import Table
    rules = load(SCRIPTED)
    a = Table(rules, 2, ["first", "first"], {}, course=1)
    b = Table(rules, 2, ["first", "random"], {}, course=1)
    diffs = {d["key"]: d for d in compare(a, b, 30).summary["differences"]}
    course = {k: d for k, d in diffs.items() if k.startswith("course_")}
    assert {"course_lead_changes", "course_branching", "course_forced", "course_uncertainty"} <= set(course)
    assert not any(d["headline"] or d["flagged"] for d in course.values())
    # with 'first' at both seats every game is the script's; P2 at random waits half the time
    assert course["course_branching"]["same"] and course["course_lead_changes"]["a"] == 3
    assert course["course_lead_changes"]["b"] < 3


def test_the_rows_do_not_change_the_metrics():
    rules = load("cubirds")
    rows = []
    plain = run_simulation(rules, 6, 3, ["random"], seed=2, course=1).summary["course"]
    kept = run_simulation(rules, 6, 3, ["random"], seed=2, course=2, on_course=rows.append).summary["course"]
    assert json.dumps(plain, sort_keys=True) == json.dumps(kept, sort_keys=True)
    assert len(rows) > 6 * 20   # a row per decision, more than one per turn in CuBirds
