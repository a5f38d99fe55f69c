"""A tournament: a ruleset + agent specs -> seatings that put every agent in every seat equally often ->
seeded games (on one or several processes) -> win rates with 95% intervals per agent, per seat and per
agent in each seat, and how often each agent finished ahead of each other.

Games come in cycles: one cycle plays every seating once on the same seed (the same deal for every
seating, which makes the comparison fairer), cycle c on seed S + c. A game's result depends only on
its seating and seed, so any number of jobs gives the same results.
"""
from __future__ import annotations

import math
import time
from dataclasses import replace
from itertools import combinations

from .analysis.report import pct, span
from .analysis.runner import Runner
from .analysis.simulation import Table, game_failed
from .analysis.stats import wilson


def seatings(agents: list[str], players: int) -> list[tuple]:
    """Who sits where in each game of a cycle: every agent in every seat equally often.

    Fewer agents than seats: the list repeats to fill the table, in every rotation. As many: every
    rotation of the list. More: every group of `players` of them (so that each pair meets), in every
    rotation."""
    if len(agents) <= players:
        table = [agents[i % len(agents)] for i in range(players)]
        groups = [table]
    else:
        groups = [[agents[i] for i in chosen] for chosen in combinations(range(len(agents)), players)]
    return [tuple(group[r:] + group[:r]) for group in groups for r in range(players)]


def schedule(agents: list[str], players: int, games: int, seed: int = 0) -> tuple[list, int]:
    """The games to play: (seats, seed) for at least `games` games, in whole cycles; and the cycle length."""
    table = seatings(agents, players)
    cycles = max(1, math.ceil(games / len(table)))
    return [(seats, seed + c) for c in range(cycles) for seats in table], len(table)


def run_games(rules, players: int, agents: list[str], games: int, seed: int = 0, params=None,
              runner: Runner | None = None, progress=None) -> tuple[list[dict], int, int]:
    """Play the tournament's games -> their records (seats, winners, score totals, each seat's decisions
    and seconds spent deciding), the cycle length and the number of cycles.

    One batch of the analysis runner per seating, game c of each on seed `seed + c`: cycle c."""
    runner = runner or Runner()
    plan, cycle = schedule(agents, players, games, seed)
    cycles = len(plan) // cycle
    tables = [Table(rules, players, list(seats), dict(params or {})) for seats, _ in plan[:cycle]]
    for t in tables:
        t.check(seed)
    records = []
    for _, record in runner.run([replace(t.batch(seed, cycles), timed=True) for t in tables], progress):
        if record["error"] is not None:
            raise game_failed(rules, record)
        records.append({"seed": record["seed"], "seats": record["agents"], "winners": record["winners"],
                        "stalled": record["stalled"], "totals": [row["total"] for row in record["scores"]],
                        "turns": record["turns"], "decisions": record["seat_decisions"],
                        "seconds": record["seat_seconds"]})
    return records, cycle, cycles


def tournament(rules, agents: list[str], players: int, games: int, seed: int = 0, params=None,
               runner: Runner | None = None, progress=None) -> dict:
    """Play a tournament and summarise it (see `summarise`)."""
    runner = runner or Runner()
    start = time.perf_counter()
    records, cycle, cycles = run_games(rules, players, agents, games, seed, params, runner, progress)
    summary = summarise(records, list(dict.fromkeys(agents)), players)
    summary.update({"ruleset": rules.name, "players": players, "games_asked": games, "seatings": cycle,
                    "seeds": [seed, seed + cycles - 1], "jobs": runner.jobs, "backend": runner.backend,
                    "seconds": time.perf_counter() - start})
    return summary


# statistics ---------------------------------------------------------------------------------------------

def points(record: dict) -> list[float]:
    """Each seat's share of the game: 1 for a win, 1/k for a win shared by k, 0 for a loss (a game nobody
    won, such as a stalled one, is a draw: 1/n each)."""
    n = len(record["seats"])
    winners = record["winners"]
    if not winners:
        return [1.0 / n] * n
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]


def _rate(x: float, n: int) -> dict:
    interval = wilson(x, n)
    return {"points": x, "games": n, "rate": x / n if n else None,
            "interval": list(interval) if interval else None}


