"""Two rulesets (or one with two parameter sets) on the same seeds -> each statistic side by side, the
difference B - A with its 95% interval, and a verdict in plain words.

A few headline statistics (who wins by seat, the first seat's advantage, game length, the winning
margin) are tested as one family: a difference is flagged only when its Holm-adjusted p-value is
below 5%, so that on two rulesets that play the same, any flag at all shows up in at most 1 run in 20.
Every other statistic is exploratory: shown with its uncorrected interval, never flagged. The games of
the two sides are paired by seed when their outcomes are correlated (the same deal played under two
rules); where they are not (the two sides shuffled differently from the start), the intervals are
those of independent samples, and the report says so."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import GameError
from .course import MEASURES
from .records import seat
from .report import amount, p_is
from .runner import Runner
from .simulation import Table, run_tables
from .stats import (correlation, detectable, holm, mean_difference, paired_mean_difference,
                    paired_proportion_difference, proportion_difference)

ALPHA = 0.05   # the family-wise error rate of the headline statistics
from .summary import Tally, summarise


@dataclass(frozen=True)
class Measure:
    """One statistic compared: how to name it, and how to say that B has more or less of it."""

    key: str
    label: str        # "no detectable difference in {label}"
    more: str         # the sentence when B is higher; {size} is how much
    less: str         # the sentence when B is lower
    kind: str         # "proportion" (in points), "length" (in % of A), "amount" (in its own unit)
    headline: bool = False   # one of the family tested together; the others are exploratory


def measures(a: Tally, b: Tally) -> list[tuple[Measure, list, list]]:
    """Every statistic both runs have, with its per-game values in A and in B (paired by game)."""
    out = []
    for s in range(a.players):
        p = seat(s)
        out.append((Measure(f"win_{p}", f"{p}'s win rate", f"{p} wins {{size}} more often in B", f"{p} wins {{size}} less often in B",
                            "proportion", True), a.wins[s], b.wins[s]))
    if a.players > 1:
        out.append((Measure("first_seat_advantage", "first-seat advantage", "the first-seat advantage is {size} larger in B",
                            "the first-seat advantage is {size} smaller in B", "proportion", True),
                    a.first_seat_excess(), b.first_seat_excess()))
    out.append((Measure("shared", "shared wins", "{size} more wins are shared in B", "{size} fewer wins are shared in B",
                        "proportion"), a.shared, b.shared))
    out.append((Measure("stalled", "stalled games", "{size} more games stall in B", "{size} fewer games stall in B", "proportion"),
                a.stalled, b.stalled))
    out.append((Measure("turns", "game length (turns)", "games are {size} longer in B", "games are {size} shorter in B", "length", True),
                a.turns, b.turns))
    out.append((Measure("rounds", "rounds per game", "games last {size} more rounds in B", "games last {size} fewer rounds in B",
                        "length"), a.rounds, b.rounds))
    for s in range(a.players):
        p = seat(s)
        out.append((Measure(f"score_{p}", f"{p}'s final score", f"{p} scores {{size}} more in B", f"{p} scores {{size}} less in B",
                            "amount"), a.totals[s], b.totals[s]))
    if a.players > 1:
        out.append((Measure("margin", "the winning margin (first minus second)", "winning margins are {size} wider in B",
                            "winning margins are {size} narrower in B", "amount", True), a.margins, b.margins))
    for name in a.counter_names:
        if name in b.counters:
            out.append((Measure(f"counter_{name}", f"{name} per game", f"{{size}} more {name} per game in B",
                                f"{{size}} fewer {name} per game in B", "length"), a.counters[name], b.counters[name]))
    for name, (words, kind) in MEASURES.items():
        if name in a.course and name in b.course and name != "estimate_uncertainty":
            # the games that give the measure on both sides (drama needs a sole winner on each)
            kept = [(x, y) for x, y in zip(a.course[name], b.course[name]) if not (math.isnan(x) or math.isnan(y))]
            if len(kept) >= 2:
                out.append((Measure(f"course_{name}", words, f"{words}: {{size}} more in B",
                                    f"{words}: {{size}} less in B",
                                    "proportion" if kind in ("rate", "share") else "amount"),
                            [x for x, _ in kept], [y for _, y in kept]))
    return out


def pairing(a: Tally, b: Tally) -> dict:
    """Whether game i of A and game i of B are the same deal played under two rules: the correlation of
    their lengths (else of P1's scores, else of P1's wins) with its 95% interval. Paired when it is
    surely above 0; unknown (None) where nothing varies on both sides."""
    for label, x, y in (("game length", a.turns, b.turns), ("P1's final score", a.totals[0], b.totals[0]),
                        ("P1's wins", a.wins[0], b.wins[0])):
        r = correlation([float(v) for v in x], [float(v) for v in y])
        if r is not None:
            return {"paired": r["interval"][0] > 0, "on": label, "r": r["r"], "interval": r["interval"]}
    return {"paired": None, "on": None, "r": None, "interval": None}


def difference(measure: Measure, a: list, b: list, paired: bool = True) -> dict:
    """B - A for one statistic, with its interval and p-value (paired by game, or of independent games)."""
    binary = all(x in (0, 1) for x in a) and all(x in (0, 1) for x in b)
    if measure.kind == "proportion" and binary:
        d = (paired_proportion_difference if paired else proportion_difference)([bool(x) for x in a],
                                                                               [bool(x) for x in b])
        d["relative"] = d["relative_interval"] = None
    else:
        d = (paired_mean_difference if paired else mean_difference)(list(a), list(b))
    d.update({"key": measure.key, "label": measure.label, "kind": measure.kind, "headline": measure.headline,
              "paired": paired, "detectable": detectable(d["interval"]), "same": list(a) == list(b),
              "games_to_detect": games_to_detect(d, len(a))})
    return d


FIELDS = ("key", "label", "kind", "headline", "a", "b", "difference", "interval", "relative", "relative_interval",
          "paired", "p", "p_adjusted", "flagged", "detectable", "same", "games_to_detect", "verdict")


def differences(tally_a: Tally, tally_b: Tally, paired: bool) -> list[dict]:
    """Every statistic's difference; the headline ones flagged by Holm's correction across them."""
    out = [(m, difference(m, a, b, paired)) for m, a, b in measures(tally_a, tally_b)]
    heads = [d for m, d in out if m.headline]
    for d, adjusted in zip(heads, holm([None if d["same"] else d["p"] for d in heads])):
        d["p_adjusted"] = adjusted
        d["flagged"] = adjusted is not None and adjusted < ALPHA
    family = sum(d["p_adjusted"] is not None for d in heads)
    for m, d in out:
        if not m.headline:
            d["p_adjusted"], d["flagged"] = None, False
        d["verdict"] = verdict(m, d, family)
    return [{k: d[k] for k in FIELDS} for _, d in out]


def games_to_detect(d: dict, games: int) -> int | None:
    """Roughly how many games per side would make an interval this wide, around a difference this
    large, exclude zero (an interval narrows with the square root of the games); None when it
    already does or the difference is 0."""
    if d["interval"] is None or detectable(d["interval"]) or not d["difference"]:
        return None
    half = (d["interval"][1] - d["interval"][0]) / 2
    return math.ceil(games * (half / abs(d["difference"])) ** 2)


def verdict(measure: Measure, d: dict, family: int = 1) -> str:
    """A difference in plain words: which way and how much, or that this many games cannot tell.

    A headline statistic is called a difference only when flagged (Holm across the `family`); an
    exploratory one is said to be exploratory whenever its uncorrected interval excludes 0."""
    interval = d["interval"]
    if interval is None:
        return f"too few games to compare {measure.label}"
    if measure.kind == "length" and d["relative_interval"] is not None:
        lo, hi = d["relative_interval"]
        half = 100 * (hi - lo) / 2
        places = 0 if half >= 1 else 1   # "12% ± 3%", but "3.9% ± 0.3%" rather than "4% ± 0%"
        size = f"{100 * abs(d['relative']):.{places}f}% ± {half:.{places}f}%"
        span = f"{100 * lo:+.1f}% to {100 * hi:+.1f}%"
    elif measure.kind == "proportion":
        size = f"{100 * abs(d['difference']):.1f} points"
        span = f"{100 * interval[0]:+.1f} to {100 * interval[1]:+.1f} points"
    else:
        scale = d["a"] or d["b"]
        size = amount(abs(d["difference"]), scale)
        span = f"{amount(interval[0], scale, True)} to {amount(interval[1], scale, True)}"
    if d.get("same"):
        return f"{measure.label}: the same in every game of A and B"
    p = "" if d.get("p") is None else f", {p_is(d['p'])}"
    if measure.headline and not d.get("flagged"):
        if d["detectable"]:
            return (f"no difference in {measure.label} once the {family} headline statistics are corrected for "
                    f"(95% interval {span}{p}, {p_is(d['p_adjusted'], 'Holm-adjusted p')}): run more games to tell")
        text = (f"no detectable difference in {measure.label} at this sample size: the 95% interval {span} "
                f"includes 0")
        if d.get("games_to_detect"):
            text += f"; if it is really this size, about {d['games_to_detect']:,} games would show it"
        return text
    if not measure.headline and not d["detectable"]:
        return f"no detectable difference in {measure.label} (exploratory; 95% interval {span} includes 0)"
    sentence = (measure.more if d["difference"] > 0 else measure.less).format(size=size)
    if measure.headline:
        evidence = f"{p_is(d['p_adjusted'], 'Holm-adjusted p')} across {family} headline statistics"
    else:
        evidence = "exploratory: not corrected for the other statistics, check it with more games"
    if measure.kind == "length" and d["relative_interval"] is not None:
        return f"{sentence} ({amount(d['a'], d['a'])} -> {amount(d['b'], d['a'])}; {evidence})"
    return f"{sentence} (95% interval {span}{p}; {evidence})"


def labels(table_a: Table, table_b: Table) -> tuple[str, str]:
    """How the report names the two sides: the ruleset, and the parameters set for it."""
    def name(t: Table) -> str:
        params = ", ".join(f"{k}={v}" for k, v in t.params.items())
        return t.rules.name + (f" ({params})" if params else "")
    a, b = name(table_a), name(table_b)
    return (a + " [A]", b + " [B]") if a == b else (a, b)


@dataclass
class Comparison:
    """A finished comparison: its statistics and both runs' per-game data (for plots)."""

    summary: dict
    tallies: tuple


