"""What an agent is given and must answer: a decision of a game -> a Request (the player's view, the legal
options, and worlds sampled from what the player may see) -> an option index."""
from __future__ import annotations

import math

from ..errors import GameError


class Request:
    """What an agent is shown for one decision. The view and the labels are computed only when read.

    Built-in bots also use `option_values`, `sampler` and `evaluation`: each looks at the game only
    through a world in which whatever this player may not see has been dealt again at random."""

    __slots__ = ("_game", "player", "count", "_view", "_decision")

    def __init__(self, game, player: int):
        self._game = game
        self.player = player
        pending = game.state.pending
        self.count = 0 if pending is None else len(pending[2])
        self._view = None
        self._decision = None

    @property
    def view(self) -> dict:
        """Everything this player may see (see Game.view)."""
        if self._view is None:
            self._view = self._game.view(self.player)
        return self._view

    @property
    def options(self) -> tuple:
        if self._decision is None:
            self._decision = self._game.decision
        return self._decision.options

    @property
    def prompt(self) -> str:
        if self._decision is None:
            self._decision = self._game.decision
        return self._decision.prompt

    def option_values(self, rng, max_trials=None, by: str = "auto", belief: str = "view", replies: int = 0) -> dict:
        """How good each option is for this player one step ahead (see engine/lookahead.py), in a
        world where the cards this player cannot see are dealt again at random; `by` as in `evaluation`;
        `belief`: "history" for a world consistent with all the player saw (engine/belief.py), "view"
        for one dealt from what it sees now, "auto" for the first on a short history; `replies`: at a
        decision made at once, how many random answers of the others each option is tried against (0:
        they pass)."""
        from ..engine.lookahead import MAX_TRIALS, option_values, position_value
        return option_values(self._game, self.player, rng, max_trials or MAX_TRIALS,
                             position_value(self._game.rs, by), belief, replies)

    def sampler(self, belief: str = "view"):
        """A function rng -> a world this player could believe in (a Game to search in; see
        engine/lookahead.Sampler; `belief` as in `option_values`)."""
        from ..engine.lookahead import Sampler
        return Sampler(self._game, self.player, belief)

    def evaluation(self, by: str = "auto"):
        """How good a position is for each player (game state -> numbers), or None: by the ruleset's
        `agents: evaluate` ("evaluate"), its score totals ("score"), or the first it has ("auto"); see
        engine/lookahead.evaluator."""
        from ..engine.lookahead import evaluator
        return evaluator(self._game.rs, by)

    def why_not(self, text: str) -> str:
        """Why `text` is not a legal option now (the condition that failed, with its values), or ''."""
        from ..engine.refusal import explain_refusal
        return explain_refusal(self._game, text)

    def has_evaluation(self, by: str = "auto") -> bool:
        """Whether a position can be scored: by `agents: evaluate`, by score parts, or ("auto") by either."""
        rs = self._game.rs
        return ((rs.evaluate is not None and by != "score")
                or (bool(rs.scoring.parts) and by != "evaluate"))


class Option:
    """A setting an agent takes in its spec (`mcts:iterations=400`): its kind (int, float, or a tuple of
    the words allowed), default, smallest value and a line of help."""

    def __init__(self, kind, default, help: str, low=None, words=()):
        self.kind, self.default, self.help, self.low, self.words = kind, default, help, low, words

    def read(self, text: str):
        """The value written after `key=`, or ValueError with what is expected."""
        if text == self.default or text in self.words:
            return text   # a word that stands for the default (depth=auto) or another way (depth=next)
        if isinstance(self.kind, tuple):
            if text not in self.kind:
                raise ValueError(f"one of {', '.join(self.kind)}")
            return text
        try:
            value = self.kind(text)
        except ValueError:
            raise ValueError("a whole number" if self.kind is int else "a number") from None
        if self.kind is float and not math.isfinite(value):
            raise ValueError("a finite number")
        if self.low is not None and value < self.low:
            raise ValueError(f"a number of at least {self.low}")
        return value

    def describe(self) -> str:
        kind = "|".join(self.kind) if isinstance(self.kind, tuple) else ("N" if self.kind is int else "X")
        if isinstance(self.default, str) and not isinstance(self.kind, tuple):
            kind += "".join(f"|{w}" for w in (self.default,) + tuple(self.words))
        return f"{kind}, default {self.default}: {self.help}"


