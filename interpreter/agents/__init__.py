"""Agents, along the pipeline: a decision -> a Request (base.py) -> an option index, chosen by a built-in
bot (simple.py, greedy.py, mcts.py), a person (human.py) or a user's class; specs name them (spec.py)."""
from __future__ import annotations

from .base import Agent, Option, Request, checked, play
from .greedy import GreedyAgent
from .human import HumanAgent, render_view
from .mcts import MctsAgent
from .simple import FirstAgent, RandomAgent
from .spec import AGENTS, AgentSpec, AgentSpecError, UserAgent, agent_problem, make_agent, parse_spec

__all__ = ["Agent", "Option", "Request", "checked", "play", "GreedyAgent", "HumanAgent", "render_view",
           "MctsAgent", "FirstAgent", "RandomAgent", "AGENTS", "AgentSpec", "AgentSpecError", "UserAgent",
           "agent_problem", "make_agent", "parse_spec"]
