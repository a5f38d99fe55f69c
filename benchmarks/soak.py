"""Soak: every bundled ruleset at every player count, seeded games by bots up to a decision limit, every
invariant of tests/invariants.py checked at every decision -> counts of decisions, games and findings.

Run: python benchmarks/soak.py [--games G] [--decisions D] [--agents random,default] [--only a,b] [--seed S]
Games random play cannot finish (Pit's markets: ~160,000 decisions for one 8-player game) are checked as
far as the decision limit; "default" stands for the ruleset's default bots. Exits 1 when anything was
found (a violated invariant, a game error, an exception), printing the first of each.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import shipped_rulesets  # noqa: E402
from interpreter import load  # noqa: E402
from invariants import findings, soak_game  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per ruleset, player count and agent")
    parser.add_argument("--decisions", type=int, default=300, help="the decision limit of a game")
    parser.add_argument("--agents", default="random,default")
    parser.add_argument("--only", default="", help="rulesets, comma-separated (default: every bundled one)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    only = {x for x in args.only.split(",") if x}
    total, first = Counter(), {}
    start = time.perf_counter()
    for path in shipped_rulesets():
        if only and path.stem not in only:
            continue
        rules = load(str(path))
        counts = Counter()
        for n in range(rules.min_players, rules.max_players + 1):
            for spec in args.agents.split(","):
                agent = (rules.default_agent or "random") if spec == "default" else spec
                for k in range(args.games):
                    found = soak_game(rules, n, args.seed + k, [agent] * n, args.decisions)
                    counts.update(found)
                    counts["games"] += 1
                    for key in findings(found):
                        first.setdefault(key, f"{path.stem} {n}p {agent} seed {args.seed + k}")
        total.update(counts)
        print(f"{path.stem:<24} games {counts['games']:>4}  decisions {counts['decisions']:>7}  finished "
              f"{counts['finished']:>4}  at the limit {counts['stopped at the decision limit']:>4}  findings "
              f"{sum(findings(counts).values())}", flush=True)
    print(f"all: games {total['games']}, decisions {total['decisions']}, finished {total['finished']}, stopped at "
          f"the limit {total['stopped at the decision limit']}, findings {sum(findings(total).values())}; "
          f"{time.perf_counter() - start:.0f} s")
    for key, where in first.items():
        print(f"  {key} (first in {where}; {total[key]} in all)")
    sys.exit(1 if first else 0)


if __name__ == "__main__":
    main()
