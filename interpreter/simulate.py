"""One seeded bot game -> a finished Game; many games -> statistics (kept here for older imports: see analysis/)."""
from __future__ import annotations

from .agents import make_agent, play
from .analysis.simulation import seat_agents, simulate
from .engine.game import Game

__all__ = ["play_one", "seat_agents", "simulate"]


def play_one(rules, players: int, seed: int, agent_names: list[str], params=None, record=False) -> Game:
    """One seeded game: agents get seeds derived from the game seed and their seat (as every simulation does)."""
    game = Game.new(rules, players, seed=seed, params=params, record=record)
    agents = [make_agent(name, seed=seed * 1000 + seat) for seat, name in enumerate(agent_names)]
    play(game, agents)
    return game
