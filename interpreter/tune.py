"""`rulebook tune`: parameters to vary + targets for what simulation measures -> the values that come nearest,
found by NTBEA (the N-Tuple Bandit Evolutionary Algorithm of Lucas, Liu and Perez-Liebana, 2018, which TAG
uses to tune games), then checked on fresh seeds against the ruleset's own values, and written as a
variant file.

Each trial plays `games` games on seeds of its own (trial t: seed + t * games), so a trial's value is noisy
and the search weighs what it has seen by bandit statistics over tuples of parameters instead of trusting
one run; the same seed gives the same search. docs/simulation.md describes the targets and the search."""
from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from itertools import combinations

import yaml

from .analysis.runner import Runner
from .analysis.simulation import run_simulation
from .errors import RulebookError
from .tournament import ladder, ladder_games

CONFIRM_SEED = 1_000_000     # the check of the best values plays on seeds from here on (not the trials')
EXPLORE = 2.0                # NTBEA's exploration constant (fitness is about 0 to -3 for targets near)
NEIGHBOURS = 50              # candidate points scored by the model at every step
UNSEEN = 0.5                 # NTBEA's epsilon: the count an unseen tuple's exploration bonus divides by
FINALISTS = 3                # the settings that did best in their trials, played again on fresh seeds

# what can be aimed at: metric -> (words, unit of one step of distance, percent?, where in a summary)
TARGETS = {
    "first_seat": ("the first seat's advantage (points)", 5.0, True),
    "turns": ("turns per game", None, False),
    "rounds": ("rounds per game", None, False),
    "margin": ("the winning margin (points of score)", None, False),
    "stalls": ("games that stall (%)", 5.0, True),
    "shared": ("shared wins (%)", 5.0, True),
    "lead_changes": ("lead changes per game", 1.0, False),
    "drama": ("drama (points the winner trailed)", 1.0, False),
    "comeback": ("comebacks (%)", 5.0, True),
    "settled": ("settled: share of the game before the winner led for good (%)", 5.0, True),
    "uncertainty": ("uncertainty (%)", 5.0, True),
    "forced": ("forced decisions (%)", 5.0, True),
    "skill": ("how often the second agent finishes ahead of the first (%)", 5.0, True),
}
COURSE = frozenset(("lead_changes", "drama", "comeback", "settled", "uncertainty", "forced"))


@dataclass(frozen=True)
class Target:
    metric: str
    low: float
    high: float

    def text(self) -> str:
        bound = f"{self.low:g}" if self.low == self.high else f"{self.low:g}..{self.high:g}"
        return f"{self.metric}={bound}"

    def distance(self, value: float | None) -> float:
        """How far a value is from the target, in units of the metric (0 inside a range); a value the
        games could not give counts as far."""
        if value is None:
            return 10.0
        gap = self.low - value if value < self.low else value - self.high if value > self.high else 0.0
        unit = TARGETS[self.metric][1] or max(1.0, 0.1 * max(abs(self.low), abs(self.high)))
        return gap / unit


