"""Benchmark: what search costs - clone() and random playouts from the opening, and Pit's greedy lookahead.

Run: python benchmarks/bench_search.py [--repeats R] [--playouts N] [--pit-games G] [--only CASE,CASE]
     python benchmarks/bench_search.py --compare OTHER_CHECKOUT   (the same figures for both, interleaved)

Cases: CuBirds 2p, Piepmatz 3p and Pit 4p random playouts (clone the opening, then uniform random
options to the end: Pit's random traders never corner, so its playouts run to the turn limit), and
Pit 8p with its default greedy bots (seconds per game, and the lookahead's cost per decision), and the
hand-written CuBirds of baseline_cubirds.py at 2 players as a reference. Playouts are counted per
second of wall time and per second of the process's CPU time (on a busy machine the steadier figure).
Each repeat measures every case once, one after the other (interleaved), so that a busy machine
slows them alike; the summary gives the median and the spread (lowest-highest) over the repeats.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()

PLAYOUT_CASES = [("cubirds", 2, 200), ("piepmatz", 3, 200), ("pit", 4, 1)]


def measure_playouts(rules, players: int, playouts: int, seed: int = 1) -> dict:
    """Clone cost and random playouts from the opening of one seeded game."""
    from interpreter import Game
    opening = Game.new(rules, players, seed=seed, record=False)
    clones = 2000
    start = time.perf_counter()
    for _ in range(clones):
        opening.clone()
    clone_us = (time.perf_counter() - start) / clones * 1e6
    rng = random.Random(seed)
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for _ in range(playouts):
        game = opening.clone()
        while game.state.pending is not None:
            game.apply(rng.randrange(game.option_count()))
            decisions += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"clone_us": clone_us, "playouts_per_s": playouts / elapsed, "playouts_per_cpu_s": playouts / cpu,
            "decisions_per_playout": decisions / playouts, "decisions_per_s": decisions / elapsed}


def measure_hand_written(games: int, players: int = 2) -> dict:
    """The hand-written CuBirds of benchmarks/baseline_cubirds.py, whole games (with the deal): a reference
    for what plain Python costs."""
    sys.path.insert(0, str(HERE.parent))
    import baseline_cubirds
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(games):
        decisions += baseline_cubirds.play_game(players, seed)["decisions"]
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"playouts_per_s": games / elapsed, "playouts_per_cpu_s": games / cpu,
            "decisions_per_playout": decisions / games, "decisions_per_s": decisions / elapsed}


def measure_pit_greedy(rules, games: int, players: int = 8) -> dict:
    """Pit with greedy bots, as `rulebook simulate pit --players 8` plays it; time in lookahead per decision."""
    from interpreter.agents import GreedyAgent, Request, play
    from interpreter.engine.game import Game

    spent = [0.0, 0]

    class TimedRequest(Request):
        __slots__ = ()

        def option_values(self, *args, **kwargs):
            start = time.perf_counter()
            try:
                return Request.option_values(self, *args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start
                spent[1] += 1

    class TimedGreedy(GreedyAgent):
        def choose(self, request):
            return GreedyAgent.choose(self, TimedRequest(request._game, request.player))

    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game.new(rules, players, seed=seed, record=False)
        play(game, [TimedGreedy(seed * 1000 + p) for p in range(players)])
        decisions += len(game.state.history)
    elapsed = time.perf_counter() - start
    return {"seconds_per_game": elapsed / games, "decisions_per_game": decisions / games,
            "lookahead_ms_per_decision": spent[0] / max(spent[1], 1) * 1e3, "lookaheads": spent[1] / games}


def one_repeat(args) -> dict:
    """Every case once, in order; figures keyed by case name."""
    from interpreter import load
    out = {}
    wanted = [w for w in args.only.split(",") if w]
    for name, players, playouts in PLAYOUT_CASES:
        key = f"{name} {players}p"
        if wanted and not any(w in key for w in wanted):
            continue
        n = args.playouts if args.playouts and name != "pit" else playouts
        out[key] = measure_playouts(load(name), players, n)
    if not wanted or any(w in "cubirds 2p hand-written" for w in wanted):
        out["cubirds 2p hand-written"] = measure_hand_written(args.playouts or 200)
    if not wanted or any(w in "pit 8p greedy" for w in wanted):
        out["pit 8p greedy"] = measure_pit_greedy(load("pit"), args.pit_games)
    return out


FIGURES = [("clone_us", "clone µs", "{:.1f}"), ("playouts_per_s", "playouts/s", "{:.1f}"),
           ("playouts_per_cpu_s", "playouts/CPU s", "{:.1f}"),
           ("decisions_per_s", "decisions/s", "{:.0f}"), ("decisions_per_playout", "decisions/playout", "{:.0f}"),
           ("seconds_per_game", "s/game", "{:.2f}"), ("decisions_per_game", "decisions/game", "{:.0f}"),
           ("lookahead_ms_per_decision", "lookahead ms/decision", "{:.2f}")]


def summary(runs: list) -> dict:
    """case -> figure -> (median, lowest, highest)."""
    out = {}
    for case in runs[0]:
        out[case] = {}
        for fig in runs[0][case]:
            values = [r[case][fig] for r in runs]
            out[case][fig] = (statistics.median(values), min(values), max(values))
    return out


def print_summary(title: str, table: dict) -> None:
    print(title)
    for case, figs in table.items():
        parts = []
        for key, label, fmt in FIGURES:
            if key in figs:
                med, lo, hi = figs[key]
                parts.append(f"{label} {fmt.format(med)} ({fmt.format(lo)}-{fmt.format(hi)})")
        print(f"  {case:<24} " + "; ".join(parts))


def child(root: str, args) -> dict:
    """One repeat in a fresh process importing the interpreter from `root`."""
    cmd = [sys.executable, str(HERE), "--child", "--root", root, "--playouts", str(args.playouts or 0),
           "--pit-games", str(args.pit_games)] + (["--only", args.only] if args.only else [])
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=0, help="playouts per repeat (CuBirds, Piepmatz)")
    parser.add_argument("--pit-games", type=int, default=2, help="Pit 8p greedy games per repeat")
    parser.add_argument("--only", default="", help="only the cases whose name contains one of these texts "
                        "(comma-separated: 'cubirds,piepmatz')")
    parser.add_argument("--root", default=str(HERE.parent.parent), help="the checkout to measure")
    parser.add_argument("--compare", default="", help="another checkout, measured in turn with this one")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    if args.child:
        print(json.dumps(one_repeat(args)))
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.repeats} repeats, median (lowest-highest)")
    if not args.compare:
        runs = []
        for r in range(args.repeats):
            runs.append(one_repeat(args))
            print(f"repeat {r + 1} done", file=sys.stderr)
        print_summary(f"checkout {args.root}", summary(runs))
        return
    mine, other = [], []
    for r in range(args.repeats):
        mine.append(child(args.root, args))
        other.append(child(args.compare, args))
        print(f"repeat {r + 1} done", file=sys.stderr)
    a, b = summary(mine), summary(other)
    print_summary(f"this checkout ({args.root})", a)
    print_summary(f"other checkout ({args.compare})", b)
    print("ratios, this / other (medians of the per-repeat ratios):")
    for case in a:
        parts = []
        for key, label, _ in FIGURES:
            if key in a[case]:
                ratios = [m[case][key] / o[case][key] for m, o in zip(mine, other) if o[case][key]]
                parts.append(f"{label} x{statistics.median(ratios):.2f}")
        print(f"  {case:<24} " + "; ".join(parts))


if __name__ == "__main__":
    main()
