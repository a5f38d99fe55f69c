"""An analysis (interpreter/analyze.py, plain data) -> one self-contained HTML page: the verdict, then balance,
skill, length, the course of the games, end reasons and actions, with charts drawn as inline SVG (no file
beside it, no script, nothing fetched)."""
from __future__ import annotations

from html import escape

from .course import MEASURES
from .report import course_cells, num, pct, span

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.sub { color: #666; margin-top: 0; } .verdict { background: #f4f6fa; border-left: 4px solid #3b6fb6; padding: .8rem 1rem; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .25rem .7rem; text-align: left; }
th { border-bottom: 1px solid #bbb; font-weight: 600; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafafa; } .note { color: #666; font-size: .9rem; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
"""

BAR, WHISKER, EVEN = "#3b6fb6", "#222", "#c0392b"


def page(a: dict) -> str:
    """The whole page."""
    s = a["summary"]
    params = ", ".join(f"{k}={v}" for k, v in a["params"].items())
    sub = (f"{a['players']} players · {a['games']} games with {escape(a['agents'][0])} at every seat · seeds "
           f"{a['seed']}..{a['seed'] + a['games'] - 1}" + (f" · {escape(params)}" if params else ""))
    parts = [f"<h1>{escape(a['title'])}: analysis</h1>", f"<p class=sub>{sub}</p>",
             f"<p class=verdict>{escape(a['verdict'])}</p>"]
    parts += _balance(a, s) + _skill(a) + _length(a, s) + _course(s) + _ends(s) + _actions(a)
    parts.append(f"<p class=note>Made by <code>rulebook analyze {escape(a['ruleset'])}</code>. Intervals are 95%: "
                 "Wilson's for rates, t intervals for means. docs/simulation.md defines every measure.</p>")
    return ("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<title>{escape(a['title'])}: analysis</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")


def _table(head: list[str], rows: list[list], numeric=()) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td{' class=n' if i in numeric else ''}>{escape(str(c))}</td>"
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _balance(a, s) -> list[str]:
    rows = [[x["seat"], x["wins"], pct(x["win_rate"]), span(x["win_rate_95"])] for x in s["seats"]]
    out = ["<h2>Balance by seat</h2>", _table(["seat", "wins", "rate", "95% interval"], rows, (1, 2)),
           rates_chart([(x["seat"], x["win_rate"], x["win_rate_95"]) for x in s["seats"]], 1 / a["players"],
                       "even share")]
    if s.get("first_seat"):
        out.append(f"<p>{escape(s['first_seat']['verdict'])}.</p>")
    out.append(f"<p>Shared wins {s['shared_wins']} ({pct(s['shared']['rate'])}); stalled {s['stalled']} "
               f"({pct(s['stalls']['rate'])}, {span(s['stalls']['rate_95'])}); tie-breaks used "
               f"{s['tie_breaks_used']}.</p>")
    return out


def _skill(a) -> list[str]:
    steps = a.get("ladder")
    out = ["<h2>Skill</h2>"]
    if not steps:
        out.append("<p>One agent, so no skill ladder. Give several agents, weakest first: "
                   "<code>--agents random,greedy,mcts</code>.</p>")
        return out
    rows = [[st["upper"], st["lower"], pct(st["rate"]), span(st["interval"]), st["games"],
             "better" if st["better"] else "no better beyond doubt"] for st in steps["steps"]]
    out.append("<p>Each agent against the one before it, every seat equally often on the same seeds; "
               "finished ahead: a win the other did not share, else a higher score (level counts half).</p>")
    out.append(_table(["agent", "against", "ahead", "95% interval", "games", "verdict"], rows, (2, 4)))
    out.append(rates_chart([(f"{st['upper']} v {st['lower']}", st["rate"], st["interval"]) for st in steps["steps"]],
                           0.5, "level"))
    return out


def _length(a, s) -> list[str]:
    t, r = s["turns"], s["rounds"]
    rows = [[label, num(d["mean"]), num(d["sd"]), num(d["median"]), num(d["p5"]), num(d["p95"]), num(d["min"]),
             num(d["max"])] for label, d in (("turns", t), ("rounds", r)) if d]
    if s["margin"]:
        d = s["margin"]
        rows.append(["winning margin (points)", num(d["mean"]), num(d["sd"]), num(d["median"]), num(d["p5"]),
                     num(d["p95"]), num(d["min"]), num(d["max"])])
    return ["<h2>Length</h2>",
            _table(["", "mean", "sd", "median", "5%", "95%", "min", "max"], rows, (1, 2, 3, 4, 5, 6, 7)),
            histogram(a["turns"], "turns per game")]


def _course(s) -> list[str]:
    course = s.get("course") or {}
    rows = []
    for name in MEASURES:
        if course.get(name) is not None:
            rows.append([*course_cells(name, course[name]), course[name]["games"]])
    return ["<h2>The course of the games</h2>",
            "<p>The lead is read from the score totals at the start of every turn and at the end.</p>",
            _table(["measure", "mean", "95% interval", "games"], rows, (1, 3))]


def _ends(s) -> list[str]:
    games = s["games"]
    rows = [[reason, count, pct(count / games)] for reason, count in s["end_reasons"].items()]
    return ["<h2>How games end</h2>", _table(["reason", "games", "share"], rows, (1, 2))]


def _actions(a) -> list[str]:
    rows = [[name, pct(share)] for name, share in sorted(a["actions"].items(), key=lambda kv: (kv[1], kv[0]))]
    out = ["<h2>Actions</h2>", "<p>The share of games in which each action was taken at least once.</p>",
           _table(["action", "games"], rows, (1,))]
    if a["never_taken"]:
        out.append(f"<p>Never taken: {escape(', '.join(a['never_taken']))}.</p>")
    if a["always_taken"]:
        out.append(f"<p>Taken in every game: {escape(', '.join(a['always_taken']))}.</p>")
    return out


def rates_chart(rows: list[tuple], line: float, line_label: str) -> str:
    """Horizontal bars of rates (0-100%) with their intervals as whiskers and a reference line."""
    width, left, bar, gap = 600, 150, 18, 10
    height = len(rows) * (bar + gap) + 30
    scale = width - left - 60
    out = [f'<svg width="{width}" height="{height}" role="img" aria-label="rates with 95% intervals">']
    for i, (label, rate, interval) in enumerate(rows):
        y = 10 + i * (bar + gap)
        out.append(f'<text x="{left - 8}" y="{y + bar - 4}" text-anchor="end">{escape(str(label))}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{rate * scale:.1f}" height="{bar}" fill="{BAR}"/>')
        if interval:
            x0, x1 = left + interval[0] * scale, left + interval[1] * scale
            mid = y + bar / 2
            out.append(f'<line x1="{x0:.1f}" y1="{mid}" x2="{x1:.1f}" y2="{mid}" stroke="{WHISKER}"/>')
            for x in (x0, x1):
                out.append(f'<line x1="{x:.1f}" y1="{y + 3}" x2="{x:.1f}" y2="{y + bar - 3}" stroke="{WHISKER}"/>')
        out.append(f'<text x="{width - 4}" y="{y + bar - 4}" text-anchor="end">{pct(rate)}</text>')
    x = left + line * scale
    bottom = height - 18
    out.append(f'<line x1="{x:.1f}" y1="4" x2="{x:.1f}" y2="{bottom}" stroke="{EVEN}" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{x:.1f}" y="{height - 4}" text-anchor="middle" fill="{EVEN}">{escape(line_label)} '
               f'{pct(line)}</text>')
    out.append("</svg>")
    return "".join(out)


def histogram(values: list[float], label: str) -> str:
    """A histogram of whole numbers (game lengths), at most 30 bins."""
    if not values:
        return ""
    low, high = int(min(values)), int(max(values))
    bins = min(30, high - low + 1)
    size = max(1, -(-(high - low + 1) // bins))
    counts = [0] * (-(-(high - low + 1) // size))
    for v in values:
        counts[(int(v) - low) // size] += 1
    width, height, left, base = 560, 180, 40, 150
    step = (width - left - 10) / len(counts)
    top = max(counts)
    out = [f'<svg width="{width}" height="{height}" role="img" aria-label="histogram of {escape(label)}">']
    for i, c in enumerate(counts):
        h = (base - 10) * c / top
        out.append(f'<rect x="{left + i * step:.1f}" y="{base - h:.1f}" width="{max(1.0, step - 2):.1f}" '
                   f'height="{h:.1f}" fill="{BAR}"><title>{low + i * size}'
                   f'{"" if size == 1 else f"-{low + i * size + size - 1}"}: {c} games</title></rect>')
    out.append(f'<line x1="{left}" y1="{base}" x2="{width - 10}" y2="{base}" stroke="#888"/>')
    out.append(f'<text x="{left}" y="{base + 16}">{low}</text>')
    out.append(f'<text x="{width - 10}" y="{base + 16}" text-anchor="end">{high}</text>')
    out.append(f'<text x="{(left + width) / 2:.0f}" y="{base + 16}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<text x="{left - 6}" y="14" text-anchor="end">{top}</text>')
    out.append("</svg>")
    return "".join(out)
