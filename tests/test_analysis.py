"""Simulation and comparison: the same games on any number of jobs, statistics that the per-game
records reproduce, and comparisons that are zero against themselves and mirror when swapped."""
from __future__ import annotations

import random
import statistics

import pytest

from interpreter import load, load_text
from interpreter.analysis.compare import compare, differences
from interpreter.analysis.summary import Tally
from interpreter.analysis.runner import Batch, Runner, RulesetRef
from interpreter.analysis.simulation import Table, run_simulation
from interpreter.errors import GameError
from interpreter.simulate import play_one

from helpers import ROOT

TIMING = ("seconds", "games_per_second", "decisions_per_second", "jobs", "backend")


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING}


@pytest.fixture(scope="module")
def cubirds():
    return load("cubirds")


def test_records_are_the_same_on_one_process_and_on_two(cubirds):
    ref = RulesetRef.of(cubirds)
    batches = [Batch(ref, 3, ("random", "first", "random"), 40, 9), Batch(ref, 2, ("random", "random"), 7, 5)]
    alone = list(Runner(1).run(batches))
    shared = list(Runner(2).run(batches))
    assert alone == shared
    assert [(b, r["game"], r["seed"]) for b, r in alone] == \
        [(0, i, 40 + i) for i in range(9)] + [(1, i, 7 + i) for i in range(5)]


def test_a_record_is_the_game_play_one_plays(cubirds):
    """Game i of a run is the game `rulebook transcript --seed S+i` shows."""
    (_, record), = Runner(1).run([Batch(RulesetRef.of(cubirds), 3, ("random",) * 3, 12, 1)])
    game = play_one(cubirds, 3, 12, ["random"] * 3)
    assert (record["turns"], record["winners"], record["scores"], record["reason"]) == \
        (game.result["turns"], game.result["winners"], game.result["scores"], game.result["reason"])


def test_a_ruleset_reference_compiles_to_the_same_ruleset_elsewhere(cubirds):
    ref = RulesetRef.of(load("pit-bull-bear"))
    assert ref.load().fingerprint == ref.fingerprint
    from interpreter.analysis import runner
    del runner._RULESETS[ref.fingerprint]   # as in a fresh worker process
    assert ref.load().fingerprint == ref.fingerprint


def test_the_rows_reproduce_every_statistic(cubirds):
    """What docs/simulation.md promises: the per-game rows are enough to redo the statistics."""
    rows = []
    s = run_simulation(cubirds, 60, 4, ["random", "first"], seed=3, on_row=rows.append).summary
    assert [r["seed"] for r in rows] == list(range(3, 63))
    assert s["agents"] == ["random", "first", "random", "first"]
    assert [x["wins"] for x in s["seats"]] == [sum(r[f"win_P{i}"] for r in rows) for i in range(1, 5)]
    assert s["shared_wins"] == sum(len(r["winners"]) > 1 for r in rows) == sum(r["shared"] for r in rows)
    assert s["stalled"] == sum(r["stalled"] for r in rows)
    assert s["wins_per_agent"]["first"]["wins"] == sum(r["win_P2"] + r["win_P4"] for r in rows)
    turns = [r["turns"] for r in rows]
    assert s["turns"]["mean"] == pytest.approx(statistics.fmean(turns))
    assert s["turns"]["median"] == statistics.median(turns)
    assert s["turns"]["p95"] == pytest.approx(statistics.quantiles(turns, n=20, method="inclusive")[-1])
    assert s["seats"][2]["score"]["max"] == max(r["score_P3_total"] for r in rows)
    margins = [sorted((r[f"score_P{i}_total"] for i in range(1, 5)), reverse=True) for r in rows]
    assert s["margin"]["mean"] == pytest.approx(statistics.fmean(m[0] - m[1] for m in margins))
    excess = [r["win_P1"] - sum(r[f"win_P{i}"] for i in range(1, 5)) / 4 for r in rows]
    assert s["first_seat"]["advantage"] == pytest.approx(statistics.fmean(excess))
    for x in s["seats"]:
        lo, hi = x["win_rate_95"]
        assert lo <= x["win_rate"] <= hi
    assert s["turns"]["min"] <= s["turns"]["p5"] <= s["turns"]["median"] <= s["turns"]["p95"] <= s["turns"]["max"]


