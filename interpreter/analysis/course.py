"""The course of a game: a position before every turn or decision (who decides, how many options, the score
totals, a searching bot's estimate) -> the per-decision rows of `--course` and the metrics a designer
reads over the course of games: lead changes, drama, comebacks, when the outcome settled, uncertainty,
branching factor and the share of forced decisions (docs/simulation.md defines each, with its source).

Everything here works on plain data, so that the metrics can be checked on sequences written by hand."""
from __future__ import annotations

from ..errors import GameError
from .records import seat

# the metrics of one game, in the order reports show them, each with its words for a designer and its kind:
# a count or points (a mean), a rate (0 or 1 per game: a proportion with a Wilson interval) or a share (0 to
# 1 per game); each is a number per game, None where the game cannot give one (no score parts, no decision)
MEASURES = {
    "lead_changes": ("lead changes per game", "count"),
    "drama": ("drama: points the winner trailed, when behind", "points"),
    "comeback": ("comebacks: the winner trailed in the second half", "rate"),
    "settled": ("settled: share of the game before the winner led for good", "share"),
    "uncertainty": ("uncertainty: chance the leader is not the winner", "share"),
    "branching": ("branching factor: options per decision", "count"),
    "forced": ("forced decisions: a single option", "share"),
    "estimate_uncertainty": ("the bots' uncertainty: 1 - |2 chance - 1|", "share"),
}
METRICS = tuple(MEASURES)
PROPORTIONS = frozenset(m for m, (_, kind) in MEASURES.items() if kind == "rate")
SHARES = frozenset(m for m, (_, kind) in MEASURES.items() if kind == "share")


class Course:
    """The positions of one game as it is played: `observe` before each decision, `close` at the end."""

    def __init__(self, rules, players: int, rows: bool):
        self.rules, self.players, self.keep_rows = rules, players, rows
        self.scored = bool(rules.scoring.parts)
        self.totals: list[list] = []     # per position: each seat's score total (None: could not be scored)
        self.options: list[int] = []     # per decision: how many options its chooser had
        self.estimates: list = []        # per decision: the chooser's bot's estimate (None: none given)
        self.rows: list[dict] = []
        self.turn = None                 # the turn of the last position scored

    def observe(self, game, who: int, count: int, estimate=None) -> None:
        """The position before a decision of `who` among `count` options; `estimate` the chance to win
        the chooser's bot gave the option it took (after choosing), when it gives one."""
        g = game.state
        # the lead is read once a turn, at its first decision (scoring every decision would cost more than
        # random play itself); the rows of --course-out score every decision, and the metrics stay the same
        parts = None
        turn_starts = g.turn != self.turn
        if self.keep_rows or turn_starts:
            parts = self._scores(game)
        if turn_starts:
            self.turn = g.turn
            self.totals.append(None if parts is None else [row["total"] for row in parts])
        self.options.append(count)
        self.estimates.append(estimate)
        if self.keep_rows:
            row = {"decision": len(self.options) - 1, "turn": g.turn, "round": g.round,
                   "player": seat(who), "options": count, "estimate": estimate}
            for i, scores in enumerate(parts or ()):
                for part, value in scores.items():
                    row[f"score_{seat(i)}_{part}"] = value
            self.rows.append(row)

    def close(self, result: dict) -> None:
        """The final position: the result's scores."""
        self.totals.append([row.get("total", 0) for row in result["scores"]] if self.scored else None)

    def metrics(self, winners: list) -> dict:
        return game_metrics(self.totals if self.scored else None, self.options, self.estimates, winners,
                            self.players)

    def _scores(self, game):
        if not self.scored:
            return None
        try:
            return self.rules.scoring.score(game, game.state)
        except GameError:   # a part that cannot be computed in the middle of a game (it is at the end)
            return None


def column_names(score_parts: list[str], players: int) -> list[str]:
    """The columns of the --course rows, in order."""
    cols = ["ruleset", "game", "seed", "decision", "turn", "round", "player", "options", "estimate"]
    return cols + [f"score_{seat(i)}_{part}" for i in range(players) for part in score_parts]


def leaders(totals: list) -> list[int]:
    best = max(totals)
    return [p for p, t in enumerate(totals) if t == best]


def game_metrics(positions, options: list[int], estimates: list, winners: list, players: int) -> dict:
    """One game's metrics from its positions' score totals (None: the ruleset has no score parts), the
    options of every decision, the bots' estimates and the winners.

    - lead_changes: how often the sole leader became another player (ties in between are skipped).
    - drama: over the positions where the eventual (sole) winner was not leading, the mean of how many
      points it trailed the leader; 0 when it never trailed.
    - comeback: 1 when the eventual winner trailed the leader at some position of the game's second half.
    - settled: the share of the game played before the eventual sole winner took the lead for good (0: it
      led alone from the first position on; 1: it led alone only at the end, or never, as when a
      tie-breaker decided).
    - uncertainty: the mean over positions of the chance that the current leader is not the eventual
      winner (the leader is the winner: 0; a winner is one of k tied leaders: 1 - 1/k; else 1).

    drama, comeback and settled need a sole winner, uncertainty a winner; a game without is left out of
    them (None).
    - branching: the mean number of options per decision.
    - forced: the share of decisions with a single option.
    - estimate_uncertainty: over the decisions where a searching bot gave its chance to win v, the mean of
      1 - |2v - 1| (1: a coin flip; 0: sure either way).
    """
    out = dict.fromkeys(METRICS)
    if options:
        out["branching"] = sum(options) / len(options)
        out["forced"] = sum(1 for k in options if k == 1) / len(options)
    given = [v for v in estimates if isinstance(v, (int, float))]
    if given:
        out["estimate_uncertainty"] = sum(1 - abs(2 * min(1.0, max(0.0, v)) - 1) for v in given) / len(given)
    points = [t for t in (positions or ()) if t is not None]
    if len(points) < 2 or players < 2:
        return out
    sole = winners[0] if len(winners) == 1 else None
    changes, last = 0, None
    behind: list[float] = []
    unsure = 0.0
    half = len(points) / 2    # positions from here on are the second half
    comeback = 0
    settled_at = None        # the first position from which the sole winner leads alone to the end
    for k, totals in enumerate(points):
        top = leaders(totals)
        if len(top) == 1:
            if last is not None and top[0] != last:
                changes += 1
            last = top[0]
        if sole is not None and len(top) == 1 and top[0] == sole:
            if settled_at is None:
                settled_at = k
        else:
            settled_at = None
        if sole is not None and sole not in top:
            behind.append(max(totals) - totals[sole])
            if k >= half:
                comeback = 1
        unsure += 1.0 - (1.0 / len(top) if any(w in top for w in winners) else 0.0)
    out["lead_changes"] = changes
    if winners:
        out["uncertainty"] = unsure / len(points)
    if sole is not None:
        out["drama"] = sum(behind) / len(behind) if behind else 0.0
        out["comeback"] = comeback
        out["settled"] = 1.0 if settled_at is None else settled_at / (len(points) - 1)
    return out
