"""simulate and compare at the command line: records, plots, jobs, Ray, progress, and their errors."""
from __future__ import annotations

import csv
import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from helpers import ROOT
from interpreter.analysis import progress
from test_cli import run

TIMING = ("seconds", "games_per_second", "decisions_per_second", "jobs", "backend")
PNG = b"\x89PNG\r\n\x1a\n"


def stats(*args) -> dict:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return {k: v for k, v in json.loads(out).items() if k not in TIMING}


@pytest.fixture
def here(monkeypatch, capsys):
    """Run the command line in this process (for quick error cases): (exit status, stdout, stderr)."""
    import cli

    def call(*args):
        monkeypatch.setattr(sys, "argv", ["rulebook", *args])
        monkeypatch.chdir(ROOT)
        try:
            cli.main()
            code = 0
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err
    return call


def run_on_terminal(*args) -> tuple[str, str]:
    """Run the command line with stderr on a pseudo-terminal (as in a shell): (stdout, what stderr showed)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=slave)
    os.close(slave)
    shown = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:   # the other end closed
                break
            if not data:
                break
            shown += data
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait(timeout=60)
    os.close(master)
    return out, shown.decode(errors="replace")


def test_jsonl_and_csv_records_hold_the_same_games(tmp_path):
    jsonl, table = tmp_path / "games.jsonl", tmp_path / "games.csv"
    base = ("simulate", "cubirds", "--games", "12", "--players", "3", "--agents", "random,first", "--seed", "4")
    s = stats(*base, "--out", str(jsonl))
    assert s["records"] == str(jsonl)
    code, out, _ = run(*base, "--out", str(table))
    assert code == 0 and f"records: {table}" in out
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    with open(table, newline="") as f:
        cells = list(csv.DictReader(f))
    assert len(rows) == len(cells) == 12
    assert list(rows[0]) == list(cells[0])
    for row, cell in zip(rows, cells):
        assert cell["winners"] == ";".join(row["winners"])
        assert cell["agent_P2"] == row["agent_P2"] == "first"
        assert int(cell["turns"]) == row["turns"] and int(cell["score_P3_total"]) == row["score_P3_total"]
        assert int(cell["stalled"]) == row["stalled"]
    assert [r["seed"] for r in rows] == list(range(4, 16))
    assert sum(r["win_P1"] for r in rows) == s["seats"][0]["wins"]


def test_every_record_column_is_documented():
    """Each column of a comparison's rows is in the table of docs/simulation.md (per seat as P1,
    per score part as <part>, per counter as <name>)."""
    from interpreter import load
    from interpreter.analysis.records import columns
    from interpreter.analysis.simulation import score_parts
    doc = (ROOT / "docs" / "simulation.md").read_text()
    table = {m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", doc, re.M)}
    parts = score_parts(load("piepmatz"))
    assert len(parts) > 2
    for name in columns(parts, 3, ["trades"], ["side", "label"]):
        generic = re.sub(r"_P\d", "_P1", name).replace("counter_trades", "counter_<name>")
        generic = re.sub(r"^score_P1_(?!total$).*", "score_P1_<part>", generic)
        assert generic in table, name


def test_a_failed_run_leaves_an_existing_record_file_as_it_was(tmp_path, here):
    # a ruleset whose first move fails while playing (it moves a card that has already left)
    text = (ROOT / "docs" / "tutorial" / "harvest.yaml").read_text().replace(
        "      - move: {from: deck, to: market}\n",
        "      - move: {from: deck, to: market}\n      - move: {cards: card, from: market, to: me.hand}\n", 1)
    broken = tmp_path / "broken.yaml"
    broken.write_text(text)
    target = tmp_path / "games.csv"
    target.write_text("keep me\n")
    code, _, err = here("simulate", str(broken), "--games", "5", "--out", str(target))
    assert code == 1 and err.startswith("error: harvest, game seed 0: ")
    assert "a card to move is not in the source zone" in err
    assert target.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.yaml", "games.csv"]


def test_simulate_plots(tmp_path):
    code, out, err = run("simulate", "cubirds", "--games", "10", "--players", "3", "--plots", str(tmp_path / "charts"))
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert names == ["game-length.png", "margin.png", "scores.png", "win-rate-by-seat.png"]
    for name in names:
        data = (tmp_path / "charts" / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000
    assert "plots: " in out


@pytest.mark.parametrize("module,args,message", [
    ("matplotlib", ["simulate", "cubirds", "--games", "3", "--plots", "charts"],
     "--plots needs matplotlib: pip install 'rulebook[plots]'"),
    ("ray", ["simulate", "cubirds", "--games", "3", "--backend", "ray"],
     "--backend ray needs Ray: pip install 'rulebook[ray]'"),
])
def test_a_missing_extra_is_one_line_and_exit_one(module, args, message, here, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)   # as if it were not installed
    code, out, err = here(*args)
    assert (code, err.strip()) == (1, f"error: {message}")
    assert not (ROOT / "charts").exists()


def test_an_unreachable_cluster_is_reported_at_once(here):
    code, _, err = here("simulate", "cubirds", "--games", "3", "--backend", "ray", "--ray-address", "127.0.0.1:9")
    assert code == 1 and "error: cannot reach a Ray cluster at 127.0.0.1:9" in err


def test_compare_text_and_json():
    args = ("compare", "cubirds", "cubirds", "--param-b", "species_to_win=4", "--games", "30", "--players", "2")
    code, out, err = run(*args)
    assert code == 0, err
    assert out.startswith("A: cubirds\nB: cubirds (species_to_win=4)\n30 games each, 2 players")
    assert "verdicts:\n  - games are " in out and "% shorter in B (" in out
    data = stats(*args)
    assert data["a"]["games"] == data["b"]["games"] == 30
    keys = [d["key"] for d in data["differences"]]
    assert keys[:3] == ["win_P1", "win_P2", "first_seat_advantage"] and "turns" in keys and "margin" in keys
    assert len(data["verdicts"]) == len(data["differences"])


def test_compare_records_and_plots(tmp_path):
    out_file = tmp_path / "both.csv"
    code, out, err = run("compare", "cubirds", "cubirds-bga-setup", "--games", "8", "--out", str(out_file),
                         "--plots", str(tmp_path / "charts"))
    assert code == 0, err
    with open(out_file, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["side"], r["label"], r["seed"]) for r in rows[:2]] == [("A", "cubirds", "0"), ("A", "cubirds", "1")]
    assert [r["side"] for r in rows].count("B") == 8 and rows[-1]["label"] == "cubirds-bga-setup"
    assert sorted(p.name for p in (tmp_path / "charts").iterdir()) == \
        ["differences.png", "game-length.png", "scores.png", "win-rate-by-seat.png"]


def test_validate_simulate_is_the_same_with_two_jobs():
    args = ("validate", "rulesets/variants/cubirds-pairs.yaml", "--simulate", "2")
    assert run(*args) == run(*args, "--jobs", "2")


def test_progress_with_an_eta_on_a_terminal_only():
    out, shown = run_on_terminal("simulate", "cubirds", "--games", "30")
    assert shown.startswith("\rsimulating [------------------------------] 0/30   0%")
    assert re.search(r"simulating \[#{30}\] 30/30 100%  done in \d+:\d\d", shown)
    assert out.startswith("cubirds: 30 games")
    out, shown = run_on_terminal("compare", "cubirds", "cubirds-bga-setup", "--games", "5")
    assert "comparing [" in shown and "10/10 100%" in shown
    out, shown = run_on_terminal("validate", "docs/tutorial/harvest.yaml", "--simulate", "5")
    assert "playing docs/tutorial/harvest.yaml [" in shown and "15/15" in shown and out.endswith(": ok\n")
    out, shown = run_on_terminal("simulate", "cubirds", "--games", "5", "--json")
    assert shown == "" and json.loads(out)["games"] == 5
    code, out, err = run("simulate", "cubirds", "--games", "5")   # piped: quiet
    assert code == 0 and err == ""


def test_the_bar_shows_the_time_left_from_the_pace_so_far(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    stream = io.StringIO()
    bar = progress.ProgressBar(40, "simulating", stream)
    now[0] += 0.05
    bar.update(5)                    # within a tenth of a second of the last drawing: not drawn
    now[0] += 1.95
    bar.update(5)                    # 10 games in 2 s: 30 left take 6 s
    now[0] += 28
    bar.update(10)                   # 20 games in 30 s: 20 left take 30 s
    now[0] += 60
    bar.update(20)
    bar.close()
    frames = stream.getvalue().split("\r")[1:]
    assert [f.removesuffix("\x1b[K").removesuffix("\x1b[K\n") for f in frames] == [
        "simulating [------------------------------] 0/40   0%",
        "simulating [#######-----------------------] 10/40  25%  about 0:06 left",
        "simulating [###############---------------] 20/40  50%  about 0:30 left",
        "simulating [##############################] 40/40 100%  done in 1:30",
        "simulating [##############################] 40/40 100%  done in 1:30",
    ]


@pytest.fixture(scope="module")
def local_ray():
    """A Ray started here with 2 CPUs, stopped at the end of the module: its address."""
    ray = pytest.importorskip("ray")
    import logging
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield context.address_info["gcs_address"]
    ray.shutdown()


def test_ray_plays_the_same_games(local_ray):
    args = ("simulate", "cubirds", "--games", "6", "--players", "3", "--seed", "2")
    assert stats(*args, "--backend", "ray", "--ray-address", local_ray) == stats(*args)


def test_the_documented_simulation_is_what_the_command_prints():
    """docs/simulation.md shows a run of the tutorial game, and docs/authoring.md quotes its figures."""
    doc = (ROOT / "docs" / "simulation.md").read_text()
    section = doc[doc.index("## Reading `simulate`"):]
    command = re.search(r"```sh\nrulebook (.*)\n```", section).group(1).split()
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    code, out, _ = run(*command)
    assert code == 0
    assert out[:out.index("\ntime: ")] == shown.rstrip("\n") + "\n"
    authoring = " ".join((ROOT / "docs" / "authoring.md").read_text().split())
    p1 = re.search(r"^P1 .* (\S+%) +(\S+%)$", shown, re.M).groups()
    p3 = re.search(r"^P3 .* (\S+%) +(\S+%)$", shown, re.M).groups()
    assert f"{p1[0]} (95% interval {p1[1]}) against {p3[0]} ({p3[1]})" in authoring


def test_a_stopped_run_ends_its_workers_and_leaves_the_record_file_as_it_was(tmp_path):
    """`kill` (like Ctrl-C) during a run on two processes: exit 1 at once, no worker left behind, no
    half-written file, and the file that was there before untouched."""
    target = tmp_path / "games.jsonl"
    target.write_text("keep me\n")
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "simulate", "cubirds", "--games", "100000",
                             "--jobs", "2", "--out", str(target)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(p.suffix == ".part" for p in tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)   # games under way on both workers
    proc.terminate()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and err.strip() == "aborted"
    assert target.read_text() == "keep me\n" and [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    # forked workers carry the parent's command line, which names this test's own folder
    left = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(target) not in left
