"""Statistics of a run or a comparison -> the text report printed by `simulate` and `compare`."""
from __future__ import annotations

import math

from .course import MEASURES


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def span(interval) -> str:
    """A 95% interval of a proportion, as percentages."""
    return f"{100 * interval[0]:.1f}-{100 * interval[1]:.1f}%" if interval else "-"


def num(x) -> str:
    """A number as short as it can be without losing what matters (7, 91.4, 0.463)."""
    if x is None:
        return "-"
    if isinstance(x, int) or abs(x - round(x)) < 1e-9:
        return str(round(x))
    return f"{x:.3g}" if abs(x) < 10 else f"{x:.1f}"


def amount(x: float, scale: float, sign: bool = False) -> str:
    """`x` with as many decimals as numbers of size `scale` need for about three figures (52.8, 3.64, 412)."""
    places = 2 if not scale else min(3, max(0, 2 - math.floor(math.log10(abs(scale)))))
    text = f"{x:+.{places}f}" if sign else f"{x:.{places}f}"
    return text.lstrip("+-") if float(text) == 0 else text   # no "-0.0"


def simulation_text(s: dict) -> str:
    """The report of one run: who wins (with intervals), how games end, how long they last, the scores."""
    games = s["games"]
    params = "".join(f", {k}={v}" for k, v in s["params"].items())
    lines = [f"{s['ruleset']}{params}: {games} game{'s' if games != 1 else ''}, {s['players']} players, agents {', '.join(s['agents'])}, "
             f"seeds {s['seed']}..{s['seed'] + games - 1}", "",
             "seat  agent       wins    rate   95% interval"]
    for x in s["seats"]:
        lines.append(f"{x['seat']:<5} {x['agent']:<10} {x['wins']:>6}  {pct(x['win_rate']):>6}   {span(x['win_rate_95'])}")
    if len(s["wins_per_agent"]) > 1:
        for name, e in s["wins_per_agent"].items():
            lines.append(f"all   {name:<10} {e['wins']:>6}  {pct(e['win_rate']):>6}   {span(e['win_rate_95'])}"
                         f"   (per seat, {e['seats']} seat{'s' if e['seats'] != 1 else ''})")
    first = s["first_seat"]
    if first:
        lines.append(f"first seat: P1 wins {pct(first['win_rate'])} against an even share of "
                     f"{pct(first['even_share'])}; {first['verdict']}")
    lines.append(f"shared wins: {s['shared_wins']} ({pct(s['shared']['rate'])}, {span(s['shared']['rate_95'])})   "
                 f"stalled: {s['stalled']} ({pct(s['stalls']['rate'])}, {span(s['stalls']['rate_95'])})   "
                 f"tie-breaks used: {s['tie_breaks_used']}")
    lines.append("end reasons: " + "; ".join(f"{r} {c} ({pct(c / games)})" for r, c in s["end_reasons"].items()))
    lines += ["", "                          mean      sd  median      5%     95%     min     max"]
    rows = [("game length (turns)", s["turns"]), ("rounds", s["rounds"])]
    rows += [(f"{x['seat']} final score", x["score"]) for x in s["seats"] if x["score"]]
    if s["margin"]:
        rows.append(("margin (1st - 2nd)", s["margin"]))
    rows += [(f"{name} per game", c["per_game"]) for name, c in s["counters"].items()]
    for label, d in rows:
        if d:
            lines.append(f"  {label:<21}" + "".join(f"{num(d.get(k)):>8}"
                                                     for k in ("mean", "sd", "median", "p5", "p95", "min", "max")))
    for name, c in s["counters"].items():
        lines.append(f"  {name} per round: {num(c['per_round'])}")
    parts = sorted({k for x in s["seats"] for k in x["score_parts"]})
    if len(parts) > 1:
        lines.append("mean score parts: " + "; ".join(
            f"{x['seat']} " + ", ".join(f"{k} {num(x['score_parts'][k])}" for k in parts) for x in s["seats"]))
    if s.get("course"):
        lines += [""] + course_lines(s["course"])
    if s.get("seconds"):
        lines += ["", f"time: {s['seconds']:.2f} s with {_workers(s)}, {s['games_per_second']:.1f} games/s, "
                      f"{s['decisions_per_second']:.0f} decisions/s"]
    return "\n".join(lines)


def course_cells(name: str, entry: dict) -> tuple[str, str, str]:
    """One course-of-game measure as a designer reads it: its words, its mean and its 95% interval."""
    words, kind = MEASURES[name]
    if kind == "rate":
        return words, pct(entry["rate"]), span(entry["rate_95"])
    if kind == "share":
        return words, pct(entry["mean"]), span(entry["mean_95"])
    low, high = entry["mean_95"] or (None, None)
    return words, num(entry["mean"]), f"{num(low)} to {num(high)}" if entry["mean_95"] else "-"


