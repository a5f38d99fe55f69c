"""The greedy agent: a Request -> the option whose position one step ahead scores best, in worlds dealt
from what its player may see (the ruleset's `agents: evaluate`, else its score parts)."""
from __future__ import annotations

import random

from ..engine.lookahead import AUTO_HISTORY, BELIEFS, REPLIES
from ..errors import GameError
from .base import Agent, Option, Request


BELIEF_HELP = (f"where worlds come from: history (replayed along the game so far, consistent with all the player "
               f"saw: a host who avoided the car, chips set by a hidden choice), view (dealt from what it sees "
               f"now), auto: history while the game is at most {AUTO_HISTORY} choices old, in a ruleset where "
               f"worlds dealt from the view are known to mislead (values only their owner sees, random draws "
               f"in actions), else view; peek: sees every card and value, a cheat for measuring what hidden "
               f"information is worth (docs/agents.md), never to be taken for an honest bot")


class GreedyAgent(Agent):
    """One step of lookahead: the option whose result scores best for its player (ties broken at random;
    with more than `trials` options, a random sample of that many is tried), in a world where the cards
    it cannot see are dealt again at random (`worlds` such worlds, values averaged).

    A position is scored by the ruleset's `agents: evaluate`; without one, by the score parts (the
    player's total minus the best total of the others). A ruleset with neither cannot be played greedily."""

    name = "greedy"
    OPTIONS = {
        "trials": Option(int, 8, "at most this many options are tried (a random sample when there are more)", 1),
        "worlds": Option(int, 1, "worlds dealt from what the player may see; an option's value is its mean "
                         "over them", 1),
        "by": Option(("auto", "evaluate", "score"), "auto", "what scores a position: the ruleset's "
                     "'agents: evaluate', the score (own total minus the best other), or auto: evaluate "
                     "where the ruleset declares it, else the score"),
        "belief": Option(BELIEFS, "view", BELIEF_HELP + " (greedy is the quick bot: view by default)"),
        "replies": Option(int, REPLIES, "at a decision several players make at once inside the rules (a secret "
                          "bet), each option is tried against this many random choices of the others, the same "
                          "for every option (0: they pass, as if the player decided alone)", 0),
    }

    def __init__(self, seed: int = 0, trials: int = 8, worlds: int = 1, by: str = "auto", belief: str = "view",
                 replies: int = REPLIES):
        self.rng = random.Random(seed)
        self.trials, self.worlds, self.by, self.belief = trials, worlds, by, belief
        self.replies = replies

    def choose(self, request: Request) -> int:
        if request.count == 1:
            return 0
        if not request.has_evaluation(self.by):
            raise GameError("the greedy agent needs a way to score a position: this ruleset has neither "
                            "'agents: evaluate' nor score parts", "agent")
        if self.worlds == 1:
            values = request.option_values(self.rng, self.trials, self.by, self.belief, self.replies)
        else:
            sums: dict = {}
            for _ in range(self.worlds):
                for i, v in request.option_values(self.rng, self.trials, self.by, self.belief, self.replies).items():
                    total, k = sums.get(i, (0, 0))
                    sums[i] = (total + v, k + 1)
            values = {i: total / k for i, (total, k) in sums.items()}
        if not values:   # no trial could be played on in its world: nothing to prefer
            return self.rng.randrange(request.count)
        best = max(values.values())
        return self.rng.choice([i for i, v in values.items() if v == best])
