"""Benchmark: every bundled ruleset and the patterns of benchmarks/patterns/, random play -> one table row each.

Run: python benchmarks/bench_rulesets.py [--games N] [--rounds R] [--cap C] [--only a,b] [--compare OTHER_CHECKOUT]

Each ruleset (rulesets/*.yaml, rulesets/variants/*.yaml, benchmarks/patterns/*.yaml) is played at 3
players when it allows 3, else at its smallest count: N games from the openings of seeds 0..N-1, each
taking uniform random option indexes from random.Random(seed), stopped at C decisions. Games random
play cannot finish (Pit's markets) stop at the cap: "finished" says how many of the N ended by
themselves (", k stalled": of those, how many at the turn limit or a loop's max). A round plays the N
games once and clones the opening of seed 0 many times (CPU time, time.process_time); the table gives
the decisions per game (median), and the medians over the rounds of CPU µs per decision (turns without
a decision cost time too) and µs per clone. The last line is the median µs per decision over the
bundled rulesets.

With --compare, this checkout and the other are imported side by side in one process (as bench_ab.py
does), both read this checkout's ruleset files (a variant's bundled base too), and each ruleset's
workload is run for both in turn, round by round; the table adds the median (lowest-highest) of the
per-round ratios this / other, "—" where the other checkout cannot load or play the ruleset, and the last
line the median of the per-ruleset ratios over every ruleset both ran and over the bundled ones alone.
Prints a Markdown table, to paste into benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import time
from pathlib import Path

from bench_ab import link_packages, read_these_rulesets

ROOT = Path(__file__).resolve().parent.parent
CLONES = 500   # clones of the opening timed per round


def rulesets(only: list[str]) -> list[tuple[str, Path, bool]]:
    """(name, file, bundled?) of every ruleset whose name contains one of `only` (all when empty)."""
    found = [(p.stem, p, True) for folder in ("rulesets", "rulesets/variants")
             for p in sorted((ROOT / folder).glob("*.yaml"))]
    found += [("patterns/" + p.stem, p, False) for p in sorted((ROOT / "benchmarks/patterns").glob("*.yaml"))]
    return [r for r in found if not only or any(o in r[0] for o in only)]


class Workload:
    """N seeded random games of one ruleset in one interpreter, and clones of its opening."""

    def __init__(self, pkg: str, path: Path, players: int, games: int, cap: int):
        m = importlib.import_module(pkg)
        rules = m.load(str(path))
        self.openings = [m.Game.new(rules, players, seed=s, record=False) for s in range(games)]
        self.cap = cap

    def play(self) -> tuple[float, list[int], int, int]:
        """CPU µs per decision, decisions of each game, games that ended before the cap, and of them stalled."""
        games = [g.clone() for g in self.openings]
        counts, finished, stalled = [], 0, 0
        start = time.process_time()
        for seed, game in enumerate(games):
            rng, n = random.Random(seed), 0
            while game.state.pending is not None and n < self.cap:
                game.apply(rng.randrange(game.option_count()))
                n += 1
            counts.append(n)
            finished += game.state.pending is None
            stalled += bool((game.result or {}).get("stalled"))
        return (time.process_time() - start) / max(1, sum(counts)) * 1e6, counts, finished, stalled

    def clone(self) -> float:
        """CPU µs per clone of the opening of seed 0."""
        opening = self.openings[0]
        start = time.process_time()
        for _ in range(CLONES):
            opening.clone()
        return (time.process_time() - start) / CLONES * 1e6


def measure(pkgs: list[str], path: Path, players: int, args) -> dict:
    """Per interpreter: its per-round µs per decision and per clone, and its games (None: cannot run it)."""
    works, out = {}, {}
    for pkg in pkgs:
        try:
            works[pkg] = Workload(pkg, path, players, args.games, args.cap)
            _, counts, finished, stalled = works[pkg].play()   # warm up (and generate the code)
            out[pkg] = {"play": [], "clone": [], "counts": counts, "finished": finished, "stalled": stalled}
        except Exception as exc:   # a feature the other checkout lacks: its cells read "—"
            said = (str(exc).splitlines() or [""])[0][:100]
            print(f"  {pkg} cannot run {path.name}: {type(exc).__name__} {said}", file=sys.stderr)
            works.pop(pkg, None)
            out[pkg] = None
    for r in range(args.rounds):
        for pkg in (pkgs if r % 2 == 0 else pkgs[::-1]):   # in turn, each first every other round
            if pkg in works:
                out[pkg]["play"].append(works[pkg].play()[0])
                out[pkg]["clone"].append(works[pkg].clone())
    return out


def paired(this: list[float], other: list[float]) -> tuple[float, str]:
    ratios = [a / b for a, b in zip(this, other)]
    return statistics.median(ratios), f"x{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per ruleset and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cap", type=int, default=2000, help="the most decisions of a game")
    parser.add_argument("--only", default="", help="substrings of ruleset names, comma-separated")
    parser.add_argument("--compare", metavar="OTHER_CHECKOUT", help="another checkout (a folder holding interpreter/)")
    args = parser.parse_args()
    if args.compare:
        sys.path.insert(0, link_packages(Path(args.compare).resolve()))
        this, pkgs = "rb_this", ["rb_other", "rb_this"]
    else:
        sys.path.insert(0, str(ROOT))
        this, pkgs = "interpreter", ["interpreter"]
    for pkg in pkgs:
        read_these_rulesets(pkg)
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    began = time.perf_counter()
    rows, bundled_us, ratios = [], [], {"play": [], "clone": []}
    bundled_play = []   # the per-decision ratios of the bundled rulesets alone (the patterns left out)
    for name, path, is_bundled in rulesets([x for x in args.only.split(",") if x]):
        rules = importlib.import_module(this).load(str(path))
        players = 3 if rules.min_players <= 3 <= rules.max_players else rules.min_players
        print(f"{name} @{players}p ...", file=sys.stderr, flush=True)
        got = measure(pkgs, path, players, args)
        mine, other = got[this], got.get("rb_other")
        us, clone = statistics.median(mine["play"]), statistics.median(mine["clone"])
        if is_bundled:
            bundled_us.append(us)
        ended = f"{mine['finished']}/{args.games}" + "".join(
            note for note, show in ((f", {mine['stalled']} stalled", mine["stalled"]),
                                    (f" (capped at {args.cap})", mine["finished"] < args.games)) if show)
        row = [f"{name}@{players}", f"{statistics.median(mine['counts']):.0f}", ended]
        if not args.compare:
            row += [f"{us:.1f}", f"{clone:.1f}"]
        elif other is None:
            row += [f"{us:.1f} / —", "—", f"{clone:.1f} / —", "—"]
        else:
            for kind, mark in (("play", " ‡" if other["counts"] != mine["counts"] else ""), ("clone", "")):
                value, text = paired(mine[kind], other[kind])
                ratios[kind].append(value)
                if kind == "play" and is_bundled:
                    bundled_play.append(value)
                row += [f"{statistics.median(mine[kind]):.1f} / {statistics.median(other[kind]):.1f}", text + mark]
        rows.append(row)
    header = ["ruleset@players", "decisions/game (median)", "finished"]
    header += (["µs/decision this / other", "ratio (lowest-highest)", "clone µs this / other",
                "ratio (lowest-highest)"] if args.compare else ["µs/decision", "clone µs"])
    print(f"\n{args.games} random games per ruleset (seeds 0-{args.games - 1}), {args.rounds} rounds, cap {args.cap} "
          f"decisions; CPU time; load average {load_before} at the start, "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end; {time.perf_counter() - began:.0f} s")
    if args.compare:
        print(f"this: {ROOT}; other: {Path(args.compare).resolve()}; both in one process, round by round in turn")
    print()
    for line in [header, ["---"] * len(header)] + rows:
        print("| " + " | ".join(line) + " |")
    print()
    summary = f"Median µs per decision over the {len(bundled_us)} bundled rulesets: " + (
        f"{statistics.median(bundled_us):.1f}" if bundled_us else "—")
    if args.compare and ratios["play"]:
        n, play, clone = len(ratios["play"]), ratios["play"], ratios["clone"]
        summary += (f"; median of the per-ruleset ratios this / other over the {n} rulesets both ran: per decision "
                    f"x{statistics.median(play):.3f}, clone x{statistics.median(clone):.3f}; slower than the other "
                    f"(ratio > 1.0): {sum(r > 1.0 for r in play)} of {n} per decision, {sum(r > 1.0 for r in clone)} "
                    f"of {n} clone")
        if bundled_play:
            summary += (f"; over the {len(bundled_play)} bundled rulesets both ran (the patterns left out): per "
                        f"decision x{statistics.median(bundled_play):.3f}")
    print(summary + ".")
    if any("‡" in cell for row in rows for cell in row):
        print("‡ the two checkouts' games differ (other numbers of decisions): µs per decision of different games.")


if __name__ == "__main__":
    main()
