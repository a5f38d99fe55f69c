"""Test helpers: arrange cards in a game by label, read zones as labels, play seeded random games."""
from __future__ import annotations

import random
from pathlib import Path

from interpreter import Game, load

ROOT = Path(__file__).resolve().parent.parent


def shipped_rulesets() -> list[Path]:
    return sorted((ROOT / "rulesets").rglob("*.yaml"))


def hidden_games() -> list[Path]:
    """The small hidden-information games the bots are measured on (tests/hidden/, benchmarks/agents.md),
    and the language's patterns (benchmarks/patterns/)."""
    return sorted((ROOT / "tests" / "hidden").glob("*.yaml")) + sorted((ROOT / "benchmarks" / "patterns").glob("*.yaml"))


def slot(game: Game, zone: str, owner: int | None = None, index: int = 0) -> int:
    return game.rs.zone_slot(zone, game.state.n, owner, index)


def labels(game: Game, zone: str, owner: int | None = None, index: int = 0) -> list[str]:
    return [game.rs.card_labels[c] for c in game.state.zones[slot(game, zone, owner, index)]]


def place(game: Game, zone: str, wanted: list[str], owner: int | None = None, index: int = 0,
          on_top: bool = False, reservoir: str = "deck") -> None:
    """Make a zone hold exactly `wanted` (labels, in order), or start with them if `on_top`.

    The zone's old cards go back to the reservoir zone first (unless `on_top`); wanted cards are
    taken from the reservoir, else from any other zone. Cards are moved, never created, so the
    game stays a legal arrangement of the same cards. Every zone changed gets a new list, as the engine's
    moves give it (a zone's list is never changed in place: clones and kept groups share it)."""
    g, rs = game.state, game.rs
    target = slot(game, zone, owner, index)
    res = slot(game, reservoir)
    if target == res and not on_top:
        raise AssertionError("a zone cannot be its own reservoir unless the cards go on top")
    if not on_top and target != res:
        g.zones[res] = g.zones[res] + g.zones[target]
        g.zones[target] = []
    chosen = []
    order = [res] + [s for s in range(len(g.zones)) if s not in (res, target)]
    if on_top:
        order.append(target)
    for label in wanted:
        for s in order:
            cards = g.zones[s]
            card = next((c for c in cards if rs.card_labels[c] == label), None)
            if card is not None:
                g.zones[s] = [c for c in cards if c != card]
                chosen.append(card)
                break
        else:
            raise AssertionError(f"no free card labelled {label!r}")
    g.zones[target] = chosen + (g.zones[target] if on_top else [])


def random_game(rules, players: int, seed: int, record: bool = False, check=None) -> Game:
    """Play a seeded game with uniform random choices; call check(game) after every choice."""
    game = Game.new(rules, players, seed=seed, record=record)
    rng = random.Random(seed)
    if check:
        check(game)
    while not game.is_over:
        game.apply(rng.randrange(game.option_count()))
        if check:
            check(game)
    return game


_cache = {}


def rules(name: str):
    if name not in _cache:
        _cache[name] = load(name)
    return _cache[name]


def may_see_card(game: Game, player: int, card) -> bool:
    """Whether `player` may see which card this is, wherever it lies now (its zone's level for that player,
    the top card of a 'top' zone, or a card revealed to them)."""
    g = game.state
    for zone in game.rs.zones.values():
        for slot, owner, _ in g.layout.slots(zone):
            cards = g.zones[slot]
            if card in cards:
                level = zone.level(player, owner)
                return level == "cards" or (level == "top" and cards[0] == card) or player in g.known.get(card, ())
    return False
