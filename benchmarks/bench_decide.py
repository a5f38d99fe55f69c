"""Benchmark: how long one bot takes to decide, over whole games of every bundled ruleset -> CPU seconds per
decision (median, 95th percentile, largest, how many over 0.25 s), and the same late in long games.

Run: python benchmarks/bench_decide.py [--agent SPEC] [--against SPEC] [--games N] [--only NAME,...]
                                       [--players N,...] [--no-evaluate] [--cap N] [--late N] [--base]

Each bundled ruleset (variants included; `--base` for the seven games alone) is played at its fewest and
its most players (or at the counts of `--players` it allows), `--games` games (seeds 0, 1, ...), the agent
in seat `seed mod players` and `--against` (default greedy) in the others. Every decision of the agent is
timed in CPU seconds of the process (time.process_time: waiting for a core on a shared machine is not
counted). A row gives the game's decisions (all players, a game's mean), the agent's decisions, the median,
95th percentile and largest CPU seconds per decision, how many took more than 0.25 s, and `late`: the
largest of the agent's decisions made after the game's `--late`th decision (default 500; '-' when no game
got that far), with how many there were. `--no-evaluate` plays each of the seven games with its `agents:
evaluate` removed (what a bot does on a ruleset that declares none; a variant would inherit its base's). A game stops after `--cap` decisions of all
players (default 3000).

    python benchmarks/bench_decide.py --games 1                       # every ruleset, fewest and most players
    python benchmarks/bench_decide.py --only pit --players 4,6,8      # long games: Pit at 4, 6 and 8 players
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import Game, load  # noqa: E402
from interpreter.agents import Request, make_agent  # noqa: E402
from interpreter.bundled import bundled  # noqa: E402

LIMIT = 0.25
AGENT_SEED = 100_003   # the agents' generators seeded apart from the games' (see bench_beliefs.py)


def rules_of(path: Path, no_evaluate: bool, scratch: Path):
    """The ruleset at `path`, or (no_evaluate) a copy of it without `agents: evaluate`."""
    if not no_evaluate:
        return load(str(path))
    data = yaml.safe_load(path.read_text())
    data.get("agents", {}).pop("evaluate", None)
    if data.get("agents", {}).get("default") == "greedy" and not data["agents"].get("evaluate"):
        data["agents"].pop("default")
    if not data.get("agents"):
        data.pop("agents", None)
    out = scratch / path.name
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return load(str(out))


def play(rules, players: int, seed: int, spec: str, against: str, cap: int, late: int):
    """One game -> (CPU seconds of each of the agent's decisions, those made after the game's `late`th
    decision, all decisions of the game)."""
    game = Game.new(rules, players, seed=seed, record=False)
    seat = seed % players
    agents = [make_agent(spec if p == seat else against, AGENT_SEED + 1000 * seed + p) for p in range(players)]
    times, later, decisions = [], [], 0
    while not game.is_over and decisions < cap:
        who = game.current_player
        start = time.process_time()
        choice = agents[who].choose(Request(game, who))
        if who == seat:
            spent = time.process_time() - start
            times.append(spent)
            if decisions >= late:
                later.append(spent)
        game.apply(choice)
        decisions += 1
    return times, later, decisions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent", default="mcts")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated ruleset names")
    parser.add_argument("--players", default="", help="comma-separated player counts (default: fewest and most)")
    parser.add_argument("--no-evaluate", action="store_true")
    parser.add_argument("--base", action="store_true", help="the bundled games without their variants")
    parser.add_argument("--cap", type=int, default=3000)
    parser.add_argument("--late", type=int, default=500)
    args = parser.parse_args()
    only = [n for n in args.only.split(",") if n]
    counts = [int(n) for n in args.players.split(",") if n]
    paths = [p for name, p in bundled().items() if (not only or name in only)
             and not ((args.base or args.no_evaluate) and p.parent.name == "variants")]
    print(f"{args.agent} against {args.against}, {args.games} games per row"
          + (", rulesets without 'agents: evaluate'" if args.no_evaluate else "")
          + f"; CPU seconds per decision of the agent; late: after the game's {args.late}th decision")
    print(f"{'ruleset':24} {'players':>7} {'game':>6} {'agent':>6} {'median':>8} {'p95':>8} {'max':>8} "
          f"{'>0.25 s':>8} {'late max':>9} {'late n':>6}")
    with tempfile.TemporaryDirectory() as scratch:
        for path in paths:
            rules = rules_of(path, args.no_evaluate, Path(scratch))
            low, high = rules.min_players, rules.max_players
            chosen = [n for n in counts if low <= n <= high] if counts else sorted({low, high})
            for players in chosen:
                times, later, total = [], [], 0
                for seed in range(args.games):
                    t, late, n = play(rules, players, seed, args.agent, args.against, args.cap, args.late)
                    times += t
                    later += late
                    total += n
                times.sort()
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
                over = sum(t > LIMIT for t in times)
                late_max = f"{max(later):9.4f}" if later else f"{'-':>9}"
                print(f"{path.stem:24} {players:>7} {total / args.games:>6.0f} {len(times) / args.games:>6.0f} "
                      f"{statistics.median(times):>8.4f} {p95:>8.4f} {times[-1]:>8.4f} {over:>8} {late_max} "
                      f"{len(later):>6}", flush=True)


if __name__ == "__main__":
    main()
