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
from itertools import combinations

from .agents import Request, checked, make_agent
from .engine.game import Game

Z95 = 1.959963984540054


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


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a proportion (successes may be fractional: a shared win counts
    1/k); None for no trials."""
    if n <= 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """An agent whose decisions are counted and timed (for the seconds per decision it needs)."""

    def __init__(self, agent):
        self.agent, self.decisions, self.seconds = agent, 0, 0.0
        self.spec = getattr(agent, "spec", None)

    def choose(self, request):
        start = time.perf_counter()
        choice = self.agent.choose(request)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return choice


def play_game(rules, players: int, seats: tuple, seed: int, params=None) -> dict:
    """One game of the tournament -> its record: seats, winners, score totals, and each seat's decisions
    and seconds spent deciding."""
    game = Game.new(rules, players, seed=seed, params=params, record=False)
    agents = [Timed(make_agent(spec, seed=seed * 1000 + seat)) for seat, spec in enumerate(seats)]
    while not game.is_over:
        p = game.current_player
        game.apply(checked(agents[p].choose(Request(game, p)), game, agents[p]))
    result = game.result
    return {"seed": seed, "seats": list(seats), "winners": list(result["winners"]), "stalled": result["stalled"],
            "totals": [row["total"] for row in result["scores"]], "turns": result["turns"],
            "decisions": [a.decisions for a in agents], "seconds": [a.seconds for a in agents]}


# running games ------------------------------------------------------------------------------------------

_RULES = {}   # the ruleset of the tournament under way, for worker processes (forked: inherited)


def _play_chunk(task):
    key, players, params, games = task
    rules = _RULES[key]
    return [play_game(rules, players, seats, seed, params) for seats, seed in games]


def run_games(rules, players: int, games: list, params=None, jobs: int = 1, progress=None) -> list[dict]:
    """Play (seats, seed) games in order -> their records, on `jobs` processes (results do not depend on it)."""
    progress = progress or (lambda n: None)
    if jobs <= 1 or len(games) < 2:
        out = []
        for seats, seed in games:
            out.append(play_game(rules, players, seats, seed, params))
            progress(1)
        return out
    import concurrent.futures as cf
    import multiprocessing
    key = rules.fingerprint
    _RULES[key] = rules
    size = max(1, math.ceil(len(games) / (jobs * 8)))
    tasks = [(key, players, params, games[i:i + size]) for i in range(0, len(games), size)]
    context = multiprocessing.get_context("fork")   # workers inherit the compiled ruleset
    results = [None] * len(tasks)
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(_play_chunk, task): i for i, task in enumerate(tasks)}
        for future in cf.as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            progress(len(results[i]))
    return [record for chunk in results for record in chunk]


def schedule(agents: list[str], players: int, games: int, seed: int = 0) -> tuple[list, int]:
    """The games to play: (seats, seed) for at least `games` games, in whole cycles; and the cycle length."""
    table = seatings(agents, players)
    cycles = max(1, math.ceil(games / len(table)))
    return [(seats, seed + c) for c in range(cycles) for seats in table], len(table)


def tournament(rules, agents: list[str], players: int, games: int, seed: int = 0, params=None, jobs: int = 1,
               progress=None) -> dict:
    """Play a tournament and summarise it (see `summarise`)."""
    plan, cycle = schedule(agents, players, games, seed)
    start = time.perf_counter()
    records = run_games(rules, players, plan, params, jobs, progress)
    summary = summarise(records, list(dict.fromkeys(agents)), players)
    summary.update({"ruleset": rules.name, "players": players, "games_asked": games, "seatings": cycle,
                    "seeds": [seed, plan[-1][1]], "jobs": jobs, "seconds": time.perf_counter() - start})
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
    def pct(x):
        return "-" if x is None else f"{100 * x:5.1f}%"

    def span(row):
        i = row["interval"]
        return "" if i is None else f"[{100 * i[0]:4.1f}%, {100 * i[1]:5.1f}%]"
    lines = [f"{s['ruleset']}: {s['games']} games, {s['players']} players, {s['seatings']} seatings (every agent "
             f"in every seat equally often), seeds {s['seeds'][0]}..{s['seeds'][1]}"]
    if s["games"] != s["games_asked"]:
        lines.append(f"({s['games_asked']} games asked: played in whole cycles of {s['seatings']} seatings)")
    width = max(12, *(len(a) for a in s["agents"]))
    lines.append("")
    lines.append(f"{'agent':<{width}}  {'games':>6}  {'win rate':>8}  {'95% interval':<16} {'wins':>5} "
                 f"{'shared':>6}  {'mean score':>10}  {'s/decision':>10}")
    for a, row in s["agents"].items():
        spd = row["seconds_per_decision"]
        mean = row["mean_score"]
        lines.append(f"{a:<{width}}  {row['games']:>6}  {pct(row['rate']):>8}  {span(row):<16} {row['wins']:>5} "
                     f"{row['shared_wins']:>6}  {'-' if mean is None else f'{mean:10.2f}':>10}  "
                     f"{'-' if spd is None else f'{spd:10.4f}':>10}")
    lines.append("")
    lines.append("win rate by seat (all agents): " + "; ".join(
        f"{seat} {pct(row['rate']).strip()} {span(row)}" for seat, row in s["seats"].items()))
    if len(s["agents"]) > 1:
        lines.append("win rate by agent and seat:")
        for a, row in s["agents"].items():
            lines.append(f"  {a:<{width}}  " + "  ".join(
                f"{seat} {pct(cell['rate']).strip()}" for seat, cell in row["by_seat"].items()))
    if s["pairwise"]:
        lines.append("")
        lines.append("pairwise (finished ahead: a win the other did not share, else a higher score; level counts half):")
        for row in s["pairwise"]:
            lines.append(f"  {row['agent']} vs {row['opponent']}: {pct(row['rate']).strip()} {span(row)} over "
                         f"{row['games']} meetings ({row['ahead']} ahead, {row['behind']} behind, {row['level']} level)")
    lines.append("")
    lines.append(f"shared wins: {s['shared_wins']}   stalled: {s['stalled']}   time: {s['seconds']:.1f} s "
                 f"with {s['jobs']} job{'s' if s['jobs'] != 1 else ''}")
    return "\n".join(lines)
