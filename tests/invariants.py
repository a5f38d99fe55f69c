"""The invariants a game keeps at every decision, and a soak run that checks them all -> findings.

Shared by the fast suite (tests/test_invariants.py, tests/test_soak.py) and the long run
(benchmarks/soak.py). A soak game is played by bots (random, the ruleset's default bots, or any agent
specs) up to a decision limit, so that games random play cannot finish (Pit's markets) are checked as
far as they go; at every decision: the cards are all there, each once; every player's view holds only
cards they may see; the decision offers labelled options; and every so often a clone is independent,
a save restores to the same state, and the game replays from its seed and choices.
"""
from __future__ import annotations

import json
import random
from collections import Counter

from interpreter import Game, RulebookError
from interpreter.agents import Request, make_agent


def visible_slots(game, player):
    """Slots whose cards `player` may see, straight from the zone declarations."""
    rs = game.rs
    out = {}
    for z in rs.zones.values():
        for s, owner, _ in game.state.layout.slots(z):
            level = z.owner_sees if owner == player else z.others_see
            if level == "cards":
                out[s] = "all"
            elif level == "top":
                out[s] = "top"
    return out


def view_ids(view):
    """The card ids a view (made with ids=True) shows."""
    ids = []

    def walk(v):
        if isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict) and "card" in v:
            walk(v["card"])                       # a card with its variables: only the card is an id
        elif isinstance(v, dict):
            for k, x in v.items():
                if k == "known":
                    walk([card for _, card in x])   # [position, card] pairs
                elif k not in ("count", "backs"):
                    walk(x)
        elif isinstance(v, int) and not isinstance(v, bool):
            ids.append(v)
    walk(view["zones"])
    return ids


def conserved(game) -> str | None:
    cards = sorted(c for zone in game.state.zones for c in zone)
    if cards != list(range(len(game.rs.cards))):
        return "cards are not all there, each once"
    return None


def views_hold_only_what_may_be_seen(game) -> str | None:
    for p in range(game.state.n):
        allowed = set()
        for s, how in visible_slots(game, p).items():
            cards = game.state.zones[s]
            allowed.update(cards if how == "all" else cards[:1])
        allowed.update(c for c, who in game.state.known.items() if p in who)   # shown by a reveal
        seen = set(view_ids(game.view(p, ids=True)))
        if not seen <= allowed:
            return f"P{p + 1}'s view shows cards they may not see: {sorted(seen - allowed)[:5]}"
    return None


def decision_is_labelled(game) -> str | None:
    d = game.decision
    if not (len(d.options) == game.option_count() > 0 and all(isinstance(o, str) and o for o in d.options)):
        return "a decision without labelled options"
    if game.decision != d:
        return "a decision reads differently when asked twice"
    return None


def clone_and_save_round_trip(game) -> str | None:
    snapshot = json.dumps(game.to_json(), sort_keys=True)
    twin = game.clone()
    rng = random.Random(len(game.state.history))
    for _ in range(50):
        if twin.is_over:
            break
        twin.apply(rng.randrange(twin.option_count()))
    if json.dumps(game.to_json(), sort_keys=True) != snapshot:
        return "playing a clone changed the original"
    restored = Game.from_json(game.rs, json.loads(snapshot))
    if json.dumps(restored.to_json(), sort_keys=True) != snapshot:
        return "a save does not restore to the same state"
    return None


EVERY_DECISION = (conserved, views_hold_only_what_may_be_seen, decision_is_labelled)


def soak_game(rules, players: int, seed: int, agents, limit: int, params=None, every: int = 50) -> Counter:
    """One game by these agents (specs, one per seat) for at most `limit` decisions, every invariant checked
    -> counts: decisions, finished, and each finding ('violation: ...', 'exception: ...')."""
    found = Counter()
    game = Game.new(rules, players, seed=seed, params=params)
    bots = [make_agent(a, seed * 100 + i) for i, a in enumerate(agents)]
    try:
        for step in range(limit):
            if game.is_over:
                break
            for check in EVERY_DECISION + ((clone_and_save_round_trip,) if step % every == every - 1 else ()):
                problem = check(game)
                if problem:
                    found[f"violation: {problem}"] += 1
            p = game.current_player
            game.apply(bots[p].choose(Request(game, p)))
            found["decisions"] += 1
        again = Game.replay(rules, players, seed, game.state.history, params=params)
        if again.to_json() != game.to_json():
            found["violation: the game does not replay from its seed and choices"] += 1
        found["finished" if game.is_over else "stopped at the decision limit"] += 1
    except RulebookError as exc:   # a bundled ruleset played by bots should not stop in an error
        found[f"game error: {str(exc)[:120]}"] += 1
    except Exception as exc:       # noqa: BLE001 - the finding the soak is for
        found[f"exception: {type(exc).__name__}: {str(exc)[:120]}"] += 1
    return found


def findings(counts: Counter) -> dict:
    """The counts that are findings (violations, errors, exceptions)."""
    return {k: v for k, v in counts.items() if k.startswith(("violation", "game error", "exception"))}
