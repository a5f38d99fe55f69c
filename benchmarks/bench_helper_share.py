"""Benchmark: how much of random play's time is spent inside some runtime helpers -> the most a change that made
them free could save (the ceiling of a lever, measured before it is built).

Run: python benchmarks/bench_helper_share.py [--game G] [--players N] [--games K] [--rounds R]
         [--helpers R_groups_of,R_counted,...]

The generated code calls helpers by their names in runtime/table.py. Each named helper is wrapped: the seeded
random games (seeds 0..K-1, from their openings, at most 2,000 decisions each) are played once with every
call's result recorded, then round by round in turn, with the helpers working as usual ("as is") and with
each call answered from the recording at once ("free": the same games, decision for decision, since every
answer is the one the helper gave). Both runs pay the wrapper's call, so the difference is what the helpers
cost where generated code calls them (their call and their work): the share of the time a lever that made
them cost nothing could save, and no more (such a lever pays for what it keeps: a zone kept as counts pays
on every move).

The default helpers are those that read a zone's cards by an attribute (grouping and counting by value), the
work that keeping unordered zones as counts would take away. Prints the CPU µs per decision both ways and
the median (lowest-highest) of the per-round ratios free / as is.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BY_ATTRIBUTE = ["R_groups_of", "R_zone_groups", "R_counted", "R_zone_counted", "R_count_values", "R_distinct_size", "R_counts_compared",
                "R_tally", "R_counts_of", "R_distinct_of", "R_count_distinct_of"]


class Tape:
    """The wrapped helpers' results: recorded, then replayed in the same order (or passed through)."""

    def __init__(self):
        self.mode, self.results, self.at = "as is", [], 0

    def wrap(self, fn):
        def helper(*args):
            if self.mode == "free":
                i = self.at
                self.at = i + 1
                return self.results[i]
            value = fn(*args)
            if self.mode == "record":
                self.results.append(value)
            return value
        return helper


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cubirds")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--helpers", default=",".join(BY_ATTRIBUTE),
                        help="names of runtime/table.py, comma-separated")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from interpreter.runtime import table
    names = [n for n in args.helpers.split(",") if n]
    unknown = [n for n in names if n not in table.GLOBALS]
    if unknown:
        sys.exit(f"not helpers of runtime/table.py: {', '.join(unknown)}")
    tape = Tape()
    for name in names:   # before the ruleset is loaded: its generated module reads the table then
        table.GLOBALS[name] = tape.wrap(table.GLOBALS[name])
    from interpreter import Game, load
    rules = load(args.game)
    openings = [Game.new(rules, args.players, seed=s, record=False) for s in range(args.games)]

    def play() -> tuple[float, int]:
        start, decisions = time.process_time(), 0
        for seed, opening in enumerate(openings):
            game, rng, k = opening.clone(), random.Random(seed), 0
            while game.state.pending is not None and k < 2000:
                game.apply(rng.randrange(game.option_count()))
                k += 1
            decisions += k
        return (time.process_time() - start) / max(1, decisions) * 1e6, decisions

    tape.mode = "record"
    _, decisions = play()
    calls = len(tape.results)
    times = {"as is": [], "free": []}
    for r in range(args.rounds):
        for mode in (("as is", "free") if r % 2 == 0 else ("free", "as is")):
            tape.mode, tape.at = mode, 0
            us, n = play()
            if n != decisions:
                sys.exit("the games differ from the recorded ones: a helper's answer depends on more than its call")
            times[mode].append(us)
    ratios = [f / a for f, a in zip(times["free"], times["as is"])]
    print(f"{args.game} at {args.players} players, {args.games} random games ({decisions} decisions, {calls} calls of "
          f"{', '.join(names)}), {args.rounds} rounds in turn; CPU time")
    print(f"  as is: {statistics.median(times['as is']):.2f} µs per decision; helpers free: "
          f"{statistics.median(times['free']):.2f} µs; ratio free / as is x{statistics.median(ratios):.3f} "
          f"({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
