"""Play seeded games of a ruleset to find what reading cannot: actions never taken, games that stall, turns
that follow one another without a decision until the turn limit."""
from __future__ import annotations

from .analysis.runner import Batch, Runner, RulesetRef
from .analysis.simulation import error_place
from .errors import Diagnostic


def probe_games(rules, games: int) -> int:
    """How many games `probe` plays: `games` per player count."""
    return games * (rules.max_players - rules.min_players + 1)


def probe(rules, source, games: int, seed: int = 0, runner: Runner | None = None, progress=None) -> list[Diagnostic]:
    """`games` seeded games per player count with the ruleset's default bots -> warnings with locations."""
    runner = runner or Runner()
    agent = rules.default_agent or "random"
    counts = list(range(rules.min_players, rules.max_players + 1))
    ref = RulesetRef.of(rules)
    batches = [Batch(ref, players, (agent,) * players, seed, games, track_actions=True) for players in counts]
    taken: set[str] = set()
    errors: dict[int, Diagnostic] = {}
    stalled = {players: {} for players in counts}   # players -> reason -> games
    findings: list[Diagnostic] = []
    for b, record in runner.run(batches, progress):
        players = counts[b]
        if players in errors:
            continue   # the first error at a player count is reported; later games at that count are not read
        if record["error"] is not None:
            # told at the error's own place in the ruleset, where it has one (its line and caret shown)
            place, message = error_place(record), record["error"]
            if place is not None and message.startswith(f"{place}: "):
                message = message[len(f"{place}: "):]   # the diagnostic starts with the place already
            errors[players] = Diagnostic("probe-error", f"{players} players, seed {record['seed']}: {message}",
                                         place or source.location(("flow",)), "error")
            continue
        taken.update(record["actions"])
        quiet = record["turns"] - record.get("last_decision_turn", 0)
        if record["stalled"] and record["reason"].startswith("turn limit") and quiet > players:
            # nobody was asked anything for more than a round of the table, up to the limit: the
            # turns go round without a way out (a decision would have changed something)
            errors[players] = Diagnostic(
                "no-decision-loop", f"{players} players, seed {record['seed']}: from turn "
                f"{record['last_decision_turn']} to the turn limit ({record['turns']} turns) nobody was asked to "
                "choose: every turn passed without a decision, so the game could only stall",
                _turn_location(source), "error",
                "end the round or the game when nobody can act any more (a round's 'ends'), or give the "
                "steps an option that is always legal")
            continue
        if record["stalled"]:
            reasons = stalled[players]
            reasons[record["reason"]] = reasons.get(record["reason"], 0) + 1
    for players in counts:
        if players in errors:
            findings.append(errors[players])
        if not stalled[players]:
            continue
        why = "; ".join(f"{r} ({n})" for r, n in stalled[players].items())
        findings.append(Diagnostic(
            "stalls", f"with {players} players, {sum(stalled[players].values())} of {games} games with "
            f"'{agent}' bots ended as a stalled draw: {why}", source.location(("limits", "turns")), "warning",
            "a goal the cards make impossible, or a loop with no way out?"))
    for name in rules.actions:
        if name not in taken:
            findings.append(Diagnostic("never-taken", f"action '{name}' was never taken in "
                                       f"{games} games per player count", source.location(("actions", name),
                                                                                          key=True), "warning"))
    return findings


def _turn_location(source):
    """Where the turns that go round are written: the round's steps (or the nearest part of the flow)."""
    return source.location(("flow", "round", "turn", "steps"))
