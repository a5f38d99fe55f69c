"""Benchmark: one position value (`agents: evaluate`, the score totals) interpreted and generated -> µs per call.

Run: python benchmarks/bench_evaluate.py [--game pit --players 8] [--rounds 21] [--repeat 10]

Positions are taken from a seeded random game (every 5th decision of the first 400). Per round, every
position is scored for every player (`repeat` times) each way, in turn:

- interpreted: the expression called as the bots called it before code generation wrote it
  (`evaluate(g, {"me": p}, None)`, through a lambda as engine/lookahead.position_value made it);
- generated: `position_value(rules)` now, the generated `V_evaluate(g, me)`;
- score totals: `evaluator(rules, "score")` per position (interpreted parts, then `V_parts`), divided by
  the player count.

Prints the median and lowest µs per call of each, and the median (lowest-highest) of the per-round
ratios generated / interpreted. The work budget is topped up before each round.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load  # noqa: E402
from interpreter.ruleset import interpreted_values  # noqa: E402
from interpreter.engine.lookahead import evaluator, position_value  # noqa: E402


def positions(rules, players: int):
    game = Game.new(rules, players, seed=0, record=False)
    rng, out = random.Random(0), []
    for i in range(400):
        if game.state.pending is None:
            break
        if i % 5 == 0:
            out.append(game.clone().state)
        game.apply(rng.randrange(game.option_count()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="pit")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    rules = load(args.game)
    states = positions(rules, args.players)   # the first game generates the ruleset's code
    calls = sum(len(g.players) for g in states)
    expr = rules.evaluate
    before = lambda g, p: expr(g, {"me": p}, None)   # noqa: E731 - as position_value made it before
    after = position_value(rules)
    assert after is rules.evaluation, "no generated evaluate"
    parts = interpreted_values([e for _, e in rules.scoring.parts])

    def totals_before(g):
        return [sum(v for v in parts(g, p) if type(v) is int or type(v) is float) for p in g.players]
    totals_after = evaluator(rules, "score")

    def per_player(value):
        def run():
            for g in states:
                for p in g.players:
                    value(g, p)
        return run

    def per_state(value):
        def run():
            for g in states:
                value(g)
        return run

    runs = {"interpreted": per_player(before), "generated": per_player(after),
            "score totals, interpreted": per_state(totals_before), "score totals, generated": per_state(totals_after)}
    for g in states:
        assert [before(g, p) for p in g.players] == [after(g, p) for p in g.players]
        assert totals_before(g) == totals_after(g)
    times = {k: [] for k in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            for g in states:
                g.work = 10 ** 15
            start = time.process_time()
            for _ in range(args.repeat):
                run()
            times[name].append((time.process_time() - start) / args.repeat / calls * 1e6)
    print(f"{args.game}, {args.players} players: {len(states)} positions, {calls} calls a round, "
          f"{args.rounds} rounds of {args.repeat}; CPU time")
    for name, ts in times.items():
        print(f"  {name:28} median {statistics.median(ts):6.2f} µs, lowest {min(ts):6.2f} µs per call")
    for a, b in (("generated", "interpreted"), ("score totals, generated", "score totals, interpreted")):
        ratios = [x / y for x, y in zip(times[a], times[b])]
        print(f"  {a} / {b.split(', ')[-1]}: median {statistics.median(ratios):.3f} "
              f"({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
