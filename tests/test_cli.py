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
    assert out.splitlines()[0] == "no/such/file.yaml: error[io]: no such file"   # no made-up 1:1


def test_validate_takes_bundled_names_as_every_command_does():
    code, out, _ = run("validate", "cubirds", "pit-classic")
    assert (code, out.splitlines()) == (0, ["cubirds: ok", "pit-classic: ok"])


def test_validate_json_has_no_position_for_a_file_it_cannot_read():
    code, out, _ = run("validate", "--format", "json", "missing.yaml")
    d = json.loads(out)[0]["diagnostics"][0]
    assert (code, d["file"], d["line"], d["col"], d["message"]) == (1, "missing.yaml", None, None, "no such file")


# Usage errors (exit 2, click's "Usage: ... Error: ..." on stderr): a table per command.
USAGE_ERRORS = [
    (["frobnicate"], "No such command 'frobnicate'"),
    (["list", "--jsn"], "No such option '--jsn'. Did you mean '--json'?"),
    (["validate"], "Missing argument 'RULESET...'"),
    (["validate", "--format", "xml", "cubirds"], "'xml' is not one of 'text', 'json'"),
    (["validate", "--simulate", "-1", "cubirds"], "-1 is not in the range"),
    (["play", "cubirds", "--players", "9", "--agents", "random"],
     "Invalid value for '--players': cubirds is for 2 to 5 players, not 9"),
    (["play", "cubirds", "--agents", "robot"], "Invalid value for '--agents': unknown agent 'robot'"),
    (["play", "cubirds", "--agents", "random", "--param", "nosuch=1"],
     "Invalid value for '--param': unknown parameter 'nosuch'"),
    (["play", "cubirds", "--agents", "random", "--param", "hand_size"],
     "Invalid value for '--param': 'hand_size' is not name=value"),
    (["simulate", "cubirds", "--games", "x"], "'x' is not a valid integer range"),
    (["simulate", "cubirds", "--players", "1"], "Invalid value for '--players': cubirds is for 2 to 5 players, not 1"),
    (["simulate", "cubirds", "--agents", "randm"],
     "Invalid value for '--agents': unknown agent 'randm' (agents: random, first, greedy, mcts, human, "
     "or module:ClassName); "
     "did you mean 'random'?"),
    (["simulate", "cubirds", "--agents", "human"], "simulate plays bots only"),
    (["simulate", "cubirds", "--param", "hand_sz=3"],
     "Invalid value for '--param': unknown parameter 'hand_sz'; did you mean 'hand_size'?"),
    (["simulate", "cubirds", "--param", "hand_size=many"],
     "Invalid value for '--param': parameter 'hand_size' takes a whole number, not 'many'"),
    (["simulate", "cubirds", "--param", "refill_end=lft"],
     "Invalid value for '--param': parameter 'refill_end' may be laid, left, right, not 'lft'; did you mean 'left'?"),
    (["simulate", "cubirds", "--out", "games.txt"], "Invalid value for '--out' / '-o': 'games.txt' should end in .jsonl or .csv"),
    (["simulate", "cubirds", "--ray-address", "127.0.0.1:6379"],
     "Invalid value for '--ray-address': only with --backend ray"),
    (["simulate", "cubirds", "--jobs", "-1"], "Invalid value for '--jobs' / '-j': -1 is not in the range 0<=x<=4096."),
    (["compare", "cubirds", "pit", "--players", "2"], "Invalid value for '--players': pit is for 3 to 8 players, not 2"),
    (["compare", "cubirds", "cubirds", "--param-b", "species_to_wn=6"],
     "Invalid value for '--param': unknown parameter 'species_to_wn'; did you mean 'species_to_win'?"),
    (["compare", "cubirds", "cubirds", "--agents", "first,human"], "compare plays bots only"),
    (["compare", "cubirds", "cubirds", "--out", "games"], "Invalid value for '--out' / '-o': 'games' should end in .jsonl or .csv"),
    (["transcript", "cubirds", "--players", "6"], "Invalid value for '--players': cubirds is for 2 to 5 players, not 6"),
    (["transcript", "cubirds", "--agents", "human"], "Invalid value for '--agents': a transcript is of bots only"),
    (["serve", "--port", "0"], "Invalid value for '--port': 0 is not in the range 1<=x<=65535."),
    (["play", "--names", "A,B,C"], "name a RULESET, or --resume a saved game"),
    (["play", "cubirds", "--names", "A,B,C"], "Invalid value for '--names': 3 names for 2 players"),
    (["tournament", "cubirds"], "Missing option '--agents'"),
    (["tournament", "cubirds", "--agents", "human,random"], "a tournament plays bots only"),
    (["tournament", "cubirds", "--agents", "mcts:iter=3"],
     "Invalid value for '--agents': agent 'mcts' has no setting 'iter' (it takes iterations, time, cap, steps, c, depth, reward, "
     "opponents, belief)"),
    (["tournament", "cubirds", "--agents", "random", "--jobs", "-1"], "-1 is not in the range"),
    (["tournament", "cubirds", "--agents", "random", "--ray-address", "10.0.0.5:6379"],
     "Invalid value for '--ray-address': only with --backend ray"),
    (["analyze"], "Missing argument 'RULESET'"),
    (["analyze", "cubirds", "--agents", "random,human"], "analyze plays bots only"),
    (["analyze", "cubirds", "--report", "page.txt"], "'page.txt' should end in .html"),
    (["analyze", "cubirds", "--ladder-games", "0"], "0 is not in the range"),
    (["tune", "cubirds", "--target", "turns=3"], "Missing option '--vary'"),
    (["tune", "cubirds", "--vary", "hand_size=4..6", "--target", "turns=3", "--trials", "0"], "0 is not in the range"),
    (["agents", "extra"], "Got unexpected extra argument (extra)"),
    (["explain"], "Missing argument 'RULESET'"),
    (["test"], "Missing argument 'SCENARIOS...'"),
    (["new", "variant", "cubirds"], "Missing argument 'FILE'"),
    (["new", "variant", "cubirds", "README.md"], "README.md exists; use --force to overwrite it"),
    (["schema", "--bogus"], "No such option '--bogus'"),
]


