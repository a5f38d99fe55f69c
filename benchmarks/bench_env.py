"""Environment steps per second of every bundled ruleset: the PettingZoo environment driven by random legal
actions (the acting agent's observation, vector and mask, built at every step by `env.last()` as a training
loop calls it; its info with the labels), at each ruleset's smallest and largest player count, on one core.

    python benchmarks/bench_env.py [--seconds S] [--rounds R] [--only NAME] [--no-labels] [--markdown]

Steps are counted per second of CPU time of this process (time.process_time: the machine is shared, and
waiting for a core is not the environment's time). Every configuration is measured once per round, rounds
one after the other, so that a slow minute of the machine falls on all of them; each figure is the median
over R rounds of S seconds each (games one after the other, seeded 0, 1, 2, ...), with the lowest and
highest. --no-labels: without the legal options' labels in `info`.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load  # noqa: E402
from interpreter.envs import rulebook_env  # noqa: E402

TARGET = ("cubirds", 2, 5000)   # issue 32: CuBirds with 2 players at 5,000 steps per second or more


def rulesets() -> list[Path]:
    return sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets" / "variants").glob("*.yaml"))


def run(env, seconds: float, rng) -> float:
    """Random legal steps per CPU second over about `seconds` of CPU time."""
    steps, seed = 0, 0
    env.reset(seed=seed)
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                steps += 1
            env.step(action)
            if steps % 64 == 0 and clock() > deadline:
                return steps / (clock() - start)
        seed += 1
        env.reset(seed=seed)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default=None, help="one ruleset (a bundled name or a path)")
    parser.add_argument("--no-labels", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    paths = [Path(args.only)] if args.only else rulesets()
    configs = []
    for path in paths:
        rules = load(str(path) if path.suffix else path.name)
        for players in sorted({rules.min_players, rules.max_players}):
            configs.append((path.stem, players, rulebook_env(rules, players, labels=not args.no_labels)))
    rates = {i: [] for i in range(len(configs))}
    for r in range(args.rounds):
        for i, (_, _, env) in enumerate(configs):
            rates[i].append(run(env, args.seconds, np.random.default_rng(r)))
    head = f"(median of {args.rounds} rounds of {args.seconds:g} s of CPU; labels {'off' if args.no_labels else 'on'})"
    if args.markdown:
        print(f"| ruleset | players | N actions | observation | steps/s (lowest-highest) |\n|---|---|---|---|---|")
    else:
        print(f"{'ruleset':24s} {'players':>7s} {'N':>6s} {'obs':>5s} {'steps/s':>9s} {'lowest-highest':>16s}  {head}")
    for i, (name, players, env) in enumerate(configs):
        found = rates[i]
        rate = statistics.median(found)
        mark = ""
        if (name, players) == TARGET[:2]:
            mark = f"  (target {TARGET[2]:,}: {'met' if rate >= TARGET[2] else 'NOT met'})"
        spread = f"{min(found):,.0f}-{max(found):,.0f}"
        if args.markdown:
            print(f"| {name} | {players} | {env.session.size:,} | {env.session.observer.size:,} | "
                  f"{rate:,.0f} ({spread}){mark} |")
        else:
            print(f"{name:24s} {players:7d} {env.session.size:6d} {env.session.observer.size:5d} {rate:9,.0f} "
                  f"{spread:>16s}{mark}", flush=True)


if __name__ == "__main__":
    main()