def compare(table_a: Table, table_b: Table, games: int, seed: int = 0, runner: Runner | None = None,
            progress=None, on_row=None) -> Comparison:
    """Play both tables on seeds seed .. seed+games-1 -> both runs' statistics and every difference."""
    runner = runner or Runner()
    if table_a.players != table_b.players:
        raise GameError("both sides of a comparison need the same number of players", "compare")
    label_a, label_b = labels(table_a, table_b)

    def row(index, flat):
        on_row({"side": "AB"[index], "label": (label_a, label_b)[index], **flat})
    (tally_a, tally_b), seconds = run_tables([table_a, table_b], games, seed, runner, progress,
                                             on_row and row)
    sides = []
    for t, tally, label in ((table_a, tally_a, label_a), (table_b, tally_b, label_b)):
        meta = {"ruleset": t.rules.name, "label": label, "players": t.players, "seed": seed, "params": t.params}
        sides.append(summarise(tally, meta))
    paired = pairing(tally_a, tally_b)
    diffs = differences(tally_a, tally_b, paired["paired"] is not False)
    # the flagged headline differences first, then the other headline statistics, then the exploratory
    # ones that look different, then the rest, each in the order of the table
    order = ([d for d in diffs if d["flagged"]] + [d for d in diffs if d["headline"] and not d["flagged"]]
             + [d for d in diffs if not d["headline"] and d["detectable"]]
             + [d for d in diffs if not d["headline"] and not d["detectable"]])
    summary = {"a": sides[0], "b": sides[1], "games": games, "players": table_a.players, "seed": seed,
            "pairing": paired, "family": {"method": "holm", "alpha": ALPHA,
                                          "statistics": [d["key"] for d in diffs if d["headline"]]},
            "differences": diffs, "verdicts": [d["verdict"] for d in order], "seconds": seconds, "jobs": runner.jobs,
            "backend": runner.backend, "games_per_second": 2 * games / seconds if seconds > 0 else 0.0}
    return Comparison(summary, (tally_a, tally_b))