class Agent:
    """Chooses an option index for a Request. `name` is how it is written in `--agents`; `OPTIONS` the
    settings it takes there (`name:key=value`)."""

    name = "agent"
    OPTIONS: dict = {}
    spec = None   # the spec it was made from (set by agents.spec.make_agent)

    def choose(self, request: Request) -> int:  # pragma: no cover - every agent overrides
        raise NotImplementedError

    @classmethod
    def settings_problem(cls, settings: dict) -> str | None:
        """What is wrong with these settings together (each one is valid alone), or None."""
        return None


def failure(exc: BaseException) -> str:
    """An exception from a user's code as one line: its kind, message and where it was raised."""
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if isinstance(exc, SyntaxError) and exc.filename:
        where = f" ({exc.filename}:{exc.lineno})"
    elif frames:
        where = f" ({frames[-1].filename}:{frames[-1].lineno})"
    message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return f"{type(exc).__name__}: {message}{where}"


class ViewAgent(Agent):
    """An object of one's own behind the agents' protocol (docs/agents.md, "Your own agent"): its
    `choose(view, options)` gets the player's view (as Game.view) and the option labels, nothing else,
    and returns an option's index; an exception it raises stops the game with a message naming it."""

    def __init__(self, inner, name: str | None = None):
        self.inner = inner
        self.name = name or type(inner).__name__

    def choose(self, request: Request) -> int:
        try:
            return self.inner.choose(request.view, list(request.options))
        except Exception as exc:
            raise GameError(f"agent '{self.name}' failed: {failure(exc)}", "agent") from None


def adopt(agent) -> Agent:
    """An agent as `play` drives it: a built-in (or any Agent) as it is; any other object with a
    `choose` method is taken to follow the view protocol of one's own agents."""
    if isinstance(agent, Agent):
        return agent
    if not callable(getattr(agent, "choose", None)):
        raise GameError(f"{agent!r} is not an agent: it has no choose(view, options) method", "agent")
    return ViewAgent(agent)


def play(game, agents) -> dict:
    """Drive a game to its end with one agent per seat; return its result. An agent is a built-in one
    (`make_agent`) or an object of one's own with `choose(view, options)`."""
    agents = [adopt(a) for a in agents]
    picks = [picker(a) for a in agents]
    then = picks if any(pick is not None for pick in picks) else None
    while game.state.result is None:
        pending = game.state.pending
        player = pending[1]
        agent = agents[player]
        pick = picks[player]
        choice = agent.choose(Request(game, player)) if pick is None else pick(len(pending[2]))
        # against the decision pending now (an agent may have changed the game, as undo does)
        pending = game.state.pending
        if pending is None or type(choice) is not int or not 0 <= choice < len(pending[2]):
            choice = checked(choice, game, agent)   # refused with a clear message
        # count-only agents' decisions after this one are picked inside apply, without a pass of this loop
        refused = game.apply(choice, then)
        while refused is not None:   # a pick that is not an option index: refused in its agent's name
            refused = game.apply(checked(refused[1], game, agents[refused[0]]), then)
    return game.result


def picker(agent):
    """An agent's `pick(count)`, for an agent whose choice reads nothing but the number of options (it
    defines `pick` beside its `choose`: a subclass that changes `choose` alone is asked with a Request)."""
    for cls in type(agent).__mro__:
        if "choose" in cls.__dict__:
            return agent.pick if "pick" in cls.__dict__ else None
    return None


def checked(choice, game, agent) -> int:
    """An agent's answer, refused with a clear message unless it is an option index of the decision."""
    count = game.option_count()
    if type(choice) is bool or not isinstance(choice, int) or not 0 <= choice < count:
        who = getattr(agent, "spec", None) or getattr(agent, "name", type(agent).__name__)
        raise GameError(f"agent '{who}' chose {choice!r}, which is not an option index (0 to {count - 1})",
                        "agent")
    return int(choice)