def summarise(records: list[dict], agents: list[str], players: int) -> dict:
    """Win rates (points over games, with 95% Wilson intervals) per agent, per seat and per agent in each
    seat; pairwise results; games stalled and shared; decision times."""
    per_agent = {a: {"points": 0.0, "games": 0, "wins": 0, "shared": 0, "total": 0.0, "decisions": 0,
                     "seconds": 0.0} for a in agents}
    per_seat = [[0.0, 0] for _ in range(players)]
    by_seat = {a: [[0.0, 0] for _ in range(players)] for a in agents}
    pairs = {(a, b): [0, 0, 0] for a, b in combinations(agents, 2)}   # a ahead, b ahead, level
    stalled = shared = 0
    for r in records:
        pts = points(r)
        winners = set(r["winners"])
        stalled += r["stalled"]
        shared += len(winners) > 1
        for s, spec in enumerate(r["seats"]):
            e = per_agent[spec]
            e["points"] += pts[s]
            e["games"] += 1
            e["wins"] += s in winners and len(winners) == 1
            e["shared"] += s in winners and len(winners) > 1
            e["total"] += r["totals"][s]
            e["decisions"] += r["decisions"][s]
            e["seconds"] += r["seconds"][s]
            per_seat[s][0] += pts[s]
            per_seat[s][1] += 1
            by_seat[spec][s][0] += pts[s]
            by_seat[spec][s][1] += 1
        rank = [(s in winners, r["totals"][s]) for s in range(players)]
        for s in range(players):
            for t in range(players):
                key = (r["seats"][s], r["seats"][t])
                if s < t and key in pairs:
                    _meet(pairs[key], rank[s], rank[t])
                elif s < t and key[::-1] in pairs:
                    _meet(pairs[key[::-1]], rank[t], rank[s])
    out_agents = {}
    for a, e in per_agent.items():
        row = _rate(e["points"], e["games"])
        row.update({"wins": e["wins"], "shared_wins": e["shared"],
                    "mean_score": e["total"] / e["games"] if e["games"] else None,
                    "decisions": e["decisions"],
                    "seconds_per_decision": e["seconds"] / e["decisions"] if e["decisions"] else None,
                    "by_seat": {f"P{s + 1}": _rate(x, n) for s, (x, n) in enumerate(by_seat[a][:players])}})
        out_agents[a] = row
    pairwise = []
    for (a, b), (ahead, behind, level) in pairs.items():
        n = ahead + behind + level
        row = _rate(ahead + level / 2, n)
        row.update({"agent": a, "opponent": b, "ahead": ahead, "behind": behind, "level": level})
        pairwise.append(row)
    return {"games": len(records), "agents": out_agents,
            "seats": {f"P{s + 1}": _rate(x, n) for s, (x, n) in enumerate(per_seat)},
            "pairwise": pairwise, "stalled": stalled, "shared_wins": shared}


def _meet(tally: list, mine: tuple, theirs: tuple) -> None:
    """One meeting of two seats: ahead is a win the other did not share, else the higher score total."""
    if mine > theirs:
        tally[0] += 1
    elif theirs > mine:
        tally[1] += 1
    else:
        tally[2] += 1


def report_text(s: dict) -> str:
    """The summary as tables for people."""
    def rate(row):
        return "-" if row["rate"] is None else pct(row["rate"])

    def interval(row):
        return span(row["interval"])

    lines = [f"{s['ruleset']}: {s['games']} games, {s['players']} players, {s['seatings']} seatings (every agent "
             f"in every seat equally often), seeds {s['seeds'][0]}..{s['seeds'][1]}"]
    if s["games"] != s["games_asked"]:
        lines.append(f"({s['games_asked']} games asked: played in whole cycles of {s['seatings']} seatings)")
    width = max(12, *(len(a) for a in s["agents"]))
    lines.append("")
    lines.append(f"{'agent':<{width}}  {'games':>6}  {'win rate':>8}  {'95% interval':<12} {'wins':>5} "
                 f"{'shared':>6}  {'mean score':>10}  {'s/decision':>10}")
    for a, row in s["agents"].items():
        spd = row["seconds_per_decision"]
        mean = row["mean_score"]
        lines.append(f"{a:<{width}}  {row['games']:>6}  {rate(row):>8}  {interval(row):<12} {row['wins']:>5} "
                     f"{row['shared_wins']:>6}  {'-' if mean is None else f'{mean:10.2f}':>10}  "
                     f"{'-' if spd is None else f'{spd:10.4f}':>10}")
    lines.append("")
    lines.append("win rate by seat (all agents): " + "; ".join(
        f"{seat} {rate(row)} {interval(row)}" for seat, row in s["seats"].items()))
    if len(s["agents"]) > 1:
        lines.append("win rate by agent and seat:")
        for a, row in s["agents"].items():
            lines.append(f"  {a:<{width}}  " + "  ".join(
                f"{seat} {rate(cell)}" for seat, cell in row["by_seat"].items()))
    if s["pairwise"]:
        lines.append("")
        lines.append("pairwise (finished ahead: a win the other did not share, else a higher score; level counts half):")
        for row in s["pairwise"]:
            lines.append(f"  {row['agent']} vs {row['opponent']}: {rate(row)} {interval(row)} over "
                         f"{row['games']} meetings ({row['ahead']} ahead, {row['behind']} behind, {row['level']} level)")
    lines.append("")
    where = "Ray" if s.get("backend") == "ray" else f"{s['jobs']} job{'s' if s['jobs'] != 1 else ''}"
    lines.append(f"shared wins: {s['shared_wins']}   stalled: {s['stalled']}   time: {s['seconds']:.1f} s with {where}")
    return "\n".join(lines)


