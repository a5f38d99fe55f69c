"""Play many seeded games with agents -> statistics: wins per seat and agent, stalls, lengths, score parts."""
from __future__ import annotations

import statistics
import time

from .agents import make_agent, play
from .engine.game import Game


def seat_agents(names: list[str], players: int) -> list[str]:
    """Agent names for each seat: the list given, repeated to fill the table."""
    if not names:
        names = ["random"]
    return [names[i % len(names)] for i in range(players)]


def play_one(rules, players: int, seed: int, agent_names: list[str], params=None, record=False) -> Game:
    """One seeded game: agents get seeds derived from the game seed and their seat."""
    game = Game.new(rules, players, seed=seed, params=params, record=record)
    agents = [make_agent(name, seed=seed * 1000 + seat) for seat, name in enumerate(agent_names)]
    play(game, agents)
    return game


def simulate(rules, games: int, players: int, agent_names: list[str], seed: int = 0, params=None,
             progress=None) -> dict:
    """Run `games` games with seeds seed, seed+1, ... and summarise them."""
    seats = seat_agents(agent_names, players)
    wins = [0] * players
    shared = 0
    stalled = 0
    tie_breaks = 0
    lengths, reasons, rounds = [], {}, []
    var_sums: dict = {}
    part_sums: list[dict] = [dict() for _ in range(players)]
    start = time.perf_counter()
    decisions = 0
    for i in range(games):
        game = play_one(rules, players, seed + i, seats, params)
        result = game.result
        decisions += len(game.state.history)
        lengths.append(result["turns"])
        rounds.append(result["rounds"])
        for name, value in game.state.vars.items():
            if isinstance(value, int) and not isinstance(value, bool):
                var_sums[name] = var_sums.get(name, 0) + value
        reasons[result["reason"]] = reasons.get(result["reason"], 0) + 1
        if result["stalled"]:
            stalled += 1
        winners = result["winners"]
        for w in winners:
            wins[w] += 1
        if len(winners) > 1:
            shared += 1
        if result["tie_break_used"]:
            tie_breaks += 1
        for seat, row in enumerate(result["scores"]):
            for part, value in row.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    part_sums[seat][part] = part_sums[seat].get(part, 0) + value
        if progress is not None:
            progress(1)
    elapsed = time.perf_counter() - start
    by_agent: dict[str, dict] = {}
    for seat, name in enumerate(seats):
        entry = by_agent.setdefault(name, {"seats": 0, "wins": 0})
        entry["seats"] += 1
        entry["wins"] += wins[seat]
    return {
        "ruleset": rules.name,
        "players": players,
        "games": games,
        "seed": seed,
        "agents": seats,
        "wins_per_seat": {f"P{s + 1}": wins[s] for s in range(players)},
        "wins_per_agent": by_agent,
        "shared_wins": shared,
        "stalled": stalled,
        "tie_breaks_used": tie_breaks,
        "end_reasons": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "turns_mean": statistics.fmean(lengths) if lengths else 0.0,
        "rounds_mean": statistics.fmean(rounds) if rounds else 0.0,
        # the game's numeric variables at the end (counters a ruleset keeps), per game and per round
        "variables_mean": {k: v / games for k, v in var_sums.items()} if games else {},
        "variables_per_round": {k: v / max(sum(rounds), 1) for k, v in var_sums.items()},
        "turns_median": statistics.median(lengths) if lengths else 0.0,
        "mean_score_parts": {f"P{s + 1}": {k: v / games for k, v in part_sums[s].items()} for s in range(players)}
        if games else {},
        "decisions": decisions,
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else 0.0,
    }
