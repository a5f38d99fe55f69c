"""`rulebook analyze`: a ruleset, a table and bots -> one report for a designer: balance by seat (every seat
played by the same bot), the skill ladder of the agents given, game length and its spread, the course of
the games, end reasons, stalls, the actions never or always taken, and a verdict in words at the top.
analysis/page.py draws it as a self-contained HTML page."""
from __future__ import annotations

import math

from .analysis.report import num, pct, span
from .analysis.runner import Runner
from .analysis.simulation import Table, counter_names, game_failed
from .analysis.summary import Tally, summarise
from .tournament import ladder, ladder_games

FORCED_NOTE = 0.3     # a share of single-option decisions worth a word in the verdict


def analysis_games(agents: list[str], players: int, games: int, ladder_size: int) -> int:
    """How many games an analysis plays (for a progress bar)."""
    return games + (ladder_games(agents, players, ladder_size) if len(agents) > 1 else 0)


def analyze(rules, players: int, agents: list[str], games: int, seed: int = 0, params=None,
            runner: Runner | None = None, progress=None, ladder_size: int = 100) -> dict:
    """Play the analysis's games -> its report as plain data (the page and --json show it).

    The seats are measured with the first agent at every seat (so that a seat's advantage is not an
    agent's); with several agents, each is played against the one before it (the skill ladder, weakest
    first), `ladder_size` games a step."""
    runner = runner or Runner()
    params = dict(params or {})
    table = Table(rules, players, [agents[0]] * players, params, course=1)
    table.check(seed)
    tally = Tally(players, table.seats, counter_names(rules))
    taken: dict[str, int] = {}
    for _, record in runner.run([table.batch(seed, games, track_actions=True)], progress):
        if record["error"] is not None:
            raise game_failed(rules, record)
        tally.add(record)
        for name in record["actions"]:
            taken[name] = taken.get(name, 0) + 1
    meta = {"ruleset": rules.name, "title": rules.title, "players": players, "seed": seed, "params": params,
            "jobs": runner.jobs, "backend": runner.backend}
    summary = summarise(tally, meta)
    actions = {name: taken.get(name, 0) / games for name in rules.actions}
    steps = None
    if len(agents) > 1:
        steps = ladder(rules, players, list(agents), ladder_size, seed, params, runner, progress)
    out = {"ruleset": rules.name, "title": rules.title, "players": players, "agents": list(agents),
           "games": games, "seed": seed, "params": params, "summary": summary,
           "turns": list(tally.turns), "actions": actions,
           "never_taken": [a for a, share in actions.items() if share == 0],
           "always_taken": [a for a, share in actions.items() if share == 1],
           "ladder": steps}
    out["verdict"] = verdict(out)
    return out


def verdict(a: dict) -> str:
    """The report's first paragraph: what a designer deciding whether to change a rule would read first."""
    s = a["summary"]
    said = []
    first = s.get("first_seat")
    if first and first["advantage_95"]:
        low, high = first["advantage_95"]
        rate, even = first["win_rate"], first["even_share"]
        # P1's win rate with its interval as the seats' table shows it; the verdict is the advantage's
        where = (f"P1 wins {pct(rate)} ({span(s['seats'][0]['win_rate_95'])}) against an even share of "
                 f"{pct(even)}")
        if low > 0:
            weak = first["p"] is not None and first["p"] >= 0.01
            said.append(f"{where}: {'perhaps' if weak else 'likely'} an advantage for the first seat"
                        + (" (weak evidence: confirm it with more games)" if weak else "") + ".")
        elif high < 0:
            said.append(f"{where}: likely a disadvantage for the first seat.")
        else:
            said.append(f"{where}: no detectable first-seat advantage (the interval includes an even share).")
    t = s["turns"]
    if t:
        # turns are counted: the percentiles (interpolated between games) are read as whole turns, outward
        said.append(f"Games last {num(t['median'])} turns (median; 90% between {math.floor(t['p5'])} and "
                    f"{math.ceil(t['p95'])}).")
    if s["stalled"]:
        said.append(f"{pct(s['stalls']['rate'])} of games stall ({span(s['stalls']['rate_95'])}): a limit "
                    "ended them as draws.")
    course = s.get("course") or {}
    lead, settled, comeback = course.get("lead_changes"), course.get("settled"), course.get("comeback")
    if lead and settled and comeback:
        said.append(f"The lead changes {lead['mean']:.1f} times a game, the winner led for good after "
                    f"{pct(settled['mean'])} of the game, and in {pct(comeback['rate'])} of games the winner "
                    "was behind in the second half.")
    forced = course.get("forced")
    if forced and forced["mean"] >= FORCED_NOTE:
        said.append(f"{pct(forced['mean'])} of decisions offer a single option.")
    steps = a.get("ladder")
    if steps:
        for st in steps["steps"]:
            if st["better"]:
                said.append(f"{st['upper']} finishes ahead of {st['lower']} in {pct(st['rate'])} "
                            f"({span(st['interval'])}) of their meetings: skill pays there.")
            else:
                said.append(f"{st['upper']} is no better than {st['lower']} beyond doubt ({pct(st['rate'])}, "
                            f"{span(st['interval'])}).")
    elif len(a["agents"]) == 1:
        said.append("With one agent there is no skill ladder: give several, weakest first "
                    "(--agents random,greedy,mcts).")
    if a["never_taken"]:
        said.append("Never taken: " + ", ".join(a["never_taken"]) + ".")
    return " ".join(said)

