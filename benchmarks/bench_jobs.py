"""Benchmark: CuBirds games per second on 1 job and on N jobs (local processes, or Ray), and the speed-up.

Run: python benchmarks/bench_jobs.py [games] [jobs] [repeats] [--ray]
Defaults: 3000 games, 2 jobs, 3 runs (interleaved: 1 job, N jobs, 1 job, ...). Each run is timed
from the first game sent to the last record read, so the N-job figure includes starting the
worker processes. Also checks that every run produced the same records.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load  # noqa: E402
from interpreter.analysis.runner import Batch, Runner, RulesetRef  # noqa: E402


def timed(runner: Runner, batches) -> tuple[float, list]:
    start = time.perf_counter()
    records = list(runner.run(batches))
    return time.perf_counter() - start, records


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    ray = "--ray" in sys.argv
    games = int(args[0]) if args else 3000
    jobs = int(args[1]) if len(args) > 1 else 2
    repeats = int(args[2]) if len(args) > 2 else 3
    rules = load("cubirds")
    batches = [Batch(RulesetRef.of(rules), 3, ("random",) * 3, 0, games)]
    many = Runner(jobs, "ray" if ray else "local")
    label = f"Ray, {jobs} CPUs" if ray else f"{jobs} jobs"
    print(f"CuBirds, 3 players, random agents, {games} games per run, {repeats} runs (interleaved)")
    print(f"{'run':>3}  {'1 job games/s':>13}  {label + ' games/s':>16}  speed-up")
    ratios, reference = [], None
    for r in range(repeats):
        one_time, one = timed(Runner(1), batches)
        many_time, parallel = timed(many, batches)
        reference = reference or one
        assert one == parallel == reference, "the records differ between runs"
        ratios.append(one_time / many_time)
        print(f"{r + 1:>3}  {games / one_time:>13.1f}  {games / many_time:>16.1f}  {one_time / many_time:.2f}x")
    print(f"median speed-up with {label}: {statistics.median(ratios):.2f}x (records identical in every run)")


if __name__ == "__main__":
    main()