def test_only_declared_counters_are_reported(cubirds):
    # cubirds keeps a numeric variable (took) that is not a counter; a seat index is not one either
    assert run_simulation(cubirds, 5, 2, ["random"]).summary["counters"] == {}
    text = (ROOT / "docs" / "tutorial" / "harvest.yaml").read_text()
    text = text.replace("actions:\n", "variables:\n  takes: {value: 0, counter: true}\n  last: 0\n"
                        "player_variables:\n  banked: {value: 0, counter: true}\nactions:\n", 1)
    text = text.replace("      - move: {from: deck, to: market}\n",
                        "      - move: {from: deck, to: market}\n      - add: {takes: 1}\n"
                        "      - set: {last: 7}\n", 1)
    text = text.replace("to: me.basket}\n", "to: me.basket}\n      - add: {me.banked: 1}\n", 1)
    rules = load_text(text, "harvest-counted.yaml")
    rows = []
    s = run_simulation(rules, 30, 3, ["random"], on_row=rows.append).summary
    assert list(s["counters"]) == ["takes", "banked"]
    assert [k for k in rows[0] if k.startswith("counter_")] == ["counter_takes", "counter_banked"]
    takes = [r["counter_takes"] for r in rows]
    assert min(takes) > 0 and s["counters"]["takes"]["per_game"]["mean"] == pytest.approx(statistics.fmean(takes))
    assert s["counters"]["takes"]["per_round"] == pytest.approx(sum(takes) / sum(r["rounds"] for r in rows))
    # a player variable counts for all players together: every bank by anyone
    assert s["counters"]["banked"]["per_game"]["mean"] == pytest.approx(statistics.fmean(r["counter_banked"] for r in rows))
    assert max(r["counter_banked"] for r in rows) > 0
    game = play_one(rules, 3, rows[4]["seed"], ["random"] * 3)
    assert sum(game.state.pvars["banked"]) == rows[4]["counter_banked"]


def test_a_bad_parameter_is_refused_before_any_game(cubirds):
    with pytest.raises(GameError, match="unknown parameter 'hand_sz'; did you mean 'hand_size'"):
        run_simulation(cubirds, 5, 2, ["random"], params={"hand_sz": 3}, runner=Runner(2))


def test_comparing_a_ruleset_with_itself_finds_nothing(cubirds):
    table = Table(cubirds, 2, ["random", "random"], {})
    result = compare(table, table, 40, seed=5).summary
    assert result["a"]["label"] == "cubirds [A]" and result["b"]["label"] == "cubirds [B]"
    for d in result["differences"]:
        assert d["difference"] == 0 and d["same"] and not d["detectable"], d
    assert all(v.endswith(": the same in every game of A and B") for v in result["verdicts"])
    assert without_timing(result["a"]) | {"label": ""} == without_timing(result["b"]) | {"label": ""}


def test_swapping_the_sides_mirrors_every_difference(cubirds):
    a = Table(cubirds, 2, ["random", "random"], {})
    b = Table(cubirds, 2, ["random", "random"], {"species_to_win": 6})
    ab = {d["key"]: d for d in compare(a, b, 40).summary["differences"]}
    ba = {d["key"]: d for d in compare(b, a, 40).summary["differences"]}
    assert ab.keys() == ba.keys()
    for key, d in ab.items():
        assert d["difference"] == pytest.approx(-ba[key]["difference"], abs=1e-12)
        assert d["interval"] == pytest.approx([-ba[key]["interval"][1], -ba[key]["interval"][0]], abs=1e-12)
        assert d["detectable"] == ba[key]["detectable"]


