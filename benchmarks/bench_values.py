"""Benchmark: generic position values for bots where a ruleset gives no `agents: evaluate` (issue 29, item 3).

Run: python benchmarks/bench_values.py [--game cubirds] [--games 50] [--against random] [--weight 10]

The ruleset is loaded and its `agents: evaluate` dropped, as if its author had written none; then greedy
scores positions by each of these, against `--against` (random, or greedy by the score), seats rotated,
games seeded from 1000:
- score: the score parts, own total minus the best other's (what rulebook uses);
- progress: how near the player is to a goal end (a game end whose winners are `[current]`): each
  comparison `X >= K` of its condition read for the player as X/K up to 1, `or` the best of its sides,
  `and` their mean; own progress minus the best other's;
- both: score + weight x progress.
Prints each value's share of the games won (a win shared by k counts 1/k) with its 95% Wilson interval.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load  # noqa: E402
from interpreter.agents import RandomAgent, play  # noqa: E402
from interpreter.agents.greedy import GreedyAgent  # noqa: E402
from interpreter.engine import flow as F  # noqa: E402
from interpreter.engine import lookahead as L  # noqa: E402


def _goal(rs, tree, text):
    """A condition's tree -> its parts to measure, or None where it is not made of comparisons."""
    if tree.data in ("or_op", "and_op"):
        parts = [_goal(rs, c, text) for c in tree.children]
        return None if None in parts else (tree.data, parts)
    if tree.data == "compare":
        a, op, b = tree.children
        side = lambda t: rs.expression(text[t.meta.start_pos:t.meta.end_pos])   # noqa: E731
        if str(op) in (">=", ">"):
            return ("at least", side(a), side(b), str(op) == ">")
        if str(op) in ("<=", "<"):
            return ("at least", side(b), side(a), str(op) == "<")
    return None


def _near(part, g) -> float:
    if part[0] == "at least":
        _, x, k, strict = part
        have, need = x(g, {}, None), k(g, {}, None)
        need = need + 1 if strict else need
        return min(have / need, 1.0) if type(have) is int and type(need) is int and need > 0 else 0.0
    values = [_near(p, g) for p in part[1]]
    return max(values) if part[0] == "or_op" else sum(values) / len(values)


def progress(rs):
    """(state, player) -> how near the player is to the nearest goal end, 0..1; None without one."""
    goals = []
    for node in rs.nodes:
        if type(node) is F.EndChecks:
            for cond, winners, _, _ in node.game_ends:
                if winners is not None and getattr(winners, "text", "").replace(" ", "") in ("[current]", "current"):
                    part = _goal(rs, cond.tree, cond.text)
                    if part is not None:
                        goals.append(part)
            break
    if not goals:
        return None

    def near(g, p):
        keep = g.current
        try:
            g.current = g.players[p]
            return max(_near(part, g) for part in goals)
        finally:
            g.current = keep
    return near


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.96
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="cubirds")
    ap.add_argument("--games", type=int, default=50, help="seeds; each played twice, seats swapped")
    ap.add_argument("--against", choices=("random", "score"), default="random")
    ap.add_argument("--weight", type=float, default=10.0)
    args = ap.parse_args()
    rs = load(args.game)
    rs.evaluate = None   # as if the author had written no `agents: evaluate`
    near = progress(rs)
    totals = L.evaluator(rs, "score")
    if near is None:
        print(f"{args.game}: no goal end (a game end whose winners are [current]) to measure progress toward")
    values = {"score": lambda g, p: L.lead(totals(g), p)}
    if near is not None:
        values["progress"] = lambda g, p: L.lead([near(g, q) for q in range(g.n)], p)
        values["both"] = lambda g, p: L.lead(totals(g), p) + args.weight * L.lead([near(g, q) for q in range(g.n)], p)
    real = L.position_value

    class Scored(GreedyAgent):
        """greedy scoring positions by one of the values above"""
        def __init__(self, seed, value):
            super().__init__(seed)
            self.value = value

        def choose(self, request):
            L.position_value = lambda rs_, by="auto": self.value
            try:
                return GreedyAgent.choose(self, request)
            finally:
                L.position_value = real

    print(f"{args.game}, 2 players, greedy by each value against {args.against}, {2 * args.games} games "
          f"(seeds 1000-{999 + args.games}, seats swapped)")
    for name, value in values.items():
        won = 0.0
        for seed in range(args.games):
            for seat in (0, 1):
                me = Scored(seed * 7 + 1, value)
                other = RandomAgent(seed * 7 + 2) if args.against == "random" else Scored(seed * 7 + 2, values["score"])
                game = Game.new(rs, 2, seed=1000 + seed, record=False)
                winners = play(game, [me, other] if seat == 0 else [other, me])["winners"]
                won += 1 / len(winners) if seat in winners else 0
        n = 2 * args.games
        lo, hi = wilson(won, n)
        print(f"  {name:9s} {100 * won / n:5.1f}% ({100 * lo:.1f}-{100 * hi:.1f})")


if __name__ == "__main__":
    main()
