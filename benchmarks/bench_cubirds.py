"""Benchmark: random-agent CuBirds through the interpreter vs the hand-written baseline, side by side.

Run: python benchmarks/bench_cubirds.py [games] [repeats]
Prints games/s and decisions/s for both, for each repeat, then the median ratio of time per game, by
the wall clock and by the process's CPU time (on a shared, busy machine the CPU time is the steadier).
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_cubirds  # noqa: E402

from interpreter import Game, load  # noqa: E402
from interpreter.agents import RandomAgent, play  # noqa: E402


def run_interpreter(rules, games: int, players: int = 3):
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(games):
        game = Game.new(rules, players, seed=seed, record=False)
        agents = [RandomAgent(seed * 10 + p) for p in range(players)]
        play(game, agents)
        decisions += len(game.state.history)
    return time.perf_counter() - start, decisions, time.process_time() - cpu


def run_baseline(games: int, players: int = 3):
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for seed in range(games):
        decisions += baseline_cubirds.play_game(players, seed)["decisions"]
    return time.perf_counter() - start, decisions, time.process_time() - cpu


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rules = load("cubirds")
    ratios, cpu_ratios = [], []
    print(f"CuBirds, 3 players, random agents, {games} games per run, {repeats} runs (interleaved)")
    print(f"{'run':>3}  {'interp games/s':>14}  {'interp dec/s':>12}  {'base games/s':>12}  {'base dec/s':>10}  ratio"
          "  cpu ratio")
    for r in range(repeats):
        it, idec, icpu = run_interpreter(rules, games)
        bt, bdec, bcpu = run_baseline(games)
        ratio = it / bt
        ratios.append(ratio)
        cpu_ratios.append(icpu / bcpu)
        print(f"{r + 1:>3}  {games / it:>14.1f}  {idec / it:>12.0f}  {games / bt:>12.1f}  {bdec / bt:>10.0f}  {ratio:.2f}"
              f"   {icpu / bcpu:.2f}")
    print(f"median ratio of time per game (interpreter / baseline): {statistics.median(ratios):.2f} "
          f"(spread {min(ratios):.2f}-{max(ratios):.2f}); by CPU time: {statistics.median(cpu_ratios):.2f} "
          f"(spread {min(cpu_ratios):.2f}-{max(cpu_ratios):.2f})")


if __name__ == "__main__":
    main()