def course_lines(course: dict) -> list[str]:
    """The course-of-game metrics: each mean with its 95% interval and the games it is over."""
    lines = ["course of the game (means over games, 95% intervals; docs/simulation.md defines each)"]
    missing = []
    for name in MEASURES:
        entry = course.get(name)
        if entry is None:
            missing.append(name)
            continue
        words, value, interval = course_cells(name, entry)
        lines.append(f"  {words:<60} {value:>7}  ({interval}, {entry['games']} games)")
    if missing:
        why = [n.replace("_", " ") for n in missing]
        lines.append("  not measured: " + ", ".join(why) + " (no score parts, no winner, or no bot that "
                     "searches)")
    return lines


def comparison_text(c: dict) -> str:
    """Both runs side by side, B - A with its 95% interval, and the verdicts."""
    a, b = c["a"], c["b"]
    games = c["games"]
    agents = ", ".join(a["agents"]) if a["agents"] == b["agents"] else \
        f"{', '.join(a['agents'])} in A; {', '.join(b['agents'])} in B"
    lines = [f"A: {a['label']}", f"B: {b['label']}",
             f"{games} game{'s' if games != 1 else ''} each, {c['players']} players, agents {agents}, the same seeds "
             f"{c['seed']}..{c['seed'] + games - 1} on both sides"]
    lines += [pairing_text(c.get("pairing")), ""]
    width = max(len(d["label"]) for d in c["differences"]) + 2
    lines.append(f"{'':<{width + 2}}{'A':>10}{'B':>10}   B - A (95% interval)   p")
    # the headline statistics first, then the exploratory ones (indented)
    rows = [d for d in c["differences"] if d.get("headline")] + [d for d in c["differences"] if not d.get("headline")]
    for d in rows:
        if d["kind"] == "proportion":
            # an advantage is itself a difference: signed, in points
            side = (lambda x: f"{100 * x:+.1f} pts") if d["key"] == "first_seat_advantage" else pct
            values = f"{side(d['a']):>10}{side(d['b']):>10}   {100 * d['difference']:+.1f} points"
            if d["interval"]:
                values += f" ({100 * d['interval'][0]:+.1f} to {100 * d['interval'][1]:+.1f})"
        else:
            scale = d["a"] or d["b"]
            values = f"{amount(d['a'], scale):>10}{amount(d['b'], scale):>10}   {amount(d['difference'], scale, True)}"
            if d["interval"]:
                lo, hi = d["interval"]
                values += f" ({amount(lo, scale, True)} to {amount(hi, scale, True)})"
            if d["relative"] is not None and d["relative_interval"]:
                lo, hi = d["relative_interval"]
                values += f", {100 * d['relative']:+.1f}% ({100 * lo:+.1f}% to {100 * hi:+.1f}%)"
        if d.get("p") is not None and not d["same"]:
            values += f"   {_p(d['p'])}"
        if d.get("headline"):
            mark = " *" if d.get("flagged") else ""
        else:
            mark = " (e)" if d["detectable"] else ""
        lines.append(f"{('  ' if d.get('headline') is False else '') + d['label']:<{width + 2}}{values}{mark}")
    heads = [d for d in c["differences"] if d.get("headline")]
    lines += ["", f"* a difference in a headline statistic (the first {len(heads)} rows), flagged when its "
                  f"Holm-adjusted p is below 5%:",
              "  on two rulesets that play the same, any flag at all appears in at most 1 comparison in 20",
              "(e) exploratory (indented rows): its 95% interval excludes 0, but it is not corrected for the many "
              "statistics shown;", "  a lead to check with more games, not a finding", "", "verdicts:"]
    lines += [f"  - {v}" for v in c["verdicts"]]
    lines.append("end reasons: A " + "; ".join(f"{r} {n}" for r, n in a["end_reasons"].items())
                 + " | B " + "; ".join(f"{r} {n}" for r, n in b["end_reasons"].items()))
    if c.get("seconds"):
        lines.append(f"time: {c['seconds']:.2f} s with {_workers(c)}, {c['games_per_second']:.1f} games/s")
    return "\n".join(lines)


def pairing_text(p: dict | None) -> str:
    """Whether the paired seeds paired the games, in words."""
    if not p or p.get("paired") is None:
        return "games paired by seed (nothing varies on both sides to check that they pair)"
    r = f"r = {p['r']:.2f}, 95% interval {p['interval'][0]:.2f} to {p['interval'][1]:.2f}"
    if p["paired"]:
        return f"games paired by seed: the same deal on both sides ({p['on']} correlated, {r})"
    return (f"the seeds did not pair the games: {p['on']} is uncorrelated between A and B ({r}), as when the "
            "two sides shuffle differently from the start; intervals treat the sides as independent games")


def _p(p: float) -> str:
    """A p-value as people read one: 0.032, 0.41, < 0.001."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}" if p < 0.1 else f"{p:.2f}"


def p_is(p: float, name: str = "p") -> str:
    """'p = 0.032', 'p < 0.001'."""
    text = _p(p)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


def _workers(s: dict) -> str:
    if s.get("backend") == "ray":
        return "Ray"
    jobs = s.get("jobs", 1)
    return f"{jobs} job{'s' if jobs != 1 else ''}"
