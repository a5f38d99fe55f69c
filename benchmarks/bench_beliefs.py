"""Benchmark: what the bots believe about hidden information, on the small games of tests/hidden/.

Run: python benchmarks/bench_beliefs.py [--games N] [--agents mcts,mcts:belief=view,...]

For each agent, seeded games (seed i for game i, the agent's seed AGENT_SEED + i):

- Monty Hall (1 player): how often it switches after the host opened a door, and how often it wins
  (honest best: always switch, win 2/3);
- Guess a secret number: the agent guesses against `first`, which always thinks of 3 while the hidden
  number starts at 1 (the chips paid tell it: a bot that believes the history wins every game);
- Guess a hidden card: the agent takes one of two face-down cards (any honest player wins half).

Rates are printed with their 95% Wilson intervals, and the CPU seconds per decision of the agent.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import Game, load  # noqa: E402
from interpreter.agents import Request, make_agent  # noqa: E402
from interpreter.analysis.stats import wilson  # noqa: E402

HIDDEN = ROOT / "tests" / "hidden"
# the agents' generators are seeded apart from the games': a bot seeded like the game would shuffle its
# worlds as the game shuffled its deck (both from the same sorted cards), and "guess" the real deal
AGENT_SEED = 100_003


def rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:5.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def monty(spec: str, games: int):
    rules = load(str(HIDDEN / "monty-hall.yaml"))
    switched = won = decisions = 0
    cpu = 0.0
    for seed in range(games):
        game = Game.new(rules, 1, seed=seed, record=False)
        agent = make_agent(spec, AGENT_SEED + seed)
        while not game.is_over:
            labels = game.decision.options
            start = time.process_time()
            choice = agent.choose(Request(game, 0))
            cpu += time.process_time() - start
            decisions += 1
            switched += labels[choice] == "switch"
            game.apply(choice)
        won += 0 in game.result["winners"]
    return f"switches {rate(switched, games)}, wins {rate(won, games)}", cpu / decisions


def timed(spec: str, seed: int, game, seat: int):
    """One decision of a fresh agent -> (its choice, the CPU seconds it took)."""
    start = time.process_time()
    choice = make_agent(spec, AGENT_SEED + seed).choose(Request(game, seat))
    return choice, time.process_time() - start


def secret(spec: str, games: int):
    rules = load(str(HIDDEN / "guess-secret.yaml"))
    won, cpu = 0, 0.0
    for seed in range(games):
        game = Game.new(rules, 2, seed=seed, record=False)
        hider = make_agent("first", AGENT_SEED + seed)
        while game.current_player == 0:
            game.apply(hider.choose(Request(game, 0)))
        choice, seconds = timed(spec, seed, game, 1)
        game.apply(choice)
        cpu += seconds
        won += 1 in game.result["winners"]
    return f"guesses right {rate(won, games)}", cpu / games


def card(spec: str, games: int):
    rules = load(str(HIDDEN / "guess-card.yaml"))
    won, cpu = 0, 0.0
    for seed in range(games):
        game = Game.new(rules, 2, seed=seed, record=False)
        choice, seconds = timed(spec, seed, game, 0)
        game.apply(choice)
        cpu += seconds
        won += 0 in game.result["winners"]
    return f"wins {rate(won, games)}", cpu / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--agents", default="mcts,mcts:belief=view,greedy:belief=history,greedy")
    args = parser.parse_args()
    print(f"{args.games} games per line; CPU seconds per decision of the agent")
    for name, case in (("Monty Hall", monty), ("Guess a secret number (against first)", secret),
                       ("Guess a hidden card", card)):
        print(name)
        for spec in args.agents.split(","):
            text, seconds = case(spec, args.games)
            print(f"  {spec:24} {text}   {seconds:.4f} s")


if __name__ == "__main__":
    main()
