"""Per-game records of one run -> the statistics a designer reads: wins by seat and agent with 95%
intervals, first-seat advantage, stalls, game length, scores and margins, counters."""
from __future__ import annotations

import math
import statistics
from array import array

from .course import METRICS, PROPORTIONS, SHARES
from .records import seat
from .report import p_is
from .stats import distribution, mean_interval, t_test_p, wilson


class Tally:
    """What the statistics need from each game, kept compact (a million games fit in memory) and in
    game order (a comparison pairs game i of one run with game i of the other)."""

    def __init__(self, players: int, seats: list[str], counter_names: list[str]):
        self.players, self.seats = players, list(seats)
        self.counter_names = list(counter_names)
        self.games = 0
        self.wins = [bytearray() for _ in range(players)]   # 1 where the seat won or shared the win
        self.shared, self.stalled, self.tie_break = bytearray(), bytearray(), bytearray()
        self.turns, self.rounds, self.margins = array("d"), array("d"), array("d")
        self.totals = [array("d") for _ in range(players)]
        self.part_sums: list[dict] = [{} for _ in range(players)]
        self.counters = {name: array("d") for name in counter_names}
        self.reasons: dict[str, int] = {}
        self.decisions = 0
        # the course-of-game metrics (analysis/course.py), one value per game, NaN where a game gives none;
        # empty when the run did not measure them
        self.course: dict[str, array] = {}

    def add(self, record: dict) -> None:
        self.games += 1
        winners = record["winners"]
        for s in range(self.players):
            self.wins[s].append(s in winners)
        self.shared.append(len(winners) > 1)
        self.stalled.append(bool(record["stalled"]))
        self.tie_break.append(bool(record["tie_break_used"]))
        self.turns.append(record["turns"])
        self.rounds.append(record["rounds"])
        self.reasons[record["reason"]] = self.reasons.get(record["reason"], 0) + 1
        self.decisions += record["decisions"]
        totals = [row.get("total", 0) for row in record["scores"]]
        for s, row in enumerate(record["scores"]):
            self.totals[s].append(totals[s])
            for part, value in row.items():
                if part != "total" and isinstance(value, (int, float)) and not isinstance(value, bool):
                    self.part_sums[s][part] = self.part_sums[s].get(part, 0) + value
        if self.players > 1:
            top = sorted(totals, reverse=True)
            self.margins.append(top[0] - top[1])
        for name in self.counter_names:
            self.counters[name].append(record["counters"].get(name, 0))
        metrics = record.get("metrics")
        if metrics is not None:
            for name in METRICS:
                value = metrics.get(name)
                self.course.setdefault(name, array("d")).append(math.nan if value is None else value)

    def first_seat_excess(self) -> list[float]:
        """Per game: whether P1 won, minus the share of seats that won (0 on average when seats are even).

        Subtracting the game's own share of winners keeps shared wins and stalled games from
        looking like an advantage."""
        n = self.players
        return [self.wins[0][g] - sum(self.wins[s][g] for s in range(n)) / n for g in range(self.games)]


def proportion(k: int, n: int) -> dict:
    """A count out of n with its rate and 95% Wilson interval."""
    interval = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "rate_95": list(interval) if interval else None}


