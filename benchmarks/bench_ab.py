"""Benchmark: this checkout against another one in ONE process, run by run in turn -> paired CPU-time ratios.

Run: python benchmarks/bench_ab.py OTHER_CHECKOUT [--case games|recorded|playouts|lookahead|greedy|mcts] [--game cubirds]
         [--players 3] [--size 40] [--rounds 15]

On a machine shared with other work, separate processes see different loads; here both interpreters
are imported side by side (under the names `rb_other` and `rb_this`, from symbolic links in a temporary
folder) and measured alternately, round after round, so that each round's ratio compares runs made
under the same load. Cases:

- games: `size` whole games with random agents (time per game);
- recorded: the same games recorded as `play`, `serve` and transcripts record them, their log and
  events kept, nobody reading them (time per decision);
- playouts: random options from the opening of seed 1, `size` x 100 decisions (time per decision);
- lookahead: the greedy bot's one-step lookahead (engine/lookahead.option_values) at every 10th
  decision of the first `size` x 10 decisions of a greedy game of seed 0 (time per lookahead);
- greedy: the first `size` x 10 decisions of that greedy game, played from its start, the bots'
  lookahead and the game's own steps together (time per decision);
- mcts: the first `size` decisions of a game of seed 0 between default mcts bots (time per decision).

Both checkouts read the rulesets and the schema of this checkout. Prints, per checkout, the median and
lowest time and the median (lowest-highest) of the per-round ratios to the other checkout.
"""
from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def link_packages(other: Path) -> str:
    """A folder where both interpreters can be imported: rb_other, rb_this, and this checkout's data."""
    folder = tempfile.mkdtemp(prefix="rulebook-ab-")
    os.symlink(other / "interpreter", os.path.join(folder, "rb_other"))
    os.symlink(ROOT / "interpreter", os.path.join(folder, "rb_this"))
    for data in ("rulesets", "schema"):
        os.symlink(ROOT / data, os.path.join(folder, data))
    return folder


def read_these_rulesets(pkg: str):
    """Bundled names (`load("pit")`, a variant's `extends: pit`) resolve to this checkout's files in either
    interpreter (each would otherwise find the rulesets beside its own package)."""
    try:
        importlib.import_module(pkg + ".bundled").rulesets_dir = lambda: ROOT / "rulesets"
    except ImportError:
        pass


def games_case(pkg, args):
    m, agents = importlib.import_module(pkg), importlib.import_module(pkg + ".agents")
    rules = m.load(args.game)

    def run():
        for seed in range(args.size):
            game = m.Game.new(rules, args.players, seed=seed, record=False)
            agents.play(game, [agents.RandomAgent(seed * 10 + p) for p in range(args.players)])
        return args.size
    return run, "ms per game"


def recorded_case(pkg, args):
    m, agents = importlib.import_module(pkg), importlib.import_module(pkg + ".agents")
    rules = m.load(args.game)

    def run():
        done = 0
        for seed in range(args.size):
            game = m.Game.new(rules, args.players, seed=seed, record=True)
            agents.play(game, [agents.RandomAgent(seed * 10 + p) for p in range(args.players)])
            done += len(game.state.history)
        return done
    return run, "ms per decision"


def playouts_case(pkg, args):
    m = importlib.import_module(pkg)
    opening = m.Game.new(m.load(args.game), args.players, seed=1, record=False)
    limit = args.size * 100

    def run():
        rng, done = random.Random(1), 0
        while done < limit:
            game = opening.clone()
            while game.state.pending is not None and done < limit:
                game.apply(rng.randrange(game.option_count()))
                done += 1
        return done
    return run, "ms per decision"


def lookahead_case(pkg, args, history):
    m, look = importlib.import_module(pkg), importlib.import_module(pkg + ".engine.lookahead")
    game = m.Game.new(m.load(args.game), args.players, seed=0, record=False)
    positions = []
    for i, choice in enumerate(history):
        if i % 10 == 0 and game.option_count() > 1:
            positions.append(game.clone())
        game.apply(choice)

    def run():
        for k, g in enumerate(positions):
            look.option_values(g, g.current_player, random.Random(k))
        return len(positions)
    return run, "ms per lookahead"


def bots_case(pkg, args, bot: str, decisions: int):
    """The first `decisions` decisions of a game of seed 0 between bots of one kind (time per decision)."""
    m, agents = importlib.import_module(pkg), importlib.import_module(pkg + ".agents")
    rules = m.load(args.game)

    def run():
        game = m.Game.new(rules, args.players, seed=0, record=False)
        bots = [getattr(agents, bot)(p) for p in range(args.players)]
        done = 0
        while not game.is_over and done < decisions:
            p = game.current_player
            game.apply(bots[p].choose(agents.Request(game, p)))
            done += 1
        return done
    return run, "ms per decision"


def greedy_history(pkg, args) -> list:
    """The choices of the first size x 10 decisions of a greedy game (seed 0), by one interpreter."""
    m, agents = importlib.import_module(pkg), importlib.import_module(pkg + ".agents")
    game = m.Game.new(m.load(args.game), args.players, seed=0, record=False)
    bots = [agents.GreedyAgent(p) for p in range(args.players)]
    for _ in range(args.size * 10):
        if game.is_over:
            break
        p = game.current_player
        game.apply(bots[p].choose(agents.Request(game, p)))
    return list(game.state.history)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other checkout (a folder holding interpreter/)")
    parser.add_argument("--case", choices=("games", "recorded", "playouts", "lookahead", "greedy", "mcts"),
                        default="games")
    parser.add_argument("--game", default="cubirds")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--size", type=int, default=40, help="games, hundreds of decisions, or tens of "
                        "decisions looked at or played, per round")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    sys.path.insert(0, link_packages(Path(args.other).resolve()))
    pkgs = ["rb_other", "rb_this"]
    history = greedy_history("rb_this", args) if args.case == "lookahead" else None
    runs = {}
    for pkg in pkgs:
        read_these_rulesets(pkg)
        if args.case == "games":
            runs[pkg], unit = games_case(pkg, args)
        elif args.case == "recorded":
            runs[pkg], unit = recorded_case(pkg, args)
        elif args.case == "playouts":
            runs[pkg], unit = playouts_case(pkg, args)
        elif args.case == "greedy":
            runs[pkg], unit = bots_case(pkg, args, "GreedyAgent", args.size * 10)
        elif args.case == "mcts":
            runs[pkg], unit = bots_case(pkg, args, "MctsAgent", args.size)
        else:
            runs[pkg], unit = lookahead_case(pkg, args, history)
        runs[pkg]()   # warm up (and generate the code)
    times = {pkg: [] for pkg in pkgs}
    for _ in range(args.rounds):
        for pkg in pkgs:
            start = time.process_time()
            n = runs[pkg]()
            times[pkg].append((time.process_time() - start) / n * 1000)
    print(f"{args.case}: {args.game}, {args.players} players, {args.rounds} rounds in turn; CPU time; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for pkg, name in zip(pkgs, (f"other ({args.other})", f"this ({ROOT})")):
        ratios = [a / b for a, b in zip(times[pkg], times["rb_other"])]
        print(f"  {name}: {unit} median {statistics.median(times[pkg]):.4f}, lowest {min(times[pkg]):.4f}; "
              f"ratio to other {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
