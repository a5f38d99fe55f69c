"""Agent specs: the text `NAME[:key=value...]` or `module:ClassName[:key=value...]` -> a checked AgentSpec
-> an agent for one seat (built in, or a user's class behind the view-and-options protocol)."""
from __future__ import annotations

import importlib
import inspect
import os
import sys
from dataclasses import dataclass

import yaml

from ..errors import GameError, did_you_mean
from .base import Agent, ViewAgent, failure
from .greedy import GreedyAgent
from .human import HumanAgent
from .mcts import MctsAgent
from .simple import FirstAgent, RandomAgent

AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "mcts": MctsAgent, "human": HumanAgent}


class AgentSpecError(GameError):
    """An agent spec that names no agent, or gives it a setting it does not take (a usage error)."""

    def __init__(self, message: str):
        super().__init__(message, "agent-spec")


@dataclass(frozen=True)
class AgentSpec:
    """A checked spec: its text as written (the agent's name in statistics), the built-in agent's name or
    the user's `module:Class`, and its settings."""

    text: str
    name: str
    options: tuple = ()      # (key, value) pairs
    user: bool = False

    def make(self, seed: int = 0) -> Agent:
        """A fresh agent for one seat; `seed` seeds whatever it draws at random."""
        if self.user:
            agent = UserAgent(load_class(self.name), seed, dict(self.options), self.text)
        elif self.name == "human":
            agent = HumanAgent()
        else:
            agent = AGENTS[self.name](seed, **dict(self.options))
        agent.spec = self.text
        return agent


def parse_spec(text: str) -> AgentSpec:
    """Read one agent spec; AgentSpecError says what is wrong with it."""
    text = text.strip()
    parts = text.split(":")
    head = parts[0].strip()
    if not head:
        raise AgentSpecError(f"'{text}' names no agent (agents: {', '.join(AGENTS)}, or module:ClassName)")
    if head not in AGENTS and len(parts) > 1 and "=" not in parts[1]:
        # module:ClassName, then settings passed to the class
        cls = parts[1].strip()
        if not cls.isidentifier() or not all(p.isidentifier() for p in head.split(".")):
            raise AgentSpecError(f"'{head}:{cls}' is not module:ClassName (a Python module path and a class name)")
        options = tuple(_setting(text, part, None) for part in parts[2:])
        return AgentSpec(text, f"{head}:{cls}", options, user=True)
    if head not in AGENTS:
        hint = did_you_mean(head, AGENTS)
        raise AgentSpecError(f"unknown agent '{head}' (agents: {', '.join(AGENTS)}, or module:ClassName)"
                             + (f"; {hint}" if hint else ""))
    known = AGENTS[head].OPTIONS
    options = []
    for part in parts[1:]:
        key, value = _setting(text, part, head)
        if key not in known:
            hint = did_you_mean(key, known)
            takes = f"it takes {', '.join(known)}" if known else "it takes none"
            raise AgentSpecError(f"agent '{head}' has no setting '{key}' ({takes})" + (f"; {hint}" if hint else ""))
        try:
            options.append((key, known[key].read(value)))
        except ValueError as exc:
            raise AgentSpecError(f"{head}'s '{key}' must be {exc}, not '{value}'") from None
    keys = [k for k, _ in options]
    for key in keys:
        if keys.count(key) > 1:
            raise AgentSpecError(f"'{text}' sets '{key}' twice")
    problem = AGENTS[head].settings_problem(dict(options))
    if problem is not None:
        raise AgentSpecError(problem)
    return AgentSpec(text, head, tuple(options))


def _setting(text: str, part: str, agent):
    """`key=value` -> (key, value): a built-in agent reads the value by its kind later, a user's class
    gets it as a YAML scalar (7, 0.5, true, word)."""
    key, eq, value = part.partition("=")
    key, value = key.strip(), value.strip()
    if not eq or not key.isidentifier():
        raise AgentSpecError(f"'{part}' in '{text}' is not key=value (settings follow the agent's name: "
                             f"NAME:key=value:key=value)")
    if agent is not None:
        return key, value
    try:
        read = yaml.safe_load(value) if value else ""
    except yaml.YAMLError:
        read = value
    return key, read if isinstance(read, (int, float, str, bool)) or read is None else value


def make_agent(spec, seed: int = 0) -> Agent:
    """An agent from a spec (text or AgentSpec); a seeded one where it draws at random."""
    if not isinstance(spec, AgentSpec):
        spec = parse_spec(spec)
    return spec.make(seed)


def agent_problem(spec: AgentSpec, rules) -> str | None:
    """Why this agent cannot play this ruleset, or None: agents that score positions need
    `agents: evaluate` or score parts."""
    options = dict(spec.options)
    if spec.name == "greedy" and options.get("by") == "evaluate" and rules.evaluate is None:
        return f"greedy:by=evaluate scores positions by 'agents: evaluate', but {rules.name} declares none"
    if spec.name == "greedy" and options.get("by") == "score" and not rules.scoring.parts:
        return f"greedy:by=score scores positions by the score parts, but {rules.name} has none"
    scores = rules.evaluate is not None or bool(rules.scoring.parts)
    if scores:
        return None
    if spec.name == "greedy":
        return (f"the greedy agent scores positions, but {rules.name} has neither 'agents: evaluate' nor "
                "score parts; use random or mcts")
    depth = options.get("depth", "auto")
    if spec.name == "mcts" and ((depth != "auto" and (depth == "next" or depth >= 0))
                                or options.get("reward") == "margin"):
        return (f"mcts with depth or reward=margin scores positions, but {rules.name} has neither "
                "'agents: evaluate' nor score parts")
    return None


# user agents ----------------------------------------------------------------------------------

def load_class(name: str):
    """`module:ClassName` -> the class, imported from the current folder or the Python path."""
    module_name, _, class_name = name.partition(":")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)   # `--agents mybot:MyBot` finds mybot.py where the command runs
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise AgentSpecError(f"cannot find the module '{module_name}' of agent '{name}' (in the current "
                                 "folder or the Python path)") from None
        raise AgentSpecError(f"importing '{module_name}' for agent '{name}' failed: {failure(exc)}") from None
    except Exception as exc:   # the user's module may raise anything while it loads
        raise AgentSpecError(f"importing '{module_name}' for agent '{name}' failed: {failure(exc)}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        names = [n for n in vars(module) if not n.startswith("_")]
        hint = did_you_mean(class_name, names)
        raise AgentSpecError(f"module '{module_name}' has no '{class_name}'" + (f"; {hint}" if hint else ""))
    if not inspect.isclass(cls) or not callable(getattr(cls, "choose", None)):
        raise AgentSpecError(f"'{name}' is not a class with a choose(view, options) method")
    return cls


class UserAgent(ViewAgent):
    """A user's class named in --agents (`module:Class:key=value`), made with its settings and put
    behind the view protocol."""

    def __init__(self, cls, seed: int, options: dict, text: str):
        self.name = text
        kwargs = dict(options)
        try:
            signature = inspect.signature(cls)
            takes = signature.parameters
            if "seed" in takes or any(p.kind is p.VAR_KEYWORD for p in takes.values()):
                kwargs.setdefault("seed", seed)
            signature.bind(**kwargs)
        except TypeError as exc:
            raise AgentSpecError(f"agent '{text}': {cls.__name__}() cannot take these settings: {exc}") from None
        except ValueError:
            pass   # no signature to read (a class written in C): just try
        try:
            self.inner = cls(**kwargs)
        except Exception as exc:
            raise AgentSpecError(f"agent '{text}' could not be created: {failure(exc)}") from None