# the skill ladder ---------------------------------------------------------------------------------------

LADDER = ["random", "greedy", "mcts:iterations=25", "mcts:iterations=50", "mcts:iterations=100",
          "mcts:iterations=200", "mcts:iterations=400"]


def ladder_rungs(rules) -> list[str]:
    """The default rungs for a ruleset: random, greedy (where it can score a position), then mcts at
    doubling budgets."""
    from .engine.lookahead import position_value
    return [r for r in LADDER if r != "greedy" or position_value(rules) is not None]


def ladder_games(rungs: list[str], players: int, games: int, seed: int = 0) -> int:
    """How many games a ladder plays (for a progress bar)."""
    return sum(len(schedule([upper, lower], players, games, seed)[0]) for lower, upper in zip(rungs, rungs[1:]))


def ladder(rules, players: int, rungs: list[str], games: int, seed: int = 0, params=None,
           runner: Runner | None = None, progress=None) -> dict:
    """Each rung against the one below it, in a tournament of its own (every seat equally often, the same
    seeds for every step) -> how often the upper rung finished ahead, with a 95% interval, and whether
    that is more than half beyond doubt (the interval above 50%): where skill matters in the game, and
    where more of it stops paying."""
    runner = runner or Runner()
    start = time.perf_counter()
    steps = []
    for lower, upper in zip(rungs, rungs[1:]):
        records, _, _ = run_games(rules, players, [upper, lower], games, seed, params, runner, progress)
        summary = summarise(records, [upper, lower], players)
        pair = summary["pairwise"][0]
        steps.append({"upper": upper, "lower": lower, "games": pair["games"], "rate": pair["rate"],
                      "interval": pair["interval"], "ahead": pair["ahead"], "behind": pair["behind"],
                      "level": pair["level"],
                      "better": pair["interval"] is not None and pair["interval"][0] > 0.5,
                      "seconds_per_decision": summary["agents"][upper]["seconds_per_decision"]})
    stops = next((s["upper"] for s in steps if not s["better"]), None)
    return {"ruleset": rules.name, "players": players, "rungs": rungs, "steps": steps, "seeds": seed,
            "stops_at": stops, "jobs": runner.jobs, "seconds": time.perf_counter() - start}


def ladder_text(s: dict) -> str:
    """The ladder as a table for people."""
    width = max(12, *(len(r) for r in s["rungs"]))
    lines = [f"{s['ruleset']}: skill ladder, {s['players']} players; each rung against the one below "
             "(finished ahead: a win the other did not share, else a higher score; level counts half)", "",
             f"{'rung':<{width}}  {'vs':<{width}}  {'ahead':>6}  {'95% interval':<12}  {'games':>5}  "
             f"{'s/decision':>10}  verdict"]
    for st in s["steps"]:
        spd = st["seconds_per_decision"]
        verdict = "better" if st["better"] else "no better beyond doubt (the interval reaches 50%)"
        lines.append(f"{st['upper']:<{width}}  {st['lower']:<{width}}  {pct(st['rate']):>6}  "
                     f"{span(st['interval']):<12}  {st['games']:>5}  {'-' if spd is None else f'{spd:10.4f}':>10}  "
                     f"{verdict}")
    lines.append("")
    if not s["steps"]:
        lines.append("one rung: nothing to compare")
    elif s["stops_at"] is None:
        lines.append("every rung beats the one below it: skill matters all the way up this ladder")
    elif s["stops_at"] == s["steps"][0]["upper"]:
        lines.append(f"{s['stops_at']} does not beat {s['steps'][0]['lower']} beyond doubt: skill may hardly matter "
                     "in this game (or more games are needed to see it)")
    else:
        lines.append(f"skill pays up to the rung below {s['stops_at']}; from {s['stops_at']} on, more of it is not "
                     "better beyond doubt at this number of games")
    lines.append(f"time: {s['seconds']:.1f} s with {s['jobs']} job{'s' if s['jobs'] != 1 else ''}")
    return "\n".join(lines)
