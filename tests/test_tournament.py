"""Tournaments: seatings that put every agent in every seat equally often, Wilson intervals, points for
shared wins and stalls, the summary's tables from known records, the same results for any --jobs."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load
from interpreter.analysis.runner import Runner
from interpreter.analysis.stats import wilson
from interpreter.tournament import points, schedule, seatings, summarise, tournament


@pytest.mark.parametrize("agents,players,expected", [
    (["a", "b"], 2, [("a", "b"), ("b", "a")]),
    (["a", "b"], 3, [("a", "b", "a"), ("b", "a", "a"), ("a", "a", "b")]),
    (["a", "b", "c"], 3, [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]),
    (["a", "b", "c"], 2, [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")]),
    (["a"], 2, [("a", "a"), ("a", "a")]),
])
def test_seatings(agents, players, expected):
    assert seatings(agents, players) == expected


@pytest.mark.parametrize("k", range(1, 7))
@pytest.mark.parametrize("players", range(2, 6))
def test_every_agent_sits_in_every_seat_equally_often_and_every_pair_meets(k, players):
    agents = [f"a{i}" for i in range(k)]
    table = seatings(agents, players)
    for agent in agents:
        per_seat = [sum(seats[s] == agent for seats in table) for s in range(players)]
        assert len(set(per_seat)) == 1 and per_seat[0] > 0
    met = {frozenset((x, y)) for seats in table for x in seats for y in seats if x != y}
    assert met == {frozenset((x, y)) for x in agents for y in agents if x != y}


def test_games_are_played_in_whole_cycles_each_cycle_on_one_seed():
    plan, cycle = schedule(["a", "b", "c"], 2, 10, seed=5)
    assert cycle == 6 and len(plan) == 12
    assert [seed for _, seed in plan] == [5] * 6 + [6] * 6
    assert Counter(seats for seats, _ in plan) == Counter({s: 2 for s in seatings(["a", "b", "c"], 2)})


def test_a_shared_win_counts_a_fraction_in_the_interval():
    # the analysis' Wilson interval, used with fractional points: 2.5 of 5 is the interval of 5 of 10
    # with half the games
    lo, hi = wilson(2.5, 5)
    assert (round(lo, 4), round(hi, 4)) == (0.1704, 0.8296)


@pytest.mark.parametrize("winners,expected", [
    ([1], [0.0, 1.0, 0.0]),
    ([0, 2], [0.5, 0.0, 0.5]),
    ([], [1 / 3, 1 / 3, 1 / 3]),
])
def test_points_of_a_game(winners, expected):
    assert points({"seats": ["a", "b", "c"], "winners": winners}) == expected


def record(seats, winners, totals, stalled=False):
    return {"seed": 0, "seats": seats, "winners": winners, "totals": totals, "stalled": stalled, "turns": 1,
            "decisions": [2] * len(seats), "seconds": [0.5] * len(seats)}


def test_the_summary_of_known_games():
    records = [
        record(["x", "y"], [0], [5, 3]),
        record(["y", "x"], [0], [6, 2]),
        record(["x", "y"], [0, 1], [4, 4]),
        record(["y", "x"], [], [1, 7], stalled=True),
    ]
    s = summarise(records, ["x", "y"], 2)
    x, y = s["agents"]["x"], s["agents"]["y"]
    assert (x["points"], x["games"], x["wins"], x["shared_wins"]) == (2.0, 4, 1, 1)
    assert (y["points"], y["games"], y["wins"], y["shared_wins"]) == (2.0, 4, 1, 1)
    assert x["rate"] == 0.5 and x["mean_score"] == 4.5 and x["seconds_per_decision"] == 0.25
    assert x["by_seat"]["P1"]["points"] == 1.5 and x["by_seat"]["P2"]["points"] == 0.5
    assert s["seats"]["P1"]["points"] == 3.0 and s["seats"]["P2"]["points"] == 1.0
    pair, = s["pairwise"]
    # x ahead: game 1 (won); y ahead: game 2 (won); level: game 3 (shared, equal totals); game 4: nobody
    # won, x's total is higher
    assert (pair["agent"], pair["opponent"], pair["ahead"], pair["behind"], pair["level"]) == ("x", "y", 2, 1, 1)
    assert pair["rate"] == 2.5 / 4
    assert (s["stalled"], s["shared_wins"], s["games"]) == (1, 1, 4)


def test_the_same_results_on_one_or_two_processes():
    rules = load("cubirds")
    one = tournament(rules, ["random", "first", "greedy"], 2, 6, seed=3, runner=Runner(1))
    two = tournament(rules, ["random", "first", "greedy"], 2, 6, seed=3, runner=Runner(2))

    def results(s):
        return {a: (row["points"], row["games"], row["wins"], row["mean_score"], row["decisions"])
                for a, row in s["agents"].items()}, s["pairwise"], s["seats"]
    assert results(one) == results(two)


def test_the_command_prints_tables_and_json(capsys, monkeypatch):
    from test_agents import run_here
    code, out, _ = run_here(["tournament", "cubirds", "--agents", "random,first", "--games", "3"], capsys,
                            monkeypatch)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("cubirds: 4 games, 2 players, 2 seatings (every agent in every seat equally often), "
                        "seeds 0..1")
    assert lines[1] == "(3 games asked: played in whole cycles of 2 seatings)"
    assert any(line.startswith("random ") for line in lines) and any(line.startswith("first ") for line in lines)
    assert any(line.startswith("  random vs first: ") for line in lines)
    code, out, _ = run_here(["tournament", "cubirds", "--agents", "random,first", "--games", "2", "--json"], capsys,
                            monkeypatch)
    s = json.loads(out)
    assert code == 0 and s["games"] == 2 and set(s["agents"]) == {"random", "first"}
    assert s["agents"]["random"]["games"] == 2 and len(s["agents"]["random"]["interval"]) == 2


def test_a_ladder_puts_each_rung_against_the_one_below():
    from interpreter.tournament import LADDER, ladder, ladder_games, ladder_rungs
    rules = load("cubirds")
    assert ladder_rungs(rules) == LADDER
    s = ladder(rules, 2, ["random", "greedy"], 10, seed=3)
    (step,) = s["steps"]
    assert (step["upper"], step["lower"], step["games"]) == ("greedy", "random", 10)
    assert step["ahead"] + step["behind"] + step["level"] == 10 == ladder_games(["random", "greedy"], 2, 10)
    assert step["better"] and s["stops_at"] is None   # greedy beats random in CuBirds beyond doubt


def test_a_ladder_says_where_skill_stops_paying():
    from interpreter.tournament import ladder, ladder_text
    rules = load(str(Path(__file__).resolve().parent / "hidden" / "guess-card.yaml"))
    s = ladder(rules, 2, ["random", "first", "greedy"], 40, seed=1)
    assert [st["upper"] for st in s["steps"]] == ["first", "greedy"]
    assert not s["steps"][0]["better"] and s["stops_at"] == "first"   # an honest guess: 50%
    assert "first does not beat random beyond doubt" in ladder_text(s)


def test_the_ladder_on_the_command_line(tmp_path):
    from click.testing import CliRunner
    from cli import cli
    out = CliRunner().invoke(cli, ["tournament", "cubirds", "--ladder", "--agents", "random,greedy", "--games", "4"])
    assert out.exit_code == 0 and "greedy " in out.output and "random" in out.output and "verdict" in out.output
    out = CliRunner().invoke(cli, ["tournament", "cubirds", "--ladder", "--agents", "random"])
    assert out.exit_code == 2 and "at least two rungs" in out.output
