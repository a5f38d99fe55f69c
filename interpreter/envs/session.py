"""A ruleset's game as the environments drive it: a seed -> decisions by action index, each seat's observation
(from its view only), the option labels, and the rewards of the result."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..engine.game import Game
from ..errors import GameError, IllegalChoice
from .actions import ActionLayout
from .observe import ObservationLayout

REWARDS = ("win", "margin")


class IllegalAction(IllegalChoice):
    """An action index that is not legal now (or not an action at all); the game is left unchanged."""


class Labels(Mapping):
    """Each legal action's label (as Game.decision gives it), and the decision's `prompt`: made when first
    read, from a copy of the game taken at the decision (making every label at every step would be most of
    a step's time, and a training loop seldom reads them)."""

    __slots__ = ("_game", "_positions", "_labels", "_prompt")

    def __init__(self, game, positions: dict):
        self._game, self._positions = game.clone(), positions
        self._labels, self._prompt = None, None

    def _made(self) -> dict:
        if self._labels is None:
            d = self._game.decision
            self._labels = {i: d.options[p] for i, p in sorted(self._positions.items())}
            self._prompt, self._game = d.prompt, None
        return self._labels

    @property
    def prompt(self) -> str:
        self._made()
        return self._prompt

    def __getitem__(self, index):
        return self._made()[index]

    def __iter__(self):
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._positions)

    def __repr__(self) -> str:
        return repr(self._made())


class Session:
    """One game at a time of a ruleset at a player count: `start(seed)`, then `apply(index)` until `over`."""

    def __init__(self, rules, players: int, params: dict | None = None, reward: str = "win", labels: bool = True):
        if type(players) is not int or not rules.min_players <= players <= rules.max_players:
            raise GameError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
                            f"not {players!r:.40}", "player-count")
        if reward not in REWARDS:
            raise GameError(f"reward is one of {', '.join(REWARDS)}, not {reward!r:.40}", "reward")
        if params is not None and not isinstance(params, dict):
            raise GameError(f"params must be a map of parameter names to values, not {params!r:.40}", "parameter")
        self.rules, self.players, self.reward, self.labels = rules, players, reward, labels
        self.given = dict(params or {})
        self.params = rules.resolve_params(players, self.given)   # a bad name or value is refused here
        self.actions = ActionLayout(rules, players, self.params)
        self.observer = ObservationLayout(rules, players, self.params, self.actions.points)
        self.size = self.actions.size
        self.game = None
        self.encoded = None
        self._views, self._observations = {}, {}
        self._none = np.zeros(self.size, np.int8)

    # the game ------------------------------------------------------------------------------------------
    def start(self, seed: int) -> None:
        self.game = Game.new(self.rules, self.players, seed=seed, params=self.given, record=False)
        self._asked()

    def _asked(self) -> None:
        """A new decision (or the end): what was computed for the last one is gone."""
        self._views.clear()
        self._observations.clear()
        self.encoded = None if self.game.state.pending is None else self.actions.encode(self.game)

    @property
    def over(self) -> bool:
        return self.game.state.result is not None

    @property
    def result(self) -> dict | None:
        return self.game.state.result

    @property
    def chooser(self) -> int | None:
        """The seat asked now, or None at the end."""
        return None if self.encoded is None else int(self.encoded.player)

    def legal(self) -> list:
        """The legal action indexes now, in order."""
        return sorted(self.encoded.positions) if self.encoded is not None else []

    def check(self, action) -> int:
        """An action as an index of the action space, or IllegalAction."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(f"an action is a whole number from 0 to {self.size - 1}, not {action!r:.40}")
        index = int(action)
        if not 0 <= index < self.size:
            raise IllegalAction(f"there is no action {index}: the actions are 0 to {self.size - 1}")
        return index

    def why_illegal(self, index: int) -> str:
        """The message for an index that is not legal now."""
        legal = self.legal()
        shown = ", ".join(str(i) for i in legal[:12]) + (", ..." if len(legal) > 12 else "")
        who = f"P{self.chooser + 1}" if self.chooser is not None else "nobody (the game is over)"
        return (f"action {index} ({self.actions.describe(index)}) is not legal now for {who}; "
                f"the legal actions are {shown}")

    def apply(self, index: int) -> bool:
        """Take action `index` for the seat asked; false (and nothing changed) when it is not legal now."""
        position = self.encoded.positions.get(index) if self.encoded is not None else None
        if position is None:
            return False
        self.apply_option(position)
        return True

    def apply_option(self, position: int) -> None:
        """Take the engine's option number `position` (the bots' answers)."""
        try:
            self.game.apply(position)
        finally:
            self._asked()   # a refused option changes nothing, but the decision is read again all the same

    # what a seat sees ----------------------------------------------------------------------------------
    def view(self, seat: int) -> dict:
        """What `seat` may see now (Game.view, cards as ids)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self.game.view(seat, ids=True)
        return found

    def mask(self, seat: int) -> np.ndarray:
        if self.encoded is None or seat != self.encoded.player:
            return self._none.copy()
        mask = np.zeros(self.size, np.int8)
        mask[list(self.encoded.positions)] = 1
        return mask

    def observation(self, seat: int) -> dict:
        """{"observation": the vector of `seat`'s view, "action_mask": its legal actions (all 0 unless asked)}."""
        found = self._observations.get(seat)
        if found is None:
            asked = self.encoded is not None and seat == self.encoded.player
            point = self.actions.point(self.game) if asked else -1
            picked = ()
            if asked and self.observer.picks:
                picking = self.actions.picking(self.game)
                picked = self.game.state.stack[-1][4]["picked"] if picking is not None else ()
            vector = self.observer.vector(self.view(seat), seat, point, picked)
            found = self._observations[seat] = (vector, self.mask(seat))
        # new arrays at every call: whoever keeps an observation keeps it as it was
        return {"observation": found[0].copy(), "action_mask": found[1].copy()}

    def info(self) -> dict:
        """What the seat asked is told beside its observation: the prompt, each legal action's label, its view."""
        if self.encoded is None:
            return {"result": self.result}
        seat = self.chooser
        out = {"player": f"P{seat + 1}"}
        if self.labels:
            out["labels"] = Labels(self.game, self.encoded.positions)
        out["view"] = self.view(seat)
        return out

    # the result ------------------------------------------------------------------------------------------
    def rewards(self) -> list:
        """Each seat's reward for the result: 1/k for each of k winners, else 0 (`win`); or its total score
        minus the best total of the others (`margin`). A stalled game (its turn limit) gives 0 to everyone."""
        result = self.result
        if result is None or result["stalled"]:
            return [0.0] * self.players
        if self.reward == "margin":
            totals = [row.get("total", 0) for row in result["scores"]]
            return [float(t - max(totals[:p] + totals[p + 1:], default=0)) for p, t in enumerate(totals)]
        winners = result["winners"]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]