def parse_target(text: str) -> Target:
    """'METRIC=VALUE' or 'METRIC=LO..HI' -> a Target; a RulebookError that says what is wrong."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or name not in TARGETS:
        known = ", ".join(TARGETS)
        raise RulebookError(f"a target is METRIC=VALUE or METRIC=LO..HI with a metric among {known}, not '{text}'")
    low, dots, high = value.partition("..")
    try:
        lo = float(low)
        hi = float(high) if dots else lo
    except ValueError:
        raise RulebookError(f"target '{text}': the value should be a number or LO..HI") from None
    if hi < lo:
        raise RulebookError(f"target '{text}': the range runs from the low value to the high one")
    return Target(name, lo, hi)


def parse_vary(text: str, rules) -> tuple[str, list]:
    """'NAME=LO..HI' (whole numbers), 'NAME=a,b,c', or 'NAME' alone for a parameter with choices -> the
    parameter and the values to try; a RulebookError that says what is wrong."""
    from .parameters import override_problem
    name, sep, value = text.partition("=")
    name = name.strip()
    if name not in rules.params:
        problem = override_problem(name, 0, rules.params, rules.param_choices)
        raise RulebookError(problem[0] + (f"; {problem[1]}" if problem and problem[1] else ""))
    if not sep:
        values = list(rules.param_choices.get(name) or [])
        if not values:
            raise RulebookError(f"--vary {name}: give the values to try (NAME=LO..HI or NAME=a,b,c)")
    elif ".." in value:
        low, _, high = value.partition("..")
        try:
            lo, hi = int(low), int(high)
        except ValueError:
            raise RulebookError(f"--vary {text}: LO..HI takes whole numbers") from None
        if hi < lo or hi - lo > 1000:
            raise RulebookError(f"--vary {text}: the range runs from the low value to the high one, at most 1000 "
                                "values")
        values = list(range(lo, hi + 1))
    else:
        # a choice is taken as written ('no' is the choice "no", not YAML's false); else read as YAML
        named = {str(c): c for c in rules.param_choices.get(name) or ()}
        values = [named[v.strip()] if v.strip() in named else yaml.safe_load(v.strip())
                  for v in value.split(",") if v.strip()]
    for v in values:
        problem = override_problem(name, v, rules.params, rules.param_choices)
        if problem is not None:
            raise RulebookError(f"--vary {text}: {problem[0]}")
    if len(values) < 2:
        raise RulebookError(f"--vary {text}: give at least two values to choose among")
    return name, values


def measure(summary: dict, metric: str):
    """A metric's value in a run's summary (percent metrics in percent); None where the games gave none."""
    if metric == "first_seat":
        first = summary.get("first_seat")
        return None if first is None else 100 * first["advantage"]
    if metric in ("turns", "rounds", "margin"):
        d = summary.get(metric)
        return None if not d else d["mean"]
    if metric == "stalls":
        return 100 * summary["stalls"]["rate"]
    if metric == "shared":
        return 100 * summary["shared"]["rate"]
    if metric == "skill":
        return 100 * summary["skill"]["rate"] if summary.get("skill") else None
    entry = (summary.get("course") or {}).get(metric)
    if entry is None:
        return None
    if metric == "comeback":
        return 100 * entry["rate"]
    return 100 * entry["mean"] if TARGETS[metric][2] else entry["mean"]


def fitness(summary: dict, targets: list[Target]) -> float:
    """0 when every target is met, below the further the run is from them (in each metric's units)."""
    return -sum(t.distance(measure(summary, t.metric)) for t in targets)


class NTBEA:
    """The model of NTBEA over a grid of values: bandit statistics (count, sum of fitness) for every value
    of each parameter, every pair of values of two parameters, and every whole point."""

    def __init__(self, sizes: list[int], rng: random.Random, explore: float = EXPLORE):
        self.sizes, self.rng, self.explore = sizes, rng, explore
        d = len(sizes)
        self.tuples = [(i,) for i in range(d)]
        if d > 2:
            self.tuples += list(combinations(range(d), 2))
        if d > 1:
            self.tuples.append(tuple(range(d)))
        self.stats: list[dict] = [{} for _ in self.tuples]
        self.evaluated = 0

    def add(self, point: tuple, value: float) -> None:
        self.evaluated += 1
        for k, dims in enumerate(self.tuples):
            key = tuple(point[i] for i in dims)
            n, total = self.stats[k].get(key, (0, 0.0))
            self.stats[k][key] = (n + 1, total + value)

    def ucb(self, point: tuple) -> float:
        """The model's optimistic value of a point: the mean over its tuples of mean + exploration."""
        score = 0.0
        log = math.log(self.evaluated + 1)
        for k, dims in enumerate(self.tuples):
            n, total = self.stats[k].get(tuple(point[i] for i in dims), (0, 0.0))
            # an unseen tuple counts as a mean of 0 (the best a fitness can be) with the widest bonus
            score += (total / n if n else 0.0) + self.explore * math.sqrt(log / (n + UNSEEN))
        return score / len(self.tuples)

    def mean(self, point: tuple) -> float:
        """The model's estimate of a point: the mean over its tuples seen so far of their mean fitness."""
        values = []
        for k, dims in enumerate(self.tuples):
            n, total = self.stats[k].get(tuple(point[i] for i in dims), (0, 0.0))
            if n:
                values.append(total / n)
        return statistics.fmean(values) if values else -math.inf

    def neighbour(self, point: tuple) -> tuple:
        """A mutation of `point`: each parameter changed with chance 1/d, at least one."""
        d = len(point)
        out = list(point)
        must = self.rng.randrange(d)
        for i in range(d):
            if (i == must or self.rng.random() < 1 / d) and self.sizes[i] > 1:
                out[i] = self.rng.choice([v for v in range(self.sizes[i]) if v != point[i]])
        return tuple(out)

    def next_point(self, point: tuple) -> tuple:
        candidates = {self.neighbour(point) for _ in range(NEIGHBOURS)}
        return max(sorted(candidates), key=self.ucb)


def tune(rules, players: int, agents: list[str], varied: list[tuple[str, list]], targets: list[Target],
         trials: int = 30, games: int = 100, confirm_games: int = 400, seed: int = 0, params=None,
         runner: Runner | None = None, progress=None) -> dict:
    """Search the values of `varied` toward `targets` -> the trials, the best values, and both the best and the
    ruleset's own values measured on `confirm_games` fresh seeds (the same for both), with intervals."""
    runner = runner or Runner()
    base = dict(params or {})
    names = [n for n, _ in varied]
    grids = [values for _, values in varied]
    course = 1 if any(t.metric in COURSE for t in targets) else 0
    rng = random.Random(seed)
    model = NTBEA([len(g) for g in grids], rng)

    def own_value(n):   # the ruleset's value at this table (a table by player count gives this count's)
        value = rules.params.get(n)
        return value.get(players) if isinstance(value, dict) else value

    # the search starts from the ruleset's own values (a value outside the grid: a random one of the grid)
    own = tuple(grids[i].index(own_value(n)) if own_value(n) in grids[i] else rng.randrange(len(grids[i]))
                for i, n in enumerate(names))

    def values_of(point):
        return {n: grids[i][point[i]] for i, n in enumerate(names)}

    skill = any(t.metric == "skill" for t in targets)
    if skill and len(agents) < 2:
        raise RulebookError("a skill target needs two agents, the weaker first (--agents random,greedy)")
    # with a skill target the first agent plays every seat for the other targets, and the two meet apart
    seats = [agents[0]] if skill else agents

    def run(point, first_seed, count):
        """The games of one setting (`point` None: the ruleset's own values) -> their summary."""
        setting = {**base, **(values_of(point) if point is not None else {})}
        summary = run_simulation(rules, count, players, seats, first_seed, setting, runner, progress,
                                 course=course).summary
        if skill:
            step = ladder(rules, players, list(agents[:2]), count, first_seed, setting, runner, progress)["steps"][0]
            summary["skill"] = {"rate": step["rate"], "interval": step["interval"], "games": step["games"]}
        return summary

    history = []
    point = own
    for t in range(trials):
        summary = run(point, seed + t * games, games)
        value = fitness(summary, targets)
        model.add(point, value)
        history.append({"trial": t + 1, "values": values_of(point), "fitness": value,
                        "measured": {x.metric: measure(summary, x.metric) for x in targets}})
        point = model.next_point(point)
    # the finalists: the settings whose own trials did best (ties: the most tried, then the search's model);
    # each is played again on the same fresh seeds, and the best of those runs is the answer
    seen: dict = {}
    for h in history:
        p = tuple(grids[i].index(h["values"][n]) for i, n in enumerate(names))
        n, total = seen.get(p, (0, 0.0))
        seen[p] = (n + 1, total + h["fitness"])
    ranked = sorted(seen, key=lambda p: (-seen[p][1] / seen[p][0], -seen[p][0], -model.mean(p), p))
    start = seed + CONFIRM_SEED
    finalists = [(p, run(p, start, confirm_games)) for p in ranked[:FINALISTS]]
    best, best_summary = max(finalists, key=lambda f: (fitness(f[1], targets), -finalists.index(f)))
    # the ruleset's own values, as they are (a value outside the grid was only the search's start)
    own_inside = all(own_value(n) in grids[i] for i, n in enumerate(names))
    own_summary = next((s for p, s in finalists if p == own), None) if own_inside else None
    if own_summary is None:
        own_summary = run(None, start, confirm_games)
    checked = {"best": best_summary, "own": own_summary}
    return {"ruleset": rules.name, "title": rules.title, "players": players, "agents": list(agents),
            "varied": {n: g for n, g in varied}, "targets": [t.text() for t in targets], "trials": history,
            "games": games, "confirm_games": confirm_games, "seed": seed, "params": base,
            "best": values_of(best), "own": {n: own_value(n) for n in names},
            "finalists": [{"values": values_of(p), "fitness": fitness(f, targets)} for p, f in finalists],
            "confirmed": {side: confirmed(s, targets) for side, s in checked.items()},
            "jobs": runner.jobs, "backend": runner.backend}


def confirmed(summary: dict, targets: list[Target]) -> dict:
    """Each target's metric in a confirming run, with its 95% interval, and the run's fitness."""
    out = {"fitness": fitness(summary, targets), "metrics": {}}
    for t in targets:
        value, iv = measure(summary, t.metric), interval_of(summary, t.metric)
        out["metrics"][t.metric] = {
            "value": value, "interval": iv,
            # met: the value is on the target (inside its range); near: the interval reaches the target
            "met": value is not None and t.distance(value) == 0,
            "near": iv is not None and iv[0] <= t.high and iv[1] >= t.low}
    return out


def interval_of(summary: dict, metric: str):
    """The 95% interval of a metric in a run (in the metric's units), where the summary gives one."""
    if metric == "first_seat":
        first = summary.get("first_seat")
        iv = first and first["advantage_95"]
        return [100 * iv[0], 100 * iv[1]] if iv else None
    if metric == "skill":
        iv = summary.get("skill") and summary["skill"]["interval"]
        return [100 * x for x in iv] if iv else None
    if metric in ("stalls", "shared"):
        entry = summary[metric]
        return [100 * x for x in entry["rate_95"]] if entry["rate_95"] else None
    if metric in ("turns", "rounds", "margin"):
        d = summary.get(metric)
        if not d or d["sd"] is None or summary["games"] < 2:
            return None
        half = 1.96 * d["sd"] / math.sqrt(summary["games"])
        return [d["mean"] - half, d["mean"] + half]
    entry = (summary.get("course") or {}).get(metric)
    if not entry:
        return None
    if metric == "comeback":
        return [100 * x for x in entry["rate_95"]] if entry["rate_95"] else None
    iv = entry["mean_95"]
    if not iv:
        return None
    return [100 * x for x in iv] if TARGETS[metric][2] else list(iv)


def variant_text(result: dict, base: str, name: str) -> str:
    """The best values as a variant file of the ruleset (extends + parameters)."""
    targets = ", ".join(result["targets"])
    data = {"extends": base, "name": name, "title": f"{result['title']} (tuned)",
            "text": f"{result['title']} with the parameters rulebook tune found nearest to {targets} "
                    f"({result['players']} players, agents {', '.join(result['agents'])}).",
            "parameters": {**result["params"], **result["best"]}}
    return ("# Written by rulebook tune; check it with: rulebook validate THIS_FILE\n"
            + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))


