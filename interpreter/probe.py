"""Play seeded games of a ruleset to find what reading cannot: actions never taken, games that stall."""
from __future__ import annotations

from .agents import Request, make_agent
from .engine.game import Game
from .errors import Diagnostic, GameError


def probe(rules, source, games: int, seed: int = 0) -> list[Diagnostic]:
    """`games` seeded games per player count with the ruleset's default bots -> warnings with locations."""
    taken: set[str] = set()
    findings: list[Diagnostic] = []
    agent = rules.default_agent or "random"
    for players in range(rules.min_players, rules.max_players + 1):
        stalled, reasons = 0, {}
        for i in range(games):
            game = Game.new(rules, players, seed=seed + i, record=False)
            bots = [make_agent(agent, seed=(seed + i) * 1000 + p) for p in range(players)]
            try:
                while not game.is_over:
                    node_id, who, options = game.state.pending
                    choice = bots[who].choose(Request(game, who))
                    node = rules.nodes[node_id]
                    action_index = options[choice][0]
                    if getattr(node, "actions", None) and action_index >= 0:
                        taken.add(node.actions[action_index].name)
                    game.apply(choice)
            except GameError as exc:
                findings.append(Diagnostic("probe-error", f"{players} players, seed {seed + i}: {exc}",
                                           source.location(("flow",)), "error"))
                break
            if game.result["stalled"]:
                stalled += 1
                reasons[game.result["reason"]] = reasons.get(game.result["reason"], 0) + 1
        if stalled:
            why = "; ".join(f"{r} ({n})" for r, n in reasons.items())
            findings.append(Diagnostic(
                "stalls", f"with {players} players, {stalled} of {games} games with '{agent}' bots ended "
                f"as a stalled draw: {why}", source.location(("limits", "turns")), "warning",
                "a goal the cards make impossible, or a loop with no way out?"))
    for name in rules.actions:
        if name not in taken:
            findings.append(Diagnostic("never-taken", f"action '{name}' was never taken in "
                                       f"{games} games per player count", source.location(("actions", name),
                                                                                          key=True), "warning"))
    return findings
