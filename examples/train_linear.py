"""Train an agent on a bundled ruleset and show, with 95% intervals, that it beats random play.

A linear softmax policy over the environment's observation vector (numpy only, no GPU), trained by
REINFORCE with a linear baseline (policy gradient, Williams 1992) in the Gymnasium environment of one seat
against rulebook's `random` bot; the learner's seat is drawn anew each game. Then the trained policy and an
untrained one (uniform over the legal actions) play the same fresh deals against the same bot, and their win
rates are compared with Wilson intervals and Newcombe's paired interval (interpreter/analysis/stats.py).

    pip install -e '.[rl]'
    python examples/train_linear.py                  # CuBirds, 2 players, 1,500 training games, 500 to judge
    python examples/train_linear.py --ruleset lanterns --episodes 3000

docs/rl.md gives the run time and the result of the first command.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.analysis.stats import paired_proportion_difference, wilson  # noqa: E402
from interpreter.envs import rulebook_gym  # noqa: E402


class LinearPolicy:
    """Action preferences W·x over the legal actions (x: the signed log of the observation vector, and 1)."""

    def __init__(self, actions: int, size: int, rate: float, seed: int):
        self.w = np.zeros((actions, size + 1))
        self.v = np.zeros(size + 1)          # the baseline: a linear guess of the final reward
        self.rate = rate
        self.rng = np.random.default_rng(seed)

    @staticmethod
    def features(obs) -> np.ndarray:
        x = obs["observation"]
        return np.append(np.sign(x) * np.log1p(np.abs(x)), 1.0)   # counts and scores on one scale

    def act(self, obs):
        """An action drawn from the softmax of the legal actions' preferences, and what learning needs of it."""
        x = self.features(obs)
        legal = np.flatnonzero(obs["action_mask"])
        z = self.w[legal] @ x
        p = np.exp(z - z.max())
        p /= p.sum()
        k = self.rng.choice(len(legal), p=p)
        return int(legal[k]), (x, legal, p, k)

    def learn(self, steps, reward: float) -> None:
        """REINFORCE: move each choice's log-probability by (reward - baseline), step sizes scaled by |x|²."""
        for x, legal, p, k in steps:
            scale = 1.0 / (x @ x)
            advantage = reward - self.v @ x
            self.v += 0.05 * advantage * x * scale
            grad = -p
            grad[k] += 1.0
            self.w[legal] += self.rate * advantage * scale * np.outer(grad, x)


class Uniform:
    """The untrained agent: any legal action, alike."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def act(self, obs):
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[self.rng.integers(len(legal))]), None


def play(env, agent, seed: int, learn: bool = False) -> bool:
    """One game from `seed`; whether the agent's seat won (alone or shared)."""
    obs, _ = env.reset(seed=seed)
    steps, done, reward = [], False, 0.0
    while not done:
        action, memo = agent.act(obs)
        steps.append(memo)
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    if learn:
        agent.learn(steps, reward)
    return reward > 0


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="cubirds")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=1500, help="training games")
    parser.add_argument("--eval", type=int, default=500, help="games to judge the trained and untrained agents")
    parser.add_argument("--rate", type=float, default=0.1, help="learning rate")
    parser.add_argument("--opponents", default="random", help="the bots at the other seats (an agent spec)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = rulebook_gym(args.ruleset, args.players, opponents=args.opponents, seat="random", labels=False)
    size = env.observation_space["observation"].shape[0]
    print(f"{args.ruleset}, {args.players} players, against {args.opponents}: {env.action_space.n} actions, "
          f"observations of {size} numbers")
    policy = LinearPolicy(env.action_space.n, size, args.rate, args.seed)
    start = time.perf_counter()
    won = []
    for episode in range(args.episodes):
        won.append(play(env, policy, args.seed + episode, learn=True))
        if (episode + 1) % 500 == 0 or episode + 1 == args.episodes:
            recent = won[-500:]
            print(f"  trained on {episode + 1:,} games: won {percent(np.mean(recent))} of the last {len(recent)} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    # fresh deals, the same for both agents, never seen in training
    seeds = range(10 ** 6 + args.seed, 10 ** 6 + args.seed + args.eval)
    trained = [play(env, policy, s) for s in seeds]
    untrained = [play(env, Uniform(args.seed), s) for s in seeds]
    n = len(seeds)
    for name, results in (("trained", trained), ("untrained", untrained)):
        low, high = wilson(sum(results), n)
        print(f"{name:>9}: won {sum(results)} of {n} games, {percent(sum(results) / n)} "
              f"(95% interval {percent(low)} to {percent(high)})")
    diff = paired_proportion_difference(untrained, trained)
    low, high = diff["interval"]
    verdict = "beats" if low > 0 else "does not beat, beyond doubt,"
    print(f"the trained agent {verdict} the untrained one: {100 * diff['difference']:+.1f} points "
          f"(95% interval {100 * low:+.1f} to {100 * high:+.1f}) on the same deals")
    print(f"in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