def run_here(args, capsys, monkeypatch):
    """`rulebook ARGS` through the real entry point (cli.main), in this process: quicker than `run`."""
    from cli import main
    monkeypatch.setattr(sys, "argv", ["rulebook", *args])
    with pytest.raises(SystemExit) as stop:
        main()
    out, err = capsys.readouterr()
    return stop.value.code, out, err


@pytest.mark.parametrize("args,message", USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_usage_errors_exit_two(args, message, capsys, monkeypatch):
    code, out, err = run_here(args, capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert message in err and err.startswith("Usage: ")
    assert "Traceback" not in err


def test_a_usage_error_exits_two_from_a_fresh_process_too():
    code, out, err = run("play", "cubirds", "--players", "9")
    assert (code, out) == (2, "")
    assert "Error: Invalid value for '--players': cubirds is for 2 to 5 players, not 9" in err


def test_every_command_has_usage_error_cases():
    from cli import cli
    tested = {args[0] for args, _ in USAGE_ERRORS}
    assert set(cli.commands) <= tested


@pytest.mark.parametrize("args,message", [
    (["play", "cubrds"], "no bundled ruleset named 'cubrds'"),
    (["simulate", "no/such.yaml"], "no/such.yaml: error[io]: no such file"),
])
def test_ruleset_errors_exit_one_with_a_message(args, message):
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


def test_schema_prints_the_schema_and_its_path():
    code, out, _ = run("schema")
    assert code == 0 and out == (ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8")
    code, out, _ = run("schema", "--path")
    assert (code, out.strip()) == (0, str((ROOT / "schema" / "ruleset.schema.json").resolve()))


def test_test_prints_a_summary_line_and_exits_one_on_a_failure():
    code, out, _ = run("test", "tests/scenarios/failing/illegal-is-legal.yaml",
                       "tests/scenarios/cubirds-big-flock-wins.yaml")
    assert code == 1 and out.splitlines()[-1] == "1 passed, 1 failed"
    code, out, _ = run("test", "tests/scenarios/cubirds-big-flock-wins.yaml")
    assert code == 0 and out.splitlines()[-1] == "1 passed, 0 failed"


def test_test_json_and_junit(tmp_path):
    report = tmp_path / "report.xml"
    code, out, _ = run("test", "tests/scenarios/failing/illegal-is-legal.yaml",
                       "tests/scenarios/cubirds-big-flock-wins.yaml", "--json", "--junit", str(report))
    data = json.loads(out)
    assert code == 1 and (data["passed"], data["failed"]) == (1, 1)
    assert [s["passed"] for s in data["scenarios"]] == [False, True]
    assert data["scenarios"][0]["failures"] == [{
        "message": "step 1: expected P1's choice 'lay 2 parrot in row 2 on the left' to be refused, but it is legal",
        "step": 1, "file": "tests/scenarios/failing/illegal-is-legal.yaml", "line": 12, "column": 19}]
    xml = report.read_text(encoding="utf-8")
    assert '<testsuites tests="2" failures="1">' in xml and xml.count("<testcase ") == 2
    code, out, err = run("test", "tests/scenarios/cubirds-big-flock-wins.yaml",
                         "--junit", str(tmp_path / "no" / "r.xml"))
    assert code == 1 and "cannot write" in err and "Traceback" not in err


def _help_examples():
    import cli as module
    out = []

    def walk(group, path):
        for name, command in group.commands.items():
            for line in (command.help or "").splitlines():
                if line.strip().startswith("rulebook "):
                    out.append((path + [name], line.strip()))
            if hasattr(command, "commands"):
                walk(command, path + [name])
    walk(module.cli, [])
    return out


def test_help_examples_name_a_ruleset_that_exists():
    # the examples said NAME, which fails when pasted; they name a bundled ruleset now
    from interpreter.bundled import bundled
    examples = _help_examples()
    assert len(examples) > 20
    for path, line in examples:
        words = line.split()
        assert "NAME" not in words, line
        if words[1:1 + len(path)] != path:   # an example of another command (agents shows simulate)
            path = [words[1]] + (["variant"] if words[1] == "new" else [])
        rest = words[1 + len(path):]
        if rest and not rest[0].startswith(("-", ">", "|")) and path != ["schema"]:
            target = rest[0]
            assert target in bundled() or target.endswith((".yaml", ".json", "/")), line


def test_a_pasted_help_example_runs(capsys, monkeypatch):
    line = next(line for path, line in _help_examples() if path == ["validate"] and "yaml" not in line)
    code, out, err = run_here(line.split()[1:], capsys, monkeypatch)
    assert code == 0, err