def summarise(tally: Tally, meta: dict) -> dict:
    """The statistics of one run; `meta` names it (ruleset, players, seed, params, timing)."""
    g, n = tally.games, tally.players
    seats = []
    for s in range(n):
        won = sum(tally.wins[s])
        interval = wilson(won, g)
        seats.append({
            "seat": seat(s), "agent": tally.seats[s], "wins": won, "win_rate": won / g if g else 0.0,
            "win_rate_95": list(interval) if interval else None,
            "score": distribution(tally.totals[s]),
            "score_parts": {k: v / g for k, v in tally.part_sums[s].items()} if g else {},
        })
    by_agent: dict[str, dict] = {}
    for s, name in enumerate(tally.seats):
        entry = by_agent.setdefault(name, {"seats": 0, "wins": 0})
        entry["seats"] += 1
        entry["wins"] += seats[s]["wins"]
    for entry in by_agent.values():
        # seat-games: one agent at two seats of a game counts twice (not independent, so a little optimistic)
        interval = wilson(entry["wins"], entry["seats"] * g)
        entry["win_rate"] = entry["wins"] / (entry["seats"] * g) if g else 0.0
        entry["win_rate_95"] = list(interval) if interval else None
    total_rounds = sum(tally.rounds)
    out = dict(meta)
    out.update({
        "games": g,
        "agents": tally.seats,
        "seats": seats,
        "wins_per_seat": {x["seat"]: x["wins"] for x in seats},
        "wins_per_agent": by_agent,
        "first_seat": first_seat(tally),
        "shared_wins": sum(tally.shared), "shared": proportion(sum(tally.shared), g),
        "stalled": sum(tally.stalled), "stalls": proportion(sum(tally.stalled), g),
        "tie_breaks_used": sum(tally.tie_break),
        "end_reasons": dict(sorted(tally.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "turns": distribution(tally.turns),
        "rounds": distribution(tally.rounds),
        "margin": distribution(tally.margins),
        "counters": {name: {"per_game": distribution(values),
                            "per_round": sum(values) / total_rounds if total_rounds else 0.0}
                     for name, values in tally.counters.items()},
        "decisions": tally.decisions,
    })
    if tally.course:
        out["course"] = course_summary(tally)
    if "seconds" in meta:   # a side of a comparison is timed with the other side
        seconds = meta["seconds"]
        out["games_per_second"] = g / seconds if seconds > 0 else 0.0
        out["decisions_per_second"] = tally.decisions / seconds if seconds > 0 else 0.0
    return out


def course_summary(tally: Tally) -> dict:
    """Each course-of-game metric over the games that give it: its mean with a 95% t interval cut to the
    metric's range (a rate with Wilson's for the 0/1 ones) and its spread; None for a metric no game gave
    (no score parts, no winner)."""
    out = {}
    for name in METRICS:
        values = [v for v in tally.course.get(name, ()) if not math.isnan(v)]
        if not values:
            out[name] = None
            continue
        if name in PROPORTIONS:
            entry = proportion(int(sum(values)), len(values))
            entry["games"] = len(values)
        else:
            interval = mean_interval(values)
            if interval is not None:   # within what the metric can be: never below 0, a share never above 1
                high = 1.0 if name in SHARES else math.inf
                interval = (max(0.0, interval[0]), min(high, interval[1]))
            entry = {"games": len(values), "mean": statistics.fmean(values),
                     "mean_95": list(interval) if interval else None, "spread": distribution(values)}
        out[name] = entry
    return out


def first_seat(tally: Tally) -> dict | None:
    """P1's win rate against an even share, the advantage in points with its 95% interval, and a verdict."""
    if tally.players < 2 or not tally.games:
        return None
    excess = tally.first_seat_excess()
    advantage = statistics.fmean(excess)
    interval = mean_interval(excess)
    p = None
    if interval is not None:
        p = t_test_p(advantage, statistics.stdev(excess) / math.sqrt(len(excess)), len(excess) - 1)
    rate = sum(tally.wins[0]) / tally.games
    return {"win_rate": rate, "even_share": rate - advantage, "advantage": advantage,
            "advantage_95": list(interval) if interval else None, "p": p,
            "verdict": first_seat_verdict(advantage, interval, p)}


def first_seat_verdict(advantage: float, interval, p: float | None = None) -> str:
    """The first-seat advantage in plain words: which way, or plainly that the interval includes 0; and
    where the evidence is weak (0.01 <= p < 0.05), that even seats often look like that."""
    if interval is None:
        return "too few games to say whether the first seat has an advantage"
    span = f"{_pts(advantage)} points (95% interval {_pts(interval[0])} to {_pts(interval[1])}"
    span += f", {p_is(p)})" if p is not None else ")"
    weak = ("; weak evidence: even seats would look this uneven in more than 1 run in 100, so confirm it "
            "with more games" if p is not None and p >= 0.01 else "")
    if interval[0] > 0:
        return f"P1 wins more often than an even share: {span}{weak}"
    if interval[1] < 0:
        return f"P1 wins less often than an even share: {span}{weak}"
    return (f"no detectable first-seat advantage at this sample size: {span}; the interval includes 0, "
            "so the seats may well be even")


def _pts(x: float) -> str:
    """A difference of proportions in percentage points."""
    return f"{100 * x:+.1f}"
