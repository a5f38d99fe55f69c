"""Benchmark: how long one bot takes to decide, over whole games of every bundled ruleset.

Run: python benchmarks/bench_decide.py [--agent SPEC] [--against SPEC] [--games N] [--only NAME,...]
                                       [--no-evaluate] [--cap N]

Each bundled ruleset is played at its fewest and its most players, `--games` games (seeds 0, 1, ...),
the agent in seat `seed mod players` and `--against` (default greedy) in the others. Every decision of
the agent is timed in CPU seconds (time.process_time); a row gives the agent's decisions a game, the
median, 95th percentile and largest CPU seconds per decision, and how many took more than 0.25 s.
`--no-evaluate` plays each ruleset with its `agents: evaluate` removed (what a bot does on a ruleset
that declares none). A game stops after `--cap` decisions of all players (default 3000).
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

LIMIT = 0.25
AGENT_SEED = 100_003   # the agents' generators seeded apart from the games' (see bench_beliefs.py)


def rules_of(path: Path, no_evaluate: bool, scratch: Path):
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


def play(rules, players: int, seed: int, spec: str, against: str, cap: int) -> tuple[list[float], int]:
    """One game -> (the CPU seconds of each of the agent's decisions, all decisions of the game)."""
    game = Game.new(rules, players, seed=seed, record=False)
    seat = seed % players
    agents = [make_agent(spec if p == seat else against, AGENT_SEED + 1000 * seed + p) for p in range(players)]
    times, decisions = [], 0
    while not game.is_over and decisions < cap:
        who = game.current_player
        start = time.process_time()
        choice = agents[who].choose(Request(game, who))
        if who == seat:
            times.append(time.process_time() - start)
        game.apply(choice)
        decisions += 1
    return times, decisions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent", default="mcts")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--only", default="")
    parser.add_argument("--no-evaluate", action="store_true")
    parser.add_argument("--cap", type=int, default=3000)
    args = parser.parse_args()
    only = [n for n in args.only.split(",") if n]
    paths = [p for p in sorted((ROOT / "rulesets").glob("*.yaml")) if not only or p.stem in only]
    print(f"{args.agent} against {args.against}, {args.games} games per row"
          + (", rulesets without 'agents: evaluate'" if args.no_evaluate else "")
          + "; CPU seconds per decision of the agent")
    print(f"{'ruleset':18} {'players':>7} {'decisions':>9} {'median':>8} {'p95':>8} {'max':>8} {'>0.25 s':>8}")
    with tempfile.TemporaryDirectory() as scratch:
        for path in paths:
            rules = rules_of(path, args.no_evaluate, Path(scratch))
            low, high = rules.min_players, rules.max_players
            for players in sorted({low, high}):
                times, total = [], 0
                for seed in range(args.games):
                    t, n = play(rules, players, seed, args.agent, args.against, args.cap)
                    times += t
                    total += n
                times.sort()
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
                over = sum(t > LIMIT for t in times)
                print(f"{path.stem:18} {players:>7} {len(times) / args.games:>9.0f} {statistics.median(times):>8.4f} "
                      f"{p95:>8.4f} {times[-1]:>8.4f} {over:>8}", flush=True)


if __name__ == "__main__":
    main()
