"""Benchmark (an experiment, not a feature): what a ruleset's generated module would gain compiled to C.

Run: python benchmarks/bench_compiled.py [--game cubirds] [--players 2] [--rounds 7] [--playouts 150]

Needs Cython (`pip install cython`) and a C compiler; neither is a dependency of rulebook. The ruleset is
loaded twice: as rulebook loads it (its generated Python compiled by `compile` and run by CPython), and with
the same generated source compiled by Cython and a C compiler into an extension module (the engine, the
runtime helpers and the agents stay Python). Both play the same random playouts from the opening of seed 1,
round by round in turn in one process: CPU µs per decision and the median (lowest-highest) of the per-round
ratios. With `--game cubirds`, also CuBirds at 3 players against the hand-written baseline of
`baseline_cubirds.py` (as `bench_cubirds.py` measures it), both ways. The compiled module's games are checked
to be the same games, decision by decision.

What it leaves out, and a backend would need: errors told at their place (tracebacks of the compiled module
name its .pyx file), a cache of compiled modules, a limit on what is compiled (a C compiler takes seconds
where loading takes milliseconds), and the case of no compiler.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from interpreter import Game, load  # noqa: E402
import interpreter.codegen.module as generation  # noqa: E402

FOLDER = Path(tempfile.mkdtemp(prefix="rulebook-compiled-"))


def compiled_build(source: str, namespace, filename: str, remember: bool = True) -> dict:
    """In place of expr/emit.build: the generated source compiled by Cython and cc, imported, its constants
    and helpers set as the module's globals; returns the names as build returns them."""
    name = "gen_" + hashlib.sha1(source.encode()).hexdigest()[:16]
    names = [k for k in namespace.values if k.isidentifier() and not k.startswith("__")]
    # Cython refuses a name it cannot see defined: each constant is declared, then set after the import
    head = "# cython: language_level=3\n" + "".join(f"{k} = None\n" for k in names)
    pyx = FOLDER / f"{name}.pyx"
    pyx.write_text(head + source)
    subprocess.run([sys.executable, "-m", "cython", "-3", str(pyx)], check=True, capture_output=True)
    so = FOLDER / (name + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", f"-I{sysconfig.get_paths()['include']}", str(pyx.with_suffix(".c")),
                    "-o", str(so)], check=True, capture_output=True)
    spec = importlib.util.spec_from_file_location(name, so)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = {k for k, v in vars(module).items() if callable(v) and getattr(v, "__module__", None) == name}
    for k in names:
        if k not in made:
            setattr(module, k, namespace.values[k])
    return {**namespace.values, **{k: getattr(module, k) for k in made}}


def load_compiled(game: str):
    plain = generation.build
    generation.build = compiled_build
    try:
        start = time.perf_counter()
        rules = load(game)
        return rules, time.perf_counter() - start
    finally:
        generation.build = plain


def playouts(rules, players: int, count: int) -> tuple[float, list]:
    """CPU µs per decision of `count` random playouts from the opening of seed 1, and each playout's choices and
    result (scores, winners)."""
    opening = Game.new(rules, players, seed=1, record=False)
    rng = random.Random(1)
    decisions, seen = 0, []
    cpu = time.process_time()
    for _ in range(count):
        game = opening.clone()
        while game.state.pending is not None:
            game.apply(rng.randrange(game.option_count()))
            decisions += 1
        seen.append((tuple(game.state.history), repr(game.state.result)))   # every choice, and how it ended
    return (time.process_time() - cpu) / decisions * 1e6, seen


def against_baseline(rules, games: int) -> float:
    """CuBirds at 3 players with random agents: CPU time per game, interpreter / hand-written."""
    import baseline_cubirds
    from interpreter.agents import RandomAgent, play
    cpu = time.process_time()
    for seed in range(games):
        game = Game.new(rules, 3, seed=seed, record=False)
        play(game, [RandomAgent(seed * 10 + p) for p in range(3)])
    mine = time.process_time() - cpu
    cpu = time.process_time()
    for seed in range(games):
        baseline_cubirds.play_game(3, seed)
    return mine / (time.process_time() - cpu)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cubirds")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--playouts", type=int, default=150)
    args = parser.parse_args()
    if importlib.util.find_spec("Cython") is None or shutil.which("cc") is None:
        print("bench_compiled needs Cython and a C compiler: pip install cython (and a cc on the PATH)")
        sys.exit(1)
    plain = load(args.game)
    compiled, seconds = load_compiled(args.game)
    print(f"{args.game}: generated module compiled by Cython and cc in {seconds:.1f} s (loading as rulebook does: "
          f"milliseconds)")
    rows = {"python": [], "compiled": []}
    ratios, cubirds = [], {"python": [], "compiled": []}
    for _ in range(args.rounds):
        a, seen_a = playouts(plain, args.players, args.playouts)
        b, seen_b = playouts(compiled, args.players, args.playouts)
        assert seen_a == seen_b, "the compiled module played other games"
        rows["python"].append(a)
        rows["compiled"].append(b)
        ratios.append(b / a)
        if args.game == "cubirds":
            cubirds["python"].append(against_baseline(plain, 100))
            cubirds["compiled"].append(against_baseline(compiled, 100))
    for way, times in rows.items():
        print(f"{way:>9}: {statistics.median(times):6.2f} µs a decision of random playouts ({args.players} players)")
    print(f"compiled / python: x{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}), "
          f"the same games")
    if args.game == "cubirds":
        for way, values in cubirds.items():
            print(f"CuBirds 3p random, interpreter / hand-written by CPU time ({way}): {statistics.median(values):.2f} "
                  f"({min(values):.2f}-{max(values):.2f})")


if __name__ == "__main__":
    main()