def tune_text(r: dict) -> str:
    """The result for people: the search, the best values, and both settings checked on fresh seeds."""
    def show(metric, entry):
        value, iv = entry["value"], entry["interval"]
        unit = "%" if TARGETS[metric][2] and metric != "first_seat" else ""
        if value is None:
            return "-"
        text = f"{value:.1f}{unit}"
        return text + (f" ({iv[0]:.1f} to {iv[1]:.1f})" if iv else "")

    lines = [f"{r['ruleset']}: tuned {', '.join(r['varied'])} toward {', '.join(r['targets'])}; "
             f"{len(r['trials'])} trials of {r['games']} games, {r['players']} players, agents "
             f"{', '.join(r['agents'])}, seed {r['seed']}", ""]
    best = ", ".join(f"{k}={v}" for k, v in r["best"].items())
    own = ", ".join(f"{k}={v}" for k, v in r["own"].items())
    lines.append(f"best: {best}" + ("   (the ruleset's own values)" if r["best"] == r["own"] else ""))
    finalists = "; ".join(", ".join(f"{k}={v}" for k, v in f["values"].items()) + f" (distance {-f['fitness']:.2f})"
                          for f in r["finalists"])
    lines.append(f"finalists, played again on {r['confirm_games']} fresh games each: {finalists}")
    lines.append(f"checked on those games (seeds {r['seed'] + CONFIRM_SEED}.., the same for both; 95% intervals):")
    width = max(len("distance"), *(len(t) for t in r["targets"]))
    col = max(40, len(best) + 8)
    lines.append(f"  {'target':<{width}}  {'best (' + best + ')':<{col}}  own ({own})")
    for t in r["targets"]:
        metric = t.split("=")[0]
        b, o = r["confirmed"]["best"]["metrics"][metric], r["confirmed"]["own"]["metrics"][metric]
        lines.append(f"  {t:<{width}}  {show(metric, b) + _mark(b):<{col}}  {show(metric, o) + _mark(o)}")
    lines.append(f"  {'distance':<{width}}  {-r['confirmed']['best']['fitness']:<{col}.2f}  "
                 f"{-r['confirmed']['own']['fitness']:.2f}")
    lines.append("  (met: on the target; within noise: the interval reaches it; distance: how far the targets are "
                 "missed, in each metric's units, added up)")
    if r["confirmed"]["own"]["fitness"] > r["confirmed"]["best"]["fitness"]:
        lines.append("the ruleset's own values are nearer the targets than any setting tried: widen --vary, or "
                     "keep them")
    return "\n".join(lines)


def _mark(entry: dict) -> str:
    return " met" if entry["met"] else " within noise" if entry["near"] else ""


def tune_games(agents: list[str], players: int, targets: list[Target], trials: int, games: int,
               confirm_games: int) -> int:
    """How many games a search plays at most (for a progress bar)."""
    def one(count):
        extra = ladder_games(list(agents[:2]), players, count) if any(t.metric == "skill" for t in targets) else 0
        return count + extra
    return trials * one(games) + (FINALISTS + 1) * one(confirm_games)
