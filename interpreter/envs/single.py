"""A ruleset, a seat and bots for the other seats -> a Gymnasium environment for one learning agent."""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import Request, agent_problem, checked, make_agent, parse_spec
from ..agents.human import render_view
from ..errors import GameError
from .aec import ILLEGAL
from .session import IllegalAction, Session


class RulebookGymEnv(gymnasium.Env):
    """One seat of a ruleset for a learning agent; rulebook's own bots play the others (docs/rl.md).

    `opponents`: an agent spec for every other seat ("greedy", "random", "mcts:iterations=50") or a list of
    them, one per other seat in seat order. `seat`: the learner's seat, or "random" for a new one each
    episode. Observations and actions are those of the PettingZoo environment (a dict of the vector and the
    action mask; Discrete(N)); `action_masks()` gives the mask too (sb3-contrib's MaskablePPO reads it). The
    reward comes at the end: the learner's share of the win (or its margin, `reward="margin"`). A stalled
    game (the ruleset's turn limit) or `max_steps` of the learner's decisions is truncated with reward 0.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, rules, players: int, seat="random", opponents="greedy", params: dict | None = None,
                 reward: str = "win", illegal: str = "raise", illegal_reward: float = -1.0,
                 max_steps: int | None = None, labels: bool = True, render_mode: str | None = None):
        if illegal not in ILLEGAL:
            raise GameError(f"illegal is one of {', '.join(ILLEGAL)}, not {illegal!r:.40}", "illegal")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GameError(f"render_mode is one of ansi, human or None, not {render_mode!r:.40}", "render")
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise GameError(f"max_steps is a whole number from 1, or None, not {max_steps!r:.40}", "max-steps")
        self.session = Session(rules, players, params, reward, labels)
        self.rules = rules
        if seat != "random" and (type(seat) is not int or not 0 <= seat < players):
            raise GameError(f"seat is 0 to {players - 1} or \"random\", not {seat!r:.40}", "seat")
        self.seat_choice = seat
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise GameError(f"opponents names {len(specs)} agents for {players - 1} other seats", "agent")
        self.specs = [parse_spec(s) for s in specs]
        for spec in self.specs:
            if spec.name == "human":
                raise GameError("a human cannot sit at a learning environment's table: name a bot", "agent")
            problem = agent_problem(spec, rules)
            if problem:
                raise GameError(problem, "agent")
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.max_steps, self.render_mode = max_steps, render_mode
        low, high = self.session.observer.low_high()
        n = self.session.size
        self.observation_space = spaces.Dict({"observation": spaces.Box(low, high, dtype=np.float32),
                                              "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)})
        self.action_space = spaces.Discrete(n)
        self.seat = 0
        self.bots = {}
        self.steps = 0

    def describe(self, action: int) -> str:
        return self.session.actions.describe(action)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2 ** 31))
        n = self.session.players
        self.seat = int(self.np_random.integers(n)) if self.seat_choice == "random" else self.seat_choice
        others = [p for p in range(n) if p != self.seat]
        # each bot seeded from the game's seed and its seat: an episode is reproduced by its seed
        self.bots = {p: make_agent(spec, seed=game_seed * 31 + p) for p, spec in zip(others, self.specs)}
        self.session.start(game_seed)
        self.steps = 0
        self._bots_play()
        return self.session.observation(self.seat), self._info()

    def step(self, action):
        session = self.session
        index = session.check(action)
        if not session.apply(index):
            message = session.why_illegal(index)
            if self.illegal == "raise":
                raise IllegalAction(message)
            return session.observation(self.seat), self.illegal_reward, True, False, {"illegal": message}
        self.steps += 1
        self._bots_play()
        reward, terminated, truncated = 0.0, False, False
        if session.over:
            reward = session.rewards()[self.seat]
            truncated = bool(session.result["stalled"])
            terminated = not truncated
        elif self.max_steps is not None and self.steps >= self.max_steps:
            truncated = True
        return session.observation(self.seat), reward, terminated, truncated, self._info()

    def _bots_play(self) -> None:
        """The bots choose until the learner is asked or the game is over."""
        session = self.session
        while not session.over and session.chooser != self.seat:
            p = session.chooser
            bot = self.bots[p]
            choice = checked(bot.choose(Request(session.game, p)), session.game, bot)
            session.apply_option(choice)

    def _info(self) -> dict:
        info = self.session.info()
        info["seat"] = self.seat
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for sb3-contrib's MaskablePPO)."""
        return self.session.mask(self.seat).astype(bool)

    def render(self):
        if self.render_mode is None:
            return None
        text = render_view(self.session.game.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text
