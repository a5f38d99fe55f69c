"""The command line: each command's output and exit status, through the real entry point."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import ROOT


def run(*args, input_text=None):
    """Run `rulebook ARGS` as a user would (a fresh process through cli.main)."""
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          input=input_text, cwd=ROOT, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_list_shows_bundled_rulesets_with_player_range():
    code, out, _ = run("list")
    assert code == 0
    line = next(l for l in out.splitlines() if l.startswith("cubirds "))
    assert "2-5" in line


def test_list_json():
    code, out, _ = run("list", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["cubirds"]["players"] == [2, 5]


def test_validate_ok_and_exit_zero():
    code, out, _ = run("validate", "rulesets/cubirds.yaml")
    assert (code, out.strip()) == (0, "rulesets/cubirds.yaml: ok")


def test_validate_reports_location_caret_and_exit_one(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = (ROOT / "rulesets" / "cubirds.yaml").read_text().replace(
        "when: took == 0", "when: tok == 0")
    bad.write_text(text)
    code, out, _ = run("validate", str(bad))
    assert code == 1
    line_no = next(i for i, l in enumerate(text.splitlines(), 1) if "when: tok == 0" in l)
    col = text.splitlines()[line_no - 1].index("tok") + 1
    assert f"{bad}:{line_no}:{col}: error[unknown-name]: unknown name 'tok'" in out
    assert "    hint: did you mean 'took'?" in out
    lines = out.splitlines()
    i = next(i for i, l in enumerate(lines) if "unknown name 'tok'" in l)
    assert lines[i + 2] == "    " + " " * (col - 1) + "^"


def test_validate_json_format(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nname: y\n")
    code, out, _ = run("validate", "--format", "json", str(bad))
    assert code == 1
    report = json.loads(out)
    d = report[0]["diagnostics"][0]
    assert (d["line"], d["col"], d["code"]) == (2, 1, "duplicate-key")


def test_validate_missing_file_is_an_error_not_a_traceback():
    code, out, err = run("validate", "no/such/file.yaml")
    assert code == 1
    assert "Traceback" not in out + err
    assert "no/such/file.yaml:1:1: error[io]" in out


def test_usage_errors_exit_two():
    assert run("simulate", "cubirds", "--games", "x")[0] == 2
    assert run("frobnicate")[0] == 2
    assert run("validate")[0] == 2


@pytest.mark.parametrize("args,message", [
    (["play", "cubrds"], "no bundled ruleset named 'cubrds'"),
    (["play", "cubirds", "--players", "9", "--agents", "random"], "cubirds is for 2 to 5 players, not 9"),
    (["simulate", "cubirds", "--param", "hand_sz=3"], "unknown parameter 'hand_sz'; did you mean 'hand_size'?"),
    (["simulate", "cubirds", "--agents", "robot"], "unknown agent 'robot'"),
    (["simulate", "cubirds", "--param", "hand_size=many"], "parameter 'hand_size' takes a whole number, not 'many'"),
])
def test_user_errors_exit_one_with_a_message(args, message):
    code, out, err = run(*args)
    assert code == 1
    assert message in err
    assert "Traceback" not in err


def test_simulate_text_report():
    code, out, _ = run("simulate", "cubirds", "--games", "20", "--players", "3", "--seed", "5")
    assert code == 0
    for needle in ["95% interval", "first seat: P1 wins", "stalled:", "game length (turns)", "games/s"]:
        assert needle in out


def test_simulate_json_counts_add_up():
    code, out, _ = run("simulate", "cubirds", "--games", "30", "--players", "4", "--agents", "random,first", "--json")
    assert code == 0
    s = json.loads(out)
    assert s["games"] == 30 and s["agents"] == ["random", "first", "random", "first"]
    decided = 30 - s["stalled"]
    # every decided game has at least one winner; shared wins add the extra ones
    assert sum(s["wins_per_seat"].values()) >= decided
    assert sum(e["wins"] for e in s["wins_per_agent"].values()) == sum(s["wins_per_seat"].values())
    assert s["turns"]["median"] > 0 and s["games_per_second"] > 0


def test_simulate_is_reproducible():
    a = json.loads(run("simulate", "cubirds", "--games", "10", "--seed", "3", "--json")[1])
    b = json.loads(run("simulate", "cubirds", "--games", "10", "--seed", "3", "--json")[1])
    for key in ("wins_per_seat", "end_reasons", "turns", "seats"):
        assert a[key] == b[key]


def test_play_with_bots_prints_moves_and_scores():
    code, out, _ = run("play", "cubirds", "--agents", "random", "--seed", "4", "--players", "3")
    assert code == 0
    assert "turn 1 P" in out and "Game over after" in out and "birds" in out


def test_play_human_is_told_why_a_choice_is_refused():
    code, out, err = run("play", "cubirds", "--seed", "2", "--players", "2",
                         input_text="fly a flock of 2 parrot\n1\n")
    assert ("'fly a flock of 2 parrot' is not an option - fly is not offered now: P1 is to choose "
            "'lay birds' (lay)") in out
    assert "Traceback" not in out + err


def test_play_human_reasks_on_bad_input_then_plays():
    # "zzz", "0" and "999" are refused; "1" is accepted; then input ends and the game stops cleanly
    code, out, err = run("play", "cubirds", "--agents", "human,random", "--seed", "2",
                         input_text="zzz\n0\n999\n1\n")
    assert "'zzz' is not an option" in out
    assert "'0' is not an option" in out
    assert "'999' is not an option" in out
    assert "Traceback" not in out + err
    assert code == 1 and "no more input" in err
