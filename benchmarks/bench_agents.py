"""Benchmark: how strong the bots are: tournaments of mcts against random and greedy on the bundled games
(and of greedy by each ruleset's evaluation against greedy by the score alone) -> the first agent's win
rate with its 95% Wilson interval, its seconds per decision, and the command that reproduces each.

Run: python benchmarks/bench_agents.py [--games N] [--jobs N] [--seed S] [--only NAME,...] [--out DIR]
Defaults: 200 games per tournament, 1 job, seed 0, every tournament below. Each tournament is what
`rulebook tournament` plays (printed with each result); `--out DIR` keeps each one's JSON summary.
Seats rotate: every agent sits in every seat equally often, one cycle of seatings per seed.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load  # noqa: E402
from interpreter.analysis.runner import Runner  # noqa: E402
from interpreter.tournament import tournament  # noqa: E402

# (name, ruleset, players, agents): for every bundled game at two players (Pit, which takes three, at
# three), the three claims: mcts beats greedy, mcts beats random, greedy beats random
GAMES = [("cubirds", 2), ("forehead-poker", 2), ("harbour-lights", 2), ("lanterns", 2), ("piepmatz", 2),
         ("souk", 2), ("pit", 3)]
PAIRS = [("mcts", "greedy"), ("mcts", "random"), ("greedy", "random")]
TOURNAMENTS = [(f"{game}-{a}-{b}", game, n, [a] + [b] * (n - 1)) for game, n in GAMES for a, b in PAIRS]


def command(ruleset: str, players: int, agents: list[str], games: int, seed: int, jobs: int) -> str:
    return (f"rulebook tournament {ruleset} --players {players} --agents {','.join(agents)} --games {games}"
            + (f" --seed {seed}" if seed else "") + (f" --jobs {jobs}" if jobs != 1 else ""))


def line(name: str, first: str, s: dict) -> str:
    """One result: the first agent's win rate (interval), its even share of wins, its seconds per decision."""
    row = s["agents"][first]
    lo, hi = row["interval"]
    fair = row["games"] / s["games"] / s["players"]   # its share of the seats: its even share of wins
    return (f"{name}: {s['games']} games, {first} wins {100 * row['rate']:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%] "
            f"(even share {100 * fair:.0f}%), {row['seconds_per_decision']:.3f} s per {first} decision, "
            f"{s['seconds']:.0f} s in all")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated names of the tournaments to play")
    parser.add_argument("--out", help="a folder for each tournament's JSON summary")
    args = parser.parse_args()
    chosen = args.only.split(",") if args.only else [t[0] for t in TOURNAMENTS]
    unknown = set(chosen) - {t[0] for t in TOURNAMENTS}
    if unknown:
        parser.error(f"no tournament {', '.join(sorted(unknown))} (tournaments: {', '.join(t[0] for t in TOURNAMENTS)})")
    for name, ruleset, players, agents in TOURNAMENTS:
        if name not in chosen:
            continue
        print(f"$ {command(ruleset, players, agents, args.games, args.seed, args.jobs)}", flush=True)
        s = tournament(load(ruleset), agents, players, args.games, args.seed, runner=Runner(args.jobs))
        print(line(name, agents[0], s), flush=True)
        if args.out:
            folder = Path(args.out)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}.json").write_text(json.dumps(s, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
