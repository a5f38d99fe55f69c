"""A ruleset -> a PettingZoo AEC environment: each seat an agent, one action index per decision, observations
from each seat's view with an action mask, rewards from the result at the end."""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..agents.human import render_view
from ..errors import GameError
from ..runtime.values import seat_name
from .session import IllegalAction, Session

ILLEGAL = ("raise", "penalty")


class RulebookEnv(AECEnv):
    """Any ruleset as a PettingZoo AEC environment (docs/rl.md).

    Agents are `player_0` ... `player_{n-1}` (seat order); the agent asked now is `agent_selection`, several
    times in a row when the rules ask it so. An action is an index of `Discrete(N)`, N fixed for the ruleset
    and player count (`describe(i)` says what index i means). An illegal action raises IllegalAction and
    changes nothing (`illegal="raise"`), or ends the game with `illegal_reward` for its agent and 0 for the
    others (`illegal="penalty"`, as PettingZoo's TerminateIllegalWrapper). A game that reaches the ruleset's
    turn limit (a stalled draw) or `max_steps` is truncated, with reward 0 for everyone.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, rules, players: int, params: dict | None = None, reward: str = "win",
                 illegal: str = "raise", illegal_reward: float = -1.0, max_steps: int | None = None,
                 labels: bool = True, render_mode: str | None = None):
        super().__init__()
        if illegal not in ILLEGAL:
            raise GameError(f"illegal is one of {', '.join(ILLEGAL)}, not {illegal!r:.40}", "illegal")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GameError(f"render_mode is one of ansi, human or None, not {render_mode!r:.40}", "render")
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise GameError(f"max_steps is a whole number from 1, or None, not {max_steps!r:.40}", "max-steps")
        self.session = Session(rules, players, params, reward, labels)
        self.rules = rules
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.max_steps, self.render_mode = max_steps, render_mode
        self.metadata = {**self.metadata, "name": f"rulebook_{rules.name}_{players}p"}
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        low, high = self.session.observer.low_high()
        n = self.session.size
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)}) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._np_random = None
        self.steps = 0

    # spaces ---------------------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def describe(self, action: int) -> str:
        """What action index `action` means, in words ("lay cards=red 3, row=1, side=left")."""
        return self.session.actions.describe(action)

    # the episode ----------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: seeded by `seed`, or by a number drawn from the generator the last seed started."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(seed) if seed is not None else int(self._np_random.integers(2 ** 31))
        self.session.start(game_seed)
        self.agents = self.possible_agents[:]
        self.agent_selection = self.agents[0]   # the agent asked first, unless the game is over at once
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self._next()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        session = self.session
        index = session.check(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if not session.apply(index):
            message = session.why_illegal(index)
            if self.illegal == "raise":
                raise IllegalAction(message)
            self.rewards[agent] = self.illegal_reward
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {}
            self.infos[agent] = {"illegal": message}
            self._accumulate_rewards()
            return
        self.steps += 1
        self._next()
        self._accumulate_rewards()

    def _next(self) -> None:
        """After a choice: the agent asked next and its info, or the end and its rewards."""
        session = self.session
        if session.over:
            stalled = session.result["stalled"]
            for a, r in zip(self.possible_agents, session.rewards()):
                if a in self.rewards:
                    self.rewards[a] = r
            for a in self.agents:
                (self.truncations if stalled else self.terminations)[a] = True
                self.infos[a] = {"result": session.result}
            return
        for a in self.agents:
            if self.infos[a]:
                self.infos[a] = {}
        self.agent_selection = self.possible_agents[session.chooser]
        if self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"truncated": f"max_steps ({self.max_steps}) reached"}
            return
        self.infos[self.agent_selection] = session.info()

    # what an agent sees -----------------------------------------------------------------------------------
    def observe(self, agent) -> dict:
        return self.session.observation(self.agent_name_mapping[agent])

    def view(self, agent) -> dict:
        """What `agent` may see now, as Game.view gives it (cards as ids; `rules.card_labels` names them)."""
        return self.session.view(self.agent_name_mapping[agent])

    def render(self):
        """The table as an onlooker sees it (what every player may see), and who is asked what."""
        if self.render_mode is None:
            return None
        game = self.session.game
        text = render_view(game.view(None)).replace("(you are None)", "(as every player sees it)", 1)
        if not self.session.over:
            d = game.decision
            text += f"\n{seat_name(d.player)} to choose: {d.prompt}"
        else:
            result = self.session.result
            text += f"\nover: {result['reason']}; winners: " + (", ".join(f"P{w + 1}" for w in result["winners"]) or "none")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
