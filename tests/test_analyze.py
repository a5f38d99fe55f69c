"""`rulebook analyze`: the report's data on the scripted race of tests/course/ (known by construction), its
verdict, the self-contained page, and the command line."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from helpers import ROOT
from interpreter import load
from interpreter.analysis.page import page
from interpreter.analyze import analysis_games, analyze

SCRIPTED = str(ROOT / "tests" / "course" / "scripted.yaml")


@pytest.fixture(scope="module")
def scripted():
    return analyze(load(SCRIPTED), 2, ["first"], 20)


def test_the_scripted_race_is_analysed_as_it_was_written(scripted):
    a = scripted
    # 'first' always gains: P2 wins every game of the script, 'wait' is never taken
    assert [x["wins"] for x in a["summary"]["seats"]] == [0, 20]
    assert a["never_taken"] == ["wait"] and a["always_taken"] == ["gain"]
    assert a["actions"] == {"gain": 1.0, "wait": 0.0}
    assert a["summary"]["course"]["lead_changes"]["mean"] == 3
    assert a["turns"] == [4.0] * 20 and a["ladder"] is None


def test_the_verdict_says_what_a_designer_reads_first(scripted):
    v = scripted["verdict"]
    assert v.startswith("P1 wins 0.0% (")
    assert "likely a disadvantage for the first seat" in v
    assert "Games last 4 turns (median; 90% between 4 and 4)." in v
    assert "The lead changes 3.0 times a game, the winner led for good after 100.0% of the game" in v
    assert "With one agent there is no skill ladder" in v
    assert v.endswith("Never taken: wait.")


def test_the_verdict_reads_turns_as_whole_turns(scripted):
    """Percentiles of game length fall between games (6.95 turns): the verdict says whole turns, outward (a
    range never narrower than the games')."""
    import copy
    from interpreter.analyze import verdict
    a = copy.deepcopy(scripted)
    a["summary"]["turns"].update(median=19, p5=6.95, p95=22.1)
    assert "Games last 19 turns (median; 90% between 6 and 23)." in verdict(a)


def test_a_ladder_of_the_agents_given():
    a = analyze(load(SCRIPTED), 2, ["random", "first"], 10, ladder_size=20)
    (step,) = a["ladder"]["steps"]
    assert (step["upper"], step["lower"]) == ("first", "random")
    assert step["games"] >= 20
    assert ("first finishes ahead of random" in a["verdict"]) == step["better"]
    assert analysis_games(["random", "first"], 2, 10, 20) == 10 + 20


def test_the_page_is_self_contained_and_escapes_what_it_shows(scripted):
    html = page(scripted)
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<script" not in html and "src=" not in html and "href=" not in html   # nothing fetched, no code
    assert html.count("<svg") == 2          # seats and lengths (no ladder)
    for heading in ("Balance by seat", "Skill", "Length", "The course of the games", "How games end", "Actions"):
        assert f"<h2>{heading}</h2>" in html
    assert "Never taken: wait." in html
    odd = dict(scripted, title="<b>A & B</b>", agents=["mcts:c=<1>"])
    shown = page(odd)
    assert "<b>A" not in shown and "&lt;b&gt;A &amp; B&lt;/b&gt;" in shown and "mcts:c=&lt;1&gt;" in shown


def cli(*args, cwd=ROOT):
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_analyze_writes_the_page_and_prints_the_verdict(tmp_path):
    code, out, err = cli("analyze", SCRIPTED, "--games", "6", "--agents", "first", cwd=tmp_path)
    assert code == 0, err
    assert "likely a disadvantage for the first seat" in out
    assert out.strip().endswith("report: scripted-analysis.html")
    html = (tmp_path / "scripted-analysis.html").read_text(encoding="utf-8")
    assert "A scripted race: analysis" in html


def test_analyze_json_and_a_report_elsewhere(tmp_path):
    target = tmp_path / "r.html"
    code, out, err = cli("analyze", SCRIPTED, "--games", "4", "--agents", "first", "--json", "--report", str(target))
    assert code == 0, err
    data = json.loads(out)
    assert data["report"] == str(target) and target.exists()
    assert re.match(r"P1 wins 0\.0% ", data["verdict"])
    assert data["summary"]["course"]["branching"]["mean"] == 2.0


@pytest.mark.parametrize("args,message", [
    (["--report", "r.txt"], "should end in .html"),
    (["--games", "1"], "1 is not in the range"),
    (["--agents", "human"], "analyze plays bots only"),
])
def test_analyze_mistakes(args, message, tmp_path):
    code, out, err = cli("analyze", SCRIPTED, *args, cwd=tmp_path)
    assert code == 2 and message in err and "Traceback" not in err


def test_the_same_analysis_on_two_jobs():
    from interpreter.analysis.runner import Runner
    rules = load("cubirds")
    one = analyze(rules, 2, ["random", "first"], 6, seed=3, ladder_size=4)
    two = analyze(rules, 2, ["random", "first"], 6, seed=3, ladder_size=4, runner=Runner(jobs=2))
    for a in (one, two):
        for key in ("jobs", "seconds", "games_per_second", "decisions_per_second"):
            a["summary"].pop(key, None)
            a["ladder"].pop(key, None)
        for step in a["ladder"]["steps"]:
            step.pop("seconds_per_decision")
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