def test_a_shorter_goal_is_detected_as_shorter_games(cubirds):
    """Fewer species to collect: the same deals end sooner, and the verdict says so in words."""
    a = Table(cubirds, 2, ["random", "random"], {})
    b = Table(cubirds, 2, ["random", "random"], {"species_to_win": 5})
    result = compare(a, b, 60).summary
    turns = next(d for d in result["differences"] if d["key"] == "turns")
    assert turns["interval"][1] < 0 and turns["relative"] < 0
    assert turns["verdict"].startswith("games are ") and " shorter in B (" in turns["verdict"]
    assert turns["verdict"] in result["verdicts"][:sum(d["detectable"] for d in result["differences"])]
    # each side's statistics are those of a simulation of that side alone
    alone = run_simulation(cubirds, 60, 2, ["random"], params={"species_to_win": 5}).summary
    assert result["b"]["turns"] == alone["turns"] and result["b"]["seats"] == alone["seats"]
    assert turns["b"] == pytest.approx(alone["turns"]["mean"])


def test_sides_with_different_tables_are_refused(cubirds):
    with pytest.raises(GameError, match="the same number of players"):
        compare(Table(cubirds, 2, ["random"] * 2, {}), Table(cubirds, 3, ["random"] * 3, {}), 5)


def null_tally(rng, games: int) -> Tally:
    """Games of a two-player game whose seats are even, drawn at random: what a side of a null pair plays."""
    t = Tally(2, ["random", "random"], [])
    for _ in range(games):
        scores = [rng.randint(0, 12), rng.randint(0, 12)]
        top = max(scores)
        t.add({"winners": [s for s in range(2) if scores[s] == top], "stalled": False, "tie_break_used": False,
               "turns": rng.randint(40, 120), "rounds": rng.randint(2, 6), "reason": "over", "decisions": 1,
               "scores": [{"total": x} for x in scores]})
    return t


def test_on_null_pairs_at_most_one_comparison_in_twenty_flags_anything():
    """400 comparisons of two independent 200-game runs of the same game: Holm's correction keeps the
    comparisons that flag any headline statistic near 5%, where testing every statistic on its own at
    95% announces a difference far more often."""
    rng = random.Random(7)
    flagged = uncorrected = 0
    runs = 400
    for _ in range(runs):
        diffs = differences(null_tally(rng, 200), null_tally(rng, 200), paired=False)
        flagged += any(d["flagged"] for d in diffs)
        uncorrected += any(d["detectable"] for d in diffs)
        assert not any(d["flagged"] for d in diffs if not d["headline"])
    assert flagged / runs <= 0.075
    assert uncorrected / runs >= 0.15


def test_headline_statistics_are_the_family_and_the_rest_exploratory():
    rng = random.Random(3)
    diffs = {d["key"]: d for d in differences(null_tally(rng, 50), null_tally(rng, 50), paired=False)}
    assert [k for k, d in diffs.items() if d["headline"]] == ["win_P1", "win_P2", "first_seat_advantage",
                                                              "turns", "margin"]
    assert all(d["p_adjusted"] is None for d in diffs.values() if not d["headline"])
    assert all(d["p_adjusted"] >= d["p"] for d in diffs.values() if d["headline"])


def test_a_copy_that_shuffles_twice_is_not_paired_and_flags_nothing(cubirds):
    """The same game dealt otherwise: the seeds pair nothing, and the comparison says so."""
    text = (ROOT / "rulesets" / "cubirds.yaml").read_text()
    twice = load_text(text.replace("setup:\n  - shuffle: deck\n", "setup:\n  - shuffle: deck\n  - shuffle: deck\n", 1))
    a, b = Table(cubirds, 2, ["random", "random"], {}), Table(twice, 2, ["random", "random"], {})
    result = compare(a, b, 200).summary
    assert result["pairing"]["paired"] is False and result["pairing"]["on"] == "game length"
    assert not any(d["flagged"] for d in result["differences"])
    assert all(d["paired"] is False for d in result["differences"])
    # the same ruleset on both sides: the same games, paired
    assert compare(a, a, 40).summary["pairing"]["paired"] is True
